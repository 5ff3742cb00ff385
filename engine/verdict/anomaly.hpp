// Why a history violates a level: a named anomaly with the cycle it rests
// on, each edge typed, keyed and told in words. What every checker returns
// and every command prints.
#pragma once

#include <string>
#include <vector>

#include "engine/history/history.hpp"
#include "engine/verdict/dependency.hpp"

namespace iso {

// Why a history violates the level.
// The name another checker gives an anomaly: {"Plume", "TAP-b", "aborted read"}.
struct OtherName {
  std::string tool;
  std::string code;  // the tool's label for it, if it has one
  std::string name;
};

struct Anomaly {
  std::string name;         // Adya's or Elle's name: G1a, G1b, G0, G1c, G-single, G2-item, ...
  // The names other checkers report it by, when they differ in kind or
  // detail: Plume's TAP-b for G1a, its TAP-d or TAP-e for INT.
  std::vector<OtherName> also_known_as;
  std::string description;  // one line, e.g. "T3 reads x from T1 but T2 overwrote it first"
  // For cycle anomalies: the cycle, each edge typed and keyed; the first edge
  // starts where the last ends. Empty for G1a, G1b, INT and thin-air reads.
  // The cycle is one of a compatible graph: no edge contradicts what the
  // history makes certain.
  std::vector<DepEdge> cycle;
  // Per edge of `cycle`: what it rests on, in words, with the operations
  // and their input lines (explain.hpp).
  std::vector<std::string> why;
  // Edges off the cycle that force it, for pictures: the reads behind a
  // Read Atomic or Causal edge.
  std::vector<DepEdge> context;
  std::vector<TxnId> txns;  // the transactions involved
};

}  // namespace iso
