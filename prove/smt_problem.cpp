// The translation of smt_problem.hpp. Atoms are SMT terms of the one sort U;
// member(e, args) is the formula "the tuple args is in e".
#include "prove/smt_problem.hpp"

#include <cctype>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/model/schema.hpp"

namespace iso::prove {

using namespace logic;

namespace {

constexpr SortId kSorts[] = {model::kTxn, model::kObj, model::kVal, model::kRead};

std::string sort_predicate(SortId s) { return "is_" + sort_name(s); }

// "(is_Txn a)", or "true" for the column type of iden and univ.
std::string in_sort(SortId s, const std::string& a) {
  return s == kAnySort ? "true" : fmt::format("({} {})", sort_predicate(s), a);
}

std::string conj(const std::vector<std::string>& parts) {
  if (parts.empty()) return "true";
  if (parts.size() == 1) return parts[0];
  return fmt::format("(and {})", fmt::join(parts, " "));
}

std::string disj(const std::vector<std::string>& parts) {
  if (parts.empty()) return "false";
  if (parts.size() == 1) return parts[0];
  return fmt::format("(or {})", fmt::join(parts, " "));
}

std::string binders(const std::vector<std::string>& vars) {
  std::string out;
  for (const auto& v : vars) out += fmt::format("({} U)", v);
  return out;
}

std::string forall(const std::vector<std::string>& vars, const std::string& body) {
  return vars.empty() ? body : fmt::format("(forall ({}) {})", binders(vars), body);
}

std::string exists(const std::vector<std::string>& vars, const std::string& body) {
  return vars.empty() ? body : fmt::format("(exists ({}) {})", binders(vars), body);
}

// An SMT-LIB symbol from a spec's name: letters, digits and '_' kept.
std::string symbol(const std::string& name, std::uint32_t id) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return fmt::format("{}_{}", s.empty() ? "r" : s, id);
}

std::vector<std::string> slice(const std::vector<std::string>& v, std::size_t from, std::size_t n) {
  return {v.begin() + static_cast<std::ptrdiff_t>(from), v.begin() + static_cast<std::ptrdiff_t>(from + n)};
}

Mutation mutation = Mutation::None;

}  // namespace

void set_mutation(Mutation m) { mutation = m; }

std::string relation_symbol(const logic::Relation& r) { return symbol(r.name, r.id); }
std::string sort_symbol(logic::SortId s) { return sort_predicate(s); }

std::vector<std::string> SmtProblem::fresh(std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(fmt::format("z{}", fresh_++));
  return out;
}

std::string SmtProblem::relation(const Relation& r) {
  auto it = relations_.find(r.id);
  if (it == relations_.end()) {
    it = relations_.emplace(r.id, std::make_pair(symbol(r.name, r.id), r.type.size())).first;
    typed_.emplace(r.id, r.type);
  }
  return it->second.first;
}

std::string SmtProblem::variable(const Variable& v) {
  auto it = variables_.find(v.id);
  if (it == variables_.end()) it = variables_.emplace(v.id, symbol("v" + v.name, v.id)).first;
  return it->second;
}

void SmtProblem::substitute(const Relation& r, ExprPtr term) {
  substitution_[r.id] = std::move(term);
}

void SmtProblem::add_order(ExprPtr order) { orders_.push_back(std::move(order)); }

void SmtProblem::assume(const FormulaPtr& f, const std::string& why) {
  in_goal_ = false;
  assume_conjunct(f, why);
}

void SmtProblem::assume_conjunct(const FormulaPtr& f, const std::string& why) {
  if (f->op == Formula::Op::And) {
    for (const auto& k : f->kids) assume_conjunct(k, why);
    return;
  }
  if (f->op == Formula::Op::Acyclic && f->free.empty()) {
    // A linearization: a strict total order L on r's sort containing r.
    const ExprPtr& r = f->exprs[0];
    RelationPtr l = make_relation(fmt::format("lin{}", linearizations_.size() + 1), r->type);
    linearizations_.push_back({l, r});
    orders_.push_back(rel(l));
    hypotheses_.emplace_back(why + ": acyclic, so contained in a strict total order",
                             conj({formula(*logic::total_order(rel(l), sort(r->type[0])), Polarity::Negative),
                                   formula(*subset(r, rel(l)), Polarity::Negative)}));
    return;
  }
  // R;R ⊆ R: R is transitive wherever the hypotheses hold, so it bounds
  // closures as orders do (cover()).
  if (f->op == Formula::Op::Subset && f->free.empty() && f->exprs[1]->op == Expr::Op::Relation &&
      f->exprs[0]->op == Expr::Op::Join && f->exprs[0]->kids.size() == 2) {
    const auto& k = f->exprs[0]->kids;
    const auto same = [&](const ExprPtr& e) { return e->op == Expr::Op::Relation && e->rel == f->exprs[1]->rel; };
    if (same(k[0]) && same(k[1])) transitive_.push_back(f->exprs[1]);
  }
  hypotheses_.emplace_back(why, formula(*f, Polarity::Negative));
}

void SmtProblem::require(const FormulaPtr& f, const std::string& why) {
  in_goal_ = true;
  require_conjunct(f, why);
  in_goal_ = false;
}

void SmtProblem::require_conjunct(const FormulaPtr& f, const std::string& why) {
  for (const FormulaPtr& part : split(f))
    goals_.emplace_back(fmt::format("{} ({})", why, to_string(part, 120)), formula(*part, Polarity::Positive));
}

// ∀x (p ⇒ a ∧ b) is ∀x (p ⇒ a) ∧ ∀x (p ⇒ b): smaller goals, each easier
// for a prover's instantiation heuristics than their conjunction.
std::vector<FormulaPtr> SmtProblem::split(const FormulaPtr& f) {
  std::vector<FormulaPtr> out;
  switch (f->op) {
    case Formula::Op::And:
      for (const auto& k : f->kids)
        for (auto& part : split(k)) out.push_back(std::move(part));
      return out;
    case Formula::Op::Forall:
      for (auto& part : split(f->kids[0])) out.push_back(forall(f->decls, part));
      return out;
    case Formula::Op::Implies:
      for (auto& part : split(f->kids[1])) out.push_back(implies(f->kids[0], part));
      return out;
    default: return {f};
  }
}

std::string SmtProblem::formula(const Formula& f, Polarity p) {
  using Op = Formula::Op;
  const Polarity flipped = p == Polarity::Positive   ? Polarity::Negative
                           : p == Polarity::Negative ? Polarity::Positive
                                                     : Polarity::Both;
  std::vector<std::string> parts;
  switch (f.op) {
    case Op::Const: return f.value ? "true" : "false";
    case Op::Subset:
    case Op::Equal: {
      const Expr &a = *f.exprs[0], &b = *f.exprs[1];
      // A tuple of variables in b: b's membership test itself, as
      // member() and ne() write them ("(t1, x, t3) in wrx", "t1 = t2").
      std::vector<std::string> at, bt;
      if (variable_tuple(a, at)) {
        if (f.op == Op::Subset) return member(b, at);
        if (variable_tuple(b, bt)) {
          std::vector<std::string> same;
          for (std::size_t i = 0; i < at.size(); ++i) same.push_back(fmt::format("(= {} {})", at[i], bt[i]));
          return conj(same);
        }
      }
      auto xs = fresh(a.arity());
      std::string ab = forall(xs, fmt::format("(=> {} {})", member(a, xs), member(b, xs)));
      if (f.op == Op::Subset) return ab;
      auto ys = fresh(a.arity());
      return conj({ab, forall(ys, fmt::format("(=> {} {})", member(b, ys), member(a, ys)))});
    }
    case Op::Some:
    case Op::No:
    case Op::One:
    case Op::Lone: return multiplicity(f);
    case Op::Not: return fmt::format("(not {})", formula(*f.kids[0], flipped));
    case Op::And:
      for (const auto& k : f.kids) parts.push_back(formula(*k, p));
      return conj(parts);
    case Op::Or:
      for (const auto& k : f.kids) parts.push_back(formula(*k, p));
      return disj(parts);
    case Op::Implies:
      return fmt::format("(=> {} {})", formula(*f.kids[0], flipped), formula(*f.kids[1], p));
    case Op::Iff:
      return fmt::format("(= {} {})", formula(*f.kids[0], Polarity::Both), formula(*f.kids[1], Polarity::Both));
    case Op::Forall:
    case Op::Exists: return quantified(f, p);
    case Op::Acyclic: return acyclic(f, p);
    case Op::TotalOrder: return total_order(f.exprs[0], f.exprs[1]);
  }
  throw std::logic_error("unknown formula");
}

std::string SmtProblem::quantified(const Formula& f, Polarity p) {
  const bool universal = f.op == Formula::Op::Forall;
  std::vector<std::string> vars, domains;
  for (const Decl& d : f.decls) {
    vars.push_back(variable(*d.var));
    domains.push_back(member(*d.domain, {vars.back()}));
  }
  std::string body = formula(*f.kids[0], p);
  return universal ? forall(vars, fmt::format("(=> {} {})", conj(domains), body))
                   : exists(vars, conj({conj(domains), body}));
}

std::string SmtProblem::multiplicity(const Formula& f) {
  using Op = Formula::Op;
  const Expr& e = *f.exprs[0];
  auto xs = fresh(e.arity());
  const std::string in_x = member(e, xs);
  if (f.op == Op::Some) return exists(xs, in_x);
  if (f.op == Op::No) return fmt::format("(not {})", exists(xs, in_x));
  auto ys = fresh(e.arity());
  std::vector<std::string> same;
  for (std::size_t i = 0; i < xs.size(); ++i) same.push_back(fmt::format("(= {} {})", xs[i], ys[i]));
  const std::string in_y = member(e, ys);
  const std::string at_most_one =
      forall(xs, forall(ys, fmt::format("(=> (and {} {}) {})", in_x, in_y, conj(same))));
  if (f.op == Op::Lone) return at_most_one;
  return conj({exists(xs, in_x), at_most_one});  // One
}

std::string SmtProblem::total_order(const ExprPtr& r, const ExprPtr& domain) {
  // Exact: r ⊆ D × D, irreflexive, transitive, and total on D.
  auto v = fresh(3);
  const std::string a = v[0], b = v[1], c = v[2];
  auto in_r = [&](const std::string& x, const std::string& y) { return member(*r, {x, y}); };
  auto in_d = [&](const std::string& x) { return member(*domain, {x}); };
  std::vector<std::string> axioms{
      forall({a, b}, fmt::format("(=> {} (and {} {}))", in_r(a, b), in_d(a), in_d(b))),
      forall({a}, fmt::format("(not {})", in_r(a, a))),
      forall({a, b, c}, fmt::format("(=> (and {} {}) {})", in_r(a, b), in_r(b, c), in_r(a, c))),
      forall({a, b}, fmt::format("(=> (and {} {} (not (= {} {}))) (or {} {}))", in_d(a), in_d(b), a, b, in_r(a, b),
                                 in_r(b, a)))};
  if (mutation == Mutation::OrderNotTotal && in_goal_) axioms.pop_back();
  return conj(axioms);
}

std::string SmtProblem::acyclic(const Formula& f, Polarity p) {
  const ExprPtr& r = f.exprs[0];
  auto a = fresh(1)[0];
  // Sound anywhere: no atom reaches itself through a transitive T ⊇ r.
  std::vector<std::string> ways{forall({a}, fmt::format("(not {})", cover_call(r, a, a)))};
  if (p == Polarity::Positive)
    for (const ExprPtr& o : orders_)
      if (o->type == r->type) ways.push_back(formula(*subset(r, o), Polarity::Positive));
  return disj(ways);
}

// Does e mention a relation the goal substitutes, where substitution applies?
bool SmtProblem::substitutes_in(const Expr& e) const {
  if (!in_goal_ || substituting_ || substitution_.empty()) return false;
  // `some` needs a shared pointer: an alias of e that owns nothing.
  const FormulaPtr f = some(ExprPtr(ExprPtr{}, &e));
  for (const auto& [id, term] : substitution_) {
    Relation probe{{id, ""}, {}};
    if (mentions(f, probe)) return true;
  }
  return false;
}

const SmtProblem::Cover& SmtProblem::cover(const ExprPtr& r) {
  const std::pair<const Expr*, bool> key{r.get(), substitutes_in(*r)};
  if (auto it = covers_.find(key); it != covers_.end()) return it->second;
  Cover c{fmt::format("tc{}", covers_.size() + 1), {}};
  for (std::uint32_t id : r->free) c.params.push_back(variables_.at(id));
  auto v = fresh(3);
  auto call = [&](const std::string& x, const std::string& y) {
    std::vector<std::string> a = c.params;
    a.push_back(x);
    a.push_back(y);
    return fmt::format("({} {})", c.name, fmt::join(a, " "));
  };
  std::vector<std::string> ab = c.params, abc = c.params;
  ab.insert(ab.end(), {v[0], v[1]});
  abc.insert(abc.end(), {v[0], v[1], v[2]});
  const std::string step = member(*r, {v[0], v[1]});
  cover_axioms_.push_back(forall(ab, fmt::format("(=> {} {})", step, call(v[0], v[1]))));
  cover_axioms_.push_back(forall(abc, fmt::format("(=> (and {} {}) {})", call(v[0], v[1]), call(v[1], v[2]),
                                                  call(v[0], v[2]))));
  // The closure also starts and ends with a step of r: ^r = r ∪ r;^r =
  // r ∪ ^r;r. True of the closure, so still sound; it keeps T out of
  // atoms r never reaches (T0, which nothing precedes).
  cover_axioms_.push_back(forall(ab, fmt::format("(=> {} (or {} {}))", call(v[0], v[1]), step,
                                                 exists({v[2]}, conj({member(*r, {v[0], v[2]}), call(v[2], v[1])})))));
  cover_axioms_.push_back(forall(ab, fmt::format("(=> {} (or {} {}))", call(v[0], v[1]), step,
                                                 exists({v[2]}, conj({call(v[0], v[2]), member(*r, {v[2], v[1]})})))));
  // The closure is the least transitive relation containing r: within any
  // order O the hypotheses assert (a strict order of A's witness, or a
  // linearization) or relation they make transitive (R;R ⊆ R), so ^r ⊆ O
  // where r ⊆ O. O is the hypotheses' own relation here, never a goal's
  // substitute for it (which need not be transitive).
  std::vector<ExprPtr> bounds = orders_;
  bounds.insert(bounds.end(), transitive_.begin(), transitive_.end());
  for (const ExprPtr& o : bounds) {
    if (o->type != r->type) continue;
    const bool goal = std::exchange(in_goal_, false);
    auto in_o = [&](const std::string& x, const std::string& y) { return member(*o, {x, y}); };
    const std::string within = forall({v[0], v[1]}, fmt::format("(=> {} {})", step, in_o(v[0], v[1])));
    const std::string all = forall({v[0], v[1]}, fmt::format("(=> {} {})", call(v[0], v[1]), in_o(v[0], v[1])));
    in_goal_ = goal;
    cover_axioms_.push_back(forall(c.params, fmt::format("(=> {} {})", within, all)));
  }
  return covers_.emplace(key, std::move(c)).first->second;
}

std::string SmtProblem::cover_call(const ExprPtr& r, const std::string& a, const std::string& b) {
  if (mutation == Mutation::ClosureIsStep) return member(*r, {a, b});
  const Cover& c = cover(r);
  std::vector<std::string> args = c.params;
  args.push_back(a);
  args.push_back(b);
  return fmt::format("({} {})", c.name, fmt::join(args, " "));
}

std::string SmtProblem::defined(const std::string& label, const Expr& e, bool substituted,
                                const std::function<std::string(const std::vector<std::string>&)>& body,
                                const std::vector<std::string>& args) {
  const std::pair<const Expr*, bool> key{&e, substituted};
  auto it = definitions_.find(key);
  if (it == definitions_.end()) {
    const std::string name = symbol("d_" + label, static_cast<std::uint32_t>(definitions_.size() + 1));
    auto xs = fresh(e.arity());
    definition_axioms_.push_back(
        {name, e.arity(), forall(xs, fmt::format("(= ({} {}) {})", name, fmt::join(xs, " "), body(xs)))});
    it = definitions_.emplace(key, name).first;
  }
  return fmt::format("({} {})", it->second, fmt::join(args, " "));
}

std::string SmtProblem::member(const Expr& e, const std::vector<std::string>& args) {
  // A named expression (wr, writer, hb) without free variables becomes a
  // predicate defined once: provers reason better over definitions than
  // over the same formula inlined everywhere.
  if (!e.label.empty() && e.free.empty() && !defining_) {
    return defined(e.label, e, substitutes_in(e), [&](const std::vector<std::string>& xs) {
      defining_ = true;
      std::string body = member(e, xs);
      defining_ = false;
      return body;
    }, args);
  }
  defining_ = false;
  using Op = Expr::Op;
  const auto& k = e.kids;
  switch (e.op) {
    case Op::Relation: {
      if (in_goal_ && !substituting_)
        if (auto it = substitution_.find(e.rel->id); it != substitution_.end()) {
          // The witness map's term, defined once, kept inside the
          // relation's declared sorts.
          const ExprPtr& term = it->second;
          return defined(e.rel->name + "_mapped", *term, true, [&](const std::vector<std::string>& xs) {
            std::vector<std::string> parts;
            for (std::size_t i = 0; i < xs.size(); ++i) parts.push_back(in_sort(e.rel->type[i], xs[i]));
            substituting_ = true;
            parts.push_back(member(*term, xs));
            substituting_ = false;
            return conj(parts);
          }, args);
        }
      return fmt::format("({} {})", relation(*e.rel), fmt::join(args, " "));
    }
    case Op::Variable: return fmt::format("(= {} {})", args[0], variable(*e.var));
    case Op::Sort: return in_sort(e.sort, args[0]);
    case Op::Iden: return fmt::format("(= {} {})", args[0], args[1]);
    case Op::Univ: return "true";
    case Op::None: return "false";
    case Op::Union: return disj({member(*k[0], args), member(*k[1], args)});
    case Op::Inter: return conj({member(*k[0], args), member(*k[1], args)});
    case Op::Diff: return fmt::format("(and {} (not {}))", member(*k[0], args), member(*k[1], args));
    case Op::Join: {
      const std::size_t p = k[0]->arity();
      // A variable (tuple) on either side names the joined atom: no
      // existential for it.
      std::vector<std::string> vt;
      if (variable_tuple(*k[0], vt)) {
        std::vector<std::string> parts, right{vt.back()};
        for (std::size_t i = 0; i + 1 < vt.size(); ++i) parts.push_back(fmt::format("(= {} {})", args[i], vt[i]));
        for (std::size_t i = p - 1; i < args.size(); ++i) right.push_back(args[i]);
        parts.push_back(member(*k[1], right));
        return conj(parts);
      }
      if (variable_tuple(*k[1], vt)) {
        std::vector<std::string> parts, left = slice(args, 0, p - 1);
        left.push_back(vt.front());
        parts.push_back(member(*k[0], left));
        for (std::size_t i = 1; i < vt.size(); ++i) parts.push_back(fmt::format("(= {} {})", args[p - 2 + i], vt[i]));
        return conj(parts);
      }
      const std::string z = fresh(1)[0];
      std::vector<std::string> left = slice(args, 0, p - 1), right{z};
      left.push_back(z);
      for (std::size_t i = p - 1; i < args.size(); ++i) right.push_back(args[i]);
      return exists({z}, conj({member(*k[0], left), member(*k[1], right)}));
    }
    case Op::Product: {
      const std::size_t p = k[0]->arity();
      return conj({member(*k[0], slice(args, 0, p)), member(*k[1], slice(args, p, args.size() - p))});
    }
    case Op::Transpose: return member(*k[0], {args[1], args[0]});
    case Op::Closure: return cover_call(k[0], args[0], args[1]);
    case Op::RClosure:
      return fmt::format("(or {} (and (= {} {}) {}))", cover_call(k[0], args[0], args[1]), args[0], args[1],
                         in_sort(e.type[0], args[0]));
    case Op::Project: return projection(e, args);
    case Op::Ite:
      return fmt::format("(ite {} {} {})", formula(*e.cond, Polarity::Both), member(*k[0], args),
                         member(*k[1], args));
    case Op::Comprehension: {
      std::vector<std::string> lets, parts;
      for (std::size_t i = 0; i < e.decls.size(); ++i) {
        const std::string v = variable(*e.decls[i].var);
        lets.push_back(fmt::format("({} {})", v, args[i]));
        parts.push_back(member(*e.decls[i].domain, {v}));
      }
      parts.push_back(formula(*e.cond, Polarity::Both));
      return fmt::format("(let ({}) {})", fmt::join(lets, " "), conj(parts));
    }
  }
  throw std::logic_error("unknown expression");
}

bool SmtProblem::variable_tuple(const Expr& e, std::vector<std::string>& names) {
  if (e.op == Expr::Op::Variable) {
    names.push_back(variable(*e.var));
    return true;
  }
  if (e.op != Expr::Op::Product) return false;
  const std::size_t before = names.size();
  if (variable_tuple(*e.kids[0], names) && variable_tuple(*e.kids[1], names)) return true;
  names.resize(before);
  return false;
}

std::string SmtProblem::projection(const Expr& e, const std::vector<std::string>& args) {
  // The kid's tuple: the projected columns from args (a column projected
  // twice must hold one atom), the others existential.
  const Expr& kid = *e.kids[0];
  std::vector<std::string> tuple(kid.arity()), hidden, same;
  for (std::size_t i = 0; i < e.cols.size(); ++i) {
    std::string& slot = tuple[static_cast<std::size_t>(e.cols[i])];
    if (slot.empty()) slot = args[i];
    else same.push_back(fmt::format("(= {} {})", slot, args[i]));
  }
  for (auto& slot : tuple)
    if (slot.empty()) {
      slot = fresh(1)[0];
      hidden.push_back(slot);
    }
  same.push_back(member(kid, tuple));
  return exists(hidden, conj(same));
}

std::string SmtProblem::text(std::size_t k) const {
  std::string out = "; isosynth --prove: unsat proves the claim for every finite history (docs/proofs.md)\n";
  out += "(set-logic UF)\n(declare-sort U 0)\n";
  std::vector<std::string> sorts;
  for (SortId s : kSorts) {
    out += fmt::format("(declare-fun {} (U) Bool)\n", sort_predicate(s));
    sorts.push_back(in_sort(s, "u"));
  }
  for (const auto& [id, named] : relations_)
    out += fmt::format("(declare-fun {} ({}) Bool)\n", named.first, fmt::join(std::vector<std::string>(named.second, "U"), " "));
  for (const auto& [key, c] : covers_)
    out += fmt::format("(declare-fun {} ({}) Bool)\n", c.name,
                       fmt::join(std::vector<std::string>(c.params.size() + 2, "U"), " "));
  for (const auto& d : definition_axioms_)
    out += fmt::format("(declare-fun {} ({}) Bool)\n", d.name, fmt::join(std::vector<std::string>(d.arity, "U"), " "));
  out += "; every atom has exactly one sort\n";
  out += fmt::format("(assert (forall ((u U)) {}))\n", disj(sorts));
  for (std::size_t i = 0; i < sorts.size(); ++i)
    for (std::size_t j = i + 1; j < sorts.size(); ++j)
      out += fmt::format("(assert (forall ((u U)) (not (and {} {}))))\n", sorts[i], sorts[j]);
  out += "; relations hold of atoms of their columns' sorts\n";
  for (const auto& [id, named] : relations_) {
    const Type& t = typed_.at(id);
    std::vector<std::string> xs, in;
    for (std::size_t i = 0; i < t.size(); ++i) {
      xs.push_back(fmt::format("x{}", i));
      in.push_back(in_sort(t[i], xs.back()));
    }
    out += fmt::format("(assert {})\n", forall(xs, fmt::format("(=> ({} {}) {})", named.first, fmt::join(xs, " "), conj(in))));
  }
  out += "; definitions: named expressions and the witness map's terms\n";
  for (const auto& d : definition_axioms_) out += fmt::format("(assert {})\n", d.axiom);
  out += "; closures: each a transitive relation containing what it closes, made of its steps\n";
  for (const auto& a : cover_axioms_) out += fmt::format("(assert {})\n", a);
  for (const auto& [why, term] : hypotheses_) out += fmt::format("; hypothesis: {}\n(assert {})\n", why, term);
  out += fmt::format("; goal {} of {}: {}\n(assert (not {}))\n(check-sat)\n", k + 1, goals_.size(),
                     goals_[k].first, goals_[k].second);
  return out;
}

}  // namespace iso::prove
