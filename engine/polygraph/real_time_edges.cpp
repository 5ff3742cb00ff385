// The real-time edges of the known graph (Polygraph::add_real_time_edges):
// Vbox's time dependencies (§3.2) for strict serializability, and Viper's
// real-time edges between begin and commit nodes (§5) for the SI variants.
//
// Each event lies in a known interval (History::time_before): X precedes Y
// when latest(X) + Δ < earliest(Y) − Δ (both ends widened by the skew;
// below, "+ Δ" stands for that comparison). The orders are quadratic: on a history
// whose clients ran one after another, every transaction precedes every
// later one. The graph needs only edges whose paths reach the same pairs.
// For a target event Y, the sources are the events X with latest(X) + Δ <
// earliest(Y); call a transaction that surely committed (not of unknown
// status) and has its timestamps a relay. Among the relays whose commit is
// a source, let c be the one whose relevant event can be earliest latest
// (M the largest earliest time of that event). Every source X with
// latest(X) + Δ < M precedes c's event too, so it reaches c, and c reaches
// Y; only the sources in the window latest(X) ≥ M - Δ need their own edge.
// By induction on the target's earliest time, the edges added reach every
// pair of the order:
//  - RT (commit before begin), target B_b: relays among the sources C_c,
//    M = max earliest(B_c) (C_a -> B_c -> C_c -> B_b);
//  - RTCC (commit before commit), target C_b: relays among the sources
//    C_c, M = max earliest(C_c) (C_a -> C_c -> C_b);
//  - RTBC (begin before commit), target C_b: a source B_a whose commit also
//    precedes C_b reaches it through C_a (B_a -> C_a, and the RTCC edges);
//    the others are windowed by RTCC's M (B_a -> C_c -> C_b). Without RTCC
//    edges (no shipped level) every source gets an edge.
// A relay must be certain to have committed: the edges of a transaction of
// unknown status exist only if it did. The window holds the transactions
// whose event falls within about one transaction's length (and Δ) of the
// target's: as many as ran concurrently.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <queue>
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
  using Event = History::Event;
  const std::int64_t skew = h_.clock_skew();
  auto before = [skew](std::int64_t x, std::int64_t y) { return History::skew_before(x, y, skew); };
  // Sources sorted by their latest time: commits, and begins.
  std::vector<Stamp> commits, begins;
  for (TxnId t : a_.txns) {
    if (t == kInitTxn) continue;
    if (auto c = h_.latest(t, Event::Commit)) commits.push_back({*c, t});
    if (auto b = h_.latest(t, Event::Begin)) begins.push_back({*b, t});
  }
  auto by_time = [](const Stamp& x, const Stamp& y) { return x.time < y.time || (x.time == y.time && x.txn < y.txn); };
  std::sort(commits.begin(), commits.end(), by_time);
  std::sort(begins.begin(), begins.end(), by_time);
  auto relay = [&](TxnId t) { return !unknown_[t] && h_.txn(t).begin && h_.txn(t).commit; };
  // Over the prefixes of `commits`: the largest earliest begin and the
  // largest earliest commit of a relay in it.
  const std::size_t n = commits.size();
  std::vector<std::optional<std::int64_t>> relay_begin(n + 1), relay_commit(n + 1);
  auto raise = [](std::optional<std::int64_t>& m, std::int64_t v) {
    if (!m || v > *m) m = v;
  };
  for (std::size_t i = 0; i < n; ++i) {
    relay_begin[i + 1] = relay_begin[i];
    relay_commit[i + 1] = relay_commit[i];
    const TxnId c = commits[i].txn;
    if (!relay(c)) continue;
    raise(relay_begin[i + 1], *h_.earliest(c, Event::Begin));
    raise(relay_commit[i + 1], *h_.earliest(c, Event::Commit));
  }
  // The first index of `v` (sorted by time) whose time t does not satisfy
  // t + Δ < y: the end of the sources of an event whose earliest time is y.
  auto sources_end = [&](const std::vector<Stamp>& v, std::int64_t y) {
    return static_cast<std::size_t>(
        std::partition_point(v.begin(), v.end(), [&](const Stamp& s) { return before(s.time, y); }) -
        v.begin());
  };
  // The first index of the window below a relay at M.
  auto window_start = [&](const std::vector<Stamp>& v, const std::optional<std::int64_t>& m) {
    return m ? sources_end(v, *m) : std::size_t{0};
  };

  bool commit_to_commit = false;
  for (TxnId b : a_.txns) {
    budget::poll();
    if (b == kInitTxn) continue;
    if (real_time_.commit_begin) {
      if (auto y = h_.earliest(b, Event::Begin)) {
        const std::size_t end = sources_end(commits, *y);
        for (std::size_t i = window_start(commits, relay_begin[end]); i < end; ++i)
          add_known({commits[i].txn, b, Dep::RT, 0}, {});
      }
    }
    const auto y = h_.earliest(b, Event::Commit);
    if (!y) continue;
    const std::size_t end = sources_end(commits, *y);
    const std::optional<std::int64_t> latest = relay_commit[end];
    // Where RT edges are added too, a pair that RT orders needs no edge of
    // its own: C_a -> B_b -> C_b (and B_a -> C_a -> B_b -> C_b below). Then
    // with client intervals alone (no inner timestamps) no RTCC or RTBC
    // edge is added at all, and the graph keeps the shape reachability
    // compresses best (TheoryGraph::relayed).
    auto through_rt = [&](TxnId a) {
      return real_time_.commit_begin && h_.time_before(a, Event::Commit, b, Event::Begin);
    };
    if (real_time_.commit_commit)
      for (std::size_t i = window_start(commits, latest); i < end; ++i) {
        if (through_rt(commits[i].txn)) continue;
        add_known({commits[i].txn, b, Dep::RTCC, 0}, {});
        commit_to_commit = true;
      }
    if (real_time_.begin_commit) {
      const std::size_t end_b = sources_end(begins, *y);
      const std::size_t start = real_time_.commit_commit ? window_start(begins, latest) : 0;
      for (std::size_t i = start; i < end_b; ++i) {
        const TxnId a = begins[i].txn;
        if (a == b) continue;
        if (real_time_.commit_commit && h_.time_before(a, Event::Commit, b, Event::Commit)) continue;  // through C_a
        if (through_rt(a)) continue;
        add_known({a, b, Dep::RTBC, 0}, {});
      }
    }
  }
  // An arc between two commit copies breaks what TheoryGraph::relayed()
  // promises; only then is the promise withdrawn.
  if (commit_to_commit)
    theory_ = TheoryGraph(theory_.level(), static_cast<std::uint32_t>(h_.num_txns()), true);
}

// The commit copies ordered by commit-to-commit edges form an interval
// order (C_a before C_b when a's commit surely precedes b's): chains are
// found as intervals are coloured, targets by earliest commit, each taking
// the chain whose last commit ends first if that one precedes it.
//
// Without RT edges (GSI, Strong Session SI), a¹ reaches b¹ by a path of
// commit-to-commit edges whenever both surely committed, have their
// timestamps, and C_a precedes C_b: by the induction of
// add_real_time_edges (a is in b's window, or precedes b's relay c, which
// is). Reachability checks each such claimed path once built. With RT
// edges (Strong SI), the pairs RT orders get no commit-to-commit edge (the
// path runs a¹ -> b⁰, which does not reach b¹): no preferences.
void Polygraph::prefer_commit_chains(std::vector<graph::Node>& preferred) const {
  using Event = History::Event;
  if (!real_time_.commit_commit || real_time_.commit_begin || theory_.level() != GraphLevel::Si) return;
  struct Stamp2 {
    std::int64_t earliest, latest;
    TxnId txn;
  };
  auto relay = [&](TxnId t) { return !unknown_[t] && h_.txn(t).begin && h_.txn(t).commit; };
  std::vector<Stamp2> targets;
  std::vector<bool> has_edge(h_.num_txns(), false), sourced(h_.num_txns(), false);
  for (const DepEdge& e : known_)
    if (e.type == Dep::RTCC) has_edge[e.to] = sourced[e.from] = true;
  for (TxnId t : a_.txns)
    if (t != kInitTxn && relay(t) && (has_edge[t] || sourced[t]))
      targets.push_back({*h_.earliest(t, Event::Commit), *h_.latest(t, Event::Commit), t});
  auto by_earliest = [](const Stamp2& x, const Stamp2& y) {
    return x.earliest < y.earliest || (x.earliest == y.earliest && x.txn < y.txn);
  };
  std::sort(targets.begin(), targets.end(), by_earliest);
  // The chains' last commits, the one that ends first on top.
  auto later = [](const Stamp2& x, const Stamp2& y) {
    return x.latest > y.latest || (x.latest == y.latest && x.txn > y.txn);
  };
  std::priority_queue<Stamp2, std::vector<Stamp2>, decltype(later)> tails(later);
  const std::int64_t skew = h_.clock_skew();
  for (const Stamp2& b : targets) {
    budget::poll();
    if (!tails.empty() && History::skew_before(tails.top().latest, b.earliest, skew)) {
      preferred[2 * b.txn + 1] = 2 * tails.top().txn + 1;  // a¹ -> b¹ (theory_graph.hpp)
      tails.pop();
    }
    tails.push(b);
  }
}

}  // namespace iso::poly
