// The "unjustified reads" stage of the front end (front_end.hpp): each read
// event without a candidate writer, explained. Its (key, value) was the
// final write of a transaction that is not a member (aborted: G1a; of
// unknown status; excluded), or an intermediate write (G1b), or the
// reader's own later write (a future read), or nobody's (thin air). The
// options set aside the G1a and G1b reads a level permits: those are no
// read events, and drop_set_aside() removes them.
#include <algorithm>

#include <fmt/format.h>

#include "engine/history/front_end.hpp"
#include "engine/history/pair_index.hpp"
#include "engine/history/printer.hpp"

namespace iso::front_end {

namespace {

// The explanation of one read without a candidate: the first that applies,
// in the order of the file comment.
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

// Who wrote each (key, value) pair in `needed` other than as a member's
// final version: as a non-member's final write, or as an intermediate one.
struct OtherWriters {
  PairIndex nonmember_final, intermediate;
};

OtherWriters other_writers(const History& h, const std::vector<bool>& member,
                           const std::vector<PairKey>& needed) {
  OtherWriters out;
  std::vector<std::uint32_t> last_write(h.keys().size(), 0);
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const Transaction& txn = h.txn(t);
    for (std::uint32_t i = 0; i < txn.ops.size(); ++i)
      if (txn.ops[i].kind == OpKind::Write) last_write[txn.ops[i].key] = i;  // ends as the last
    for (std::uint32_t i = 0; i < txn.ops.size(); ++i) {
      const Op& op = txn.ops[i];
      if (op.kind != OpKind::Write) continue;
      const PairKey p = pair_key(op.key, op.value);
      if (!std::binary_search(needed.begin(), needed.end(), p)) continue;
      if (last_write[op.key] != i) {
        out.intermediate.add(p, t);
      } else if (!member[t]) {
        out.nonmember_final.add(p, t);
      }
    }
  }
  out.nonmember_final.seal();
  out.intermediate.seal();
  return out;
}

}  // namespace

Unjustified explain_unjustified(const History& h, const AbstractHistory& a,
                                const std::vector<ReadRef>& unexplained,
                                const AbstractOptions& options) {
  Unjustified out;
  if (unexplained.empty()) return out;
  std::vector<PairKey> needed;
  for (const ReadRef& p : unexplained) {
    const ExternalRead& r = a.abs[p.txn].reads[p.read];
    needed.push_back(pair_key(r.key, r.value));
  }
  std::sort(needed.begin(), needed.end());
  needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
  const OtherWriters writers = other_writers(h, a.member, needed);
  for (const ReadRef& p : unexplained) {
    UnjustifiedRead u =
        unjustified(h, writers.nonmember_final, writers.intermediate, p.txn, a.abs[p.txn].reads[p.read]);
    // A non-member of unknown status did not commit in this choice of
    // members: its write is an aborted one.
    const bool aborted = u.kind == ReadAnomaly::Aborted || u.kind == ReadAnomaly::UnknownStatus;
    const bool aside = (aborted && options.set_aside_aborted_reads) ||
                       (u.kind == ReadAnomaly::Intermediate && options.set_aside_intermediate_reads);
    (aside ? out.set_aside : out.reported).push_back(std::move(u));
  }
  return out;
}

void drop_set_aside(AbstractHistory& a) {
  if (a.set_aside.empty()) return;
  std::vector<std::pair<TxnId, std::uint32_t>> removed;
  for (const UnjustifiedRead& u : a.set_aside) {
    const auto& reads = a.abs[u.txn].reads;
    auto it = std::find_if(reads.begin(), reads.end(), [&](const ExternalRead& r) { return r.op == u.op; });
    removed.emplace_back(u.txn, static_cast<std::uint32_t>(it - reads.begin()));
  }
  a.candidates.remove(removed);
  for (const UnjustifiedRead& u : a.set_aside)
    std::erase_if(a.abs[u.txn].reads, [&](const ExternalRead& r) { return r.op == u.op; });
  // The later reads moved up: a guarded write's read event with them.
  for (GuardedWrite& gw : a.guarded) locate_read(a.abs[gw.txn], gw);
}

}  // namespace iso::front_end
