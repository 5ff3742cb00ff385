#include "engine/polygraph/explain.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace iso::poly {

std::string format_cycle(const History& h, const std::vector<DepEdge>& cycle) {
  if (cycle.empty()) return "";
  std::string out = h.txn_name(cycle.front().from);
  for (const DepEdge& e : cycle) {
    if (e.type == Dep::SO)
      out += fmt::format(" -so-> {}", h.txn_name(e.to));
    else
      out += fmt::format(" -{}({})-> {}", dep_name(e.type), h.key_text(e.key), h.txn_name(e.to));
  }
  return out;
}

Anomaly read_anomaly(const UnjustifiedRead& r) {
  Anomaly a{std::string(read_anomaly_name(r.kind)), r.message, {}, {r.txn}};
  if (r.writer != kNoTxn && r.writer != r.txn) a.txns.push_back(r.writer);
  if (r.other_txn != kNoTxn && r.other_txn != r.txn) a.txns.push_back(r.other_txn);
  return a;
}

Anomaly int_anomaly(const IntViolation& v) { return Anomaly{"INT", v.message, {}, {v.txn}}; }

Anomaly cycle_anomaly(const History& h, std::vector<DepEdge> cycle) {
  auto first_rw = std::find_if(cycle.begin(), cycle.end(),
                               [](const DepEdge& e) { return e.type == Dep::RW; });
  if (first_rw != cycle.end()) std::rotate(cycle.begin(), first_rw, cycle.end());
  std::size_t rw = 0, wr = 0;
  for (const DepEdge& e : cycle) {
    rw += e.type == Dep::RW;
    wr += e.type == Dep::WR;
  }
  Anomaly a;
  if (rw == 0) {
    a.name = wr == 0 ? "G0" : "G1c";
  } else if (rw == 1) {
    a.name = "G-single";
    if (cycle.size() == 2 && cycle[1].type == Dep::WW && cycle[1].key == cycle[0].key)
      a.name = "lost update";
  } else {
    a.name = "G2-item";
    // Two transactions reading the same version: of one key, each
    // overwriting it (lost update); of two keys, each writing the key the
    // other read (write skew).
    if (cycle.size() == 2 && rw == 2)
      a.name = cycle[0].key == cycle[1].key ? "lost update" : "write skew";
  }
  for (const DepEdge& e : cycle) a.txns.push_back(e.from);
  a.description = format_cycle(h, cycle);
  a.cycle = std::move(cycle);
  return a;
}

}  // namespace iso::poly
