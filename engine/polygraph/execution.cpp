// The execution an accepted model stands for. Under SER, a topological order
// of its dependency graph (known edges and the model's) serializes the
// history (VeriStrong Thm 3.5). Under SI, a topological order of its
// begin/commit graph (Viper §4: t's begin before its commit; a dependency
// a -> b puts a's commit before b's begin; an anti-dependency a -> b puts
// a's begin before b's commit) is a schedule in which every transaction
// reads the latest versions committed before it began and no two
// overlapping transactions write one key. That graph has a cycle iff the
// model's induced SI graph (SO ∪ WR ∪ WW) ; RW? has one: a cycle of it
// alternates dependencies with at most one anti-dependency between them,
// exactly as the two-copies theory graph checks (theory_graph.hpp).
#include <functional>
#include <queue>
#include <stdexcept>

#include "engine/polygraph/encoder.hpp"

namespace iso::poly {

namespace {

// Kahn's algorithm, smallest ready node first (a deterministic order close
// to the transactions' own order). Nodes for which `present` is false are
// left out. Throws on a cycle: the model was accepted as acyclic.
std::vector<std::uint32_t> ordered(std::uint32_t nodes,
                                   const std::vector<std::pair<std::uint32_t, std::uint32_t>>& arcs,
                                   const std::function<bool(std::uint32_t)>& present) {
  std::vector<std::vector<std::uint32_t>> out(nodes);
  std::vector<std::uint32_t> indegree(nodes, 0);
  for (auto [a, b] : arcs) {
    if (!present(a) || !present(b)) continue;
    out[a].push_back(b);
    ++indegree[b];
  }
  std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> ready;
  std::size_t count = 0;
  for (std::uint32_t v = 0; v < nodes; ++v)
    if (present(v)) {
      ++count;
      if (indegree[v] == 0) ready.push(v);
    }
  std::vector<std::uint32_t> order;
  while (!ready.empty()) {
    std::uint32_t v = ready.top();
    ready.pop();
    order.push_back(v);
    for (std::uint32_t w : out[v])
      if (--indegree[w] == 0) ready.push(w);
  }
  if (order.size() != count)
    throw std::logic_error("polygraph: the accepted model's execution graph is cyclic");
  return order;
}

}  // namespace

void fill_execution(const Encoder& enc, SolveOutcome& out) {
  const Polygraph& pg = enc.polygraph();
  const auto n = static_cast<std::uint32_t>(pg.history().num_txns());
  ModelEdges model = enc.model_edges();
  if (!model.broken.empty())
    throw std::logic_error("polygraph: an accepted model has a non-transitive version order");
  std::vector<DepEdge> deps(pg.known().begin(), pg.known().end());
  for (const CondEdge& e : model.edges) deps.push_back(e.edge);
  auto committed = [&](TxnId t) {
    return t == kInitTxn || (pg.abstract().member[t] && enc.committed_in_model(t));
  };
  out.chosen_reads = enc.chosen_reads();
  out.commit_order.clear();
  out.schedule.clear();
  if (pg.theory().level() == GraphLevel::Ser) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> arcs;
    for (const DepEdge& e : deps) arcs.emplace_back(e.from, e.to);
    for (std::uint32_t t : ordered(n, arcs, committed)) out.commit_order.push_back(t);
    return;
  }
  // Begin of t: node 2t; commit: 2t + 1.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> arcs;
  for (TxnId t = 0; t < n; ++t) arcs.emplace_back(2 * t, 2 * t + 1);
  for (const DepEdge& e : deps) {
    if (e.type == Dep::RW)
      arcs.emplace_back(2 * e.from, 2 * e.to + 1);
    else
      arcs.emplace_back(2 * e.from + 1, 2 * e.to);
  }
  out.commit_order.push_back(kInitTxn);
  for (std::uint32_t v : ordered(2 * n, arcs, [&](std::uint32_t v) { return committed(v / 2); })) {
    const TxnId t = v / 2;
    if (t == kInitTxn) continue;
    const bool commit = v % 2 == 1;
    out.schedule.push_back(ScheduleEvent{t, commit});
    if (commit) out.commit_order.push_back(t);
  }
}

}  // namespace iso::poly
