// Fuzz target of the line-based readers: the first byte chooses the reader
// (text r/w, AWDIT, IsoPredict) and the --init mode, the rest is the input.
// Only InputError may escape a reader.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/history/formats/formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string source = "fuzz";
  iso::ReadOptions options;
  switch ((data[0] / 3) % 3) {
    case 0: options.init = iso::InitMode::Auto; break;
    case 1: options.init = iso::InitMode::Implicit; break;
    default: options.init = iso::InitMode::Explicit; break;
  }
  try {
    switch (data[0] % 3) {
      case 0: (void)iso::read_text_rw(text, source, options); break;
      case 1: (void)iso::read_awdit(text, source, options); break;
      default: (void)iso::read_isopredict(text, source, options); break;
    }
  } catch (const iso::InputError&) {
  }
  return 0;
}
