#include "db/schedule_state.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace iso::db {

Execution::Execution(const History& h, ReadModel model)
    : h_(h), model_(model), list_key_(h.keys().size(), 0), versions_(h.keys().size()) {
  for (const Transaction& t : h.txns())
    for (const Op& op : t.ops)
      if (op.kind == OpKind::Read && op.list != kNoList) list_key_[op.key] = 1;
  const KeyIndex index(h);
  for (const PredicateRead& pr : h.predicate_reads()) {
    std::string why;
    auto p = parse_predicate(pr.predicate, &why);
    if (!p) throw std::invalid_argument(fmt::format("predicate {}: {}", pr.predicate, why));
    std::vector<KeyId> keys = index.covered(*p);
    std::sort(keys.begin(), keys.end());
    covered_.push_back(std::move(keys));
    predicates_.push_back(std::move(*p));
    auto result = pr.result;
    std::sort(result.begin(), result.end());
    results_.push_back(std::move(result));
  }
  phase_.assign(h.num_txns(), Phase::Waiting);
  phase_[kInitTxn] = Phase::Committed;
  snapshot_.assign(h.num_txns(), 0);
  commit_seq_.assign(h.num_txns(), 0);
}

void Execution::begin(TxnId t) {
  phase_[t] = Phase::Running;
  snapshot_[t] = commits_;
}

void Execution::end(TxnId t, bool commit) {
  phase_[t] = commit ? Phase::Committed : Phase::Aborted;
  if (commit) commit_seq_[t] = commits_++;
}

void Execution::unend(TxnId t) {
  if (phase_[t] == Phase::Committed) --commits_;
  phase_[t] = Phase::Running;
}

bool Execution::sees(TxnId r, TxnId w) const {
  switch (model_) {
    case ReadModel::Snapshot: return phase_[w] == Phase::Committed && commit_seq_[w] < snapshot_[r];
    case ReadModel::Committed: return phase_[w] == Phase::Committed;
    case ReadModel::Uncommitted: return phase_[w] != Phase::Aborted;
  }
  return false;
}

bool Execution::blocked(TxnId t, KeyId k) const {
  for (const Version& v : versions_[k])
    if (v.txn != t && phase_[v.txn] == Phase::Running) return true;
  return false;
}

std::optional<ValueId> Execution::value(TxnId t, KeyId k) const {
  const auto& vs = versions_[k];
  for (auto it = vs.rbegin(); it != vs.rend(); ++it)
    if (it->txn == t) return it->value;
  for (auto it = vs.rbegin(); it != vs.rend(); ++it)
    if (sees(t, it->txn)) return it->value;
  if (born_initially(k)) return h_.init_value(k);
  return std::nullopt;
}

std::optional<std::vector<ValueId>> Execution::list(TxnId t, KeyId k) const {
  std::vector<ValueId> out;
  for (const Version& v : versions_[k])
    if (v.txn == t || sees(t, v.txn)) out.push_back(v.value);
  if (out.empty() && !born_initially(k)) return std::nullopt;
  return out;
}

std::vector<std::pair<KeyId, ValueId>> Execution::predicate_result(TxnId t, std::uint32_t predicate) const {
  std::vector<std::pair<KeyId, ValueId>> out;
  const Predicate& p = predicates_[predicate];
  for (KeyId k : covered_[predicate]) {
    const auto v = value(t, k);
    if (v && p.holds(h_.keys()[k], h_.values()[*v])) out.emplace_back(k, *v);
  }
  return out;
}

std::vector<KeyId> Execution::written_keys(TxnId t, const Op& op) const {
  if (op.kind == OpKind::Write) return {op.key};
  std::vector<KeyId> out;
  if (op.kind != OpKind::PredicateWrite) return out;
  const Predicate& p = predicates_[op.predicate];
  for (KeyId k : covered_[op.predicate]) {
    const auto v = value(t, k);
    if (v && p.holds(h_.keys()[k], h_.values()[*v])) out.push_back(k);
  }
  return out;
}

bool Execution::read_holds(TxnId t, const Op& op) const {
  if (op.kind == OpKind::PredicateRead) return predicate_result(t, op.predicate) == results_[op.predicate];
  if (op.kind != OpKind::Read) return true;
  if (op.list == kNoList) {
    const auto v = value(t, op.key);
    return v && *v == op.value;
  }
  const auto l = list(t, op.key);
  return l && *l == h_.lists()[op.list];
}

bool Execution::snapshot_reads_hold(TxnId t) {
  std::vector<KeyId> written;
  bool ok = true;
  for (const Op& op : h_.txn(t).ops) {
    if (!read_holds(t, op)) {
      ok = false;
      break;
    }
    if (op.kind == OpKind::Write || op.kind == OpKind::PredicateWrite)
      for (KeyId k : written_keys(t, op)) {
        write(t, k, op.value);
        written.push_back(k);
      }
  }
  for (auto it = written.rbegin(); it != written.rend(); ++it) unwrite(*it);
  return ok;
}

bool Execution::conflict(const Op& a, const Op& b) const {
  const auto predicate = [](const Op& o) {
    return o.kind == OpKind::PredicateRead || o.kind == OpKind::PredicateWrite;
  };
  return predicate(a) || predicate(b) || a.key == b.key;
}

bool Execution::values_written(const History& h) const {
  // (key, value) pairs some write produces; predicate writes may write any
  // key they cover.
  std::vector<std::vector<ValueId>> written(h.keys().size());
  for (KeyId k = 0; k < h.keys().size(); ++k)
    if (h.t0_writes(k)) written[k].push_back(h.init_value(k));
  for (TxnId t = 1; t < h.num_txns(); ++t)
    for (const Op& op : h.txn(t).ops) {
      if (op.kind == OpKind::Write) written[op.key].push_back(op.value);
      if (op.kind == OpKind::PredicateWrite)
        for (KeyId k : covered_[op.predicate]) written[k].push_back(op.value);
    }
  for (auto& w : written) {
    std::sort(w.begin(), w.end());
    w.erase(std::unique(w.begin(), w.end()), w.end());
  }
  const auto has = [&](KeyId k, ValueId v) { return std::binary_search(written[k].begin(), written[k].end(), v); };
  for (TxnId t = 1; t < h.num_txns(); ++t)
    for (const Op& op : h.txn(t).ops) {
      if (op.kind == OpKind::Read && op.list == kNoList && !has(op.key, op.value)) return false;
      if (op.kind == OpKind::Read && op.list != kNoList)
        for (ValueId v : h.lists()[op.list])
          if (!has(op.key, v)) return false;
      if (op.kind == OpKind::PredicateRead)
        for (const auto& [k, v] : results_[op.predicate])
          if (!has(k, v)) return false;
    }
  return true;
}

void Execution::encode(const std::vector<std::vector<char>>& done, std::vector<std::uint32_t>& words) const {
  words.clear();
  const auto n = static_cast<TxnId>(phase_.size());
  for (TxnId t = 1; t < n; ++t) {
    words.push_back(static_cast<std::uint32_t>(phase_[t]));
    if (phase_[t] != Phase::Running) continue;
    std::uint32_t bits = 0;
    int used = 0;
    for (char d : done[t]) {
      bits |= static_cast<std::uint32_t>(d != 0) << used;
      if (++used == 32) {
        words.push_back(bits);
        bits = 0;
        used = 0;
      }
    }
    words.push_back(bits);
    if (model_ != ReadModel::Snapshot) continue;
    bits = 0;
    used = 0;
    for (TxnId w = 1; w < n; ++w) {
      bits |= static_cast<std::uint32_t>(sees(t, w)) << used;
      if (++used == 32) {
        words.push_back(bits);
        bits = 0;
        used = 0;
      }
    }
    words.push_back(bits);
  }
  for (KeyId k = 0; k < versions_.size(); ++k) {
    const auto& vs = versions_[k];
    words.push_back(UINT32_MAX);  // between keys
    for (std::size_t i = 0; i < vs.size(); ++i) {
      if (phase_[vs[i].txn] == Phase::Aborted) continue;  // rolled back: seen by no one
      // A register's earlier write by a transaction that wrote it again
      // later is the latest of nothing any more.
      if (!list_key_[k] && std::any_of(vs.begin() + static_cast<std::ptrdiff_t>(i) + 1, vs.end(),
                                       [&](const Version& v) { return v.txn == vs[i].txn; }))
        continue;
      words.push_back(vs[i].txn);
      words.push_back(vs[i].value);
    }
  }
}

}  // namespace iso::db
