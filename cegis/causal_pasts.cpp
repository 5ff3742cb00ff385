#include "cegis/causal_pasts.hpp"

#include <algorithm>

namespace iso::cegis {

using namespace logic;

namespace {

// Vector clocks in a topological order (Kahn) of the operations: per
// operation and session, how many of the session's operations are in its
// past, itself included. `into[o]`: the operations o's write is passed to.
// Empty when the graph has a cycle.
std::vector<std::uint32_t> clocks(std::size_t S, const std::vector<std::size_t>& base,
                                  const std::vector<std::vector<std::size_t>>& into) {
  const std::size_t n = base[S];
  std::vector<std::size_t> indeg(n, 0), session_of(n), ready;
  for (std::size_t s = 0; s < S; ++s)
    for (std::size_t o = base[s]; o < base[s + 1]; ++o) {
      session_of[o] = s;
      indeg[o] += o > base[s];
    }
  for (const auto& targets : into)
    for (std::size_t t : targets) ++indeg[t];
  for (std::size_t o = 0; o < n; ++o)
    if (indeg[o] == 0) ready.push_back(o);
  std::vector<std::uint32_t> clock(n * S, 0);
  std::size_t done = 0;
  while (!ready.empty()) {
    const std::size_t o = ready.back();
    ready.pop_back();
    ++done;
    const std::size_t s = session_of[o];
    clock[o * S + s] = static_cast<std::uint32_t>(o - base[s] + 1);
    auto release = [&](std::size_t next) {
      for (std::size_t k = 0; k < S; ++k) clock[next * S + k] = std::max(clock[next * S + k], clock[o * S + k]);
      if (--indeg[next] == 0) ready.push_back(next);
    };
    if (o + 1 < base[s + 1]) release(o + 1);
    for (std::size_t next : into[o]) release(next);
  }
  if (done != n) clock.clear();
  return clock;
}

}  // namespace

CausalPasts::CausalPasts(const ObservedTrace& tr, PredictMode mode)
    : tr_(tr), mode_(mode), S_(tr.h.sessions().size()) {
  const History& h = tr.h;
  // Operations numbered along each session; a transaction's first one.
  base_.assign(S_ + 1, 0);
  first_op_.assign(h.num_txns(), 0);
  txn_at_.resize(S_);
  for (std::size_t s = 0; s < S_; ++s) {
    for (TxnId t : h.sessions()[s]) {
      first_op_[t] = txn_at_[s].size();
      for (std::size_t i = 0; i < h.txn(t).ops.size(); ++i) txn_at_[s].push_back(t);
    }
    base_[s + 1] = base_[s] + txn_at_[s].size();
  }
  std::vector<std::vector<std::size_t>> into(base_[S_]);
  for (const auto& rd : tr.reads)
    if (rd.event && rd.observed != kInitTxn)
      into[op_id(rd.observed, *tr.last_write(rd.observed, rd.key))].push_back(op_id(rd.txn, rd.op));
  clock_ = clocks(S_, base_, into);
  // Per session and key: the positions of its writes of the key, and the
  // first operations of its writers of the key, in session order.
  for (std::size_t s = 0; s < S_; ++s)
    for (TxnId t : h.sessions()[s]) {
      const auto& ops = h.txn(t).ops;
      for (std::uint32_t i = 0; i < ops.size(); ++i)
        if (ops[i].kind == OpKind::Write) {
          writes_at_[{s, ops[i].key}].push_back(first_op_[t] + i);
          if (*tr.first_write(t, ops[i].key) == i) writers_at_[{s, ops[i].key}].push_back(first_op_[t]);
        }
    }
}

std::size_t CausalPasts::op_id(TxnId t, std::size_t i) const {
  return base_[tr_.place[t].first] + first_op_[t] + i;
}

CausalPasts::Past CausalPasts::own_past(std::size_t r) const {
  // Strict: up to r. Relaxed: up to r's transaction (its reads are free).
  const auto& rd = tr_.reads[r];
  const std::size_t at = first_op_[rd.txn] + (mode_ == PredictMode::Strict ? rd.op : 0);
  Past past(S_, 0);
  if (at > 0) std::copy_n(&clock_[(base_[rd.session] + at - 1) * S_], S_, past.begin());
  return past;
}

CausalPasts::Stale CausalPasts::stale(std::size_t r, const Past& past) const {
  const auto& rd = tr_.reads[r];
  Stale out{std::vector<std::size_t>(S_, 0), false};
  // The latest write of the key in each session's part of the past: its
  // transaction t2 happens before the reader, and so does everything in
  // t2's past, which is whatever `limit` covers.
  std::vector<std::uint32_t> limit(S_, 0);
  for (std::size_t s2 = 0; s2 < S_; ++s2) {
    const auto it = writes_at_.find({s2, rd.key});
    if (it == writes_at_.end()) continue;
    const auto& ws = it->second;
    const auto m = std::lower_bound(ws.begin(), ws.end(), past[s2]);
    if (m == ws.begin()) continue;
    const std::size_t mp = *std::prev(m);
    const TxnId t2 = txn_at_[s2][mp];
    out.initial = true;
    for (std::size_t s3 = 0; s3 < S_; ++s3)
      limit[s3] = std::max<std::uint32_t>(limit[s3], s3 == s2 ? static_cast<std::uint32_t>(first_op_[t2])
                                                              : clock_[(base_[s2] + mp) * S_ + s3]);
  }
  for (std::size_t s3 = 0; s3 < S_; ++s3)
    if (const auto it = writers_at_.find({s3, rd.key}); it != writers_at_.end())
      out.first[s3] = static_cast<std::size_t>(std::lower_bound(it->second.begin(), it->second.end(), limit[s3]) -
                                               it->second.begin());
  return out;
}

bool CausalPasts::is_stale(std::size_t r, const Stale& st, TxnId w) const {
  if (w == kInitTxn) return st.initial;
  const auto& rd = tr_.reads[r];
  const auto [s, j] = tr_.place[w];
  if (s == rd.session && j > rd.index) return true;
  const auto& fs = writers_at_.at({s, rd.key});
  return static_cast<std::size_t>(std::lower_bound(fs.begin(), fs.end(), first_op_[w]) - fs.begin()) < st.first[s];
}

std::vector<BLit> CausalPasts::rule_out_all(const PredictionSpace& space, Circuit& c) const {
  std::vector<BLit> out;
  if (clock_.empty()) return out;
  for (std::size_t r = 0; r < tr_.reads.size(); ++r) {
    const auto& rd = tr_.reads[r];
    if (!rd.event) continue;
    const Stale st = stale(r, own_past(r));
    if (is_stale(r, st, rd.observed)) continue;  // not a causal run: left to the search
    if (st.initial && std::find(rd.writers.begin(), rd.writers.end(), kInitTxn) != rd.writers.end())
      out.push_back(!space.takes_initial(r));
    for (std::size_t s3 = 0; s3 < S_; ++s3) {
      if (st.first[s3] > 0) out.push_back(!space.takes_among_first(r, s3, st.first[s3]));
      if (s3 != rd.session) continue;
      // Writers after the reader in its session.
      const auto it = writers_at_.find({s3, rd.key});
      if (it == writers_at_.end()) continue;
      const auto& fs = it->second;
      const auto upto = static_cast<std::size_t>(std::upper_bound(fs.begin(), fs.end(), first_op_[rd.txn]) - fs.begin());
      if (upto < fs.size())
        out.push_back(c.implies(space.takes_among_first(r, s3, fs.size()), space.takes_among_first(r, s3, upto)));
    }
  }
  return out;
}

}  // namespace iso::cegis
