// What every history has that a level can allow, as relational formulas over
// the history schema (engine/model/schema.hpp): the hypotheses a proof may
// use about h. Each holds by how histories are built (docs/proofs.md lists
// them with the reason); a fact left out only makes fewer claims provable.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "engine/logic/ast.hpp"

namespace iso::prove {

struct HistoryFact {
  std::string name;  // "session order is a strict partial order with T0 first"
  logic::FormulaPtr formula;
};

struct HistoryShape {
  // The levels read operation-level histories (the sort Read): add what
  // ties read events to reads and wrx.
  bool read_events = false;
  // Every transaction in its own session: so = {T0} × T⁺.
  bool session_free = false;
};

std::vector<HistoryFact> history_facts(const HistoryShape& shape);

// `wrx` is a read-from of h: each pair a final write and an external read of
// one value by two transactions, each external read with a writer of its
// value. With `one_per_value` (what a witness map that re-chooses read-from
// must show, witness_maps.hpp), exactly one writer per key and value read:
// then it is the projection of a choice per read event, each event of that
// key and value reading from that writer.
std::vector<HistoryFact> read_from(const logic::ExprPtr& wrx, bool one_per_value);

}  // namespace iso::prove
