// Independent checks of witnesses by running them, for histories of any
// size (the level formulas are for small ones): a serial execution for SER,
// a begin/commit schedule for SI, and the Biswas–Enea axiom for a commit
// order under RA and CC. Each returns an empty string when the witness does
// what it says, else what goes wrong.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "engine/decide/witness.hpp"
#include "engine/history/abstract.hpp"
#include "engine/history/history.hpp"
#include "engine/history/printer.hpp"

namespace iso::replay {

// The state of a key as a run sees it: its register value and its list.
struct KeyState {
  std::optional<ValueId> value;
  std::vector<ValueId> list;
};

inline std::vector<KeyState> initial_state(const History& h) {
  std::vector<KeyState> s(h.keys().size());
  for (KeyId k = 0; k < h.keys().size(); ++k)
    if (h.t0_writes(k)) s[k].value = h.init_value(k);
  return s;
}

// Runs t's operations on `state` (its own copy of what it sees): every
// read must return the value, and every list read the list, it finds.
inline std::string run_txn(const History& h, TxnId t, std::vector<KeyState>& state) {
  for (const Op& op : h.txn(t).ops) {
    if (op.kind == OpKind::Write) {
      state[op.key].value = op.value;
      state[op.key].list.push_back(op.value);
    } else if (op.kind == OpKind::Read) {
      if (op.list != kNoList ? h.lists()[op.list] != state[op.key].list
                             : state[op.key].value != op.value)
        return fmt::format("{}: {} sees another {}", h.txn_name(t), format_op(h, op),
                           op.list != kNoList ? "list" : "value");
    }
  }
  return {};
}

// Which transactions must take part: the committed ones and those of
// unknown status the witness commits.
inline std::vector<bool> participants(const History& h, const std::vector<TxnId>& committed_unknown) {
  std::vector<bool> in = committed_members(h);
  for (TxnId t : committed_unknown) in[t] = true;
  return in;
}

// SER: `order` run serially, each session's transactions in session order
// (serializability with sessions, as Biswas–Enea and VeriStrong define it).
inline std::string serial_problem(const History& h, const std::vector<TxnId>& order,
                                  const std::vector<TxnId>& committed_unknown = {}) {
  const std::vector<bool> in = participants(h, committed_unknown);
  std::vector<bool> seen(h.num_txns(), false);
  std::vector<KeyState> state = initial_state(h);
  std::vector<std::uint32_t> next_in_session(h.sessions().size(), 0);
  for (TxnId t : order) {
    if (seen[t]) return fmt::format("{} twice", h.txn_name(t));
    seen[t] = true;
    if (t == kInitTxn) continue;
    if (!in[t]) return fmt::format("{} did not commit", h.txn_name(t));
    // Every earlier participant of t's session has run.
    const auto& session = h.sessions()[h.txn(t).session];
    std::uint32_t& next = next_in_session[h.txn(t).session];
    for (; session[next] != t; ++next)
      if (in[session[next]])
        return fmt::format("{} runs before {}, its session predecessor", h.txn_name(t),
                           h.txn_name(session[next]));
    ++next;
    if (auto p = run_txn(h, t, state); !p.empty()) return p;
  }
  for (TxnId t = 1; t < h.num_txns(); ++t)
    if (in[t] && !seen[t]) return fmt::format("{} missing", h.txn_name(t));
  return {};
}

// SI: every transaction reads the versions committed before it began (and
// its own writes), no two whose begin-commit intervals overlap write one
// key, and session order puts each commit before the next begin.
inline std::string schedule_problem(const History& h, const Witness& w) {
  const std::vector<bool> in = participants(h, w.committed_unknown);
  const std::size_t n = h.num_txns();
  std::vector<std::optional<std::size_t>> begin(n), commit(n);
  for (std::size_t i = 0; i < w.schedule.size(); ++i) {
    const auto [t, is_commit] = w.schedule[i];
    auto& slot = is_commit ? commit[t] : begin[t];
    if (slot) return fmt::format("{} {} twice", h.txn_name(t), is_commit ? "commits" : "begins");
    if (is_commit && !begin[t]) return fmt::format("{} commits before it begins", h.txn_name(t));
    slot = i;
  }
  for (TxnId t = 1; t < n; ++t) {
    if (in[t] != (begin[t].has_value() && commit[t].has_value()))
      return fmt::format("{} {} the schedule", h.txn_name(t), in[t] ? "is missing from" : "is in");
  }
  // Committed versions in commit order; each transaction sees the state
  // after the commits before its begin.
  std::vector<TxnId> by_commit;
  for (const ScheduleEvent& e : w.schedule)
    if (e.commit) by_commit.push_back(e.txn);
  std::vector<TxnId> by_begin;
  for (const ScheduleEvent& e : w.schedule)
    if (!e.commit) by_begin.push_back(e.txn);
  std::sort(by_begin.begin(), by_begin.end(), [&](TxnId a, TxnId b) { return *begin[a] < *begin[b]; });
  std::vector<KeyState> state = initial_state(h);
  std::size_t applied = 0;
  for (TxnId t : by_begin) {
    while (applied < by_commit.size() && *commit[by_commit[applied]] < *begin[t]) {
      const TxnId u = by_commit[applied++];
      for (const Op& op : h.txn(u).ops)
        if (op.kind == OpKind::Write) {
          state[op.key].value = op.value;
          state[op.key].list.push_back(op.value);
        }
    }
    std::vector<KeyState> view = state;
    if (auto p = run_txn(h, t, view); !p.empty()) return p;
  }
  // First committer wins: consecutive writers of a key in commit order.
  std::map<KeyId, TxnId> last_writer;
  for (TxnId u : by_commit) {
    std::vector<KeyId> keys;
    for (const Op& op : h.txn(u).ops)
      if (op.kind == OpKind::Write) keys.push_back(op.key);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    for (KeyId k : keys) {
      auto it = last_writer.find(k);
      if (it != last_writer.end() && *commit[it->second] > *begin[u])
        return fmt::format("{} and {} both write {} and overlap", h.txn_name(it->second),
                           h.txn_name(u), h.key_text(k));
      last_writer[k] = u;
    }
  }
  // Session order.
  for (const auto& session : h.sessions()) {
    std::optional<TxnId> prev;
    for (TxnId t : session) {
      if (!in[t]) continue;
      if (prev && *commit[*prev] > *begin[t])
        return fmt::format("{} begins before {}, its session predecessor, commits",
                           h.txn_name(t), h.txn_name(*prev));
      prev = t;
    }
  }
  return {};
}

// RA (causal = false) or CC (causal = true) of Biswas & Enea: so ∪ wr ⊆ co,
// and for every read of x by t3 from t1 and every other writer t2 of x with
// C(t2, t3), t2 precedes t1 in co. C: so ∪ wr (RA), (so ∪ wr)+ (CC).
inline std::string axiom_problem(const History& h, const std::vector<TxnId>& co,
                                 const std::vector<poly::ChosenRead>& chosen,
                                 const std::vector<TxnId>& committed_unknown, bool causal) {
  std::vector<bool> member = participants(h, committed_unknown);
  AbstractHistory a = abstract_history(h, member);
  const std::size_t n = h.num_txns();
  // co orders exactly the participants, T0 first.
  if (co.empty() || co.front() != kInitTxn) return "T0 is not first in co";
  std::vector<std::size_t> pos(n, SIZE_MAX);
  for (std::size_t i = 0; i < co.size(); ++i) {
    if (co[i] >= n || !member[co[i]])
      return fmt::format("{} is in co but did not commit", co[i] < n ? h.txn_name(co[i]) : "?");
    if (pos[co[i]] != SIZE_MAX) return fmt::format("{} is twice in co", h.txn_name(co[i]));
    pos[co[i]] = i;
  }
  for (TxnId t : a.txns)
    if (pos[t] == SIZE_MAX) return fmt::format("{} is not in co", h.txn_name(t));
  // The writer of each external read.
  auto writer_of = [&](TxnId t, std::size_t i) -> TxnId {
    const auto& c = a.candidates[t][i];
    if (c.size() == 1) return c[0];
    for (const poly::ChosenRead& pick : chosen)
      if (pick.reader == t && pick.op == a.abs[t].reads[i].op) return pick.writer;
    return kNoTxn;
  };
  // Predecessors by so ∪ wr, and C as bitsets over positions in co.
  std::vector<std::vector<TxnId>> preds(n);
  for (const auto& s : h.sessions()) {
    std::optional<TxnId> prev;
    for (TxnId t : s)
      if (member[t]) {
        if (prev) preds[t].push_back(*prev);
        prev = t;
      }
  }
  for (TxnId t : a.txns)
    for (std::size_t i = 0; i < a.abs[t].reads.size(); ++i) {
      TxnId w = writer_of(t, i);
      if (w == kNoTxn) return fmt::format("{}'s read has no writer", h.txn_name(t));
      if (w != kInitTxn) preds[t].push_back(w);
    }
  for (TxnId t : a.txns)
    for (TxnId p : preds[t])
      if (pos[p] >= pos[t]) return fmt::format("co puts {} before {}", h.txn_name(t), h.txn_name(p));
  const std::size_t words = (co.size() + 63) / 64;
  std::vector<std::uint64_t> c(causal ? co.size() * words : 0);
  auto bit = [&](std::size_t row, std::size_t col) -> std::uint64_t& { return c[row * words + col / 64]; };
  if (causal)  // happens-before, in co order (so ∪ wr ⊆ co)
    for (TxnId t : co)
      for (TxnId p : preds[t]) {
        for (std::size_t wi = 0; wi < words; ++wi) c[pos[t] * words + wi] |= c[pos[p] * words + wi];
        bit(pos[t], pos[p]) |= std::uint64_t{1} << (pos[p] % 64);
      }
  auto related = [&](TxnId t2, TxnId t3) {
    if (causal) return ((bit(pos[t3], pos[t2]) >> (pos[t2] % 64)) & 1u) != 0;
    if (h.txn(t2).session == h.txn(t3).session && t2 != kInitTxn &&
        h.txn(t2).position < h.txn(t3).position)
      return true;
    return std::find(preds[t3].begin(), preds[t3].end(), t2) != preds[t3].end();
  };
  std::vector<std::vector<TxnId>> writers(h.keys().size());
  for (TxnId t : a.txns)
    if (t != kInitTxn)
      for (const auto& wr : a.abs[t].writes) writers[wr.key].push_back(t);
  // The known version orders (list-append reads) hold in co.
  for (const KnownOrder& ko : a.known_orders) {
    if (ko.condition != kNoTxn && !member[ko.condition]) continue;
    for (std::size_t i = 0; i + 1 < ko.chain.size(); ++i)
      if (pos[ko.chain[i]] > pos[ko.chain[i + 1]])
        return fmt::format("co breaks the known order of {}", h.key_text(ko.key));
    for (TxnId w : writers[ko.key])
      if (std::find(ko.chain.begin(), ko.chain.end(), w) == ko.chain.end() &&
          std::find(ko.unordered.begin(), ko.unordered.end(), w) == ko.unordered.end() &&
          pos[w] < pos[ko.chain.back()])
        return fmt::format("co puts {} inside the known order of {}", h.txn_name(w),
                           h.key_text(ko.key));
  }
  for (TxnId t3 : a.txns)
    for (std::size_t i = 0; i < a.abs[t3].reads.size(); ++i) {
      const KeyId x = a.abs[t3].reads[i].key;
      const TxnId t1 = writer_of(t3, i);
      for (TxnId t2 : writers[x])
        if (t2 != t1 && t2 != t3 && related(t2, t3) && pos[t2] > pos[t1])
          return fmt::format("{} reads {} from {}, but {} wrote it, is seen, and follows it in co",
                             h.txn_name(t3), h.key_text(x), h.txn_name(t1), h.txn_name(t2));
    }
  return {};
}

}  // namespace iso::replay
