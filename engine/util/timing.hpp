// Wall-clock timing for the statistics the checkers and the synthesizer report.
#pragma once

#include <chrono>

namespace iso {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace iso
