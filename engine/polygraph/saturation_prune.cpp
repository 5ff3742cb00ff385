// 1-width pruning (step 2 of saturation_impl.hpp); the contract is in
// saturation_prune.hpp.
#include <algorithm>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/history/printer.hpp"
#include "engine/polygraph/saturation_explain.hpp"
#include "engine/polygraph/saturation_prune.hpp"
#include "engine/util/budget.hpp"

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

void Pruner::known_model(Model& m) const {
  const auto& reads = choices_.reads();
  m.committed_writers_only = true;
  m.member.assign(h_.num_txns(), 0);
  for (TxnId t : a_.txns) m.member[t] = !choices_.dead(t);
  m.chosen.assign(reads.size(), kNoTxn);
  m.chosen_i.assign(reads.size(), kNone);
  for (std::uint32_t r = 0; r < reads.size(); ++r) {
    budget::poll();
    const Read& rd = reads[r];
    if (rd.known == kNoTxn) continue;
    m.chosen[r] = rd.known;
    const auto cs = choices_.cands(rd);
    m.chosen_i[r] =
        static_cast<std::uint32_t>(std::find(cs.begin(), cs.end(), rd.known) - cs.begin());
  }
}

std::optional<Anomaly> Pruner::prune(std::size_t& passes) {
  std::vector<TxnId> visible;
  std::vector<std::vector<std::uint32_t>> cycles;
  Model known;
  for (bool again = true; again;) {
    again = false;
    ++passes;
    known_model(known);
    if (!graph_.build_known(known, cycles))
      return CycleExplainer(h_, a_, level_, choices_, known, graph_).anomaly(cycles.front());
    for (std::uint32_t r = 0; r < choices_.reads().size(); ++r) {
      budget::poll();
      const Read& rd = choices_.reads()[r];
      if (rd.known != kNoTxn || choices_.dead(rd.txn)) continue;
      visible_writers(rd, visible);
      again = prune_read(r, visible) || again;
    }
  }
  return std::nullopt;
}

void Pruner::visible_writers(const Read& rd, std::vector<TxnId>& visible) const {
  const TxnId t = rd.txn;
  const KeyId x = rd.key;
  visible.clear();
  const auto [g0, g1] = graph_.groups(x);
  for (std::uint32_t g = g0; g < g1; ++g) {
    const SessionId s = graph_.group_session(g);
    if (level_ == GraphLevel::Rc) break;  // session order does not make writes visible
    if (level_ == GraphLevel::Ra && s != graph_.session(t)) continue;
    // The last one: w reaches an earlier one only through it (when w is
    // the last, it reaches none of them).
    if (const WriterEntry* last = graph_.last_writer_before(g, graph_.visible_prefix(t, s)))
      visible.push_back(last->txn);
  }
  if (level_ == GraphLevel::Ra || level_ == GraphLevel::Rc)
    for (std::uint32_t r2 = choices_.read_begin(t); r2 < choices_.read_end(t); ++r2) {
      const Read& other = choices_.reads()[r2];
      const TxnId t2 = other.known;
      const bool earlier = level_ == GraphLevel::Ra || other.op < rd.op;
      if (earlier && t2 != kNoTxn && t2 != kInitTxn && a_.writes(t2, x)) visible.push_back(t2);
    }
}

bool Pruner::prune_read(std::uint32_t r, const std::vector<TxnId>& visible) {
  const Read& rd = choices_.reads()[r];
  const TxnId t = rd.txn;
  std::uint32_t left = 0;
  TxnId last_left = kNoTxn;
  const auto cs = choices_.cands(rd);
  const auto al = choices_.alive(rd);
  for (std::uint32_t i = 0; i < cs.size(); ++i) {
    if (al[i] != kAlive) continue;
    const TxnId w = cs[i];
    bool cyclic = graph_.reaches(t, w);
    for (TxnId t2 : visible)
      if (!cyclic && t2 != w && graph_.reaches(w, t2)) cyclic = true;
    if (cyclic) {
      al[i] = kCyclic;
      continue;
    }
    ++left;
    last_left = w;
  }
  bool changed = false;
  if (left == 1 && !choices_.unknown(t) && !choices_.unknown(last_left)) {
    choices_.fix(r, last_left);
    changed = true;
  }
  // An unknown-status reader left without a candidate cannot have
  // committed: drop it, and it as a candidate.
  if (left == 0 && choices_.unknown(t)) {
    choices_.drop(t, r);
    changed = true;
  }
  return changed;
}

std::optional<Anomaly> Pruner::explain_pruned() {
  for (std::uint32_t r = 0; r < choices_.reads().size(); ++r) {
    const Read& rd = choices_.reads()[r];
    const auto al = choices_.alive(rd);
    if (!choices_.unknown(rd.txn) && rd.known == kNoTxn && rd.count > 0 &&
        std::find(al.begin(), al.end(), kAlive) == al.end())
      return explain_read(r);
  }
  return std::nullopt;
}

std::optional<Anomaly> Pruner::explain_read(std::uint32_t r) {
  const auto& reads = choices_.reads();
  const Read& rd = reads[r];
  const auto cs = choices_.cands(rd);
  const auto al = std::as_const(choices_).alive(rd);
  auto cyclic = std::find(al.begin(), al.end(), kCyclic);
  if (cyclic == al.end()) return explain_dropped(r);
  // The committed transactions, the fixed reads, the reader and the first
  // candidate pruned for closing a cycle.
  const auto wi = static_cast<std::uint32_t>(cyclic - al.begin());
  const TxnId w = cs[wi];
  Model m;
  m.member.assign(h_.num_txns(), 0);
  for (TxnId t : a_.txns) m.member[t] = !choices_.unknown(t);
  m.member[rd.txn] = m.member[w] = 1;
  m.chosen.assign(reads.size(), kNoTxn);
  m.chosen_i.assign(reads.size(), kNone);
  for (std::uint32_t q = 0; q < reads.size(); ++q) {
    const Read& qd = reads[q];
    if (qd.known == kNoTxn || !m.member[qd.txn] || !m.member[qd.known]) continue;
    m.chosen[q] = qd.known;
    const auto qs = choices_.cands(qd);
    m.chosen_i[q] =
        static_cast<std::uint32_t>(std::find(qs.begin(), qs.end(), qd.known) - qs.begin());
  }
  m.chosen[r] = w;
  m.chosen_i[r] = wi;
  std::vector<TxnId> order;
  std::vector<std::vector<std::uint32_t>> cycles;
  if (graph_.check(m, order, cycles, 1)) return std::nullopt;
  return CycleExplainer(h_, a_, level_, choices_, m, graph_).anomaly(cycles.front());
}

// Every candidate of read r was dropped: why the first cannot have committed
// (it was dropped before this read's candidates were).
std::optional<Anomaly> Pruner::explain_dropped(std::uint32_t r) {
  const Read& rd = choices_.reads()[r];
  const auto cs = choices_.cands(rd);
  const TxnId u = cs.front();
  if (choices_.dead_why(u) == kNone) return std::nullopt;
  std::optional<Anomaly> inner = explain_read(choices_.dead_why(u));
  if (!inner) return std::nullopt;
  const Transaction& txn = h_.txn(rd.txn);
  std::vector<std::string> names;
  for (TxnId w : cs) names.push_back(h_.txn_name(w));
  inner->description = fmt::format(
      "{}: {} reads a value only {} wrote, whose commit status is unknown; {} cannot have "
      "committed: {}",
      h_.txn_name(rd.txn), format_op(h_, txn.ops[rd.op]), fmt::join(names, ", "), h_.txn_name(u),
      inner->description);
  if (!choices_.unknown(rd.txn)) inner->name = "read of an unknown-status write";
  inner->txns.insert(inner->txns.begin(), rd.txn);
  return inner;
}

}  // namespace iso::poly::saturation
