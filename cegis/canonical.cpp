// A history's canonical form up to renaming (cegis/canonical.hpp): the least
// serialization over every order of the members and of the keys used.
#include "cegis/canonical.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

namespace iso::cegis {

namespace {

// Markers in a serialization, above any id or rank a history has.
enum Code : std::uint32_t {
  kTxnMark = 0xFFFFFF00u,
  kRead,
  kList,
  kPredicate,
  kWrite,
  kPredicateWrite,
};

class Serializer {
 public:
  Serializer(const History& h, bool ordered_reads) : h_(h), ordered_(ordered_reads) {
    std::set<KeyId> used;
    for (TxnId t = 1; t < h.num_txns(); ++t) {
      if (h.txn(t).ops.empty()) continue;
      members_.push_back(t);
      for (const Op& op : h.txn(t).ops) {
        if (op.kind == OpKind::Read || op.kind == OpKind::Write) used.insert(op.key);
        if (op.kind == OpKind::PredicateRead)
          for (const auto& kv : h.predicate_reads()[op.predicate].result) used.insert(kv.first);
      }
    }
    keys_.assign(used.begin(), used.end());
    rank_events();
  }

  std::vector<TxnId>& members() { return members_; }
  std::vector<KeyId>& keys() { return keys_; }

  // The serialization with the members in `members()`'s order and key
  // keys()[i] renamed i.
  CanonicalForm serialize() {
    key_new_.assign(h_.keys().size(), UINT32_MAX);
    for (std::uint32_t i = 0; i < keys_.size(); ++i) key_new_[keys_[i]] = i;
    values_.assign(keys_.size(), {});
    std::vector<std::uint32_t> pos(h_.num_txns(), 0);
    for (std::uint32_t i = 0; i < members_.size(); ++i) pos[members_[i]] = i + 1;
    CanonicalForm out;
    for (std::uint32_t i = 0; i < members_.size(); ++i) {
      const Transaction& t = h_.txn(members_[i]);
      std::uint32_t session_first = i + 1;
      if (t.session != kNoSession)
        for (TxnId m : h_.sessions()[t.session])
          if (pos[m] != 0) session_first = std::min(session_first, pos[m]);
      out.insert(out.end(), {kTxnMark, static_cast<std::uint32_t>(t.status), session_first,
                             ranks_[members_[i]].first, ranks_[members_[i]].second});
      ops(t, out);
    }
    return out;
  }

 private:
  // Value v of key k renamed: the initial value 0, the others 1, 2, ... in
  // order of first appearance.
  std::uint32_t value(KeyId k, ValueId v) {
    if (v == h_.init_value(k)) return 0;
    auto& seen = values_[key_new_[k]];
    const auto it = std::find(seen.begin(), seen.end(), v);
    if (it != seen.end()) return static_cast<std::uint32_t>(it - seen.begin()) + 1;
    seen.push_back(v);
    return static_cast<std::uint32_t>(seen.size());
  }

  void ops(const Transaction& t, CanonicalForm& out) {
    std::vector<const Op*> reads, writes;
    for (const Op& op : t.ops)
      (op.kind == OpKind::Read || op.kind == OpKind::PredicateRead ? reads : writes).push_back(&op);
    auto key_of = [&](const Op* op) {
      return op->kind == OpKind::Read || op->kind == OpKind::Write ? key_new_[op->key] : UINT32_MAX;
    };
    auto by_key = [&](const Op* a, const Op* b) { return key_of(a) < key_of(b); };
    if (!ordered_) std::stable_sort(reads.begin(), reads.end(), by_key);
    std::stable_sort(writes.begin(), writes.end(), by_key);
    for (const Op* op : reads) read(*op, out);
    for (const Op* op : writes) {
      if (op->kind == OpKind::Write) out.insert(out.end(), {kWrite, key_new_[op->key], value(op->key, op->value)});
      else out.insert(out.end(), {kPredicateWrite, op->value});
    }
  }

  void read(const Op& op, CanonicalForm& out) {
    if (op.kind == OpKind::PredicateRead) {
      std::vector<std::pair<std::uint32_t, std::pair<KeyId, ValueId>>> result;
      for (const auto& kv : h_.predicate_reads()[op.predicate].result) result.push_back({key_new_[kv.first], kv});
      std::sort(result.begin(), result.end());
      out.push_back(kPredicate);
      for (const auto& [k, kv] : result) out.insert(out.end(), {k, value(kv.first, kv.second)});
      out.push_back(kPredicate);
      return;
    }
    if (op.list == kNoList) {
      out.insert(out.end(), {kRead, key_new_[op.key], value(op.key, op.value)});
      return;
    }
    out.insert(out.end(), {kList, key_new_[op.key]});
    for (ValueId v : h_.lists()[op.list]) out.push_back(value(op.key, v));
    out.push_back(kList);
  }

  // Each member's begin and commit as ranks among all events (1, 2, ...;
  // equal times equal ranks; 0: none), which renaming keeps.
  void rank_events() {
    std::set<std::int64_t> times;
    for (TxnId t : members_)
      for (const auto& e : {h_.txn(t).begin, h_.txn(t).commit})
        if (e) times.insert(*e);
    const std::vector<std::int64_t> sorted(times.begin(), times.end());
    auto rank = [&](const std::optional<std::int64_t>& e) -> std::uint32_t {
      if (!e) return 0;
      return static_cast<std::uint32_t>(std::lower_bound(sorted.begin(), sorted.end(), *e) - sorted.begin()) + 1;
    };
    ranks_.assign(h_.num_txns(), {0, 0});
    for (TxnId t : members_) ranks_[t] = {rank(h_.txn(t).begin), rank(h_.txn(t).commit)};
  }

  const History& h_;
  bool ordered_;
  std::vector<TxnId> members_;
  std::vector<KeyId> keys_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranks_;
  std::vector<std::uint32_t> key_new_;
  std::vector<std::vector<ValueId>> values_;  // per renamed key, in order of appearance
};

// What renaming keeps of a member: status, session size, numbers of reads,
// of reads of an initial value, of writes.
std::array<std::uint32_t, 5> signature(const History& h, TxnId t) {
  const Transaction& x = h.txn(t);
  std::array<std::uint32_t, 5> m{static_cast<std::uint32_t>(x.status),
                                 x.session == kNoSession ? 1u : static_cast<std::uint32_t>(h.sessions()[x.session].size()),
                                 0, 0, 0};
  for (const Op& op : x.ops) {
    if (op.kind == OpKind::Read || op.kind == OpKind::PredicateRead) ++m[2];
    if (op.kind == OpKind::Read && op.list == kNoList && op.value == h.init_value(op.key)) ++m[3];
    if (op.kind == OpKind::Write || op.kind == OpKind::PredicateWrite) ++m[4];
  }
  return m;
}

// The next order of `v` that keeps each group [starts[i], starts[i + 1]) in
// place (as std::next_permutation over their product); false after the last.
bool next_grouped(std::vector<TxnId>& v, const std::vector<std::size_t>& starts) {
  for (std::size_t g = starts.size() - 1; g-- > 0;)
    if (std::next_permutation(v.begin() + static_cast<std::ptrdiff_t>(starts[g]),
                              v.begin() + static_cast<std::ptrdiff_t>(starts[g + 1])))
      return true;
  return false;
}

std::uint64_t factorial(std::size_t n) {
  std::uint64_t f = 1;
  for (std::size_t i = 2; i <= n; ++i) f = std::min<std::uint64_t>(f * i, kMaxRenamings + 1);
  return f;
}

}  // namespace

CanonicalForm canonical_form(const History& h, bool ordered_reads) {
  Serializer s(h, ordered_reads);
  // Members ordered by what renaming keeps of them (signature), and only
  // orders inside each group of equal signatures tried: the least
  // serialization over those is canonical as well.
  std::vector<TxnId>& members = s.members();
  std::sort(members.begin(), members.end(), [&](TxnId a, TxnId b) {
    return std::pair(signature(h, a), a) < std::pair(signature(h, b), b);
  });
  std::vector<std::size_t> starts{0};
  std::uint64_t renamings = factorial(s.keys().size());
  for (std::size_t i = 1; i <= members.size(); ++i)
    if (i == members.size() || signature(h, members[i]) != signature(h, members[i - 1])) {
      renamings = std::min<std::uint64_t>(renamings * factorial(i - starts.back()), kMaxRenamings + 1);
      starts.push_back(i);
    }
  if (renamings > kMaxRenamings)
    throw std::invalid_argument(fmt::format(
        "telling histories apart up to renaming takes more than {} renamings here: use a smaller scope",
        kMaxRenamings));
  CanonicalForm best;
  bool first = true;
  do {
    do {
      CanonicalForm f = s.serialize();
      if (first || f < best) best = std::move(f);
      first = false;
    } while (std::next_permutation(s.keys().begin(), s.keys().end()));
  } while (next_grouped(members, starts));
  return best;
}

std::vector<std::uint32_t> renaming_invariant(const History& h) {
  Serializer s(h, false);
  std::vector<std::array<std::uint32_t, 5>> members;
  for (TxnId t : s.members()) members.push_back(signature(h, t));
  std::sort(members.begin(), members.end());
  std::vector<std::uint32_t> out{static_cast<std::uint32_t>(members.size()), static_cast<std::uint32_t>(s.keys().size())};
  for (const auto& m : members) out.insert(out.end(), m.begin(), m.end());
  return out;
}

ExcludedHistories::ExcludedHistories(const std::vector<History>& excluded, bool ordered_reads)
    : excluded_(excluded), ordered_(ordered_reads), forms_(excluded.size()) {
  for (const History& h : excluded) invariants_.push_back(renaming_invariant(h));
}

bool ExcludedHistories::contains(const History& h) const {
  const std::vector<std::uint32_t> inv = renaming_invariant(h);
  std::optional<CanonicalForm> form;
  for (std::size_t i = 0; i < excluded_.size(); ++i) {
    if (invariants_[i] != inv) continue;
    if (!form) form = canonical_form(h, ordered_);
    if (!forms_[i]) forms_[i] = canonical_form(excluded_[i], ordered_);
    if (*forms_[i] == *form) return true;
  }
  return false;
}

}  // namespace iso::cegis
