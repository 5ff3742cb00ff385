// One CEGIS search: candidates, oracle, lemmas (cegis/search.hpp).
#include "cegis/search.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "cegis/deny_templates.hpp"
#include "cegis/implied_facts.hpp"
#include "cegis/key_symmetry.hpp"
#include "engine/logic/translator.hpp"
#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

namespace {

// The transaction index order as pinned relations of a framework: its
// orders on Txn fixed to T0 < T1 < ... (the order the candidate's own
// executions use, so a witness found under it generalizes best).
PinnedRelations index_order_hint(const Framework& fw, const History& h) {
  std::vector<std::vector<std::uint32_t>> pairs;
  for (TxnId a = 0; a < h.num_txns(); ++a)
    for (TxnId b = a + 1; b < h.num_txns(); ++b) pairs.push_back({a, b});
  PinnedRelations hint;
  for (const auto& w : fw.witness)
    if (w.order && w.order_sort == model::kTxn) {
      hint.emplace_back(w.name, std::move(pairs));
      break;
    }
  return hint;
}

}  // namespace

Decision decide_with_witness(const History& h, const lua::Level& level, DecideOptions opt) {
  Decision d = decide(h, level, opt);
  if (d.verdict == Verdict::Allowed && !d.witness) {
    opt.force_generic = true;
    d = decide(h, level, opt);
  }
  return d;
}

Search::Search(const Problem& p, std::optional<std::size_t> ordering, const SynthOptions& opt,
               Clock::time_point start)
    : p_(p), ordering_(ordering), opt_(opt), start_(start), space_(p.scope, p.space, circuit_),
      cnf_(circuit_, solver_) {}

void Search::assert_formula(const FormulaPtr& f, const Bindings& b) {
  auto t = Clock::now();
  Translator tr(space_.universe(), circuit_, b);
  cnf_.assert_true(tr.formula(f));
  stats_.translate_seconds += seconds_since(t);
}

// The bindings whose read-from a template uses: without repeated values the
// space's (read-from is a function of the history); with them, allow
// execution `exec`'s (asserted well formed), or the lowest-indexed writers
// when there is no allow execution.
const Bindings& Search::read_from_base(std::optional<std::size_t> exec) {
  if (!space_.duplicates()) return space_.bindings();
  if (exec && *exec < allow_execs_.size()) return allow_execs_[*exec].bindings;
  if (!lowest_read_from_) {
    lowest_read_from_ = space_.bindings();
    cnf_.assert_true(space_.pinned_read_from(circuit_, *lowest_read_from_, {}));
  }
  return *lowest_read_from_;
}

void Search::build() {
  {
    auto t = Clock::now();
    cnf_.assert_true(space_.constraints());
    stats_.translate_seconds += seconds_since(t);
  }
  // One execution per allow level; the ordering level's order is fixed.
  for (std::size_t i = 0; i < p_.allow.size(); ++i) {
    const bool fix_here = opt_.fixed_order && ordering_ == i;
    allow_execs_.push_back(make_execution(*p_.allow[i]->framework, space_, circuit_, fix_here));
    cnf_.assert_true(allow_execs_.back().wellformed);
    assert_formula(p_.allow[i]->constraint(), allow_execs_.back().bindings);
    cnf_.assert_true(!unpermitted_read(space_, *p_.allow[i], circuit_));
  }
  if (!p_.space.key_order) {
    const BLit sel = circuit_.input();
    cnf_.assert_true(circuit_.implies(sel, space_.key_order()));
    by_first_use_ = cnf_.literal(sel);
  }
  // With dirty reads, a read the level does not permit violates it too.
  const TemplateSources sources{space_, circuit_, allow_execs_, ordering_, opt_.smart_search,
                                p_.scope.txns, p_.scope.objects,
                                [this](std::optional<std::size_t> exec) -> const Bindings& {
                                  return read_from_base(exec);
                                }};
  for (std::size_t i = 0; i < p_.deny.size(); ++i) {
    const BLit unpermitted = unpermitted_read(space_, *p_.deny[i], circuit_);
    for (const Bindings& b : deny_templates(*p_.deny[i], sources, hb_transitive_)) {
      const auto t = Clock::now();
      Translator tr(space_.universe(), circuit_, b);
      cnf_.assert_true(circuit_.or_(unpermitted, !tr.formula(p_.deny[i]->constraint())));
      stats_.translate_seconds += seconds_since(t);
      if (i == 0 && !p_.space.key_order) first_templates_.push_back(b);
    }
  }
  if (!p_.excluded.empty()) excluded_.emplace(p_.excluded, space_.operations());
  phase_ = "searching";
}

bool Search::blocked_as_excluded(const History& h, const std::vector<bool>& inputs) {
  if (!excluded_ || !excluded_->contains(h)) return false;
  // Every base relation (and sort extent) the space binds, cell by cell, as
  // in this candidate: the levels see nothing else of a history.
  const auto& s = model::history_schema();
  std::vector<BLit> differs;
  auto add = [&](const BoolMatrix* m) {
    if (!m) return;
    for (const auto& [idx, lit] : m->cells) differs.push_back(circuit_.eval(lit, inputs) ? !lit : lit);
  };
  for (const auto& r : {s.reads, s.writes, s.so, s.wrx, s.iwrx, s.vo, s.rt, s.rt_cc, s.rt_bc, s.abr, s.irr, s.rtxn,
                        s.rkey, s.rval, s.po, s.rf})
    add(space_.bindings().find(*r));
  for (const logic::SortId sort : {model::kTxn, model::kRead}) add(space_.bindings().extent(sort));
  const auto t = Clock::now();
  cnf_.assert_true(circuit_.or_(differs));
  stats_.translate_seconds += seconds_since(t);
  return true;
}

std::vector<sat::Lit> Search::restrict_first_templates() {
  const auto t = Clock::now();
  std::vector<sat::Lit> selectors;
  const BLit unpermitted = unpermitted_read(space_, *p_.deny[0], circuit_);
  for (const Bindings& b : first_templates_) {
    Bindings kb = b;
    const BLit selector = circuit_.input();
    const FormulaPtr restricted = keys_canonical(p_.deny[0]->constraint(), kb, space_.universe());
    const BLit violated = !Translator(space_.universe(), circuit_, kb).formula(restricted);
    cnf_.assert_true(circuit_.implies(selector, circuit_.or_(unpermitted, violated)));
    selectors.push_back(cnf_.literal(selector));
  }
  stats_.translate_seconds += seconds_since(t);
  return selectors;
}

void Search::add_facts(bool hb, std::optional<std::size_t> exec) {
  auto t = Clock::now();
  if (hb) cnf_.assert_true(circuit_.and_(hb_transitive_));
  if (exec)
    for (const FormulaPtr& f : implied_facts(*p_.allow[*exec], p_.scope, p_.space)) {
      assert_formula(f, allow_execs_[*exec].bindings);
      ++stats_.implied_facts;
    }
  stats_.facts_seconds += seconds_since(t);
}

void Search::report_progress() {
  if (!opt_.on_progress) return;
  if (seconds_since(start_) < 1.0 || seconds_since(last_progress_) < 1.0) return;
  last_progress_ = Clock::now();
  opt_.on_progress(
      Progress{phase_, stats_.candidates, stats_.lemmas, circuit_.num_gates(), seconds_since(start_)});
}

std::optional<Witness> Search::counterexample(const History& h, const lua::Level& level, bool& timed_out,
                                              bool force_generic) {
  auto t = Clock::now();
  DecideOptions opt;
  opt.force_generic = force_generic;
  opt.explain = false;  // a violated candidate needs no explanation
  opt.hint = index_order_hint(*level.framework, h);
  Decision d = decide_with_witness(h, level, opt);
  stats_.oracle_seconds += seconds_since(t);
  if (d.verdict == Verdict::Unknown) timed_out = true;
  if (d.verdict != Verdict::Allowed) return std::nullopt;
  return std::move(d.witness);
}

// The lemma's body, (WF and N)(h, w) with w constant: the oracle's witness
// for the candidate, over any history of the space. With repeated values it
// also fixes a read-from, legal(rf0) and (WF and N)(h, w, rf0): rf0 is the
// witness's choice for the read events that had one, and the lowest-indexed
// writer for the others (for a read with one candidate, the one the oracle
// used). A history the lemma excludes is then allowed by the deny level
// under w and rf0.
BLit Search::lemma(const lua::Level& d, const Witness& w) {
  auto t = Clock::now();
  const Universe& u = space_.universe();
  Bindings b = space_.bindings();
  const BLit legal = space_.pinned_read_from(circuit_, b, w.chosen_reads);
  for (std::size_t i = 0; i < d.framework->witness.size(); ++i) {
    const auto& rel = w.relations[i];
    // A witness tuple's entries are TxnIds, KeyIds and ValueIds of a decoded
    // history, whose ids are the space's indices.
    std::vector<std::vector<Atom>> tuples;
    for (const auto& tuple : tuples_of(w, rel)) {
      std::vector<Atom> atoms(tuple.size());
      for (std::size_t col = 0; col < tuple.size(); ++col) atoms[col] = u.atom(rel.type[col], tuple[col]);
      tuples.push_back(std::move(atoms));
    }
    b.bind(d.framework->witness[i].rel,
           constant_matrix(u.size(), static_cast<std::uint32_t>(rel.type.size()), tuples));
  }
  Translator tr(u, circuit_, b);
  BLit l = tr.formula(d.constraint());
  if (legal != kTrue) l = circuit_.and_(legal, l);
  // A history with a read the level does not permit violates it whatever
  // the witness: the lemma excludes only histories without one. (The
  // candidate has none: the level allows it.)
  l = circuit_.and_(!unpermitted_read(space_, d, circuit_), l);
  stats_.translate_seconds += seconds_since(t);
  return l;
}

std::optional<Outcome> Search::run(const SearchLimits& limits, SynthResult& result) {
  while (true) {
    report_progress();
    const std::uint64_t spent = solver_.stats().conflicts;
    std::uint64_t limit = kNoLimit;
    if (limits.until != kNoLimit) limit = limits.until > spent ? limits.until - spent : 0;
    limit = std::min(limit, limits.per_call);
    solver_.set_max_conflicts(limit);
    auto t = Clock::now();
    sat::Result r = solver_.solve(limits.assumptions);
    stats_.solve_seconds += seconds_since(t);
    // Unknown at the limit: the schedule's; before it, the search was
    // interrupted by the deadline.
    if (r == sat::Result::Unknown && limit != kNoLimit && solver_.stats().conflicts - spent >= limit)
      return std::nullopt;
    if (r == sat::Result::Unknown) return Outcome::Timeout;
    if (r == sat::Result::Unsat) return Outcome::None;
    if (std::optional<Outcome> o = check_candidate(result)) return o;
  }
}

// The candidate in the solver's model, checked against every deny level: a
// lemma for each that allows it; Found when none does, Timeout when the
// oracle met the deadline, nullopt (search on) otherwise.
std::optional<Outcome> Search::check_candidate(SynthResult& result) {
  ++stats_.candidates;
  const std::vector<bool> inputs = cnf_.input_values();
  History h = space_.decode(circuit_, inputs);
  if (blocked_as_excluded(h, inputs)) return std::nullopt;
  bool refuted = false, timed_out = false;
  for (const lua::Level* d : p_.deny) {
    std::optional<Witness> w = counterexample(h, *d, timed_out);
    if (!w) continue;
    refuted = true;
    // Lemma: not (WF and N)(h, w) with w constant.
    BLit l = lemma(*d, *w);
    // With repeated values the lemma must exclude the candidate itself
    // (progress): it does when the witness names the read-from of every
    // read with several candidates. The generic oracle always does; a
    // graph checker that did not is asked again through it.
    // (Without repeated values a graph checker's witness does too; asked
    // again all the same, the loop could not progress otherwise.)
    if (!circuit_.eval(l, inputs)) {
      w = counterexample(h, *d, timed_out, true);
      if (!w && timed_out) continue;
      if (!w)
        throw std::logic_error(fmt::format("synthesis: the oracles disagree on whether {} allows a candidate",
                                           d->name));
      l = lemma(*d, *w);
      if (!circuit_.eval(l, inputs))
        throw std::logic_error(fmt::format("synthesis: the lemma for {} does not exclude the candidate it "
                                           "was made from", d->name));
    }
    const auto t_assert = Clock::now();
    cnf_.assert_true(!l);
    stats_.translate_seconds += seconds_since(t_assert);
    ++stats_.lemmas;
  }
  if (timed_out) return Outcome::Timeout;
  if (refuted) return std::nullopt;
  std::vector<Witness> ws;
  for (const auto& e : allow_execs_) {
    ws.push_back(decode_witness(e, circuit_, inputs, space_, p_.scope.txns));
    ws.back().chosen_reads = space_.chosen_reads(circuit_, inputs, e.bindings);
  }
  result.history = without_empty_transactions(h, &ws);
  result.allow_witnesses = std::move(ws);
  return Outcome::Found;
}

SynthResult Search::finish(SynthResult result) {
  stats_.gates = circuit_.num_gates();
  stats_.sat_vars = solver_.stats().vars;
  stats_.sat_clauses = solver_.stats().clauses;
  stats_.conflicts = solver_.stats().conflicts;
  stats_.total_seconds = seconds_since(start_);
  stats_.index_ordered = p_.space.index_ordered;
  result.stats = stats_;
  return result;
}

}  // namespace iso::cegis
