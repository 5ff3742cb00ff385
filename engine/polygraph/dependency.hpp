// Typed dependency edges between transactions (Adya 1999; VeriStrong Def.
// 3.1): session order, write-read, write-write and read-write (anti-)
// dependencies, each on a key (the key is meaningless for SO).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/history/history.hpp"

namespace iso::poly {

// Real time (History::time_before), for a level whose order must respect
// it; like SO these have no key. Named by the two events they order (Viper
// §5: real-time edges between begin and commit nodes, never begin to begin):
//  RT   a committed before b began (h.rt): strict serializability's rt ⊆ co,
//       Strong SI's "the snapshot holds everything committed before";
//  RTCC a committed before b committed (h.rt_cc): GSI's commit order;
//  RTBC a began before b committed (h.rt_bc): GSI's "a cannot see b".
enum class Dep : std::uint8_t { SO, WR, WW, RW, RT, RTCC, RTBC };

// Does an edge of this type concern one key?
inline bool keyed(Dep d) { return d == Dep::WR || d == Dep::WW || d == Dep::RW; }
// Is it a real-time edge?
inline bool real_time(Dep d) { return d == Dep::RT || d == Dep::RTCC || d == Dep::RTBC; }

// Which real-time edges a level's graph gets (Level::real_time): those its
// formula orders by.
struct RealTimeEdges {
  bool commit_begin = false;   // RT
  bool commit_commit = false;  // RTCC
  bool begin_commit = false;   // RTBC
  bool any() const { return commit_begin || commit_commit || begin_commit; }
};

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

inline std::string_view dep_name(Dep d) {
  switch (d) {
    case Dep::SO: return "so";
    case Dep::WR: return "wr";
    case Dep::WW: return "ww";
    case Dep::RW: return "rw";
    case Dep::RT: return "rt";
    case Dep::RTCC: return "rt-cc";
    case Dep::RTBC: return "rt-bc";
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
// (Biswas & Enea 2019; engine/polygraph/saturation.hpp); or, for a level
// that trusts the database's own timestamps, no graph at all: the
// timestamps are the witness (engine/timestamps/trusted_check.hpp).
enum class GraphLevel : std::uint8_t { Ser, Si, Rc, Ra, Cc, TsSi, TsSer };

// Decided by the database's timestamps (no polygraph, no search)?
inline bool trusts_timestamps(GraphLevel g) { return g == GraphLevel::TsSi || g == GraphLevel::TsSer; }

// Decided by saturation (no polygraph)?
inline bool saturated(GraphLevel g) {
  return g == GraphLevel::Rc || g == GraphLevel::Ra || g == GraphLevel::Cc;
}

// "SER", "SI", "RC", "RA", "CC", "timestamps-SI", "timestamps-SER".
inline std::string_view graph_level_name(GraphLevel g) {
  switch (g) {
    case GraphLevel::Ser: return "SER";
    case GraphLevel::Si: return "SI";
    case GraphLevel::Rc: return "RC";
    case GraphLevel::Ra: return "RA";
    case GraphLevel::Cc: return "CC";
    case GraphLevel::TsSi: return "timestamps-SI";
    case GraphLevel::TsSer: return "timestamps-SER";
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
  if (name == "timestamps-SI") return GraphLevel::TsSi;
  if (name == "timestamps-SER") return GraphLevel::TsSer;
  return std::nullopt;
}

// A begin or commit of a transaction in a snapshot-isolation schedule: the
// order of these events is the SI checker's witness (execution.cpp).
struct ScheduleEvent {
  TxnId txn = 0;
  bool commit = false;
};

}  // namespace iso::poly
