#include "engine/history/abstract.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include <fmt/format.h>

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

bool AbstractHistory::unique_values() const {
  for (const auto& per_txn : candidates) {
    for (const auto& c : per_txn) {
      if (c.size() > 1) return false;
    }
  }
  return true;
}

namespace {

using PairKey = std::uint64_t;  // (key, value) packed

PairKey pair_key(KeyId k, ValueId v) {
  return (static_cast<std::uint64_t>(k) << 32) | static_cast<std::uint64_t>(v);
}

// A sorted multimap from (key, value) to transactions, as a flat vector.
class PairIndex {
 public:
  void add(PairKey p, TxnId t) { entries_.emplace_back(p, t); }
  void seal() { std::sort(entries_.begin(), entries_.end()); }
  // The transactions for `p`, ascending.
  std::pair<const std::pair<PairKey, TxnId>*, const std::pair<PairKey, TxnId>*> find(
      PairKey p) const {
    auto lo = std::lower_bound(entries_.begin(), entries_.end(), std::make_pair(p, TxnId{0}));
    auto hi = std::lower_bound(lo, entries_.end(), std::make_pair(p + 1, TxnId{0}));
    return {entries_.data() + (lo - entries_.begin()), entries_.data() + (hi - entries_.begin())};
  }

 private:
  std::vector<std::pair<PairKey, TxnId>> entries_;
};

// Per-key state while scanning one transaction.
struct KeyState {
  std::uint32_t stamp = 0;     // the scan this state belongs to
  std::uint32_t write_op = 0;  // last write of the key
  bool written = false;
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
  a.candidates.resize(n);
  a.so.resize(n);
  a.so_next.assign(n, kNoTxn);

  // T0 writes the initial value of every key it writes.
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    if (h.t0_writes(k)) a.abs[kInitTxn].writes.push_back(FinalWrite{k, h.init_value(k), 0});
  }

  // External reads, final writes and INT, one transaction at a time.
  std::vector<KeyState> state(h.keys().size());
  std::vector<KeyId> touched;
  std::uint32_t stamp = 0;
  for (TxnId t : a.txns) {
    if (t == kInitTxn) continue;
    budget::poll();
    const Transaction& txn = h.txn(t);
    AbstractTxn& at = a.abs[t];
    ++stamp;
    touched.clear();
    for (std::uint32_t i = 0; i < txn.ops.size(); ++i) {
      const Op& op = txn.ops[i];
      if (op.kind == OpKind::PredicateRead) {
        a.has_predicate_reads = true;
        continue;
      }
      KeyState& s = state[op.key];
      bool first = s.stamp != stamp;
      if (first) {
        s = KeyState{};
        s.stamp = stamp;
        touched.push_back(op.key);
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
        s.written = true;
        s.write_op = i;
      }
    }
    for (KeyId k : touched) {
      const KeyState& s = state[k];
      if (s.written) at.writes.push_back(FinalWrite{k, txn.ops[s.write_op].value, s.write_op});
    }
    // Reads by key, then in program order; writes by key (one each).
    std::sort(at.reads.begin(), at.reads.end(), [](const ExternalRead& x, const ExternalRead& y) {
      return x.key != y.key ? x.key < y.key : x.op < y.op;
    });
    std::sort(at.writes.begin(), at.writes.end(),
              [](const FinalWrite& x, const FinalWrite& y) { return x.key < y.key; });
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
      analyse_list_reads(h, a.member, /*unknown_committed=*/!options.unknown_members_maybe);
  for (auto& v : lists.int_violations) a.int_violations.push_back(std::move(v));
  a.unjustified_reads = std::move(lists.anomalies);
  a.known_orders = std::move(lists.orders);
  a.forced_commits = std::move(lists.forced_commits);
  a.commit_implications = std::move(lists.commit_implications);
  a.notes = std::move(lists.notes);

  // Reads the list analysis explained already.
  std::vector<std::uint64_t> explained;
  for (const auto& u : a.unjustified_reads) explained.push_back(pair_key(u.txn, u.op));
  for (const auto& v : a.int_violations) explained.push_back(pair_key(v.txn, v.op));
  std::sort(explained.begin(), explained.end());

  std::vector<Pending> pending;
  for (TxnId t : a.txns) {
    const auto& reads = a.abs[t].reads;
    auto& cands = a.candidates[t];
    cands.resize(reads.size());
    for (std::size_t i = 0; i < reads.size(); ++i) {
      auto [lo, hi] = final_writers.find(pair_key(reads[i].key, reads[i].value));
      for (auto it = lo; it != hi; ++it) {
        if (it->second != t) cands[i].push_back(it->second);
      }
      if (cands[i].empty() &&
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
      if (aside && h.txn(p.txn).ops[r.op].list == kNoList) {
        a.set_aside.push_back(std::move(u));
      } else {
        a.unjustified_reads.push_back(std::move(u));
      }
    }
    // What is set aside is no read event.
    for (const UnjustifiedRead& u : a.set_aside) {
      auto& reads = a.abs[u.txn].reads;
      auto it = std::find_if(reads.begin(), reads.end(),
                             [&](const ExternalRead& r) { return r.op == u.op; });
      const auto i = it - reads.begin();
      reads.erase(it);
      a.candidates[u.txn].erase(a.candidates[u.txn].begin() + i);
    }
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
