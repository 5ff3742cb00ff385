// Witnesses (witness.hpp): a relation's tuples, an order's sequence, a
// version order per key.
#include "engine/decide/witness.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace iso {

std::vector<TxnId> order_sequence(const std::vector<std::vector<std::uint32_t>>& pairs,
                                  const std::vector<TxnId>& txns) {
  // A strict total order: sort by the number of predecessors.
  std::vector<std::pair<std::size_t, TxnId>> rank;
  for (TxnId t : txns) {
    std::size_t preds = 0;
    for (const auto& p : pairs) preds += p.size() == 2 && p[1] == t;
    rank.emplace_back(preds, t);
  }
  std::sort(rank.begin(), rank.end());
  std::vector<TxnId> seq;
  for (const auto& r : rank) seq.push_back(r.second);
  return seq;
}

std::vector<std::vector<std::uint32_t>> tuples_of(const Witness& w, const WitnessRelation& r) {
  using Form = WitnessRelation::Form;
  std::vector<std::vector<std::uint32_t>> out;
  auto all_pairs = [&](const std::vector<TxnId>& seq, std::optional<KeyId> key) {
    for (std::size_t i = 0; i < seq.size(); ++i)
      for (std::size_t j = i + 1; j < seq.size(); ++j)
        out.push_back(key ? std::vector<std::uint32_t>{*key, seq[i], seq[j]}
                          : std::vector<std::uint32_t>{seq[i], seq[j]});
  };
  switch (r.form) {
    case Form::Tuples: out = r.tuples; break;
    case Form::Order: all_pairs(r.sequence, std::nullopt); break;
    case Form::PerKey:
      for (const auto& [k, seq] : r.per_key) all_pairs(seq, k);
      break;
    case Form::Snapshots: {
      std::vector<TxnId> committed;
      for (const ScheduleEvent& e : w.schedule) {
        if (e.commit) {
          committed.push_back(e.txn);
          continue;
        }
        out.push_back({kInitTxn, e.txn});
        for (TxnId u : committed) out.push_back({u, e.txn});
      }
      break;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::pair<KeyId, std::vector<TxnId>>> key_sequences(const WitnessRelation& r) {
  if (r.form == WitnessRelation::Form::PerKey) return r.per_key;
  // Tuples (k, a, b) of a strict order per key: each key's transactions by
  // their number of predecessors.
  std::map<KeyId, std::map<TxnId, std::size_t>> preds;
  for (const auto& t : r.tuples) {
    if (t.size() != 3) continue;
    preds[t[0]][t[1]] += 0;
    preds[t[0]][t[2]] += 1;
  }
  std::vector<std::pair<KeyId, std::vector<TxnId>>> out;
  for (const auto& [k, count] : preds) {
    std::vector<std::pair<std::size_t, TxnId>> rank;
    for (const auto& [t, n] : count) rank.emplace_back(n, t);
    std::sort(rank.begin(), rank.end());
    std::vector<TxnId> seq;
    for (const auto& [n, t] : rank) seq.push_back(t);
    out.emplace_back(k, std::move(seq));
  }
  return out;
}

}  // namespace iso
