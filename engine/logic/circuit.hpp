// A hash-consed boolean circuit with constant folding, in the style of
// Kodkod's engine/bool. Gates are n-ary ANDs over literals; OR is an AND of
// negations, negated. A literal is a gate index times two plus a negation
// bit; gate 0 is the constant TRUE, so kTrue = 0 and kFalse = 1.
//
// Structural sharing matters: quantifier unrolling produces the same
// sub-formula many times, and a fixed relation (a history under check, a
// fixed commit order) folds whole sub-circuits to constants.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace iso::logic {

struct BLit {
  std::uint32_t x = 0;
  std::uint32_t node() const { return x >> 1; }
  bool negated() const { return (x & 1u) != 0; }
  BLit operator!() const { return BLit{x ^ 1u}; }
  friend bool operator==(BLit a, BLit b) { return a.x == b.x; }
  friend bool operator<(BLit a, BLit b) { return a.x < b.x; }
};

inline constexpr BLit kTrue{0};
inline constexpr BLit kFalse{1};

class Circuit {
 public:
  enum class Kind : std::uint8_t { Const, Input, And };
  struct Gate {
    Kind kind;
    std::uint32_t input;             // Input: the input's number
    std::vector<BLit> kids;          // And: sorted, unique, no constants
  };

  Circuit();

  BLit input();                      // a fresh free variable
  BLit and_(std::span<const BLit> kids);
  BLit or_(std::span<const BLit> kids);
  BLit and_(BLit a, BLit b);
  BLit or_(BLit a, BLit b) { return !and_(!a, !b); }
  BLit implies(BLit a, BLit b) { return or_(!a, b); }
  BLit iff(BLit a, BLit b);
  BLit ite(BLit c, BLit t, BLit e);
  // At most one of the literals, pairwise (the groups encoded here are small).
  BLit at_most_one(std::span<const BLit> lits);

  const Gate& gate(std::uint32_t node) const { return gates_[node]; }
  std::size_t num_gates() const { return gates_.size(); }
  std::uint32_t num_inputs() const { return num_inputs_; }
  static bool is_const(BLit l) { return l.node() == 0; }

  // Evaluates a literal given the values of the inputs (by input number).
  bool eval(BLit l, const std::vector<bool>& inputs) const;

 private:
  struct KeyHash {
    std::size_t operator()(const std::vector<BLit>& v) const;
  };
  struct KeyEq {
    bool operator()(const std::vector<BLit>& a, const std::vector<BLit>& b) const {
      return a == b;
    }
  };
  std::vector<Gate> gates_;
  std::unordered_map<std::vector<BLit>, std::uint32_t, KeyHash, KeyEq> and_index_;
  // Two-input gates, the common case, hash-consed without allocating.
  std::unordered_map<std::uint64_t, std::uint32_t> pair_index_;
  BLit pair_gate(BLit a, BLit b);  // a < b, distinct nodes, no constants
  std::uint32_t num_inputs_ = 0;
  std::vector<BLit> scratch_;
};

}  // namespace iso::logic
