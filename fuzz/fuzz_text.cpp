// Fuzz target of the line-based readers: the first byte chooses the reader
// (text r/w, AWDIT, IsoPredict) and the --init mode, the rest is the input.
// Only InputError may escape a reader, and what it returns must keep the
// readers' promises (fuzz_checks.hpp).
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
  options.init = fuzzcheck::mode(data[0] / 3);
  try {
    iso::ReadResult r;
    switch (data[0] % 3) {
      case 0: r = iso::read_text_rw(text, source, options); break;
      case 1: r = iso::read_awdit(text, source, options); break;
      default: r = iso::read_isopredict(text, source, options); break;
    }
    fuzzcheck::verify(r, /*lines=*/true);
  } catch (const iso::InputError&) {
  }
  return 0;
}
