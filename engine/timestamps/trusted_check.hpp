// Checking a history against the database's own timestamps (Chronos/Aion,
// FORMATS.md §9): every transaction carries a start (snapshot) timestamp sts
// and a commit timestamp cts, and the check trusts them, as Chronos does.
// Nothing is searched: the visibility and the commit order ARE the
// timestamps, so the check is a sort and one pass, near-linear in the size
// of the history.
//
// The levels it decides are written in specs/cerone.lua (TimestampSI,
// TimestampSER): Cerone et al.'s SI and SER with the witness fixed by the
// timestamps,
//   vis = {(a, b) | a ≠ b, cts(a) ≤ sts(b)} ∪ {T0} × T⁺     (h.ts_vis)
//   ar  ⊇ {(a, b) | cts(a) < cts(b)} ∪ {T0} × T⁺            (h.ts_ar; ties free)
// together with the framework's well-formedness (vis ⊆ ar, EXT, SESSION,
// the known version orders of list keys inside ar):
//   TimestampSI  = PREFIX ∧ NOCONFLICT  (PREFIX holds by construction)
//   TimestampSER = TOTALVIS             (Chronos's SER: no two transactions
//                                        overlap, sts(b) ≥ cts(a) or the reverse)
// check_trusted() decides exactly these formulas; its cross-check is a
// literal reference that enumerates every ar on small random histories
// (tests/unit/test_trusted_timestamps.cpp).
//
// What the formulas come to, and how it is checked (n log n: one sort of
// the transactions by (cts, sts), per key its writers in that order):
//  - Ties. vis(a, b) needs cts(a) <= sts(b) <= cts(b), so vis goes against
//    the commit order only inside a tie of commit timestamps, where vis(a, b)
//    holds when b is zero-length (sts(b) = cts(b)); of two zero-length ones,
//    which would see each other, h.ts_vis keeps only the later's
//    (History::ts_visible: by TxnId, file order). So ar orders a tie freely
//    except that its zero-length members come after the others, in
//    transaction order; the timestamps never order two transactions both
//    ways.
//  - EXT, register reads: the final write of the ar-greatest visible writer
//    of the key, compared by value. The visible writers are those committed
//    by the reader's start (the reader itself excluded); the ones that can be
//    ar-greatest are the last zero-length member of the latest tie among
//    them if it has any, otherwise every member, and the read is fine if any of them
//    wrote its value. No visible writer: T0's initial value if T0 writes the
//    key, otherwise a violation (as the framework's EXT: max_ar must exist).
//    Under NOCONFLICT (and so under SER) two writers of a key tie only as
//    one zero-length writer after one that is not, so the choice is unique
//    whenever no NOCONFLICT, TRANSVIS or ORDER violation is reported.
//  - EXT, list reads: the whole list must be the concatenation, in ar order,
//    of the visible writers' writes (appends) of the key, each in program
//    order; the empty list needs no visible writer (and T0 writing the key).
//    This contains the known version orders the lists reveal (known_order.hpp)
//    being inside ar, and is the same as reading the last element's version
//    plus that inclusion when no element is appended twice to a key (or
//    equals its initial value); with repeated elements it is stricter. A list
//    whose elements' writers appear in an order the timestamps forbid is
//    reported as ORDER, any other mismatch as EXT.
//  - Reads after the reader's own write of the key are internal (INT, not
//    checked here); predicate reads are not checked.
//  - NOCONFLICT (SI) and TOTALVIS (SER): each writer of a key (each
//    transaction) must start no earlier than its predecessor in the sorted
//    order commits; one violation per transaction that starts too early.
//  - SESSION: cts(a) <= sts(b) for consecutive a, b of a session.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/history/history.hpp"

namespace iso::timestamps {

enum class TrustedLevel : std::uint8_t { SI, SER };

// What a violation breaks, in Chronos's words where it has them.
enum class ViolationKind : std::uint8_t {
  Session,     // so ⊄ vis: a transaction started before its session predecessor committed
  Ext,         // an external read did not return the latest visible write
  NoConflict,  // two writers of one key overlap (SI)
  TotalVis,    // two transactions overlap (SER)
  Order,       // a known version order (list keys) contradicts the commit timestamps
};

// "SESSION", "EXT", "NOCONFLICT", "TRANSVIS", "ORDER".
std::string_view violation_kind_name(ViolationKind k);

struct Violation {
  ViolationKind kind = ViolationKind::Ext;
  std::vector<TxnId> txns;         // the transactions involved, the reader/later one last
  std::optional<KeyId> key;        // for Ext, NoConflict, Order on a key
  std::string description;         // one line, naming transactions by History::txn_name
};

struct TrustedResult {
  std::vector<Violation> violations;  // empty: the level allows the history
  bool truncated = false;             // more violations than max_violations existed
};

// Preconditions: every transaction but T0 is committed and has start_ts and
// commit_ts with start_ts <= commit_ts (timestamp_gaps() says which do
// not; those are left out of the check, as if absent); the history has no
// thin-air, aborted or intermediate reads and no INT violation (decide()
// reports those first, for every level; here such a read is an EXT
// violation). Violations come in the order ORDER, SESSION, NOCONFLICT or
// TRANSVIS, EXT (readers by commit timestamp).
// `sessions`: whether SESSION is checked (false when the level is decided
// with every transaction in its own session).
TrustedResult check_trusted(const History& h, TrustedLevel level, bool sessions,
                            std::size_t max_violations = 100);

// The committed transactions (T0 excluded) that lack a timestamp, and those
// whose start_ts is after their commit_ts, and the transactions that are
// not committed: the ones that make check_trusted's precondition fail.
struct TimestampGaps {
  std::vector<TxnId> missing, inverted, not_committed;
  bool empty() const { return missing.empty() && inverted.empty() && not_committed.empty(); }
};
TimestampGaps timestamp_gaps(const History& h);

}  // namespace iso::timestamps
