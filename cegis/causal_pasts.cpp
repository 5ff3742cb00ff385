// Stale writers ruled out under causal consistency, from the observed
// causal pasts of free reads (cegis/causal_pasts.hpp states the argument).
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
  // Per key and session: the positions of its writes of the key, and the
  // first operations of its writers of the key, in session order.
  writes_at_.resize(h.keys().size());
  writers_at_.resize(h.keys().size());
  for (std::size_t s = 0; s < S_; ++s)
    for (TxnId t : h.sessions()[s]) {
      const auto& ops = h.txn(t).ops;
      for (std::uint32_t i = 0; i < ops.size(); ++i)
        if (ops[i].kind == OpKind::Write) {
          const KeyId k = ops[i].key;
          if (writes_at_[k].empty()) {
            writes_at_[k].resize(S_);
            writers_at_[k].resize(S_);
          }
          writes_at_[k][s].push_back(first_op_[t] + i);
          if (*tr.first_write(t, k) == i) writers_at_[k][s].push_back(first_op_[t]);
        }
    }
}

const std::vector<std::size_t>& CausalPasts::at(const std::vector<PerSession>& m, KeyId k, std::size_t s) const {
  static const std::vector<std::size_t> none;
  return m[k].empty() ? none : m[k][s];
}

std::size_t CausalPasts::op_id(TxnId t, std::size_t i) const {
  return base_[tr_.place[t].first] + first_op_[t] + i;
}

CausalPasts::Past CausalPasts::own_past(std::size_t r) const {
  // Strict: up to r. Relaxed: up to r's transaction (its reads are free).
  const auto& rd = tr_.reads[r];
  const std::size_t upto = first_op_[rd.txn] + (mode_ == PredictMode::Strict ? rd.op : 0);
  Past past(S_, 0);
  if (upto > 0) std::copy_n(&clock_[(base_[rd.session] + upto - 1) * S_], S_, past.begin());
  return past;
}

CausalPasts::Past CausalPasts::txn_past(TxnId t, bool inclusive) const {
  const std::size_t upto = first_op_[t] + (inclusive ? tr_.h.txn(t).ops.size() : 0);
  Past past(S_, 0);
  if (upto > 0) std::copy_n(&clock_[(base_[tr_.place[t].first] + upto - 1) * S_], S_, past.begin());
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
    const auto& ws = at(writes_at_, rd.key, s2);
    const auto m = std::lower_bound(ws.begin(), ws.end(), past[s2]);
    if (m == ws.begin()) continue;
    const std::size_t mp = *std::prev(m);
    const TxnId t2 = txn_at_[s2][mp];
    out.initial = true;
    for (std::size_t s3 = 0; s3 < S_; ++s3)
      limit[s3] = std::max<std::uint32_t>(limit[s3], s3 == s2 ? static_cast<std::uint32_t>(first_op_[t2])
                                                              : clock_[(base_[s2] + mp) * S_ + s3]);
  }
  for (std::size_t s3 = 0; s3 < S_; ++s3) {
    const auto& fs = at(writers_at_, rd.key, s3);
    out.first[s3] = static_cast<std::size_t>(std::lower_bound(fs.begin(), fs.end(), limit[s3]) - fs.begin());
  }
  return out;
}

bool CausalPasts::after(TxnId w, TxnId t) const {
  const std::size_t here = tr_.place[t].first;
  if (tr_.place[w].first == here) return tr_.place[w].second > tr_.place[t].second;
  // w's past up to its last operation (a writer has one), in t's session.
  const std::size_t last = first_op_[w] + tr_.h.txn(w).ops.size() - 1;
  return clock_[(base_[tr_.place[w].first] + last) * S_ + here] > first_op_[t];
}

bool CausalPasts::is_stale(std::size_t r, const Stale& st, TxnId w) const {
  if (w == kInitTxn) return st.initial;
  const auto& rd = tr_.reads[r];
  const auto [s, j] = tr_.place[w];
  if (s == rd.session && j > rd.index) return true;
  const auto& fs = at(writers_at_, rd.key, s);
  return static_cast<std::size_t>(std::lower_bound(fs.begin(), fs.end(), first_op_[w]) - fs.begin()) < st.first[s];
}

std::vector<BLit> CausalPasts::rule_out_all(const PredictionSpace& space, Circuit& c) const {
  std::vector<BLit> out;
  if (clock_.empty()) return out;
  for (std::size_t r = 0; r < tr_.reads.size(); ++r) {
    const auto& rd = tr_.reads[r];
    if (!rd.event) continue;
    // (The observed writer may be among the stale ones when CC does not
    // allow the observed run: then the read, free, must change.)
    const Stale st = stale(r, own_past(r));
    if (st.initial && tr_.h.t0_writes(rd.key))
      out.push_back(!space.takes_initial(r));
    for (std::size_t s3 = 0; s3 < S_; ++s3) {
      if (st.first[s3] > 0) out.push_back(!space.takes_among_first(r, s3, st.first[s3]));
      if (s3 != rd.session) continue;
      // Writers after the reader in its session. (One in another session
      // that happens after the reader's transaction is complete only if that
      // transaction is: the space rules it out.)
      const auto& fs = at(writers_at_, rd.key, s3);
      const auto upto = static_cast<std::size_t>(std::upper_bound(fs.begin(), fs.end(), first_op_[rd.txn]) - fs.begin());
      if (upto < fs.size())
        out.push_back(c.implies(space.takes_among_first(r, s3, fs.size()), space.takes_among_first(r, s3, upto)));
    }
  }
  return out;
}

std::vector<BLit> CausalPasts::rule_out_joined(const PredictionSpace& space, Circuit& c, std::size_t budget) const {
  std::vector<BLit> out;
  if (clock_.empty() || mode_ != PredictMode::Relaxed) return out;
  const History& h = tr_.h;
  std::size_t examined = 0;
  for (TxnId t = 1; t < h.num_txns() && examined < budget; ++t) {
    const auto [first, last] = tr_.reads_of(t);
    std::vector<std::size_t> events;
    for (std::size_t r = first; r < last; ++r)
      if (tr_.reads[r].event) events.push_back(r);
    if (events.empty()) continue;
    // What the transaction's past already rules out (rule_out_all's units:
    // with a relaxed boundary, a read's own past is its transaction's).
    const Past before = txn_past(t, false);
    std::vector<Stale> own;
    for (std::size_t r : events) own.push_back(stale(r, before));
    // Its reads' writers, each with the reads that may take it (not one
    // that happens after t: it is complete only if t is, which the space
    // already rules out).
    std::vector<std::pair<TxnId, std::size_t>> takers;
    for (std::size_t i = 0; i < events.size(); ++i)
      for (TxnId w : tr_.writers_of(tr_.reads[events[i]].key))
        if (w != kInitTxn && w != t && !is_stale(events[i], own[i], w) && !after(w, t)) takers.emplace_back(w, i);
    std::sort(takers.begin(), takers.end());
    for (std::size_t a = 0; a < takers.size() && examined < budget;) {
      const TxnId w1 = takers[a].first;
      std::size_t b = a;
      while (b < takers.size() && takers[b].first == w1) ++b;
      // The transaction's past joined with w1's.
      const Past of_w1 = txn_past(w1, true);
      Past joined(S_);
      bool grows = false;
      for (std::size_t s = 0; s < S_; ++s) {
        grows = grows || of_w1[s] > before[s];
        joined[s] = std::max(of_w1[s], before[s]);
      }
      if (grows) {
        examined += events.size();
        // What the joined past newly rules out for any read of the
        // transaction: a prefix of each session's writers, and T0.
        std::vector<BLit> excluded;
        for (std::size_t i = 0; i < events.size(); ++i) {
          const Stale st = stale(events[i], joined);
          if (st.initial && !own[i].initial) excluded.push_back(space.takes_initial(events[i]));
          for (std::size_t s3 = 0; s3 < S_; ++s3)
            if (st.first[s3] > own[i].first[s3])
              excluded.push_back(space.takes_among_first(events[i], s3, st.first[s3]));
        }
        if (!excluded.empty()) {
          std::vector<BLit> takes;
          for (std::size_t k = a; k < b; ++k) takes.push_back(space.reads_from(events[takers[k].second], w1));
          const BLit any = c.or_(takes);
          for (BLit x : excluded) out.push_back(c.or_(!any, !x));
        }
      }
      a = b;
    }
  }
  return out;
}

}  // namespace iso::cegis
