// Synthesis's entry points (cegis/synthesizer.hpp): the space a problem
// searches and how it is numbered, decided once (needed_space, the
// ordering level, cegis/space_order.hpp), then the schedule of one CEGIS
// search over it (cegis/schedule.hpp); and whether a history is a solution.
// Shrinking a solution is cegis/minimize.cpp.
#include "cegis/synthesizer.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "cegis/canonical.hpp"
#include "cegis/key_symmetry.hpp"
#include "cegis/schedule.hpp"
#include "cegis/search.hpp"
#include "cegis/space_order.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/timing.hpp"

namespace iso::cegis {

// The space a problem searches, as its levels need it: the operation form
// for a level over read events, aborted and intermediate reads for a level
// that mentions them, predicate reads for one that tells them from item
// reads.
SpaceOptions needed_space(const Problem& p) {
  SpaceOptions space = p.space;
  for (const auto* levels : {&p.allow, &p.deny})
    for (const lua::Level* l : *levels) {
      space.operations = space.operations || l->uses_read_events();
      space.dirty_reads = space.dirty_reads || l->uses_dirty_reads();
      space.lists = space.lists || l->list_reads;
      space.real_time = space.real_time || l->uses_real_time();
      space.predicates = space.predicates || l->uses_item_reads();
    }
  // Predicate reads are in the transaction form with unique values only
  // (history_space.hpp); elsewhere the space has none, and says so.
  if (space.operations || p.scope.ops > 0 || space.duplicates || space.dirty_reads || space.lists)
    space.predicates = false;
  return space;
}

namespace {

// Every level's witness is over Txn, Obj and Val, and none reads the
// database's own timestamps (which synthesized histories have none of).
void check_synthesizable(const Problem& q) {
  for (const auto* levels : {&q.allow, &q.deny})
    for (const lua::Level* l : *levels) {
      check_witness_sorts(*l->framework);
      if (l->uses_db_timestamps())
        throw std::invalid_argument(fmt::format(
            "{} reads the database's own timestamps (h.ts_vis, h.ts_ar), and synthesized histories "
            "have none: it can be checked (isosynth check) but not synthesized",
            l->name));
    }
}

// How the space is numbered (q.space.index_ordered, q.space.key_order), and
// the allow level whose order is fixed to the index order, if any: proved
// for the problem's levels, with a heartbeat reporting progress meanwhile.
std::optional<std::size_t> choose_numbering(Problem& q, const SynthOptions& opt, Clock::time_point start) {
  auto last = Clock::now();
  budget::ScopedHeartbeat heartbeat([&] {
    if (!opt.on_progress || seconds_since(start) < 1.0 || seconds_since(last) < 1.0) return;
    last = Clock::now();
    opt.on_progress(Progress{"translating", 0, 0, 0, seconds_since(start)});
  });
  std::optional<std::size_t> ordering;
  for (std::size_t i = 0; i < q.allow.size() && !ordering; ++i)
    if (order_contains_so_wr(*q.allow[i]->framework, q.scope, q.space)) ordering = i;
  q.space.index_ordered = ordering.has_value();
  for (std::size_t i = 0; i < q.allow.size() && !q.space.index_ordered; ++i)
    q.space.index_ordered = so_wr_acyclic(*q.allow[i], q.scope, q.space);
  q.space.key_order = !(opt.deny_key_symmetry && !q.deny.empty() && quantifies_keys(q.deny[0]->constraint()));
  return ordering;
}

// The search over the problem's space under its schedule. Building the
// space may throw TimeoutError; the search's own timeouts are its outcome.
SynthResult run_search(const Problem& q, std::optional<std::size_t> ordering, const SynthOptions& opt,
                       Clock::time_point start) {
  Search search(q, ordering, opt, start);
  SynthResult result;
  try {
    search.build();
    run_schedule(search, q, ordering, opt, result);
  } catch (const TimeoutError&) {
    result = SynthResult{};
    result.outcome = Outcome::Timeout;
  }
  return search.finish(std::move(result));
}

}  // namespace

SynthResult synthesize(const Problem& p, const SynthOptions& opt) {
  const auto start = Clock::now();
  // The deadline covers building the history space too.
  budget::ScopedDeadline deadline(opt.timeout_seconds);
  Problem q = p;
  q.space = needed_space(p);
  try {
    check_synthesizable(q);
    const std::optional<std::size_t> ordering = choose_numbering(q, opt, start);
    SynthResult r = run_search(q, ordering, opt, start);
    for (const auto* levels : {&q.allow, &q.deny})
      for (const lua::Level* l : *levels)
        if (l->uses_item_reads() && !q.space.predicates) {
          r.notes.push_back(fmt::format(
              "{} tells item from predicate reads, and this space has no predicate reads (they are "
              "searched in the transaction form with unique values, without lists and aborted "
              "transactions): on these histories it cannot tell a phantom",
              l->name));
          return r;
        }
    return r;
  } catch (const TimeoutError&) {
    SynthResult r;
    r.outcome = Outcome::Timeout;
    r.stats.total_seconds = seconds_since(start);
    return r;
  }
}

bool is_excluded(const History& h, const Problem& p) {
  if (p.excluded.empty()) return false;
  const SpaceOptions space = needed_space(p);
  const bool ordered_reads = space.operations || p.scope.ops > 0;
  return ExcludedHistories(p.excluded, ordered_reads).contains(h);
}

bool is_solution(const History& h, const Problem& p, std::vector<Witness>* allow_witnesses) {
  std::vector<Witness> ws;
  DecideOptions opt;
  opt.explain = false;
  // decide() turns the deadline into an unknown verdict; here it ends the
  // question, which has no answer.
  auto verdict_of = [](const Decision& d) {
    if (d.verdict == Verdict::Unknown) throw TimeoutError();
    return d.verdict;
  };
  for (const lua::Level* a : p.allow) {
    Decision d = decide_with_witness(h, *a, opt);
    if (verdict_of(d) != Verdict::Allowed || !d.witness) return false;
    ws.push_back(std::move(*d.witness));
  }
  for (const lua::Level* d : p.deny)
    if (verdict_of(decide(h, *d, opt)) != Verdict::Violated) return false;
  if (allow_witnesses) *allow_witnesses = std::move(ws);
  return true;
}

}  // namespace iso::cegis
