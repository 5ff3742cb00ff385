// Prediction (cegis/predictor.hpp) against its brute-force reference
// (tests/brute/predict.hpp): on random small runs, a prediction is found
// exactly when the reference enumerates one, for causal consistency and
// read committed, with strict and relaxed boundaries; every prediction
// found is allowed by the weak level and forbidden by serializability.
#include <doctest/doctest.h>

#include <random>
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

cegis::PredictResult run(const History& h, const std::string& level, cegis::PredictMode mode) {
  return cegis::predict(h, library().level(level), library().level("biswas.SER"), mode);
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
  REQUIRE(r.changed.size() == 1);
  CHECK(h.txn_name(r.changed[0].reader) == "T2.0");
  CHECK(r.changed[0].writer == kInitTxn);
  CHECK(decide(*r.history, library().level("biswas.CC")).verdict == Verdict::Allowed);
  CHECK(decide(*r.history, library().level("biswas.SER")).verdict == Verdict::Violated);
  CHECK(run(h, "biswas.SER", cegis::PredictMode::Strict).outcome == cegis::Outcome::None);
}

TEST_CASE("predict: found exactly when the brute force finds a prediction") {
  std::mt19937_64 rng(15);
  brute::RandomHistoryOptions opt;
  opt.max_txns = 4;
  opt.int_violation = 0;
  opt.thin_air = 0;
  int found = 0, none = 0;
  for (int i = 0; i < 400; ++i) {
    const History h = brute::random_history(rng, opt);
    // An observed run is serializable (IsoPredict's premise): a prediction
    // then changes some read.
    if (!brute::allows(abstract_history(h), "biswas.SER")) continue;
    for (const auto mode : {cegis::PredictMode::Strict, cegis::PredictMode::Relaxed}) {
      const auto bmode = mode == cegis::PredictMode::Strict ? brute::PredictMode::Strict : brute::PredictMode::Relaxed;
      for (const std::string level : {"biswas.CC", "biswas.RC"}) {
        std::vector<brute::Prediction> expected;
        try {
          expected = brute::predictions(h, level, bmode, 1);
        } catch (const std::invalid_argument&) {
          continue;  // a read of a write that is no transaction's last
        }
        INFO(format_history(h));
        INFO(level, mode == cegis::PredictMode::Strict ? " strict" : " relaxed");
        const auto r = run(h, level, mode);
        CHECK((r.outcome == cegis::Outcome::Found) == !expected.empty());
        if (r.outcome == cegis::Outcome::Found) {
          INFO(format_history(*r.history));
          CHECK(decide(*r.history, library().level(level)).verdict == Verdict::Allowed);
          CHECK(decide(*r.history, library().level("biswas.SER")).verdict == Verdict::Violated);
          CHECK_FALSE(r.changed.empty());
          ++found;
        } else {
          ++none;
        }
      }
    }
  }
  MESSAGE(found, " found, ", none, " none");
  CHECK(found > 30);
  CHECK(none > 30);
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
  CHECK(r.changed.empty());
  // Not causal as observed: each transaction reads the other's write. No
  // causal store produced it, and nothing is predicted.
  const History cyclic = trace(
      "WRITE KEY[p] Txn(0, 0)\n"
      "WRITE KEY[q] Txn(0, 0)\n"
      "WRITE KEY[q] Txn(1, 0)\n"
      "READ KEY[p] Txn(1, 0) From(2, 0)\n"
      "WRITE KEY[p] Txn(2, 0)\n"
      "READ KEY[q] Txn(2, 0) From(1, 0)\n");
  const auto c = run(cyclic, "biswas.CC", cegis::PredictMode::Strict);
  CHECK(c.observed_under == Verdict::Violated);
  CHECK(c.outcome == cegis::Outcome::None);
  // Not read committed as observed: T2.0 reads T1.0's p, then the q that
  // T1.0 had overwritten.
  const History fractured = trace(
      "WRITE KEY[p] Txn(0, 0)\n"
      "WRITE KEY[q] Txn(0, 0)\n"
      "READ KEY[q] Txn(1, 0) From(0, 0)\n"
      "WRITE KEY[q] Txn(1, 0)\n"
      "WRITE KEY[p] Txn(1, 0)\n"
      "READ KEY[p] Txn(2, 0) From(1, 0)\n"
      "READ KEY[q] Txn(2, 0) From(0, 0)\n");
  for (const std::string level : {"biswas.RC", "biswas.CC"}) {
    INFO(level);
    const auto f = run(fractured, level, cegis::PredictMode::Strict);
    CHECK(f.observed_under == Verdict::Violated);
    CHECK(f.outcome == cegis::Outcome::None);
  }
}
