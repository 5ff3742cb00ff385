// Translation of relational formulas to the boolean circuit (Kodkod's
// fol2sat): each expression becomes a BoolMatrix, each formula a literal.
// Quantifiers are unrolled over the atoms their domains may contain.
//
// Relations get their matrices from Bindings, so one formula can be
// translated against several instantiations (one witness per execution in
// synthesis) over one shared circuit. Sub-expressions are memoised on the
// node and the atoms bound to its free variables: `(so + wr):closure()` is
// translated once however many quantifiers surround it.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "engine/logic/ast.hpp"
#include "engine/logic/circuit.hpp"
#include "engine/logic/matrix.hpp"
#include "engine/logic/universe.hpp"

namespace iso::logic {

// Raised when a formula is too large to unroll for the universe at hand (a
// runaway quantifier nest), or when it uses something the bindings lack.
class TranslationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Relation id -> its matrix in one instantiation; and, for a sort whose
// atoms are only candidates (the synthesizer's read-event slots, some of
// which stay unused), its extent: a unary matrix saying which atoms exist.
// A sort without an extent is all of its atoms; `univ` is the union of the
// sorts' extents.
class Bindings {
 public:
  void bind(const RelationPtr& r, BoolMatrix m) { map_[r->id] = std::move(m); }
  const BoolMatrix* find(const Relation& r) const {
    auto it = map_.find(r.id);
    return it == map_.end() ? nullptr : &it->second;
  }
  void bind_extent(SortId s, BoolMatrix m) { extents_[s] = std::move(m); }
  const BoolMatrix* extent(SortId s) const {
    auto it = extents_.find(s);
    return it == extents_.end() ? nullptr : &it->second;
  }

 private:
  std::unordered_map<std::uint32_t, BoolMatrix> map_;
  std::unordered_map<SortId, BoolMatrix> extents_;
};

// Matrix helpers for bounds: constant tuples, and fresh variables for the
// tuples between a lower and an upper bound.
BoolMatrix constant_matrix(std::uint32_t n, std::uint32_t arity,
                           const std::vector<std::vector<Atom>>& tuples);
BoolMatrix variable_matrix(Circuit& c, std::uint32_t n, std::uint32_t arity,
                           const std::vector<std::vector<Atom>>& lower,
                           const std::vector<std::vector<Atom>>& upper);

struct TranslationStats {
  std::uint64_t work = 0;            // cells and quantifier instances produced
  std::uint64_t cache_hits = 0;
};

class Translator {
 public:
  // `work_limit` bounds the total work; past it a TranslationError is thrown.
  Translator(const Universe& u, Circuit& c, const Bindings& b,
             std::uint64_t work_limit = 50'000'000);

  BLit formula(const FormulaPtr& f);
  BoolMatrix expr(const ExprPtr& e) { return *matrix(e); }

  // Binds a quantified variable to an atom for the translations that follow,
  // until unbound: lets a caller unroll a formula's outer quantifiers itself
  // and translate each instance of the body on its own.
  void bind_variable(const Variable& v, Atom a) { bind(v.id, a); }
  void unbind_variable(const Variable& v) { unbind(v.id); }

  const TranslationStats& stats() const { return stats_; }

 private:
  // Matrices are shared, not copied: a cached relation is looked up by
  // every membership test inside a quantifier.
  std::shared_ptr<const BoolMatrix> matrix(const ExprPtr& e);
  BoolMatrix expr_uncached(const Expr& e);
  BLit formula_uncached(const Formula& f);
  // And (`decisive` false) or Or (`decisive` true) of f's kids, translated in
  // order and cut short at the first kid equal to `decisive`.
  BLit junction(const Formula& f, BLit decisive);
  BLit quantify(const Formula& f, std::size_t decl, std::vector<BLit>& parts, bool universal);
  void comprehend(const Expr& e, std::size_t decl, std::vector<Atom>& tuple, BLit guard,
                  std::vector<std::pair<Index, BLit>>& out);
  BoolMatrix sort_matrix(SortId s) const;
  // When e is a product of bound variables, its one tuple's index.
  bool tuple_of_variables(const Expr& e, Index& idx) const;
  void charge(std::uint64_t units);
  // Keyed by node address and the atoms bound to its free variables; the
  // node is kept alive with its entry so that its address cannot be reused.
  // A node whose free variables are all the variables bound right now can
  // never be met again with the same atoms, so it is not cached at all; nor
  // is one with more free variables than a key holds.
  struct Key {
    const void* node = nullptr;
    std::uint32_t size = 0;
    std::array<Atom, 8> atoms{};
    friend bool operator==(const Key& a, const Key& b) {
      return a.node == b.node && a.size == b.size &&
             std::equal(a.atoms.begin(), a.atoms.begin() + a.size, b.atoms.begin());
    }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  bool cacheable(const std::vector<std::uint32_t>& free) const {
    return free.size() <= 8 && (free.empty() || free.size() < bound_);
  }
  Key key(const void* node, const std::vector<std::uint32_t>& free) const;

  // Variable id -> bound atom (kUnbound when not bound).
  static constexpr Atom kUnbound = UINT32_MAX;
  Atom lookup(std::uint32_t var) const { return var < env_.size() ? env_[var] : kUnbound; }
  void bind(std::uint32_t var, Atom a);
  void unbind(std::uint32_t var);

  const Universe& u_;
  Circuit& c_;
  const Bindings& b_;
  std::uint64_t limit_;
  TranslationStats stats_;
  std::vector<Atom> env_;
  std::uint32_t bound_ = 0;
  std::unordered_map<Key, std::pair<ExprPtr, std::shared_ptr<const BoolMatrix>>, KeyHash> expr_cache_;
  std::unordered_map<Key, std::pair<FormulaPtr, BLit>, KeyHash> formula_cache_;
};

}  // namespace iso::logic
