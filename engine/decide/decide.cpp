// decide() (decide.hpp): the choice of checker for a level and a history,
// and the verdict with its witness or explanation.
#include "engine/decide/decide.hpp"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "engine/decide/core.hpp"
#include "engine/decide/framework_witness.hpp"
#include "engine/decide/generic.hpp"
#include "engine/logic/translator.hpp"
#include "engine/polygraph/explain.hpp"
#include "engine/timestamps/trusted_check.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/memory.hpp"
#include "engine/util/timing.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso {

std::string_view checker_name(Checker c) {
  switch (c) {
    case Checker::Polygraph: return "polygraph";
    case Checker::Saturation: return "saturation";
    case Checker::Generic: return "generic";
    case Checker::Timestamps: return "timestamps";
  }
  return "?";
}

namespace {

// Past this many transactions a graph checker's witness is not re-checked
// against the level's formula (the check unrolls it; tests re-check larger
// ones by direct replay).
constexpr std::size_t kRecheckMaxTxns = 16;

// Past this many transactions a generic violation is not explained by its
// failing instances (violation_core's own bound).
constexpr std::size_t kExplainMaxTxns = 24;

void decide_graph(const History& h, const Level& level, const DecideOptions& opt, Decision& d) {
  const GraphLevel g = *level.graph;
  d.checker = saturated(g) ? Checker::Saturation : Checker::Polygraph;
  poly::CheckOptions po;
  po.level = g;
  const model::RealTimeUse rt = level.real_time();  // the spec loader checks the graph models it
  po.real_time = {rt.commit_begin, rt.commit_commit, rt.begin_commit};
  po.acyclicity = opt.acyclicity;
  po.prune = opt.prune;
  po.two_width = opt.two_width;
  po.chains_always = opt.chains_always;
  po.explain = opt.explain;
  po.all_limit = opt.all_limit;
  po.progress = opt.progress;
  poly::CheckResult r = poly::check_history(h, po);
  d.verdict = r.verdict;
  d.anomaly = std::move(r.anomaly);
  d.classes = std::move(r.classes);
  d.graph_stats = r.stats;
  for (auto& n : r.notes) d.notes.push_back(std::move(n));
  if (r.verdict == Verdict::Violated && !d.anomaly)
    d.reason = "every choice of version order and read-from closes a cycle";
  if (r.verdict == Verdict::Unknown) d.reason = "time limit reached";
  if (r.verdict != Verdict::Allowed) return;
  d.commit_order = r.commit_order;
  if (!opt.witness) return;
  GraphExecution e{g, std::move(r.commit_order), std::move(r.schedule), std::move(r.chosen_reads),
                   std::move(r.committed_unknown), std::move(r.predicate_writes)};
  d.witness = framework_witness(h, *level.framework, e);
  if (!d.witness) {
    d.notes.push_back(fmt::format(
        "the {} framework's witness is not built from the graph checker's commit order; the "
        "commit order is shown instead",
        level.framework->name));
    return;
  }
  // The construction is a theorem (framework_witness.hpp); on small
  // histories, check it anyway, so a wrong witness is never printed. A few
  // transactions with hundreds of operations are not small: their formula
  // is too large to unroll, and then the check is left to the tests.
  if (h.num_txns() <= kRecheckMaxTxns + 1) {
    std::string why;
    try {
      if (!satisfies(h, level, *d.witness, &why, SessionMode::Auto))
        throw std::logic_error(fmt::format(
            "internal error: the {} checker's witness for {} does not satisfy its formula: {}",
            checker_name(d.checker), level.name, why));
    } catch (const logic::TranslationError&) {
      // too large to unroll: not re-checked
    }
  }
}

// A level that trusts the database's timestamps: its witness is the
// timestamps themselves, so deciding it is checking it, in one pass
// (engine/timestamps/trusted_check.hpp). Reads nothing justifies and INT
// violations come first, by name, as on every path.
void decide_timestamps(const History& h, const Level& level, Decision& d) {
  d.checker = Checker::Timestamps;
  const auto start = Clock::now();
  const AbstractHistory a = poly::check_abstraction(h);
  // --stats: the abstraction as construction, the check as solving.
  d.graph_stats.txns = a.txns.size();
  d.graph_stats.seconds.construct = seconds_since(start);
  d.graph_stats.peak_bytes.construct = peak_resident_bytes();
  if (!a.int_violations.empty()) {
    d.verdict = Verdict::Violated;
    d.anomaly = poly::int_anomaly(a.int_violations.front());
    return;
  }
  if (!a.unjustified_reads.empty()) {
    d.verdict = Verdict::Violated;
    d.anomaly = poly::read_anomaly(a.unjustified_reads.front());
    return;
  }
  if (a.has_predicate_reads)
    d.notes.push_back("predicate reads are not checked by the timestamps' check; the verdict "
                      "covers the key reads only");
  const auto tl = *level.graph == GraphLevel::TsSer ? timestamps::TrustedLevel::SER
                                                         : timestamps::TrustedLevel::SI;
  const auto check_start = Clock::now();
  const timestamps::TrustedResult r = timestamps::check_trusted(h, tl, level.uses_sessions());
  d.graph_stats.seconds.solve = seconds_since(check_start);
  d.graph_stats.peak_bytes.end = peak_resident_bytes();
  if (r.violations.empty()) {
    d.verdict = Verdict::Allowed;
    return;
  }
  d.verdict = Verdict::Violated;
  const timestamps::Violation& v = r.violations.front();
  Anomaly an;
  an.name = std::string(timestamps::violation_kind_name(v.kind));  // Chronos's own names
  an.description = v.description;
  an.txns = v.txns;
  d.anomaly = std::move(an);
  if (r.violations.size() > 1)
    d.notes.push_back(fmt::format("{}{} violations of the timestamps in all; the first is shown",
                                  r.violations.size(), r.truncated ? "+" : ""));
}

void decide_generic(const History& h, const Level& level, const DecideOptions& opt, Decision& d) {
  d.checker = Checker::Generic;
  if (auto why = refusal(h, level, opt)) throw DecideRefused(*why);
  generic::Result r;
  if (!opt.hint.empty()) r = generic::check(h, level, opt.max_unknown, opt.hint);
  if (r.verdict != Verdict::Allowed) {
    GenericStats hinted = r.stats;
    r = generic::check(h, level, opt.max_unknown);
    r.stats.translate_seconds += hinted.translate_seconds;
    r.stats.solve_seconds += hinted.solve_seconds;
    r.stats.solver_calls += hinted.solver_calls;
  }
  d.verdict = r.verdict;
  d.witness = std::move(r.witness);
  d.anomaly = std::move(r.anomaly);
  d.reason = std::move(r.reason);
  for (auto& n : r.notes) d.notes.push_back(std::move(n));
  d.generic_stats = r.stats;
}

// Which instances of the level's formula fail together, on the part of
// the history the core names (the whole history when it has no core, or
// has list reads). Only where no choice of commits is left: every
// transaction committed or aborted.
void explain_generic(const History& h, const Level& level, Decision& d) {
  for (TxnId t = 1; t < h.num_txns(); ++t)
    if (h.txn(t).status == TxnStatus::Unknown) return;
  // Lists read by the core may hold appends of transactions outside it: a
  // history with list reads is explained whole.
  const bool whole = d.core.empty() || h.has_list_reads();
  // As the core: only on small histories (the instances grow as n^3 and more).
  if (whole && h.num_txns() - 1 > kExplainMaxTxns) return;
  std::optional<History> part;
  if (!whole) {
    std::vector<bool> keep(h.num_txns(), false);
    for (TxnId t : d.core) keep[t] = true;
    part = part_of(h, keep);
  }
  const History& g = part ? *part : h;
  const AbstractHistory a = abstract_history(g, committed_members(g), generic::abstract_options(level));
  if (!a.int_violations.empty() || !a.unjustified_reads.empty()) return;
  // The verdict is proved: running out of time or translation work while
  // explaining it leaves it without the instances, not unknown.
  try {
    d.failing = failing_instances(a, level);
    // A cycle of dependencies among them names the violation, as a graph
    // checker's would.
    if (d.failing)
      if (auto cycle = dependency_cycle(g, *d.failing)) d.anomaly = std::move(*cycle);
  } catch (const TimeoutError&) {
    d.notes.push_back("the time limit was reached before the failing instances were found");
  } catch (const logic::TranslationError&) {
    d.notes.push_back("the level's formula unrolls too far on this history to list its failing instances");
  }
}

// A key read as a list (list-append) to which two transactions append the
// same element: the known version order around it is ambiguous
// (known_order.hpp), where the timestamps' check compares whole lists.
std::optional<KeyId> ambiguous_list_key(const History& h) {
  if (!h.has_list_reads()) return std::nullopt;
  std::vector<bool> list_key(h.keys().size(), false);
  for (const Transaction& t : h.txns())
    for (const Op& op : t.ops)
      if (op.list != kNoList) list_key[op.key] = true;
  std::unordered_map<std::uint64_t, TxnId> appender;  // (key, value) -> first appender
  for (TxnId t = 1; t < h.num_txns(); ++t)
    for (const Op& op : h.txn(t).ops) {
      if (op.kind != OpKind::Write || !list_key[op.key]) continue;
      const auto [it, fresh] = appender.emplace((std::uint64_t{op.key} << 32) | op.value, t);
      if (!fresh && it->second != t) return op.key;
    }
  return std::nullopt;
}

// RA, CC and RC by saturation decide predicate reads but do not model
// predicate writes (whose writes exist or not), so histories with predicate
// writes go to the generic oracle.
bool generic_for_predicate_writes(const History& h, const Level& level) {
  return h.has_predicate_writes() && level.graph && saturated(*level.graph);
}

}  // namespace

std::optional<std::string> refusal(const History& h, const Level& level,
                                   const DecideOptions& opt) {
  if (auto gap = predicate_write_gap(h)) return fmt::format("level {}: {}", level.name, *gap);
  if (h.has_predicate_writes() && level.uses_db_timestamps())
    return fmt::format("level {} reads the database's timestamps, and its check does not model "
                       "predicate writes, whose writes are a choice",
                       level.name);
  if (level.uses_db_timestamps()) {
    const timestamps::TimestampGaps gaps = timestamps::timestamp_gaps(h);
    auto first = [&](const std::vector<TxnId>& v) { return h.txn_name(v.front()); };
    if (!gaps.missing.empty())
      return fmt::format("level {} reads the database's start and commit timestamps, and {} "
                         "transaction{} ha{} none (the first is {})",
                         level.name, gaps.missing.size(), gaps.missing.size() == 1 ? "" : "s",
                         gaps.missing.size() == 1 ? "s" : "ve", first(gaps.missing));
    if (!gaps.inverted.empty())
      return fmt::format("level {} reads the database's timestamps, and {} starts after it "
                         "commits",
                         level.name, first(gaps.inverted));
    if (!gaps.not_committed.empty())
      return fmt::format("level {} reads the database's timestamps, which only committed "
                         "transactions have, and {} is not known to have committed",
                         level.name, first(gaps.not_committed));
    if (auto key = ambiguous_list_key(h))
      return fmt::format("level {} reads the database's timestamps, and list key {} has an "
                         "element appended by two transactions: which one a list shows is "
                         "ambiguous, and the timestamps' check compares whole lists",
                         level.name, h.key_text(*key));
  }
  if (level.graph && !opt.force_generic && !generic_for_predicate_writes(h, level))
    return std::nullopt;
  const std::size_t txns = h.num_txns() - 1;
  if (txns > opt.generic_max_txns && generic_for_predicate_writes(h, level))
    return fmt::format("level {} is decided by saturation, which does not model predicate writes, "
                       "and the generic oracle handles at most {} transactions (this history has "
                       "{}); check SER or SI, or a smaller history",
                       level.name, opt.generic_max_txns, txns);
  if (txns > opt.generic_max_txns)
    return fmt::format(
        "level {} has no graph characterization, and the generic oracle handles at most {} "
        "transactions (this history has {}); check SER, SI, RA or CC, or a smaller history",
        level.name, opt.generic_max_txns, txns);
  std::size_t unknown = 0;
  for (TxnId t = 1; t < h.num_txns(); ++t) unknown += h.txn(t).status == TxnStatus::Unknown;
  if (unknown > opt.max_unknown)
    return fmt::format(
        "level {} goes to the generic oracle, which tries every choice of the transactions of "
        "unknown status that committed and handles at most {} of them (this history has {})",
        level.name, opt.max_unknown, unknown);
  return std::nullopt;
}

bool decided_without_sessions(const History& h, const Level& level, SessionMode mode) {
  if (mode == SessionMode::Auto && level.uses_sessions()) return false;
  return std::any_of(h.sessions().begin(), h.sessions().end(),
                     [](const auto& s) { return s.size() > 1; });
}

Decision decide(const History& original, const Level& level, const DecideOptions& opt) {
  Decision d;
  budget::ScopedDeadline deadline(opt.timeout_seconds);
  std::optional<History> split;
  if (decided_without_sessions(original, level, opt.sessions))
    split = original.each_in_own_session();
  d.sessions_ignored = split.has_value();
  const History& h = split ? *split : original;
  try {
    if (level.graph && !opt.force_generic && !generic_for_predicate_writes(h, level)) {
      if (auto why = refusal(h, level, opt)) throw DecideRefused(*why);
      if (trusts_timestamps(*level.graph))
        decide_timestamps(h, level, d);
      else
        decide_graph(h, level, opt, d);
    }
    else
      decide_generic(h, level, opt, d);
    // No cycle names the violation: say which transactions it needs.
    if (opt.explain && d.verdict == Verdict::Violated && !d.anomaly) {
      if (auto core = violation_core(h, level, opt)) d.core = std::move(*core);
      if (d.checker == Checker::Generic) explain_generic(h, level, d);
    }
  } catch (const TimeoutError&) {
    d.verdict = Verdict::Unknown;
    d.reason = "time limit reached";
    d.anomaly.reset();
    d.classes.clear();
    d.witness.reset();
  }
  if (h.has_list_reads() && !level.uses_known_orders())
    d.notes.push_back(fmt::format(
        "{} does not use the known version orders (h.vo) that list-append reads reveal; its "
        "verdict rests on the last element of each list",
        level.name));
  if (level.uses_real_time()) {
    std::size_t untimed = 0, committed = 0;
    for (TxnId t = 1; t < h.num_txns(); ++t) {
      if (h.txn(t).status == TxnStatus::Aborted) continue;
      ++committed;
      untimed += !h.txn(t).begin || !h.txn(t).commit;
    }
    if (untimed > 0)
      d.notes.push_back(fmt::format(
          "{} of {} transactions have no begin or commit timestamp: the real-time order orders "
          "them with no other transaction",
          untimed, committed));
  }
  return d;
}

bool satisfies(const History& original, const Level& level, const Witness& w, std::string* why,
               SessionMode sessions) {
  std::optional<History> split;
  if (decided_without_sessions(original, level, sessions)) split = original.each_in_own_session();
  const History& h = split ? *split : original;
  std::vector<bool> member = committed_members(h);
  for (TxnId t : w.committed_unknown)
    if (t < member.size()) member[t] = true;
  PinnedRelations pinned;
  for (const auto& r : w.relations) pinned.emplace_back(r.name, tuples_of(w, r));
  generic::Result r =
      generic::check_members(abstract_history(h, member, generic::abstract_options(level)), level,
                             pinned, w.chosen_reads);
  if (r.verdict == Verdict::Allowed) return true;
  if (why)
    *why = r.anomaly ? r.anomaly->description
                     : fmt::format("{} (with the witness fixed)", r.reason);
  return false;
}

}  // namespace iso
