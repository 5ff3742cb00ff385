// The history front end as named stages (docs/design.md §4.1): from a
// recorded History to the AbstractHistory the checkers read. Each stage is a
// function with the input and output its comment states; abstract_history()
// (abstract.cpp) calls them once per history, in the order below, and passes
// their outputs down. Every stage is deterministic: the same history and
// members give the same output, in the same order (the checkers' messages
// follow it).
//
//   stage               function                 file
//   members             resolve_members          abstract.cpp
//   initial state       initial_writes           abstract.cpp
//   read events         read_events              read_events.cpp
//   known orders        analyse_list_reads       known_order.cpp
//   candidate writers   candidate_writers        candidates.cpp
//   guarded writes      guarded_write_truths     candidates.cpp
//   unjustified reads   explain_unjustified      unjustified_reads.cpp
//   session order       SessionOrder             session_order.cpp
//
// Real-time and timestamp orders are no stage of this struct: they are
// functions of the History itself (History::time_before, ts_visible,
// ts_commit_before in history.hpp), which engine/model/concrete.cpp turns
// into relations and engine/polygraph/real_time_edges.cpp into graph edges.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/history/predicate.hpp"

namespace iso::front_end {

// The predicates of h.predicate_reads(), each parsed at its first use
// (nullopt: it does not parse; the readers accept only what does).
class ParsedPredicates {
 public:
  explicit ParsedPredicates(const History& h) : h_(h), parsed_(h.predicate_reads().size()) {}
  const std::optional<Predicate>& operator[](std::uint32_t index) {
    auto& p = parsed_[index];
    if (!p) p = parse_predicate(h_.predicate_reads()[index].predicate);
    return p;
  }

 private:
  const History& h_;
  std::vector<std::optional<Predicate>> parsed_;
};

// Members. Input: the history, a membership indexed by TxnId (any length:
// missing entries are non-members). Output: the membership resized to every
// transaction with T0 forced in, and the member list: T0, then each
// session's members in session order (sessions in History::sessions()
// order).
struct Members {
  std::vector<bool> member;
  std::vector<TxnId> txns;
};
Members resolve_members(const History& h, std::vector<bool> member);

// Initial state. Input: the history; `unborn` when predicate reads are
// expanded and the history has some (t0_writes_unborn). Output: T0's final
// writes, sorted by key: the initial value of each key T0 writes
// (History::t0_writes), and with `unborn` the unborn version (kUnborn) of
// every other key.
std::vector<FinalWrite> initial_writes(const History& h, bool unborn);

// Read events. Input: the history, the member list, whether predicate
// reads and writes are expanded (AbstractOptions::predicate_reads).
// Output, per member other than T0 (in member order): its read events
// sorted by key then program order, and its final writes sorted by key (at
// most one per key; a predicate write's guarded); the INT violations of its
// item and predicate reads; each predicate read's returned pairs that its
// predicate excludes; the guarded writes (GuardedWrite, `satisfying` left
// empty) and the guards a later item read of the key fixes.
struct ReadEvents {
  std::vector<AbstractTxn> abs;  // indexed by TxnId; T0's and non-members' empty
  std::vector<IntViolation> int_violations;
  std::vector<UnjustifiedRead> predicate_mismatches;
  std::vector<GuardedWrite> guarded;
  std::vector<std::pair<std::uint32_t, bool>> forced_guards;
  bool has_predicate_reads = false;  // predicate reads or writes, expanded or not
};
ReadEvents read_events(const History& h, const std::vector<TxnId>& txns, bool expand_predicates);

// Points a guarded write at its read event in its transaction's reads (by
// key, then program order), which sorting and setting reads aside move.
void locate_read(const AbstractTxn& at, GuardedWrite& gw);

// Known orders: analyse_list_reads() (known_order.hpp), over the members.

// A read event: its transaction and its index in that transaction's reads.
struct ReadRef {
  TxnId txn;
  std::uint32_t read;
};

// Candidate writers. Input: the history and of `a` the members (member,
// txns), their read events and final writes (abs, T0's included), and the
// guarded writes; `explained`: the reads (pair_key(txn, op), sorted) that
// the list analysis or INT already reported. Output: the candidates of every
// read event (CandidateTable: for an item read the other members whose
// final write is its (key, value); for an invisible read the other
// writers whose version its predicate rejects, or for a predicate write's
// read every other writer); the invisible predicate reads no version
// explains (PredicateMismatch); and, in member order, the other reads
// without a candidate that `explained` does not hold. `real_time_cut`:
// less the writers real time excludes (real_time_cut.hpp).
struct Candidates {
  CandidateTable table;
  std::vector<UnjustifiedRead> predicate_mismatches;
  std::vector<ReadRef> unexplained;
};
Candidates candidate_writers(const History& h, const AbstractHistory& a,
                             const std::vector<std::uint64_t>& explained, bool real_time_cut = false);

// Guarded writes. Input: the history, `a` with its candidates built.
// Output: for each guarded write, in a.guarded, the candidates of its read
// event whose version satisfies its predicate (`satisfying`, ascending).
void guarded_write_truths(const History& h, AbstractHistory& a);

// Sure guarded writes. Input: `a` with the guarded writes' truths. Output:
// each final guarded write whose read's candidates all satisfy its
// predicate (at least one) is `sure`, and its final write has no guard.
void settle_sure_guards(AbstractHistory& a);

// Unjustified reads. Input: the history, the membership, the reads without
// a candidate (`unexplained`, from candidate_writers), and the options'
// set-aside permissions. Output: each read's explanation (a read of an
// aborted, unknown-status, excluded or intermediate write, a future read,
// or thin air), in the order given, split into those reported and those set
// aside (a G1a or G1b read the options permit).
struct Unjustified {
  std::vector<UnjustifiedRead> reported, set_aside;
};
Unjustified explain_unjustified(const History& h, const AbstractHistory& a,
                                const std::vector<ReadRef>& unexplained,
                                const AbstractOptions& options);

// Drops the set-aside reads from a.abs and a.candidates (they are no read
// events) and points each guarded write at its read event again.
void drop_set_aside(AbstractHistory& a);

// Session order: the SessionOrder constructor (session_order.hpp), over
// the member list.

}  // namespace iso::front_end
