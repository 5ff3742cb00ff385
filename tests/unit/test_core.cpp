// The transactions a violation needs (engine/decide/core.hpp), for levels
// the generic oracle decides: on random histories, the brute force confirms
// that the level rejects the core's part of the history and allows it
// without any one of the core's transactions.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>

#include <fmt/format.h>

#include "engine/decide/core.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;

TEST_CASE("violation core: minimal by deletion, by the brute force") {
  std::mt19937_64 rng(20261125);
  std::map<std::string, int> cores;
  for (int i = 0; i < 160; ++i) {
    const History h = small_random_history(rng, i % 2 == 1);
    for (const char* name : {"biswas.PC", "cerone.PSI", "adya.PL-2.99", "dbcop.RR"}) {
      const Level& level = library().level(name);
      const Decision d = decide(h, level);
      REQUIRE(d.verdict != Verdict::Unknown);
      if (d.verdict != Verdict::Violated || (d.anomaly && d.anomaly->cycle.empty())) continue;
      INFO(name, " on #", i, "\n", format_history(h));
      REQUIRE_FALSE(d.core.empty());
      std::vector<bool> keep(h.num_txns(), false);
      for (TxnId t : d.core) keep[t] = true;
      CHECK_FALSE(brute::allows_some_commit(part_of(h, keep), name));
      for (TxnId t : d.core) {
        keep[t] = false;
        CHECK_MESSAGE(brute::allows_some_commit(part_of(h, keep), name), "without ", h.txn_name(t));
        keep[t] = true;
      }
      cores[name]++;
    }
  }
  MESSAGE(fmt::format("cores checked per level: {}", [&] {
    std::string s;
    for (const auto& [k, v] : cores) s += fmt::format("{} {}; ", k, v);
    return s;
  }()));
  for (const char* name : {"biswas.PC", "cerone.PSI", "adya.PL-2.99", "dbcop.RR"}) CHECK(cores[name] >= 10);
}

TEST_CASE("violation core: the part keeps T0 and drops the reads of dropped writes") {
  const History h = non_repeatable_read_history();
  const TxnId t1 = 1, t2 = 2;
  const ValueId v0 = h.txn(t2).ops[0].value;
  std::vector<bool> keep(h.num_txns(), false);
  keep[t2] = true;
  const History p = part_of(h, keep);
  CHECK(p.txn(t1).ops.empty());
  REQUIRE(p.txn(t2).ops.size() == 1);  // r(x,1) read T1's write: gone; r(x,0) reads T0
  CHECK(p.txn(t2).ops[0].value == v0);
}
