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
#include "engine/polygraph/dependency.hpp"

namespace iso {

// One declared witness relation. Small witnesses (the generic oracle's)
// list their tuples; the graph checkers' witnesses, for histories of any
// size, keep the compact form they are built in, since an order on 100,000
// transactions has 5 billion pairs. tuples_of() lists any form.
struct WitnessRelation {
  enum class Form : std::uint8_t {
    Tuples,     // `tuples` lists the relation
    Order,      // the strict total order `sequence` on Txn: every pair a before b
    PerKey,     // each key's strict total order `per_key` (a version order, Obj->Txn->Txn)
    Snapshots,  // (u, t): u committed before t began in Witness::schedule; T0 before all
  };
  std::string name;                                // "co", "vis", "ar", "ww"
  logic::Type type;                                // the columns' sorts
  bool order = false;                              // declared order(S)
  Form form = Form::Tuples;
  std::vector<TxnId> sequence;                     // an order on Txn: first to last
  std::vector<std::pair<KeyId, std::vector<TxnId>>> per_key;
  // A tuple holds, per column, a TxnId (sort Txn), a KeyId (Obj) or a
  // ValueId (Val).
  std::vector<std::vector<std::uint32_t>> tuples;
};

using poly::ScheduleEvent;

struct Witness {
  std::vector<WitnessRelation> relations;  // in the framework's declaration order
  // Read-from, for read events with several candidate writers.
  std::vector<poly::ChosenRead> chosen_reads;
  // Transactions of unknown status taken as committed.
  std::vector<TxnId> committed_unknown;
  // Snapshot isolation decided by the graph checker: every transaction's
  // begin and commit in an order that explains the history (each reads the
  // latest versions committed before its begin; no two whose begin-commit
  // intervals overlap write the same key). Empty otherwise.
  std::vector<ScheduleEvent> schedule;
};

// Every tuple of `r` (whatever its form), sorted: quadratic for orders, so
// for small histories (pinning a witness in the generic oracle, drawing it).
std::vector<std::vector<std::uint32_t>> tuples_of(const Witness& w, const WitnessRelation& r);

// The sequence of a strict total order given by its pairs, over `txns`.
std::vector<TxnId> order_sequence(const std::vector<std::vector<std::uint32_t>>& pairs,
                                  const std::vector<TxnId>& txns);

// A per-key order (Obj->Txn->Txn, e.g. Adya's ww) as each key's sequence,
// first to last, in key order, whatever the relation's form.
std::vector<std::pair<KeyId, std::vector<TxnId>>> key_sequences(const WitnessRelation& r);

}  // namespace iso
