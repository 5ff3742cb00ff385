// libFuzzer target: the Cobra reader on one client log made of the bytes.
// Only InputError is an acceptable outcome for bad input.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/history/formats/formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<iso::ClientLog> logs;
  logs.push_back(iso::ClientLog{"fuzz/T0.log",
                                std::string(reinterpret_cast<const char*>(data), size)});
  try {
    iso::read_cobra(logs, "fuzz", iso::ReadOptions{});
  } catch (const iso::InputError&) {
  }
  return 0;
}
