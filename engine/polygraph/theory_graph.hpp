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
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/graph/digraph.hpp"
#include "engine/polygraph/dependency.hpp"

namespace iso::poly {

struct TheoryArc {
  graph::Node from, to;
};

class TheoryGraph {
 public:
  TheoryGraph(GraphLevel level, std::uint32_t txns) : level_(level), txns_(txns) {}
  GraphLevel level() const { return level_; }
  std::uint32_t num_nodes() const { return level_ == GraphLevel::Ser ? txns_ : 2 * txns_; }

  // The arcs a dependency edge contributes: 1 or 2.
  std::uint32_t arcs(const DepEdge& e, std::array<TheoryArc, 2>& out) const {
    if (level_ == GraphLevel::Ser) {
      out[0] = {e.from, e.to};
      return 1;
    }
    if (e.type == Dep::RW) {
      out[0] = {2 * e.from, 2 * e.to + 1};
      return 1;
    }
    out[0] = {2 * e.from, 2 * e.to};
    out[1] = {2 * e.from + 1, 2 * e.to};
    return 2;
  }
  // Nodes whose arcs in all come from unrelayed nodes (the copies t¹, which
  // only anti-dependencies enter): graph::Reachability keeps them off its
  // chains.
  std::vector<bool> relayed() const {
    std::vector<bool> out(num_nodes(), false);
    if (level_ == GraphLevel::Si)
      for (std::uint32_t t = 0; t < txns_; ++t) out[2 * t + 1] = true;
    return out;
  }
  // The transaction a node stands for.
  TxnId txn(graph::Node n) const { return level_ == GraphLevel::Ser ? n : n / 2; }

 private:
  GraphLevel level_;
  std::uint32_t txns_;
};

}  // namespace iso::poly
