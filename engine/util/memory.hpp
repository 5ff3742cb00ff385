// The process's peak resident memory so far, for the statistics the
// checkers report per phase. Linux only (VmHWM in /proc/self/status);
// 0 where that is not available.
#pragma once

#include <cstddef>
#include <fstream>
#include <string>

namespace iso {

inline std::size_t peak_resident_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return static_cast<std::size_t>(std::stoull(line.substr(6))) * 1024;
  return 0;
}

}  // namespace iso
