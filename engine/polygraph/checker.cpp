// check_history (checker.hpp): the abstraction of the history, the reads
// nothing justifies and INT violations, then RC/RA/CC by saturation or the
// other levels by the polygraph, pruned and solved; with the time and memory
// of each phase in CheckStats.
#include "engine/polygraph/checker.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/history/abstract.hpp"
#include "engine/polygraph/explain.hpp"
#include "engine/polygraph/polygraph.hpp"
#include "engine/polygraph/saturation.hpp"
#include "engine/polygraph/solve.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/memory.hpp"
#include "engine/util/timing.hpp"

namespace iso::poly {

AbstractHistory check_abstraction(const History& h, bool predicate_reads, bool real_time_cut) {
  std::vector<bool> member(h.num_txns(), false);
  for (TxnId t = 0; t < h.num_txns(); ++t)
    member[t] = t == kInitTxn || h.txn(t).status != TxnStatus::Aborted;
  AbstractOptions aopt;
  aopt.unknown_members_maybe = true;
  aopt.predicate_reads = predicate_reads;
  aopt.real_time_cut = real_time_cut;
  aopt.settle_sure_guards = true;
  return abstract_history(h, std::move(member), aopt);
}

namespace {

// check_within_budget()'s steps.
void certain_classes(const History& h, const AbstractHistory& a, const CheckOptions& options,
                     CheckResult& result);
void add_checker_class(GraphLevel level, Anomaly an, std::vector<AnomalyClass>& classes);
std::optional<Anomaly> unjustified(const History& h, const AbstractHistory& a,
                                   std::vector<TxnId>& forced_aborts);
void check_saturated(const History& h, const AbstractHistory& a,
                     const std::vector<TxnId>& forced_aborts, const CheckOptions& options,
                     CheckResult& result);
void check_polygraph(const History& h, const AbstractHistory& a,
                     const std::vector<TxnId>& forced_aborts, const CheckOptions& options,
                     CheckResult& result, const Clock::time_point& start,
                     std::optional<budget::ScopedHeartbeat>& beat, const Polygraph*& pruning);

// Fills `result` as it goes, so that what was measured before a timeout
// (the phases that completed, their sizes) survives it.
void check_within_budget(const History& h, const CheckOptions& options, CheckResult& result) {
  auto start = Clock::now();
  // Construction and pruning have no rounds to report: a heartbeat says,
  // about once a second after the first, which phase runs and how far it is.
  const Polygraph* pruning = nullptr;
  std::optional<budget::ScopedHeartbeat> beat;
  if (options.progress)
    beat.emplace([&] {
      if (seconds_since(start) < 1.0) return;
      if (!pruning) {
        options.progress(fmt::format("constructing the graph, {:.1f} s", seconds_since(start)));
        return;
      }
      const Polygraph::PruneProgress& p = pruning->prune_progress();
      if (!p.examining)
        options.progress(fmt::format("pruning, pass {}: ordering the known graph ({} edges), {:.1f} s", p.pass,
                                     pruning->known().size(), seconds_since(start)));
      else
        options.progress(fmt::format("pruning, pass {}: {} of {} constraints examined, {} known edges, {:.1f} s",
                                     p.pass, p.done, p.total, pruning->known().size(), seconds_since(start)));
    });
  // Strict serializability: candidates real time excludes are not built.
  AbstractHistory a = check_abstraction(h, /*predicate_reads=*/true,
                                        options.real_time.commit_begin && options.level == GraphLevel::Ser);
  result.stats.txns = a.txns.size();

  std::vector<TxnId> forced_aborts;
  if (auto an = unjustified(h, a, forced_aborts)) {
    result.verdict = Verdict::Violated;
    result.anomaly = std::move(an);
    result.stats.seconds.construct = seconds_since(start);
    if (options.all_limit == 0) return;
    // --all: every read anomaly, and the cycles of the certain graph too.
    result.classes = read_classes(h, a, options.all_limit);
    beat.reset();
    if (!saturated(options.level)) certain_classes(h, a, options, result);
    return;
  }
  if (!saturated(options.level))
    return check_polygraph(h, a, forced_aborts, options, result, start, beat, pruning);
  if (!a.guarded.empty())
    throw std::logic_error("saturation does not model predicate writes");
  beat.reset();  // saturation reports its own rounds
  result.stats.seconds.construct = seconds_since(start);
  result.stats.peak_bytes.construct = peak_resident_bytes();
  check_saturated(h, a, forced_aborts, options, result);
}

// Reads nothing justifies and INT violations: violations for committed
// transactions; for unknown-status ones, proof that they did not commit
// (into forced_aborts). A committed list read that shows such a
// transaction's append proves the opposite: the history is impossible.
std::optional<Anomaly> unjustified(const History& h, const AbstractHistory& a,
                                   std::vector<TxnId>& forced_aborts) {
  auto forced_abort = [&](TxnId t, const std::string& why) -> std::optional<Anomaly> {
    forced_aborts.push_back(t);
    if (!std::binary_search(a.forced_commits.begin(), a.forced_commits.end(), t))
      return std::nullopt;
    Anomaly an;
    an.name = "read of an unknown-status write";
    an.description = fmt::format("a committed list read shows an append of {}, whose status is "
                                 "unknown, but {} cannot have committed: {}",
                                 h.txn_name(t), h.txn_name(t), why);
    an.txns = {t};
    return an;
  };
  for (const IntViolation& v : a.int_violations) {
    if (h.txn(v.txn).status != TxnStatus::Unknown) return int_anomaly(v);
    if (auto an = forced_abort(v.txn, v.message)) return an;
  }
  for (const UnjustifiedRead& r : a.unjustified_reads) {
    if (h.txn(r.txn).status != TxnStatus::Unknown) return read_anomaly(r);
    if (auto an = forced_abort(r.txn, r.message)) return an;
  }
  return std::nullopt;
}

// Read Committed, Read Atomic and Causal Consistency: by saturation, no
// polygraph. It has no guarded writes (decide() sends histories with
// predicate writes to the generic oracle).
void check_saturated(const History& h, const AbstractHistory& a,
                     const std::vector<TxnId>& forced_aborts, const CheckOptions& options,
                     CheckResult& result) {
  SaturationOutcome out = solve_saturation(h, a, forced_aborts, options, result.stats);
  result.verdict = out.verdict;
  result.commit_order = std::move(out.commit_order);
  result.chosen_reads = std::move(out.chosen_reads);
  result.anomaly = std::move(out.anomaly);
}

// The other levels: the polygraph, pruned, then solved. `beat` reports
// construction and pruning (through `pruning`), and stops before solving.
void check_polygraph(const History& h, const AbstractHistory& a,
                     const std::vector<TxnId>& forced_aborts, const CheckOptions& options,
                     CheckResult& result, const Clock::time_point& start,
                     std::optional<budget::ScopedHeartbeat>& beat, const Polygraph*& pruning) {
  Polygraph pg(h, a, options.level, options.real_time);
  if (options.real_time.any()) pg.add_real_time_edges();
  if (options.acyclicity == Acyclicity::Eager) require_eager_size(pg.theory().num_nodes());
  result.stats.ww_pairs = pg.pairs().size();
  result.stats.wr_choices = pg.choices().size();
  result.stats.seconds.construct = seconds_since(start);
  result.stats.peak_bytes.construct = peak_resident_bytes();
  if (options.progress && result.stats.seconds.construct > 1.0)
    options.progress(fmt::format("constructed: {} transactions, {} ww pairs, {} read choices",
                                 a.txns.size(), pg.pairs().size(), pg.choices().size()));

  auto t_prune = Clock::now();
  pruning = &pg;
  auto forced = pg.prune(options.prune, result.stats.prune_passes, options.chains_always);
  beat.reset();  // the solver reports its own rounds
  result.stats.seconds.prune = seconds_since(t_prune);
  result.stats.peak_bytes.prune = peak_resident_bytes();
  result.stats.known_edges = pg.known().size();
  result.stats.reach_bytes = pg.reach().bytes();
  result.stats.reach_chains = pg.reach().chains();
  if (forced) {
    result.verdict = Verdict::Violated;
    result.anomaly = cycle_anomaly(h, std::move(forced->cycle), options.level);
    if (options.explain) explain_edges(pg, *result.anomaly, forced->others);
    if (options.all_limit) result.classes = cycle_classes(pg, options.level, options.all_limit);
    return;
  }
  if (options.progress && seconds_since(start) > 1.0)
    options.progress(fmt::format("pruned in {} passes: {} known edges", result.stats.prune_passes,
                                 pg.known().size()));

  SolveOutcome out = solve_polygraph(pg, forced_aborts, options, result.stats, start);
  result.verdict = out.verdict;
  if (out.verdict == Verdict::Allowed) {
    result.commit_order = std::move(out.commit_order);
    result.schedule = std::move(out.schedule);
    result.chosen_reads = std::move(out.chosen_reads);
    result.predicate_writes = std::move(out.predicate_writes);
  }
  if (out.verdict == Verdict::Violated && !out.cycle.empty()) {
    // The solver proved that every choice has a cycle; this is one of them.
    result.anomaly = cycle_anomaly(h, std::move(out.cycle), options.level);
    if (options.explain) explain_edges(pg, *result.anomaly);
  }
  if (out.verdict == Verdict::Violated && options.all_limit)
    result.classes = cycle_classes(pg, options.level, options.all_limit);
}

// --all on a history whose reads already violate the level: the certain
// graph's cycles as well (its construction and pruning, no solving).
void certain_classes(const History& h, const AbstractHistory& a, const CheckOptions& options,
                     CheckResult& result) {
  Polygraph pg(h, a, options.level, options.real_time);
  if (options.real_time.any()) pg.add_real_time_edges();
  std::size_t passes = 0;
  auto forced = pg.prune(options.prune, passes, options.chains_always);
  auto cycles = cycle_classes(pg, options.level, options.all_limit);
  for (AnomalyClass& c : cycles) result.classes.push_back(std::move(c));
  // Pruning's proof, as check without --all would show it after the reads.
  if (forced) {
    Anomaly an = cycle_anomaly(h, std::move(forced->cycle), options.level);
    explain_edges(pg, an, forced->others);
    add_checker_class(options.level, std::move(an), result.classes);
  }
}

// --all: the checker's own cycle (pruning's or the solver's proof, which may
// rest on choices) as a class of its own, when no class listed has its name.
void add_checker_class(GraphLevel level, Anomaly an, std::vector<AnomalyClass>& classes) {
  std::string name = an.cycle.empty() || saturated(level) ? an.name : cycle_class(an.cycle, level);
  if (name.empty()) name = an.name;
  if (std::any_of(classes.begin(), classes.end(), [&](const AnomalyClass& c) { return c.name == name; })) return;
  const auto at = std::find_if(classes.begin(), classes.end(),
                               [&](const AnomalyClass& c) { return class_rank(c.name) > class_rank(name); });
  classes.insert(at, AnomalyClass{name, AnomalyClass::Source::Checker, 1, {std::move(an)}, false});
}

void checker_class(const CheckOptions& options, CheckResult& result) {
  if (options.all_limit && result.verdict == Verdict::Violated && result.anomaly)
    add_checker_class(options.level, *result.anomaly, result.classes);
}

}  // namespace

CheckResult check_history(const History& h, const CheckOptions& options) {
  budget::ScopedDeadline deadline(options.timeout_seconds);
  CheckResult result;
  try {
    check_within_budget(h, options, result);
    checker_class(options, result);
  } catch (const TimeoutError&) {
    // Unknown, with what was measured until then (--stats).
    CheckResult unknown;
    unknown.stats = std::move(result.stats);
    unknown.stats.peak_bytes.end = peak_resident_bytes();
    return unknown;
  }
  result.stats.peak_bytes.end = peak_resident_bytes();
  // The execution's unknown-status transactions are the committed ones.
  for (TxnId t : result.commit_order)
    if (h.txn(t).status == TxnStatus::Unknown) result.committed_unknown.push_back(t);
  return result;
}

}  // namespace iso::poly
