// A thin adapter over CryptoMiniSat: variables, clauses, incremental solving
// under assumptions, budgets and statistics. Everything above it speaks in
// these literals, so another solver could be slotted in without touching
// callers.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <cryptominisat5/solvertypesmini.h>

namespace CMSat {
class SATSolver;
}

namespace iso::sat {

// A literal: variable index times two, plus one when negated.
struct Lit {
  std::uint32_t x = 0;
  static Lit pos(std::uint32_t var) { return Lit{var << 1}; }
  static Lit neg(std::uint32_t var) { return Lit{(var << 1) | 1u}; }
  std::uint32_t var() const { return x >> 1; }
  bool negated() const { return (x & 1u) != 0; }
  Lit operator~() const { return Lit{x ^ 1u}; }
  friend bool operator==(Lit a, Lit b) { return a.x == b.x; }
};

enum class Result { Sat, Unsat, Unknown };

struct SolverStats {
  std::uint64_t vars = 0;
  std::uint64_t clauses = 0;
  std::uint64_t solves = 0;
  std::uint64_t conflicts = 0;
  double solve_seconds = 0;
};

class Solver {
 public:
  Solver();
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  std::uint32_t new_var();
  std::uint32_t new_vars(std::uint32_t n);  // returns the first of n fresh variables
  std::uint32_t num_vars() const { return num_vars_; }
  void add_clause(std::span<const Lit> lits);
  void add_clause(std::initializer_list<Lit> lits) {
    add_clause(std::span<const Lit>(lits.begin(), lits.size()));
  }

  // Solves under assumptions, within the time left in the run. Unknown when
  // its conflict limit ran out or interrupt(); throws TimeoutError when the
  // run's deadline passed (engine/util/budget.hpp).
  Result solve(std::span<const Lit> assumptions = {});
  bool model_value(std::uint32_t var) const;   // after Sat
  bool model_value(Lit l) const { return model_value(l.var()) != l.negated(); }
  // After Unsat under assumptions: the (negated) assumptions in the conflict.
  std::vector<Lit> conflict() const;

  void set_max_conflicts(std::uint64_t conflicts);
  void set_default_polarity(bool polarity);
  // For a loop of many solve() calls that each add a few clauses: no
  // simplification between them.
  void set_many_calls();
  void interrupt();  // may be called from another thread

  const SolverStats& stats() const { return stats_; }

 private:
  std::atomic<bool> interrupt_{false};
  std::unique_ptr<CMSat::SATSolver> s_;
  std::uint32_t num_vars_ = 0;
  SolverStats stats_;
  std::vector<bool> model_;
  std::vector<CMSat::Lit> scratch_;  // reused by add_clause and solve
};

}  // namespace iso::sat
