// Predicate reads and writes under strict serializability: the checker
// builds no candidate writer that real time excludes
// (engine/history/real_time_cut.hpp). Checked on random histories with
// predicate reads and writes, with and without timestamps, against the
// generic oracle (which builds every candidate) and the brute force over
// every commit order that contains real time.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/history/printer.hpp"
#include "engine/polygraph/checker.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;

namespace {

// Transactions in a random order of slots ten ticks apart, each from a
// random start in its slot for up to 14 ticks: many pairs ordered by real
// time, some overlapping; now and then one without times, a skew, or no
// times at all.
void slotted_times(std::mt19937_64& rng, History& h) {
  if (rng() % 5 == 0) return;  // no timestamps: nothing to cut
  std::vector<TxnId> order(h.num_txns() - 1);
  std::iota(order.begin(), order.end(), TxnId{1});
  std::shuffle(order.begin(), order.end(), rng);
  for (std::size_t slot = 0; slot < order.size(); ++slot) {
    if (rng() % 8 == 0) continue;
    const auto b = static_cast<std::int64_t>(10 * slot + rng() % 6);
    h.txn(order[slot]).begin = b;
    h.txn(order[slot]).commit = b + static_cast<std::int64_t>(rng() % 15);
  }
  h.set_clock_skew(static_cast<std::int64_t>(rng() % 4 == 0 ? rng() % 4 : 0));
}

std::size_t candidate_count(const AbstractHistory& a) {
  std::size_t n = 0;
  for (TxnId t : a.txns)
    for (std::size_t i = 0; i < a.abs[t].reads.size(); ++i) n += a.candidates[t][i].size();
  return n;
}

}  // namespace

TEST_CASE("predicates under strict serializability: the real-time cut of candidates changes no verdict") {
  std::mt19937_64 rng(2811);
  const Level& strict = library().level("biswas.StrictSER");
  int allowed = 0, violated = 0, cut = 0, writes = 0;
  for (int i = 0; i < 600; ++i) {
    brute::RandomHistoryOptions opt;
    opt.max_txns = 5;
    opt.unique_values = i % 3 != 0;
    opt.int_violation = 0;
    opt.thin_air = 0;
    History h = brute::random_history(rng, opt);
    brute::add_predicate_reads(rng, h);
    if (i % 2 == 0) brute::add_predicate_writes(rng, h, 2);
    if (i % 7 == 0) h.txn(1 + static_cast<TxnId>(rng() % (h.num_txns() - 1))).status = TxnStatus::Unknown;
    if (predicate_write_gap(h)) continue;
    slotted_times(rng, h);
    INFO(format_history(h), "\nclock skew ", h.clock_skew());
    const Decision d = decide(h, strict);
    REQUIRE(d.verdict != Verdict::Unknown);
    const bool got = d.verdict == Verdict::Allowed;
    CHECK(got == brute::allows_some_commit(h, "biswas.StrictSER"));
    DecideOptions generic;
    generic.force_generic = true;
    CHECK((decide(h, strict, generic).verdict == Verdict::Allowed) == got);
    DecideOptions eager;
    eager.acyclicity = poly::Acyclicity::Eager;
    CHECK((decide(h, strict, eager).verdict == Verdict::Allowed) == got);
    const std::size_t all = candidate_count(poly::check_abstraction(h, true));
    const std::size_t kept = candidate_count(poly::check_abstraction(h, true, true));
    CHECK(kept <= all);
    cut += kept < all;
    writes += h.has_predicate_writes() && kept < all;
    (got ? allowed : violated)++;
  }
  MESSAGE(allowed, " allowed, ", violated, " violated; ", cut, " with candidates cut (", writes,
          " with predicate writes)");
  CHECK(allowed > 60);
  CHECK(violated > 60);
  CHECK(cut > 60);
  CHECK(writes > 20);
}
