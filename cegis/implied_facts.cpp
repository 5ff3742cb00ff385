// Implied facts, proved by SAT refutation over a space of their own
// (cegis/implied_facts.hpp).
#include "cegis/implied_facts.hpp"

#include <functional>
#include <map>
#include <mutex>
#include <string>

#include <fmt/format.h>

#include "cegis/execution.hpp"
#include "engine/logic/cnf.hpp"
#include "engine/model/schema.hpp"
#include "engine/sat/solver.hpp"

namespace iso::cegis {

using namespace logic;

namespace {

// Some facts that tie the free relation V to the history in one step are
// consequences of many levels' formulas; each is added to the search only
// once proved for the level at hand, by a SAT refutation of "the level holds
// and the fact does not" over the same space with the order fixed (cached
// per level, scope and space). The candidates, with R the fixed order:
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

}  // namespace

std::optional<std::size_t> free_slot(const lua::Framework& fw) {
  if (fw.witness.size() != 2) return std::nullopt;
  const Type txn2{model::kTxn, model::kTxn};
  for (std::size_t i = 0; i < 2; ++i)
    if (is_txn_order(fw.witness[1 - i]) && !fw.witness[i].order && fw.witness[i].rel->type == txn2) return i;
  return std::nullopt;
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
  // Shared by the searches of one process, which may run on several
  // threads (--jobs): looked up and filled under the lock, proved outside
  // it (two threads proving one key prove the same facts).
  static std::mutex mutex;
  static std::map<std::string, std::vector<FormulaPtr>> cache;
  static const std::vector<FormulaPtr> none;
  const lua::Framework& fw = *level.framework;
  const std::optional<std::size_t> slot = free_slot(fw);
  if (!slot) return none;
  const std::string key =
      fmt::format("{}|{}|{}|{}|{}", level.name, level.location, fw.location, scope.text(), space.text());
  {
    std::lock_guard lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
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
  std::lock_guard lock(mutex);
  return cache.emplace(key, std::move(proved)).first->second;  // map entries stay put
}

}  // namespace iso::cegis
