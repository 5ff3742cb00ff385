// Clausal form of circuit literals for the SAT adapter: Tseitin's encoding
// with Plaisted–Greenbaum polarity, emitted lazily and incrementally. A gate
// gets a solver variable the first time it is needed, and only the clauses of
// the polarity in which it is used; a later use in the other polarity adds
// the missing half. So CEGIS can keep asserting new lemmas over one circuit
// and one solver.
#pragma once

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "engine/logic/circuit.hpp"
#include "engine/sat/solver.hpp"

namespace iso::logic {

class CnfEncoder {
 public:
  CnfEncoder(const Circuit& c, sat::Solver& s) : c_(c), s_(s) {}

  // Adds clauses making `l` true. A top-level AND becomes its conjuncts, an
  // OR becomes one clause, so the common case needs no gate variables.
  void assert_true(BLit l);
  // A solver literal equivalent to `l` in both directions (for assumptions).
  sat::Lit literal(BLit l);
  // Values of every circuit input in the solver's current model (inputs never
  // encoded are false): feed to Circuit::eval.
  std::vector<bool> input_values() const;

 private:
  sat::Lit encode(BLit l, bool positive);  // positive: l needs to imply its gate's meaning
  sat::Lit var_of(std::uint32_t node);

  // A gate on encode()'s stack.
  struct Frame {
    BLit l;
    sat::Lit v;
    bool want_pos = false;  // the gate is needed in polarity positive XOR negated
    bool open = false;      // its clauses are being emitted now
    std::size_t next = 0;   // its next kid
    std::vector<sat::Lit> clause;  // !want_pos: the clause "all kids -> v"
  };
  std::vector<Frame> stack_;

  const Circuit& c_;
  sat::Solver& s_;
  std::vector<std::int64_t> var_;   // node -> solver var, -1 if none
  std::vector<std::uint8_t> done_;  // node -> bit 1: positive emitted, bit 2: negative
  std::vector<std::int64_t> input_var_;  // input number -> solver var
  std::unordered_set<std::uint32_t> asserted_;  // literals (BLit::x) already asserted true
};

}  // namespace iso::logic
