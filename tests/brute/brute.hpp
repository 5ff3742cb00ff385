// Brute-force reference semantics of the isolation levels in docs/levels.md.
//
// An independent second opinion for the relational oracle: no formulas, no
// solver, only loops that enumerate witnesses (commit orders, arbitration and
// visibility, version orders, choices of wr when values repeat) and evaluate
// each axiom as the definitions state it. Two evaluators are provided:
//
//  * allows() / find_witness(): a depth-first search that builds the order one
//    transaction at a time and checks every axiom instance as soon as all the
//    transactions it mentions are placed. The pruning is exact: every instance
//    whose premise can still become true is checked only once it is decided.
//    Each witness it returns is re-checked by the literal evaluator.
//  * allows_naive(): enumerates every complete witness (all permutations, all
//    wr choices, all visibility relations inside ar, all version orders) and
//    evaluates the formulas verbatim. Exponential; meant for cross-checking
//    allows() on histories of at most about four transactions.
//
// List-append reads (Elle) are decided from the operations, not from the
// engine's analysis of lists: every key's version order (co, ar or ww
// restricted to its writers, T0 first when T0 writes it) installs as the
// version of writer u the concatenation of the appends of the writers up to
// u; a list read event (each one, a re-read included) reads the writer whose
// version it returned, a list read after the transaction's own appends
// returns the versions before the transaction followed by those appends
// (tests/brute/model.hpp). Elle's G1a, garbage, duplicate and
// incompatible-order reads therefore have no witness, at PL-1 too.
//
// Histories are operation-level. A read event is a read of x by t that no
// write of x by t precedes: re-reads are read events of their own, each with
// its own choice of writer, even when they return the same value. wr(t1, x,
// t3) holds when some read event of x in t3 reads from t1, R(t, x) when t
// has a read event of x; every level keeps its definition over that
// projection, and biswas.RC, dbcop.RR and Plume's read-order patterns
// (plume.NoNonRepeatableRead, NoNonMonotonicRead, NoFracturedRead)
// constrain the read events in program order. A
// read after t's own write of x must return t's last write (INT), and a
// read no member's final write explains has no witness, at every level but
// one: Adya's PL-1 sets aside register reads of an aborted transaction's
// write (G1a) or of another transaction's non-final write (G1b), which then
// take no part. The brute force finds such reads from the operations; an
// aborted transaction is one that is not a member and did not commit.
// Predicate reads are not modelled: only read events and final writes take
// part.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/history/history.hpp"

namespace iso::brute {

// The biswas (RC included), dbcop, cerone and plume levels, as
// "library.Level" (with sessions unless Options::ignore_sessions).
const std::vector<std::string>& levels();
// Adya's levels, session-free as Adya defines them: adya.PL-1, adya.PL-2,
// adya.PL-CS, adya.PL-2.99, adya.PL-SI (alias adya.SI), adya.PL-3 (alias
// adya.SER). Without predicates PL-2.99 and PL-3 coincide. PL-CS is PL-2
// without G-cursor(x): some t1 reads x from u and writes x after a writer t2
// that follows u in ww(x).
const std::vector<std::string>& adya_levels();

struct Options {
  // Every transaction in its own session (T0 still first): the session-free
  // forms of the levels (docs: LEVELS.md "Sessions"). Adya's levels ignore
  // sessions always.
  bool ignore_sessions = false;
};

// True iff the history is allowed by `level`: some witness satisfies it.
// Histories with an INT violation or an unjustified read are denied by every
// level (but for the reads adya.PL-1 sets aside). Throws
// std::invalid_argument for an unknown level name and std::length_error for
// histories with more than 63 member transactions. Meant for histories of
// up to about 6 transactions.
bool allows(const AbstractHistory& h, std::string_view level, const Options& options = {});

// The writer a read event of `key` (at operation `op` of its transaction)
// reads from.
struct ReadFrom {
  KeyId key;
  TxnId writer;
  std::uint32_t op = 0;
  bool operator==(const ReadFrom&) const = default;
};

// A complete witness, as find_witness() returns it and check_witness()
// takes it.
struct Witness {
  // Commit order (biswas, plume), arbitration (cerone), or for adya a total
  // order containing ww (and wr, but for PL-1), informative only: member
  // TxnIds, T0 first.
  std::vector<TxnId> order;
  // cerone only: the vis edges (a, b) with a, b member TxnIds.
  std::vector<std::pair<TxnId, TxnId>> vis;
  // biswas, plume and adya: wr[t] holds, for each read event of member t,
  // the writer it reads from, the event named by its key and operation
  // (indexed by TxnId; empty for non-members).
  std::vector<std::vector<ReadFrom>> wr;
  // adya only: ww[k] is the version order of key k, its member writers in
  // order (T0 first when T0 writes k); indexed by KeyId.
  std::vector<std::vector<TxnId>> ww;
  // The transactions of unknown status taken as committed.
  std::vector<TxnId> committed;
};

// The first witness found for `level`, or nullopt if the level denies the
// history. Same exceptions as allows().
std::optional<Witness> find_witness(const AbstractHistory& h, std::string_view level,
                                    const Options& options = {});

// One-line rendering of a witness, e.g. "order: T0 T2 T1; wr: T1.x@1<-T0"
// (T1's read of x at its first operation reads from T0).
std::string format_witness(const AbstractHistory& h, const Witness& w);

// Same verdict as allows(), by exhaustive enumeration without any pruning.
bool allows_naive(const AbstractHistory& h, std::string_view level,
                  const Options& options = {});

// allows() / find_witness() for some choice of which unknown-status
// transactions committed (the committed ones are members, the aborted ones
// are not). The witness says which committed.
bool allows_some_commit(const History& h, std::string_view level, const Options& options = {});
std::optional<Witness> find_witness_some_commit(const History& h, std::string_view level,
                                                const Options& options = {});

struct WitnessCheck {
  bool ok = false;
  std::string reason;  // when not ok, one line: "biswas.SI: Conflict fails for ..."
};

// Does `w` satisfy `level`'s definition on `h`? Members: T0, the committed
// transactions and w.committed. The witness must be complete for its
// framework: order (biswas, plume, cerone), vis (cerone), ww for every key
// with two or more writers (adya), and wr for every read event that could
// read from more than one writer (biswas, plume, adya; a list read's writer
// follows from the version order and may be left out), each matched by key
// and operation. Throws std::invalid_argument for an unknown level name.
WitnessCheck check_witness(const History& h, std::string_view level, const Witness& w,
                           const Options& options = {});

}  // namespace iso::brute
