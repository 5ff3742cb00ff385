// libFuzzer target: the native JSON reader on arbitrary bytes, with the
// --init mode the input's size chooses (so that the seeds stay plain
// histories). Only InputError is an acceptable outcome for bad input; a
// history it accepts must keep the readers' promises (fuzz_checks.hpp) and
// round-trip through write_native_json unchanged.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/history/formats/formats.hpp"
#include "fuzz/fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    iso::ReadResult r =
        iso::read_native(text, "fuzz.json", iso::ReadOptions{fuzzcheck::mode(size)});
    fuzzcheck::verify(r, /*lines=*/true);
  } catch (const iso::InputError&) {
  }
  return 0;
}
