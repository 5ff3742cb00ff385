// The one entry point of proofs: does level A imply level B for every
// history, not only within a scope? (docs/proofs.md)
//
// The claim, for every history h, read-from choice and witness w of A:
//   facts(h) ∧ A's permits ∧ A.constraint(h, w)
//     ⇒ B's permits ∧ B.constraint(h, f(w)) [∧ f's read-from is one]
// for a witness map f (witness_maps.hpp), sent to z3 and cvc5 as an SMT-LIB
// script (smt_problem.hpp). It is proved when both answer "unsat" for one
// map; anything else is "not proved". A model of a goal's negation is a
// counterexample only when, read back as a history, decide() finds that A
// allows it and B does not (a model may refute only the map, or use a
// closure's stand-in that is no closure): then the attempt stops with it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/history/history.hpp"
#include "engine/level/level.hpp"
#include "prove/provers.hpp"

namespace iso::prove {

struct ProofOptions {
  bool session_free = false;    // every transaction in its own session (--no-sessions)
  double seconds = 20;          // per prover and goal (a first pass over all maps takes at most 2)
  std::size_t max_maps = 48;    // witness maps tried
  double budget = 0;            // seconds for the whole attempt (--timeout); 0: no bound
  // Where to write the scripts: DIR/A-implies-B/map-K/goal-G-of-N.smt2, every
  // map tried; empty: a temporary folder, removed.
  std::string dir;
  // Told of each witness map's outcome as it comes ("map 2 of 12: ...").
  std::function<void(const std::string&)> progress;
};

struct ImplicationProof {
  std::string a, b;               // level names
  bool proved = false;
  std::string map;                // the witness map that proved it (WitnessMap::text)
  std::vector<ProverRun> runs;    // the provers' answers for that map (or the last tried)
  std::vector<std::string> files; // the scripts, one per goal, when written to ProofOptions::dir
  std::size_t maps_tried = 0;     // prover rounds over maps (a map may be tried twice, the second time longer)
  std::string why_not;            // when not proved: what stood in the way
  bool out_of_time = false;       // ProofOptions::budget ran out before every map was tried
  // Not proved because false: a history A allows and B forbids, read from a
  // prover's finite model of a goal's negation (countermodel.hpp) and
  // confirmed by decide() on both levels; where from, in words.
  std::optional<History> counterexample;
  std::string counterexample_from;
  double seconds = 0;             // wall time of the whole attempt
};

ImplicationProof prove_implication(const Level& a, const Level& b, const ProofOptions& options);

}  // namespace iso::prove
