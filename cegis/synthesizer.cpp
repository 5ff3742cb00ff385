#include "cegis/synthesizer.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/timing.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/history/abstract.hpp"
#include "engine/logic/cnf.hpp"
#include "engine/logic/translator.hpp"
#include "engine/model/concrete.hpp"
#include "engine/model/schema.hpp"
#include "engine/sat/solver.hpp"

namespace iso::cegis {

using namespace logic;

namespace {

// One execution in the candidate formula: a framework's witness relations
// bound to matrices over the space's universe.
struct Execution {
  const lua::Framework* framework;
  std::vector<BoolMatrix> witness;  // in framework->witness order
  Bindings bindings;
  // With repeated values, the execution's own read-from (in `bindings`) is
  // well formed: exactly one writer per read event.
  BLit wellformed = kTrue;
};

// Witnesses are exchanged with the oracle as tuples of transactions, keys
// and values (a commit order co, visibility, a version order ww per key);
// a column over read events has no counterpart in the oracle's witnesses,
// whose read events are another history's.
void check_witness_sorts(const lua::Framework& fw) {
  for (const auto& w : fw.witness)
    for (SortId col : w.rel->type)
      if (col != model::kTxn && col != model::kObj && col != model::kVal)
        throw lua::SpecError(fmt::format(
            "{}: framework '{}': synthesis supports witness relations over Txn, Obj and Val "
            "('{}' is {})",
            fw.location, fw.name, w.name, type_name(w.rel->type)));
}

bool is_txn_order(const WitnessDecl& w) {
  return w.order && w.rel->type == Type{model::kTxn, model::kTxn};
}

// The atom of a witness tuple's entry in column `sort`: a TxnId, KeyId or
// ValueId of a decoded history, whose ids are the space's indices.
Atom atom_of(const Universe& u, SortId sort, std::uint32_t id) { return u.atom(sort, id); }

Execution make_execution(const lua::Framework& fw, const HistorySpace& space, Circuit& c,
                         bool fix_order) {
  check_witness_sorts(fw);
  Execution e{&fw, {}, space.bindings(), kTrue};
  const Universe& u = space.universe();
  bool fixed_one = false;
  for (const auto& w : fw.witness) {
    BoolMatrix m;
    if (fix_order && is_txn_order(w) && !fixed_one) {
      m = space.index_order();
      fixed_one = true;
    } else {
      m = variable_matrix(c, u.size(), static_cast<std::uint32_t>(w.rel->type.size()), {},
                          model::all_tuples(u, w.rel->type));
    }
    e.bindings.bind(w.rel, m);
    e.witness.push_back(std::move(m));
  }
  // With repeated values, the execution chooses its read-from. When its
  // order is the index order, its wf (proved to put so ∪ wr inside that
  // order, order_contains_so_wr) makes that choice go up the index: saying
  // so only spares the solver the proof.
  e.wellformed = space.fresh_read_from(c, e.bindings, fixed_one);
  return e;
}

// The witness of an execution in the current model.
Witness decode_witness(const Execution& e, const Circuit& c, const std::vector<bool>& inputs,
                       const HistorySpace& space, std::uint32_t n_txns) {
  const Universe& u = space.universe();
  Witness w;
  for (std::size_t i = 0; i < e.framework->witness.size(); ++i) {
    const auto& decl = e.framework->witness[i];
    WitnessRelation rel{decl.name, decl.rel->type, decl.order, WitnessRelation::Form::Tuples, {}, {}, {}};
    for (const auto& [idx, lit] : e.witness[i].cells) {
      if (!c.eval(lit, inputs)) continue;
      std::vector<std::uint32_t> tuple(decl.rel->type.size());
      Index rest = idx;
      bool committed = true;  // aborted transactions are outside the sort Txn
      for (std::size_t col = tuple.size(); col-- > 0;) {
        const Atom a = static_cast<Atom>(rest % u.size());
        rest /= u.size();
        tuple[col] = a - u.first(decl.rel->type[col]);
        if (decl.rel->type[col] == model::kTxn && c.eval(space.aborted_var(tuple[col]), inputs)) committed = false;
      }
      if (committed) rel.tuples.push_back(std::move(tuple));
    }
    if (is_txn_order(decl)) {
      std::vector<TxnId> all;  // the committed transactions (aborted ones are not ordered)
      for (TxnId t = 0; t <= n_txns; ++t)
        if (!c.eval(space.aborted_var(t), inputs)) all.push_back(t);
      rel.sequence = order_sequence(rel.tuples, all);
    }
    w.relations.push_back(std::move(rel));
  }
  return w;
}

// Does `f` have a conjunct that says so ∪ wr ⊆ order in so many words, as
// Biswas–Enea's and Cerone's wf do? (Then no proof is needed.)
bool states_so_wr_within(const FormulaPtr& f, const RelationPtr& order) {
  if (f->op == Formula::Op::And)
    return std::any_of(f->kids.begin(), f->kids.end(), [&](const FormulaPtr& k) { return states_so_wr_within(k, order); });
  if (f->op != Formula::Op::Subset) return false;
  const Expr& l = *f->exprs[0];
  const Expr& r = *f->exprs[1];
  if (r.op != Expr::Op::Relation || r.rel != order || l.op != Expr::Op::Union) return false;
  const model::HistorySchema& s = model::history_schema();
  auto is_so = [&](const ExprPtr& e) { return e->op == Expr::Op::Relation && e->rel == s.so; };
  auto is_wr = [&](const ExprPtr& e) { return e == s.wr; };
  return (is_so(l.kids[0]) && is_wr(l.kids[1])) || (is_wr(l.kids[0]) && is_so(l.kids[1]));
}

// Is f ∧ goal unsatisfiable over the space read in any order, with the
// framework's witness free? At most a few thousand conflicts: past them, no
// (the caller then takes the sound, slower road). Cached per question and
// space. Precondition: a budget::ScopedHeartbeat reports progress meanwhile.
bool refuted(const std::string& question, const lua::Framework& fw, const FormulaPtr& f,
             const std::function<FormulaPtr(const Execution&)>& goal, const Scope& scope, SpaceOptions space) {
  space.index_ordered = false;
  const std::string key = fmt::format("{}|{}|{}|{}|{}", question, fw.location, fw.name, scope.text(), space.text());
  static std::map<std::string, bool> cache;
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  Circuit c;
  sat::Solver solver;
  CnfEncoder cnf(c, solver);
  HistorySpace sp(scope, space, c);
  cnf.assert_true(sp.constraints());
  Execution e = make_execution(fw, sp, c, false);
  cnf.assert_true(e.wellformed);
  Translator tr(sp.universe(), c, e.bindings);
  cnf.assert_true(tr.formula(f));
  cnf.assert_true(tr.formula(goal(e)));
  solver.set_max_conflicts(5000);
  return cache[key] = (solver.solve() == sat::Result::Unsat);
}

// Does the framework's well-formedness make its first order on Txn contain
// so ∪ wr in every history of the space? Then every solution has so ∪ wr
// acyclic, and the space may be numbered along that order, fixed to the
// index order. Decided, not assumed: stated in so many words, or
// wf ∧ ¬(so ∪ wr ⊆ order) refuted. Biswas–Enea's co contains so ∪ wr by
// definition, Cerone's ar through SESSION and EXT (its wf states the
// consequence); Adya's framework has no such order.
bool order_contains_so_wr(const lua::Framework& fw, const Scope& scope, const SpaceOptions& space) {
  auto order = std::find_if(fw.witness.begin(), fw.witness.end(), [](const auto& w) { return is_txn_order(w); });
  if (order == fw.witness.end() || !fw.wf) return false;
  if (states_so_wr_within(fw.wf, order->rel)) return true;
  const model::HistorySchema& s = model::history_schema();
  return refuted("order", fw, fw.wf, [&](const Execution&) {
    return not_(subset(union_(rel(s.so), s.wr), rel(order->rel)));
  }, scope, space);
}

// Does every history `level` allows have so ∪ wr acyclic? (Then numbering
// transactions along it is sound, even when no order of the level's
// contains it: Adya's PL-2 and stronger without sessions.)
bool so_wr_acyclic(const lua::Level& level, const Scope& scope, const SpaceOptions& space) {
  const model::HistorySchema& s = model::history_schema();
  return refuted("acyclic:" + level.name, *level.framework, level.constraint(), [&](const Execution&) {
    return not_(acyclic(union_(rel(s.so), s.wr)));
  }, scope, space);
}

// Implied facts. An allow execution whose order is fixed to the index
// order may have one more witness relation on Txn (Cerone et al.'s
// visibility), free cell by cell. Proofs that every history the level
// allows has some property then go through many small steps per instance
// (a read's writer is visible, because the latest visible writer writes
// what the read returns, values are unique, ...), which the solver
// rediscovers instance by instance. Some facts that tie the free relation
// V to the history in one step are consequences of many levels' formulas;
// each is added to the search only once proved for the level at hand, by a
// SAT refutation of "the level holds and the fact does not" over the same
// space with the order fixed (cached per level, scope and space). A proved
// fact holds in every execution the level allows, so adding it excludes no
// solution. The candidates, with R the fixed order:
std::vector<FormulaPtr> fact_candidates(const RelationPtr& order, const RelationPtr& free) {
  const model::HistorySchema& s = model::history_schema();
  const ExprPtr R = rel(order), V = rel(free);
  // so ∪ wr ⊆ V: what a transaction read from, and its session, is visible.
  FormulaPtr so_wr = subset(union_(rel(s.so), s.wr), V);
  // The writers of a key, in R's order, see each other.
  FormulaPtr ww = subset(inter(join(s.writer, transpose(s.writer)), R), V);
  // A read's writer is the latest visible one: no later writer of the key
  // is visible to the reader.
  auto t1 = make_variable("t1", model::kTxn), t2 = make_variable("t2", model::kTxn);
  auto t3 = make_variable("t3", model::kTxn);
  auto x = make_variable("x", model::kObj);
  FormulaPtr latest = forall(
      {{t1, sort(model::kTxn)}, {t2, sort(model::kTxn)}, {t3, sort(model::kTxn)}, {x, sort(model::kObj)}},
      implies(and_({member({var(t1), var(x), var(t3)}, rel(s.wrx)), member({var(t2), var(x)}, s.writer),
                    member({var(t1), var(t2)}, R)}),
              not_(member({var(t2), var(t3)}, V))));
  // What happens before a transaction is visible to it (transitive
  // visibility: Cerone et al.'s TRANSVIS, or PREFIX with V ⊆ R).
  FormulaPtr hb = subset(s.hb, V);
  return {so_wr, latest, ww, hb};
}

// The index of the witness relation the facts are about: the framework has
// exactly two witness relations, an order on Txn and a relation on Txn.
std::optional<std::size_t> free_slot(const lua::Framework& fw) {
  if (fw.witness.size() != 2) return std::nullopt;
  const Type txn2{model::kTxn, model::kTxn};
  for (std::size_t i = 0; i < 2; ++i)
    if (is_txn_order(fw.witness[1 - i]) && !fw.witness[i].order && fw.witness[i].rel->type == txn2) return i;
  return std::nullopt;
}

// A fact's instances, whose conjunction is the fact: one per cell of a
// subset's left side (that cell implies the right side's), or one per
// tuple of atoms of a universal's outer variables, as many of them as keep
// the instances at most a couple of hundred (the body with those variables
// bound, guarded by the atoms' membership in their domains; outer variables
// over sorts only). A formula of another form is its own one instance.
std::vector<BLit> fact_instances(Translator& tr, Circuit& c, const FormulaPtr& f) {
  using Op = Formula::Op;
  if (f->op == Op::Subset) {
    const BoolMatrix l = tr.expr(f->exprs[0]), r = tr.expr(f->exprs[1]);
    std::vector<BLit> out;
    for (const auto& [idx, lit] : l.cells) out.push_back(c.implies(lit, r.at(idx)));
    return out;
  }
  if (f->op != Op::Forall || f->decls.front().domain->op != Expr::Op::Sort) return {tr.formula(f)};
  std::vector<BoolMatrix> domains;
  std::size_t count = 1, unrolled = 0;
  for (const Decl& d : f->decls) {
    // Only domains that are sorts: a later domain may name an earlier
    // variable, and is left to the translation of the rest.
    if (d.domain->op != Expr::Op::Sort) break;
    BoolMatrix m = tr.expr(d.domain);
    if (unrolled > 0 && count * m.cells.size() > 200) break;
    count *= m.cells.size();
    domains.push_back(std::move(m));
    ++unrolled;
  }
  const FormulaPtr rest = unrolled == f->decls.size()
                              ? f->kids[0]
                              : forall(std::vector<Decl>(f->decls.begin() + static_cast<std::ptrdiff_t>(unrolled),
                                                         f->decls.end()),
                                       f->kids[0]);
  std::vector<BLit> out;
  std::vector<BLit> guard;
  std::function<void(std::size_t)> unroll = [&](std::size_t i) {
    if (i == unrolled) {
      out.push_back(c.implies(c.and_(guard), tr.formula(rest)));
      return;
    }
    for (const auto& [idx, lit] : domains[i].cells) {
      tr.bind_variable(*f->decls[i].var, static_cast<Atom>(idx));
      guard.push_back(lit);
      unroll(i + 1);
      guard.pop_back();
      tr.unbind_variable(*f->decls[i].var);
    }
  };
  unroll(0);
  return out;
}

// The facts proved for `level` in the space (its order fixed to the index
// order), each refuted within a bound of conflicts on one incremental
// solver: a fact proved is asserted there before the next is asked. A fact
// is refuted instance by instance (fact_instances), each instance proved
// asserted before the next is asked: the solver then works on one cell at
// a time, and the instances together are the fact. Instances proved stay
// asserted when a later one fails: each is a consequence of the level.
//
// The proof may take keys numbered by first use even when the search does
// not: the level and the facts see keys only through the history's
// relations, so a history and execution that the level allows and that
// break a fact can have their keys renamed by first use, into one that
// still does.
const std::vector<FormulaPtr>& implied_facts(const lua::Level& level, const Scope& scope, const SpaceOptions& space) {
  static std::map<std::string, std::vector<FormulaPtr>> cache;
  static const std::vector<FormulaPtr> none;
  const lua::Framework& fw = *level.framework;
  const std::optional<std::size_t> slot = free_slot(fw);
  if (!slot) return none;
  const std::string key =
      fmt::format("{}|{}|{}|{}|{}", level.name, level.location, fw.location, scope.text(), space.text());
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  std::vector<FormulaPtr> proved;
  Circuit c;
  sat::Solver solver;
  CnfEncoder cnf(c, solver);
  SpaceOptions by_first_use = space;
  by_first_use.key_order = true;
  HistorySpace sp(scope, by_first_use, c);
  cnf.assert_true(sp.constraints());
  Execution e = make_execution(fw, sp, c, true);
  cnf.assert_true(e.wellformed);
  Translator tr(sp.universe(), c, e.bindings);
  cnf.assert_true(tr.formula(level.constraint()));
  constexpr std::uint64_t kBudget = 50000;  // conflicts per fact
  for (const FormulaPtr& f : fact_candidates(fw.witness[1 - *slot].rel, fw.witness[*slot].rel)) {
    const std::uint64_t start = solver.stats().conflicts;
    bool holds = true;
    for (const BLit l : fact_instances(tr, c, f)) {
      if (l == kTrue) continue;
      const std::uint64_t spent = solver.stats().conflicts - start;
      if (l == kFalse || spent >= kBudget) {
        holds = false;
        break;
      }
      const sat::Lit instance = cnf.literal(l);
      solver.set_max_conflicts(kBudget - spent);
      const std::initializer_list<sat::Lit> assume{~instance};
      if (solver.solve(std::span<const sat::Lit>(assume.begin(), assume.size())) != sat::Result::Unsat) {
        holds = false;
        break;
      }
      solver.add_clause({instance});
    }
    if (holds) proved.push_back(f);
  }
  return cache[key] = std::move(proved);
}

// Key symmetry, broken by a violation. Every level sees keys only through
// the history's relations (the logic has no constant of sort Obj), so
// renaming the keys of a history renames its executions and changes no
// verdict: that is what numbering keys by first use relies on. A solution
// violates the first deny level N under the witness W of each of its
// templates; take one: read through conjunctions, negations and
// quantifiers (below), some part of N fails for some atoms of its
// quantified variables, the key variables among them x0, x1, ... taking
// keys k0, k1, .... Renaming the keys in order of first appearance in
// k0, k1, ... gives a solution (W is
// built from so, wr, writers and allow witnesses on Txn, all renamed along)
// whose violation has xi among the keys 0..i. So that template's negation
// may range xi over those keys only, in place of numbering keys by first
// use (the two together could lose a solution), for one template at a
// time (Loop::run_loop). A negation that would otherwise be refuted once
// per tuple of keys is refuted once.
//
// keys_canonical: the constraint with those key variables restricted, the
// i-th over keys 0..i.
//
// Read as the violation of `f` (`violated`), the chain goes through
// conjunctions (one of them fails: each conjunct has its own chain), ∀ (its
// key variables are the violation's), and negations; read as what holds in
// the violation, through ∃ and conjunctions (all hold: one chain goes on
// through them in turn). `keys(i)`: the domain of the i-th key variable.
FormulaPtr keys_canonical(const FormulaPtr& f, bool violated, std::size_t& next,
                          const std::function<ExprPtr(std::size_t)>& keys) {
  using Op = Formula::Op;
  if (f->op == Op::And) {
    std::vector<FormulaPtr> kids;
    for (const auto& k : f->kids) {
      const std::size_t before = next;
      kids.push_back(keys_canonical(k, violated, next, keys));
      if (violated) next = before;
    }
    return and_(std::move(kids));
  }
  if (f->op == Op::Not) return not_(keys_canonical(f->kids[0], !violated, next, keys));
  if (f->op != (violated ? Op::Forall : Op::Exists)) return f;
  std::vector<Decl> decls = f->decls;
  for (Decl& d : decls)
    if (d.domain->op == Expr::Op::Sort && d.domain->sort == model::kObj) d.domain = keys(next++);
  FormulaPtr body = keys_canonical(f->kids[0], violated, next, keys);
  return violated ? forall(std::move(decls), body) : exists(std::move(decls), body);
}

bool quantifies_keys(const FormulaPtr& f) {
  std::size_t n = 0, restricted = 0;
  keys_canonical(f, true, n, [&](std::size_t) {
    ++restricted;
    return sort(model::kObj);
  });
  return restricted > 0;
}

// The constraint with its violation's key variables restricted, the i-th to
// the keys 0..i, with the bindings of those sets of keys added to `b`.
FormulaPtr keys_canonical(const FormulaPtr& f, Bindings& b, const Universe& u) {
  std::size_t n = 0;
  return keys_canonical(f, true, n, [&](std::size_t i) {
    RelationPtr r = make_relation(fmt::format("first{}keys", i + 1), Type{model::kObj});
    std::vector<std::vector<Atom>> tuples;
    for (std::uint32_t k = 0; k <= i && k < u.count(model::kObj); ++k) tuples.push_back({u.atom(model::kObj, k)});
    b.bind(r, constant_matrix(u.size(), 1, tuples));
    return rel(r);
  });
}

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

// decide(), with a witness when allowed: a graph checker's commit order does
// not always give the framework's witness, and then the generic oracle
// finds one.
Decision decide_with_witness(const History& h, const lua::Level& level, DecideOptions opt) {
  Decision d = decide(h, level, opt);
  if (d.verdict == Verdict::Allowed && !d.witness) {
    opt.force_generic = true;
    d = decide(h, level, opt);
  }
  return d;
}

// With dirty reads: the history has a read that `level` does not permit
// (an aborted read, an intermediate read), which violates it before its
// formula is evaluated, as decide() has it (engine/level/level.hpp,
// Level::permits). kFalse for a level that permits both, or without them.
BLit unpermitted_read(const HistorySpace& space, const lua::Level& level, Circuit& c) {
  BLit out = kFalse;
  if (!level.permits.aborted_reads) out = c.or_(out, space.some_aborted_read());
  if (!level.permits.intermediate_reads) out = c.or_(out, space.some_intermediate_read());
  return out;
}

class Loop {
 public:
  // `ordering`: the allow level whose order is fixed to the index order
  // (the space is index ordered), if any.
  Loop(const Problem& p, std::optional<std::size_t> ordering, const SynthOptions& opt,
       Clock::time_point start)
      : p_(p), ordering_(ordering), opt_(opt), start_(start), space_(p.scope, p.space, circuit_),
        cnf_(circuit_, solver_) {}

  SynthResult run();

 private:
  void run_loop(SynthResult& result);
  void assert_formula(const FormulaPtr& f, const Bindings& b, bool negate);
  std::optional<Witness> counterexample(const History& h, const lua::Level& level,
                                        bool& timed_out, bool force_generic = false);
  BLit lemma(const lua::Level& deny, const Witness& w);
  const Bindings& read_from_base(std::optional<std::size_t> exec);
  void report_progress();
  std::vector<Bindings> deny_templates(const lua::Level& deny);

  // In this order: the heartbeat reports from the circuit and the stats
  // while the history space is being built.
  const Problem& p_;
  std::optional<std::size_t> ordering_;
  const SynthOptions& opt_;
  Clock::time_point start_;
  Clock::time_point last_progress_ = Clock::now();
  const char* phase_ = "translating";
  SynthStats stats_;
  Circuit circuit_;
  sat::Solver solver_;
  // Translating a large scope makes millions of gates between two
  // candidates: the budget's polls report progress meanwhile.
  budget::ScopedHeartbeat heartbeat_{[this] { report_progress(); }};
  HistorySpace space_;
  CnfEncoder cnf_;
  std::vector<Execution> allow_execs_;
  // With repeated values and no allow execution: a read-from for the deny
  // templates (the lowest-indexed writer of every read).
  std::optional<Bindings> lowest_read_from_;
  // The transitivity of the templates' happens-before, cell by cell: valid
  // (true under every assignment of the inputs), asserted once the search
  // has taken `implied_facts_after` conflicts.
  std::vector<BLit> hb_transitive_;
};

void Loop::assert_formula(const FormulaPtr& f, const Bindings& b, bool negate) {
  auto t = Clock::now();
  Translator tr(space_.universe(), circuit_, b);
  BLit l = tr.formula(f);
  cnf_.assert_true(negate ? !l : l);
  stats_.translate_seconds += seconds_since(t);
}

// The bindings whose read-from a template uses: without repeated values the
// space's (read-from is a function of the history); with them, allow
// execution `exec`'s (asserted well formed), or the lowest-indexed writers
// when there is no allow execution.
const Bindings& Loop::read_from_base(std::optional<std::size_t> exec) {
  if (!space_.duplicates()) return space_.bindings();
  if (exec && *exec < allow_execs_.size()) return allow_execs_[*exec].bindings;
  if (!lowest_read_from_) {
    lowest_read_from_ = space_.bindings();
    cnf_.assert_true(space_.pinned_read_from(circuit_, *lowest_read_from_, {}));
  }
  return *lowest_read_from_;
}

std::vector<Bindings> Loop::deny_templates(const lua::Level& deny) {
  const lua::Framework& fw = *deny.framework;
  check_witness_sorts(fw);
  std::vector<Bindings> out;
  if (opt_.smart_search)
    for (const Execution& e : allow_execs_)
      if (e.framework == &fw) out.push_back(e.bindings);
  // Orders: the index order and every order on Txn of an allow execution,
  // each with the read-from it goes with (with repeated values, the
  // execution's own; the index order's is the execution that fixed it, or
  // the first). Any legal read-from is sound here: the deny level is
  // violated under every one.
  const std::uint32_t n = space_.universe().size();
  std::vector<BoolMatrix> orders{space_.index_order()};
  std::vector<const Bindings*> bases{&read_from_base(ordering_ ? ordering_ : std::optional<std::size_t>{0})};
  if (opt_.smart_search)
    for (std::size_t x = 0; x < allow_execs_.size(); ++x) {
      const Execution& e = allow_execs_[x];
      for (std::size_t i = 0; i < e.framework->witness.size(); ++i)
        if (is_txn_order(e.framework->witness[i]) &&
            std::none_of(orders.begin(), orders.end(),
                         [&](const BoolMatrix& m) { return m.cells == e.witness[i].cells; })) {
          orders.push_back(e.witness[i]);
          bases.push_back(&read_from_base(x));
        }
    }
  const model::HistorySchema& s = model::history_schema();
  Translator tr(space_.universe(), circuit_, space_.bindings());
  // A framework whose witness is not made of orders and relations on Txn
  // (Adya's version order per key): each order restricted to each key's
  // writers, for the relations typed Obj->Txn->Txn, and no other template.
  const bool on_txns = std::all_of(fw.witness.begin(), fw.witness.end(), [](const auto& w) {
    return w.rel->type == Type{model::kTxn, model::kTxn};
  });
  if (!on_txns) {
    const bool per_key = std::all_of(fw.witness.begin(), fw.witness.end(), [](const auto& w) {
      return w.rel->type == Type{model::kObj, model::kTxn, model::kTxn};
    });
    if (!per_key) return out;
    BoolMatrix writer = tr.expr(s.writer);  // Txn->Obj
    for (std::size_t o = 0; o < orders.size(); ++o) {
      const BoolMatrix& order = orders[o];
      std::vector<std::pair<Index, BLit>> cells;
      for (const auto& [idx, lit] : order.cells) {
        const Atom a = static_cast<Atom>(idx / n), b = static_cast<Atom>(idx % n);
        for (std::uint32_t x = 0; x < p_.scope.objects; ++x) {
          const Atom X = space_.universe().atom(model::kObj, x);
          BLit both = circuit_.and_(writer.at(Index{a} * n + X), writer.at(Index{b} * n + X));
          cells.emplace_back((Index{X} * n + a) * n + b, circuit_.and_(lit, both));
        }
      }
      BoolMatrix m = make_matrix(circuit_, 3, std::move(cells));
      Bindings b = *bases[o];
      for (const auto& w : fw.witness) b.bind(w.rel, m);
      out.push_back(std::move(b));
    }
    return out;
  }
  const bool has_rel = std::any_of(fw.witness.begin(), fw.witness.end(), [](const auto& w) { return !w.order; });
  // so ∪ wr and happens-before of each read-from (one without duplicates).
  std::vector<BoolMatrix> so_wrs, hbs;
  for (std::size_t o = 0; o < bases.size(); ++o) {
    if (o > 0 && bases[o] == bases[o - 1]) {
      so_wrs.push_back(so_wrs.back());
      hbs.push_back(hbs.back());
      continue;
    }
    Translator tb(space_.universe(), circuit_, *bases[o]);
    so_wrs.push_back(tb.expr(union_(rel(s.so), s.wr)));
    hbs.push_back(tb.expr(s.hb));
    // Happens-before is transitive whatever the history: asserting it
    // removes no assignment of the inputs, and spares the solver unfolding
    // the closure's circuit whenever a template needs it (asserted once the
    // search has taken a few thousand conflicts, hb_transitive_).
    const BoolMatrix& hb = hbs.back();
    for (const auto& [ab, x] : hb.cells)
      for (const auto& [bc, y] : hb.cells) {
        if (ab % n != bc / n) continue;
        const BLit z = hb.at(Index{ab / n} * n + bc % n);
        if (z != kTrue) hb_transitive_.push_back(circuit_.implies(circuit_.and_(x, y), z));
      }
  }
  BoolMatrix iden_txn;
  for (std::uint32_t t = 0; t <= p_.scope.txns; ++t) iden_txn.cells.emplace_back(Index{t} * n + t, kTrue);
  iden_txn.arity = 2;
  for (std::size_t o = 0; o < orders.size(); ++o) {
    const BoolMatrix& order = orders[o];
    const BoolMatrix& so_wr = so_wrs[o];
    const BoolMatrix& hb = hbs[o];
    // Relations (visibility) to try with this order: all of it, its prefix
    // closure of so ∪ wr, happens-before, and so ∪ wr itself.
    std::vector<BoolMatrix> rels{order};
    if (has_rel && opt_.smart_search) {
      rels.push_back(m_join(circuit_, n, m_union(circuit_, order, iden_txn), so_wr));
      rels.push_back(hb);
      rels.push_back(so_wr);
    }
    for (const BoolMatrix& r : rels) {
      Bindings b = *bases[o];
      for (const auto& w : fw.witness) b.bind(w.rel, w.order ? order : r);
      out.push_back(std::move(b));
    }
  }
  return out;
}

void Loop::report_progress() {
  if (!opt_.on_progress) return;
  if (seconds_since(start_) < 1.0 || seconds_since(last_progress_) < 1.0) return;
  last_progress_ = Clock::now();
  opt_.on_progress(
      Progress{phase_, stats_.candidates, stats_.lemmas, circuit_.num_gates(), seconds_since(start_)});
}

std::optional<Witness> Loop::counterexample(const History& h, const lua::Level& level,
                                            bool& timed_out, bool force_generic) {
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
BLit Loop::lemma(const lua::Level& d, const Witness& w) {
  auto t = Clock::now();
  const std::uint32_t n_atoms = space_.universe().size();
  Bindings b = space_.bindings();
  const BLit legal = space_.pinned_read_from(circuit_, b, w.chosen_reads);
  for (std::size_t i = 0; i < d.framework->witness.size(); ++i) {
    const auto& rel = w.relations[i];
    std::vector<std::vector<Atom>> tuples;
    for (const auto& tuple : tuples_of(w, rel)) {
      std::vector<Atom> atoms(tuple.size());
      for (std::size_t col = 0; col < tuple.size(); ++col)
        atoms[col] = atom_of(space_.universe(), rel.type[col], tuple[col]);
      tuples.push_back(std::move(atoms));
    }
    b.bind(d.framework->witness[i].rel,
           constant_matrix(n_atoms, static_cast<std::uint32_t>(rel.type.size()), tuples));
  }
  Translator tr(space_.universe(), circuit_, b);
  BLit l = tr.formula(d.constraint());
  if (legal != kTrue) l = circuit_.and_(legal, l);
  // A history with a read the level does not permit violates it whatever
  // the witness: the lemma excludes only histories without one. (The
  // candidate has none: the level allows it.)
  l = circuit_.and_(!unpermitted_read(space_, d, circuit_), l);
  stats_.translate_seconds += seconds_since(t);
  return l;
}

SynthResult Loop::run() {
  SynthResult result;
  try {
    run_loop(result);
  } catch (const TimeoutError&) {
    result = SynthResult{};
    result.outcome = Outcome::Timeout;
  }
  stats_.gates = circuit_.num_gates();
  stats_.sat_vars = solver_.stats().vars;
  stats_.sat_clauses = solver_.stats().clauses;
  stats_.conflicts = solver_.stats().conflicts;
  stats_.total_seconds = seconds_since(start_);
  stats_.index_ordered = p_.space.index_ordered;
  result.stats = stats_;
  return result;
}

void Loop::run_loop(SynthResult& result) {
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
    assert_formula(p_.allow[i]->constraint(), allow_execs_.back().bindings, false);
    cnf_.assert_true(!unpermitted_read(space_, *p_.allow[i], circuit_));
  }
  // A history violates a deny level under *every* witness, so any
  // witness built from the history and the allow executions gives a sound
  // constraint on candidates: not (WF and N)(h, W). These instances prune the
  // candidate space before the first oracle call; the allow witnesses of the
  // deny level's own framework are Isolde's smart search.
  // Without keys numbered by first use in the space, the key symmetry is
  // broken in one of two ways, each under selectors (assumptions), each
  // giving a complete search: keys numbered by first use after all (the
  // search starts so: histories are found as without the option), or, once
  // a search call takes more than a couple of thousand conflicts, by the
  // violation of one template of the first deny level (keys_canonical).
  // Each of its templates is asserted as is, and restricted under a
  // selector of its own; which one refutes fastest depends on the problem
  // (the template whose witness the allow level's own proof would use), so
  // the search takes them in turn, each for a budget of conflicts that
  // doubles every round.
  std::vector<sat::Lit> selectors;
  std::optional<sat::Lit> by_first_use;
  if (!p_.space.key_order) {
    const BLit sel = circuit_.input();
    cnf_.assert_true(circuit_.implies(sel, space_.key_order()));
    by_first_use = cnf_.literal(sel);
  }
  // With dirty reads, a read the level does not permit violates it too.
  std::vector<Bindings> first_templates;  // of the first deny level, restricted when needed
  for (std::size_t i = 0; i < p_.deny.size(); ++i) {
    const BLit unpermitted = unpermitted_read(space_, *p_.deny[i], circuit_);
    for (const Bindings& b : deny_templates(*p_.deny[i])) {
      const auto t = Clock::now();
      Translator tr(space_.universe(), circuit_, b);
      cnf_.assert_true(circuit_.or_(unpermitted, !tr.formula(p_.deny[i]->constraint())));
      stats_.translate_seconds += seconds_since(t);
      if (i == 0 && !p_.space.key_order) first_templates.push_back(b);
    }
  }
  auto restrict_templates = [&] {
    const auto t = Clock::now();
    const BLit unpermitted = unpermitted_read(space_, *p_.deny[0], circuit_);
    for (const Bindings& b : first_templates) {
      Bindings kb = b;
      const BLit selector = circuit_.input();
      const FormulaPtr restricted = keys_canonical(p_.deny[0]->constraint(), kb, space_.universe());
      const BLit violated = !Translator(space_.universe(), circuit_, kb).formula(restricted);
      cnf_.assert_true(circuit_.implies(selector, circuit_.or_(unpermitted, violated)));
      selectors.push_back(cnf_.literal(selector));
    }
    stats_.translate_seconds += seconds_since(t);
  };
  std::size_t turn = 0;
  std::uint64_t turn_budget = std::max<std::uint64_t>(opt_.template_conflicts, 1);

  // The facts proved for the execution whose order is fixed (implied_facts)
  // cost a few solver calls of their own: they are added once the search
  // has taken a few thousand conflicts.
  const std::size_t facts_exec = ordering_.value_or(0);
  bool facts_pending = opt_.implied_facts && opt_.fixed_order && ordering_ &&
                       free_slot(*p_.allow[facts_exec]->framework);

  bool transitive_pending = opt_.implied_facts && !hb_transitive_.empty();

  phase_ = "searching";
  while (true) {
    report_progress();
    constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t spent = solver_.stats().conflicts;
    std::uint64_t limit = kNone;
    if (facts_pending || transitive_pending)
      limit = opt_.implied_facts_after > spent ? opt_.implied_facts_after - spent : 0;
    std::vector<sat::Lit> assumptions;
    if (by_first_use) {
      limit = std::min(limit, opt_.first_use_conflicts);
      assumptions.push_back(*by_first_use);
    } else if (!selectors.empty()) {
      if (selectors.size() > 1) limit = std::min(limit, turn_budget);
      assumptions.push_back(selectors[turn]);
    }
    solver_.set_max_conflicts(limit);
    auto t = Clock::now();
    sat::Result r = solver_.solve(assumptions);
    stats_.solve_seconds += seconds_since(t);
    // Unknown at the limit: add the facts, or go on the next way; before
    // it, the search was interrupted (below).
    if (r == sat::Result::Unknown && limit != kNone && solver_.stats().conflicts - spent >= limit) {
      if ((facts_pending || transitive_pending) && solver_.stats().conflicts >= opt_.implied_facts_after) {
        auto tf = Clock::now();
        if (transitive_pending) cnf_.assert_true(circuit_.and_(hb_transitive_));
        transitive_pending = false;
        if (facts_pending)
          for (const FormulaPtr& f : implied_facts(*p_.allow[facts_exec], p_.scope, p_.space)) {
            assert_formula(f, allow_execs_[facts_exec].bindings, false);
            ++stats_.implied_facts;
          }
        stats_.facts_seconds += seconds_since(tf);
        facts_pending = false;
      } else if (by_first_use) {
        by_first_use.reset();
        restrict_templates();
      } else if (!selectors.empty()) {
        turn = (turn + 1) % selectors.size();
        if (turn == 0) turn_budget *= 2;
      }
      continue;
    }
    if (r == sat::Result::Unknown) {
      result.outcome = Outcome::Timeout;
      break;
    }
    if (r == sat::Result::Unsat) {
      result.outcome = Outcome::None;
      break;
    }
    ++stats_.candidates;
    const std::vector<bool> inputs = cnf_.input_values();
    History h = space_.decode(circuit_, inputs);
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
    if (timed_out) {
      result.outcome = Outcome::Timeout;
      break;
    }
    if (!refuted) {
      result.outcome = Outcome::Found;
      std::vector<Witness> ws;
      for (const auto& e : allow_execs_) {
        ws.push_back(decode_witness(e, circuit_, inputs, space_, p_.scope.txns));
        ws.back().chosen_reads = space_.chosen_reads(circuit_, inputs, e.bindings);
      }
      result.history = without_empty_transactions(h, &ws);
      result.allow_witnesses = std::move(ws);
      break;
    }
  }
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
  if (witnesses) {
    auto keep = [&](TxnId t) { return renamed[t] != UINT32_MAX; };
    for (Witness& w : *witnesses) {
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
        if (keep(c.writer) && keep(c.reader))
          reads.push_back({renamed[c.writer], renamed[c.reader], c.op, c.key});
      w.chosen_reads = std::move(reads);
      std::vector<TxnId> committed;
      for (TxnId t : w.committed_unknown)
        if (keep(t)) committed.push_back(renamed[t]);
      w.committed_unknown = std::move(committed);
    }
  }
  return out;
}

// The space a problem searches, as its levels need it: the operation form
// for a level over read events, aborted and intermediate reads for a level
// that mentions them, predicate reads for one that tells them from item
// reads.
static SpaceOptions needed_space(const Problem& p) {
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

SynthResult synthesize(const Problem& p, const SynthOptions& opt) {
  const auto start = Clock::now();
  // The deadline covers building the history space too (Loop's constructor).
  budget::ScopedDeadline deadline(opt.timeout_seconds);
  Problem q = p;
  q.space = needed_space(p);
  try {
    for (const auto* levels : {&q.allow, &q.deny})
      for (const lua::Level* l : *levels) {
        check_witness_sorts(*l->framework);
        // The database's own timestamps are not part of the space.
        if (l->uses_db_timestamps())
          throw std::invalid_argument(fmt::format(
              "{} reads the database's own timestamps (h.ts_vis, h.ts_ar), and synthesized histories "
              "have none: it can be checked (isosynth check) but not synthesized",
              l->name));
      }
    std::optional<std::size_t> ordering;
    {
      auto last = Clock::now();
      budget::ScopedHeartbeat heartbeat([&] {
        if (!opt.on_progress || seconds_since(start) < 1.0 || seconds_since(last) < 1.0) return;
        last = Clock::now();
        opt.on_progress(Progress{"translating", 0, 0, 0, seconds_since(start)});
      });
      for (std::size_t i = 0; i < q.allow.size() && !ordering; ++i)
        if (order_contains_so_wr(*q.allow[i]->framework, q.scope, q.space)) ordering = i;
      q.space.index_ordered = ordering.has_value();
      for (std::size_t i = 0; i < q.allow.size() && !q.space.index_ordered; ++i)
        q.space.index_ordered = so_wr_acyclic(*q.allow[i], q.scope, q.space);
      q.space.key_order = !(opt.deny_key_symmetry && !q.deny.empty() && quantifies_keys(q.deny[0]->constraint()));
    }
    Loop loop(q, ordering, opt, start);
    SynthResult r = loop.run();
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
  // Drops operations one at a time while the history stays a solution: only
  // oracle calls, no search.
  auto drop_operations = [&] {
    if (cut) return;
    History h = *found.history;
    budget::ScopedDeadline deadline(time_left());
    try {
      bool changed = true;
      while (changed) {
        changed = false;
        for (TxnId t = 1; t < h.num_txns() && !changed; ++t)
          for (std::size_t i = 0; i < h.txn(t).ops.size() && !changed; ++i) {
            History smaller = drop_operation(h, t, i);
            std::vector<Witness> ws;
            if (in_space(smaller, space) && is_solution(smaller, p, &ws)) {
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
  };
  // 1. The history found, shrunk operation by operation. At a large scope
  // the first history is large and this is cheap; it also bounds the scope
  // that step 2 searches below.
  drop_operations();
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
  if (searched) drop_operations();
  if (cut) found.notes.push_back("minimization stopped at the time limit: the history may not be minimal");
  total.total_seconds = seconds_since(start) + first_search;
  found.stats = total;
  return found;
}

}  // namespace iso::cegis
