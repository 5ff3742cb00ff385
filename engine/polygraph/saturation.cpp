// Read Atomic and Causal Consistency by saturation (Biswas & Enea 2019); see
// saturation.hpp for why saturation decides them, saturation_impl.hpp for
// the outline. This file holds the loop.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "engine/polygraph/saturation_impl.hpp"
#include "engine/sat/lazy_loop.hpp"
#include "engine/util/budget.hpp"

namespace iso::poly {

namespace saturation {

SaturationOutcome Saturation::run(const CheckOptions& options) {
  SaturationOutcome out;
  auto violated = [&](std::optional<Anomaly> a) {
    out.verdict = Verdict::Violated;
    if (!a) {
      a = Anomaly{};
      a->name = "cycle";
      a->description = "every choice of read-from and commits is cyclic";
    }
    out.anomaly = std::move(a);
    return out;
  };
  // Choices: prune them, unless there are none.
  const bool open = std::any_of(reads_.begin(), reads_.end(),
                                [](const Read& r) { return r.known == kNoTxn; }) ||
                    std::any_of(a_.txns.begin(), a_.txns.end(),
                                [&](TxnId t) { return !dead_[t] && unknown(t); });
  if (open) {
    stats_.wr_choices = static_cast<std::size_t>(std::count_if(
        reads_.begin(), reads_.end(), [](const Read& r) { return r.known == kNoTxn; }));
    auto t_prune = Clock::now();
    std::optional<Anomaly> forced = prune(stats_.prune_passes);
    stats_.seconds.prune = seconds_since(t_prune);
    if (forced) return violated(std::move(forced));
    for (const Read& r : reads_) {
      if (dead_[r.txn]) continue;
      const auto al = alive(r);
      const auto left = std::count(al.begin(), al.end(), kAlive);
      stats_.wr_open += r.known == kNoTxn && left > 1;
      if (r.known == kNoTxn && !unknown(r.txn) && left == 0) return violated(explain_pruned());
    }
  }
  auto t_encode = Clock::now();
  encode();
  stats_.seconds.encode += seconds_since(t_encode);

  auto t_solve = Clock::now();
  std::vector<TxnId> order;
  std::vector<std::vector<std::uint32_t>> cycles;
  auto allowed = [&] {
    stats_.seconds.solve = seconds_since(t_solve);
    out.verdict = Verdict::Allowed;
    out.commit_order = std::move(order);
    for (std::uint32_t r = 0; r < reads_.size(); ++r) {
      const Read& rd = reads_[r];
      if (chosen_[r] != kNoTxn && a_.candidates[rd.txn][r - read_begin_[rd.txn]].size() > 1)
        out.chosen_reads.push_back({chosen_[r], rd.txn, rd.op, rd.key});
    }
    return out;
  };
  if (!has_vars_) {  // one model: the fixed choices
    read_model();
    ++stats_.rounds;
    if (check_model(order, cycles, 1)) return allowed();
    stats_.seconds.solve = seconds_since(t_solve);
    return violated(anomaly(cycles.front()));
  }
  // The cycle explaining a violation: the one with the fewest edges other
  // than session order among those found.
  std::optional<Anomaly> best;
  std::size_t best_cost = 0;
  std::set<std::vector<std::uint32_t>> added;  // the clauses, as literal codes
  auto refine = [&]() -> std::size_t {
    read_model();
    if (check_model(order, cycles, std::max<std::size_t>(1, options.cycles_per_round))) return 0;
    for (const auto& cycle : cycles) {
      const auto cost = static_cast<std::size_t>(
          std::count_if(cycle.begin(), cycle.end(),
                        [&](std::uint32_t id) { return edges_[id].kind != Kind::So; }));
      std::vector<Lit> clause = blocking_clause(cycle);
      if (clause.empty() || !best || cost < best_cost) {
        best = anomaly(cycle);
        best_cost = clause.empty() ? 0 : cost;
      }
      // An empty clause: a cycle in every choice; the solver is then done.
      std::vector<std::uint32_t> code;
      for (Lit l : clause) code.push_back(l.x);
      if (!added.insert(std::move(code)).second) continue;
      solver_.add_clause(clause);
      ++stats_.cycle_clauses;
      if (clause.empty()) break;
    }
    stats_.clauses = solver_.stats().clauses;
    return cycles.size();  // a cyclic model breaks some clause: never accepted
  };
  auto last_report = Clock::now();
  auto progress = [&](std::size_t rounds) {
    if (!options.progress || seconds_since(last_report) <= 1.0) return;
    last_report = Clock::now();
    options.progress(
        fmt::format("saturation: round {}, {} cycle clauses", rounds, stats_.cycle_clauses));
  };
  sat::Result res = sat::lazy_solve(solver_, stats_.rounds, refine, progress);
  stats_.seconds.solve = seconds_since(t_solve);
  if (res == sat::Result::Sat) return allowed();
  if (res == sat::Result::Unsat) {
    if (!best) best = explain_pruned();
    return violated(std::move(best));
  }
  return out;  // Unknown: interrupted
}

}  // namespace saturation

SaturationOutcome solve_saturation(const History& h, const AbstractHistory& a,
                                   const std::vector<TxnId>& forced_aborts,
                                   const CheckOptions& options, CheckStats& stats,
                                   HbRepresentation hb) {
  saturation::Saturation s(h, a, options.level, hb, stats);
  // Preparing the choices (every read's candidates) counts as encoding them:
  // on large histories it is a pass over every read worth seeing in --stats.
  auto t_prepare = Clock::now();
  auto unjustified = s.prepare(forced_aborts);
  stats.seconds.encode += seconds_since(t_prepare);
  if (unjustified) {
    SaturationOutcome out;
    out.verdict = Verdict::Violated;
    out.anomaly = std::move(unjustified);
    return out;
  }
  return s.run(options);
}

}  // namespace iso::poly

