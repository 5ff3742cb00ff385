// libFuzzer target: the dbcop reader on arbitrary bytes. Only InputError is
// an acceptable outcome for bad input; anything else (a crash, a sanitizer
// report, another exception) is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/history/formats/formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    iso::read_dbcop(bytes, "fuzz.bincode", iso::ReadOptions{});
  } catch (const iso::InputError&) {
  }
  return 0;
}
