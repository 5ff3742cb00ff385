// The abstract history every checker starts from (Isolde §4.3.1, at the
// operation level): each member transaction reduced to its read events
// (every read not preceded by its own write of the key, re-reads included,
// in program order) and its final writes (the last write to each key),
// after checking internal consistency (INT: a read after the transaction's
// own write returns the last such write); with the derived views the
// checkers need: members, the candidate writers of each read event (several
// when values repeat), known version orders, session order, guarded writes,
// and the reads nothing justifies.
//
// abstract_history() is the front end's entry point: a fixed sequence of
// named stages, each with its contract in engine/history/front_end.hpp,
// computed once per history and passed down in this struct
// (docs/design.md §4.1).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/history/candidate_table.hpp"
#include "engine/history/history.hpp"
#include "engine/history/known_order.hpp"
#include "engine/history/read_anomaly.hpp"
#include "engine/history/session_order.hpp"

namespace iso {

// The value of an invisible predicate read: the key's version failed the
// predicate, so the read returned nothing of it.
inline constexpr ValueId kInvisible = UINT32_MAX;
// The value of T0's version of a key the initial state does not write, when
// predicate reads are expanded: the key before it is inserted (Vbox's
// unborn version), which satisfies no predicate and no item read returns.
inline constexpr ValueId kUnborn = UINT32_MAX - 1;
// Does T0 write that unborn version? Whenever the history has a predicate
// read or write, of any transaction, committed or not: T0's writes are then
// the same in every choice of members (the generic oracle's commit choices,
// the graph checkers' members, the witness built from their commit order).
inline bool t0_writes_unborn(const History& h) { return !h.predicate_reads().empty(); }

struct ExternalRead {
  KeyId key;
  ValueId value;     // kInvisible: a key a predicate read did not return
  std::uint32_t op;  // index of the read in Transaction::ops
};

// Is the read event an item read, whose overwrite is an item
// anti-dependency (Adya's G2-item counts them)? An item read is; so is a
// predicate read's read of a key it returned, since a predicate read is
// followed by item reads of what it returns (Adya 1999, §4.4.1; Vbox Def.
// 2.1), whether or not the key's next version still matches. A key it left
// out, and a predicate write's read, are predicate reads only.
inline bool item_read(const ExternalRead& r) { return r.value != kInvisible; }

inline constexpr std::uint32_t kNoGuard = UINT32_MAX;

struct FinalWrite {
  KeyId key;
  ValueId value;
  std::uint32_t op;  // index of the write in Transaction::ops (T0: 0)
  // A predicate write's write of the key, which exists only in some
  // completions: an index into AbstractHistory::guarded. kNoGuard: certain.
  std::uint32_t guard = kNoGuard;
};

// A predicate write's write of one key (Vbox §3.1.3, truth constraints):
// the predicate write reads the key (an invisible read event, value
// kInvisible, whose candidates are all the key's other writers) and writes
// it exactly when the version read satisfies the predicate. A write whose
// existence is a choice; its truth follows from the read-from of `read`.
struct GuardedWrite {
  TxnId txn = 0;
  KeyId key = 0;
  std::uint32_t op = 0;    // the predicate write, an index into the transaction's ops
  std::uint32_t read = 0;  // its read event of the key, an index into abs[txn].reads
  // Of that read's candidates, those whose version satisfies the predicate
  // (ascending): reading one of them is what makes the write exist.
  std::vector<TxnId> satisfying;
  // The transaction's final write of the key (abs[txn].writes holds it with
  // this guard); false when a later item write of the key overwrites it.
  bool final = true;
  // Every candidate of its read satisfies the predicate: the write exists
  // whenever its transaction commits, so its final write carries no guard
  // and the graph checkers order it as a certain write
  // (AbstractOptions::settle_sure_guards).
  bool sure = false;
};

struct AbstractTxn {
  // Every read event: a read not preceded by the transaction's own write of
  // the key (re-reads included), sorted by key, then in program order.
  std::vector<ExternalRead> reads;
  std::vector<FinalWrite> writes;   // sorted by key, at most one per key
};

struct AbstractHistory {
  const History* history = nullptr;
  std::vector<bool> member;            // indexed by TxnId; T0 always a member
  std::vector<TxnId> txns;             // members: T0, then by session, then position
  std::vector<AbstractTxn> abs;        // indexed by TxnId; empty for non-members
  // candidates[t][i]: the member transactions other than t whose final write
  // of abs[t].reads[i].key has abs[t].reads[i].value (T0 when it is the
  // initial value). Ascending TxnId.
  CandidateTable candidates;
  // Session order over members, the closed relation (session_order.hpp):
  // so.before(a, b), the immediate successor so.next(t), and so.after(t).
  SessionOrder so;
  std::vector<IntViolation> int_violations;
  // Reads nothing justifies, of member transactions (engine/history/
  // read_anomaly.hpp); list reads of committed members as known_order.hpp
  // analyses them.
  std::vector<UnjustifiedRead> unjustified_reads;
  // Register reads of aborted (G1a) or intermediate (G1b) writes that the
  // options set aside (a level that permits them, Adya's PL-1): not read
  // events, not in unjustified_reads.
  std::vector<UnjustifiedRead> set_aside;
  // The version orders the list reads reveal, one per key that has them.
  std::vector<KnownOrder> known_orders;
  // Unknown-status members whose appends a committed list read shows.
  std::vector<TxnId> forced_commits;
  // (r, w): if r committed, so did w (r's list read shows w's append).
  std::vector<std::pair<TxnId, TxnId>> commit_implications;
  // Facts about the reads worth telling the user (ambiguous list elements).
  std::vector<std::string> notes;
  bool has_predicate_reads = false;  // predicate reads or writes
  // Predicate writes' writes of single keys, when predicate reads are
  // expanded (AbstractOptions::predicate_reads).
  std::vector<GuardedWrite> guarded;
  // (guard, exists): a later item read of the key in the same transaction
  // shows whether the guarded write happened (its value, or another).
  std::vector<std::pair<std::uint32_t, bool>> forced_guards;

  bool writes(TxnId t, KeyId k) const;        // t has a final write of k (perhaps guarded)
  // The guard of t's final write of k (kNoGuard: certain, or none).
  std::uint32_t guard_of(TxnId t, KeyId k) const;
  bool unique_values() const;                 // every read has <= 1 candidate
};

// Members: T0 and every transaction whose status is Committed.
std::vector<bool> committed_members(const History& h);

struct AbstractOptions {
  // true: members of unknown status may or may not have committed (the
  // graph checkers' view: their list reads are facts only if they did).
  // false: every member counts as committed (a fixed choice of commits).
  bool unknown_members_maybe = false;
  // Register reads of an aborted transaction's write (G1a) or of another
  // transaction's intermediate write (G1b) are set aside (set_aside) rather
  // than reported: Adya's PL-1 allows them, and they carry no dependency,
  // since only committed final versions are read from. A list read of that
  // kind is set aside too, and its list still reveals the version order
  // without its dirty elements (known_order.hpp, ListReadPermits).
  bool set_aside_aborted_reads = false;
  bool set_aside_intermediate_reads = false;
  // Predicate reads become read events (Vbox §2; LEVELS.md, "Predicates"):
  // one per key the predicate covers, not preceded by the transaction's own
  // write of it. A key it returned is a read of that value; a key it did not
  // return is an invisible read (value kInvisible) whose candidates are the
  // writers whose version of the key fails the predicate. So a serial order
  // (or a snapshot) explains the predicate read exactly when it explains
  // these reads. A key the initial state does not write then has an unborn
  // version, T0's (value kUnborn), so that an insert is a write after it.
  // Without it, predicate reads are left out (and has_predicate_reads says
  // there were some).
  // Predicate writes likewise: per covered key a read event and a write
  // guarded by its truth (GuardedWrite). After a predicate write of a key,
  // the transaction's item write of it is certain, and an item read of it
  // fixes the truth; predicate_write_gap() names what is not modelled.
  bool predicate_reads = false;
  // For a level whose commit order contains real time (commit before
  // begin) and that reads the latest version before it (strict
  // serializability): candidates real time excludes are not built
  // (engine/history/real_time_cut.hpp).
  bool real_time_cut = false;
  // A guarded write that every candidate of its read makes happen is
  // certain (GuardedWrite::sure): its final write loses its guard, so
  // pruning orders it and its edges enter the known graph.
  bool settle_sure_guards = false;
};

// What the abstraction of predicate writes does not model, in the first
// transaction that needs it: a predicate read or write of a key after a
// predicate write of it in the same transaction (the truth of one depends on
// the other's), or an item read after one that returns the predicate
// write's value where another write of the key (or the initial state) has
// that value too, so that the read may not be of the predicate write's.
// std::nullopt when every predicate write is modelled.
std::optional<std::string> predicate_write_gap(const History& h);

// Builds the abstract view over `member` (indexed by TxnId, T0 forced in).
AbstractHistory abstract_history(const History& h, std::vector<bool> member);
AbstractHistory abstract_history(const History& h, std::vector<bool> member,
                                 const AbstractOptions& options);
inline AbstractHistory abstract_history(const History& h) {
  return abstract_history(h, committed_members(h));
}

}  // namespace iso
