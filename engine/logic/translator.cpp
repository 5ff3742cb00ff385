// The translation of translator.hpp: expressions to matrices and formulas
// to literals, cached per free-variable binding.
#include "engine/logic/translator.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "engine/util/budget.hpp"

namespace iso::logic {

BoolMatrix constant_matrix(std::uint32_t n, std::uint32_t arity,
                           const std::vector<std::vector<Atom>>& tuples) {
  BoolMatrix m{arity, {}};
  for (const auto& t : tuples) m.cells.emplace_back(tuple_index(n, t), kTrue);
  std::sort(m.cells.begin(), m.cells.end());
  m.cells.erase(std::unique(m.cells.begin(), m.cells.end()), m.cells.end());
  return m;
}

BoolMatrix variable_matrix(Circuit& c, std::uint32_t n, std::uint32_t arity,
                           const std::vector<std::vector<Atom>>& lower,
                           const std::vector<std::vector<Atom>>& upper) {
  BoolMatrix low = constant_matrix(n, arity, lower);
  BoolMatrix m{arity, {}};
  for (Index i : [&] {
         std::vector<Index> idx;
         for (const auto& t : upper) {
           budget::poll();  // as many as the relation's possible tuples
           idx.push_back(tuple_index(n, t));
         }
         for (const auto& cell : low.cells) idx.push_back(cell.first);
         std::sort(idx.begin(), idx.end());
         idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
         return idx;
       }()) {
    budget::poll();
    m.cells.emplace_back(i, low.at(i) == kTrue ? kTrue : c.input());
  }
  return m;
}

Translator::Translator(const Universe& u, Circuit& c, const Bindings& b, std::uint64_t work_limit)
    : u_(u), c_(c), b_(b), limit_(work_limit) {}

void Translator::charge(std::uint64_t units) {
  // Every step of the translation passes here: the run's deadline is
  // polled with the work.
  budget::poll();
  stats_.work += units;
  if (stats_.work > limit_)
    throw TranslationError(fmt::format(
        "formula too large to translate: more than {} cells and quantifier instances for a "
        "universe of {} atoms",
        limit_, u_.size()));
}

Translator::Key Translator::key(const void* node, const std::vector<std::uint32_t>& free) const {
  Key k;
  k.node = node;
  for (std::uint32_t v : free) {
    Atom a = lookup(v);
    if (a == kUnbound)
      throw TranslationError("a quantified variable is used outside the function that declared it");
    if (k.size < k.atoms.size()) k.atoms[k.size] = a;
    ++k.size;
  }
  return k;
}

std::size_t Translator::KeyHash::operator()(const Key& k) const {
  std::size_t h = reinterpret_cast<std::uintptr_t>(k.node) * 0x9E3779B97F4A7C15ull;
  for (std::uint32_t i = 0; i < k.size && i < k.atoms.size(); ++i) h = (h ^ k.atoms[i]) * 0x100000001B3ull;
  return h ^ (h >> 29);
}

void Translator::bind(std::uint32_t var, Atom a) {
  if (var >= env_.size()) env_.resize(var + 1, kUnbound);
  if (env_[var] == kUnbound) ++bound_;
  env_[var] = a;
}

void Translator::unbind(std::uint32_t var) {
  if (var < env_.size() && env_[var] != kUnbound) {
    env_[var] = kUnbound;
    --bound_;
  }
}

BoolMatrix Translator::sort_matrix(SortId s) const {
  if (s == kAnySort) {
    BoolMatrix m{1, {}};
    for (SortId t = 0; t < static_cast<SortId>(u_.num_sorts()); ++t) {
      BoolMatrix part = sort_matrix(t);
      m.cells.insert(m.cells.end(), part.cells.begin(), part.cells.end());
    }
    return m;  // sorts are consecutive ranges of atoms: the cells stay sorted
  }
  if (const BoolMatrix* e = b_.extent(s)) return *e;
  BoolMatrix m{1, {}};
  for (std::uint32_t i = 0; i < u_.count(s); ++i) m.cells.emplace_back(u_.first(s) + i, kTrue);
  return m;
}

std::shared_ptr<const BoolMatrix> Translator::matrix(const ExprPtr& e) {
  if (!cacheable(e->free)) {
    auto m = std::make_shared<const BoolMatrix>(expr_uncached(*e));
    charge(m->cells.size() + 1);
    return m;
  }
  auto k = key(e.get(), e->free);
  if (auto it = expr_cache_.find(k); it != expr_cache_.end()) {
    ++stats_.cache_hits;
    return it->second.second;
  }
  auto m = std::make_shared<const BoolMatrix>(expr_uncached(*e));
  charge(m->cells.size() + 1);
  expr_cache_.emplace(std::move(k), std::make_pair(e, m));
  return m;
}

BoolMatrix Translator::expr_uncached(const Expr& e) {
  using Op = Expr::Op;
  const std::uint32_t n = u_.size();
  switch (e.op) {
    case Op::Relation: {
      const BoolMatrix* m = b_.find(*e.rel);
      if (!m) throw TranslationError(fmt::format("relation {} has no value here", e.rel->name));
      return *m;
    }
    case Op::Variable: {
      Atom a = lookup(e.var->id);
      if (a == kUnbound)
        throw TranslationError(fmt::format(
            "variable {} is used outside the function that declared it", e.var->name));
      return BoolMatrix{1, {{a, kTrue}}};
    }
    case Op::Sort: return sort_matrix(e.sort);
    case Op::Univ: return sort_matrix(kAnySort);
    case Op::Iden: {
      BoolMatrix m{2, {}};
      for (Atom a = 0; a < n; ++a) m.cells.emplace_back(Index{a} * n + a, kTrue);
      return m;
    }
    case Op::None: return BoolMatrix{static_cast<std::uint32_t>(e.arity()), {}};
    case Op::Union: return m_union(c_, *matrix(e.kids[0]), *matrix(e.kids[1]));
    case Op::Inter: return m_inter(c_, *matrix(e.kids[0]), *matrix(e.kids[1]));
    case Op::Diff: return m_diff(c_, *matrix(e.kids[0]), *matrix(e.kids[1]));
    case Op::Join: {
      auto pa = matrix(e.kids[0]), pb = matrix(e.kids[1]);
      const BoolMatrix &a = *pa, &b = *pb;
      charge(a.cells.size() * 2 + b.cells.size());
      return m_join(c_, n, a, b);
    }
    case Op::Product: {
      auto pa = matrix(e.kids[0]), pb = matrix(e.kids[1]);
      const BoolMatrix &a = *pa, &b = *pb;
      charge(a.cells.size() * b.cells.size());
      return m_product(c_, n, a, b);
    }
    case Op::Transpose: return m_transpose(n, *matrix(e.kids[0]));
    case Op::Closure: {
      auto pa = matrix(e.kids[0]);
      const BoolMatrix& a = *pa;
      charge(Index{n} * n * n);
      return m_closure(c_, n, a);
    }
    case Op::RClosure: {
      BoolMatrix cl = m_closure(c_, n, *matrix(e.kids[0]));
      charge(Index{n} * n * n);
      BoolMatrix id{2, {}};
      for (Atom a = 0; a < n; ++a)
        if (u_.in_sort(a, e.type[0])) id.cells.emplace_back(Index{a} * n + a, kTrue);
      return m_union(c_, cl, id);
    }
    case Op::Project: return m_project(c_, n, *matrix(e.kids[0]), e.cols);
    case Op::Ite: return m_ite(c_, formula(e.cond), *matrix(e.kids[0]), *matrix(e.kids[1]));
    case Op::Comprehension: {
      std::vector<std::pair<Index, BLit>> out;
      std::vector<Atom> tuple;
      comprehend(e, 0, tuple, kTrue, out);
      return make_matrix(c_, static_cast<std::uint32_t>(e.arity()), std::move(out));
    }
  }
  throw TranslationError("unknown expression");
}

void Translator::comprehend(const Expr& e, std::size_t decl, std::vector<Atom>& tuple, BLit guard,
                            std::vector<std::pair<Index, BLit>>& out) {
  if (decl == e.decls.size()) {
    BLit v = c_.and_(guard, formula(e.cond));
    if (v != kFalse) out.emplace_back(tuple_index(u_.size(), tuple), v);
    return;
  }
  const Decl& d = e.decls[decl];
  auto dom_ptr = matrix(d.domain);
  const BoolMatrix& dom = *dom_ptr;
  for (const auto& [atom, member] : dom.cells) {
    charge(1);
    bind(d.var->id, static_cast<Atom>(atom));
    tuple.push_back(static_cast<Atom>(atom));
    comprehend(e, decl + 1, tuple, c_.and_(guard, member), out);
    tuple.pop_back();
  }
  unbind(d.var->id);
}

BLit Translator::formula(const FormulaPtr& f) {
  if (!cacheable(f->free)) {
    charge(1);
    return formula_uncached(*f);
  }
  auto k = key(f.get(), f->free);
  if (auto it = formula_cache_.find(k); it != formula_cache_.end()) {
    ++stats_.cache_hits;
    return it->second.second;
  }
  BLit v = formula_uncached(*f);
  charge(1);
  formula_cache_.emplace(std::move(k), std::make_pair(f, v));
  return v;
}

BLit Translator::junction(const Formula& f, BLit decisive) {
  std::vector<BLit> parts;
  for (const auto& k : f.kids) {
    BLit v = formula(k);
    if (v == decisive) return decisive;
    parts.push_back(v);
  }
  return decisive == kFalse ? c_.and_(parts) : c_.or_(parts);
}

BLit Translator::quantify(const Formula& f, std::size_t decl, std::vector<BLit>& parts,
                          bool universal) {
  // Unrolls the declarations one at a time; stops early once the result is
  // decided (a false conjunct of a forall, a true disjunct of an exists).
  if (decl == f.decls.size()) return formula(f.kids[0]);
  const Decl& d = f.decls[decl];
  auto dom_ptr = matrix(d.domain);
  const BoolMatrix& dom = *dom_ptr;
  std::vector<BLit> local;
  for (const auto& [atom, member] : dom.cells) {
    charge(1);
    bind(d.var->id, static_cast<Atom>(atom));
    BLit body = quantify(f, decl + 1, parts, universal);
    BLit v = universal ? c_.implies(member, body) : c_.and_(member, body);
    if (universal && v == kFalse) { local = {kFalse}; break; }
    if (!universal && v == kTrue) { local = {kTrue}; break; }
    local.push_back(v);
  }
  unbind(d.var->id);
  return universal ? c_.and_(local) : c_.or_(local);
}

bool Translator::tuple_of_variables(const Expr& e, Index& idx) const {
  if (e.op == Expr::Op::Variable) {
    Atom a = lookup(e.var->id);
    if (a == kUnbound) return false;
    idx = idx * u_.size() + a;
    return true;
  }
  if (e.op == Expr::Op::Product)
    return tuple_of_variables(*e.kids[0], idx) && tuple_of_variables(*e.kids[1], idx);
  return false;
}

BLit Translator::formula_uncached(const Formula& f) {
  using Op = Formula::Op;
  const std::uint32_t n = u_.size();
  switch (f.op) {
    case Op::Const: return f.value ? kTrue : kFalse;
    case Op::Subset: {
      // Fast path for membership of a tuple of bound variables, r(a, b, ...):
      // one lookup instead of building singleton matrices and their product.
      Index idx = 0;
      if (tuple_of_variables(*f.exprs[0], idx)) return matrix(f.exprs[1])->at(idx);
      return m_subset(c_, *matrix(f.exprs[0]), *matrix(f.exprs[1]));
    }
    case Op::Equal: {
      auto pa = matrix(f.exprs[0]), pb = matrix(f.exprs[1]);
      const BoolMatrix &a = *pa, &b = *pb;
      return c_.and_(m_subset(c_, a, b), m_subset(c_, b, a));
    }
    case Op::Some: return m_some(c_, *matrix(f.exprs[0]));
    case Op::No: return !m_some(c_, *matrix(f.exprs[0]));
    case Op::Lone: return m_lone(c_, *matrix(f.exprs[0]));
    case Op::One: {
      auto pa = matrix(f.exprs[0]);
      const BoolMatrix& a = *pa;
      return c_.and_(m_some(c_, a), m_lone(c_, a));
    }
    case Op::Not: return !formula(f.kids[0]);
    case Op::And: return junction(f, kFalse);
    case Op::Or: return junction(f, kTrue);
    case Op::Implies: {
      BLit a = formula(f.kids[0]);
      if (a == kFalse) return kTrue;
      return c_.implies(a, formula(f.kids[1]));
    }
    case Op::Iff: return c_.iff(formula(f.kids[0]), formula(f.kids[1]));
    case Op::Forall:
    case Op::Exists: {
      std::vector<BLit> parts;
      return quantify(f, 0, parts, f.op == Op::Forall);
    }
    case Op::Acyclic: {
      BoolMatrix cl = m_closure(c_, n, *matrix(f.exprs[0]));
      charge(Index{n} * n * n);
      std::vector<BLit> parts;
      for (Atom a = 0; a < n; ++a) parts.push_back(!cl.at(Index{a} * n + a));
      return c_.and_(parts);
    }
    case Op::TotalOrder: {
      // r is a strict total order on the domain D: r in D->D, irreflexive,
      // asymmetric, transitive, and total on distinct elements of D.
      auto pr = matrix(f.exprs[0]), pd = matrix(f.exprs[1]);
      const BoolMatrix &r = *pr, &d = *pd;
      charge(Index{n} * n * n);
      std::vector<BLit> parts;
      BoolMatrix dd = m_product(c_, n, d, d);
      parts.push_back(m_subset(c_, r, dd));
      for (const auto& [a, ma] : d.cells) {
        parts.push_back(!r.at(a * n + a));
        for (const auto& [b, mb] : d.cells) {
          if (a == b) continue;
          BLit ab = r.at(a * n + b);
          if (b > a) {
            BLit ba = r.at(b * n + a);
            parts.push_back(c_.implies(c_.and_(ma, mb), c_.or_(ab, ba)));  // total
            parts.push_back(!c_.and_(ab, ba));                              // asymmetric
          }
          for (const auto& [cc, mc] : d.cells) {
            if (cc == a || cc == b) continue;
            parts.push_back(c_.implies(c_.and_(ab, r.at(b * n + cc)), r.at(a * n + cc)));
          }
        }
      }
      return c_.and_(parts);
    }
  }
  throw TranslationError("unknown formula");
}

}  // namespace iso::logic
