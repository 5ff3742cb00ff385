#include "engine/history/abstract.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "engine/history/predicate.hpp"
#include "engine/history/printer.hpp"
#include "engine/util/budget.hpp"

namespace iso {

std::vector<bool> committed_members(const History& h) {
  std::vector<bool> member(h.num_txns(), false);
  for (TxnId t = 0; t < h.num_txns(); ++t) {
    member[t] = h.txn(t).status == TxnStatus::Committed;
  }
  member[kInitTxn] = true;
  return member;
}

bool AbstractHistory::writes(TxnId t, KeyId k) const {
  const auto& w = abs[t].writes;
  auto it = std::lower_bound(w.begin(), w.end(), k,
                             [](const FinalWrite& fw, KeyId key) { return fw.key < key; });
  return it != w.end() && it->key == k;
}

std::uint32_t AbstractHistory::guard_of(TxnId t, KeyId k) const {
  // Asked of every pair and edge by the checkers: nothing to search for
  // without predicate writes.
  if (guarded.empty()) return kNoGuard;
  const auto& w = abs[t].writes;
  auto it = std::lower_bound(w.begin(), w.end(), k,
                             [](const FinalWrite& fw, KeyId key) { return fw.key < key; });
  return it != w.end() && it->key == k ? it->guard : kNoGuard;
}

std::optional<std::string> predicate_write_gap(const History& h) {
  if (!h.has_predicate_writes()) return std::nullopt;
  const KeyIndex index(h);
  std::vector<std::optional<Predicate>> predicates(h.predicate_reads().size());
  auto covered = [&](std::uint32_t p) {
    if (!predicates[p]) predicates[p] = parse_predicate(h.predicate_reads()[p].predicate);
    return predicates[p] ? index.covered(*predicates[p]) : std::vector<KeyId>{};
  };
  // Whether anything other than the predicate write `pw` may have left (k, v):
  // the initial state, an item write, or another predicate write of v that
  // covers k. Indexed at the first question: (key, value) of every item
  // write, and the predicate writes by value.
  std::optional<std::unordered_set<std::uint64_t>> item_writes;
  std::unordered_map<ValueId, std::vector<std::pair<TxnId, std::uint32_t>>> pws_of_value;
  auto written_elsewhere = [&](TxnId pw_txn, std::uint32_t pw_op, KeyId k, ValueId v) {
    if (h.t0_writes(k) && h.init_value(k) == v) return true;
    if (!item_writes) {
      item_writes.emplace();
      for (TxnId u = 1; u < h.num_txns(); ++u)
        for (std::uint32_t j = 0; j < h.txn(u).ops.size(); ++j) {
          const Op& op = h.txn(u).ops[j];
          if (op.kind == OpKind::Write) item_writes->insert(std::uint64_t{op.key} << 32 | op.value);
          if (op.kind == OpKind::PredicateWrite) pws_of_value[op.value].emplace_back(u, j);
        }
    }
    if (item_writes->count(std::uint64_t{k} << 32 | v)) return true;
    for (const auto& [u, j] : pws_of_value[v]) {
      if (u == pw_txn && j == pw_op) continue;
      const auto keys = covered(h.txn(u).ops[j].predicate);
      if (std::binary_search(keys.begin(), keys.end(), k)) return true;
    }
    return false;
  };
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const Transaction& txn = h.txn(t);
    if (std::none_of(txn.ops.begin(), txn.ops.end(),
                     [](const Op& op) { return op.kind == OpKind::PredicateWrite; }))
      continue;
    std::unordered_map<KeyId, std::uint32_t> guarded;  // key -> the predicate write guarding it
    std::unordered_set<KeyId> written;  // a certain write of the transaction
    auto after = [&](const Op& op, KeyId k, std::uint32_t pw) {
      return fmt::format("{}: {} reads {} after {} in the same transaction, and depends on "
                         "whether that changed it, which is not modelled",
                         h.txn_name(t), format_op(h, op), h.key_text(k), format_op(h, txn.ops[pw]));
    };
    for (std::uint32_t i = 0; i < txn.ops.size(); ++i) {
      const Op& op = txn.ops[i];
      switch (op.kind) {
        case OpKind::Write:
          guarded.erase(op.key);
          written.insert(op.key);
          break;
        case OpKind::Read: {
          // Its value says whether the predicate write changed the key,
          // unless another write of the key left that value too.
          auto g = guarded.find(op.key);
          if (g == guarded.end()) break;
          const Op& pw = txn.ops[g->second];
          if (op.value == pw.value && written_elsewhere(t, g->second, op.key, op.value))
            return fmt::format("{}: {} returns the value {} wrote, which another write of the key "
                               "left too: whether it changed {} is ambiguous",
                               h.txn_name(t), format_op(h, op), format_op(h, pw),
                               h.key_text(op.key));
          break;
        }
        case OpKind::PredicateRead:
        case OpKind::PredicateWrite:
          for (const KeyId k : covered(op.predicate)) {
            if (auto g = guarded.find(k); g != guarded.end()) return after(op, k, g->second);
            if (op.kind == OpKind::PredicateWrite && !written.count(k)) guarded.emplace(k, i);
          }
          break;
      }
    }
  }
  return std::nullopt;
}

void CandidateTable::reset(std::size_t txns) {
  first_.assign(txns, 0);
  count_.assign(txns, 0);
  read_start_.assign(1, 0);
  writers_.clear();
  open_ = kNoTxn;
}

void CandidateTable::begin_row(TxnId t) {
  open_ = t;
  first_[t] = static_cast<std::uint32_t>(read_start_.size() - 1);
  count_[t] = 0;
}

void CandidateTable::end_read() {
  read_start_.push_back(writers_.size());
  ++count_[open_];
}

bool CandidateTable::unique() const {
  for (std::size_t r = 0; r + 1 < read_start_.size(); ++r)
    if (read_start_[r + 1] - read_start_[r] > 1) return false;
  return true;
}

void CandidateTable::remove(std::vector<std::pair<TxnId, std::uint32_t>> removed) {
  if (removed.empty()) return;
  std::sort(removed.begin(), removed.end());
  CandidateTable kept;
  kept.reset(first_.size());
  auto next = removed.begin();
  for (TxnId t = 0; t < first_.size(); ++t) {
    if (count_[t] == 0) continue;
    kept.begin_row(t);
    for (std::uint32_t i = 0; i < count_[t]; ++i) {
      if (next != removed.end() && *next == std::pair{t, i}) {
        ++next;
        continue;
      }
      for (TxnId w : (*this)[t][i]) kept.add(w);
      kept.end_read();
    }
  }
  *this = std::move(kept);
}

bool AbstractHistory::unique_values() const { return candidates.unique(); }

namespace {

using PairKey = std::uint64_t;  // (key, value) packed

// Points a guarded write at its read event in its transaction's reads (by
// key, then program order), which sorting and setting reads aside move.
void locate_read(const AbstractTxn& at, GuardedWrite& gw) {
  const auto it = std::find_if(at.reads.begin(), at.reads.end(), [&](const ExternalRead& r) {
    return r.key == gw.key && r.op == gw.op;
  });
  gw.read = static_cast<std::uint32_t>(it - at.reads.begin());
}

PairKey pair_key(KeyId k, ValueId v) {
  return (static_cast<std::uint64_t>(k) << 32) | static_cast<std::uint64_t>(v);
}

// A multimap from (key, value) to transactions: the entries sorted, and an
// open-addressing hash table from each distinct pair to its first entry.
// Every external read looks its pair up, tens of millions on large
// histories, where a binary search over the sorted entries costs a cache
// miss per step and the hash table about one.
class PairIndex {
 public:
  void add(PairKey p, TxnId t) { entries_.emplace_back(p, t); }
  void seal() {
    std::sort(entries_.begin(), entries_.end());
    std::size_t distinct = 0;
    for (std::size_t i = 0; i < entries_.size(); ++i)
      distinct += i == 0 || entries_[i].first != entries_[i - 1].first;
    std::size_t size = 16;
    shift_ = 60;
    while (size < 2 * distinct) {  // load factor at most 1/2
      size *= 2;
      --shift_;
    }
    mask_ = size - 1;
    slots_.assign(size, Slot{0, kEmpty, kNoTxn});
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (i > 0 && entries_[i].first == entries_[i - 1].first) continue;
      const bool single = i + 1 == entries_.size() || entries_[i + 1].first != entries_[i].first;
      std::size_t s = hash(entries_[i].first);
      while (slots_[s].entry != kEmpty) s = (s + 1) & mask_;
      slots_[s] = Slot{entries_[i].first, static_cast<std::uint32_t>(i),
                       single ? entries_[i].second : kNoTxn};
    }
  }
  // The transaction of `p` when it has exactly one; kNoTxn when it has none
  // or several (then find()). Answered from the hash table alone: most
  // pairs have one writer, and the entry would be a second cache miss.
  TxnId single(PairKey p, bool& found) const {
    const Slot* slot = lookup(p);
    found = slot != nullptr;
    return slot != nullptr ? slot->single : kNoTxn;
  }
  // The transactions for `p`, ascending.
  std::pair<const std::pair<PairKey, TxnId>*, const std::pair<PairKey, TxnId>*> find(
      PairKey p) const {
    const auto* end = entries_.data() + entries_.size();
    const Slot* slot = lookup(p);
    if (slot == nullptr) return {end, end};
    const auto* lo = entries_.data() + slot->entry;
    const auto* hi = lo;
    while (hi != end && hi->first == p) ++hi;
    return {lo, hi};
  }

 private:
  static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
  struct Slot {
    PairKey key;
    std::uint32_t entry;  // index of the pair's first entry; kEmpty: a free slot
    TxnId single;         // its transaction if it has one entry, else kNoTxn
  };
  const Slot* lookup(PairKey p) const {
    if (slots_.empty()) return nullptr;
    for (std::size_t s = hash(p);; s = (s + 1) & mask_) {
      if (slots_[s].entry == kEmpty) return nullptr;
      if (slots_[s].key == p) return &slots_[s];
    }
  }
  std::size_t hash(PairKey p) const {
    // Fibonacci hashing: the top bits of the product.
    return static_cast<std::size_t>((p * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  std::vector<std::pair<PairKey, TxnId>> entries_;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  unsigned shift_ = 60;
};

// Per-key state while scanning one transaction.
struct KeyState {
  std::uint32_t stamp = 0;     // the scan this state belongs to
  std::uint32_t write_op = 0;  // last write of the key
  bool written = false;
  std::uint32_t guard = kNoGuard;  // the last write is a predicate write's guarded one
};

struct Pending {
  TxnId txn;
  std::size_t read;  // index into abs[txn].reads
};

UnjustifiedRead unjustified(const History& h, const PairIndex& nonmember_final,
                            const PairIndex& intermediate, TxnId t, const ExternalRead& r) {
  const Transaction& txn = h.txn(t);
  std::string head = fmt::format("{}: {}", h.txn_name(t), format_op(h, txn.ops[r.op]));
  PairKey p = pair_key(r.key, r.value);
  UnjustifiedRead u;
  u.txn = t;
  u.op = r.op;
  auto set = [&](ReadAnomaly kind, TxnId writer, std::string message) {
    u.kind = kind;
    u.writer = writer;
    u.message = std::move(message);
    return u;
  };

  auto [f_lo, f_hi] = nonmember_final.find(p);
  for (auto it = f_lo; it != f_hi; ++it) {
    const Transaction& w = h.txn(it->second);
    if (it->second == t) continue;
    switch (w.status) {
      case TxnStatus::Aborted:
        return set(ReadAnomaly::Aborted, it->second,
                   fmt::format("{} reads the write of aborted {} (G1a)", head, w.name));
      case TxnStatus::Unknown:
        return set(ReadAnomaly::UnknownStatus, it->second,
                   fmt::format("{} reads the write of {}, whose commit status is unknown", head,
                               w.name));
      case TxnStatus::Committed:
        return set(ReadAnomaly::NotMember, it->second,
                   fmt::format("{} reads the write of {}, which is not among the transactions "
                               "considered",
                               head, w.name));
    }
  }
  auto [i_lo, i_hi] = intermediate.find(p);
  for (auto it = i_lo; it != i_hi; ++it) {
    if (it->second == t) continue;
    return set(ReadAnomaly::Intermediate, it->second,
               fmt::format("{} reads an intermediate write of {} (G1b)", head,
                           h.txn_name(it->second)));
  }
  for (std::size_t i = r.op + 1; i < txn.ops.size(); ++i) {
    const Op& op = txn.ops[i];
    if (op.kind == OpKind::Write && op.key == r.key && op.value == r.value) {
      return set(ReadAnomaly::FutureRead, t,
                 fmt::format("{} reads its own later write {}", head, format_op(h, op)));
    }
  }
  return set(ReadAnomaly::ThinAir, kNoTxn,
             fmt::format("{} reads a value no committed transaction wrote", head));
}

}  // namespace

AbstractHistory abstract_history(const History& h, std::vector<bool> member) {
  return abstract_history(h, std::move(member), AbstractOptions{});
}

AbstractHistory abstract_history(const History& h, std::vector<bool> member,
                                 const AbstractOptions& options) {
  const std::size_t n = h.num_txns();
  AbstractHistory a;
  a.history = &h;
  member.resize(n, false);
  member[kInitTxn] = true;
  a.member = std::move(member);

  a.txns.push_back(kInitTxn);
  for (const auto& session : h.sessions()) {
    for (TxnId t : session) {
      if (a.member[t]) a.txns.push_back(t);
    }
  }
  a.abs.resize(n);
  a.candidates.reset(n);
  a.so.resize(n);
  a.so_next.assign(n, kNoTxn);

  // T0 writes the initial value of every key it writes.
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    if (h.t0_writes(k)) a.abs[kInitTxn].writes.push_back(FinalWrite{k, h.init_value(k), 0});
  }

  // External reads, final writes and INT, one transaction at a time.
  // A transaction's keys: for a short transaction in a small array searched
  // linearly, for a long one in a table indexed by key (stamped per scan).
  // On large histories with many keys the table costs a cache miss per
  // operation, the array none.
  constexpr std::size_t kShort = 24;
  std::vector<KeyState> state(h.keys().size());
  std::vector<KeyId> touched;
  std::vector<std::pair<KeyId, KeyState>> local;
  local.reserve(kShort);
  std::uint32_t stamp = 0;
  // Predicate reads (AbstractOptions::predicate_reads): each parsed once;
  // what they returned that their predicate excludes is reported with the
  // other unjustified reads.
  std::vector<std::optional<Predicate>> predicates(h.predicate_reads().size());
  std::vector<UnjustifiedRead> mismatches;
  auto predicate_of = [&](std::uint32_t index) -> const std::optional<Predicate>& {
    auto& p = predicates[index];
    if (!p) p = parse_predicate(h.predicate_reads()[index].predicate);
    return p;
  };
  std::optional<KeyIndex> key_index;  // built at the first predicate read
  auto expand_predicate_read = [&](TxnId t, std::uint32_t i, auto& state_of) {
    if (!key_index) key_index.emplace(h);
    const Transaction& txn = h.txn(t);
    const Op& op = txn.ops[i];
    const PredicateRead& pr = h.predicate_reads()[op.predicate];
    const auto& pred = predicate_of(op.predicate);
    if (!pred) return;  // the readers accept only what parses
    for (const auto& [k, v] : pr.result)
      if (!pred->holds(h.keys()[k], h.values()[v]))
        mismatches.push_back(UnjustifiedRead{
            t, i, ReadAnomaly::PredicateMismatch, kNoTxn, kNoTxn,
            fmt::format("{}: {} returns {} = {}, which its predicate excludes", h.txn_name(t),
                        format_op(h, op), h.key_text(k), h.value_text(v))});
    for (const KeyId k : key_index->covered(*pred)) {
      const auto returned = std::find_if(pr.result.begin(), pr.result.end(),
                                         [&](const auto& kv) { return kv.first == k; });
      auto& s = state_of(k);
      if (s.written) {
        if (s.guard != kNoGuard) continue;  // not modelled: predicate_write_gap()
        // After the transaction's own write: it sees that write (INT).
        const ValueId own = txn.ops[s.write_op].value;
        const bool ok = returned != pr.result.end() ? returned->second == own
                                                    : !pred->holds(h.keys()[k], h.values()[own]);
        if (!ok)
          a.int_violations.push_back(IntViolation{
              t, i,
              fmt::format("{}: {} {} its own earlier write {}", h.txn_name(t), format_op(h, op),
                          returned != pr.result.end() ? "does not return" : "leaves out",
                          format_op(h, txn.ops[s.write_op])),
              IntViolation::Kind::OwnWrite, IntViolation::Pattern::NotMyOwnWrite});
        continue;
      }
      a.abs[t].reads.push_back(
          ExternalRead{k, returned != pr.result.end() ? returned->second : kInvisible, i});
    }
  };

  // A predicate write reads every key it covers and writes those whose
  // version satisfies its predicate (AbstractOptions::predicate_reads). Where
  // the transaction wrote the key before, that is its own version (INT), and
  // the write is certain either way; otherwise the read is a read event and
  // the write is guarded by its truth.
  auto expand_predicate_write = [&](TxnId t, std::uint32_t i, auto& state_of) {
    if (!key_index) key_index.emplace(h);
    const Transaction& txn = h.txn(t);
    const auto& pred = predicate_of(txn.ops[i].predicate);
    if (!pred) return;
    for (const KeyId k : key_index->covered(*pred)) {
      auto& s = state_of(k);
      if (s.written) {
        if (s.guard != kNoGuard) continue;  // not modelled: predicate_write_gap()
        if (pred->holds(h.keys()[k], h.values()[txn.ops[s.write_op].value])) s.write_op = i;
        continue;
      }
      a.abs[t].reads.push_back(ExternalRead{k, kInvisible, i});
      s.written = true;
      s.write_op = i;
      s.guard = static_cast<std::uint32_t>(a.guarded.size());
      a.guarded.push_back(GuardedWrite{t, k, i, 0, {}, true});
    }
  };

  for (TxnId t : a.txns) {
    if (t == kInitTxn) continue;
    budget::poll();
    const Transaction& txn = h.txn(t);
    AbstractTxn& at = a.abs[t];
    const std::size_t first_guard = a.guarded.size();
    ++stamp;
    touched.clear();
    local.clear();
    const bool is_short = txn.ops.size() <= kShort;
    // Valid until the next call: `local` holds at most kShort keys and
    // never reallocates.
    auto state_of = [&](KeyId k) -> KeyState& {
      if (is_short) {
        for (auto& [key, ks] : local)
          if (key == k) return ks;
        local.emplace_back(k, KeyState{});
        return local.back().second;
      }
      KeyState& ks = state[k];
      if (ks.stamp != stamp) {
        ks = KeyState{};
        ks.stamp = stamp;
        touched.push_back(k);
      }
      return ks;
    };
    for (std::uint32_t i = 0; i < txn.ops.size(); ++i) {
      const Op& op = txn.ops[i];
      if (op.kind == OpKind::PredicateRead) {
        a.has_predicate_reads = true;
        if (options.predicate_reads) expand_predicate_read(t, i, state_of);
        continue;
      }
      if (op.kind == OpKind::PredicateWrite) {
        a.has_predicate_reads = true;
        if (options.predicate_reads) expand_predicate_write(t, i, state_of);
        continue;
      }
      KeyState& s = state_of(op.key);
      if (op.kind == OpKind::Read && s.guard != kNoGuard) {
        // After a guarded write of the key: its value says the write
        // happened (INT); another value says it did not, and is what the
        // key held (predicate_write_gap() refuses the ambiguous case).
        const bool happened = op.value == txn.ops[s.write_op].value;
        a.forced_guards.emplace_back(s.guard, happened);
        if (!happened) at.reads.push_back(ExternalRead{op.key, op.value, i});
        continue;
      }
      if (op.kind == OpKind::Read) {
        if (!s.written) {
          // Not preceded by the transaction's own write of the key: an
          // external read event, a re-read included (what it may return is
          // the level's business).
          at.reads.push_back(ExternalRead{op.key, op.value, i});
        } else {
          const Op& last = txn.ops[s.write_op];
          // A list read after the transaction's own appends must end with
          // them: known_order.cpp checks that, and says it in list terms.
          if (last.value != op.value && op.list == kNoList) {
            // Plume tells a read of the transaction's own overwritten write
            // (not-my-last-write) from one of any other value.
            std::optional<std::uint32_t> overwritten;
            for (std::uint32_t j = 0; j < s.write_op && !overwritten; ++j) {
              const Op& w = txn.ops[j];
              if (w.kind == OpKind::Write && w.key == op.key && w.value == op.value)
                overwritten = j;
            }
            a.int_violations.push_back(
                overwritten
                    ? IntViolation{t, i,
                                   fmt::format("{}: {} returns its own overwritten write {}, not "
                                               "its last write {}",
                                               h.txn_name(t), format_op(h, op),
                                               format_op(h, txn.ops[*overwritten]),
                                               format_op(h, last)),
                                   IntViolation::Kind::OwnWrite,
                                   IntViolation::Pattern::NotMyLastWrite}
                    : IntViolation{t, i,
                                   fmt::format("{}: {} does not return its own earlier write {}",
                                               h.txn_name(t), format_op(h, op),
                                               format_op(h, last)),
                                   IntViolation::Kind::OwnWrite,
                                   IntViolation::Pattern::NotMyOwnWrite});
          }
        }
      } else {
        if (s.guard != kNoGuard) a.guarded[s.guard].final = false;  // overwritten
        s.written = true;
        s.write_op = i;
        s.guard = kNoGuard;
      }
    }
    auto final_write = [&](KeyId k, const KeyState& s) {
      if (s.written) at.writes.push_back(FinalWrite{k, txn.ops[s.write_op].value, s.write_op, s.guard});
    };
    for (const auto& [k, s] : local) final_write(k, s);
    for (KeyId k : touched) final_write(k, state[k]);
    // Reads by key, then in program order; writes by key (one each).
    std::sort(at.reads.begin(), at.reads.end(), [](const ExternalRead& x, const ExternalRead& y) {
      return x.key != y.key ? x.key < y.key : x.op < y.op;
    });
    std::sort(at.writes.begin(), at.writes.end(),
              [](const FinalWrite& x, const FinalWrite& y) { return x.key < y.key; });
    // The guarded writes' read events, where the sort put them.
    for (std::size_t g = first_guard; g < a.guarded.size(); ++g) locate_read(at, a.guarded[g]);
  }

  // Candidate writers: members whose final write matches (key, value).
  PairIndex final_writers;
  for (TxnId t = 0; t < n; ++t) {
    if (!a.member[t]) continue;
    for (const FinalWrite& w : a.abs[t].writes) final_writers.add(pair_key(w.key, w.value), t);
  }
  final_writers.seal();

  // List reads: what their lists show, and what they cannot show.
  ListReadAnalysis lists =
      analyse_list_reads(h, a.member, /*unknown_committed=*/!options.unknown_members_maybe,
                         ListReadPermits{options.set_aside_aborted_reads, options.set_aside_intermediate_reads});
  for (auto& v : lists.int_violations) a.int_violations.push_back(std::move(v));
  a.unjustified_reads = std::move(lists.anomalies);
  a.known_orders = std::move(lists.orders);
  a.forced_commits = std::move(lists.forced_commits);
  a.commit_implications = std::move(lists.commit_implications);
  a.notes = std::move(lists.notes);
  for (auto& m : mismatches) a.unjustified_reads.push_back(std::move(m));

  // Reads the list analysis explained already.
  std::vector<std::uint64_t> explained;
  for (const auto& u : a.unjustified_reads) explained.push_back(pair_key(u.txn, u.op));
  for (const auto& v : a.int_violations) explained.push_back(pair_key(v.txn, v.op));
  std::sort(explained.begin(), explained.end());

  // The final writes of each key, by writer (ascending): the versions an
  // invisible predicate read may have read. T0's version of a key the
  // initial state does not write is the unborn one.
  std::vector<std::vector<std::pair<TxnId, ValueId>>> key_writers;
  if (options.predicate_reads && t0_writes_unborn(h)) {
    auto& t0 = a.abs[kInitTxn].writes;
    for (KeyId k = 0; k < h.keys().size(); ++k)
      if (!h.t0_writes(k)) t0.push_back(FinalWrite{k, kUnborn, 0});
    std::sort(t0.begin(), t0.end(), [](const FinalWrite& x, const FinalWrite& y) { return x.key < y.key; });
    key_writers.resize(h.keys().size());
    for (TxnId t : a.txns)
      for (const FinalWrite& w : a.abs[t].writes) key_writers[w.key].emplace_back(t, w.value);
    for (auto& ws : key_writers) std::sort(ws.begin(), ws.end());
  }

  // The guarded write whose read event is (t, i), one transaction at a time.
  std::unordered_map<std::uint64_t, std::uint32_t> guard_of_read;
  for (std::uint32_t g = 0; g < a.guarded.size(); ++g)
    guard_of_read.emplace(pair_key(a.guarded[g].txn, a.guarded[g].read), g);

  std::vector<Pending> pending;
  for (TxnId t : a.txns) {
    const auto& reads = a.abs[t].reads;
    a.candidates.begin_row(t);
    for (std::size_t i = 0; i < reads.size(); ++i) {
      if (reads[i].value == kInvisible) {
        const Op& op = h.txn(t).ops[reads[i].op];
        const Predicate& pred = *predicate_of(op.predicate);
        const Key& key = h.keys()[reads[i].key];
        if (op.kind == OpKind::PredicateWrite) {
          // A predicate write's read: any version; those that satisfy its
          // predicate make its write happen.
          GuardedWrite& gw = a.guarded[guard_of_read.at(pair_key(t, static_cast<std::uint32_t>(i)))];
          for (const auto& [w, v] : key_writers[gw.key]) {
            if (w == t) continue;
            a.candidates.add(w);
            if (v != kUnborn && pred.holds(key, h.values()[v])) gw.satisfying.push_back(w);
          }
          a.candidates.end_read();
          continue;
        }
        // A predicate read's: the writers whose version its predicate rejects.
        for (const auto& [w, v] : key_writers[reads[i].key])
          if (w != t && (v == kUnborn || !pred.holds(key, h.values()[v]))) a.candidates.add(w);
        a.candidates.end_read();
        if (a.candidates[t][i].empty())
          a.unjustified_reads.push_back(UnjustifiedRead{
              t, reads[i].op, ReadAnomaly::PredicateMismatch, kNoTxn, kNoTxn,
              fmt::format("{}: {} leaves out {}, but every version of {} satisfies its predicate",
                          h.txn_name(t), format_op(h, op), h.key_text(reads[i].key),
                          h.key_text(reads[i].key))});
        continue;
      }
      const PairKey p = pair_key(reads[i].key, reads[i].value);
      bool found = false;
      const TxnId only = final_writers.single(p, found);
      if (only != kNoTxn) {
        if (only != t) a.candidates.add(only);
      } else if (found) {
        auto [lo, hi] = final_writers.find(p);
        for (auto it = lo; it != hi; ++it) {
          if (it->second != t) a.candidates.add(it->second);
        }
      }
      a.candidates.end_read();
      if (a.candidates[t][i].empty() &&
          !std::binary_search(explained.begin(), explained.end(), pair_key(t, reads[i].op)))
        pending.push_back(Pending{t, i});
    }
  }

  // Explain the reads without a candidate: aborted (G1a) or intermediate
  // (G1b) writes, or thin air.
  if (!pending.empty()) {
    std::vector<PairKey> needed;
    for (const Pending& p : pending) {
      const ExternalRead& r = a.abs[p.txn].reads[p.read];
      needed.push_back(pair_key(r.key, r.value));
    }
    std::sort(needed.begin(), needed.end());
    needed.erase(std::unique(needed.begin(), needed.end()), needed.end());

    PairIndex nonmember_final, intermediate;
    for (TxnId t = 1; t < n; ++t) {
      const Transaction& txn = h.txn(t);
      for (std::uint32_t i = 0; i < txn.ops.size(); ++i) {
        const Op& op = txn.ops[i];
        if (op.kind != OpKind::Write) continue;
        state[op.key].write_op = i;  // ends as the last write of the key
      }
      for (std::uint32_t i = 0; i < txn.ops.size(); ++i) {
        const Op& op = txn.ops[i];
        if (op.kind != OpKind::Write) continue;
        PairKey p = pair_key(op.key, op.value);
        if (!std::binary_search(needed.begin(), needed.end(), p)) continue;
        bool final_write = state[op.key].write_op == i;
        if (!final_write) {
          intermediate.add(p, t);
        } else if (!a.member[t]) {
          nonmember_final.add(p, t);
        }
      }
    }
    nonmember_final.seal();
    intermediate.seal();

    for (const Pending& p : pending) {
      const ExternalRead& r = a.abs[p.txn].reads[p.read];
      UnjustifiedRead u = unjustified(h, nonmember_final, intermediate, p.txn, r);
      // A non-member of unknown status did not commit in this choice of
      // members: its write is an aborted one.
      const bool aborted = u.kind == ReadAnomaly::Aborted || u.kind == ReadAnomaly::UnknownStatus;
      const bool aside = (aborted && options.set_aside_aborted_reads) ||
                         (u.kind == ReadAnomaly::Intermediate &&
                          options.set_aside_intermediate_reads);
      if (aside) {
        a.set_aside.push_back(std::move(u));
      } else {
        a.unjustified_reads.push_back(std::move(u));
      }
    }
    // What is set aside is no read event.
    std::vector<std::pair<TxnId, std::uint32_t>> removed;
    for (const UnjustifiedRead& u : a.set_aside) {
      const auto& reads = a.abs[u.txn].reads;
      auto it = std::find_if(reads.begin(), reads.end(),
                             [&](const ExternalRead& r) { return r.op == u.op; });
      removed.emplace_back(u.txn, static_cast<std::uint32_t>(it - reads.begin()));
    }
    a.candidates.remove(removed);
    for (const UnjustifiedRead& u : a.set_aside)
      std::erase_if(a.abs[u.txn].reads, [&](const ExternalRead& r) { return r.op == u.op; });
    // The later reads moved up: a guarded write's read event with them.
    if (!removed.empty())
      for (GuardedWrite& gw : a.guarded) locate_read(a.abs[gw.txn], gw);
  }

  // Session order over members.
  std::vector<TxnId> chain;
  for (const auto& session : h.sessions()) {
    chain.clear();
    for (TxnId t : session) {
      if (a.member[t]) chain.push_back(t);
    }
    for (std::size_t i = 0; i + 1 < chain.size(); ++i) a.so_next[chain[i]] = chain[i + 1];
    for (std::size_t i = 0; i < chain.size(); ++i) {
      auto& succ = a.so[chain[i]];
      if (options.transitive_so) {
        succ.assign(chain.begin() + static_cast<std::ptrdiff_t>(i) + 1, chain.end());
      } else if (i + 1 < chain.size()) {
        succ.push_back(chain[i + 1]);
      }
      std::sort(succ.begin(), succ.end());
    }
  }
  for (TxnId t = 1; t < n; ++t) {
    if (a.member[t]) a.so[kInitTxn].push_back(t);
  }
  return a;
}

}  // namespace iso
