// libFuzzer target: the Cobra reader on one client log made of the bytes,
// with the --init mode the input's size chooses (so that the seeds stay
// plain logs). Only InputError is an acceptable outcome for bad input.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/history/formats/formats.hpp"
#include "fuzz/fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<iso::ClientLog> logs;
  logs.push_back(iso::ClientLog{"fuzz/T0.log",
                                std::string(reinterpret_cast<const char*>(data), size)});
  try {
    iso::ReadResult r = iso::read_cobra(logs, "fuzz", iso::ReadOptions{fuzzcheck::mode(size)});
    fuzzcheck::verify(r, /*lines=*/false);
  } catch (const iso::InputError&) {
  }
  return 0;
}
