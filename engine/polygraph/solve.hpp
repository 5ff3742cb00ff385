// Encoding of a pruned hyper-polygraph into SAT and solving it (DESIGN §4.4).
// Lazy acyclicity, for graphs of any size: solve; insert the model's edges
// into a dynamic topological order over the known graph (kept from one model
// to the next); turn each cycle met into a clause over the choices it needs;
// repeat until a model is acyclic or the solver proves that none is. Eager
// acyclicity, for small graphs: order variables with transitivity clauses,
// one solver call.
//
// Variables: one per open write-write pair, oriented so that `true` follows
// the known graph's topological order (with the solver's default polarity
// `true`, this is VeriStrong's order-guided polarity, §6.2); one per
// candidate of an open read; one commit choice per unknown-status
// transaction. Clauses: exactly one candidate per read (of a committed
// reader), 2-width cycle clauses (Alg. 2), cycle clauses found lazily.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/polygraph/checker.hpp"
#include "engine/polygraph/polygraph.hpp"

namespace iso::poly {

struct SolveOutcome {
  Verdict verdict = Verdict::Unknown;
  std::vector<TxnId> commit_order;  // Allowed
  std::vector<DepEdge> cycle;       // Violated: the shortest cycle found
};

// Throws std::invalid_argument when a theory graph is too large for the
// eager encoding.
void require_eager_size(std::uint32_t nodes);

// Transactions of unknown status that cannot have committed (an INT
// violation or a read nothing justifies) are passed in `forced_aborts`.
SolveOutcome solve_polygraph(Polygraph& pg, const std::vector<TxnId>& forced_aborts,
                             const CheckOptions& options, CheckStats& stats,
                             std::chrono::steady_clock::time_point start);

}  // namespace iso::poly
