// Prediction (IsoPredict, PLDI 2024): from an observed run, a run over the
// same sessions and transactions that a weak level allows and
// serializability forbids, in which reads may take other writers as the
// prediction boundary permits (tests/brute/predict.hpp states the rules;
// it is the reference this is checked against).
//
// A synthesis problem over a fixed trace (Isolde's CEGIS, as cegis/
// synthesizer.hpp): one SAT instance holds the space (cegis/
// prediction_space.hpp: a boundary per session, a writer per read the
// boundary frees). The weak level is held to in one of two ways: a level
// decided by saturation (RC, RA, CC) lazily, each candidate decided and
// each cycle of a violation a clause over the read-froms and writes it
// rests on (the acyclicity theory's way); any other level by its formula,
// asserted over the schema's relations with its witness free (its
// quantifiers unroll over the trace: small traces). A candidate the weak
// level allows goes to decide() for serializability (the hyper-polygraph),
// and its commit order becomes a lemma, written out directly over the
// space, that excludes every candidate that order serializes among those
// changing no other reads. Candidates changing at most K reads come first,
// K = 1, 2, ... (for PredictOptions::fewest_seconds); then any number and a
// doubling bound in turn.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "cegis/prediction_space.hpp"
#include "cegis/synthesizer.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/history.hpp"
#include "engine/sat/solver.hpp"
#include "lua/spec_library.hpp"

namespace iso::cegis {

// A predicted run, over the observed transactions (a dropped one keeps its
// place, empty), and the reads that changed.
struct PredictedRun {
  History history;
  std::vector<ChangedRead> changed;
};

struct PredictResult {
  // The observed run itself under both levels. When the weak level allows
  // it and serializability forbids it, it is the prediction, with nothing
  // changed. When the weak level does not allow it, the search goes on as
  // for any other run (IsoPredict puts no condition on the observed run):
  // its predictions are allowed by the level all the same.
  Verdict observed_under = Verdict::Unknown, observed_ser = Verdict::Unknown;
  Outcome outcome = Outcome::None;
  // Found: the predictions, each with a set of changed reads that contains
  // no earlier one's (a new way for the run to go wrong).
  std::vector<PredictedRun> runs;
  // Found: no prediction changes fewer than `fewest_below` reads, and
  // `fewest` when the first changes that many (the search for fewer can run
  // out of PredictOptions::fewest_seconds).
  std::size_t fewest_below = 0;
  bool fewest = false;
  // Candidates drawn from the space; clauses from the weak level's cycles
  // (a level decided lazily); lemmas from serializability's witnesses.
  std::uint64_t candidates = 0, cycles = 0, lemmas = 0;
  // Clauses ruling out stale reads before the search (CC).
  std::uint64_t ruled_out = 0;
  // Where the time went: the solver (its statistics), the checks of the
  // candidates (decide()), and the lemmas (building and encoding them).
  sat::SolverStats sat;
  double check_seconds = 0, lemma_seconds = 0;
  double first_seconds = 0;  // to the first prediction found
  double seconds = 0;
};

struct PredictProgress {
  std::size_t bound;  // changed reads allowed so far
  std::uint64_t candidates, cycles, lemmas;
  double elapsed_seconds;
};

struct PredictOptions {
  PredictMode mode = PredictMode::Strict;
  double timeout_seconds = 0;  // 0: none
  std::size_t limit = 1;       // predictions wanted (at least one)
  // Time to look for the prediction changing the fewest reads, fewest
  // first (0: none, any prediction; the run's deadline applies too).
  double fewest_seconds = 5;
  std::function<void(const PredictProgress&)> on_progress;  // called about once a second
};

// Preconditions: `observed` is a trace ObservedTrace reads (committed
// transactions with item reads and writes only, each read with a writer;
// throws TraceError otherwise); `under` and `ser` read no time; `ser` is
// serializability with session order (`graph = "SER"`, a formula that
// mentions so: biswas.SER, cerone.SER); throws std::invalid_argument
// otherwise. The weak level need not allow the observed run
// (observed_under says whether it does).
// Postcondition: every prediction is allowed by `under` and forbidden by
// `ser`; the first changes as few reads as any prediction does when
// `fewest` says so.
PredictResult predict(const History& observed, const lua::Level& under, const lua::Level& ser,
                      const PredictOptions& options = {});
// The same on a trace already read (a caller that reports a TraceError
// before anything else reads it once).
PredictResult predict(const ObservedTrace& trace, const lua::Level& under, const lua::Level& ser,
                      const PredictOptions& options = {});

}  // namespace iso::cegis
