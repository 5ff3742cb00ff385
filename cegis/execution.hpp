// An execution of a level inside the candidate formula: a framework's
// witness relations bound to matrices over the history space's universe,
// with, under repeated values, the execution's own read-from. The search
// (cegis/search.hpp) makes one per allow level and decodes the model's
// witnesses through it; the proofs about the space (cegis/space_proofs.hpp)
// make one over a space of their own.
//
// Witnesses are exchanged with the oracle as tuples of transactions, keys
// and values: an execution's witness relations are over Txn, Obj and Val
// only (check_witness_sorts refuses the others).
#pragma once

#include <cstdint>
#include <vector>

#include "cegis/history_space.hpp"
#include "engine/decide/decide.hpp"
#include "lua/spec_library.hpp"

namespace iso::cegis {

struct Execution {
  const lua::Framework* framework;
  std::vector<logic::BoolMatrix> witness;  // in framework->witness order
  logic::Bindings bindings;
  // With repeated values, the execution's own read-from (in `bindings`) is
  // well formed: exactly one writer per read event.
  logic::BLit wellformed = logic::kTrue;
};

// Throws lua::SpecError unless every witness relation of `fw` is over Txn,
// Obj and Val (a column over read events has no counterpart in the oracle's
// witnesses, whose read events are another history's).
void check_witness_sorts(const lua::Framework& fw);

// Is `w` an order on transactions?
bool is_txn_order(const WitnessDecl& w);

// The execution of `fw` over `space`, its witness relations fresh variables
// of `c`, except, with `fix_order`, its first order on Txn: the space's
// index order. Its well-formedness is `wellformed`, for the caller to assert.
Execution make_execution(const lua::Framework& fw, const HistorySpace& space, logic::Circuit& c, bool fix_order);

// The witness of `e` under the circuit inputs `inputs` (a model), without
// the aborted transactions among the space's `n_txns` + 1.
Witness decode_witness(const Execution& e, const logic::Circuit& c, const std::vector<bool>& inputs,
                       const HistorySpace& space, std::uint32_t n_txns);

// With dirty reads: the history has a read that `level` does not permit
// (an aborted read, an intermediate read), which violates it before its
// formula is evaluated, as decide() has it (engine/level/level.hpp,
// Level::permits). kFalse for a level that permits both, or without them.
logic::BLit unpermitted_read(const HistorySpace& space, const lua::Level& level, logic::Circuit& c);

}  // namespace iso::cegis
