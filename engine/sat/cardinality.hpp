// Cardinality constraints over the solver's literals: at most one, exactly
// one. Pairwise clauses for a few literals; Sinz's sequential counter (2005)
// for more: auxiliary s_i = "one of lits[0..i] is true", 3n clauses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "engine/sat/solver.hpp"

namespace iso::sat {

struct CardinalityOptions {
  // The counter's auxiliary variable s_i is used negated from this index on,
  // so that a solver whose default polarity is `false` starts with the
  // literals before it false and those from it true, consistently (a caller
  // whose preferred literal is at that index). Default: never negated.
  std::size_t negate_aux_from = SIZE_MAX;
};

// At most one of `lits`.
void at_most_one(Solver& s, std::span<const Lit> lits,
                        const CardinalityOptions& opt = {});

// Exactly one of `lits`, or, with a guard g, exactly one when g is true and
// none required otherwise (the at-least-one clause gets ~g).
void exactly_one(Solver& s, std::span<const Lit> lits, std::optional<Lit> guard = {},
                 const CardinalityOptions& opt = {});

}  // namespace iso::sat
