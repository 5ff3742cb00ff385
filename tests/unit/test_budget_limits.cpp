// --timeout's extremes (engine/util/budget.hpp): a budget too large for the
// clock's nanoseconds saturates instead of overflowing into a deadline
// already passed, and NaN sets none.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "engine/util/budget.hpp"

using namespace iso;

TEST_CASE("budget: a huge or infinite budget saturates rather than expiring at once") {
  for (double seconds : {1e10, 1e19, 1e300, std::numeric_limits<double>::infinity()}) {
    CAPTURE(seconds);
    budget::ScopedDeadline d(seconds);
    CHECK_FALSE(budget::expired());
    CHECK_NOTHROW(budget::check());
    CHECK(budget::remaining_seconds() > budget::kMaxSeconds / 2);
    CHECK(budget::remaining_seconds() <= budget::kMaxSeconds);
    // Narrowing still works under a saturated deadline.
    budget::ScopedDeadline inner(0.5);
    CHECK(budget::remaining_seconds() <= 0.5);
  }
  CHECK(std::isinf(budget::remaining_seconds()));
}

TEST_CASE("budget: NaN, zero and negative budgets leave the deadline unchanged") {
  for (double seconds : {std::nan(""), 0.0, -1.0}) {
    CAPTURE(seconds);
    budget::ScopedDeadline d(seconds);
    CHECK(std::isinf(budget::remaining_seconds()));
    CHECK_FALSE(budget::expired());
  }
}
