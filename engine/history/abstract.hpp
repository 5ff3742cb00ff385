// Abstract transactions (Isolde §4.3.1): each transaction reduced to its
// external reads (the first operation on a key is a read) and its final writes
// (the last write to each key), after checking internal consistency (INT).
// Also the derived views every checker needs: members, session order, and the
// candidate writers of each external read (several when values repeat).
#pragma once

#include <string>
#include <vector>

#include "engine/history/history.hpp"

namespace iso {

inline constexpr TxnId kNoTxn = UINT32_MAX;

struct ExternalRead {
  KeyId key;
  ValueId value;
  std::uint32_t op;  // index of the read in Transaction::ops
};

struct FinalWrite {
  KeyId key;
  ValueId value;
  std::uint32_t op;  // index of the write in Transaction::ops (T0: 0)
};

struct AbstractTxn {
  std::vector<ExternalRead> reads;  // sorted by key, at most one per key
  std::vector<FinalWrite> writes;   // sorted by key, at most one per key
};

// A violation of internal consistency: a read that does not return the value
// of the last earlier operation on the same key in the same transaction
// (Cerone et al. 2015, INT): either the transaction's own write, or its own
// earlier read (a non-repeatable read inside one transaction).
struct IntViolation {
  TxnId txn;
  std::uint32_t op;     // the offending read
  std::string message;  // e.g. "T1: r(x,2) does not return its own earlier write w(x,1)"
};

// A read whose value no member transaction wrote as a final write: it read
// thin air, an aborted write (G1a) or an intermediate write (G1b).
struct UnjustifiedRead {
  TxnId txn;
  std::uint32_t op;
  std::string message;  // e.g. "T2: r(x,5) reads a value no committed transaction wrote"
};

struct AbstractHistory {
  const History* history = nullptr;
  std::vector<bool> member;            // indexed by TxnId; T0 always a member
  std::vector<TxnId> txns;             // members: T0, then by session, then position
  std::vector<AbstractTxn> abs;        // indexed by TxnId; empty for non-members
  // candidates[t][i]: the member transactions other than t whose final write
  // of abs[t].reads[i].key has abs[t].reads[i].value (T0 when it is the
  // initial value). Ascending TxnId.
  std::vector<std::vector<std::vector<TxnId>>> candidates;
  // Session order over members, transitively closed, plus (T0, t) for every
  // other member t. so[a] lists the b with (a, b) in so, ascending.
  std::vector<std::vector<TxnId>> so;
  // The next member in the same session (the transitive reduction of so
  // without T0), or kNoTxn; indexed by TxnId. Linear in size, unlike `so`,
  // whose closure is quadratic in the length of a session.
  std::vector<TxnId> so_next;
  std::vector<IntViolation> int_violations;
  std::vector<UnjustifiedRead> unjustified_reads;
  bool has_predicate_reads = false;

  bool writes(TxnId t, KeyId k) const;        // t has a final write of k
  bool unique_values() const;                 // every read has <= 1 candidate
};

// Members: T0 and every transaction whose status is Committed.
std::vector<bool> committed_members(const History& h);

struct AbstractOptions {
  // false: `so` holds only each member's next member in its session plus the
  // (T0, t) pairs, whose transitive closure is the session order; for large
  // histories, where the closure is quadratic in the length of a session.
  bool transitive_so = true;
};

// Builds the abstract view over `member` (indexed by TxnId, T0 forced in).
AbstractHistory abstract_history(const History& h, std::vector<bool> member);
AbstractHistory abstract_history(const History& h, std::vector<bool> member,
                                 const AbstractOptions& options);
inline AbstractHistory abstract_history(const History& h) {
  return abstract_history(h, committed_members(h));
}

}  // namespace iso
