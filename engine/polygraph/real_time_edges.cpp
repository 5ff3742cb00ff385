// The real-time edges of the known graph (Polygraph::add_real_time_edges):
// Vbox's time dependencies (§3.2) for strict serializability, and Viper's
// real-time edges between begin and commit nodes (§5) for the SI variants.
//
// The real-time orders are quadratic: on a history whose clients ran one
// after another, every transaction precedes every later one. The graph needs
// only edges whose paths reach the same pairs. For a target event (b's begin
// or commit, at time y), the sources are the events x with x + Δ < y; call
// a transaction that surely committed (not of unknown status) and has the
// timestamps a relay. Among the sources, let c be the relay whose relevant
// event is latest (M its time). Every source x with x + Δ < M precedes c's
// event in real time too, so it reaches c, and c reaches b; only the
// sources in the window [M - Δ, y - Δ) need their own edge. By induction on
// the target's time, the edges added reach every pair of the order:
//  - RT (commit before begin), target b's begin: relays ranked by their
//    begin (c's commit is after its begin, so c itself is in the window;
//    C_a -> B_c -> C_c -> B_b);
//  - RTCC (commit before commit), target b's commit: relays ranked by their
//    commit (C_a -> C_c -> C_b);
//  - RTBC (begin before commit), target b's commit: a source whose own
//    commit precedes b's reaches b through its commit (B_a -> C_a, and the
//    RTCC edges); the others are ranked like RTCC (B_a -> C_c -> C_b).
//    Without RTCC edges (no shipped level) every source gets an edge.
// A relay must be certain to have committed: the edges of a transaction of
// unknown status exist only if it did. The window holds the transactions
// whose event falls within about one transaction's length and Δ of the
// target's: as many as ran concurrently.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "engine/polygraph/polygraph.hpp"
#include "engine/util/budget.hpp"

namespace iso::poly {

namespace {

struct Stamp {
  std::int64_t time;
  TxnId txn;
};

}  // namespace

void Polygraph::add_real_time_edges() {
  const std::int64_t skew = h_.clock_skew();
  auto before = [skew](std::int64_t x, std::int64_t y) { return History::skew_before(x, y, skew); };
  std::vector<Stamp> by_commit, by_begin;
  for (TxnId t : a_.txns) {
    if (t == kInitTxn) continue;
    const Transaction& tx = h_.txn(t);
    if (tx.commit) by_commit.push_back({*tx.commit, t});
    if (tx.begin) by_begin.push_back({*tx.begin, t});
  }
  auto by_time = [](const Stamp& x, const Stamp& y) { return x.time < y.time || (x.time == y.time && x.txn < y.txn); };
  std::sort(by_commit.begin(), by_commit.end(), by_time);
  std::sort(by_begin.begin(), by_begin.end(), by_time);
  auto relay = [&](TxnId t) { return !unknown_[t] && h_.txn(t).begin && h_.txn(t).commit; };
  // Over the prefixes of by_commit: the latest begin and the latest commit
  // of a relay in it.
  const std::size_t n = by_commit.size();
  std::vector<std::optional<std::int64_t>> relay_begin(n + 1), relay_commit(n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    relay_begin[i + 1] = relay_begin[i];
    relay_commit[i + 1] = relay_commit[i];
    if (!relay(by_commit[i].txn)) continue;
    const std::int64_t b = *h_.txn(by_commit[i].txn).begin;
    if (!relay_begin[i + 1] || b > *relay_begin[i + 1]) relay_begin[i + 1] = b;
    relay_commit[i + 1] = by_commit[i].time;
  }
  // The first index of `v` (sorted by time) whose time t does not satisfy
  // t + Δ < y: the end of the sources of an event at y.
  auto sources_end = [&](const std::vector<Stamp>& v, std::int64_t y) {
    return static_cast<std::size_t>(
        std::partition_point(v.begin(), v.end(), [&](const Stamp& s) { return before(s.time, y); }) -
        v.begin());
  };
  // The first index of the window below a relay at M.
  auto window_start = [&](const std::vector<Stamp>& v, const std::optional<std::int64_t>& m) {
    return m ? sources_end(v, *m) : std::size_t{0};
  };

  for (TxnId b : a_.txns) {
    budget::poll();
    if (b == kInitTxn) continue;
    const Transaction& tb = h_.txn(b);
    if (real_time_.commit_begin && tb.begin) {
      const std::size_t end = sources_end(by_commit, *tb.begin);
      for (std::size_t i = window_start(by_commit, relay_begin[end]); i < end; ++i)
        add_known({by_commit[i].txn, b, Dep::RT, 0}, {});
    }
    if (!tb.commit) continue;
    const std::size_t end = sources_end(by_commit, *tb.commit);
    const std::optional<std::int64_t> latest = relay_commit[end];
    if (real_time_.commit_commit)
      for (std::size_t i = window_start(by_commit, latest); i < end; ++i)
        add_known({by_commit[i].txn, b, Dep::RTCC, 0}, {});
    if (real_time_.begin_commit) {
      const std::size_t end_b = sources_end(by_begin, *tb.commit);
      const std::size_t start = real_time_.commit_commit ? window_start(by_begin, latest) : 0;
      for (std::size_t i = start; i < end_b; ++i) {
        const TxnId a = by_begin[i].txn;
        if (a == b) continue;
        const auto& ca = h_.txn(a).commit;
        if (real_time_.commit_commit && ca && before(*ca, *tb.commit)) continue;  // through C_a
        add_known({a, b, Dep::RTBC, 0}, {});
      }
    }
  }
}

}  // namespace iso::poly
