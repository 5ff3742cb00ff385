// A graph checker's execution in a framework's own terms. The polygraph and
// saturation find a commit order (for SI also a begin/commit schedule); a
// level's framework wants its declared witness relations. The constructions,
// by the shape of the declaration:
//  - one order on Txn (Biswas–Enea co): the commit order itself. For SER it
//    is a serialization; for SI the order of the schedule's commits, whose
//    prefixes before each begin are the snapshots (Prefix and Conflict hold
//    of it); for RA and CC a topological order of the saturated graph.
//  - an order on Txn and a Txn->Txn relation (Cerone et al.'s ar and vis):
//    ar = the commit order; vis = every earlier transaction for SER (TOTALVIS
//    and EXT hold), the snapshot (committed before the begin) for SI (PREFIX
//    and NOCONFLICT hold of a schedule). RA and CC have none here.
//  - one Obj->Txn->Txn relation (Adya's ww): each key's writers in commit
//    order, T0 first when it writes the key.
// Anything else: no witness (the caller says the commit order instead).
#pragma once

#include <optional>
#include <tuple>
#include <vector>

#include "engine/decide/witness.hpp"
#include "engine/level/level.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso {

struct GraphExecution {
  GraphLevel level = GraphLevel::Ser;
  std::vector<TxnId> commit_order;                  // T0 first: the members that committed
  std::vector<ScheduleEvent> schedule;              // SI: begins and commits (T0 excluded)
  std::vector<poly::ChosenRead> chosen_reads;
  std::vector<TxnId> committed_unknown;
  // The predicate writes' writes that happened (poly::CheckResult).
  std::vector<std::pair<TxnId, KeyId>> predicate_writes;
};

std::optional<Witness> framework_witness(const History& h, const Framework& fw,
                                         const GraphExecution& e);

}  // namespace iso
