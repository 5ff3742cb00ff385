// Read Committed, Read Atomic and Causal Consistency by saturation (Biswas &
// Enea 2019); see saturation.hpp for why saturation decides them,
// saturation_impl.hpp for the outline and the stages. This file holds the
// driver: it runs the stages in order and, when choices are open, the lazy
// loop (engine/sat/lazy_loop.hpp) over the solver's models.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "engine/polygraph/saturation_explain.hpp"
#include "engine/polygraph/saturation_prune.hpp"
#include "engine/sat/lazy_loop.hpp"
#include "engine/util/budget.hpp"

namespace iso::poly {

namespace saturation {

namespace {

SaturationOutcome violated(std::optional<Anomaly> a) {
  SaturationOutcome out;
  out.verdict = Verdict::Violated;
  if (!a) {
    a = Anomaly{};
    a->name = "cycle";
    a->description = "every choice of read-from and commits is cyclic";
  }
  out.anomaly = std::move(a);
  return out;
}

// The clauses of the lazy loop, and the cycle that explains a violation: the
// one with the fewest edges other than session order among those found.
class Refinement {
 public:
  Refinement(sat::Solver& solver, CheckStats& stats) : solver_(solver), stats_(stats) {}

  // Adds the blocking clause of each cycle of the model `graph` was built
  // from; keeps the cheapest cycle's anomaly.
  void add(const std::vector<std::vector<std::uint32_t>>& cycles, const ModelGraph& graph,
           const CycleExplainer& explainer) {
    for (const auto& cycle : cycles) {
      const auto cost = static_cast<std::size_t>(
          std::count_if(cycle.begin(), cycle.end(),
                        [&](std::uint32_t id) { return graph.edge(id).kind != Kind::So; }));
      std::vector<Lit> clause = explainer.blocking_clause(cycle);
      if (clause.empty() || !best_ || cost < best_cost_) {
        best_ = explainer.anomaly(cycle);
        best_cost_ = clause.empty() ? 0 : cost;
      }
      // An empty clause: a cycle in every choice; the solver is then done.
      std::vector<std::uint32_t> code;
      for (Lit l : clause) code.push_back(l.x);
      if (!added_.insert(std::move(code)).second) continue;
      solver_.add_clause(clause);
      ++stats_.cycle_clauses;
      if (clause.empty()) break;
    }
    stats_.clauses = solver_.stats().clauses;
  }
  std::optional<Anomaly>& best() { return best_; }

 private:
  sat::Solver& solver_;
  CheckStats& stats_;
  std::optional<Anomaly> best_;
  std::size_t best_cost_ = 0;
  std::set<std::vector<std::uint32_t>> added_;  // the clauses, as literal codes
};

// The stages of one check, and the order they run in.
class Driver {
 public:
  Driver(const History& h, const AbstractHistory& a, const CheckOptions& options,
         HbRepresentation hb, CheckStats& stats)
      : h_(h),
        a_(a),
        options_(options),
        stats_(stats),
        choices_(h, a),
        graph_(h, a, choices_, options.level, hb, stats) {}

  SaturationOutcome run(const std::vector<TxnId>& forced_aborts);

 private:
  std::optional<Anomaly> prepare(const std::vector<TxnId>& forced_aborts);
  // Pruning, when choices are open: true on a violation every model has, or
  // a committed read left without candidates, with `why` its explanation
  // (nullopt when none was found).
  bool prune(std::optional<Anomaly>& why);
  // The outcome of an acyclic model: its commit order and read-from.
  SaturationOutcome allowed(const Model& model, std::vector<TxnId>& order) const;
  SaturationOutcome solve_fixed();
  SaturationOutcome solve_lazily();
  CycleExplainer explainer(const Model& model) const {
    return CycleExplainer(h_, a_, options_.level, choices_, model, graph_);
  }

  const History& h_;
  const AbstractHistory& a_;
  const CheckOptions& options_;
  CheckStats& stats_;
  Choices choices_;
  ModelGraph graph_;
};

std::optional<Anomaly> Driver::prepare(const std::vector<TxnId>& forced_aborts) {
  // Preparing the choices (every read's candidates) counts as encoding them:
  // on large histories it is a pass over every read worth seeing in --stats.
  auto t_prepare = Clock::now();
  auto unjustified = choices_.prepare(forced_aborts);
  stats_.seconds.encode += seconds_since(t_prepare);
  return unjustified;
}

bool Driver::prune(std::optional<Anomaly>& why) {
  const auto& reads = choices_.reads();
  stats_.wr_choices = static_cast<std::size_t>(
      std::count_if(reads.begin(), reads.end(), [](const Read& r) { return r.known == kNoTxn; }));
  Pruner pruner(h_, a_, options_.level, choices_, graph_);
  auto t_prune = Clock::now();
  why = pruner.prune(stats_.prune_passes);
  stats_.seconds.prune = seconds_since(t_prune);
  if (why) return true;
  for (const Read& r : reads) {
    if (choices_.dead(r.txn)) continue;
    const auto al = choices_.alive(r);
    const auto left = std::count(al.begin(), al.end(), kAlive);
    stats_.wr_open += r.known == kNoTxn && left > 1;
    if (r.known == kNoTxn && !choices_.unknown(r.txn) && left == 0) {
      why = pruner.explain_pruned();
      return true;
    }
  }
  return false;
}

SaturationOutcome Driver::allowed(const Model& model, std::vector<TxnId>& order) const {
  SaturationOutcome out;
  out.verdict = Verdict::Allowed;
  out.commit_order = std::move(order);
  const auto& reads = choices_.reads();
  for (std::uint32_t r = 0; r < reads.size(); ++r) {
    const Read& rd = reads[r];
    if (model.chosen[r] != kNoTxn &&
        a_.candidates[rd.txn][r - choices_.read_begin(rd.txn)].size() > 1)
      out.chosen_reads.push_back({model.chosen[r], rd.txn, rd.op, rd.key});
  }
  return out;
}

SaturationOutcome Driver::run(const std::vector<TxnId>& forced_aborts) {
  if (auto unjustified = prepare(forced_aborts)) return violated(std::move(unjustified));
  std::optional<Anomaly> why;
  if (choices_.open() && prune(why)) return violated(std::move(why));
  auto t_encode = Clock::now();
  choices_.encode(stats_);
  stats_.seconds.encode += seconds_since(t_encode);
  return choices_.has_vars() ? solve_lazily() : solve_fixed();
}

// No variables: one model, the fixed choices.
SaturationOutcome Driver::solve_fixed() {
  auto t_solve = Clock::now();
  Model model;
  std::vector<TxnId> order;
  std::vector<std::vector<std::uint32_t>> cycles;
  choices_.read_model(model);
  ++stats_.rounds;
  const bool acyclic = graph_.check(model, order, cycles, 1);
  stats_.seconds.solve = seconds_since(t_solve);
  if (acyclic) return allowed(model, order);
  return violated(explainer(model).anomaly(cycles.front()));
}

// The lazy loop: each model of the solver is checked; its cycles become
// clauses, until a model is acyclic or none is left.
SaturationOutcome Driver::solve_lazily() {
  auto t_solve = Clock::now();
  std::vector<TxnId> order;
  std::vector<std::vector<std::uint32_t>> cycles;
  Model model;  // of the round: read from the solver, checked, explained
  Refinement refinement(choices_.solver(), stats_);
  auto refine = [&]() -> std::size_t {
    choices_.read_model(model);
    if (graph_.check(model, order, cycles, std::max<std::size_t>(1, options_.cycles_per_round)))
      return 0;
    refinement.add(cycles, graph_, explainer(model));
    return cycles.size();  // a cyclic model breaks some clause: never accepted
  };
  auto last_report = Clock::now();
  auto progress = [&](std::size_t rounds) {
    if (!options_.progress || seconds_since(last_report) <= 1.0) return;
    last_report = Clock::now();
    options_.progress(
        fmt::format("saturation: round {}, {} cycle clauses", rounds, stats_.cycle_clauses));
  };
  sat::Result res = sat::lazy_solve(choices_.solver(), stats_.rounds, refine, progress);
  stats_.seconds.solve = seconds_since(t_solve);
  if (res == sat::Result::Sat) return allowed(model, order);
  if (res == sat::Result::Unsat) {
    auto& best = refinement.best();
    if (!best) best = Pruner(h_, a_, options_.level, choices_, graph_).explain_pruned();
    return violated(std::move(best));
  }
  return {};  // Unknown: interrupted
}

}  // namespace

}  // namespace saturation

SaturationOutcome solve_saturation(const History& h, const AbstractHistory& a,
                                   const std::vector<TxnId>& forced_aborts,
                                   const CheckOptions& options, CheckStats& stats,
                                   HbRepresentation hb) {
  return saturation::Driver(h, a, options, hb, stats).run(forced_aborts);
}

}  // namespace iso::poly
