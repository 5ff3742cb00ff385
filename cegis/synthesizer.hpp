// History synthesis by CEGIS (Isolde Algorithm 1, generalized; DESIGN.md §6.2):
// find a history in the scope allowed by every `allow` level and violating
// every `deny` level, or prove that none exists.
//
// One incremental SAT instance holds the history space, one witness per
// allow level (the first one's order fixed to the transaction index order),
// and, for smart candidate search, the requirement that those witnesses also
// violate every deny level of their framework. Each candidate goes to the
// checking oracle, deny level by deny level; a witness under which the
// candidate satisfies a deny level becomes the lemma WF(h, w) => not N(h, w),
// with w constant, over the same circuit and solver. With repeated values
// (SpaceOptions::duplicates) each allow execution also chooses its own
// read-from, and a lemma pins the witness's read-from choices as well.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cegis/history_space.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso::cegis {

struct Problem {
  std::vector<const lua::Level*> allow;
  std::vector<const lua::Level*> deny;
  Scope scope;
  SpaceOptions space;
  // Histories the search must not answer, nor any renaming of them
  // (cegis/canonical.hpp): synth --count's histories found so far. A
  // candidate that is one is blocked (its relations excluded) and the
  // search goes on.
  std::vector<History> excluded;
};

struct SynthStats {
  std::uint64_t candidates = 0;
  std::uint64_t lemmas = 0;
  std::uint64_t gates = 0;
  std::uint64_t sat_vars = 0;
  std::uint64_t sat_clauses = 0;
  std::uint64_t conflicts = 0;    // of the candidate solver
  double translate_seconds = 0;   // formulas to circuit to CNF
  double solve_seconds = 0;       // candidate search
  double oracle_seconds = 0;      // checking candidates against deny levels
  std::uint64_t implied_facts = 0;  // facts proved for an allow level and added (implied_facts)
  double facts_seconds = 0;       // proving and adding them (cached per level and scope)
  double total_seconds = 0;
  // The space was numbered along so ∪ wr (an allow level's order provably
  // contains it), not along so alone (docs/synthesis.md, "The scope").
  bool index_ordered = false;
};

struct Progress {
  const char* phase;  // "translating" (levels to clauses) or "searching" (candidates and lemmas)
  std::uint64_t candidates, lemmas;
  std::size_t gates;  // circuit gates made so far
  double elapsed_seconds;
};

struct SynthOptions {
  double timeout_seconds = 0;        // 0: none
  bool smart_search = true;          // allow witnesses must also violate the deny levels
  bool fixed_order = true;           // the first execution's order is the index order
  bool reuse_index_order = true;     // try the index order as a counterexample first
  // Break the key symmetry by the first deny level's violation instead of
  // numbering keys by first use once a search call has taken
  // `first_use_conflicts`, each of its templates in turn for a budget that
  // starts at `template_conflicts` and doubles every round
  // (docs/synthesis.md, "Key symmetry").
  bool deny_key_symmetry = true;
  std::uint64_t first_use_conflicts = 2000;
  std::uint64_t template_conflicts = 1000;
  // Add facts proved for the allow level whose order is fixed (its other
  // witness relation against the history), and the transitivity of the
  // deny templates' happens-before (valid), once the search has taken this
  // many conflicts in all (0: from the start).
  bool implied_facts = true;
  std::uint64_t implied_facts_after = 3000;
  std::function<void(const Progress&)> on_progress;  // called about once a second
};

enum class Outcome { Found, None, Timeout };

struct SynthResult {
  Outcome outcome = Outcome::None;
  std::optional<History> history;       // Found: empty transactions removed
  std::vector<Witness> allow_witnesses; // Found: one per allow level, same order
  SynthStats stats;
  std::vector<std::string> notes;       // e.g. minimization cut short by the time limit
};

// The space a problem searches, as its levels need it: the operation form
// for a level over read events, aborted and intermediate reads for a level
// that mentions them, predicate reads for one that tells them from item
// reads (these only in the transaction form with unique values).
SpaceOptions needed_space(const Problem& p);

// Throws DecideRefused or lua::SpecError / logic errors for unusable levels
// (e.g. a witness over sorts other than Txn).
SynthResult synthesize(const Problem& p, const SynthOptions& opt = {});

// Is `h` a solution of the problem? (Every allow level allows it, every deny
// level is violated by it; decided by decide().) Fills the allow witnesses.
// Throws TimeoutError when the run's deadline passes before it is decided.
bool is_solution(const History& h, const Problem& p, std::vector<Witness>* allow_witnesses = nullptr);

// Shrinks a solution: single operations while the history stays a solution
// (oracle calls only), then each scope dimension, from the scope the shrunk
// history needs, while the problem stays satisfiable, then operations again.
// Returns a locally minimal solution; within opt.timeout_seconds, after
// which it returns the smallest solution so far with a note saying so.
SynthResult minimize(const Problem& p, SynthResult found, const SynthOptions& opt = {});

// Is `h` one of p.excluded up to renaming?
bool is_excluded(const History& h, const Problem& p);

// A copy of `h` without transactions that have no operations; `witnesses`
// are renamed along (pairs and orders involving removed transactions drop).
History without_empty_transactions(const History& h, std::vector<Witness>* witnesses);

}  // namespace iso::cegis
