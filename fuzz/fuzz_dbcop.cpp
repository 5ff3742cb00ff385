// libFuzzer target: the dbcop reader on arbitrary bytes, with the --init
// mode the input's size chooses (so that the seeds stay plain files). Only
// InputError is an acceptable outcome for bad input; anything else (a crash,
// a sanitizer report, another exception, a broken promise of
// fuzz_checks.hpp) is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/history/formats/formats.hpp"
#include "fuzz/fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    iso::ReadResult r =
        iso::read_dbcop(bytes, "fuzz.bincode", iso::ReadOptions{fuzzcheck::mode(size)});
    fuzzcheck::verify(r, /*lines=*/false);
  } catch (const iso::InputError&) {
  }
  return 0;
}
