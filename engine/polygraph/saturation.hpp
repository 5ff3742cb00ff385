// Checking Read Committed, Read Atomic and Causal Consistency by saturation
// (Biswas & Enea, "On the Complexity of Checking Transactional Consistency",
// OOPSLA 2019).
//
// RA and CC are instances of the axiom shape
//   ∀x, t1 ≠ t2 ∈ Wr(x), t3 ∈ Rd(x) \ {t1, t2}: wr(t1, x, t3) ∧ C(t2, t3) ⇒ (t2, t1) ∈ co
// with C = so ∪ WR (RA) or C = HB = (so ∪ WR)⁺ (CC); RC is the same with the
// premise taken per read event: t3's read α of x returns t1's write, and an
// earlier read β of t3 (in program order) returns t2's. No premise
// mentions co, so for a fixed read-from every instance is a fixed edge that co
// must contain. A commit order exists iff the saturated graph
//   so ∪ WR ∪ {(t2, t1) | x, t3 as above}
// is acyclic (the saturation argument behind Biswas & Enea's polynomial
// algorithms for RA and CC), and then any topological order of it is one.
// With unique written values and committed transactions this is a
// polynomial check: no polygraph, no solver.
//
// When values repeat (a read has several candidate writers) or transactions
// have unknown status, the read-from and the set of committed transactions
// are choices, and the problem is NP-hard in general (the unique-value
// assumption is what makes the read-from known). The choices go to the SAT
// solver (one variable per candidate writer of a read, exactly one per read;
// one commit variable per unknown-status transaction), and each model is
// checked lazily: a cycle in its saturated graph becomes a clause forbidding
// the choices that cycle depends on, until a model is acyclic or the solver
// proves that none is. Candidates that close a cycle with the edges every
// model has are pruned first. Dense choices (a few values written hundreds
// of times to a key) can still take the loop many rounds.
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/polygraph/checker.hpp"
#include "engine/util/timing.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly {

// How happens-before is stored for CC: a vector clock per transaction (one
// entry per session: 4 n S bytes) or a bitset per transaction (n² / 8
// bytes). Auto takes the smaller.
enum class HbRepresentation : std::uint8_t { Auto, VectorClocks, Bitsets };

struct SaturationOutcome {
  Verdict verdict = Verdict::Unknown;
  // Allowed: the committed transactions (and the unknown-status ones the
  // model committed), T0 first, in a topological order of the saturated
  // graph: the commit order of a witness execution.
  std::vector<TxnId> commit_order;
  // Allowed: the read-from of every read with several candidate writers, as
  // for the readers that committed.
  std::vector<poly::ChosenRead> chosen_reads;
  // Violated: the shortest cycle found, or the read that nothing can justify.
  std::optional<Anomaly> anomaly;
};

// Decides `options.level` (GraphLevel::Rc, Ra or Cc) on the abstract
// history `a` of `h`, whose members are every transaction that is not aborted
// and whose INT violations and unjustified reads of committed transactions
// were already reported (check_history does both). `forced_aborts`: the
// unknown-status transactions that cannot have committed.
SaturationOutcome solve_saturation(const History& h, const AbstractHistory& a,
                                   const std::vector<TxnId>& forced_aborts,
                                   const CheckOptions& options, CheckStats& stats,
                                   HbRepresentation hb = HbRepresentation::Auto);

}  // namespace iso::poly
