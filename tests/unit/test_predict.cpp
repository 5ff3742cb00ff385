// Prediction (cegis/predictor.hpp) against its brute-force reference
// (tests/brute/predict.hpp): on random small runs, a prediction is found
// exactly when the reference enumerates one, for causal consistency and
// read committed, with strict and relaxed boundaries; every prediction
// found is allowed by the weak level and forbidden by serializability.
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <string>

#include "cegis/predictor.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/predict.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;

namespace {

cegis::PredictResult run(const History& h, const std::string& level, cegis::PredictMode mode,
                         double fewest_seconds = 1e9) {
  return cegis::predict(h, library().level(level), library().level("biswas.SER"),
                        cegis::PredictOptions{mode, 0, 1, fewest_seconds, {}});
}

// Random observed runs of up to `max_txns` transactions, reads justified.
brute::RandomHistoryOptions observed_runs(int max_txns) {
  brute::RandomHistoryOptions opt;
  opt.max_txns = max_txns;
  opt.int_violation = 0;
  opt.thin_air = 0;
  return opt;
}

}  // namespace

TEST_CASE("predict: IsoPredict's README example") {
  const History h = read_isopredict(
                        "WRITE KEY[x] Txn(0, 0)\n"
                        "WRITE KEY[y] Txn(0, 0)\n"
                        "WRITE KEY[y] Txn(1, 0)\n"
                        "READ KEY[x] Txn(1, 0) From(0, 0)\n"
                        "WRITE KEY[x] Txn(2, 0)\n"
                        "READ KEY[y] Txn(2, 0) From(1, 0)\n",
                        "trace", {})
                        .history;
  const auto r = run(h, "biswas.CC", cegis::PredictMode::Strict);
  REQUIRE(r.outcome == cegis::Outcome::Found);
  REQUIRE(r.runs.size() == 1);
  const auto& changed = r.runs[0].changed;
  REQUIRE(changed.size() == 1);
  CHECK(h.txn_name(changed[0].reader) == "T2.0");
  CHECK(changed[0].writer == kInitTxn);
  CHECK(decide(r.runs[0].history, library().level("biswas.CC")).verdict == Verdict::Allowed);
  CHECK(decide(r.runs[0].history, library().level("biswas.SER")).verdict == Verdict::Violated);
  CHECK(run(h, "biswas.SER", cegis::PredictMode::Strict).outcome == cegis::Outcome::None);
}

// A run as its non-empty transactions' names and operations: the predictor
// keeps a dropped transaction, empty, where the brute force leaves it out.
std::set<std::string> signature(const History& h) {
  std::set<std::string> out;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    if (h.txn(t).ops.empty()) continue;
    std::string s = h.txn(t).name + ":";
    for (const Op& op : h.txn(t).ops) s += " " + format_op(h, op);
    out.insert(s);
  }
  return out;
}

// On random runs, whatever the levels say of them, predict() finds a
// prediction exactly when the brute force does; the one it finds is one of
// the brute force's (so the mode's boundary is kept, and the brute force's
// levels allow it and forbid SER), and, searched for as long as it takes,
// it changes as few reads as any of them (otherwise at least as many). A
// run the level allows and SER forbids is its own prediction, nothing
// changed; a run the level does not allow is predicted from as any other
// (IsoPredict puts no condition on the observed run), and each outcome is
// seen on such runs too.
void check_complete(std::uint64_t seed, int tries, const std::vector<std::string>& levels, int max_txns = 4,
                    int max_sessions = 3, double fewest_seconds = 1e9) {
  std::mt19937_64 rng(seed);
  brute::RandomHistoryOptions opt = observed_runs(max_txns);
  opt.max_sessions = max_sessions;
  int found = 0, none = 0, itself = 0, not_allowed_found = 0, not_allowed_none = 0;
  for (int i = 0; i < tries; ++i) {
    const History h = brute::random_history(rng, opt);
    const bool serializable = brute::allows(abstract_history(h), "biswas.SER");
    for (const auto mode : {cegis::PredictMode::Strict, cegis::PredictMode::Relaxed}) {
      const auto bmode = mode == cegis::PredictMode::Strict ? brute::PredictMode::Strict : brute::PredictMode::Relaxed;
      for (const std::string& level : levels) {
        std::vector<brute::Prediction> expected;
        try {
          expected = brute::predictions(h, level, bmode);
        } catch (const std::invalid_argument&) {
          continue;  // a read of a write that is no transaction's last
        }
        const bool allowed = brute::allows(abstract_history(h), level);
        INFO(format_history(h));
        INFO(level, mode == cegis::PredictMode::Strict ? " strict" : " relaxed",
             allowed ? "" : ", observed not allowed");
        const auto r = run(h, level, mode, fewest_seconds);
        CHECK(r.observed_under == (allowed ? Verdict::Allowed : Verdict::Violated));
        CHECK(r.observed_ser == (serializable ? Verdict::Allowed : Verdict::Violated));
        CHECK((r.outcome == cegis::Outcome::Found) == !expected.empty());
        if (r.outcome == cegis::Outcome::Found) {
          REQUIRE(r.runs.size() == 1);
          INFO(format_history(r.runs[0].history));
          CHECK(decide(r.runs[0].history, library().level(level)).verdict == Verdict::Allowed);
          CHECK(decide(r.runs[0].history, library().level("biswas.SER")).verdict == Verdict::Violated);
          // Nothing changed exactly when the observed run is its own answer
          // (a prefix of a run the level does not allow can be one too).
          if (allowed) CHECK(r.runs[0].changed.empty() == !serializable);
          std::size_t fewest = SIZE_MAX;
          bool among = false;
          for (const auto& e : expected) {
            fewest = std::min(fewest, e.changed.size());
            among = among || signature(e.history) == signature(r.runs[0].history);
          }
          CHECK(among);
          if (fewest_seconds > 0) {
            CHECK(r.runs[0].changed.size() == fewest);
            CHECK(r.fewest);
            CHECK(r.fewest_below == fewest);
          } else {
            CHECK(r.runs[0].changed.size() >= fewest);
            CHECK(r.fewest_below <= fewest);
          }
          ++found;
          itself += allowed && !serializable;
          not_allowed_found += !allowed;
        } else {
          ++none;
          not_allowed_none += !allowed;
        }
      }
    }
  }
  MESSAGE(found, " found (", itself, " the observed run itself, ", not_allowed_found,
          " from a run the level does not allow), ", none, " none (", not_allowed_none,
          " from a run the level does not allow)");
  CHECK(found > 30);
  CHECK(none > 30);
  CHECK(itself > 5);
  CHECK(not_allowed_found > 10);
  CHECK(not_allowed_none > 10);
}

TEST_CASE("predict: found exactly when the brute force finds a prediction") {
  // Saturation levels, held to lazily by their cycles.
  check_complete(15, 400, {"biswas.CC", "biswas.RC"});
}

TEST_CASE("predict: complete under CC with stale reads ruled out by causal pasts") {
  // Longer runs over more sessions, where a boundary read's causal past
  // reaches across sessions: the writers ruled out before the search must
  // be only those every run taking them has a causal cycle with.
  check_complete(17, 800, {"biswas.CC"}, 7, 4);
}

TEST_CASE("predict: a relaxed boundary's reads change together as causal consistency needs") {
  // T2.0 read q and r from T1.0. Reading q from T0 alone is not causal:
  // T1.0, read for r, would overwrite T0's q in T2.0's past. Both reads
  // change together (a write skew); the joined pasts rule out the
  // combination before the search, so no candidate is a causal cycle.
  const History h = read_isopredict(
                        "WRITE KEY[p] Txn(0, 0)\n"
                        "WRITE KEY[q] Txn(0, 0)\n"
                        "WRITE KEY[r] Txn(0, 0)\n"
                        "READ KEY[p] Txn(1, 0) From(0, 0)\n"
                        "WRITE KEY[q] Txn(1, 0)\n"
                        "WRITE KEY[r] Txn(1, 0)\n"
                        "WRITE KEY[p] Txn(2, 0)\n"
                        "READ KEY[q] Txn(2, 0) From(1, 0)\n"
                        "READ KEY[r] Txn(2, 0) From(1, 0)\n",
                        "trace", {})
                        .history;
  const auto r = run(h, "biswas.CC", cegis::PredictMode::Relaxed);
  REQUIRE(r.outcome == cegis::Outcome::Found);
  const auto& changed = r.runs[0].changed;
  REQUIRE(changed.size() == 2);
  for (const auto& ch : changed) {
    CHECK(h.txn_name(ch.reader) == "T2.0");
    CHECK(ch.writer == kInitTxn);
  }
  CHECK(r.fewest);
  CHECK(r.cycles == 0);
  std::size_t fewest = SIZE_MAX;
  for (const auto& e : brute::predictions(h, "biswas.CC", brute::PredictMode::Relaxed))
    fewest = std::min(fewest, e.changed.size());
  CHECK(fewest == 2);
  // A strict boundary drops T2.0's read of r: q alone changes.
  const auto s = run(h, "biswas.CC", cegis::PredictMode::Strict);
  REQUIRE(s.outcome == cegis::Outcome::Found);
  CHECK(s.runs[0].changed.size() == 1);
}

TEST_CASE("predict: complete for Read Atomic and for levels held to by their formula") {
  // RA lazily; PC and SI are not decided by saturation: their formulas are
  // asserted over the space.
  check_complete(16, 500, {"biswas.RA", "biswas.PC", "biswas.SI"}, 5);
}

TEST_CASE("predict: past the search for the fewest, found exactly when the brute force finds one") {
  // --fewest-for 0: a search without a bound and one with a doubling bound
  // take turns; a prediction is still found exactly when one exists, and
  // it changes at least as many reads as the fewest.
  check_complete(18, 600, {"biswas.CC"}, 5, 3, 0);
}

TEST_CASE("predict: nothing takes part that happens after a transaction whose read changed") {
  // T2.0 could read a from T1.0, stale, and T1.2's read of b from T2.0
  // would then close a cycle (T2.0 -rw(a)-> T1.1 -ww(b)-> T2.0). But once
  // T2.0's read changes, T2.0 may not commit, or may write another b: T1.2,
  // which read T2.0's b, takes no part (IsoPredict's tx_in_boundary; its
  // "always serial" microbenchmarks), and nothing else is unserializable.
  const History h = read_isopredict(
                        "WRITE KEY[a] Txn(1, 0)\n"
                        "WRITE KEY[a] Txn(1, 1)\n"
                        "WRITE KEY[b] Txn(1, 1)\n"
                        "WRITE KEY[b] Txn(2, 0)\n"
                        "READ KEY[a] Txn(2, 0) From(1, 1)\n"
                        "READ KEY[b] Txn(1, 2) From(2, 0)\n"
                        "WRITE KEY[c] Txn(1, 2)\n",
                        "trace", {})
                        .history;
  for (const auto mode : {cegis::PredictMode::Strict, cegis::PredictMode::Relaxed}) {
    CHECK(run(h, "biswas.CC", mode).outcome == cegis::Outcome::None);
    CHECK(brute::predictions(h, "biswas.CC",
                             mode == cegis::PredictMode::Strict ? brute::PredictMode::Strict : brute::PredictMode::Relaxed)
              .empty());
  }
}

TEST_CASE("predict: the four kinds of IsoPredict's microbenchmarks") {
  auto trace = [](const char* text) { return read_isopredict(text, "trace", {}).history; };
  // Serializable whatever the reads take: every read has one writer (only
  // the initial state writes q), so nothing can change.
  const History serial = trace(
      "WRITE KEY[p] Txn(0, 0)\n"
      "WRITE KEY[q] Txn(0, 0)\n"
      "WRITE KEY[p] Txn(1, 0)\n"
      "READ KEY[q] Txn(1, 0) From(0, 0)\n"
      "READ KEY[q] Txn(2, 0) From(0, 0)\n"
      "WRITE KEY[p] Txn(2, 0)\n");
  for (const auto mode : {cegis::PredictMode::Strict, cegis::PredictMode::Relaxed})
    for (const std::string level : {"biswas.CC", "biswas.RC"}) {
      INFO(level);
      CHECK(run(serial, level, mode).outcome == cegis::Outcome::None);
    }
  // Serializable as observed, a prediction under causal: IsoPredict's README
  // example, the first test case.
  // Causal but not serializable as observed: both read the initial state
  // (a write skew); the run itself is the answer, nothing changed.
  const History skew = trace(
      "WRITE KEY[p] Txn(0, 0)\n"
      "WRITE KEY[q] Txn(0, 0)\n"
      "WRITE KEY[q] Txn(1, 0)\n"
      "READ KEY[p] Txn(1, 0) From(0, 0)\n"
      "WRITE KEY[p] Txn(2, 0)\n"
      "READ KEY[q] Txn(2, 0) From(0, 0)\n");
  const auto r = run(skew, "biswas.CC", cegis::PredictMode::Strict);
  CHECK(r.outcome == cegis::Outcome::Found);
  CHECK(r.observed_ser == Verdict::Violated);
  REQUIRE(r.runs.size() == 1);
  CHECK(r.runs[0].changed.empty());
  // Not causal as observed: each transaction reads the other's write. No
  // causal store produced it, but IsoPredict puts no condition on the
  // observed run: once T1.0's read of p changes to T0's, T1.0 may not
  // commit, so T2.0 cannot read its q and reads T0's too. Both read the
  // initial state: a write skew, which causal consistency allows.
  const History cyclic = trace(
      "WRITE KEY[p] Txn(0, 0)\n"
      "WRITE KEY[q] Txn(0, 0)\n"
      "WRITE KEY[q] Txn(1, 0)\n"
      "READ KEY[p] Txn(1, 0) From(2, 0)\n"
      "WRITE KEY[p] Txn(2, 0)\n"
      "READ KEY[q] Txn(2, 0) From(1, 0)\n");
  const auto c = run(cyclic, "biswas.CC", cegis::PredictMode::Strict);
  CHECK(c.observed_under == Verdict::Violated);
  REQUIRE(c.outcome == cegis::Outcome::Found);
  REQUIRE(c.runs[0].changed.size() == 2);
  for (const auto& ch : c.runs[0].changed) CHECK(ch.writer == kInitTxn);
  CHECK(c.fewest);
  CHECK(c.fewest_below == 2);
  // Not read committed as observed: T2.0 reads T1.0's p, then the q that
  // T1.0 had overwritten. With a relaxed boundary, T2.0 may read the
  // initial p and T1.0's q instead, which read committed allows and no
  // serial order explains; with a strict one, a changed read drops the
  // reads after it, and nothing unserializable is left. Causal consistency
  // allows neither: T1.0, read for q, happens before T2.0 and overwrote p.
  const History fractured = trace(
      "WRITE KEY[p] Txn(0, 0)\n"
      "WRITE KEY[q] Txn(0, 0)\n"
      "READ KEY[q] Txn(1, 0) From(0, 0)\n"
      "WRITE KEY[q] Txn(1, 0)\n"
      "WRITE KEY[p] Txn(1, 0)\n"
      "READ KEY[p] Txn(2, 0) From(1, 0)\n"
      "READ KEY[q] Txn(2, 0) From(0, 0)\n");
  for (const std::string level : {"biswas.RC", "biswas.CC"})
    for (const auto mode : {cegis::PredictMode::Strict, cegis::PredictMode::Relaxed}) {
      const bool relaxed = mode == cegis::PredictMode::Relaxed;
      INFO(level, relaxed ? " relaxed" : " strict");
      const auto f = run(fractured, level, mode);
      CHECK(f.observed_under == Verdict::Violated);
      const bool expected = level == "biswas.RC" && relaxed;
      CHECK((f.outcome == cegis::Outcome::Found) == expected);
      const auto bmode = relaxed ? brute::PredictMode::Relaxed : brute::PredictMode::Strict;
      CHECK(brute::predictions(fractured, level, bmode).empty() == !expected);
      if (expected) {
        REQUIRE(f.runs.size() == 1);
        CHECK(format_history(f.runs[0].history).find("T2.0: r(p,0) r(q,1)") != std::string::npos);
      }
    }
}

TEST_CASE("predict: a prefix of a run the level does not allow, nothing changed") {
  // T1.0 and T2.0 read the initial state: a write skew, causal. T1.1 then
  // reads T2.1's write, and T2.1 T1.1's: no causal store produced the
  // whole run. Its prefix up to the write skew (each session cut at a read
  // that keeps its writer) is the prediction, with no read changed.
  const History h = read_isopredict(
                        "WRITE KEY[p] Txn(0, 0)\n"
                        "WRITE KEY[q] Txn(0, 0)\n"
                        "WRITE KEY[r] Txn(0, 0)\n"
                        "WRITE KEY[s] Txn(0, 0)\n"
                        "WRITE KEY[q] Txn(1, 0)\n"
                        "READ KEY[p] Txn(1, 0) From(0, 0)\n"
                        "WRITE KEY[p] Txn(2, 0)\n"
                        "READ KEY[q] Txn(2, 0) From(0, 0)\n"
                        "WRITE KEY[r] Txn(1, 1)\n"
                        "READ KEY[s] Txn(1, 1) From(2, 1)\n"
                        "WRITE KEY[s] Txn(2, 1)\n"
                        "READ KEY[r] Txn(2, 1) From(1, 1)\n",
                        "trace", {})
                        .history;
  for (const auto mode : {cegis::PredictMode::Strict, cegis::PredictMode::Relaxed}) {
    const auto r = run(h, "biswas.CC", mode);
    CHECK(r.observed_under == Verdict::Violated);
    REQUIRE(r.outcome == cegis::Outcome::Found);
    CHECK(r.runs[0].changed.empty());
    CHECK(r.fewest);
    CHECK(r.fewest_below == 0);
    CHECK(decide(r.runs[0].history, library().level("biswas.CC")).verdict == Verdict::Allowed);
  }
}

TEST_CASE("predict: several predictions, each a new way to go wrong") {
  // On random runs, serializable, not, or not even allowed by the weak
  // level: every prediction is allowed by the weak level and forbidden by
  // serializability, and no prediction's changed reads contain an earlier
  // one's.
  std::mt19937_64 rng(16);
  const brute::RandomHistoryOptions opt = observed_runs(5);
  int several = 0, from_not_allowed = 0;
  for (int i = 0; i < 1000; ++i) {
    const History h = brute::random_history(rng, opt);
    cegis::PredictResult r;
    try {
      r = cegis::predict(h, library().level("biswas.RC"), library().level("biswas.SER"),
                         cegis::PredictOptions{cegis::PredictMode::Relaxed, 0, 4, 1e9, {}});
    } catch (const std::invalid_argument&) {
      continue;  // a read of a write that is no transaction's last
    }
    INFO(format_history(h));
    CHECK(r.runs.size() <= 4);
    several += r.runs.size() > 1;
    from_not_allowed += r.observed_under == Verdict::Violated && !r.runs.empty();
    for (std::size_t a = 0; a < r.runs.size(); ++a) {
      const auto& run_a = r.runs[a];
      CHECK(decide(run_a.history, library().level("biswas.RC")).verdict == Verdict::Allowed);
      CHECK(decide(run_a.history, library().level("biswas.SER")).verdict == Verdict::Violated);
      for (std::size_t b = 0; b < a; ++b) {
        bool contains = true;  // every change of the earlier one is in this one
        for (const auto& cb : r.runs[b].changed) {
          bool found = false;
          for (const auto& ca : run_a.changed)
            found = found || (ca.reader == cb.reader && ca.op == cb.op && ca.writer == cb.writer);
          contains = contains && found;
        }
        CHECK_FALSE(contains);
      }
    }
  }
  MESSAGE(several, " with several predictions, ", from_not_allowed, " predicted from a run RC does not allow");
  CHECK(several > 5);
  CHECK(from_not_allowed > 5);
}
