// Small views of a History that several tests need.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include <random>

#include "engine/decide/decide.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"
#include "tests/brute/random_history.hpp"

namespace iso {

// Every non-empty list read of the history, as (key, list), in transaction
// order.
inline std::vector<std::pair<KeyId, std::vector<ValueId>>> list_reads(const History& h) {
  std::vector<std::pair<KeyId, std::vector<ValueId>>> out;
  for (const auto& t : h.txns())
    for (const auto& op : t.ops)
      if (op.list != kNoList && !h.lists()[op.list].empty())
        out.emplace_back(op.key, h.lists()[op.list]);
  return out;
}

// The standard spec library, loaded once for all tests.
inline const lua::SpecLibrary& library() {
  static const lua::SpecLibrary lib;
  return lib;
}

// The generic oracle's decision: decide() forced past any graph
// characterization, so tests can compare the two.
inline Decision generic_decision(const History& h, const Level& level) {
  DecideOptions opt;
  opt.force_generic = true;
  return decide(h, level, opt);
}

// decide(). Levels that permit aborted or intermediate reads (Adya's PL-1)
// once refused such reads in a list; they decide them now (known_order.hpp,
// ListReadPermits), so every decision is returned and any refusal is an
// error of the test's input, rethrown.
inline std::optional<Decision> decide_unless_permitted(const History& h, const Level& level,
                                                       const DecideOptions& opt = {}) {
  return decide(h, level, opt);
}

// A random history of 3 to 5 transactions with neither thin-air reads nor
// INT violations (the ones every level rejects before any formula), with
// re-reads when asked: what the generic oracle's explanations are tried on.
inline History small_random_history(std::mt19937_64& rng, bool rereads) {
  brute::RandomHistoryOptions opt;
  opt.min_txns = 3;
  opt.max_txns = 5;
  opt.thin_air = 0;
  opt.int_violation = 0;
  opt.reread = rereads ? 0.3 : 0;
  return brute::random_history(rng, opt);
}

// T1 writes x = 1 in its own session; T2, in another, reads x twice: the
// initial 0, then T1's 1 (a non-repeatable read).
inline History non_repeatable_read_history() {
  History h;
  const SessionId s1 = h.add_session(), s2 = h.add_session();
  const KeyId x = h.intern_key("x");
  const ValueId v0 = h.intern_value(Value{std::int64_t{0}}), v1 = h.intern_value(Value{std::int64_t{1}});
  const TxnId t1 = h.add_txn(s1, "T1"), t2 = h.add_txn(s2, "T2");
  h.add_write(t1, x, v1);
  h.add_read(t2, x, v0);
  h.add_read(t2, x, v1);
  return h;
}

}  // namespace iso
