// The graph whose acyclicity decides a level, built from dependency edges.
//
// SER: one node per transaction, one arc per dependency.
// SI: the induced SI graph (SO ∪ WR ∪ WW) ; RW? is acyclic iff the following
// graph on two copies of each transaction is: t⁰ ("reached by a dependency",
// or the start) and t¹ ("reached by an anti-dependency"). A dependency a→b
// (so, wr, ww) gives a⁰→b⁰ and a¹→b⁰; an anti-dependency a→b (rw) gives
// a⁰→b¹. Every cycle of it alternates no two rw edges and holds at least one
// dependency, and every such cycle of the dependency graph maps to one. The
// graph is linear in the dependency graph, where the induced graph itself
// can be quadratic.
//
// It is Viper's BC-graph (begin node B_t, commit node C_t, B_t -> C_t) with
// each commit node split: t⁰ is B_t together with the C_t it reaches by its
// own arc, t¹ is C_t as entered from another transaction. An arc of the
// BC-graph from B_a leaves a⁰; from C_a it leaves both a⁰ and a¹; into B_b
// it enters b⁰, into C_b it enters b¹ (dependency.hpp, schedule_arc). So
// the real-time edges of the SI variants map like the others: RT as a
// dependency, RTBC as an anti-dependency, RTCC from a⁰ and a¹ into b¹.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/graph/digraph.hpp"
#include "engine/polygraph/dependency.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly {

struct TheoryArc {
  graph::Node from, to;
};

class TheoryGraph {
 public:
  // `commit_to_commit`: whether RTCC edges occur (real_time_edges.cpp sets
  // it once it adds one); they enter the copies t¹ from other copies t¹,
  // which relayed() must then not promise.
  TheoryGraph(GraphLevel level, std::uint32_t txns, bool commit_to_commit = false)
      : level_(level), txns_(txns), commit_to_commit_(commit_to_commit) {}
  GraphLevel level() const { return level_; }
  std::uint32_t num_nodes() const { return level_ == GraphLevel::Ser ? txns_ : 2 * txns_; }

  // The arcs a dependency edge contributes: 1 or 2.
  std::uint32_t arcs(const DepEdge& e, std::array<TheoryArc, 2>& out) const {
    if (level_ == GraphLevel::Ser) {
      out[0] = {e.from, e.to};
      return 1;
    }
    const ScheduleArc s = schedule_arc(e.type);
    const graph::Node to = 2 * e.to + (s.to_commit ? 1 : 0);
    out[0] = {2 * e.from, to};
    if (!s.from_commit) return 1;
    out[1] = {2 * e.from + 1, to};
    return 2;
  }
  // Nodes whose arcs in all come from unrelayed nodes (the copies t¹, which
  // only anti-dependencies enter): graph::Reachability keeps them off its
  // chains.
  std::vector<bool> relayed() const {
    std::vector<bool> out(num_nodes(), false);
    if (level_ == GraphLevel::Si && !commit_to_commit_)
      for (std::uint32_t t = 0; t < txns_; ++t) out[2 * t + 1] = true;
    return out;
  }
  // The transaction a node stands for.
  TxnId txn(graph::Node n) const { return level_ == GraphLevel::Ser ? n : n / 2; }

 private:
  GraphLevel level_;
  std::uint32_t txns_;
  bool commit_to_commit_;
};

}  // namespace iso::poly
