// The hierarchy of a set of levels within a scope (isosynth hierarchy): for
// every ordered pair (A, B), does A imply B here (every history of the scope
// A allows, B allows), or is there a history A allows and B denies? The
// pairs are decided by synthesis (synthesize(), then minimize()), except
// those that already-proved implications give by transitivity (A ⇒ C and
// C ⇒ B prove A ⇒ B without a search). Levels that imply each other form an
// equivalence class; the Hasse diagram joins a class to the classes just
// above it (strictly weaker, with none in between).
//
// Precondition: every level can be synthesized (decide() accepts it, its
// witness sorts are supported). Postcondition: implies(a, b) is decided for
// every a ≠ b unless the time limit ran out (then it is Unknown), and every
// separation carries a locally minimal history with the allow witness.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cegis/synthesizer.hpp"

namespace iso::cegis {

enum class Relation { Implies, Separated, Unknown };

struct PairResult {
  Relation relation = Relation::Unknown;
  bool by_transitivity = false;  // Implies, proved from two other implications
  std::optional<SynthResult> separation;  // Separated: allowed by a, denied by b
};

struct Hierarchy {
  std::vector<const lua::Level*> levels;
  // pairs[a][b]: does levels[a] imply levels[b] within the scope?
  std::vector<std::vector<PairResult>> pairs;
  // Equivalence classes (indices into levels), strongest first: a class
  // comes before every class it implies.
  std::vector<std::vector<std::size_t>> classes;
  // Hasse diagram over the classes: (stronger, weaker), a covering pair.
  std::vector<std::pair<std::size_t, std::size_t>> covers;
  std::size_t searched = 0;  // pairs decided by a search
  double seconds = 0;
};

struct HierarchyOptions {
  Scope scope;
  SpaceOptions space;
  bool minimize = true;
  SynthOptions synth;  // timeout_seconds bounds the whole run
  // Called before each search: (pairs done, pairs in all, the pair).
  std::function<void(std::size_t, std::size_t, const std::string&)> on_pair;
  // Searches run at once (engine/util/thread_pool.hpp). The result is the
  // same whatever the number: the pairs are still taken in order, each
  // searched only if the pairs before it leave it open; searches of the
  // next open pairs start ahead, and a result that transitivity has made
  // unneeded meanwhile is dropped (work lost, never a different answer).
  std::size_t jobs = 1;
};

Hierarchy hierarchy(const std::vector<const lua::Level*>& levels, const HierarchyOptions& opt);

}  // namespace iso::cegis
