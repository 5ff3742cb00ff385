// Relational logic in the style of Kodkod's `ast`: expressions denote
// relations (sets of tuples of atoms), formulas denote truth values.
// Nodes are immutable and shared; every factory checks arity and sorts and
// throws TypeError with a message a spec author can act on.
//
// Nodes built while limits are armed (limits.hpp) are refused past them
// with LimitError: too deep, too large, too wide.
//
// Sorts are small integers fixed by the caller's schema (the history schema
// uses Txn, Obj, Val); kAnySort is the column type of iden and univ, and
// unifies with every sort.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/logic/limits.hpp"

namespace iso::logic {

using SortId = int;
inline constexpr SortId kAnySort = -1;
using Type = std::vector<SortId>;  // one sort per column; size = arity

class TypeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Names of sorts for messages; set once by the schema.
void set_sort_names(std::vector<std::string> names);
std::string sort_name(SortId s);
std::string type_name(const Type& t);  // "Txn->Obj"

// What relations and variables share: a fresh id, which is their identity
// (bounds and environments are keyed by it), and the name messages print.
struct Named {
  std::uint32_t id;
  std::string name;
};

struct Relation : Named {
  Type type;
};
using RelationPtr = std::shared_ptr<const Relation>;
RelationPtr make_relation(std::string name, Type type);  // fresh id

struct Variable : Named {
  SortId sort;
};
using VariablePtr = std::shared_ptr<const Variable>;
VariablePtr make_variable(std::string name, SortId sort);  // fresh id

struct Expr;
struct Formula;
using ExprPtr = std::shared_ptr<const Expr>;
using FormulaPtr = std::shared_ptr<const Formula>;

// A quantified variable and the unary expression it ranges over.
struct Decl {
  VariablePtr var;
  ExprPtr domain;
};

struct Expr {
  enum class Op {
    Relation, Variable, Sort, Iden, Univ, None,
    Union, Inter, Diff, Join, Product,
    Transpose, Closure, RClosure, Project, Ite, Comprehension
  };
  Expr(Op o, Type t) : op(o), type(std::move(t)) {}
  Op op;
  Type type;
  RelationPtr rel;                  // Relation
  VariablePtr var;                  // Variable
  SortId sort = kAnySort;           // Sort
  std::vector<ExprPtr> kids;        // operands
  FormulaPtr cond;                  // Ite condition, Comprehension body
  std::vector<Decl> decls;          // Comprehension
  std::vector<int> cols;            // Project
  std::vector<std::uint32_t> free;  // free variable ids, sorted
  std::uint32_t depth = 1;          // nesting, as NodeLimits::max_depth counts it
  detail::LiveCharge charge;        // this node's share of live_bytes()
  // The name the node is printed by, when it has one (named()): "wr" for
  // the projection of wrx on its first and last columns.
  std::string label;

  std::size_t arity() const { return type.size(); }
};

struct Formula {
  enum class Op {
    Const, Subset, Equal, Some, No, One, Lone,
    Not, And, Or, Implies, Iff, Forall, Exists, Acyclic, TotalOrder
  };
  explicit Formula(Op o) : op(o) {}
  Op op;
  bool value = false;               // Const
  std::vector<ExprPtr> exprs;       // Subset/Equal: 2; multiplicities, Acyclic: 1; TotalOrder: rel, domain
  std::vector<FormulaPtr> kids;     // connectives; quantifier body is kids[0]
  std::vector<Decl> decls;          // Forall, Exists
  std::vector<std::uint32_t> free;  // free variable ids, sorted
  std::uint32_t depth = 1;          // nesting, as NodeLimits::max_depth counts it
  detail::LiveCharge charge;        // this node's share of live_bytes()
};

// --- expressions -------------------------------------------------------------
ExprPtr rel(const RelationPtr& r);
ExprPtr var(const VariablePtr& v);
ExprPtr sort(SortId s);
ExprPtr iden();
ExprPtr univ();
ExprPtr none(const Type& t);
ExprPtr union_(const ExprPtr& a, const ExprPtr& b);
ExprPtr inter(const ExprPtr& a, const ExprPtr& b);
ExprPtr diff(const ExprPtr& a, const ExprPtr& b);
ExprPtr join(const ExprPtr& a, const ExprPtr& b);
ExprPtr product(const ExprPtr& a, const ExprPtr& b);
ExprPtr transpose(const ExprPtr& a);
ExprPtr closure(const ExprPtr& a);   // ^a
ExprPtr rclosure(const ExprPtr& a);  // *a = ^a + iden on a's column sort
ExprPtr project(const ExprPtr& a, std::vector<int> cols);
ExprPtr ite(const FormulaPtr& c, const ExprPtr& a, const ExprPtr& b);
ExprPtr comprehension(std::vector<Decl> decls, const FormulaPtr& body);
// The same expression, printed as `label` (a derived relation of a schema:
// "wr", "writer").
ExprPtr named(const ExprPtr& e, std::string label);

// --- formulas ----------------------------------------------------------------
FormulaPtr constant(bool v);
FormulaPtr subset(const ExprPtr& a, const ExprPtr& b);  // a in b
FormulaPtr equal(const ExprPtr& a, const ExprPtr& b);
FormulaPtr some(const ExprPtr& a);
FormulaPtr no(const ExprPtr& a);
FormulaPtr one(const ExprPtr& a);
FormulaPtr lone(const ExprPtr& a);
FormulaPtr not_(const FormulaPtr& f);
FormulaPtr and_(std::vector<FormulaPtr> fs);
FormulaPtr or_(std::vector<FormulaPtr> fs);
FormulaPtr and_(const FormulaPtr& a, const FormulaPtr& b);
FormulaPtr or_(const FormulaPtr& a, const FormulaPtr& b);
FormulaPtr implies(const FormulaPtr& a, const FormulaPtr& b);
FormulaPtr iff(const FormulaPtr& a, const FormulaPtr& b);
FormulaPtr forall(std::vector<Decl> decls, const FormulaPtr& body);
FormulaPtr exists(std::vector<Decl> decls, const FormulaPtr& body);
FormulaPtr acyclic(const ExprPtr& r);
FormulaPtr total_order(const ExprPtr& r, const ExprPtr& domain);  // strict total order on domain
// (a1 -> ... -> ak) in r: the membership test r(a1, ..., ak).
FormulaPtr member(const std::vector<ExprPtr>& atoms, const ExprPtr& r);

// At most about `max_chars` characters, "..." marking the cut: formulas are
// DAGs whose tree can be exponentially larger than their nodes.
std::string to_string(const ExprPtr& e, std::size_t max_chars = 200);
std::string to_string(const FormulaPtr& f, std::size_t max_chars = 200);

// Does the formula mention relation r anywhere (shared nodes visited once)?
bool mentions(const FormulaPtr& f, const Relation& r);
// Does any expression in it have a column of sort s (a relation over s, a
// variable of s, s itself, anything built from them)?
bool mentions_sort(const FormulaPtr& f, SortId s);

}  // namespace iso::logic
