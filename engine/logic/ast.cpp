// The node factories of ast.hpp, with their arity and sort checks, and the
// printing and searching of formulas.
#include "engine/logic/ast.hpp"

#include <algorithm>
#include <atomic>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

namespace iso::logic {

namespace {

std::vector<std::string>& sort_names() {
  static std::vector<std::string> names;
  return names;
}

std::atomic<std::uint32_t> next_relation_id{0};
std::atomic<std::uint32_t> next_variable_id{0};

bool compatible(SortId a, SortId b) { return a == kAnySort || b == kAnySort || a == b; }
SortId meet(SortId a, SortId b) { return a == kAnySort ? b : a; }

std::vector<std::uint32_t> merge_free(std::vector<std::uint32_t> a,
                                      const std::vector<std::uint32_t>& b) {
  std::vector<std::uint32_t> out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// All at once rather than one merge per operand, which is quadratic for a
// conjunction of many formulas with distinct free variables.
template <class Node>
std::vector<std::uint32_t> free_of(const std::vector<std::shared_ptr<const Node>>& kids) {
  std::vector<std::uint32_t> f;
  for (const auto& k : kids) f.insert(f.end(), k->free.begin(), k->free.end());
  std::sort(f.begin(), f.end());
  f.erase(std::unique(f.begin(), f.end()), f.end());
  return f;
}

// One deeper than the deepest operand, plus one per declared variable: the
// translator unrolls a quantifier one declaration per stack frame.
template <class Node>
std::uint32_t depth_of(const Node& n, std::uint32_t deepest) {
  for (const auto& k : n.kids) deepest = std::max(deepest, k->depth);
  for (const Decl& d : n.decls) deepest = std::max(deepest, d.domain->depth);
  return 1 + deepest + static_cast<std::uint32_t>(n.decls.size());
}

template <class Node>
std::size_t bytes_of(const Node& n, std::size_t operands) {
  constexpr std::size_t kControlBlock = 16;  // make_shared's reference counts
  return sizeof(Node) + kControlBlock + operands * sizeof(std::shared_ptr<const Node>) +
         n.decls.size() * sizeof(Decl) + n.free.size() * sizeof(std::uint32_t);
}

// Every node is made here: its depth and size are admitted against the
// armed limits (limits.hpp) and charged to the live count.
ExprPtr make(Expr e) {
  const std::uint32_t depth = depth_of(e, e.cond ? e.cond->depth : 0);
  const std::size_t bytes =
      bytes_of(e, e.kids.size()) + (e.cols.size() + e.type.size()) * sizeof(int);
  detail::admit_node(depth, bytes, e.arity());
  e.depth = depth;
  e.charge = detail::LiveCharge(bytes);
  return std::make_shared<const Expr>(std::move(e));
}

FormulaPtr make(Formula f) {
  std::uint32_t deepest = 0;
  for (const auto& x : f.exprs) deepest = std::max(deepest, x->depth);
  const std::uint32_t depth = depth_of(f, deepest);
  const std::size_t bytes = bytes_of(f, f.kids.size() + f.exprs.size());
  detail::admit_node(depth, bytes, 0);
  f.depth = depth;
  f.charge = detail::LiveCharge(bytes);
  return std::make_shared<const Formula>(std::move(f));
}

Type same_type(const char* op, const ExprPtr& a, const ExprPtr& b) {
  if (a->arity() != b->arity())
    throw TypeError(fmt::format("{}: arity mismatch: {} has arity {}, {} has arity {}", op,
                                to_string(a), a->arity(), to_string(b), b->arity()));
  Type t(a->arity());
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!compatible(a->type[i], b->type[i]))
      throw TypeError(fmt::format("{}: sort mismatch: {} is {} but {} is {}", op, to_string(a),
                                  type_name(a->type), to_string(b), type_name(b->type)));
    t[i] = meet(a->type[i], b->type[i]);
  }
  return t;
}

void check_decls(const std::vector<Decl>& decls) {
  if (decls.empty()) throw TypeError("a quantifier needs at least one variable");
  for (const Decl& d : decls)
    if (d.domain->arity() != 1)
      throw TypeError(fmt::format("a quantified variable ranges over a set; {} has arity {}",
                                  to_string(d.domain), d.domain->arity()));
}

std::vector<std::uint32_t> decls_free(const std::vector<Decl>& decls,
                                      const std::vector<std::uint32_t>& body_free) {
  // A domain may mention variables declared before it, not after. In one
  // pass over each list rather than one per declaration: a quantifier may
  // declare many variables.
  std::unordered_map<std::uint32_t, std::size_t> declared;  // variable -> its declaration
  for (std::size_t i = 0; i < decls.size(); ++i) declared.emplace(decls[i].var->id, i);
  std::vector<std::uint32_t> f;
  for (std::uint32_t v : body_free)
    if (!declared.count(v)) f.push_back(v);
  for (std::size_t i = 0; i < decls.size(); ++i)
    for (std::uint32_t v : decls[i].domain->free) {
      auto it = declared.find(v);
      if (it == declared.end() || it->second >= i) f.push_back(v);
    }
  std::sort(f.begin(), f.end());
  f.erase(std::unique(f.begin(), f.end()), f.end());
  return f;
}

FormulaPtr multiplicity(Formula::Op op, const ExprPtr& a) {
  Formula f{op};
  f.exprs = {a};
  f.free = a->free;
  return make(std::move(f));
}

}  // namespace

void set_sort_names(std::vector<std::string> names) { sort_names() = std::move(names); }

std::string sort_name(SortId s) {
  if (s == kAnySort) return "univ";
  if (s >= 0 && static_cast<std::size_t>(s) < sort_names().size()) return sort_names()[s];
  return fmt::format("sort{}", s);
}

std::string type_name(const Type& t) {
  if (t.empty()) return "()";
  std::string s;
  for (std::size_t i = 0; i < t.size(); ++i) s += (i ? "->" : "") + sort_name(t[i]);
  return s;
}

RelationPtr make_relation(std::string name, Type type) {
  return std::make_shared<const Relation>(Relation{{next_relation_id++, std::move(name)}, std::move(type)});
}

VariablePtr make_variable(std::string name, SortId s) {
  return std::make_shared<const Variable>(Variable{{next_variable_id++, std::move(name)}, s});
}

ExprPtr rel(const RelationPtr& r) {
  Expr e{Expr::Op::Relation, r->type};
  e.rel = r;
  return make(std::move(e));
}

ExprPtr var(const VariablePtr& v) {
  Expr e{Expr::Op::Variable, {v->sort}};
  e.var = v;
  e.free = {v->id};
  return make(std::move(e));
}

ExprPtr sort(SortId s) {
  Expr e{Expr::Op::Sort, {s}};
  e.sort = s;
  return make(std::move(e));
}

ExprPtr iden() { return make(Expr{Expr::Op::Iden, {kAnySort, kAnySort}}); }
ExprPtr univ() { return make(Expr{Expr::Op::Univ, {kAnySort}}); }

ExprPtr none(const Type& t) {
  if (t.empty()) throw TypeError("none: arity must be at least 1");
  return make(Expr{Expr::Op::None, t});
}

static ExprPtr binary(Expr::Op op, Type t, const ExprPtr& a, const ExprPtr& b) {
  Expr e{op, std::move(t)};
  e.kids = {a, b};
  e.free = free_of(e.kids);
  return make(std::move(e));
}

ExprPtr union_(const ExprPtr& a, const ExprPtr& b) {
  return binary(Expr::Op::Union, same_type("union (+)", a, b), a, b);
}
ExprPtr inter(const ExprPtr& a, const ExprPtr& b) {
  return binary(Expr::Op::Inter, same_type("intersection (&)", a, b), a, b);
}
ExprPtr diff(const ExprPtr& a, const ExprPtr& b) {
  same_type("difference (-)", a, b);
  return binary(Expr::Op::Diff, a->type, a, b);
}

ExprPtr join(const ExprPtr& a, const ExprPtr& b) {
  if (a->arity() + b->arity() < 3)
    throw TypeError(fmt::format("join (..): {} and {} are both sets; their join would have arity 0 "
                                "(use some(a & b) to test for a common element)",
                                to_string(a), to_string(b)));
  SortId l = a->type.back(), r = b->type.front();
  if (!compatible(l, r))
    throw TypeError(fmt::format("join (..): sort mismatch: {} ends with {} but {} starts with {}",
                                to_string(a), sort_name(l), to_string(b), sort_name(r)));
  Type t(a->type.begin(), a->type.end() - 1);
  t.insert(t.end(), b->type.begin() + 1, b->type.end());
  return binary(Expr::Op::Join, std::move(t), a, b);
}

ExprPtr product(const ExprPtr& a, const ExprPtr& b) {
  Type t = a->type;
  t.insert(t.end(), b->type.begin(), b->type.end());
  return binary(Expr::Op::Product, std::move(t), a, b);
}

static ExprPtr unary_binary_rel(Expr::Op op, const char* name, const ExprPtr& a, Type t) {
  if (a->arity() != 2)
    throw TypeError(fmt::format("{} needs a binary relation; {} has arity {}", name, to_string(a),
                                a->arity()));
  Expr e{op, std::move(t)};
  e.kids = {a};
  e.free = a->free;
  return make(std::move(e));
}

ExprPtr transpose(const ExprPtr& a) {
  Type t = a->type;
  if (t.size() == 2) std::swap(t[0], t[1]);
  return unary_binary_rel(Expr::Op::Transpose, "transpose (~)", a, t);
}

// closure and rclosure: a binary relation on one sort, closed on it.
static ExprPtr closure_of(Expr::Op op, const char* name, const ExprPtr& a) {
  if (a->arity() == 2 && !compatible(a->type[0], a->type[1]))
    throw TypeError(fmt::format("{}: {} relates {} to {}; only a relation on one sort can be "
                                "closed", name, to_string(a), sort_name(a->type[0]), sort_name(a->type[1])));
  SortId s = a->arity() == 2 ? meet(a->type[0], a->type[1]) : kAnySort;
  return unary_binary_rel(op, name, a, {s, s});
}

ExprPtr closure(const ExprPtr& a) { return closure_of(Expr::Op::Closure, "closure", a); }

ExprPtr rclosure(const ExprPtr& a) { return closure_of(Expr::Op::RClosure, "rclosure", a); }

ExprPtr project(const ExprPtr& a, std::vector<int> cols) {
  if (cols.empty()) throw TypeError("project: no columns given");
  Type t;
  for (int c : cols) {
    if (c < 0 || static_cast<std::size_t>(c) >= a->arity())
      throw TypeError(fmt::format("project: column {} out of range for {} (arity {})", c + 1,
                                  to_string(a), a->arity()));
    t.push_back(a->type[c]);
  }
  Expr e{Expr::Op::Project, std::move(t)};
  e.kids = {a};
  e.cols = std::move(cols);
  e.free = a->free;
  return make(std::move(e));
}

ExprPtr ite(const FormulaPtr& c, const ExprPtr& a, const ExprPtr& b) {
  Expr e{Expr::Op::Ite, same_type("ite", a, b)};
  e.cond = c;
  e.kids = {a, b};
  e.free = merge_free(free_of(e.kids), c->free);
  return make(std::move(e));
}

ExprPtr comprehension(std::vector<Decl> decls, const FormulaPtr& body) {
  check_decls(decls);
  Type t;
  for (const Decl& d : decls) t.push_back(d.domain->type[0]);
  Expr e{Expr::Op::Comprehension, std::move(t)};
  e.free = decls_free(decls, body->free);
  e.cond = body;
  e.decls = std::move(decls);
  return make(std::move(e));
}

ExprPtr named(const ExprPtr& e, std::string label) {
  Expr c{e->op, e->type};
  c.rel = e->rel;
  c.var = e->var;
  c.sort = e->sort;
  c.kids = e->kids;
  c.cond = e->cond;
  c.decls = e->decls;
  c.cols = e->cols;
  c.free = e->free;
  c.label = std::move(label);
  return make(std::move(c));
}

FormulaPtr constant(bool v) {
  Formula f{Formula::Op::Const};
  f.value = v;
  return make(std::move(f));
}

static FormulaPtr compare(Formula::Op op, const char* name, const ExprPtr& a, const ExprPtr& b) {
  same_type(name, a, b);
  Formula f{op};
  f.exprs = {a, b};
  f.free = free_of(f.exprs);
  return make(std::move(f));
}

FormulaPtr subset(const ExprPtr& a, const ExprPtr& b) { return compare(Formula::Op::Subset, "in", a, b); }
FormulaPtr equal(const ExprPtr& a, const ExprPtr& b) { return compare(Formula::Op::Equal, "eq", a, b); }
FormulaPtr some(const ExprPtr& a) { return multiplicity(Formula::Op::Some, a); }
FormulaPtr no(const ExprPtr& a) { return multiplicity(Formula::Op::No, a); }
FormulaPtr one(const ExprPtr& a) { return multiplicity(Formula::Op::One, a); }
FormulaPtr lone(const ExprPtr& a) { return multiplicity(Formula::Op::Lone, a); }

FormulaPtr not_(const FormulaPtr& a) {
  if (a->op == Formula::Op::Const) return constant(!a->value);
  if (a->op == Formula::Op::Not) return a->kids[0];
  Formula f{Formula::Op::Not};
  f.kids = {a};
  f.free = a->free;
  return make(std::move(f));
}

static FormulaPtr nary(Formula::Op op, std::vector<FormulaPtr> fs) {
  bool unit = (op == Formula::Op::And);  // the neutral element
  std::vector<FormulaPtr> kids;
  for (auto& k : fs) {
    if (k->op == Formula::Op::Const) {
      if (k->value != unit) return constant(!unit);
      continue;
    }
    if (k->op == op) {
      kids.insert(kids.end(), k->kids.begin(), k->kids.end());
    } else {
      kids.push_back(std::move(k));
    }
  }
  if (kids.empty()) return constant(unit);
  if (kids.size() == 1) return kids[0];
  Formula f{op};
  f.free = free_of(kids);
  f.kids = std::move(kids);
  return make(std::move(f));
}

FormulaPtr and_(std::vector<FormulaPtr> fs) { return nary(Formula::Op::And, std::move(fs)); }
FormulaPtr or_(std::vector<FormulaPtr> fs) { return nary(Formula::Op::Or, std::move(fs)); }
FormulaPtr and_(const FormulaPtr& a, const FormulaPtr& b) { return and_(std::vector{a, b}); }
FormulaPtr or_(const FormulaPtr& a, const FormulaPtr& b) { return or_(std::vector{a, b}); }

FormulaPtr implies(const FormulaPtr& a, const FormulaPtr& b) {
  Formula f{Formula::Op::Implies};
  f.kids = {a, b};
  f.free = free_of(f.kids);
  return make(std::move(f));
}

FormulaPtr iff(const FormulaPtr& a, const FormulaPtr& b) {
  Formula f{Formula::Op::Iff};
  f.kids = {a, b};
  f.free = free_of(f.kids);
  return make(std::move(f));
}

static FormulaPtr quantifier(Formula::Op op, std::vector<Decl> decls, const FormulaPtr& body) {
  check_decls(decls);
  Formula f{op};
  f.free = decls_free(decls, body->free);
  f.kids = {body};
  f.decls = std::move(decls);
  return make(std::move(f));
}

FormulaPtr forall(std::vector<Decl> decls, const FormulaPtr& body) {
  return quantifier(Formula::Op::Forall, std::move(decls), body);
}
FormulaPtr exists(std::vector<Decl> decls, const FormulaPtr& body) {
  return quantifier(Formula::Op::Exists, std::move(decls), body);
}

FormulaPtr acyclic(const ExprPtr& r) {
  if (r->arity() != 2)
    throw TypeError(fmt::format("acyclic needs a binary relation; {} has arity {}", to_string(r),
                                r->arity()));
  return multiplicity(Formula::Op::Acyclic, r);
}

FormulaPtr total_order(const ExprPtr& r, const ExprPtr& domain) {
  if (r->arity() != 2)
    throw TypeError(fmt::format("total_order needs a binary relation; {} has arity {}",
                                to_string(r), r->arity()));
  if (domain->arity() != 1)
    throw TypeError(fmt::format("total_order: the domain {} must be a set", to_string(domain)));
  Formula f{Formula::Op::TotalOrder};
  f.exprs = {r, domain};
  f.free = free_of(f.exprs);
  return make(std::move(f));
}

FormulaPtr member(const std::vector<ExprPtr>& atoms, const ExprPtr& r) {
  if (atoms.size() != r->arity())
    throw TypeError(fmt::format("{} has arity {} but was applied to {} argument{}", to_string(r),
                                r->arity(), atoms.size(), atoms.size() == 1 ? "" : "s"));
  ExprPtr tuple;
  for (std::size_t i = 0; i < atoms.size(); ++i) {
    if (atoms[i]->arity() != 1)
      throw TypeError(fmt::format("argument {} of {}(...) must be a set, not {} of arity {}", i + 1,
                                  to_string(r), to_string(atoms[i]), atoms[i]->arity()));
    if (!compatible(atoms[i]->type[0], r->type[i]))
      throw TypeError(fmt::format("argument {} of {}(...) is {} but the relation expects {}", i + 1,
                                  to_string(r), sort_name(atoms[i]->type[0]), sort_name(r->type[i])));
    tuple = tuple ? product(tuple, atoms[i]) : atoms[i];
  }
  return subset(tuple, r);
}

// --- printing ------------------------------------------------------------------

namespace {

// Writes a node's text, stopping once `max` characters are out: the walk
// follows the tree, not the DAG, so an unbounded one could take exponential
// time (r = r + r, twenty times over).
class Printer {
 public:
  explicit Printer(std::size_t max) : max_(max) {}

  void expr(const Expr& e) {
    using Op = Expr::Op;
    if (full()) return;
    if (!e.label.empty()) return put(e.label);
    switch (e.op) {
      case Op::Relation: return put(e.rel->name);
      case Op::Variable: return put(e.var->name);
      case Op::Sort: return put(sort_name(e.sort));
      case Op::Iden: return put("iden");
      case Op::Univ: return put("univ");
      case Op::None: return put("none");
      case Op::Union: return infix(e, " + ");
      case Op::Inter: return infix(e, " & ");
      case Op::Diff: return infix(e, " - ");
      case Op::Product: return infix(e, " * ");
      case Op::Join:
        expr(*e.kids[0]);
        put("..");
        return expr(*e.kids[1]);
      case Op::Transpose: return wrapped("~", *e.kids[0], "");
      case Op::Closure: return wrapped("", *e.kids[0], ":closure()");
      case Op::RClosure: return wrapped("", *e.kids[0], ":rclosure()");
      case Op::Project: return wrapped("project(", *e.kids[0], ")");
      case Op::Ite: return put("ite(...)");
      case Op::Comprehension:
        // Alloy's set comprehension: {s: Txn, t: Txn | body}.
        put("{");
        decls(e.decls);
        put(" | ");
        formula(*e.cond);
        return put("}");
    }
    put("?");
  }

  void formula(const Formula& f) {
    using Op = Formula::Op;
    if (full()) return;
    switch (f.op) {
      case Op::Const: return put(f.value ? "TRUE" : "FALSE");
      case Op::Subset: return compare(f, " in ");
      case Op::Equal: return compare(f, " = ");
      case Op::Some: return wrapped("some ", *f.exprs[0], "");
      case Op::No: return wrapped("no ", *f.exprs[0], "");
      case Op::One: return wrapped("one ", *f.exprs[0], "");
      case Op::Lone: return wrapped("lone ", *f.exprs[0], "");
      case Op::Not:
        put("~");
        return formula(*f.kids[0]);
      case Op::And: return connective(f, " & ");
      case Op::Or: return connective(f, " | ");
      case Op::Implies: return connective(f, " => ");
      case Op::Iff: return connective(f, " <=> ");
      case Op::Forall:
      case Op::Exists:
        put(f.op == Op::Forall ? "forall " : "exists ");
        decls(f.decls);
        put(" | ");
        return formula(*f.kids[0]);
      case Op::Acyclic: return wrapped("acyclic(", *f.exprs[0], ")");
      case Op::TotalOrder: return wrapped("total_order(", *f.exprs[0], ")");
    }
    put("?");
  }

  std::string take() {
    if (cut_) out_ += "...";
    return std::move(out_);
  }

 private:
  bool full() {
    if (out_.size() >= max_) cut_ = true;
    return cut_;
  }
  void put(std::string_view s) {
    if (!full()) out_.append(s.substr(0, max_ - out_.size()));
  }
  void infix(const Expr& e, std::string_view op) {
    put("(");
    expr(*e.kids[0]);
    put(op);
    expr(*e.kids[1]);
    put(")");
  }
  void decls(const std::vector<Decl>& ds) {
    for (std::size_t i = 0; i < ds.size() && !full(); ++i) {
      if (i) put(", ");
      put(ds[i].var->name);
      put(": ");
      expr(*ds[i].domain);
    }
  }
  void compare(const Formula& f, std::string_view op) {
    expr(*f.exprs[0]);
    put(op);
    expr(*f.exprs[1]);
  }
  void wrapped(std::string_view before, const Expr& e, std::string_view after) {
    put(before);
    expr(e);
    put(after);
  }
  void connective(const Formula& f, std::string_view sep) {
    put("(");
    for (std::size_t i = 0; i < f.kids.size() && !full(); ++i) {
      if (i) put(sep);
      formula(*f.kids[i]);
    }
    put(")");
  }

  std::size_t max_;
  std::string out_;
  bool cut_ = false;
};

}  // namespace

std::string to_string(const ExprPtr& e, std::size_t max_chars) {
  Printer p(max_chars);
  p.expr(*e);
  return p.take();
}

std::string to_string(const FormulaPtr& f, std::size_t max_chars) {
  Printer p(max_chars);
  p.formula(*f);
  return p.take();
}

namespace {

// Depth-first over the DAG for an expression node that `hit` accepts; `seen`
// holds the nodes already visited.
template <class Hit>
struct MentionSearch {
  Hit hit;
  std::unordered_set<const void*> seen;

  bool expr(const Expr& e) {
    if (!seen.insert(&e).second) return false;
    if (hit(e)) return true;
    for (const auto& k : e.kids)
      if (expr(*k)) return true;
    for (const auto& d : e.decls)
      if (expr(*d.domain)) return true;
    return e.cond && formula(*e.cond);
  }
  bool formula(const Formula& f) {
    if (!seen.insert(&f).second) return false;
    for (const auto& x : f.exprs)
      if (expr(*x)) return true;
    for (const auto& k : f.kids)
      if (formula(*k)) return true;
    for (const auto& d : f.decls)
      if (expr(*d.domain)) return true;
    return false;
  }
};

template <class Hit>
bool search(const FormulaPtr& f, Hit hit) {
  MentionSearch<Hit> s{std::move(hit), {}};
  return s.formula(*f);
}

}  // namespace

bool mentions(const FormulaPtr& f, const Relation& r) {
  return search(f, [&](const Expr& e) { return e.op == Expr::Op::Relation && e.rel->id == r.id; });
}

bool mentions_sort(const FormulaPtr& f, SortId s) {
  return search(f, [&](const Expr& e) {
    return std::find(e.type.begin(), e.type.end(), s) != e.type.end();
  });
}

}  // namespace iso::logic
