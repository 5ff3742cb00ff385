// Real time (LEVELS.md, "Real time"): the order rt between transactions
// whose begin and commit timestamps do not overlap (by more than the clock
// skew), and biswas.StrictSER, serializability whose commit order contains
// it. The level's verdicts are checked against the brute force, which
// enumerates commit orders placing each transaction after its real-time
// predecessors, on random histories with random intervals.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>

#include <fmt/format.h>

#include "cegis/synthesizer.hpp"
#include "engine/history/abstract.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/brute_witness.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;

namespace {

// T1 writes x = 1 and commits at 110; T2 begins at 120 and reads x = 0.
History stale_read() {
  return read_native_json_file(std::string(ISOSYNTH_SOURCE_DIR) + "/examples/histories/stale-read.json");
}

// Random intervals on the committed transactions: some left out (no
// timestamps), the rest [b, b + length) on a small clock, so that they
// overlap often and sometimes not.
void random_intervals(std::mt19937_64& rng, History& h) {
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    if (rng() % 6 == 0) continue;
    const std::int64_t b = static_cast<std::int64_t>(rng() % 40), len = static_cast<std::int64_t>(rng() % 15);
    h.txn(t).begin = b;
    h.txn(t).commit = b + len;
  }
  h.set_clock_skew(static_cast<std::int64_t>(rng() % 3 == 0 ? rng() % 8 : 0));
}

}  // namespace

TEST_CASE("real time: rt is commit before begin with both ends widened by the skew, T0 first") {
  History h = stale_read();
  const TxnId t1 = *h.find_txn("T1"), t2 = *h.find_txn("T2");
  CHECK(h.real_time_before(t1, t2));
  CHECK_FALSE(h.real_time_before(t2, t1));
  CHECK(h.real_time_before(kInitTxn, t1));
  CHECK_FALSE(h.real_time_before(t1, kInitTxn));
  // Vbox §3.2: commit + Δ < begin − Δ.
  h.set_clock_skew(4);
  CHECK(h.real_time_before(t1, t2));  // 110 + 4 < 120 - 4
  h.set_clock_skew(5);
  CHECK_FALSE(h.real_time_before(t1, t2));  // 115 = 115: concurrent
  h.set_clock_skew(9);
  CHECK_FALSE(h.real_time_before(t1, t2));  // not merely 110 + 9 < 120
  // No overflow at the extremes.
  h.set_clock_skew(INT64_MAX);
  CHECK_FALSE(h.real_time_before(t1, t2));
  CHECK(History::skew_before(INT64_MIN, INT64_MAX, INT64_MAX));  // -1 < 0
  CHECK_FALSE(History::skew_before(INT64_MIN + 1, INT64_MAX, INT64_MAX));  // 0 < 0
  h.txn(t2).begin.reset();
  h.set_clock_skew(0);
  CHECK_FALSE(h.real_time_before(t1, t2));  // no timestamp: no order
}

TEST_CASE("real time: a stale read is serializable, not strictly, until the skew covers it") {
  History h = stale_read();
  const Level& ser = library().level("biswas.SER");
  const Level& strict = library().level("biswas.StrictSER");
  CHECK(decide(h, ser).verdict == Verdict::Allowed);
  Decision d = decide(h, strict);
  CHECK(d.verdict == Verdict::Violated);
  CHECK_FALSE(brute::allows(abstract_history(h), "biswas.StrictSER"));
  // The graph path: a cycle that the real-time edge closes, named as Elle does.
  REQUIRE(d.anomaly.has_value());
  CHECK(d.anomaly->name == "G-single-realtime");
  const TxnId t1 = *h.find_txn("T1"), t2 = *h.find_txn("T2");
  CHECK(std::count(d.anomaly->cycle.begin(), d.anomaly->cycle.end(), DepEdge{t1, t2, Dep::RT, 0}) == 1);
  // The generic oracle: its failing instances name the real-time pair.
  DecideOptions generic;
  generic.force_generic = true;
  Decision g = decide(h, strict, generic);
  CHECK(g.verdict == Verdict::Violated);
  bool names_rt = false;
  REQUIRE(g.failing.has_value());
  for (const auto& i : g.failing->instances) names_rt = names_rt || i.formula.find("rt") != std::string::npos;
  CHECK(names_rt);
  h.set_clock_skew(10);
  CHECK(decide(h, strict).verdict == Verdict::Allowed);
  CHECK(brute::allows(abstract_history(h), "biswas.StrictSER"));
}

TEST_CASE("real time: StrictSER agrees with the brute force on random histories with intervals") {
  std::mt19937_64 rng(1979);
  const Level& strict = library().level("biswas.StrictSER");
  int allowed = 0, violated = 0, only_rt = 0;
  for (int i = 0; i < 1500; ++i) {
    brute::RandomHistoryOptions opt;
    opt.unique_values = i % 3 != 0;
    opt.max_txns = 5;
    History h = brute::random_history(rng, opt);
    random_intervals(rng, h);
    INFO(format_history(h), "\nclock skew ", h.clock_skew());
    Decision d = decide(h, strict);  // the SER polygraph with real-time edges
    REQUIRE(d.verdict != Verdict::Unknown);
    CHECK(d.checker == Checker::Polygraph);
    const bool got = d.verdict == Verdict::Allowed;
    CHECK(got == brute::allows_some_commit(h, "biswas.StrictSER"));
    if (i % 3 == 0) {
      DecideOptions generic;
      generic.force_generic = true;
      CHECK((decide(h, strict, generic).verdict == Verdict::Allowed) == got);
    }
    if (!got && d.anomaly) {
      // A named cycle: every real-time edge on it is one.
      for (const auto& e : d.anomaly->cycle)
        if (e.type == Dep::RT) CHECK(h.real_time_before(e.from, e.to));
    }
    const bool ser = decide(h, library().level("biswas.SER")).verdict == Verdict::Allowed;
    if (got) {
      ++allowed;
      CHECK(ser);  // StrictSER => SER
      REQUIRE(d.witness.has_value());
      brute::WitnessCheck c = brute::check_witness(h, "biswas.StrictSER", to_brute(h, *d.witness));
      CHECK_MESSAGE(c.ok, c.reason);
    } else {
      ++violated;
      only_rt += ser;
    }
  }
  CHECK(allowed > 300);
  CHECK(violated > 300);
  CHECK(only_rt > 100);  // violations that only real time closes
}

TEST_CASE("real time: synthesis finds the stale read, refuses the database's timestamps, and a check without timestamps says so") {
  cegis::Problem p;
  p.allow = {&library().level("biswas.SER")};
  p.deny = {&library().level("biswas.StrictSER")};
  p.scope = cegis::parse_scope("2,1,2");
  const cegis::SynthResult r = cegis::synthesize(p);
  REQUIRE(r.history.has_value());
  CHECK(r.history->num_txns() == 3);  // a read and a write: the stale read
  CHECK(decide(*r.history, library().level("biswas.StrictSER")).verdict == Verdict::Violated);
  p.allow = {&library().level("cerone.SI")};
  p.deny = {&library().level("cerone.TimestampSI")};
  CHECK_THROWS_WITH_AS(cegis::synthesize(p), doctest::Contains("reads the database's own timestamps"),
                       std::invalid_argument);
  History h = stale_read();
  h.txn(*h.find_txn("T2")).begin.reset();
  Decision d = decide(h, library().level("biswas.StrictSER"));
  CHECK(d.verdict == Verdict::Allowed);
  bool noted = false;
  for (const auto& n : d.notes) noted = noted || n.find("1 of 2 transactions have no begin or commit timestamp") != std::string::npos;
  CHECK(noted);
}
