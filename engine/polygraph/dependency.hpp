// Typed dependency edges between transactions (Adya 1999; VeriStrong Def.
// 3.1): session order, write-read, write-write and read-write (anti-)
// dependencies, each on a key (the key is meaningless for SO).
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/history/history.hpp"

namespace iso::poly {

enum class Dep : std::uint8_t { SO, WR, WW, RW };

inline std::string_view dep_name(Dep d) {
  switch (d) {
    case Dep::SO: return "so";
    case Dep::WR: return "wr";
    case Dep::WW: return "ww";
    case Dep::RW: return "rw";
  }
  return "?";
}

struct DepEdge {
  TxnId from = 0, to = 0;
  Dep type = Dep::SO;
  KeyId key = 0;
  friend bool operator==(const DepEdge&, const DepEdge&) = default;
};

// Which graph acyclicity is checked on: the dependency graph itself
// (serializability, VeriStrong Thm 3.5), or its induced SI graph
// (SO ∪ WR ∪ WW) ; RW? (snapshot isolation, Thm A.2).
enum class GraphLevel : std::uint8_t { Ser, Si };

}  // namespace iso::poly
