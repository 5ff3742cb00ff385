// libFuzzer target of the current dbcop's formats: the first byte chooses
// the reader (even: JSON, odd: .hist text) and the --init mode (its half),
// the rest is the input; the seeds start with '0' (JSON) or '1' (.hist),
// read with --init auto. Only InputError may escape a reader, and what it
// returns must keep the readers' promises (fuzz_checks.hpp): the .hist
// reader names every operation's line, the JSON reader none.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/history/formats/formats.hpp"
#include "fuzz/fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const bool hist = data[0] % 2 == 1;
  iso::ReadOptions options;
  options.init = fuzzcheck::mode(data[0] / 2);
  try {
    iso::ReadResult r = hist ? iso::read_dbcop_hist(text, "fuzz.hist", options)
                             : iso::read_dbcop_json(text, "fuzz.json", options);
    fuzzcheck::verify(r, /*lines=*/hist);
  } catch (const iso::InputError&) {
  }
  return 0;
}
