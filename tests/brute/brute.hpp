// Brute-force reference semantics of the isolation levels in docs/levels.md.
//
// An independent second opinion for the relational oracle: no formulas, no
// solver, only loops that enumerate witnesses (commit orders, arbitration and
// visibility, choices of wr when values repeat) and evaluate each axiom as the
// definitions state it. Two evaluators are provided:
//
//  * allows() / find_witness(): a depth-first search that builds the order one
//    transaction at a time and checks every axiom instance as soon as all the
//    transactions it mentions are placed. The pruning is exact: every instance
//    whose premise can still become true is checked only once it is decided.
//    Each witness it returns is re-checked by the literal evaluator below.
//  * allows_naive(): enumerates every complete witness (all permutations, all
//    wr choices, all visibility relations inside ar) and evaluates the
//    formulas verbatim. Exponential; meant for cross-checking allows() on
//    histories of at most about four transactions.
//
// Predicate reads are not modelled: only external reads and final writes of
// the abstract history take part.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/history/history.hpp"

namespace iso::brute {

// Every level known here, as "framework.Level".
const std::vector<std::string>& levels();

// True iff the history is allowed by `level`: some witness satisfies it.
// Histories with an INT violation or an unjustified read are denied by every
// level. Throws std::invalid_argument for an unknown level name and
// std::length_error for (consistent) histories with more than 63 member
// transactions. Meant for histories of up to about 6 transactions.
bool allows(const AbstractHistory& h, std::string_view level);

// A witness found by find_witness().
struct Witness {
  // Commit order (biswas, plume) or arbitration (cerone): member TxnIds,
  // T0 first.
  std::vector<TxnId> order;
  // cerone only: the vis edges (a, b) with a, b member TxnIds.
  std::vector<std::pair<TxnId, TxnId>> vis;
  // biswas and plume only: wr[t][i] is the writer chosen for the external
  // read h.abs[t].reads[i] (empty for non-members).
  std::vector<std::vector<TxnId>> wr;
};

// The first witness found for `level`, or nullopt if the level denies the
// history. Same exceptions as allows().
std::optional<Witness> find_witness(const AbstractHistory& h,
                                    std::string_view level);

// One-line rendering of a witness, e.g. "co: T0 T2 T1; wr: T1.x<-T0".
std::string format_witness(const AbstractHistory& h, const Witness& w);

// Same verdict as allows(), by exhaustive enumeration without any pruning.
bool allows_naive(const AbstractHistory& h, std::string_view level);

// allows() for some choice of which unknown-status transactions committed
// (the committed ones are members, the aborted ones are not).
bool allows_some_commit(const History& h, std::string_view level);

}  // namespace iso::brute
