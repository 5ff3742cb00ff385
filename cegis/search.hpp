// One CEGIS search (Isolde Algorithm 1, generalized), as MiniSat's
// search(): candidates from one incremental SAT instance under the
// assumptions and conflict limits the schedule gives (cegis/schedule.hpp),
// each checked by the oracle deny level by deny level, a witness under which
// the candidate satisfies a deny level becoming the lemma WF(h, w) =>
// not N(h, w), with w constant, over the same circuit and solver.
//
// The instance (build()): the history space, one execution per allow level
// (the ordering level's order fixed to the index order), and the deny
// templates (cegis/deny_templates.hpp) asserted violated. Without keys
// numbered by first use in the space, the instance also holds that
// numbering under a selector of its own (first_use_selector()), and the
// first deny level's templates restricted by its violation, each under a
// selector, once the schedule asks (restrict_first_templates()). Facts the
// schedule adds (add_facts()) exclude no solution.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "cegis/canonical.hpp"
#include "cegis/execution.hpp"
#include "cegis/synthesizer.hpp"
#include "engine/logic/cnf.hpp"
#include "engine/sat/solver.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/timing.hpp"

namespace iso::cegis {

// The oracle: decide(), with a witness when allowed (a graph checker's
// commit order does not always give the framework's witness, and then the
// generic oracle finds one).
Decision decide_with_witness(const History& h, const lua::Level& level, DecideOptions opt);

inline constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

// What a search runs under, until the schedule changes it.
struct SearchLimits {
  std::vector<sat::Lit> assumptions;
  std::uint64_t per_call = kNoLimit;  // conflicts per solve call
  std::uint64_t until = kNoLimit;     // conflicts of the instance in all
};

class Search {
 public:
  // `ordering`: the allow level whose order is fixed to the index order
  // (the space is index ordered), if any. Builds the history space (may
  // throw TimeoutError).
  Search(const Problem& p, std::optional<std::size_t> ordering, const SynthOptions& opt, Clock::time_point start);

  // Asserts the instance (above). Once, before run().
  void build();

  // Candidates under `limits` until one is a solution (Found, with the
  // history and allow witnesses in `result`), none is left (None), the
  // oracle or the solver met the deadline (Timeout), or a solve call
  // stopped at `limits` (nullopt: the schedule decides what next).
  std::optional<Outcome> run(const SearchLimits& limits, SynthResult& result);

  // The selector of keys numbered by first use, when the space does not
  // number them so itself.
  std::optional<sat::Lit> first_use_selector() const { return by_first_use_; }
  // The first deny level's templates restricted by its violation
  // (cegis/key_symmetry.hpp), each asserted under a new selector, returned.
  std::vector<sat::Lit> restrict_first_templates();
  // Does the instance have the templates' happens-before transitivity to add?
  bool has_hb_transitivity() const { return !hb_transitive_.empty(); }
  // Asserts that transitivity (with `hb`), and the implied facts of allow
  // execution `exec` (cegis/implied_facts.hpp), if any.
  void add_facts(bool hb, std::optional<std::size_t> exec);
  std::uint64_t conflicts() const { return solver_.stats().conflicts; }

  // `result` with the search's statistics.
  SynthResult finish(SynthResult result);

 private:
  std::optional<Outcome> check_candidate(SynthResult& result);
  // The candidate of `inputs` has the relations of an excluded history's
  // renaming: asserts that no later candidate has the same relations.
  bool blocked_as_excluded(const History& h, const std::vector<bool>& inputs);
  void assert_formula(const logic::FormulaPtr& f, const logic::Bindings& b);
  std::optional<Witness> counterexample(const History& h, const lua::Level& level, bool& timed_out,
                                        bool force_generic = false);
  logic::BLit lemma(const lua::Level& deny, const Witness& w);
  const logic::Bindings& read_from_base(std::optional<std::size_t> exec);
  void report_progress();

  // In this order: the heartbeat reports from the circuit and the stats
  // while the history space is being built.
  const Problem& p_;
  std::optional<std::size_t> ordering_;
  const SynthOptions& opt_;
  Clock::time_point start_;
  Clock::time_point last_progress_ = Clock::now();
  const char* phase_ = "translating";
  SynthStats stats_;
  logic::Circuit circuit_;
  sat::Solver solver_;
  // Translating a large scope makes millions of gates between two
  // candidates: the budget's polls report progress meanwhile.
  budget::ScopedHeartbeat heartbeat_{[this] { report_progress(); }};
  HistorySpace space_;
  logic::CnfEncoder cnf_;
  std::vector<Execution> allow_execs_;
  // With repeated values and no allow execution: a read-from for the deny
  // templates (the lowest-indexed writer of every read).
  std::optional<logic::Bindings> lowest_read_from_;
  std::optional<sat::Lit> by_first_use_;
  std::vector<logic::Bindings> first_templates_;  // of the first deny level, to restrict
  // The transitivity of the templates' happens-before, cell by cell: valid
  // (true under every assignment of the inputs).
  std::vector<logic::BLit> hb_transitive_;
  std::optional<ExcludedHistories> excluded_;  // Problem::excluded
};

}  // namespace iso::cegis
