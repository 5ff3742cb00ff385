// Digraph (digraph.hpp): edges with ids, topological order, strongly
// connected components, and the cheapest paths and cycles under an edge cost.
#include "engine/graph/digraph.hpp"

#include "engine/util/budget.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <set>

namespace iso::graph {

namespace {
constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();

}  // namespace

// Strongly connected components (Tarjan, iterative so that long paths cannot
// overflow the stack). comp[n] is the component index of node n.
std::vector<std::uint32_t> components(const Digraph& g, std::uint32_t& count) {
  const std::uint32_t n = g.size();
  std::vector<std::uint32_t> index(n, kUnset), low(n, 0), comp(n, kUnset);
  std::vector<Node> stack;
  std::vector<bool> on_stack(n, false);
  struct Frame {
    Node node;
    std::uint32_t next;
  };
  std::vector<Frame> calls;
  std::uint32_t counter = 0;
  count = 0;
  for (Node root = 0; root < n; ++root) {
    if (index[root] != kUnset) continue;
    calls.push_back(Frame{root, 0});
    index[root] = low[root] = counter++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!calls.empty()) {
      Frame& f = calls.back();
      const auto& out = g.out(f.node);
      if (f.next < out.size()) {
        Node w = out[f.next++].to;
        if (index[w] == kUnset) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          on_stack[w] = true;
          calls.push_back(Frame{w, 0});
        } else if (on_stack[w]) {
          low[f.node] = std::min(low[f.node], index[w]);
        }
        continue;
      }
      Node v = f.node;
      calls.pop_back();
      if (!calls.empty()) low[calls.back().node] = std::min(low[calls.back().node], low[v]);
      if (low[v] == index[v]) {
        Node w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = false;
          comp[w] = count;
        } while (w != v);
        ++count;
      }
    }
  }
  return comp;
}

namespace {

// Breadth-first search from `from` for `to`, through nodes with
// comp[node] == c (or any node when comp is empty). Returns the edge ids.
std::optional<std::vector<EdgeId>> bfs(const Digraph& g, Node from, Node to,
                                       const std::vector<std::uint32_t>& comp,
                                       std::uint32_t c) {
  const std::uint32_t n = g.size();
  std::vector<std::uint32_t> parent_edge(n, kUnset);
  std::vector<Node> parent(n, kUnset);
  std::vector<Node> queue{from};
  std::vector<bool> seen(n, false);
  seen[from] = true;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    budget::poll();
    Node u = queue[head];
    for (const Arc& a : g.out(u)) {
      if (!comp.empty() && comp[a.to] != c) continue;
      if (a.to == to) {
        std::vector<EdgeId> path{a.id};
        for (Node x = u; x != from; x = parent[x]) path.push_back(parent_edge[x]);
        std::reverse(path.begin(), path.end());
        return path;
      }
      if (seen[a.to]) continue;
      seen[a.to] = true;
      parent[a.to] = u;
      parent_edge[a.to] = a.id;
      queue.push_back(a.to);
    }
  }
  return std::nullopt;
}

// The per-node arrays of cheapest(), kept across the searches of one
// caller: a caller probing many small components of a large graph would
// otherwise clear arrays of the whole graph's size for each probe. `dist`
// is kUnset except at the nodes in `touched`, which each search resets
// when it ends.
struct CheapestScratch {
  std::vector<std::uint32_t> dist, parent_edge;
  std::vector<Node> parent, touched;
};

// 0-1 breadth-first search from `from` for the cheapest path to `to`
// (from == to: the cheapest cycle through it), through nodes with
// comp[node] == c (or any node when comp is empty). Returns the edge ids
// and the cost.

std::optional<std::pair<std::vector<EdgeId>, std::uint32_t>> cheapest(
    const Digraph& g, Node from, Node to, const EdgeCost& cost,
    const std::vector<std::uint32_t>& comp, std::uint32_t c, CheapestScratch& scratch) {
  const std::uint32_t n = g.size();
  auto& [dist, parent_edge, parent, touched] = scratch;
  if (dist.size() != n) {
    dist.assign(n, kUnset);
    parent_edge.assign(n, kUnset);
    parent.assign(n, kUnset);
  }
  struct Reset {  // leaves dist all kUnset again, however the search ends
    CheapestScratch& s;
    ~Reset() {
      for (Node x : s.touched) s.dist[x] = kUnset;
      s.touched.clear();
    }
  } reset{scratch};
  std::deque<Node> queue{from};
  dist[from] = 0;
  touched.push_back(from);
  std::uint32_t best = kUnset;  // the cheapest arrival at `to` so far
  Node best_from = kUnset;
  EdgeId best_edge = 0;
  while (!queue.empty()) {
    Node u = queue.front();
    queue.pop_front();
    if (best != kUnset && dist[u] >= best) break;
    for (const Arc& a : g.out(u)) {
      if (!comp.empty() && comp[a.to] != c) continue;
      const std::uint32_t w = cost(a.id);
      if (w == kSkipEdge) continue;
      const std::uint32_t d = dist[u] + w;
      if (a.to == to) {
        if (d < best) {
          best = d;
          best_from = u;
          best_edge = a.id;
        }
        continue;
      }
      if (dist[a.to] != kUnset && dist[a.to] <= d) continue;
      if (dist[a.to] == kUnset) touched.push_back(a.to);
      dist[a.to] = d;
      parent[a.to] = u;
      parent_edge[a.to] = a.id;
      if (w == 0)
        queue.push_front(a.to);
      else
        queue.push_back(a.to);
    }
  }
  if (best == kUnset) return std::nullopt;
  std::vector<EdgeId> path{best_edge};
  for (Node x = best_from; x != from; x = parent[x]) path.push_back(parent_edge[x]);
  std::reverse(path.begin(), path.end());
  return std::pair{std::move(path), best};
}

// The members of each strongly connected component.
std::vector<std::vector<Node>> component_members(const Digraph& g, std::vector<std::uint32_t>& comp) {
  std::uint32_t count = 0;
  comp = components(g, count);
  std::vector<std::vector<Node>> members(count);
  for (Node u = 0; u < g.size(); ++u) members[comp[u]].push_back(u);
  return members;
}
}  // namespace

std::optional<std::vector<Node>> topological_order(const Digraph& g) {
  const std::uint32_t n = g.size();
  std::vector<std::uint32_t> indeg(n, 0);
  for (Node u = 0; u < n; ++u)
    for (const Arc& a : g.out(u)) ++indeg[a.to];
  std::vector<Node> order;
  order.reserve(n);
  for (Node u = 0; u < n; ++u)
    if (indeg[u] == 0) order.push_back(u);
  for (std::size_t head = 0; head < order.size(); ++head) {
    budget::poll();
    for (const Arc& a : g.out(order[head]))
      if (--indeg[a.to] == 0) order.push_back(a.to);
  }
  if (order.size() != n) return std::nullopt;
  return order;
}

std::optional<std::vector<EdgeId>> shortest_path(const Digraph& g, Node from, Node to) {
  return bfs(g, from, to, {}, 0);
}

std::vector<Cycle> short_cycles(const Digraph& g, std::size_t probes_per_component) {
  std::vector<std::uint32_t> comp;
  const auto members = component_members(g, comp);
  std::vector<Cycle> cycles;
  for (std::uint32_t c = 0; c < members.size(); ++c) {
    const auto& m = members[c];
    if (m.size() == 1) {
      // A self-loop is a cycle of one edge.
      for (const Arc& a : g.out(m[0]))
        if (a.to == m[0]) {
          cycles.push_back(Cycle{a.id});
          break;
        }
      continue;
    }
    // Probe evenly spread members: the shortest cycle through a node is a
    // shortest path from one of its successors back to it plus that edge.
    std::size_t step = std::max<std::size_t>(1, m.size() / probes_per_component);
    Cycle best;
    for (std::size_t i = 0; i < m.size(); i += step) {
      auto path = bfs(g, m[i], m[i], comp, c);
      if (path && (best.empty() || path->size() < best.size())) best = std::move(*path);
      if (best.size() == 2) break;  // nothing shorter without self-loops
    }
    if (!best.empty()) cycles.push_back(std::move(best));
  }
  std::sort(cycles.begin(), cycles.end(),
            [](const Cycle& a, const Cycle& b) { return a.size() < b.size(); });
  return cycles;
}

std::optional<std::vector<EdgeId>> cheapest_path(const Digraph& g, Node from, Node to,
                                                 const EdgeCost& cost) {
  CheapestScratch scratch;
  auto found = cheapest(g, from, to, cost, {}, 0, scratch);
  if (!found) return std::nullopt;
  return std::move(found->first);
}

std::vector<Cycle> cheap_cycles(const Digraph& g, const EdgeCost& cost, std::size_t max_cycles,
                                std::size_t probes) {
  std::vector<std::uint32_t> comp;
  const auto members = component_members(g, comp);
  std::set<std::vector<EdgeId>> seen;  // each cycle once, as its sorted edge ids
  std::vector<std::pair<std::uint32_t, Cycle>> found;
  CheapestScratch scratch;
  // Probe the j-th member of every component with a cycle, j = 0, 1, ...
  for (std::size_t j = 0, done = 0; done < probes; ++j) {
    bool any = false;
    for (std::uint32_t c = 0; c < members.size() && done < probes; ++c) {
      const auto& m = members[c];
      if (j >= m.size()) continue;
      auto cycle = cheapest(g, m[j], m[j], cost, comp, c, scratch);
      if (!cycle) continue;  // a single node without a self-loop
      any = true;
      ++done;
      std::vector<EdgeId> key = cycle->first;
      std::sort(key.begin(), key.end());
      if (seen.insert(std::move(key)).second) found.emplace_back(cycle->second, std::move(cycle->first));
    }
    if (!any) break;
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first < y.first : x.second.size() < y.second.size();
  });
  std::vector<Cycle> cycles;
  for (auto& [c, cycle] : found) {
    if (cycles.size() == max_cycles) break;
    cycles.push_back(std::move(cycle));
  }
  return cycles;
}

}  // namespace iso::graph
