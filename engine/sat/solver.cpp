// The CryptoMiniSat adapter (solver.hpp): the run's deadline as the
// solver's time limit, assumptions, models, conflicts and statistics.

#include "engine/sat/solver.hpp"

#include <algorithm>
#include <chrono>

#include <cryptominisat5/cryptominisat.h>

#include "engine/util/budget.hpp"

namespace iso::sat {

namespace {
CMSat::Lit to_cms(Lit l) { return CMSat::Lit(l.var(), l.negated()); }
}  // namespace

Solver::Solver() : s_(std::make_unique<CMSat::SATSolver>(nullptr, &interrupt_)) {
  s_->set_verbosity(0);
  s_->set_num_threads(1);
}

Solver::~Solver() = default;

std::uint32_t Solver::new_var() { return new_vars(1); }

std::uint32_t Solver::new_vars(std::uint32_t n) {
  std::uint32_t first = num_vars_;
  s_->new_vars(n);
  num_vars_ += n;
  stats_.vars = num_vars_;
  return first;
}

void Solver::add_clause(std::span<const Lit> lits) {
  scratch_.clear();
  for (Lit l : lits) scratch_.push_back(to_cms(l));
  s_->add_clause(scratch_);
  ++stats_.clauses;
}

Result Solver::solve(std::span<const Lit> assumptions) {
  // The run's deadline bounds every call.
  budget::check();
  s_->set_max_time(std::min(budget::remaining_seconds(), 1e300));
  scratch_.clear();
  for (Lit l : assumptions) scratch_.push_back(to_cms(l));
  auto start = std::chrono::steady_clock::now();
  CMSat::lbool r = s_->solve(&scratch_);
  stats_.solve_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++stats_.solves;
  stats_.conflicts += s_->get_last_conflicts();
  if (r == CMSat::l_True) {
    const auto& m = s_->get_model();
    model_.assign(m.size(), false);
    for (std::size_t i = 0; i < m.size(); ++i) model_[i] = (m[i] == CMSat::l_True);
    return Result::Sat;
  }
  if (r == CMSat::l_False) return Result::Unsat;
  budget::check();  // out of the run's time, not stopped by its conflict limit
  return Result::Unknown;
}

bool Solver::model_value(std::uint32_t var) const {
  return var < model_.size() && model_[var];
}

std::vector<Lit> Solver::conflict() const {
  std::vector<Lit> out;
  for (CMSat::Lit l : s_->get_conflict())
    out.push_back(l.sign() ? Lit::neg(l.var()) : Lit::pos(l.var()));
  return out;
}

void Solver::set_max_conflicts(std::uint64_t conflicts) { s_->set_max_confl(conflicts); }
void Solver::set_default_polarity(bool polarity) { s_->set_default_polarity(polarity); }
void Solver::set_many_calls() { s_->set_no_simplify(); }
void Solver::interrupt() { s_->interrupt_asap(); }

}  // namespace iso::sat
