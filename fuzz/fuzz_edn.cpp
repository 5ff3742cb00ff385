// Fuzz target of the Elle reader: the first byte chooses the spelling (EDN
// or elle-cli JSON), the rest is the history. Only InputError may escape the
// reader; anything else (a crash, a sanitizer report, a hang) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/history/formats/formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string source = "fuzz";
  try {
    if (data[0] & 1)
      (void)iso::read_elle_json(text, source, iso::ReadOptions{});
    else
      (void)iso::read_elle_edn(text, source, iso::ReadOptions{});
  } catch (const iso::InputError&) {
  }
  return 0;
}
