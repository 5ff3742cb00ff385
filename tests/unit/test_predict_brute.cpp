// The brute-force reference of prediction (tests/brute/predict.hpp) on
// IsoPredict's own example (its README, simple_serial_2s3t): a serializable
// run whose second transaction, under causal consistency, could have read
// y from the initial state instead, which no serial order explains.
#include <doctest/doctest.h>

#include <string>

#include "engine/history/formats/formats.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/predict.hpp"

using namespace iso;

namespace {

History trace(const std::string& text) { return read_isopredict(text, "trace", {}).history; }

const char* kSerial2s3t =
    "WRITE KEY[x] Txn(0, 0)\n"
    "WRITE KEY[y] Txn(0, 0)\n"
    "WRITE KEY[y] Txn(1, 0)\n"
    "READ KEY[x] Txn(1, 0) From(0, 0)\n"
    "WRITE KEY[x] Txn(2, 0)\n"
    "READ KEY[y] Txn(2, 0) From(1, 0)\n";

}  // namespace

TEST_CASE("predict (brute force): IsoPredict's README example") {
  const History h = trace(kSerial2s3t);
  CHECK(brute::allows(abstract_history(h), "biswas.SER"));
  const auto causal = brute::predictions(h, "biswas.CC");
  REQUIRE(causal.size() == 1);
  // T2.0 reads y from the initial state, not from T1.0.
  const auto& p = causal.front();
  REQUIRE(p.changed.size() == 1);
  CHECK(h.txn_name(p.changed[0].reader) == "T2.0");
  CHECK(p.changed[0].writer == kInitTxn);
  CHECK(format_history(p.history).find("T2.0: w(x,1) r(y,0)") != std::string::npos);
  CHECK(format_history(p.history).find("T1.0: w(y,1) r(x,0)") != std::string::npos);
  // Read committed allows it too; serializability itself allows none.
  CHECK_FALSE(brute::predictions(h, "biswas.RC").empty());
  // Relaxed keeps the whole transaction of a changed read: the same here.
  CHECK(brute::predictions(h, "biswas.CC", brute::PredictMode::Relaxed).size() == 1);
  CHECK(brute::predictions(h, "biswas.SER").empty());
}

TEST_CASE("predict (brute force): a changed read drops the rest of its session") {
  // T1.0 reads y and writes x; T2.0 reads T1.0's x and writes y. Letting
  // T1.0 read T2.0's y instead would be a write skew, but the changed read
  // is its session's boundary: T1.0's write of x after it is dropped, so
  // T2.0 cannot read it and must change too, which drops T2.0's write of y
  // that T1.0 now reads. Changing T2.0's read alone (to the initial x)
  // drops its write of y: T2.0 then reads before T1.0, serializably. No
  // prediction; one that kept the writes after a changed read would report
  // the write skew.
  const History h = trace(
      "WRITE KEY[x] Txn(0, 0)\n"
      "WRITE KEY[y] Txn(0, 0)\n"
      "READ KEY[y] Txn(1, 0) From(0, 0)\n"
      "WRITE KEY[x] Txn(1, 0)\n"
      "READ KEY[x] Txn(2, 0) From(1, 0)\n"
      "WRITE KEY[y] Txn(2, 0)\n");
  CHECK(brute::predictions(h, "biswas.RC").empty());
  CHECK(brute::predictions(h, "biswas.CC").empty());
  // Relaxed keeps the whole transaction of a changed read (IsoPredict's
  // Fig. 9f): T2.0 reads the initial x and still writes y, a write skew
  // with T1.0 as observed.
  const auto relaxed = brute::predictions(h, "biswas.CC", brute::PredictMode::Relaxed);
  REQUIRE_FALSE(relaxed.empty());
  bool skew = false;
  for (const auto& p : relaxed)
    skew = skew || format_history(p.history).find("T2.0: r(x,0) w(y,1)") != std::string::npos;
  CHECK(skew);
}

TEST_CASE("predict (brute force): from a run the level does not allow") {
  // Each transaction read the other's write: no causal store produced this
  // run. IsoPredict predicts from it all the same: once T1.0's read of x
  // changes, T1.0 may not commit, and T2.0's read of y must change too.
  // Both read the initial state: a write skew, the one prediction.
  const History h = trace(
      "WRITE KEY[x] Txn(0, 0)\n"
      "WRITE KEY[y] Txn(0, 0)\n"
      "WRITE KEY[y] Txn(1, 0)\n"
      "READ KEY[x] Txn(1, 0) From(2, 0)\n"
      "WRITE KEY[x] Txn(2, 0)\n"
      "READ KEY[y] Txn(2, 0) From(1, 0)\n");
  CHECK_FALSE(brute::allows(abstract_history(h), "biswas.CC"));
  const auto causal = brute::predictions(h, "biswas.CC");
  REQUIRE(causal.size() == 1);
  CHECK(causal.front().changed.size() == 2);
  CHECK(format_history(causal.front().history).find("T1.0: w(y,1) r(x,0)") != std::string::npos);
  CHECK(format_history(causal.front().history).find("T2.0: w(x,1) r(y,0)") != std::string::npos);
}

TEST_CASE("predict (brute force): the observed run itself, when the level allows it and SER forbids it") {
  // A write skew as observed: every boundary at its session's end keeps it
  // whole, nothing changed.
  const History h = trace(
      "WRITE KEY[x] Txn(0, 0)\n"
      "WRITE KEY[y] Txn(0, 0)\n"
      "WRITE KEY[y] Txn(1, 0)\n"
      "READ KEY[x] Txn(1, 0) From(0, 0)\n"
      "WRITE KEY[x] Txn(2, 0)\n"
      "READ KEY[y] Txn(2, 0) From(0, 0)\n");
  bool itself = false;
  for (const auto& p : brute::predictions(h, "biswas.CC"))
    itself = itself || (p.changed.empty() && format_history(p.history) == format_history(h));
  CHECK(itself);
}
