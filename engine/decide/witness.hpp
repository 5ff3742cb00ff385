// What an allowed verdict shows: a witness in the level's framework's own
// terms (a commit order co, visibility and arbitration, a version order per
// key, ...), the read-from it chose where written values repeat, and which
// transactions of unknown status it took as committed. A witness printed by
// isosynth is one that the level's formula accepts (tests re-check every
// kind against the definitions).
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/history/history.hpp"
#include "engine/logic/ast.hpp"

namespace iso {

// One declared witness relation with its tuples. A tuple holds, per column,
// a TxnId (sort Txn), a KeyId (Obj) or a ValueId (Val).
struct WitnessRelation {
  std::string name;                                // "co", "vis", "ar", "ww"
  logic::Type type;                                // the columns' sorts
  bool order = false;                              // declared order(S)
  std::vector<TxnId> sequence;                     // order(Txn): first to last
  std::vector<std::vector<std::uint32_t>> tuples;  // the relation's tuples
};

// A begin or commit of a transaction in a snapshot-isolation schedule.
struct ScheduleEvent {
  TxnId txn = 0;
  bool commit = false;
};

struct Witness {
  std::vector<WitnessRelation> relations;  // in the framework's declaration order
  // Read-from, for reads with several candidate writers: (writer, key, reader).
  std::vector<std::tuple<TxnId, KeyId, TxnId>> chosen_reads;
  // Transactions of unknown status taken as committed.
  std::vector<TxnId> committed_unknown;
  // Snapshot isolation decided by the graph checker: every transaction's
  // begin and commit in an order that explains the history (each reads the
  // latest versions committed before its begin; no two whose begin-commit
  // intervals overlap write the same key). Empty otherwise.
  std::vector<ScheduleEvent> schedule;

  const WitnessRelation* find(std::string_view name) const {
    for (const auto& r : relations)
      if (r.name == name) return &r;
    return nullptr;
  }
};

// The sequence of a strict total order given by its pairs, over `txns`.
std::vector<TxnId> order_sequence(const std::vector<std::vector<std::uint32_t>>& pairs,
                                  const std::vector<TxnId>& txns);

}  // namespace iso
