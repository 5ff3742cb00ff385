// Shrinking a solution (minimize: operations by oracle calls, the scope by
// searches), and the renaming that drops empty transactions from a found
// history with its witnesses (cegis/synthesizer.hpp).
#include <algorithm>

#include "cegis/synthesizer.hpp"
#include "engine/history/abstract.hpp"
#include "engine/model/schema.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/timing.hpp"

namespace iso::cegis {

namespace {

// `w` with transaction t renamed renamed[t], pairs and orders involving a
// transaction renamed UINT32_MAX (removed) dropped.
void rename_witness(Witness& w, const std::vector<TxnId>& renamed) {
  auto keep = [&](TxnId t) { return renamed[t] != UINT32_MAX; };
  // Every relation as tuples (synthesized histories are small), renamed.
  for (WitnessRelation& r : w.relations) {
    std::vector<std::vector<std::uint32_t>> tuples;
    for (auto tuple : tuples_of(w, r)) {
      bool kept = true;
      for (std::size_t c = 0; c < tuple.size(); ++c)
        if (r.type[c] == model::kTxn) {
          kept = kept && keep(tuple[c]);
          if (kept) tuple[c] = renamed[tuple[c]];
        }
      if (kept) tuples.push_back(std::move(tuple));
    }
    std::vector<TxnId> seq;
    for (TxnId t : r.sequence)
      if (keep(t)) seq.push_back(renamed[t]);
    r.sequence = std::move(seq);
    r.per_key.clear();
    r.tuples = std::move(tuples);
    r.form = WitnessRelation::Form::Tuples;
  }
  std::vector<ScheduleEvent> schedule;
  for (ScheduleEvent e : w.schedule)
    if (keep(e.txn)) schedule.push_back({renamed[e.txn], e.commit});
  w.schedule = std::move(schedule);
  std::vector<poly::ChosenRead> reads;
  for (poly::ChosenRead c : w.chosen_reads)
    if (keep(c.writer) && keep(c.reader)) reads.push_back({renamed[c.writer], renamed[c.reader], c.op, c.key});
  w.chosen_reads = std::move(reads);
  std::vector<TxnId> committed;
  for (TxnId t : w.committed_unknown)
    if (keep(t)) committed.push_back(renamed[t]);
  w.committed_unknown = std::move(committed);
}

}  // namespace

History without_empty_transactions(const History& h, std::vector<Witness>* witnesses) {
  History out;
  for (KeyId k = 0; k < h.keys().size(); ++k) out.intern_key(h.keys()[k].text, h.keys()[k].integer);
  for (ValueId v = 0; v < h.values().size(); ++v) out.intern_value(h.values()[v]);
  for (KeyId k = 0; k < h.keys().size(); ++k)
    if (h.has_explicit_init(k)) out.set_init(k, h.init_value(k));
  std::vector<TxnId> renamed(h.num_txns(), UINT32_MAX);
  renamed[kInitTxn] = kInitTxn;
  for (const auto& session : h.sessions()) {
    SessionId s = UINT32_MAX;
    for (TxnId t : session) {
      const Transaction& tx = h.txn(t);
      if (tx.ops.empty()) continue;
      if (s == UINT32_MAX) s = out.add_session();
      TxnId id = out.add_txn(s, tx.name, tx.status);
      renamed[t] = id;
      for (const Op& op : tx.ops) {
        if (op.kind == OpKind::Read && op.list == kNoList) out.add_read(id, op.key, op.value);
        if (op.kind == OpKind::Read && op.list != kNoList) out.add_list_read(id, op.key, h.lists()[op.list], op.value);
        if (op.kind == OpKind::Write) out.add_write(id, op.key, op.value);
        if (op.kind == OpKind::PredicateRead) out.add_predicate_read(id, h.predicate_reads()[op.predicate]);
      }
      out.txn(id).begin = tx.begin;
      out.txn(id).commit = tx.commit;
      out.txn(id).begin_end = tx.begin_end;
      out.txn(id).commit_start = tx.commit_start;
      out.txn(id).start_ts = tx.start_ts;
      out.txn(id).commit_ts = tx.commit_ts;
    }
  }
  if (witnesses)
    for (Witness& w : *witnesses) rename_witness(w, renamed);
  return out;
}

// Does `h` belong to the space the options describe? Dropping operations
// keeps values unique, but may leave a read of a value nobody writes any
// more (which every level rejects, so a problem with only deny levels would
// take it for a solution), or turn a read-modify-write into a blind write.
static bool in_space(const History& h, const SpaceOptions& space) {
  AbstractOptions options;  // with dirty reads, those reads are in the space
  options.set_aside_aborted_reads = options.set_aside_intermediate_reads = space.dirty_reads;
  options.predicate_reads = space.predicates;
  AbstractHistory ah = abstract_history(h, committed_members(h), options);
  if (!ah.unjustified_reads.empty() || !ah.int_violations.empty()) return false;
  if (space.blind_writes) return true;
  for (TxnId t : ah.txns) {
    if (t == kInitTxn) continue;
    for (const auto& w : ah.abs[t].writes)
      if (std::none_of(ah.abs[t].reads.begin(), ah.abs[t].reads.end(),
                       [&](const ExternalRead& r) { return r.key == w.key; }))
        return false;
  }
  return true;
}

// The history with operation `op` of transaction `t` removed.
static History drop_operation(const History& h, TxnId t, std::size_t op) {
  History out = h;
  auto& ops = out.txn(t).ops;
  ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(op));
  return out;
}

// The scope a history needs: its transactions, the keys it uses, the
// values per key (the initial one counted) and, when the problem bounds
// them, the operations per transaction. Only a starting point for the
// search below: a history is never claimed to fit a scope by it.
static Scope scope_of(const History& h, const Scope& bound) {
  Scope s;
  s.txns = static_cast<std::uint32_t>(h.num_txns() - 1);
  std::vector<bool> used(h.keys().size(), false);
  std::vector<std::vector<ValueId>> written(h.keys().size());
  std::uint32_t ops = 0;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    ops = std::max(ops, static_cast<std::uint32_t>(h.txn(t).ops.size()));
    for (const Op& op : h.txn(t).ops) {
      used[op.key] = true;
      if (op.kind == OpKind::Write && op.value != h.init_value(op.key)) written[op.key].push_back(op.value);
    }
  }
  s.objects = static_cast<std::uint32_t>(std::count(used.begin(), used.end(), true));
  s.values = 1;
  for (auto& w : written) {
    std::sort(w.begin(), w.end());
    s.values = std::max(s.values, static_cast<std::uint32_t>(std::unique(w.begin(), w.end()) - w.begin()) + 1);
  }
  s.ops = bound.ops > 0 ? ops : 0;
  s.txns = std::clamp<std::uint32_t>(s.txns, 1, bound.txns);
  s.objects = std::clamp<std::uint32_t>(s.objects, 1, bound.objects);
  s.values = std::clamp<std::uint32_t>(s.values, 1, bound.values);
  if (bound.ops > 0) s.ops = std::clamp<std::uint32_t>(s.ops, 1, bound.ops);
  return s;
}

// Drops operations of `found`'s history one at a time while it stays a
// solution: only oracle calls, no search, within `seconds` (0: no limit).
// Sets `cut` when the time limit stopped it (the history is a solution
// still, only not as small as it could be); does nothing once `cut`.
static void drop_operations(const Problem& p, const SpaceOptions& space, SynthResult& found, double seconds,
                            bool& cut) {
  if (cut) return;
  History h = *found.history;
  budget::ScopedDeadline deadline(seconds);
  try {
    bool changed = true;
    while (changed) {
      changed = false;
      for (TxnId t = 1; t < h.num_txns() && !changed; ++t)
        // !changed first: once h has lost its empty transactions, t may be past its end.
        for (std::size_t i = 0; !changed && i < h.txn(t).ops.size(); ++i) {
          History smaller = drop_operation(h, t, i);
          std::vector<Witness> ws;
          if (in_space(smaller, space) && !is_excluded(smaller, p) && is_solution(smaller, p, &ws)) {
            h = without_empty_transactions(smaller, &ws);
            found.allow_witnesses = std::move(ws);
            changed = true;
          }
        }
    }
  } catch (const TimeoutError&) {
    cut = true;  // h is a solution still, only not as small as it could be
  }
  found.history = std::move(h);
}

SynthResult minimize(const Problem& p, SynthResult found, const SynthOptions& opt) {
  if (found.outcome != Outcome::Found) return found;
  const SpaceOptions space = needed_space(p);  // as synthesize() searches it
  auto start = Clock::now();
  SynthStats total = found.stats;
  const double first_search = found.stats.total_seconds;
  auto time_left = [&] {
    return opt.timeout_seconds > 0 ? std::max(0.01, opt.timeout_seconds - seconds_since(start)) : 0.0;
  };
  bool cut = false;  // the time limit stopped a step
  // 1. The history found, shrunk operation by operation. At a large scope
  // the first history is large and this is cheap; it also bounds the scope
  // that step 2 searches below.
  drop_operations(p, space, found, time_left(), cut);
  // 2. Shrink each scope dimension while a solution exists, from the scope
  // the shrunk history needs.
  // The search at that scope itself comes first: its answer is numbered as
  // the space numbers histories (keys x, y, ... by first use, values by
  // writer), which the shrunk history, a part of a larger one, need not be.
  Problem q = p;
  q.scope = scope_of(*found.history, p.scope);
  bool searched = false;  // `found` now comes from a search at the reduced scope
  auto search = [&]() {
    SynthOptions o = opt;
    o.timeout_seconds = time_left();
    SynthResult r = synthesize(q, o);
    total.candidates += r.stats.candidates;
    total.lemmas += r.stats.lemmas;
    total.solve_seconds += r.stats.solve_seconds;
    total.oracle_seconds += r.stats.oracle_seconds;
    total.translate_seconds += r.stats.translate_seconds;
    cut = cut || r.outcome == Outcome::Timeout;
    if (r.outcome != Outcome::Found) return false;
    found = std::move(r);
    searched = true;
    return true;
  };
  if (!cut) search();
  for (int dim = 0; dim < 4 && !cut; ++dim) {
    while (true) {
      std::uint32_t& d = dim == 0 ? q.scope.txns : dim == 1 ? q.scope.objects : dim == 2 ? q.scope.values : q.scope.ops;
      if (d <= 1) break;  // ops = 0 (no bound) stays
      --d;
      if (!search()) {
        ++d;
        break;
      }
    }
  }
  // 3. The history of the smallest scope, shrunk again.
  if (searched) drop_operations(p, space, found, time_left(), cut);
  if (cut) found.notes.push_back("minimization stopped at the time limit: the history may not be minimal");
  total.total_seconds = seconds_since(start) + first_search;
  found.stats = total;
  return found;
}

}  // namespace iso::cegis
