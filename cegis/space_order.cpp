// How the history space may be numbered: proofs over a space of their own
// (cegis/space_order.hpp).
#include "cegis/space_order.hpp"

#include <algorithm>
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
// space.
bool refuted(const std::string& question, const lua::Framework& fw, const FormulaPtr& f,
             const std::function<FormulaPtr(const Execution&)>& goal, const Scope& scope, SpaceOptions space) {
  space.index_ordered = false;
  const std::string key = fmt::format("{}|{}|{}|{}|{}", question, fw.location, fw.name, scope.text(), space.text());
  // Shared by searches on several threads (--jobs): used under the lock,
  // answered outside it.
  static std::mutex mutex;
  static std::map<std::string, bool> cache;
  {
    std::lock_guard lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
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
  const bool unsat = solver.solve() == sat::Result::Unsat;
  std::lock_guard lock(mutex);
  return cache.emplace(key, unsat).first->second;
}

}  // namespace

bool order_contains_so_wr(const lua::Framework& fw, const Scope& scope, const SpaceOptions& space) {
  auto order = std::find_if(fw.witness.begin(), fw.witness.end(), [](const auto& w) { return is_txn_order(w); });
  if (order == fw.witness.end() || !fw.wf) return false;
  if (states_so_wr_within(fw.wf, order->rel)) return true;
  const model::HistorySchema& s = model::history_schema();
  return refuted("order", fw, fw.wf, [&](const Execution&) {
    return not_(subset(union_(rel(s.so), s.wr), rel(order->rel)));
  }, scope, space);
}

bool so_wr_acyclic(const lua::Level& level, const Scope& scope, const SpaceOptions& space) {
  const model::HistorySchema& s = model::history_schema();
  return refuted("acyclic:" + level.name, *level.framework, level.constraint(), [&](const Execution&) {
    return not_(acyclic(union_(rel(s.so), s.wr)));
  }, scope, space);
}

}  // namespace iso::cegis
