#include <doctest/doctest.h>

#include <string>

#include "db/schedule.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/one_line.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;

TEST_CASE("run examples: each declared example exhibits its anomaly and some schedule realizes it") {
  std::size_t declared = 0;
  for (const Level* an : library().anomalies()) {
    if (an->run_example.empty()) continue;
    ++declared;
    INFO(an->name);
    const History h = parse_one_line(an->run_example, an->name);
    CHECK(decide(h, *an).verdict == Verdict::Violated);
    const db::ScheduleSearch s = db::find_schedules(h);
    CHECK_FALSE(s.schedules.empty());
  }
  // Non-repeatable read, G1c, G0 and the phantom.
  CHECK(declared == 4);
}

TEST_CASE("run examples: the forms they replace have no schedule, or only with dirty reads") {
  // The one-key G1c synthesis finds: each transaction reads the other's
  // write before making its own.
  const db::ScheduleSearch g1c = db::find_schedules(parse_one_line("T1: r(x,2) w(x,1) | T2: r(x,1) w(x,2)", "g1c"));
  CHECK(g1c.schedules.empty());
  CHECK(g1c.complete);
  // A non-repeatable read that returns the older value second.
  const db::ScheduleSearch nrr = db::find_schedules(parse_one_line("T1: r(x,1) r(x,0) | T2: w(x,1)", "nrr"));
  CHECK(nrr.schedules.empty());
  CHECK(nrr.complete);
  // The phantom through an uncommitted write: only reads of uncommitted
  // writes realize it.
  const db::ScheduleSearch phantom = db::find_schedules(parse_one_line("T1: w(x,1) w(y,1) | T2: pr(v!=0: {x=1})", "ph"));
  REQUIRE_FALSE(phantom.schedules.empty());
  for (const auto& s : phantom.schedules) CHECK(s.model == db::ReadModel::Uncommitted);
}
