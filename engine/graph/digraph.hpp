// A directed graph over dense node ids whose edges carry an id, so that a
// path found in the graph can be mapped back to what each edge stands for
// (a typed dependency, a solver literal). Parallel edges are allowed.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace iso::graph {

using Node = std::uint32_t;
using EdgeId = std::uint32_t;

struct Arc {
  Node to;
  EdgeId id;
};

class Digraph {
 public:
  explicit Digraph(std::uint32_t nodes = 0) : out_(nodes) {}
  std::uint32_t size() const { return static_cast<std::uint32_t>(out_.size()); }
  std::size_t num_edges() const { return edges_; }
  // Room for `arcs` edges out of `from`: a graph built from a known count
  // per node then holds no spare capacity.
  void reserve(Node from, std::size_t arcs) { out_[from].reserve(arcs); }
  void add_edge(Node from, Node to, EdgeId id) {
    out_[from].push_back(Arc{to, id});
    ++edges_;
  }
  // Removes one edge `from` -> _ with `id` (order of `out(from)` changes).
  // Linear in the out-degree of `from`. False if there is none.
  bool remove_edge(Node from, EdgeId id) {
    auto& arcs = out_[from];
    for (std::size_t i = 0; i < arcs.size(); ++i)
      if (arcs[i].id == id) {
        arcs[i] = arcs.back();
        arcs.pop_back();
        --edges_;
        return true;
      }
    return false;
  }
  const std::vector<Arc>& out(Node n) const { return out_[n]; }

 private:
  std::vector<std::vector<Arc>> out_;
  std::size_t edges_ = 0;
};

// The arcs into each node of a graph, as compressed rows: the arcs into v
// are arcs[begin[v] .. begin[v + 1]), each an Arc{from, id}. One array for
// all, where a vector per node costs a header and spare capacity each (a
// large history's graph has tens of millions of arcs).
struct InArcs {
  std::vector<std::size_t> begin;
  std::vector<Arc> arcs;
};

// The arcs from -> to of `g` that keep(from, to) accepts, by target.
template <typename Keep>
InArcs in_arcs(const Digraph& g, Keep&& keep) {
  const std::uint32_t n = g.size();
  InArcs in{std::vector<std::size_t>(n + 1, 0), {}};
  for (Node u = 0; u < n; ++u)
    for (const Arc& a : g.out(u))
      if (keep(u, a.to)) ++in.begin[a.to + 1];
  for (Node v = 0; v < n; ++v) in.begin[v + 1] += in.begin[v];
  in.arcs.resize(in.begin[n]);
  std::vector<std::size_t> fill(in.begin.begin(), in.begin.end() - 1);
  for (Node u = 0; u < n; ++u)
    for (const Arc& a : g.out(u))
      if (keep(u, a.to)) in.arcs[fill[a.to]++] = Arc{u, a.id};
  return in;
}

// A cycle as the ids of its edges, in order; the first edge starts where the
// last one ends.
using Cycle = std::vector<EdgeId>;

// Strongly connected components (Tarjan, iterative): comp[n] is the
// component of node n, `count` the number of components.
std::vector<std::uint32_t> components(const Digraph& g, std::uint32_t& count);

// A topological order of `g` (Kahn's algorithm), or nullopt if `g` has a cycle.
std::optional<std::vector<Node>> topological_order(const Digraph& g);

// The shortest path from `from` to `to` (edge ids), or nullopt. Breadth-first.
std::optional<std::vector<EdgeId>> shortest_path(const Digraph& g, Node from, Node to);

// Short cycles of a cyclic graph, shortest first: for each non-trivial
// strongly connected component, the shortest cycle through up to
// `probes_per_component` of its nodes (breadth-first search inside the
// component). Empty when `g` is acyclic.
std::vector<Cycle> short_cycles(const Digraph& g, std::size_t probes_per_component = 64);

// Edge weights for the cheapest searches below: 0 or 1 per edge (an
// explanation, say, folds some edges away), or kSkipEdge to leave it out.
using EdgeCost = std::function<std::uint32_t(EdgeId)>;
inline constexpr std::uint32_t kSkipEdge = UINT32_MAX;

// A path from `from` to `to` (from != to) of least total cost, by 0-1
// breadth-first search; nullopt when `to` cannot be reached.
std::optional<std::vector<EdgeId>> cheapest_path(const Digraph& g, Node from, Node to,
                                                 const EdgeCost& cost);

// Cycles of a cyclic graph by cost: the cheapest cycle through each of up to
// `probes` nodes, taken from the strongly connected components with a cycle
// in turn; the distinct ones, cheapest first (then shortest), at most
// `max_cycles` of them. Empty when `g` is acyclic.
std::vector<Cycle> cheap_cycles(const Digraph& g, const EdgeCost& cost, std::size_t max_cycles,
                                std::size_t probes = 64);

}  // namespace iso::graph
