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
#include <queue>
#include <stdexcept>

#include "engine/polygraph/encoder.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly {

namespace {

// Kahn's algorithm, smallest ready node first (a deterministic order close
// to the transactions' own order). `each_arc(emit)` calls emit(a, b) for
// every arc, and is called twice: once to count, once to fill a compressed
// adjacency array. The known graph of a large history has millions of edges;
// holding them once more as pairs and again as adjacency vectors cost more
// memory than the checker itself. Nodes for which `present` is false are
// left out. Throws on a cycle: the model was accepted as acyclic.
template <class EachArc, class Present>
std::vector<std::uint32_t> ordered(std::uint32_t nodes, const EachArc& each_arc,
                                   const Present& present) {
  std::vector<std::uint32_t> start(static_cast<std::size_t>(nodes) + 1, 0);
  each_arc([&](std::uint32_t a, std::uint32_t b) {
    if (present(a) && present(b)) ++start[a + 1];
  });
  for (std::uint32_t v = 0; v < nodes; ++v) start[v + 1] += start[v];
  std::vector<std::uint32_t> target(start[nodes]);
  std::vector<std::uint32_t> indegree(nodes, 0);
  {
    std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
    each_arc([&](std::uint32_t a, std::uint32_t b) {
      if (!present(a) || !present(b)) return;
      target[next[a]++] = b;
      ++indegree[b];
    });
  }
  std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> ready;
  std::size_t count = 0;
  for (std::uint32_t v = 0; v < nodes; ++v)
    if (present(v)) {
      ++count;
      if (indegree[v] == 0) ready.push(v);
    }
  std::vector<std::uint32_t> order;
  order.reserve(count);
  while (!ready.empty()) {
    std::uint32_t v = ready.top();
    ready.pop();
    order.push_back(v);
    for (std::uint32_t i = start[v]; i < start[v + 1]; ++i)
      if (--indegree[target[i]] == 0) ready.push(target[i]);
  }
  if (order.size() != count)
    throw std::logic_error("polygraph: the accepted model's execution graph is cyclic");
  return order;
}

}  // namespace

void fill_execution(const Encoder& enc, const ModelEdges& model, SolveOutcome& out) {
  const Polygraph& pg = enc.polygraph();
  const auto n = static_cast<std::uint32_t>(pg.history().num_txns());
  if (!model.broken.empty())
    throw std::logic_error("polygraph: an accepted model has a non-transitive version order");
  // Every dependency of the model's graph: the known edges and the model's.
  auto each_dep = [&](const auto& f) {
    for (const DepEdge& e : pg.known()) f(e);
    for (const CondEdge& e : model.edges) f(e.edge);
  };
  auto committed = [&](TxnId t) {
    return t == kInitTxn || (pg.abstract().member[t] && enc.committed_in_model(t));
  };
  out.chosen_reads = enc.chosen_reads();
  out.predicate_writes.clear();
  const std::vector<bool> truths = enc.guards_in_model();
  for (std::size_t g = 0; g < truths.size(); ++g) {
    const GuardedWrite& gw = pg.abstract().guarded[g];
    if (truths[g] && gw.final && committed(gw.txn)) out.predicate_writes.emplace_back(gw.txn, gw.key);
  }
  out.commit_order.clear();
  out.schedule.clear();
  if (pg.theory().level() == GraphLevel::Ser) {
    auto arcs = [&](const auto& emit) { each_dep([&](const DepEdge& e) { emit(e.from, e.to); }); };
    for (std::uint32_t t : ordered(n, arcs, committed)) out.commit_order.push_back(t);
    return;
  }
  // Begin of t: node 2t; commit: 2t + 1.
  auto arcs = [&](const auto& emit) {
    for (TxnId t = 0; t < n; ++t) emit(2 * t, 2 * t + 1);
    each_dep([&](const DepEdge& e) {
      const ScheduleArc s = schedule_arc(e.type);
      emit(2 * e.from + (s.from_commit ? 1 : 0), 2 * e.to + (s.to_commit ? 1 : 0));
    });
  };
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
