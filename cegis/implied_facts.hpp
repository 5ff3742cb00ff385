// Implied facts: formulas that tie an allow execution's free witness
// relation to the history in one step, each added to the search only once
// proved for the level at hand (docs/synthesis.md). An allow execution whose
// order is fixed to the index order may have one more witness relation on
// Txn (Cerone et al.'s visibility), free cell by cell; proofs that every
// history the level allows has some property then go through many small
// steps per instance, which the solver rediscovers instance by instance. A
// proved fact holds in every execution the level allows, so adding it
// excludes no solution.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "cegis/history_space.hpp"
#include "lua/spec_library.hpp"

namespace iso::cegis {

// The index of the witness relation the facts are about, when the framework
// has exactly two witness relations, an order on Txn and a relation on Txn
// (the latter's index); nullopt otherwise (no fact applies).
std::optional<std::size_t> free_slot(const lua::Framework& fw);

// The facts proved for `level` in the space (its order fixed to the index
// order), to be translated under the bindings of the level's execution whose
// order is fixed. Cached per level, scope and space options. Precondition: a
// budget::ScopedHeartbeat reports progress meanwhile.
const std::vector<logic::FormulaPtr>& implied_facts(const lua::Level& level, const Scope& scope,
                                                    const SpaceOptions& space);

}  // namespace iso::cegis
