// The run's time budget. One deadline per process, set by whoever runs the
// job (the command line's --timeout) and narrowed for a stage by
// ScopedDeadline; every loop of the engine that can run long polls it.
// Past the deadline, check() and poll() throw TimeoutError, which unwinds
// (everything is RAII) to the caller that asked for the budget: decide()
// turns it into an `unknown` verdict, the command line into exit code 3.
// SAT calls get the time left as their own limit (engine/sat/solver.cpp).
// The same polls drive a heartbeat (ScopedHeartbeat): a long phase that
// has no natural place to report progress (a translation making millions
// of gates) still tells the user, about once a second, that it is working.
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
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

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
  const std::function<void()>* beat = nullptr;  // ScopedHeartbeat's callback
  Clock::time_point next_beat{};
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
// Also calls the heartbeat, if one is set and a second has passed since it
// last ran.
inline void poll() {
  auto& s = detail::state();
  if ((++s.polls & 1023u) != 0 || (!s.active && !s.beat)) return;
  const auto now = Clock::now();
  if (s.active && now >= s.deadline) throw TimeoutError();
  if (s.beat && now >= s.next_beat) {
    s.next_beat = now + std::chrono::seconds(1);
    (*s.beat)();
  }
}

// Longer budgets than this are the same as this one: about 31 years, later
// than any run ends, and, in the clock's nanoseconds, far from the 292 years
// past which a time point overflows (a --timeout of 1e10 seconds once
// overflowed into a deadline already passed).
inline constexpr double kMaxSeconds = 1e9;

// `seconds` (> 0) from now, with longer budgets saturated at kMaxSeconds.
inline Clock::time_point time_after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(seconds < kMaxSeconds ? seconds : kMaxSeconds));
}

// Narrows the deadline to `seconds` from now for its lifetime (never widens
// it); `seconds` <= 0 (or NaN) leaves it unchanged. Restores the previous
// deadline when destroyed.
class ScopedDeadline {
 public:
  explicit ScopedDeadline(double seconds) : saved_(detail::state()) {
    if (!(seconds > 0)) return;
    auto& s = detail::state();
    const auto mine = time_after(seconds);
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

// Calls `beat` from poll() about once a second, the first time a second
// after construction, for its lifetime; restores the previous heartbeat
// when destroyed. `beat` must not throw and should be cheap (print a line).
class ScopedHeartbeat {
 public:
  explicit ScopedHeartbeat(std::function<void()> beat)
      : beat_(std::move(beat)), saved_beat_(detail::state().beat), saved_next_(detail::state().next_beat) {
    auto& s = detail::state();
    s.beat = beat_ ? &beat_ : nullptr;
    s.next_beat = Clock::now() + std::chrono::seconds(1);
  }
  ~ScopedHeartbeat() {
    auto& s = detail::state();
    s.beat = saved_beat_;
    s.next_beat = saved_next_;
  }
  ScopedHeartbeat(const ScopedHeartbeat&) = delete;
  ScopedHeartbeat& operator=(const ScopedHeartbeat&) = delete;

 private:
  std::function<void()> beat_;
  const std::function<void()>* saved_beat_;
  Clock::time_point saved_next_;
};

}  // namespace budget
}  // namespace iso
