// Fuzz target of the Elle reader: the first byte chooses the spelling (EDN
// or elle-cli JSON) and the --init mode, the rest is the history. Only
// InputError may escape the reader; anything else (a crash, a sanitizer
// report, a hang, a broken promise of fuzz_checks.hpp) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/history/formats/formats.hpp"
#include "fuzz/fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string source = "fuzz";
  iso::ReadOptions options;
  options.init = fuzzcheck::mode(data[0] >> 1);
  try {
    iso::ReadResult r = (data[0] & 1) ? iso::read_elle_json(text, source, options)
                                      : iso::read_elle_edn(text, source, options);
    fuzzcheck::verify(r, /*lines=*/true);
  } catch (const iso::InputError&) {
  }
  return 0;
}
