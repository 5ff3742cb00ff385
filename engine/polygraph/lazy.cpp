// Lazy acyclicity (DESIGN §4.4): each model's edges go into a dynamic
// topological order over the known graph; every edge the order refuses
// closes a cycle, which becomes a clause over the literals of its uncertain
// edges (known edges are facts). The order is kept from one model to the
// next: the edges of the last model that this one lacks are removed (which
// keeps the order topological), and only its new edges are inserted.
// Consecutive models differ in a few choices, so a round costs what
// changed, not the whole graph.
#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "engine/graph/dynamic_order.hpp"
#include "engine/polygraph/encoder.hpp"
#include "engine/sat/lazy_loop.hpp"

namespace iso::poly {

namespace {

using sat::Lit;

class LazyAcyclicity {
 public:
  LazyAcyclicity(Encoder& enc, std::size_t cycles_per_round)
      : enc_(enc), pg_(enc.polygraph()), cycles_per_round_(cycles_per_round),
        dyn_(pg_.known_graph(), pg_.order()) {}

  // Checks the solver's current model: adds a clause for each cycle met (up
  // to cycles_per_round) and returns how many; 0 when the model is acyclic.
  std::size_t refine();
  // The shortest cycle met so far (a cycle of one compatible graph).
  std::vector<DepEdge>& shortest() { return shortest_; }
  // The edges of the model refine() saw last: once it accepts one, that
  // model's.
  const ModelEdges& last_model() const { return last_model_; }

 private:
  std::size_t insert(const std::vector<CondEdge>& edges);
  void add_cycle_clause(const std::vector<CondEdge>& cycle_edges, std::vector<DepEdge> cycle);
  void remove_slot(std::uint32_t slot, std::uint32_t n_arcs);

  Encoder& enc_;
  const Polygraph& pg_;
  std::size_t cycles_per_round_;
  graph::DynamicOrder dyn_;
  // The last model's edges, each in a slot whose edge id is known().size() + slot.
  std::vector<CondEdge> slots_;
  std::vector<std::uint32_t> slot_seen_;  // round stamp; 0 = free
  std::vector<std::uint32_t> free_slots_;
  std::unordered_map<CondEdge, std::uint32_t, CondEdgeHash> slot_of_;
  std::uint32_t round_stamp_ = 0;
  std::vector<DepEdge> shortest_;
  std::size_t shortest_choices_ = 0;  // the literals its clause has
  ModelEdges last_model_;
};

void LazyAcyclicity::add_cycle_clause(const std::vector<CondEdge>& cycle_edges,
                                      std::vector<DepEdge> cycle) {
  std::vector<Lit> clause;
  for (const CondEdge& e : cycle_edges)
    for (std::uint8_t q = 0; q < e.n; ++q)
      if (std::find(clause.begin(), clause.end(), ~e.lits[q]) == clause.end())
        clause.push_back(~e.lits[q]);
  enc_.solver().add_clause(clause);
  ++enc_.stats().cycle_clauses;
  // The shortest; of equally short ones, the one that rests on the fewest
  // choices (more of it certain, so a clearer explanation).
  if (shortest_.empty() || cycle.size() < shortest_.size() ||
      (cycle.size() == shortest_.size() && clause.size() < shortest_choices_)) {
    shortest_ = std::move(cycle);
    shortest_choices_ = clause.size();
  }
}

std::size_t LazyAcyclicity::refine() {
  last_model_ = enc_.model_edges();
  const ModelEdges& model = last_model_;
  // A key whose version order is not an order: cut its 3-cycles directly.
  for (const auto& broken : model.broken) {
    std::vector<DepEdge> cycle;
    for (const CondEdge& e : broken) cycle.push_back(e.edge);
    add_cycle_clause(broken, std::move(cycle));
  }
  if (!model.broken.empty()) return model.broken.size();
  return insert(model.edges);
}

void LazyAcyclicity::remove_slot(std::uint32_t slot, std::uint32_t n_arcs) {
  const TheoryGraph& th = pg_.theory();
  std::array<TheoryArc, 2> arcs;
  const auto base = static_cast<graph::EdgeId>(pg_.known().size());
  std::uint32_t n = th.arcs(slots_[slot].edge, arcs);
  for (std::uint32_t j = 0; j < std::min(n, n_arcs); ++j)
    dyn_.remove_edge(arcs[j].from, arcs[j].to, base + slot);
  slot_of_.erase(slots_[slot]);
  slot_seen_[slot] = 0;
  free_slots_.push_back(slot);
}

std::size_t LazyAcyclicity::insert(const std::vector<CondEdge>& edges) {
  const TheoryGraph& th = pg_.theory();
  const auto base = static_cast<graph::EdgeId>(pg_.known().size());
  std::array<TheoryArc, 2> arcs;

  // Which of this model's edges are in the order already.
  ++round_stamp_;
  std::vector<std::size_t> fresh;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    auto it = slot_of_.find(edges[i]);
    if (it == slot_of_.end())
      fresh.push_back(i);
    else
      slot_seen_[it->second] = round_stamp_;
  }
  for (std::uint32_t slot = 0; slot < slots_.size(); ++slot)
    if (slot_seen_[slot] != 0 && slot_seen_[slot] != round_stamp_) remove_slot(slot, 2);

  std::size_t found = 0;
  for (std::size_t i : fresh) {
    if (found >= cycles_per_round_) break;
    std::uint32_t slot;
    if (free_slots_.empty()) {
      slot = static_cast<std::uint32_t>(slots_.size());
      slots_.push_back(edges[i]);
      slot_seen_.push_back(0);
    } else {
      slot = free_slots_.back();
      free_slots_.pop_back();
      slots_[slot] = edges[i];
    }
    slot_seen_[slot] = round_stamp_;
    slot_of_.emplace(edges[i], slot);
    std::uint32_t n = th.arcs(edges[i].edge, arcs);
    for (std::uint32_t j = 0; j < n; ++j) {
      auto path = dyn_.add_edge(arcs[j].from, arcs[j].to, base + slot);
      if (!path) continue;
      std::vector<CondEdge> on_cycle{edges[i]};
      std::vector<DepEdge> cycle{edges[i].edge};
      for (graph::EdgeId id : *path) {
        if (id >= base) {
          on_cycle.push_back(slots_[id - base]);
          cycle.push_back(slots_[id - base].edge);
        } else {
          cycle.push_back(pg_.known()[id]);
        }
      }
      add_cycle_clause(on_cycle, std::move(cycle));
      ++found;
      remove_slot(slot, j);  // refused: undo the arcs it already added
      break;
    }
  }
  return found;
}

}  // namespace

SolveOutcome solve_lazy(Encoder& enc, const CheckOptions& options, Clock::time_point start) {
  SolveOutcome out;
  LazyAcyclicity lazy(enc, std::max<std::size_t>(1, options.cycles_per_round));
  auto last_progress = start;
  sat::Result r = sat::lazy_solve(
      enc.solver(), enc.stats().rounds, [&] { return lazy.refine(); },
      [&](std::size_t rounds) {
        if (!options.progress || seconds_since(start) <= 1.0 ||
            seconds_since(last_progress) < 1.0)
          return;
        last_progress = Clock::now();
        options.progress(fmt::format("round {}: {} cycle clauses so far, {:.1f} s", rounds,
                                     enc.stats().cycle_clauses, seconds_since(start)));
      });
  if (r == sat::Result::Unknown) return out;
  if (r == sat::Result::Unsat) {
    out.verdict = Verdict::Violated;
    out.cycle = std::move(lazy.shortest());
    auto two_width = enc.shortest_two_width_cycle();
    if (!two_width.empty() && (out.cycle.empty() || two_width.size() < out.cycle.size()))
      out.cycle = std::move(two_width);
    return out;
  }
  out.verdict = Verdict::Allowed;
  fill_execution(enc, lazy.last_model(), out);
  return out;
}

}  // namespace iso::poly
