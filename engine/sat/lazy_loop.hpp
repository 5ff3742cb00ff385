// The loop behind every lazily encoded theory (acyclicity of a polygraph,
// of a saturated graph): solve; hand the model to the theory, which either
// accepts it or adds clauses that exclude it (each a fact every solution
// satisfies); repeat until a model is accepted or none is left. The run's
// deadline (engine/util/budget.hpp) bounds it: a TimeoutError leaves through
// the solver.
#pragma once

#include <cstddef>

#include "engine/sat/solver.hpp"

namespace iso::sat {

// `refine()` returns how many clauses it added: 0 accepts the current model.
// A theory that adds none must accept, or the loop would not end.
// `progress(rounds)` is called after every refused model.
// Returns Sat (a model was accepted; the solver holds it) or Unsat.
template <class Refine, class Progress>
Result lazy_solve(Solver& solver, std::size_t& rounds, Refine&& refine, Progress&& progress) {
  for (;;) {
    Result r = solver.solve();
    if (r != Result::Sat) return r;
    ++rounds;
    if (refine() == 0) return Result::Sat;
    progress(rounds);
  }
}

}  // namespace iso::sat
