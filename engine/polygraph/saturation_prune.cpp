// 1-width pruning (step 2 of saturation_impl.hpp).
#include <algorithm>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/history/printer.hpp"
#include "engine/polygraph/explain.hpp"
#include "engine/polygraph/saturation_impl.hpp"
#include "engine/util/budget.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly::saturation {

//
// After VeriStrong §6.1.1, for the saturated graph: the known model holds the
// edges every model has (session order, reads with a fixed writer between
// committed transactions). A candidate w of t's read of x is never chosen if
//  - t reaches w: the wr edge (w, t) closes a cycle; or
//  - w reaches a committed writer t2 ≠ w of x with C(t2, t) known (a session
//    predecessor of t or, for RA, the fixed writer of another of t's reads;
//    for CC, anything that happens before t; for RC, only the fixed writer
//    of an earlier read of t): the saturation edge (t2, w) closes a cycle.
// Such candidates get no variable that can be true. A read of a committed
// transaction left with one committed candidate becomes fixed, which adds
// known edges: repeat until nothing changes.

bool Saturation::reaches(TxnId u, TxnId v) const {
  if (u == kInitTxn) return v != kInitTxn;
  return pos_[u] < visible_prefix(v, session_[u]);
}

std::optional<Anomaly> Saturation::prune(std::size_t& passes) {
  std::vector<TxnId> order, visible;
  std::vector<std::vector<std::uint32_t>> cycles;
  for (bool again = true; again;) {
    again = false;
    ++passes;
    member_.assign(n_, 0);
    for (TxnId t : a_.txns) member_[t] = !dead_[t];
    chosen_.assign(reads_.size(), kNoTxn);
    chosen_i_.assign(reads_.size(), kNone);
    for (std::uint32_t r = 0; r < reads_.size(); ++r) {
      budget::poll();
      const Read& rd = reads_[r];
      if (rd.known == kNoTxn) continue;
      chosen_[r] = rd.known;
      const auto cs = cands(rd);
      chosen_i_[r] =
          static_cast<std::uint32_t>(std::find(cs.begin(), cs.end(), rd.known) - cs.begin());
    }
    build_sessions();
    add_base_edges();
    if (!acyclic(edges_.size(), order)) {
      build_graph(edges_.size());
      // A cycle of so and fixed wr edges: in every model (members of
      // unknown status in it are passed through by so).
      find_cycles(1, cycles);
      return anomaly(cycles.front());
    }
    known_model_ = true;
    build_writers();
    known_model_ = false;
    build_hb(order);
    for (std::uint32_t r = 0; r < reads_.size(); ++r) {
      budget::poll();
      Read& rd = reads_[r];
      if (rd.known != kNoTxn || dead_[rd.txn]) continue;
      const TxnId t = rd.txn;
      const KeyId x = rd.key;
      // Committed writers of x with C(·, t) in every model.
      visible.clear();
      for (std::uint32_t g = wkey_[x]; g < wkey_[x + 1]; ++g) {
        const SessionId s = wentries_[gstart_[g]].session;
        if (level_ == GraphLevel::Rc) break;  // session order does not make writes visible
        if (level_ == GraphLevel::Ra && s != session_[t]) continue;
        const std::uint32_t limit = visible_prefix(t, s);
        auto first = wentries_.begin() + gstart_[g], last = wentries_.begin() + gstart_[g + 1];
        auto it = std::lower_bound(first, last, limit,
                                   [](const WriterEntry& e, std::uint32_t p) { return e.pos < p; });
        // The last one: w reaches an earlier one only through it (when w is
        // the last, it reaches none of them).
        if (it != first) visible.push_back(std::prev(it)->txn);
      }
      if (level_ == GraphLevel::Ra || level_ == GraphLevel::Rc)
        for (std::uint32_t r2 = read_begin_[t]; r2 < read_end_[t]; ++r2) {
          const TxnId t2 = reads_[r2].known;
          const bool earlier = level_ == GraphLevel::Ra || reads_[r2].op < rd.op;
          if (earlier && t2 != kNoTxn && t2 != kInitTxn && a_.writes(t2, x)) visible.push_back(t2);
        }
      std::uint32_t left = 0;
      TxnId last_left = kNoTxn;
      const auto cs = cands(rd);
      const auto al = alive(rd);
      for (std::uint32_t i = 0; i < cs.size(); ++i) {
        if (al[i] != kAlive) continue;
        const TxnId w = cs[i];
        bool cyclic = reaches(t, w);
        for (TxnId t2 : visible)
          if (!cyclic && t2 != w && reaches(w, t2)) cyclic = true;
        if (cyclic) {
          al[i] = kCyclic;
          continue;
        }
        ++left;
        last_left = w;
      }
      if (left == 1 && !unknown(t) && !unknown(last_left)) {
        rd.known = last_left;
        again = true;
      }
      // An unknown-status reader left without a candidate cannot have
      // committed: drop it, and it as a candidate.
      if (left == 0 && unknown(t)) {
        dead_[t] = 1;
        dead_why_[t] = r;
        for (std::size_t i = 0; i < cands_.size(); ++i)
          if (cands_[i] == t && alive_[i] == kAlive) alive_[i] = kDropped;
        again = true;
      }
    }
  }
  return std::nullopt;
}

std::optional<Anomaly> Saturation::explain_pruned() {
  for (std::uint32_t r = 0; r < reads_.size(); ++r) {
    const Read& rd = reads_[r];
    const auto al = alive(rd);
    if (!unknown(rd.txn) && rd.known == kNoTxn && rd.count > 0 &&
        std::find(al.begin(), al.end(), kAlive) == al.end())
      return explain_read(r);
  }
  return std::nullopt;
}

std::optional<Anomaly> Saturation::explain_read(std::uint32_t r) {
  const Read& rd = reads_[r];
  const auto cs = cands(rd);
  const auto al = alive(rd);
  auto cyclic = std::find(al.begin(), al.end(), kCyclic);
  if (cyclic == al.end()) {
    // Every candidate was dropped: explain why the first cannot have
    // committed (it was dropped before this read's candidates were).
    const TxnId u = cs.front();
    if (dead_why_[u] == kNone) return std::nullopt;
    std::optional<Anomaly> inner = explain_read(dead_why_[u]);
    if (!inner) return std::nullopt;
    const Transaction& txn = h_.txn(rd.txn);
    std::vector<std::string> names;
    for (TxnId w : cs) names.push_back(h_.txn_name(w));
    inner->description = fmt::format(
        "{}: {} reads a value only {} wrote, whose commit status is unknown; {} cannot have "
        "committed: {}",
        h_.txn_name(rd.txn), format_op(h_, txn.ops[rd.op]), fmt::join(names, ", "), h_.txn_name(u),
        inner->description);
    if (!unknown(rd.txn)) inner->name = "read of an unknown-status write";
    inner->txns.insert(inner->txns.begin(), rd.txn);
    return inner;
  }
  // The committed transactions, the fixed reads, the reader and the first
  // candidate pruned for closing a cycle.
  const auto wi = static_cast<std::uint32_t>(cyclic - al.begin());
  const TxnId w = cs[wi];
  member_.assign(n_, 0);
  for (TxnId t : a_.txns) member_[t] = !unknown(t);
  member_[rd.txn] = member_[w] = 1;
  chosen_.assign(reads_.size(), kNoTxn);
  chosen_i_.assign(reads_.size(), kNone);
  for (std::uint32_t q = 0; q < reads_.size(); ++q) {
    const Read& qd = reads_[q];
    if (qd.known == kNoTxn || !member_[qd.txn] || !member_[qd.known]) continue;
    chosen_[q] = qd.known;
    const auto qs = cands(qd);
    chosen_i_[q] =
        static_cast<std::uint32_t>(std::find(qs.begin(), qs.end(), qd.known) - qs.begin());
  }
  chosen_[r] = w;
  chosen_i_[r] = wi;
  std::vector<TxnId> order;
  std::vector<std::vector<std::uint32_t>> cycles;
  if (check_model(order, cycles, 1)) return std::nullopt;
  return anomaly(cycles.front());
}

}  // namespace iso::poly::saturation
