// A history's canonical form up to renaming: two histories have the same
// form iff one is the other with its transactions, sessions, keys and
// values renamed (the initial value of a key staying the initial value),
// the renamings the history space's symmetry breaking already treats as one
// history (cegis/history_space.hpp) and no level can tell apart (levels see
// a history only through its relations). `synth --count` tells its
// histories apart by it (cegis/synthesizer.hpp, Problem::excluded).
//
// What the form keeps of each transaction: its status, its session (as the
// first member of that session), its begin and commit events' ranks among
// all events (real time), its reads in program order (or sorted by key when
// `ordered_reads` is false: the transaction form, where a transaction reads
// a key at most once and the order of its reads is no part of any
// relation), its writes of each key in program order, list reads as their
// whole lists, and predicate reads as what they returned. Empty
// transactions and T0's writes of keys no other transaction uses are left
// out (no level sees them). The order of a read among the writes is left
// out too (the space places reads first; a read after the transaction's own
// write of its key is no read event).
//
// It is the least serialization over the orders of the transactions that
// keep them sorted by what renaming keeps of each (status, session size,
// numbers of reads, of reads of an initial value, of writes) and every
// order of the keys (values renamed per key in order of first appearance):
// up to n!·k! serializations, meant for synthesized histories (refuses more
// than kMaxRenamings with std::invalid_argument).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/history/history.hpp"

namespace iso::cegis {

using CanonicalForm = std::vector<std::uint32_t>;

inline constexpr std::uint64_t kMaxRenamings = 4'000'000;

CanonicalForm canonical_form(const History& h, bool ordered_reads);

// What every renaming keeps, cheap to compute: the members' and keys'
// numbers and each member's status, session size, numbers of reads, of
// reads of an initial value and of writes, sorted. Histories with different invariants
// have different canonical forms (compare these first).
std::vector<std::uint32_t> renaming_invariant(const History& h);

// Histories to tell a history apart from: canonical forms are computed only
// when invariants are equal, once each.
class ExcludedHistories {
 public:
  // `excluded` must outlive this.
  ExcludedHistories(const std::vector<History>& excluded, bool ordered_reads);
  bool empty() const { return invariants_.empty(); }
  // Is `h` one of them up to renaming?
  bool contains(const History& h) const;

 private:
  const std::vector<History>& excluded_;
  bool ordered_;
  std::vector<std::vector<std::uint32_t>> invariants_;
  mutable std::vector<std::optional<CanonicalForm>> forms_;
};

}  // namespace iso::cegis
