// The spec language's evaluator (`--eval`, as Alloy's): an expression of
// the spec language (SpecLibrary::expression, parsed and run in the sandbox)
// evaluated on a history and, for an expression over `e`, a level's
// witness: a relation, printed as its tuples of transaction, key, value and
// read-event names, or a formula, printed as its truth value. It is
// evaluated by the translation every level is decided by: the history as
// the concrete instance of engine/model/concrete.hpp, the witness's
// relations as constants, the expression translated by engine/logic into
// circuit constants. When written values repeat, read-from is a choice of
// the execution: the witness's choices are taken, and for reads the
// witness leaves open (or without a witness) one legal choice, said so when
// another choice would give another value.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "engine/decide/witness.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso::lua {

struct EvalValue {
  bool is_formula = false;
  bool truth = false;                             // a formula's value
  std::vector<std::vector<std::string>> tuples;  // a relation's, in atom order, as atom names
  // Values repeat, and another legal read-from (one the witness leaves
  // open) gives another value: this one holds for one choice.
  bool read_from_chosen = false;
  // "true", "false", or "{T1->T2, T2->T3}" as Alloy prints a relation.
  std::string text() const;
};

// Evaluates `x` on `h` and, when x reads `e`, the witness `w` of `level`
// (both required then; x.framework is level's). `level` also says which
// reads the history's view sets aside (Level::permits); without one, none.
// Throws std::invalid_argument (one line) for a history with no execution
// (an INT violation or a read no write explains).
EvalValue evaluate(const SpecLibrary::Expression& x, const History& h, const Level* level, const Witness* w);

}  // namespace iso::lua
