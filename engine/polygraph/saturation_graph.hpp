// The graph of one model of the saturation checker (step 3 of
// saturation_impl.hpp): session order between consecutive members, the wr
// edges of the model's read-from, the known version orders and the
// saturation edges, decided acyclic or not by Kahn's algorithm.
//
// Contract:
//  - Inputs, fixed for its life: the history, its abstraction, the Choices
//    (the reads, read-only), the level and how happens-before is stored.
//  - check(model, ...): builds the graph of `model` and says whether it is
//    acyclic: with a topological order (a commit order), or with up to
//    `max_cycles` cycles as edge ids, fewest non-so edges first.
//  - build_known(model, ...): the so ∪ wr graph of pruning's known model and
//    its happens-before, for the reachability pruning asks (reaches(),
//    visible_prefix(), the writer groups).
//  - Afterwards edge(), base_edges(), graph(), pos() describe the graph last
//    built, for the CycleExplainer; they refer to the model it was built from.
//  - Its arrays are kept between models to save their allocation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/graph/digraph.hpp"
#include "engine/polygraph/saturation_choices.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly::saturation {

class ModelGraph {
 public:
  ModelGraph(const History& h, const AbstractHistory& a, const Choices& choices, GraphLevel level,
             HbRepresentation hb, CheckStats& stats);

  // Step 3 on `m`: true when acyclic, with `order` its topological order;
  // otherwise `cycles` gets up to `max_cycles` cycles (edge ids), shortest
  // first.
  bool check(const Model& m, std::vector<TxnId>& order,
             std::vector<std::vector<std::uint32_t>>& cycles, std::size_t max_cycles);
  // Pruning's graph: so and the fixed wr edges of the known model `m`. False
  // with a cycle of them in `cycles`; true with the writer groups and
  // happens-before built.
  bool build_known(const Model& m, std::vector<std::vector<std::uint32_t>>& cycles);

  // --- the graph last built ---------------------------------------------------
  const Edge& edge(std::uint32_t id) const { return edges_[id]; }
  // Edges below this id are so and wr edges (those that make writes visible).
  std::size_t base_edges() const { return base_edges_; }
  const graph::Digraph& graph() const { return graph_; }
  SessionId session(TxnId t) const { return session_[t]; }
  // t's position among its session's members.
  std::uint32_t pos(TxnId t) const { return pos_[t]; }
  // How many members of session s happen before t3 (they are a prefix of s).
  std::uint32_t visible_prefix(TxnId t3, SessionId s) const;
  // Whether u happens before v.
  bool reaches(TxnId u, TxnId v) const {
    if (u == kInitTxn) return v != kInitTxn;
    return pos_[u] < visible_prefix(v, session_[u]);
  }
  // The groups of key x's writers, one per session: [first, second).
  std::pair<std::uint32_t, std::uint32_t> groups(KeyId x) const { return {wkey_[x], wkey_[x + 1]}; }
  SessionId group_session(std::uint32_t g) const { return gsession_[g]; }
  // The last writer of group g at a position below `limit`, or nullptr.
  const WriterEntry* last_writer_before(std::uint32_t g, std::uint32_t limit) const {
    auto first = wentries_.begin() + gstart_[g], last = wentries_.begin() + gstart_[g + 1];
    auto it = std::lower_bound(first, last, limit,
                               [](const WriterEntry& e, std::uint32_t p) { return e.pos < p; });
    return it == first ? nullptr : &*std::prev(it);
  }

 private:
  void build_sessions(const Model& m);
  void add_base_edges(const Model& m);
  void build_writers(const Model& m);
  void build_hb(const Model& m, const std::vector<TxnId>& topo);
  template <class T, class Merge, class Own>
  void propagate_hb(const Model& m, const std::vector<TxnId>& topo, LargeVector<T>& table,
                    std::size_t width, Merge merge, Own own);
  // compact: up to transitivity and without implied edges (check()).
  void add_saturation_edges(const Model& m, bool compact);
  void add_every_sat_edge(const Model& m, TxnId t3);
  void add_rc_edges(const Model& m, TxnId t3);
  void add_ra_edges(const Model& m, TxnId t3);
  void add_cc_edges(const Model& m, TxnId t3);
  void add_known_order_edges(const Model& m);
  // The writers (not T0) of t3's reads in writer_reads_, sorted by writer
  // and then by op: each distinct writer first with its first read.
  void collect_writer_reads(const Model& m, TxnId t3);
  // The group of key x's writers in session s, or kNone.
  std::uint32_t group_of(KeyId x, SessionId s) const;
  // Whether the edge (t2, t1) follows from session order, which every model
  // graph has: such a saturation edge adds nothing to its reachability.
  // (add_cc_edges() also leaves out those that happens-before implies.)
  bool implied(TxnId t2, TxnId t1) const {
    return t1 != kInitTxn && session_[t2] == session_[t1] && pos_[t2] < pos_[t1];
  }
  // Adds the saturation edge (t2, t1) of read r unless it is implied.
  void add_sat_edge(TxnId t2, TxnId t1, std::uint32_t read) {
    if (!implied(t2, t1)) edges_.push_back(Edge{t2, t1, Kind::Sat, reads_[read].key, read});
  }
  void build_graph(std::size_t m);
  // Kahn's algorithm on the first m edges: true with `order` the members in
  // a topological order; false when they have a cycle.
  bool acyclic(const Model& model, std::size_t m, std::vector<TxnId>& order);
  // The graph of the first m edges, and up to max_cycles of its cycles.
  void find_cycles(std::size_t m, std::size_t max_cycles,
                   std::vector<std::vector<std::uint32_t>>& cycles);

  const History& h_;
  const AbstractHistory& a_;
  const Choices& choices_;
  const std::vector<Read>& reads_;  // choices_.reads(), read for every edge
  GraphLevel level_;
  HbRepresentation hb_repr_;
  CheckStats& stats_;
  const std::size_t n_;

  // Each transaction's session (kNoSession for T0): a dense copy, read for
  // every saturation edge, where the Transaction would be a cache miss.
  std::vector<SessionId> session_;
  std::size_t members_ = 0;
  // Members of each session in order: smem_[sbase_[s] ..< sbase_[s + 1]];
  // pos_[t] is t's index there; midx_[t] a dense index (T0 = 0, then
  // sessions in order, so that each session is contiguous).
  std::vector<std::uint32_t> sbase_;
  std::vector<TxnId> smem_;
  std::vector<std::uint32_t> pos_, midx_;
  // Writers of each key sorted by (session, position), in groups of one
  // session: the groups of key x are [wkey_[x], wkey_[x + 1]), group g covers
  // wentries_[gstart_[g] ..< gstart_[g + 1]].
  std::vector<WriterEntry> wentries_;
  std::vector<std::uint32_t> wkey_, gstart_;
  std::vector<SessionId> gsession_;  // per group: its session, densely
  // Happens-before for CC: per member, the length of the prefix of each
  // session that happens before it or is it (vector clocks), or the set of
  // members that happen before it (bitsets).
  bool use_vc_ = true;
  std::size_t words_ = 0;
  LargeVector<std::uint32_t> vc_;
  LargeVector<std::uint64_t> bits_;
  // The graph: so and wr edges first (base_edges_ of them), then saturation
  // edges; graph_ holds them (edge id = index into edges_) as last built.
  LargeVector<Edge> edges_;
  std::size_t base_edges_ = 0;
  graph::Digraph graph_;
  // acyclic()'s compressed adjacency (targets by source) and in-degrees,
  // kept between models to save their allocation.
  LargeVector<std::uint32_t> csr_start_, csr_to_, indegree_;
  // add_rc_edges() and add_ra_edges(): the distinct writers of a
  // transaction's reads, each with its first read (writer, op, read).
  struct WriterRead {
    TxnId writer;
    std::uint32_t op, read;
  };
  std::vector<WriterRead> writer_reads_;
};

}  // namespace iso::poly::saturation
