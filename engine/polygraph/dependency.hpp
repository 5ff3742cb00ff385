// Typed dependency edges between transactions (Adya 1999; VeriStrong Def.
// 3.1): session order, write-read, write-write and read-write (anti-)
// dependencies, each on a key (the key is meaningless for SO).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/history/history.hpp"

namespace iso::poly {

// RT: real time (History::real_time_before), for a level whose commit
// order must respect it (biswas.StrictSER); like SO it has no key.
enum class Dep : std::uint8_t { SO, WR, WW, RW, RT };

// Does an edge of this type concern one key?
inline bool keyed(Dep d) { return d == Dep::WR || d == Dep::WW || d == Dep::RW; }

inline std::string_view dep_name(Dep d) {
  switch (d) {
    case Dep::SO: return "so";
    case Dep::WR: return "wr";
    case Dep::WW: return "ww";
    case Dep::RW: return "rw";
    case Dep::RT: return "rt";
  }
  return "?";
}

struct DepEdge {
  TxnId from = 0, to = 0;
  Dep type = Dep::SO;
  KeyId key = 0;
  friend bool operator==(const DepEdge&, const DepEdge&) = default;
};

// An edge's type as printed: "init" for T0's session edge (T0 precedes
// everything; it is in no session), else dep_name().
inline std::string_view edge_type_name(const DepEdge& e) {
  return e.type == Dep::SO && e.from == kInitTxn ? "init" : dep_name(e.type);
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

// Which graph acyclicity is checked on: the dependency graph itself
// (serializability, VeriStrong Thm 3.5), its induced SI graph
// (SO ∪ WR ∪ WW) ; RW? (snapshot isolation, Thm A.2), or the saturated
// so ∪ WR graph of Read Committed, Read Atomic or Causal Consistency
// (Biswas & Enea 2019; engine/polygraph/saturation.hpp).
enum class GraphLevel : std::uint8_t { Ser, Si, Rc, Ra, Cc };

// Decided by saturation (no polygraph)?
inline bool saturated(GraphLevel g) {
  return g == GraphLevel::Rc || g == GraphLevel::Ra || g == GraphLevel::Cc;
}

// "SER", "SI", "RA", "CC".
inline std::string_view graph_level_name(GraphLevel g) {
  switch (g) {
    case GraphLevel::Ser: return "SER";
    case GraphLevel::Si: return "SI";
    case GraphLevel::Rc: return "RC";
    case GraphLevel::Ra: return "RA";
    case GraphLevel::Cc: return "CC";
  }
  return "?";
}

// The graph level a spec names with `graph = "..."`: "SER", "SI", "RC", "RA", "CC".
inline std::optional<GraphLevel> graph_level_from_name(std::string_view name) {
  if (name == "SER") return GraphLevel::Ser;
  if (name == "SI") return GraphLevel::Si;
  if (name == "RC") return GraphLevel::Rc;
  if (name == "RA") return GraphLevel::Ra;
  if (name == "CC") return GraphLevel::Cc;
  return std::nullopt;
}

// A begin or commit of a transaction in a snapshot-isolation schedule: the
// order of these events is the SI checker's witness (execution.cpp).
struct ScheduleEvent {
  TxnId txn = 0;
  bool commit = false;
};

}  // namespace iso::poly
