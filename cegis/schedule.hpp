// The schedule of a synthesis run, as MiniSat's solve_() around search():
// which settings the CEGIS search (cegis/search.hpp) runs under, for how
// many conflicts, and what changes when a budget is spent
// (docs/synthesis.md, "Key symmetry").
//
// Without keys numbered by first use in the space, the key symmetry is
// broken in one of two ways, each under selectors (assumptions), each giving
// a complete search: keys numbered by first use after all (the search
// starts so: histories are found as without the option), or, once a solve
// call takes more than `first_use_conflicts`, by the violation of one
// template of the first deny level (cegis/key_symmetry.hpp). Which template
// refutes fastest depends on the problem (the template whose witness the
// allow level's own proof would use), so the search takes them in turn,
// each for a budget of conflicts per solve call that starts at
// `template_conflicts` and doubles every round.
//
// Facts (the templates' happens-before transitivity, and the implied facts
// of the allow execution whose order is fixed, cegis/implied_facts.hpp)
// cost a few solver calls of their own: they are added once the search has
// taken `implied_facts_after` conflicts in all.
#pragma once

#include <optional>

#include "cegis/search.hpp"

namespace iso::cegis {

// Runs `search`, built, to its outcome under the schedule of `opt`.
// `ordering`: the allow level whose order is fixed to the index order, if
// any. Fills `result` (outcome, and history and witnesses when Found).
void run_schedule(Search& search, const Problem& p, std::optional<std::size_t> ordering, const SynthOptions& opt,
                  SynthResult& result);

}  // namespace iso::cegis
