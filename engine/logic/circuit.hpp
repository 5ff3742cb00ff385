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
    std::uint32_t input;  // Input: the input's number
    std::uint32_t first;  // And: its kids are kids_[first, first + size)
    std::uint32_t size;
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
  // At most one of the literals: pairwise for up to kPairwiseAtMostOne of
  // them (no gates beyond the pairs), else a ladder of 2n gates.
  static constexpr std::size_t kPairwiseAtMostOne = 64;
  BLit at_most_one(std::span<const BLit> lits);

  const Gate& gate(std::uint32_t node) const { return gates_[node]; }
  // An And gate's kids: sorted, unique, no constants. Valid until the next
  // gate is made.
  std::span<const BLit> kids(std::uint32_t node) const {
    const Gate& g = gates_[node];
    return {kids_.data() + g.first, g.size};
  }
  std::size_t num_gates() const { return gates_.size(); }
  std::uint32_t num_inputs() const { return num_inputs_; }

  // Evaluates a literal given the values of the inputs (by input number).
  bool eval(BLit l, const std::vector<bool>& inputs) const;

 private:
  // The And gate with exactly these kids (normalized), made if new.
  BLit make_and(std::span<const BLit> kids);
  void grow_index();

  // Every And gate's kids in one array, and the hash-consing index as an
  // open-addressing table of gate ids (0: empty; gate 0 is the constant)
  // with each gate's hash beside it. Translations make millions of gates:
  // one allocation per gate and a node-based map made building them, and
  // freeing them when a run is cut short, cost seconds.
  struct Slot {
    std::uint32_t gate = 0;
    std::uint32_t hash = 0;
  };
  std::vector<Gate> gates_;
  std::vector<BLit> kids_;
  std::vector<Slot> index_;  // size a power of two, at most half full
  std::size_t indexed_ = 0;
  std::uint32_t num_inputs_ = 0;
  std::vector<BLit> scratch_;
};

}  // namespace iso::logic
