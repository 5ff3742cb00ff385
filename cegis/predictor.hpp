// Prediction (IsoPredict, PLDI 2024): from an observed run, a run over the
// same sessions and transactions that a weak level allows and
// serializability forbids, in which reads may take other writers as the
// prediction boundary permits (tests/brute/predict.hpp states the rules;
// it is the reference this is checked against).
//
// A synthesis problem over a fixed trace: one SAT instance holds the space
// (a boundary per session, a writer per read the boundary frees, the
// schema's relations over them) and the weak level's witness; each
// candidate goes to the checking oracle for serializability (decide(), the
// hyper-polygraph), and a serializability witness becomes the lemma that
// excludes every candidate it explains (Isolde's CEGIS, as cegis/
// synthesizer.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cegis/synthesizer.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso::cegis {

enum class PredictMode { Strict, Relaxed };

// A read that reads from another transaction than it did in the observed run.
struct ChangedRead {
  TxnId reader = 0;
  std::uint32_t op = 0;  // its index in the reader's operations
  TxnId observed = 0, writer = 0;
};

// A predicted run, over the observed transactions (a dropped one keeps its
// place, empty), and the reads that changed.
struct PredictedRun {
  History history;
  std::vector<ChangedRead> changed;
};

struct PredictResult {
  // The observed run itself: the weak level must allow it (a store that
  // provides the level produced it); when serializability already forbids
  // it, it is the prediction, with nothing changed.
  Verdict observed_under = Verdict::Unknown, observed_ser = Verdict::Unknown;
  Outcome outcome = Outcome::None;
  // Found: the predictions, each with a set of changed reads that contains
  // no earlier one's (a new way for the run to go wrong).
  std::vector<PredictedRun> runs;
  std::uint64_t candidates = 0, lemmas = 0;
  double seconds = 0;
};

// Preconditions: `observed` has committed transactions with item reads and
// writes only, and every read returns a value some transaction's last
// write of the key (or the initial state) has; `under` and `ser` read no
// time. Throws std::invalid_argument otherwise. When `under` does not allow
// the observed run, the outcome is None and observed_under says why not to
// search.
// At most `limit` predictions (at least one).
PredictResult predict(const History& observed, const lua::Level& under, const lua::Level& ser,
                      PredictMode mode, double timeout_seconds = 0, std::size_t limit = 1);

}  // namespace iso::cegis
