// Pearce–Kelly dynamic topological order (Pearce & Kelly 2006): a DAG that
// accepts edges one at a time and keeps a topological order `position`,
// touching only the nodes between the two ends of an edge that goes against
// the current order. An edge that would close a cycle is refused and the
// shortest path that it would close is returned instead.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/graph/digraph.hpp"

namespace iso::graph {

class DynamicOrder {
 public:
  // Starts from the DAG `base` with its topological order `order`. `base`
  // is not copied: it must outlive this object and not change meanwhile
  // (a large history's known graph has tens of millions of arcs; only the
  // arcs into each node are kept here, compactly, for the backward search).
  DynamicOrder(const Digraph& base, const std::vector<Node>& order);

  // Adds from -> to (with `id`). Returns nullopt when added; otherwise the
  // edge ids of a shortest path to ⇝ from (the edge closes a cycle with it)
  // and the edge is not added.
  std::optional<std::vector<EdgeId>> add_edge(Node from, Node to, EdgeId id);
  // Removes an edge add_edge() added. The order stays topological: removing
  // an edge never breaks one. So a caller can keep one order across a series
  // of similar graphs and pay only for the edges that change.
  void remove_edge(Node from, Node to, EdgeId id);

  std::uint32_t position(Node n) const { return pos_[n]; }
  // The edges add_edge() added and remove_edge() did not remove.
  std::size_t added_edges() const { return added_.num_edges(); }

 private:
  template <typename F>
  void for_out(Node u, F&& f) const {
    for (const Arc& a : base_.out(u)) f(a);
    for (const Arc& a : added_.out(u)) f(a);
  }
  template <typename F>
  void for_in(Node u, F&& f) const {
    for (std::size_t i = base_in_.begin[u]; i < base_in_.begin[u + 1]; ++i) f(base_in_.arcs[i]);
    for (const Arc& a : added_in_[u]) f(a);
  }

  const Digraph& base_;
  InArcs base_in_;
  Digraph added_;
  std::vector<std::vector<Arc>> added_in_;
  std::vector<std::uint32_t> pos_;   // node -> position
  std::vector<Node> at_;             // position -> node
  // Scratch, reused across calls (stamped to avoid clearing).
  std::vector<std::uint32_t> mark_;
  std::uint32_t stamp_ = 0;
  std::vector<Node> parent_;
  std::vector<EdgeId> parent_edge_;
};

}  // namespace iso::graph
