// Checking a history against serializability or snapshot isolation through
// its hyper-polygraph (VeriStrong): construct, prune 1-width cycles, encode
// with 2-width cycle clauses, and solve with lazy acyclicity over the SAT
// solver; against Read Atomic or Causal Consistency by saturation
// (saturation.hpp). The public entry point of engine/polygraph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/history/history.hpp"
#include "engine/polygraph/all_anomalies.hpp"
#include "engine/polygraph/dependency.hpp"
#include "engine/verdict/anomaly.hpp"
#include "engine/verdict/graph_level.hpp"
#include "engine/verdict/verdict.hpp"

namespace iso::poly {

// How acyclicity is decided (DESIGN §4.4). Lazy: cycle clauses learnt from
// the solver's models, for graphs of any size. Eager: one order variable per
// pair of theory-graph nodes with transitivity clauses, cubic in the nodes,
// for the small graphs the synthesizer asks about. Auto picks by size.
enum class Acyclicity : std::uint8_t { Auto, Lazy, Eager };

struct CheckOptions {
  GraphLevel level = GraphLevel::Ser;
  // The real-time orders (History::time_before) the level's order must
  // respect; their edges join the known graph (SER: commit-begin and
  // commit-commit; SI: all three, on Viper's begin and commit nodes).
  RealTimeEdges real_time;
  Acyclicity acyclicity = Acyclicity::Auto;
  std::uint32_t eager_max_nodes = 32;  // Auto: eager up to this many theory nodes
  // Explain a violation: after an eager proof, search a cycle to show (the
  // lazy search, which confirms the verdict), and say for every edge of a
  // printed cycle what it rests on. Callers that need only the verdict turn
  // it off.
  bool explain = true;
  bool prune = true;             // 1-width pruning (VeriStrong §6.1.1)
  bool two_width = true;         // 2-width cycle clauses (§6.1.2)
  // Reachability in the chain form whatever its size (tests that compare it
  // with the brute force on histories small enough for bitsets).
  bool chains_always = false;
  double timeout_seconds = 0;    // 0: no limit
  std::size_t cycles_per_round = 256;  // cycle clauses gathered per model
  // check --all (all_anomalies.hpp): when not 0, a violation also lists
  // every anomaly class, with at most this many instances each.
  std::size_t all_limit = 0;
  // Called now and then with a one-line progress report.
  std::function<void(std::string_view)> progress;
};

struct PhaseSeconds {
  double construct = 0, prune = 0, encode = 0, solve = 0;
  double explain = 0;  // eager violations: the lazy search for a cycle
};

// The process's peak resident memory (engine/util/memory.hpp) when each
// phase ended, in bytes: a phase's own share is its increase over the one
// before (0: the phase did not run, or the system does not say).
struct PhasePeaks {
  std::size_t construct = 0, prune = 0, encode = 0, end = 0;
};

struct CheckStats {
  PhaseSeconds seconds;
  PhasePeaks peak_bytes;
  std::size_t txns = 0;             // nodes (T0 and members)
  std::size_t known_edges = 0;      // after pruning
  std::size_t ww_pairs = 0;         // either/or write-write constraints built
  std::size_t ww_open = 0;          // left open by pruning
  std::size_t wr_choices = 0;       // reads with several candidate writers
  std::size_t wr_open = 0;          // left open by pruning
  std::size_t prune_passes = 0;
  std::size_t vars = 0, clauses = 0, two_width_clauses = 0;
  std::size_t rounds = 0, cycle_clauses = 0;
  std::size_t reach_bytes = 0;      // largest reachability matrix
  std::uint32_t reach_chains = 0;   // its chains (0: bitsets)
  bool eager = false;               // acyclicity encoded eagerly
};

struct CheckResult {
  Verdict verdict = Verdict::Unknown;
  std::optional<Anomaly> anomaly;   // when Violated
  // When Violated and CheckOptions::all_limit: every anomaly class found,
  // in class_rank() order; when no read and no certain cycle shows the
  // violation, the one anomaly above as the only class (Source::Checker).
  std::vector<AnomalyClass> classes;
  // When Allowed: the transactions (T0 first) in an order that serves as the
  // commit order of a witness execution: a topological order of an acyclic
  // compatible graph's dependencies.
  std::vector<TxnId> commit_order;
  // When Allowed under SI: each committed transaction's begin and commit in
  // an order that explains the history (engine/decide/witness.hpp).
  std::vector<ScheduleEvent> schedule;
  // When Allowed: the read-from chosen for reads with several candidate
  // writers (writer, key, reader), and the unknown-status transactions the
  // execution commits.
  std::vector<poly::ChosenRead> chosen_reads;
  std::vector<TxnId> committed_unknown;
  // When Allowed: the predicate writes' writes that happened (the writer's
  // final write of the key), as (writer, key).
  std::vector<std::pair<TxnId, KeyId>> predicate_writes;
  CheckStats stats;
  std::vector<std::string> notes;
};

CheckResult check_history(const History& h, const CheckOptions& options);

// The abstract history the checks work on: every transaction that is not
// aborted is a member (unknown-status ones too: their commit is a choice),
// and session order is kept between consecutive members only.
// `predicate_reads`: expand predicate reads into read events
// (AbstractOptions::predicate_reads), as the polygraph and saturation decide them.
// `real_time_cut`: without the candidates real time excludes
// (AbstractOptions::real_time_cut).
AbstractHistory check_abstraction(const History& h, bool predicate_reads = false, bool real_time_cut = false);

}  // namespace iso::poly
