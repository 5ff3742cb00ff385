// Which transactions a violation needs (for levels decided without a named
// cycle, where the generic oracle can only say that no witness exists): a
// smallest-by-deletion set of transactions whose part of the history the
// level still rejects, and without any one of which it allows.
#pragma once

#include <optional>
#include <vector>

#include "engine/decide/decide.hpp"

namespace iso {

// The part of `h` made of T0 and the transactions with keep[t]: the others
// lose their operations (an empty transaction is invisible to every level),
// and so do the reads of values only they wrote, which would otherwise read
// from nowhere.
History part_of(const History& h, const std::vector<bool>& keep);

// Precondition: `level` rejects `h` (decide() says Violated). Returns the
// core, ascending, or nullopt when the history has more than `max_txns`
// transactions with operations or a sub-decision is not Violated/Allowed
// (e.g. the time limit). Postcondition: the level rejects part_of(h, core)
// and allows part_of(h, core without t) for every t in the core.
std::optional<std::vector<TxnId>> violation_core(const History& h, const Level& level,
                                                 const DecideOptions& opt, std::size_t max_txns = 24);

}  // namespace iso
