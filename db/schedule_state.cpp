// The schedule state of schedule_state.hpp: steps placed and unplaced, and
// what a read returns under each read model.
#include "db/schedule_state.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace iso::db {

namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A part of the fingerprint: a tag (which kind of part) and two numbers.
std::uint64_t part(std::uint64_t tag, std::uint64_t x, std::uint64_t y) {
  return mix(mix(mix(tag) ^ x) + y);
}

enum : std::uint64_t { kPhasePart = 1, kSnapshotPart, kKeyPart, kCommittedPart, kDonePart };

}  // namespace

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
  lookahead_ = !h.has_predicate_writes();
  external_.resize(h.keys().size());
  last_writers_.resize(h.keys().size());
  writes_.resize(h.keys().size());
  for (TxnId t = 1; lookahead_ && t < h.num_txns(); ++t) {
    const auto& ops = h.txn(t).ops;
    std::vector<char> written(h.keys().size(), 0);
    std::vector<std::optional<ValueId>> last(h.keys().size());
    for (std::uint32_t i = 0; i < ops.size(); ++i) {
      if (ops[i].kind == OpKind::Write) {
        writes_[ops[i].key].push_back({ops[i].value, {t, i}});
        written[ops[i].key] = 1;
        last[ops[i].key] = ops[i].value;
      }
      if (ops[i].kind == OpKind::Read && ops[i].list == kNoList && !written[ops[i].key])
        external_[ops[i].key].push_back(ExternalRead{t, i, ops[i].value});
    }
    if (h.txn(t).status == TxnStatus::Aborted) continue;  // never committed
    for (KeyId k = 0; k < last.size(); ++k)
      if (last[k]) last_writers_[k].emplace_back(*last[k], t);
  }
  for (auto& w : last_writers_) std::sort(w.begin(), w.end());
  for (auto& w : writes_) std::sort(w.begin(), w.end());
  phase_.assign(h.num_txns(), Phase::Waiting);
  phase_[kInitTxn] = Phase::Committed;
  snapshot_.assign(h.num_txns(), 0);
  commit_seq_.assign(h.num_txns(), 0);
  wrote_.resize(h.num_txns());
  snapshot_hash_.assign(h.num_txns(), 0);
  mark_.assign(h.num_txns(), 0);
  for (TxnId t = 1; t < h.num_txns(); ++t) toggle(part(kPhasePart, t, static_cast<std::uint64_t>(Phase::Waiting)));
  key_hash_.assign(h.keys().size(), 0);
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    toggle(part(kKeyPart, k, 0));
    rehash(k);
  }
}

void Execution::toggle(std::uint64_t p) {
  print_.first ^= mix(p + 0x9e3779b97f4a7c15ULL);
  print_.second ^= mix(p * 0xff51afd7ed558ccdULL + 0x243f6a8885a308d3ULL);
}

void Execution::toggle_done(TxnId t, std::uint32_t op) { toggle(part(kDonePart, t, op)); }

void Execution::set_phase(TxnId t, Phase p) {
  toggle(part(kPhasePart, t, static_cast<std::uint64_t>(phase_[t])));
  phase_[t] = p;
  toggle(part(kPhasePart, t, static_cast<std::uint64_t>(p)));
}

// Under Snapshot a running transaction's snapshot is part of the state (the
// committed set at its first step); once it has ended, no longer.
void Execution::toggle_snapshot(TxnId t) {
  if (model_ == ReadModel::Snapshot) toggle(part(kSnapshotPart, t, snapshot_hash_[t]));
}

void Execution::begin(TxnId t) {
  set_phase(t, Phase::Running);
  snapshot_[t] = commits_;
  snapshot_hash_[t] = committed_;
  toggle_snapshot(t);
}

void Execution::unbegin(TxnId t) {
  toggle_snapshot(t);
  set_phase(t, Phase::Waiting);
}

void Execution::end(TxnId t, bool commit) {
  toggle_snapshot(t);
  set_phase(t, commit ? Phase::Committed : Phase::Aborted);
  if (commit) {
    commit_seq_[t] = commits_++;
    committed_ ^= part(kCommittedPart, t, 0);
  } else {
    for (KeyId k : wrote_[t]) rehash(k);  // its versions are seen by no one now
  }
}

void Execution::unend(TxnId t) {
  const Phase was = phase_[t];
  if (was == Phase::Committed) {
    --commits_;
    committed_ ^= part(kCommittedPart, t, 0);
  }
  set_phase(t, Phase::Running);
  if (was == Phase::Aborted)
    for (KeyId k : wrote_[t]) rehash(k);
  toggle_snapshot(t);
}

void Execution::write(TxnId t, KeyId k, ValueId v) {
  versions_[k].push_back(Version{t, v});
  wrote_[t].push_back(k);
  rehash(k);
}

void Execution::unwrite(KeyId k) {
  wrote_[versions_[k].back().txn].pop_back();
  versions_[k].pop_back();
  rehash(k);
}

void Execution::rehash(KeyId k) {
  toggle(part(kKeyPart, k, key_hash_[k]));
  if (++stamp_ == 0) {  // wrapped: forget every visit
    std::fill(mark_.begin(), mark_.end(), 0);
    stamp_ = 1;
  }
  kept_.clear();
  const auto& vs = versions_[k];
  for (auto it = vs.rbegin(); it != vs.rend(); ++it) {
    if (phase_[it->txn] == Phase::Aborted) continue;  // rolled back: seen by no one
    if (!list_key_[k]) {
      if (mark_[it->txn] == stamp_) continue;  // an earlier write by a transaction that wrote k again
      mark_[it->txn] = stamp_;
    }
    kept_.push_back(&*it);
  }
  std::uint64_t h = 0;
  for (auto it = kept_.rbegin(); it != kept_.rend(); ++it)
    h = mix(h + ((static_cast<std::uint64_t>((*it)->txn) << 32) | (*it)->value) + 1);
  key_hash_[k] = h;
  toggle(part(kKeyPart, k, h));
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

bool Execution::read_lost_after_write(TxnId t, KeyId k, const std::vector<std::vector<char>>& done) const {
  if (!lookahead_ || model_ != ReadModel::Uncommitted) return false;
  const auto& vs = versions_[k];
  for (const ExternalRead& r : external_[k]) {
    if (r.txn == t || done[r.txn][r.op] || phase_[r.txn] == Phase::Committed || phase_[r.txn] == Phase::Aborted)
      continue;
    // The versions the read may still return: from the latest down to the
    // first that no rollback to come removes.
    bool possible = false, reached_initial = true;
    for (auto it = vs.rbegin(); it != vs.rend() && !possible; ++it) {
      if (phase_[it->txn] == Phase::Aborted) continue;
      possible = it->value == r.value;
      if (!(phase_[it->txn] == Phase::Running && h_.txn(it->txn).status == TxnStatus::Aborted)) {
        reached_initial = false;
        break;
      }
    }
    if (!possible && reached_initial) possible = born_initially(k) && h_.init_value(k) == r.value;
    const auto& w = writes_[k];
    for (auto it = std::lower_bound(w.begin(), w.end(), std::make_pair(r.value, std::make_pair(TxnId{0}, std::uint32_t{0})));
         it != w.end() && it->first == r.value && !possible; ++it) {
      const auto [writer, op] = it->second;
      possible = writer != r.txn && !done[writer][op];
    }
    if (!possible) return true;
  }
  return false;
}

bool Execution::read_lost_after_commit(TxnId t, const std::vector<std::vector<char>>& done) const {
  if (!lookahead_ || model_ == ReadModel::Uncommitted) return false;
  for (KeyId k : wrote_[t]) {
    // The latest committed version of k.
    std::optional<ValueId> latest;
    for (auto it = versions_[k].rbegin(); it != versions_[k].rend() && !latest; ++it)
      if (phase_[it->txn] == Phase::Committed) latest = it->value;
    if (!latest && born_initially(k)) latest = h_.init_value(k);
    for (const ExternalRead& r : external_[k]) {
      const bool pending = model_ == ReadModel::Snapshot ? phase_[r.txn] == Phase::Waiting
                                                         : phase_[r.txn] != Phase::Committed &&
                                                               phase_[r.txn] != Phase::Aborted && !done[r.txn][r.op];
      if (!pending || (latest && *latest == r.value)) continue;
      const auto& w = last_writers_[k];
      bool possible = false;
      for (auto it = std::lower_bound(w.begin(), w.end(), std::make_pair(r.value, TxnId{0}));
           it != w.end() && it->first == r.value && !possible; ++it)
        possible = it->second != r.txn && (phase_[it->second] == Phase::Waiting || phase_[it->second] == Phase::Running);
      if (!possible) return true;
    }
  }
  return false;
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

}  // namespace iso::db
