// Solving a pruned hyper-polygraph (DESIGN §4.4, §4.5 steps 3-4): the SAT
// encoding (encoder.hpp) with lazy acyclicity for graphs of any size
// (lazy.cpp: solve; insert the model's edges into a dynamic topological
// order kept from one model to the next; turn each cycle met into a clause
// over the choices it needs; repeat) or eager acyclicity for small graphs
// (eager.cpp: order variables with transitivity clauses, one call). An
// accepted model becomes an execution (execution.cpp).
#pragma once

#include <chrono>
#include <tuple>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/polygraph/checker.hpp"
#include "engine/polygraph/polygraph.hpp"

namespace iso::poly {

struct SolveOutcome {
  Verdict verdict = Verdict::Unknown;
  // Allowed: the execution of the accepted model (CheckResult says what
  // each means).
  std::vector<TxnId> commit_order;
  std::vector<ScheduleEvent> schedule;
  std::vector<poly::ChosenRead> chosen_reads;
  std::vector<std::pair<TxnId, KeyId>> predicate_writes;  // CheckResult::predicate_writes
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
