// The run's time budget. One deadline per process, set by whoever runs the
// job (the command line's --timeout) and narrowed for a stage by
// ScopedDeadline; every loop of the engine that can run long polls it.
// Past the deadline, check() and poll() throw TimeoutError, which unwinds
// (everything is RAII) to the caller that asked for the budget: decide()
// turns it into an `unknown` verdict, the command line into exit code 3.
// SAT calls get the time left as their own limit (engine/sat/solver.cpp).
//
// Why a process-wide deadline rather than a parameter: the budget must bound
// every phase of a run (reading, construction, pruning, translation,
// solving, minimization, explanation), and threading a parameter through
// every reader, translator and graph routine would touch every signature
// for one number. The engine is single-threaded; the state is thread-local
// so that tests running checks in threads do not share it.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace iso {

// The run's deadline passed. what(): "time limit reached".
class TimeoutError : public std::runtime_error {
 public:
  TimeoutError() : std::runtime_error("time limit reached") {}
};

namespace budget {

using Clock = std::chrono::steady_clock;

namespace detail {
struct State {
  bool active = false;
  Clock::time_point deadline{};
  std::uint32_t polls = 0;
};
inline State& state() {
  thread_local State s;
  return s;
}
}  // namespace detail

// True when a deadline is set and has passed.
inline bool expired() {
  const auto& s = detail::state();
  return s.active && Clock::now() >= s.deadline;
}

// Seconds left before the deadline: +infinity when there is none, 0 when it
// has passed.
inline double remaining_seconds() {
  const auto& s = detail::state();
  if (!s.active) return std::numeric_limits<double>::infinity();
  const double left = std::chrono::duration<double>(s.deadline - Clock::now()).count();
  return left > 0 ? left : 0;
}

// Throws TimeoutError when the deadline has passed.
inline void check() {
  if (expired()) throw TimeoutError();
}

// check() once every 1024 calls: for tight loops, where reading the clock
// at every step would cost more than the step.
inline void poll() {
  auto& s = detail::state();
  if ((++s.polls & 1023u) == 0 && s.active && Clock::now() >= s.deadline) throw TimeoutError();
}

// Narrows the deadline to `seconds` from now for its lifetime (never widens
// it); `seconds` <= 0 leaves it unchanged. Restores the previous deadline
// when destroyed.
class ScopedDeadline {
 public:
  explicit ScopedDeadline(double seconds) : saved_(detail::state()) {
    if (seconds <= 0) return;
    auto& s = detail::state();
    const auto mine = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(seconds));
    if (!s.active || mine < s.deadline) {
      s.active = true;
      s.deadline = mine;
    }
  }
  ~ScopedDeadline() {
    auto& s = detail::state();
    s.active = saved_.active;
    s.deadline = saved_.deadline;
  }
  ScopedDeadline(const ScopedDeadline&) = delete;
  ScopedDeadline& operator=(const ScopedDeadline&) = delete;

 private:
  detail::State saved_;
};

}  // namespace budget
}  // namespace iso
