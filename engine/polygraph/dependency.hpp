// What the graph checkers add to the typed dependency edges
// (engine/verdict/dependency.hpp): the events an edge orders in a
// snapshot-isolation schedule, and the read-from choices of a witness.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/history/history.hpp"
#include "engine/verdict/dependency.hpp"

namespace iso::poly {

// Which events of its two transactions an edge orders in a snapshot-isolation
// schedule (Viper's BC-graph): a dependency (so, wr, ww) and RT put a's
// commit before b's begin, an anti-dependency and RTBC a's begin before b's
// commit, RTCC a's commit before b's commit.
struct ScheduleArc {
  bool from_commit;  // a's commit (else its begin)
  bool to_commit;    // b's commit (else its begin)
};
inline ScheduleArc schedule_arc(Dep d) {
  switch (d) {
    case Dep::RW:
    case Dep::RTBC: return {false, true};
    case Dep::RTCC: return {true, true};
    default: return {true, false};
  }
}

// A read-from choice, where written values repeat: the read event at `op`
// (an index into the reader's operations) of `key` returns `writer`'s final
// write of the key.
struct ChosenRead {
  TxnId writer = 0;
  TxnId reader = 0;
  std::uint32_t op = 0;
  KeyId key = 0;
  friend bool operator==(const ChosenRead&, const ChosenRead&) = default;
  friend auto operator<=>(const ChosenRead&, const ChosenRead&) = default;
};

// A begin or commit of a transaction in a snapshot-isolation schedule: the
// order of these events is the SI checker's witness (execution.cpp).
struct ScheduleEvent {
  TxnId txn = 0;
  bool commit = false;
};

}  // namespace iso::poly
