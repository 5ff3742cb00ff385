#include <doctest/doctest.h>

#include <random>
#include <string>

#include "engine/history/input_error.hpp"
#include "engine/history/one_line.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/random_history.hpp"

using namespace iso;

TEST_CASE("one-line notation: the catalogue's forms read back") {
  const History h = parse_one_line("T1: r(x,0) w(x,1); T3: w(y,2) [aborted] | T2: r(y,[2 3]) pr(v!=0: {x=1, 7=2}) "
                                   "pw([1,5]: 7)",
                                   "test");
  REQUIRE(h.sessions().size() == 2);
  CHECK(h.sessions()[0].size() == 2);
  const TxnId t3 = *h.find_txn("T3");
  CHECK(h.txn(t3).status == TxnStatus::Aborted);
  CHECK(h.txn(t3).session == 0);
  const TxnId t2 = *h.find_txn("T2");
  REQUIRE(h.txn(t2).ops.size() == 3);
  CHECK(h.txn(t2).ops[0].list != kNoList);
  CHECK(h.lists()[h.txn(t2).ops[0].list].size() == 2);
  CHECK(h.txn(t2).ops[1].kind == OpKind::PredicateRead);
  CHECK(h.predicate_reads()[h.txn(t2).ops[1].predicate].result.size() == 2);
  CHECK(h.keys()[*h.find_key("7")].integer);
  CHECK(!h.keys()[*h.find_key("x")].integer);
  CHECK(h.txn(t2).ops[2].kind == OpKind::PredicateWrite);
  CHECK(history_one_line(h, false) == "T1: r(x,0) w(x,1); T3: w(y,2) [aborted] | T2: r(y,[2 3]) pr(v!=0: {x=1, 7=2}) pw([1,5]: 7)");
}

TEST_CASE("one-line notation: random histories round-trip through the printer") {
  std::mt19937_64 rng(28);
  brute::RandomHistoryOptions opt;
  for (int i = 0; i < 300; ++i) {
    const History h = brute::random_history(rng, opt);
    const std::string text = history_one_line(h, false);
    const History back = parse_one_line(text, "random");
    CHECK(history_one_line(back, false) == text);
    CHECK(back.num_txns() == h.num_txns());
  }
}

TEST_CASE("one-line notation: malformed text is one error with its column") {
  CHECK_THROWS_WITH_AS(parse_one_line("T1: r(x,0", "s"), "s: column 10: expected ')'", InputError);
  CHECK_THROWS_WITH_AS(parse_one_line("T1: q(x)", "s"), doctest::Contains("column 5: expected an operation"),
                       InputError);
  CHECK_THROWS_WITH_AS(parse_one_line("T1: w(x,1) | T1: r(x,1)", "s"), doctest::Contains("T1 appears twice"),
                       InputError);
  CHECK_THROWS_WITH_AS(parse_one_line("T1: pr(v<<3: {})", "s"), doctest::Contains("predicate"), InputError);
  CHECK_THROWS_WITH_AS(parse_one_line("T1: w(x,abc)", "s"), doctest::Contains("integer or null"), InputError);
  CHECK_THROWS_AS(parse_one_line("T1: r(x,99999999999999999999)", "s"), InputError);
}
