#include <doctest/doctest.h>

#include <string>

#include "db/schedule.hpp"
#include "engine/history/one_line.hpp"

using namespace iso;

namespace {

void times(History& h, const char* name, std::int64_t begin, std::int64_t commit) {
  Transaction& t = h.txn(*h.find_txn(name));
  t.begin = begin;
  t.commit = commit;
}

}  // namespace

TEST_CASE("schedules: a transaction begins after those that committed before it in real time") {
  // The stale read: T2 began after T1 committed, yet reads x's older value.
  History h = parse_one_line("T1: w(x,1) | T2: r(x,0)", "stale");
  times(h, "T1", 10, 10);
  times(h, "T2", 30, 40);
  const db::ScheduleSearch s = db::find_schedules(h);
  CHECK(s.schedules.empty());
  CHECK(s.complete);
  // With overlapping times, T2 may read before T1 commits.
  times(h, "T2", 5, 40);
  CHECK_FALSE(db::find_schedules(h).schedules.empty());
  // The real-time order holds in every schedule found: T1 ends before T3
  // begins.
  History k = parse_one_line("T1: w(x,1) | T2: r(x,0) r(y,1) | T3: w(y,1)", "order");
  times(k, "T1", 10, 20);
  times(k, "T3", 30, 40);
  db::ScheduleOptions opt;
  opt.max_schedules = 50;
  const db::ScheduleSearch all = db::find_schedules(k, opt);
  REQUIRE_FALSE(all.schedules.empty());
  for (const db::Schedule& sc : all.schedules) {
    std::size_t t1_end = 0, t3_first = sc.steps.size();
    for (std::size_t i = 0; i < sc.steps.size(); ++i) {
      if (sc.steps[i].txn == *k.find_txn("T1") && sc.steps[i].kind != db::Step::Kind::Op) t1_end = i;
      if (sc.steps[i].txn == *k.find_txn("T3")) t3_first = std::min(t3_first, i);
    }
    CHECK(t1_end < t3_first);
  }
}

TEST_CASE("schedules: each pass gives at most max_per_pass schedules") {
  // Write skew: many snapshot schedules, and committed-read ones too.
  const History h = parse_one_line("T1: r(x,0) w(y,1) | T2: r(y,0) w(x,1)", "ws");
  db::ScheduleOptions opt;
  opt.max_schedules = 6;
  opt.max_per_pass = 2;
  const db::ScheduleSearch s = db::find_schedules(h, opt);
  std::size_t snapshot = 0, committed = 0;
  for (const auto& sc : s.schedules) {
    snapshot += sc.model == db::ReadModel::Snapshot;
    committed += sc.model == db::ReadModel::Committed;
  }
  CHECK(snapshot == 2);
  CHECK(committed == 2);
}

TEST_CASE("schedules: a schedule found by several passes realizes the history under each of their models") {
  bool several = false;  // some schedule realizes its history under two models
  for (const char* text : {"T1: r(x,0) w(y,1) | T2: r(y,0) w(x,1)", "T1: w(x,1) | T2: r(x,1) r(y,0) | T3: r(x,0) r(y,1) | T4: w(y,1)",
                           "T1: w(x,1) w(y,1) | T2: r(x,0) r(y,1)"}) {
    INFO(std::string(text));
    const History h = parse_one_line(text, "h");
    db::ScheduleOptions opt;
    opt.max_schedules = 40;
    opt.max_per_pass = 10;
    const db::ScheduleSearch s = db::find_schedules(h, opt);
    REQUIRE_FALSE(s.schedules.empty());
    for (const db::Schedule& sc : s.schedules) {
      REQUIRE_FALSE(sc.models.empty());
      CHECK(sc.models.front() == sc.model);
      several |= sc.models.size() > 1;
      const auto reads = db::expected_reads(h, sc);
      for (db::ReadModel m : sc.models) {
        db::Schedule other = sc;
        other.model = m;
        CHECK(db::expected_reads(h, other) == reads);
      }
    }
  }
  CHECK(several);
}
