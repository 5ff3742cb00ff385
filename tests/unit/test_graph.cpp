// engine/graph against plain definitions on random small graphs: reachability
// against Floyd–Warshall closure, shortest paths and cycles against
// breadth-first distances, and the Pearce–Kelly order (with edge removal)
// against "the graph so far is acyclic" recomputed from scratch.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "engine/graph/digraph.hpp"
#include "engine/graph/dynamic_order.hpp"
#include "engine/graph/reachability.hpp"

using namespace iso::graph;

namespace {

struct Edge {
  Node from, to;
  EdgeId id;
};

Digraph build(std::uint32_t n, const std::vector<Edge>& edges) {
  Digraph g(n);
  for (const Edge& e : edges) g.add_edge(e.from, e.to, e.id);
  return g;
}

// closure[a][b]: a path of at least one edge from a to b.
std::vector<std::vector<bool>> closure(std::uint32_t n, const std::vector<Edge>& edges) {
  std::vector<std::vector<bool>> c(n, std::vector<bool>(n, false));
  for (const Edge& e : edges) c[e.from][e.to] = true;
  for (std::uint32_t k = 0; k < n; ++k)
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint32_t j = 0; j < n; ++j)
        if (c[i][k] && c[k][j]) c[i][j] = true;
  return c;
}

bool acyclic(std::uint32_t n, const std::vector<Edge>& edges) {
  auto c = closure(n, edges);
  for (std::uint32_t i = 0; i < n; ++i)
    if (c[i][i]) return false;
  return true;
}

// Breadth-first distance in edges from a to b (a != b), or -1.
int distance(std::uint32_t n, const std::vector<Edge>& edges, Node a, Node b) {
  std::vector<int> d(n, -1);
  d[a] = 0;
  std::vector<Node> q{a};
  for (std::size_t h = 0; h < q.size(); ++h)
    for (const Edge& e : edges)
      if (e.from == q[h] && d[e.to] < 0) {
        d[e.to] = d[q[h]] + 1;
        q.push_back(e.to);
      }
  return d[b];
}

// The ids form a path from a to b over existing edges.
bool is_path(const std::vector<Edge>& edges, const std::vector<EdgeId>& ids, Node a, Node b) {
  Node at = a;
  for (EdgeId id : ids) {
    auto it = std::find_if(edges.begin(), edges.end(), [&](const Edge& e) { return e.id == id; });
    if (it == edges.end() || it->from != at) return false;
    at = it->to;
  }
  return at == b;
}

// Reachability must equal the closure found by breadth-first search from
// every node.
void check_reaches_as_closure(const Digraph& g, const Reachability& r, Node n) {
  for (Node a = 0; a < n; ++a) {
    std::vector<bool> seen(n, false);
    std::vector<Node> q{a};
    for (std::size_t h = 0; h < q.size(); ++h)
      for (const Arc& arc : g.out(q[h]))
        if (!seen[arc.to]) {
          seen[arc.to] = true;
          q.push_back(arc.to);
        }
    for (Node b = 0; b < n; ++b)
      if (r.reaches(a, b) != seen[b]) {
        FAIL_CHECK("reaches(", a, ", ", b, ") is ", r.reaches(a, b), " with ", r.chains(), " chains");
        break;
      }
  }
}

}  // namespace

TEST_CASE("reachability and topological order agree with the closure") {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::uint32_t n = 2 + rng() % 12;
    // A random DAG: edges go up a random permutation.
    std::vector<Node> perm(n);
    for (Node i = 0; i < n; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<Edge> edges;
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint32_t j = i + 1; j < n; ++j)
        if (rng() % 4 == 0) edges.push_back({perm[i], perm[j], static_cast<EdgeId>(edges.size())});
    Digraph g = build(n, edges);
    auto order = topological_order(g);
    REQUIRE(order.has_value());
    std::vector<std::uint32_t> pos(n);
    for (std::uint32_t i = 0; i < n; ++i) pos[(*order)[i]] = i;
    for (const Edge& e : edges) CHECK(pos[e.from] < pos[e.to]);
    Reachability r(g, *order);
    auto c = closure(n, edges);
    for (Node a = 0; a < n; ++a)
      for (Node b = 0; b < n; ++b) CHECK(r.reaches(a, b) == c[a][b]);
    // One back edge makes it cyclic, exactly when it closes a path.
    Node a = rng() % n, b = rng() % n;
    edges.push_back({a, b, static_cast<EdgeId>(edges.size())});
    CHECK(topological_order(build(n, edges)).has_value() == acyclic(n, edges));
  }
}

TEST_CASE("reachability over chains, with relayed nodes, agrees with the closure") {
  // Graphs shaped like a history's: members in a few sessions (chains of
  // arcs), sparse arcs between sessions going forward, and relayed nodes
  // (the SI graph's anti-dependency copies) entered from members only.
  std::mt19937_64 rng(11);
  int chain_form = 0;
  for (int round = 0; round < 40; ++round) {
    const std::uint32_t members = 200 + rng() % 200, sessions = 1 + rng() % 6, relays = rng() % 120;
    const std::uint32_t n = members + relays;
    // Members 0..members-1 in a global order; relayed nodes placed between.
    std::vector<Edge> edges;
    auto add = [&](Node a, Node b) { edges.push_back({a, b, static_cast<EdgeId>(edges.size())}); };
    std::vector<Node> last(sessions, UINT32_MAX);
    for (Node m = 0; m < members; ++m) {
      const std::uint32_t s = rng() % sessions;
      if (last[s] != UINT32_MAX) add(last[s], m);
      last[s] = m;
      for (int e = 0; e < 2; ++e)
        if (m > 0 && rng() % 3 == 0) add(rng() % m, m);
    }
    std::vector<bool> relayed(n, false);
    for (Node r = members; r < n; ++r) {
      relayed[r] = true;
      const Node at = 1 + rng() % (members - 1);  // after members < at, before the rest
      for (int e = 0, ins = 1 + static_cast<int>(rng() % 4); e < ins; ++e) add(rng() % at, r);
      for (int e = 0, outs = static_cast<int>(rng() % 3); e < outs; ++e) add(r, at + rng() % (members - at));
    }
    Digraph g = build(n, edges);
    auto order = topological_order(g);
    REQUIRE(order.has_value());
    Reachability r(g, *order, {&relayed});
    if (r.chains() > 0) ++chain_form;
    check_reaches_as_closure(g, r, n);
    // An arc between two relayed nodes breaks the precondition.
    if (relays >= 2) {
      Digraph bad = build(n, edges);
      bad.add_edge(members, members + 1, 0);
      CHECK_THROWS_AS(Reachability(bad, *order, {&relayed}), std::logic_error);
    }
  }
  CHECK(chain_form >= 30);  // the chain form was what was tested
}

TEST_CASE("shortest paths and short cycles are shortest") {
  std::mt19937_64 rng(11);
  int cyclic = 0;
  for (int round = 0; round < 300; ++round) {
    std::uint32_t n = 2 + rng() % 10;
    std::vector<Edge> edges;
    for (Node a = 0; a < n; ++a)
      for (Node b = 0; b < n; ++b)
        if (a != b && rng() % 6 == 0) edges.push_back({a, b, static_cast<EdgeId>(edges.size())});
    Digraph g = build(n, edges);
    for (int q = 0; q < 5; ++q) {
      Node a = rng() % n, b = rng() % n;
      if (a == b) continue;
      auto p = shortest_path(g, a, b);
      int d = distance(n, edges, a, b);
      CHECK(p.has_value() == (d >= 0));
      if (p) {
        CHECK(static_cast<int>(p->size()) == d);
        CHECK(is_path(edges, *p, a, b));
      }
    }
    auto cycles = short_cycles(g);
    CHECK(cycles.empty() == acyclic(n, edges));
    if (cycles.empty()) continue;
    ++cyclic;
    // The first cycle is a real cycle and no cycle of the graph is shorter.
    const auto& c = cycles.front();
    auto first = std::find_if(edges.begin(), edges.end(), [&](const Edge& e) { return e.id == c[0]; });
    REQUIRE(first != edges.end());
    CHECK(is_path(edges, c, first->from, first->from));
    int girth = 1 << 20;
    for (const Edge& e : edges) {
      int d = distance(n, edges, e.to, e.from);
      if (d >= 0) girth = std::min(girth, d + 1);
    }
    CHECK(static_cast<int>(c.size()) == girth);
    for (std::size_t i = 1; i < cycles.size(); ++i) CHECK(cycles[i - 1].size() <= cycles[i].size());
  }
  CHECK(cyclic > 50);
}

TEST_CASE("dynamic order: edges added and removed, cycles refused with a shortest path") {
  std::mt19937_64 rng(23);
  int refused = 0, removed = 0;
  for (int round = 0; round < 200; ++round) {
    std::uint32_t n = 2 + rng() % 10;
    // A base DAG along 0, 1, ..., n-1 (every other round), which the order
    // starts from and never removes.
    std::vector<Edge> base;
    for (Node a = 0; a < n && round % 2 == 1; ++a)
      for (Node b = a + 1; b < n; ++b)
        if (rng() % 5 == 0) base.push_back({a, b, static_cast<EdgeId>(1000 + base.size())});
    const Digraph base_graph = build(n, base);
    DynamicOrder dyn(base_graph, [&] {
      std::vector<Node> o(n);
      for (Node i = 0; i < n; ++i) o[i] = i;
      return o;
    }());
    std::vector<Edge> live;
    EdgeId next = 0;
    for (int step = 0; step < 60; ++step) {
      if (!live.empty() && rng() % 3 == 0) {
        std::size_t i = rng() % live.size();
        dyn.remove_edge(live[i].from, live[i].to, live[i].id);
        live.erase(live.begin() + static_cast<long>(i));
        ++removed;
      } else {
        Node a = rng() % n, b = rng() % n;
        if (a == b) continue;
        Edge e{a, b, next++};
        auto with = live;
        with.insert(with.end(), base.begin(), base.end());
        auto all = with;
        with.push_back(e);
        auto path = dyn.add_edge(a, b, e.id);
        CHECK(path.has_value() == !acyclic(n, with));
        if (path) {
          ++refused;
          // A shortest path b ⇝ a among the live and base edges.
          CHECK(is_path(all, *path, b, a));
          CHECK(static_cast<int>(path->size()) == distance(n, all, b, a));
        } else {
          live.push_back(e);
        }
      }
      // The positions stay a topological order of the live and base edges.
      for (const Edge& e : live) CHECK(dyn.position(e.from) < dyn.position(e.to));
      for (const Edge& e : base) CHECK(dyn.position(e.from) < dyn.position(e.to));
      CHECK(dyn.added_edges() == live.size());
    }
  }
  CHECK(refused > 100);
  CHECK(removed > 100);
}

TEST_CASE("cheapest paths and cycles under 0-1 edge costs are cheapest") {
  std::mt19937_64 rng(5);
  int cyclic = 0;
  for (int round = 0; round < 300; ++round) {
    std::uint32_t n = 2 + rng() % 9;
    std::vector<Edge> edges;
    std::vector<std::uint32_t> weight;
    for (Node a = 0; a < n; ++a)
      for (Node b = 0; b < n; ++b)
        if (a != b && rng() % 5 == 0) {
          edges.push_back({a, b, static_cast<EdgeId>(edges.size())});
          weight.push_back(static_cast<std::uint32_t>(rng() % 2));
        }
    Digraph g = build(n, edges);
    EdgeCost cost = [&](EdgeId e) { return weight[e]; };
    // Least costs between all pairs by Bellman–Ford relaxation (paths of at
    // least one edge).
    constexpr std::uint32_t kInf = 1u << 20;
    std::vector<std::vector<std::uint32_t>> best(n, std::vector<std::uint32_t>(n, kInf));
    for (const Edge& e : edges) best[e.from][e.to] = std::min(best[e.from][e.to], weight[e.id]);
    for (std::uint32_t k = 0; k < n; ++k)
      for (std::uint32_t i = 0; i < n; ++i)
        for (std::uint32_t j = 0; j < n; ++j)
          best[i][j] = std::min(best[i][j], best[i][k] + best[k][j]);
    auto path_cost = [&](const std::vector<EdgeId>& ids) {
      std::uint32_t c = 0;
      for (EdgeId id : ids) c += weight[id];
      return c;
    };
    for (int q = 0; q < 5; ++q) {
      Node a = rng() % n, b = rng() % n;
      if (a == b) continue;
      auto p = cheapest_path(g, a, b, cost);
      CHECK(p.has_value() == (best[a][b] < kInf));
      if (!p) continue;
      CHECK(is_path(edges, *p, a, b));
      CHECK(path_cost(*p) == best[a][b]);
    }
    auto cycles = cheap_cycles(g, cost, 100, 100);
    CHECK(cycles.empty() == acyclic(n, edges));
    if (cycles.empty()) continue;
    ++cyclic;
    std::uint32_t girth = kInf;
    for (Node a = 0; a < n; ++a) girth = std::min(girth, best[a][a]);
    auto first = std::find_if(edges.begin(), edges.end(),
                              [&](const Edge& e) { return e.id == cycles[0][0]; });
    CHECK(is_path(edges, cycles[0], first->from, first->from));
    CHECK(path_cost(cycles[0]) == girth);
    for (std::size_t i = 1; i < cycles.size(); ++i)
      CHECK(path_cost(cycles[i - 1]) <= path_cost(cycles[i]));
    // Skipped edges are never used.
    EdgeCost no_zero = [&](EdgeId e) { return weight[e] == 0 ? kSkipEdge : 1u; };
    for (const auto& c : cheap_cycles(g, no_zero, 100, 100))
      for (EdgeId id : c) CHECK(weight[id] == 1);
  }
  CHECK(cyclic > 50);
}

TEST_CASE("reachability over chains whose links are claimed paths agrees with the closure") {
  // Graphs shaped like the SI graph of a history with client intervals:
  // per transaction t a node 2t (t⁰) and its commit copy 2t+1 (t¹);
  // session arcs and dependencies into t⁰, anti-dependencies into t¹, and
  // commit-to-commit arcs a¹ -> b¹ (with a⁰ -> b¹) for commits apart by
  // less than a window. Commit copies prefer the chain of the copy whose
  // commit ended first before their start, without an arc: a claimed path,
  // true when every gap is bridged, false sometimes (wide gaps, or a
  // claim moved at random), which must then not be believed.
  std::mt19937_64 rng(31);
  int chain_form = 0, with_claims = 0;
  for (int round = 0; round < 60; ++round) {
    const std::uint32_t txns = 150 + rng() % 150, sessions = 1 + rng() % 4;
    const std::uint32_t n = 2 * txns, window = 20 + rng() % 40;
    std::vector<std::int64_t> start(txns), end(txns);
    for (std::uint32_t t = 0; t < txns; ++t) {
      start[t] = 10 * t + rng() % 6;
      end[t] = start[t] + 1 + rng() % 25;
    }
    std::vector<Edge> edges;
    auto add = [&](Node a, Node b) { edges.push_back({a, b, static_cast<EdgeId>(edges.size())}); };
    std::vector<Node> preferred(n, Reachability::kNoNode), last(sessions, UINT32_MAX);
    for (std::uint32_t b = 0; b < txns; ++b) {
      const std::uint32_t s = rng() % sessions;
      if (last[s] != UINT32_MAX) {
        add(2 * last[s], 2 * b);
        add(2 * last[s] + 1, 2 * b);
        preferred[2 * b] = 2 * last[s];
      }
      last[s] = b;
      if (b == 0) continue;
      for (int e = 0; e < 2; ++e)
        if (rng() % 3 == 0) {
          const Node a = rng() % b;
          add(2 * a, 2 * b);
          add(2 * a + 1, 2 * b);
        }
      if (rng() % 3 == 0) add(2 * (rng() % b), 2 * b + 1);
      for (std::uint32_t a = 0; a < b; ++a)
        if (end[a] < start[b] && start[b] - end[a] < window) {
          add(2 * a, 2 * b + 1);
          add(2 * a + 1, 2 * b + 1);
        }
    }
    // The claims: colours of intervals, by start, the first-ending tail.
    std::vector<std::uint32_t> tails;
    for (std::uint32_t b = 0; b < txns; ++b) {
      auto it = std::min_element(tails.begin(), tails.end(), [&](auto x, auto y) { return end[x] < end[y]; });
      if (it != tails.end() && end[*it] < start[b]) {
        preferred[2 * b + 1] = 2 * *it + 1;
        *it = b;
      } else {
        tails.push_back(b);
      }
      if (b > 0 && rng() % 40 == 0) preferred[2 * b + 1] = 2 * (rng() % b) + 1;
    }
    Digraph g = build(n, edges);
    auto order = topological_order(g);
    REQUIRE(order.has_value());
    Reachability r(g, *order, {nullptr, &preferred});
    if (r.chains() > 0) ++chain_form;
    if (r.chains() > 0 && r.chains() <= sessions + tails.size()) ++with_claims;
    check_reaches_as_closure(g, r, n);
  }
  CHECK(chain_form >= 40);
  CHECK(with_claims >= 10);  // the claimed links were used, not only refused
}
