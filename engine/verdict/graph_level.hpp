// The graph characterizations a level may name (`graph = "SER"` in a
// spec), which decide() routes to the graph checkers, and the real-time
// edges a level's graph gets.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace iso {

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

// Which real-time edges a level's graph gets (Level::real_time): those its
// formula orders by.
struct RealTimeEdges {
  bool commit_begin = false;   // RT
  bool commit_commit = false;  // RTCC
  bool begin_commit = false;   // RTBC
  bool any() const { return commit_begin || commit_commit || begin_commit; }
};

}  // namespace iso
