// How the history space may be numbered (docs/synthesis.md, "The scope"),
// decided before the search and never assumed: may transactions be numbered
// along so ∪ wr (SpaceOptions::index_ordered), and may an allow level's
// first order on Txn be fixed to the index order? Each question is answered
// by the level's own formulas, read directly or through a SAT refutation
// over a space of its own (at most a few thousand conflicts: past them the
// answer is no, the sound, slower road), cached per question, level, scope
// and space options.
//
// Precondition of both: a budget::ScopedHeartbeat reports progress
// meanwhile (building a space polls the budget).
#pragma once

#include "cegis/history_space.hpp"
#include "lua/spec_library.hpp"

namespace iso::cegis {

// Does the framework's well-formedness make its first order on Txn contain
// so ∪ wr in every history of the space? Then every solution has so ∪ wr
// acyclic, and the space may be numbered along that order, fixed to the
// index order. Stated in so many words, or wf ∧ ¬(so ∪ wr ⊆ order) refuted.
// Biswas–Enea's co contains so ∪ wr by definition, Cerone's ar through
// SESSION and EXT (its wf states the consequence); Adya's framework has no
// such order.
bool order_contains_so_wr(const lua::Framework& fw, const Scope& scope, const SpaceOptions& space);

// Does every history `level` allows have so ∪ wr acyclic? (Then numbering
// transactions along it is sound, even when no order of the level's
// contains it: Adya's PL-2 and stronger without sessions.)
bool so_wr_acyclic(const lua::Level& level, const Scope& scope, const SpaceOptions& space);

}  // namespace iso::cegis
