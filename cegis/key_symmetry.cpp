// Key symmetry broken by a violation: the deny constraint with its key
// variables restricted (cegis/key_symmetry.hpp).
#include "cegis/key_symmetry.hpp"

#include <functional>
#include <vector>

#include <fmt/format.h>

#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

namespace {

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

}  // namespace

bool quantifies_keys(const FormulaPtr& f) {
  std::size_t n = 0, restricted = 0;
  keys_canonical(f, true, n, [&](std::size_t) {
    ++restricted;
    return sort(model::kObj);
  });
  return restricted > 0;
}

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

}  // namespace iso::cegis
