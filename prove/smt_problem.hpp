// A claim "hypotheses ⇒ goal" over relational formulas (engine/logic/ast.hpp),
// written as an SMT-LIB 2 script whose answer "unsat" proves the claim for
// every finite history (docs/proofs.md).
//
// The translation is first-order, one sort U for all atoms, with a unary
// predicate per sort (Txn, Obj, Val, Read) that partitions U, and a predicate
// per relation. Everything translates exactly except what first-order logic
// cannot say, and there the translation only ever makes the claim harder to
// prove, never easier:
//   - A closure ^r (or *r) becomes a fresh predicate T with the axioms "T is
//     transitive", "r ⊆ T" and "T ⊆ r ∪ r;T, T ⊆ r ∪ T;r", parameterized
//     by the closure's free variables, and "T ⊆ O where r ⊆ O" for each O
//     the hypotheses make transitive (orders(), linearizations, R;R ⊆ R
//     conjuncts known when T is made): the closure is the least transitive
//     relation containing r. The real closure is one such T, so a claim
//     proved for every T holds for it: sound wherever it occurs.
//   - acyclic(r) becomes "T irreflexive" for that T (the same argument), and
//     in two places something better:
//       * as a conjunct of the hypotheses (outside any connective, without
//         free variables): "L is a strict total order on r's sort and
//         r ⊆ L" for a fresh L. Every finite acyclic r has such an L (a
//         linearization), so assuming one loses nothing; L is then a term a
//         witness map may use (linearizations()).
//       * where the goal needs it positively: also "r ⊆ O" for each strict
//         order O the hypotheses assert (orders()), which implies it.
//   - Every other construct is exact (total_order, joins, projections,
//     comprehensions, multiplicities).
// A proof over all first-order models is a proof over the finite ones.
//
// Preconditions: every formula is well typed (ast.hpp checks that); every
// relation the goal mentions is declared by a hypothesis or substituted.
// Postcondition of text(): a self-contained SMT-LIB 2 script (logic UF) that
// z3 and cvc5 read.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engine/logic/ast.hpp"

namespace iso::prove {

// A strict total order the hypotheses assumed for an acyclic relation.
struct Linearization {
  logic::RelationPtr order;  // L, over the relation's column sort
  logic::ExprPtr of;         // the acyclic relation r ⊆ L
};

// Deliberate errors in the translation, for the test that shows the
// soundness test can fail (tests/unit/test_prove.cpp); never set otherwise.
//   ClosureIsStep:    ^r translated as r, as if r were transitive
//   OrderNotTotal:    a goal's total_order(r, D) without "r is total on D"
enum class Mutation { None, ClosureIsStep, OrderNotTotal };
void set_mutation(Mutation m);

// The SMT-LIB symbol a relation is declared as ("so_4"), and the predicate
// of a sort ("is_Txn"): what a prover's model names them by.
std::string relation_symbol(const logic::Relation& r);
std::string sort_symbol(logic::SortId s);

class SmtProblem {
 public:
  // A hypothesis: assumed. Conjunctions are split; a conjunct acyclic(r)
  // without free variables assumes a linearization of r.
  void assume(const logic::FormulaPtr& f, const std::string& why);
  // A strict partial order the hypotheses already assert (a witness's
  // order), which the goal's acyclic(r) may be shown by: r ⊆ O.
  void add_order(logic::ExprPtr order);
  // Where the goal mentions relation `r`, the expression `term` instead,
  // restricted to r's column sorts (a witness map). The term is over the
  // hypotheses' relations: no substitution applies inside it.
  void substitute(const logic::Relation& r, logic::ExprPtr term);
  // A conjunct of the goal; conjunctions are split, each part its own goal.
  void require(const logic::FormulaPtr& f, const std::string& why);
  std::size_t goals() const { return goals_.size(); }
  const std::string& goal_reason(std::size_t k) const { return goals_[k].first; }

  const std::vector<Linearization>& linearizations() const { return linearizations_; }
  const std::vector<logic::ExprPtr>& orders() const { return orders_; }

  // The script for goal k: declarations, the axioms of sorts and closures,
  // the hypotheses, goal k negated, (check-sat). The claim is proved when
  // every goal's script is unsat.
  std::string text(std::size_t k) const;

 private:
  enum class Polarity { Positive, Negative, Both };
  // A transitive relation containing r: the stand-in for r's closure.
  struct Cover {
    std::string name;
    std::vector<std::string> params;  // r's free variables, by their SMT names
  };

  std::string formula(const logic::Formula& f, Polarity p);
  std::string member(const logic::Expr& e, const std::vector<std::string>& args);
  // Is e a variable or a product of variables? Appends their SMT names.
  bool variable_tuple(const logic::Expr& e, std::vector<std::string>& names);
  std::string projection(const logic::Expr& e, const std::vector<std::string>& args);
  std::string quantified(const logic::Formula& f, Polarity p);
  std::string acyclic(const logic::Formula& f, Polarity p);
  std::string total_order(const logic::ExprPtr& r, const logic::ExprPtr& domain);
  std::string multiplicity(const logic::Formula& f);
  bool substitutes_in(const logic::Expr& e) const;
  // The predicate defined as `body` for e (once per e and substitution),
  // applied to args.
  std::string defined(const std::string& label, const logic::Expr& e, bool substituted,
                      const std::function<std::string(const std::vector<std::string>&)>& body,
                      const std::vector<std::string>& args);
  const Cover& cover(const logic::ExprPtr& r);
  std::string cover_call(const logic::ExprPtr& r, const std::string& a, const std::string& b);
  std::string relation(const logic::Relation& r);
  std::string variable(const logic::Variable& v);
  std::vector<std::string> fresh(std::size_t n);
  void assume_conjunct(const logic::FormulaPtr& f, const std::string& why);
  void require_conjunct(const logic::FormulaPtr& f, const std::string& why);
  static std::vector<logic::FormulaPtr> split(const logic::FormulaPtr& f);

  std::map<std::uint32_t, std::pair<std::string, std::size_t>> relations_;  // id -> name, arity
  std::map<std::uint32_t, std::string> variables_;
  std::map<std::uint32_t, logic::Type> typed_;                              // id -> column sorts
  std::map<std::pair<const logic::Expr*, bool>, Cover> covers_;
  std::vector<std::string> cover_axioms_;
  struct Definition {
    std::string name;
    std::size_t arity;
    std::string axiom;
  };
  std::map<std::pair<const logic::Expr*, bool>, std::string> definitions_;
  std::vector<Definition> definition_axioms_;
  bool defining_ = false;  // translating a definition's body: the expression itself, not its name
  std::map<std::uint32_t, logic::ExprPtr> substitution_;
  bool in_goal_ = false;
  bool substituting_ = false;  // inside a substituted term: no further substitution
  std::vector<Linearization> linearizations_;
  std::vector<logic::ExprPtr> orders_;
  std::vector<logic::ExprPtr> transitive_;  // relations the hypotheses make transitive (R;R ⊆ R)
  std::vector<std::pair<std::string, std::string>> hypotheses_;  // (comment, term)
  std::vector<std::pair<std::string, std::string>> goals_;
  std::size_t fresh_ = 0;
};

}  // namespace iso::prove
