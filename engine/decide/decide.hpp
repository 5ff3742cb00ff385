// The one way to decide a level: a history, a level, options -> a verdict
// with a witness or an explanation. `check`, `synth` (its oracle),
// `minimize` and `compare` all call decide(); nothing else chooses a checker.
//
// Which checker decides (docs/design.md, "Deciding a level"):
//  1. Reads that nothing can justify (thin-air, G1a, G1b, list-append
//     anomalies) and INT violations of committed transactions violate every
//     level, whatever checker would run: they are reported first, by name.
//     A level that permits aborted and intermediate reads (Level::Permits:
//     Adya's PL-1) sets those register reads aside, with a note: they carry
//     no dependency.
//  2. A level that declares a graph characterization (`graph = "SER"`, "SI",
//     "RA", "CC") is decided by it: the hyper-polygraph for SER and SI
//     (VeriStrong Thm 3.5, A.2), saturation for RA and CC (Biswas & Enea
//     2019). They scale to 100,000s of transactions. An allowed verdict's
//     commit order is turned into the level's framework's witness (co;
//     vis and ar; a version order per key) and, on small histories,
//     re-checked against the level's formula.
//     With real time (h.rt, h.rt_cc, h.rt_bc), the SER and SI polygraphs take
//     the real-time orders as known edges; under SER and SI, predicate reads
//     are read events of the keys they cover.
//  2b. A level that trusts the database's own timestamps (`graph =
//     "timestamps-SI"`, "timestamps-SER") is checked against them in one
//     pass (engine/timestamps/).
//  3. Any other level goes to the generic oracle: the level's formula
//     translated with the history as constants, one SAT call per choice of
//     the unknown-status transactions that committed. It unrolls quantifiers
//     over the transactions, so histories beyond `generic_max_txns` are
//     refused (DecideRefused) rather than left to exhaust memory.
// Session order: a level whose formula does not mention it (Adya's PL
// levels) is decided on the history with every transaction in its own
// session, on every path; `SessionMode::Ignore` does the same for any level.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/decide/instances.hpp"
#include "engine/decide/witness.hpp"
#include "engine/history/history.hpp"
#include "engine/level/level.hpp"
#include "engine/polygraph/checker.hpp"
#include "engine/verdict/verdict.hpp"

namespace iso {

// How session order is taken: as the level defines it (Auto: kept when its
// formula mentions so), or ignored for every level (each transaction in its
// own session; Elle's serializable vs strong-session-serializable).
enum class SessionMode : std::uint8_t { Auto, Ignore };

enum class Checker : std::uint8_t { Polygraph, Saturation, Generic, Timestamps };
// "polygraph", "saturation", "generic", "timestamps"
std::string_view checker_name(Checker c);

// The level cannot be decided on this history as asked (too many
// transactions for the generic oracle, too many of unknown status, predicate
// reads it does not model, a list read of an aborted append at a level that
// permits aborted reads). what() is one line.
class DecideRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Relations of the level's framework fixed to given tuples (ids per column
// sort, as in WitnessRelation::tuples): the generic oracle searches the rest.
using PinnedRelations = std::vector<std::pair<std::string, std::vector<std::vector<std::uint32_t>>>>;

struct GenericStats {
  double translate_seconds = 0;
  double solve_seconds = 0;
  std::uint64_t gates = 0;
  std::uint64_t sat_vars = 0;
  std::uint64_t sat_clauses = 0;
  std::uint64_t solver_calls = 0;
};

struct DecideOptions {
  SessionMode sessions = SessionMode::Auto;
  // Graph paths.
  poly::Acyclicity acyclicity = poly::Acyclicity::Auto;
  bool prune = true;
  bool two_width = true;
  // Reachability in the chain form whatever its size
  // (poly::CheckOptions::chains_always; tests).
  bool chains_always = false;
  // Name a violation by a cycle (graph paths). Off: the verdict is enough
  // (the synthesizer's oracle).
  bool explain = true;
  // check --all: a graph path's violation lists every anomaly class, at
  // most this many instances each (0: off; poly::CheckOptions::all_limit).
  std::size_t all_limit = 0;
  // An allowed verdict's witness in the framework's terms. Off: the graph
  // paths skip the conversion (the commit order is still given).
  bool witness = true;
  // Generic oracle.
  std::size_t generic_max_txns = 48;
  std::uint32_t max_unknown = 10;
  // Witness relations to try pinned first (the synthesizer's index order):
  // a witness found under them generalizes best. Then the free search.
  PinnedRelations hint;
  // Decide by the generic oracle even when the level declares a graph
  // characterization (tests that compare the two).
  bool force_generic = false;
  // Narrows the run's deadline for this call (0: the run's own).
  double timeout_seconds = 0;
  std::function<void(std::string_view)> progress;
};

struct Decision {
  Verdict verdict = Verdict::Unknown;
  Checker checker = Checker::Generic;
  // The history has session order and the level was decided without it
  // (each transaction in its own session).
  bool sessions_ignored = false;
  // Violated: what breaks the level, named (a read anomaly, INT, or a
  // dependency cycle), when the checker can name it.
  std::optional<Anomaly> anomaly;
  // Violated on a graph path with DecideOptions::all_limit: every anomaly
  // class found (poly::CheckResult::classes).
  std::vector<poly::AnomalyClass> classes;
  // Violated without an anomaly (the generic oracle: "no co satisfies ...")
  // or Unknown: why, in one line.
  std::string reason;
  // Violated without an anomaly, when explaining and the history is small:
  // the transactions the violation needs (engine/decide/core.hpp), ascending.
  std::vector<TxnId> core;
  // Violated by the generic oracle, when explaining: the instances of the
  // level's formula that no witness satisfies together, on the part of the
  // history the core names (engine/decide/instances.hpp).
  std::optional<FailingInstances> failing;
  // Allowed: the witness in the level's framework's terms (absent when the
  // framework's witness cannot be built from the graph checker's order).
  std::optional<Witness> witness;
  // Allowed by a graph checker: its commit order (T0 first).
  std::vector<TxnId> commit_order;
  std::vector<std::string> notes;       // what the verdict did not or could not use
  poly::CheckStats graph_stats;
  GenericStats generic_stats;
};

// Decides `level` on `h`. Throws DecideRefused (see above); never throws on a
// timeout (the verdict is Unknown).
Decision decide(const History& h, const Level& level, const DecideOptions& options = {});

// Why decide() would refuse `level` on `h`, in one line, or nullopt: a
// caller can ask before deciding anything.
std::optional<std::string> refusal(const History& h, const Level& level,
                                   const DecideOptions& options = {});

// Does `w` (every witness relation, read-from choice and commit choice
// fixed) satisfy the level's formula on `h`? `why` gets a one-line reason
// when not. Meant for small histories (the formula is unrolled); the tests
// re-check witnesses with it.
bool satisfies(const History& h, const Level& level, const Witness& w,
               std::string* why = nullptr, SessionMode sessions = SessionMode::Auto);

// Is `level` decided on `h` without its session order (the history with
// every transaction in its own session)? When the mode says so or the
// level's formula does not mention session order, and `h` has any.
bool decided_without_sessions(const History& h, const Level& level, SessionMode mode);

}  // namespace iso
