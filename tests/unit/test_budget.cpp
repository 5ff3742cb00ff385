// The run's budget (engine/util/budget.hpp): deadlines narrow and restore,
// poll() throws past the deadline, and the heartbeat runs from poll() about
// once a second and never before the first second.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>

#include "engine/util/budget.hpp"

using namespace iso;
using Clock = std::chrono::steady_clock;

namespace {

// Polls until `done()` or `limit` seconds; returns the seconds spent.
template <class Done>
double poll_until(Done&& done, double limit) {
  const auto start = Clock::now();
  double spent = 0;
  while (!done() && spent < limit) {
    budget::poll();
    spent = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return spent;
}

}  // namespace

TEST_CASE("budget: a deadline narrows, never widens, and is restored") {
  CHECK(std::isinf(budget::remaining_seconds()));
  {
    budget::ScopedDeadline outer(0.5);
    CHECK(budget::remaining_seconds() <= 0.5);
    {
      budget::ScopedDeadline wider(100);
      CHECK(budget::remaining_seconds() <= 0.5);
      budget::ScopedDeadline narrower(0.1);
      CHECK(budget::remaining_seconds() <= 0.1);
    }
    CHECK(budget::remaining_seconds() > 0.1);
    CHECK_THROWS_AS(poll_until([] { return false; }, 5.0), TimeoutError);
  }
  CHECK_FALSE(budget::expired());
  CHECK_NOTHROW(poll_until([] { return false; }, 0.05));
}

TEST_CASE("budget: the heartbeat runs from poll after a second, and is restored") {
  int outer_beats = 0, inner_beats = 0;
  budget::ScopedHeartbeat outer([&] { ++outer_beats; });
  {
    budget::ScopedHeartbeat inner([&] { ++inner_beats; });
    poll_until([] { return false; }, 0.3);
    CHECK(inner_beats == 0);  // not within the first second
    const double spent = poll_until([&] { return inner_beats > 0; }, 5.0);
    CHECK(inner_beats == 1);
    CHECK(spent < 5.0);
  }
  CHECK(outer_beats == 0);  // the inner one replaced it while it lived
  poll_until([&] { return outer_beats > 0; }, 5.0);
  CHECK(outer_beats == 1);
  CHECK(inner_beats == 1);
}
