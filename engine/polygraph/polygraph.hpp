// The hyper-polygraph of a history (VeriStrong Def. 3.1) and its 1-width
// pruning (§6.1.1, Fig. 8 and Fig. 18).
//
// Nodes are transactions (TxnId; aborted ones stay isolated). The known graph
// holds the dependencies every compatible graph has: session order, the
// read-from of reads with one candidate writer, write-write orders that are
// certain (T0 first, list-append version chains, pruning), and the
// anti-dependencies they derive. An order pruning fixes that the known
// orders of the key already imply (a→c an edge, c known before b) adds no
// edge: a and its readers reach b through c, so reachability is that of the
// graph with every edge, and a key whose order is total holds about one
// write-write edge per writer and one anti-dependency per read, to the next
// version. Two kinds of constraints hold the rest:
//  - WwPair: two writers of a key, one of the two orders;
//  - WrChoice: a read with several candidate writers, exactly one of them.
// Transactions of unknown status are nodes whose edges are all conditional on
// a commit choice; pruning never fixes anything about them. A predicate
// write's guarded write of a key (Vbox's truth constraints) has its
// write-write and anti-dependency edges conditional on its truth: pruning
// orders its pairs only on the condition that both writes exist
// (WwPair::state, no known edge) or finds that they cannot both exist.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/graph/digraph.hpp"
#include "engine/graph/reachability.hpp"
#include "engine/history/abstract.hpp"
#include "engine/polygraph/dependency.hpp"
#include "engine/polygraph/theory_graph.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly {

struct WwPair {
  // A pair with a guarded write (a predicate write's) found by pruning that
  // both writes cannot exist: every order closes a cycle.
  static constexpr std::int8_t kNotBoth = 2;
  TxnId a = 0, b = 0;  // a < b
  KeyId key = 0;
  // 0 open, +1 a→b known, -1 b→a known (with a guarded endpoint: if both
  // writes exist; the edge is then no known edge), kNotBoth.
  std::int8_t state = 0;
};

struct WrChoice {
  TxnId reader = 0;
  KeyId key = 0;
  std::uint32_t op = 0;      // the read event: an index into the reader's operations
  std::vector<TxnId> cands;  // alive candidate writers
  bool fixed = false;        // reduced to one known edge by pruning
};

// Why a known edge is certain, for explanations (explain.hpp).
struct EdgeWhy {
  enum class Kind : std::uint8_t {
    Observed,   // session order, or a read whose value only one transaction wrote
    Initial,    // T0's initial version precedes every write of the key
    ListOrder,  // a list-append read shows the order (ref: the KnownOrder's index)
    Pruned,     // the other order or writer closes a cycle with certain edges
    ReadModifyWrite,  // the later writer read the earlier one's version of the key
    RealTime,   // the earlier writer committed before the later one began
    Derived,    // an anti-dependency: a read of a version, and a write after it
  };
  Kind kind = Kind::Observed;
  // Pruned: how many known edges there were when its pruning pass began;
  // the cycle that proves it uses those (and edges added before it).
  std::uint32_t ref = 0;
};

// A proof from pruning that no choice works: every alternative of one
// constraint closes a cycle with certain edges. `cycle` is the shortest;
// `others` the other alternatives' cycles (empty when the certain edges
// alone are cyclic).
struct PruneViolation {
  std::vector<DepEdge> cycle;
  std::vector<std::vector<DepEdge>> others;
};

class Polygraph {
 public:
  // `real_time`: the real-time edges add_real_time_edges() will add.
  Polygraph(const History& h, const AbstractHistory& a, GraphLevel level,
            RealTimeEdges real_time = {});

  // Adds the real-time orders the constructor was given to the known graph
  // (real_time_edges.cpp): not every pair, which is quadratic, but a
  // subset whose paths (with each transaction's begin before its commit)
  // reach exactly the same pairs, about as many per transaction as
  // transactions run concurrently with it.
  void add_real_time_edges();
  // Chain preferences for the commit copies t¹ (real_time_edges.cpp): each
  // commit-to-commit edge target prefers one of its sources, chosen by time
  // so that the copies follow about as many chains as transactions ran
  // concurrently (graph::Reachability::Hints::preferred, nodes of theory()).
  void prefer_commit_chains(std::vector<graph::Node>& preferred) const;

  // Prunes to a fixpoint. Stops at the first proof of a violation and
  // returns it: the known graph is cyclic (its shortest cycle), or every
  // alternative of a constraint closes a cycle (the shortest, and the other
  // alternatives' cycles). Otherwise leaves `order()` and `reach()` computed
  // on the final known graph. `chains_always`: reachability in the chain
  // form whatever its size (graph::Reachability::Hints).
  std::optional<PruneViolation> prune(bool enabled, std::size_t& passes, bool chains_always = false);
  // How far prune() has got, for progress reports: the pass, whether it is
  // examining the constraints yet (first it orders the known graph and
  // builds its reachability), and how many (pairs, then choices) it has.
  struct PruneProgress {
    std::size_t pass = 0, done = 0, total = 0;
    bool examining = false;
  };
  const PruneProgress& prune_progress() const { return progress_; }

  // --- state read by the encoder --------------------------------------------
  const History& history() const { return h_; }
  const AbstractHistory& abstract() const { return a_; }
  const TheoryGraph& theory() const { return theory_; }
  bool unknown(TxnId t) const { return unknown_[t]; }
  // t's write of k may not exist: t's status is unknown, or the write is a
  // predicate write's, guarded by its truth (AbstractHistory::guarded). No
  // edge of such a write is a known edge.
  bool uncertain(TxnId t, KeyId k) const {
    return unknown_[t] || a_.guard_of(t, k) != kNoGuard;
  }
  const std::vector<DepEdge>& known() const { return known_; }
  // Why the known edge `id` (an index into known()) is certain.
  EdgeWhy known_why(std::size_t id) const;
  // The index in known() of an edge, if it is known.
  std::optional<std::size_t> known_id(const DepEdge& e) const;
  // For a known edge fixed by pruning: the cycle its alternative (the other
  // order; another candidate writer) closes with edges certain before it.
  std::vector<DepEdge> alternative_cycle(std::size_t id) const;
  // Known edges with an unknown-status endpoint are kept apart: they exist
  // only if that transaction committed, and, when `also` names one, if that
  // one did too (an order a list read of an unknown-status reader reveals).
  struct Conditional {
    DepEdge edge;
    TxnId also = kNoTxn;
  };
  const std::vector<Conditional>& conditional() const { return conditional_; }
  // Unknown-status transactions that committed: a committed list-append read
  // returned one of their writes other than the last element.
  const std::vector<TxnId>& forced_commits() const { return forced_commits_; }
  // (r, w): if r committed, so did w (r's list read shows w's append).
  const std::vector<std::pair<TxnId, TxnId>>& commit_implications() const {
    return commit_implications_;
  }
  std::vector<WwPair>& pairs() { return pairs_; }
  const std::vector<WwPair>& pairs() const { return pairs_; }
  std::vector<WrChoice>& choices() { return choices_; }
  const std::vector<WrChoice>& choices() const { return choices_; }
  const std::vector<TxnId>& writers(KeyId k) const { return writers_[k]; }
  // A key whose version order is a read-modify-write chain (rmw_chain() in
  // polygraph.cpp) or fixed by real time (time_chain()): its writers in that
  // order, T0's successor first; it has no write-write pairs. nullptr for
  // every other key.
  const std::vector<TxnId>* chain(KeyId k) const {
    auto it = chains_.find(k);
    return it == chains_.end() ? nullptr : &it->second;
  }
  // The known graph as a theory graph (edge id = index into known()), a
  // topological order and reachability of it.
  const graph::Digraph& known_graph() const { return graph_; }
  const std::vector<graph::Node>& order() const { return order_; }
  const graph::Reachability& reach() const { return reach_; }
  // Known write-write successors (those with an edge; every writer known to
  // come after is reached through them) and known readers of a write, per
  // key.
  const std::vector<TxnId>& ww_successors(KeyId k, TxnId w) const;
  const std::vector<TxnId>& known_readers(KeyId k, TxnId w) const;
  std::optional<std::size_t> pair_index(KeyId k, TxnId a, TxnId b) const;
  // The pair of the i-th and j-th writers of k (indices into writers(k),
  // i != j), in constant time.
  std::size_t pair_at(KeyId k, std::size_t i, std::size_t j) const {
    if (i > j) std::swap(i, j);
    const std::size_t n = writers_[k].size();
    return pair_base_[k] + i * n - i * (i + 1) / 2 + (j - i - 1);
  }

  // Would adding `e` to the known graph close a cycle (by reach())?
  bool closes_cycle(const DepEdge& e) const;
  // A shortest known path closing `e` into a cycle, as dependency edges
  // starting with `e`; empty if none.
  std::vector<DepEdge> cycle_through(const DepEdge& e) const;
  // The edges a choice adds to the known graph: the write-write or write-read
  // edge and the anti-dependencies it derives with known edges.
  std::vector<DepEdge> implied_by_ww(TxnId from, TxnId to, KeyId k) const;
  std::vector<DepEdge> implied_by_wr(TxnId writer, TxnId reader, KeyId k) const;
  // The same into a reused buffer (pruning asks this of every constraint).
  void implied_by_ww(TxnId from, TxnId to, KeyId k, std::vector<DepEdge>& out) const;
  void implied_by_wr(TxnId writer, TxnId reader, KeyId k, std::vector<DepEdge>& out) const;
  bool infeasible(const std::vector<DepEdge>& implied) const;
  // The shortest of the cycles the edges close with known paths.
  std::vector<DepEdge> shortest_cycle(const std::vector<DepEdge>& implied) const;
  // Dependency edges of a cycle of theory-graph edge ids into known().
  std::vector<DepEdge> to_deps(const std::vector<graph::EdgeId>& ids) const;

 private:
  // The constructor's steps after session order, in order.
  void add_write_write();
  void add_write_read();
  void add_known_orders();
  // prune()'s passes over the pairs and over the read choices.
  std::optional<PruneViolation> prune_pairs(const EdgeWhy& pruned, std::vector<DepEdge>& ab,
                                            std::vector<DepEdge>& ba, bool& changed);
  std::optional<PruneViolation> prune_choices(const EdgeWhy& pruned, std::vector<DepEdge>& ab,
                                              bool& changed);
  void add_pruned_orders(KeyId k, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& fixed,
                         const EdgeWhy& why);
  void add_known(const DepEdge& e, EdgeWhy why);
  void fix_ww(TxnId from, TxnId to, KeyId k, EdgeWhy why);
  void fix_wr(TxnId writer, TxnId reader, KeyId k, EdgeWhy why);
  // The shortest path from `from` to `to` in the known graph over edges
  // with id < bound, as dependency edges.
  std::optional<std::vector<DepEdge>> path_before(graph::Node from, graph::Node to,
                                                  std::size_t bound) const;
  void rebuild_graph();
  // Two committed writers of a key that read it first, both from the same
  // writer and no other candidate: a lost update, which SER and SI forbid
  // whichever of them comes first.
  struct LostUpdate {
    TxnId first, second;
    KeyId key;
  };
  std::optional<std::vector<TxnId>> rmw_chain(KeyId k, std::optional<LostUpdate>& lost) const;
  // Under a level whose commit order contains real time (strict
  // serializability): the writers of k in the order real time fixes, when
  // it orders each with the next (time_chain.cpp).
  std::optional<std::vector<TxnId>> time_chain(KeyId k) const;

  const History& h_;
  const AbstractHistory& a_;
  RealTimeEdges real_time_;
  TheoryGraph theory_;
  std::vector<bool> unknown_;
  std::vector<DepEdge> known_;
  // Why each known edge is certain, compactly: a large history has millions
  // of known edges, and most reasons carry no reference. The kind per edge;
  // the references as runs (first edge id, ref) over the edges whose kind
  // has one (ListOrder, Pruned), a new run only where the reference changes
  // (pruning gives every edge of one pass the same one).
  std::vector<EdgeWhy::Kind> why_kind_;
  std::vector<std::pair<std::size_t, std::uint32_t>> why_refs_;
  std::vector<Conditional> conditional_;
  std::vector<TxnId> forced_commits_;
  std::vector<std::pair<TxnId, TxnId>> commit_implications_;
  std::vector<WwPair> pairs_;
  std::vector<WrChoice> choices_;
  std::vector<std::vector<TxnId>> writers_;  // per key, members without T0
  std::unordered_map<std::uint64_t, std::vector<TxnId>> ww_succ_, readers_;
  // Per key, the index of its first pair; (key, writer) -> the writer's
  // index in writers_[key]. Linear in the writers, where a map of the pairs
  // would be quadratic.
  std::vector<std::size_t> pair_base_;
  std::unordered_map<std::uint64_t, std::uint32_t> writer_pos_;
  std::unordered_map<KeyId, std::vector<TxnId>> chains_;
  // A certain lost update found while looking for chains: prune() reports it
  // at once, and no write-write pairs are built (a hot key's would take
  // gigabytes before pruning could find it).
  std::optional<LostUpdate> lost_update_;
  graph::Digraph graph_;
  std::vector<graph::Node> order_;
  graph::Reachability reach_;
  PruneProgress progress_;
};

inline std::uint64_t key_txn(KeyId k, TxnId t) {
  return (static_cast<std::uint64_t>(k) << 32) | t;
}

}  // namespace iso::poly
