// Typed dependency edges between transactions (Adya 1999; VeriStrong Def.
// 3.1): session order, write-read, write-write and read-write (anti-)
// dependencies, each on a key (the key is meaningless for SO), and the
// real-time orders. The words every checker's cycle is told in.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/history/history.hpp"

namespace iso {

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

}  // namespace iso
