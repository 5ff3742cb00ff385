// The spec language: isolation levels written as Lua predicates. A spec file
// declares frameworks (witness relations plus well-formedness axioms) and
// levels (a formula over a history `h` and a witness `e`). Each Lua function
// runs exactly once, at load time, on symbolic relations: what it returns is an
// engine/logic formula, and nothing is evaluated in Lua when a history is
// checked or synthesized.
//
// Specs are code from strangers and run in a sandbox: no io, os, debug,
// package or coroutine libraries, no loading of files or binary chunks, no
// patterns, finalizers or weak tables, metatables of the API out of reach,
// print to stderr on one escaped line, each file in an environment of its own
// (it cannot change what the files after it see); and limits (Limits) on the
// Lua heap, the instructions (library calls that loop in C charged before
// they run), the time, and the formulas' depth and memory, which pcall cannot
// catch. A formula an axiom builds and drops, and a declared name holding a
// control or format character, are errors at their line. A broken
// or hostile spec ends in a SpecError ("file:line: message"), never a crash or
// a hang; the run's deadline (engine/util/budget.hpp) passing while a file
// loads ends it in iso::TimeoutError. docs/spec-language.md lists it all.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/level/level.hpp"
#include "engine/logic/ast.hpp"
#include "engine/logic/limits.hpp"

struct lua_State;

namespace iso::lua {

// A problem in a spec or a level name. what() is one line, normally
// "file:line: message".
class SpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The spec language builds the engine's frameworks and levels.
using WitnessDecl = iso::WitnessDecl;
using Framework = iso::Framework;
using Level = iso::Level;

// Per loaded file, the standard library's included.
struct Limits {
  std::size_t memory_bytes = 256u << 20;     // the Lua heap
  // Lua instructions, plus one per byte allocated and the work of library
  // calls that loop in C (string.rep's count, table.sort's comparisons...):
  // work inside one call that the count would not see.
  std::uint64_t instructions = 200'000'000;
  // Wall clock: what the instruction count cannot see (one instruction
  // comparing two long strings). Not positive: none.
  double seconds = 10;
  logic::NodeLimits formulas;                // the formulas' depth, size, arity
};

class SpecLibrary {
 public:
  // Creates the sandbox and loads the prelude (lua/prelude.lua) and, unless
  // `standard_specs` is false, the standard library (specs/*.lua). Without it
  // a fresh sandbox is ready in a fraction of the time (the fuzz target makes
  // one per input).
  explicit SpecLibrary(Limits limits = {}, bool standard_specs = true);
  // The standard library loaded on demand: a level named "biswas.SI" loads
  // the standard files up to and including specs/biswas.lua, in their usual
  // order (each file sees only the files before it, so what a file declares
  // is the same as when all load); anything that needs the whole library
  // (levels(), anomalies(), --eval, a user's spec file, a name no file
  // prefix gives) loads the rest first. A one-problem run (isosynth synth)
  // then runs only the files its levels need.
  struct OnDemand {};
  SpecLibrary(Limits limits, OnDemand);
  ~SpecLibrary();
  SpecLibrary(const SpecLibrary&) = delete;
  SpecLibrary& operator=(const SpecLibrary&) = delete;

  void load_file(const std::string& path);
  void load_string(std::string_view text, const std::string& chunk_name);

  // Resolves a level name: "cerone.SI", or a bare "SI" meaning "biswas.SI".
  // Matching is exact, then case-insensitive. Throws SpecError naming the
  // closest known levels.
  const Level& level(std::string_view name) const;
  std::vector<const Level*> levels() const;          // in declaration order
  // Named anomalies (`anomaly` declarations), each as the level that forbids
  // it (the pattern negated): a history exhibits the anomaly when that
  // level rejects it. Not among levels(). anomaly("LostUpdate") resolves
  // "anomalies.LostUpdate", case-insensitively; throws SpecError otherwise.
  std::vector<const Level*> anomalies() const;
  const Level& anomaly(std::string_view name) const;
  // Is `l` one of anomalies()? (Without loading the catalogue: a level
  // resolved before it loaded is none.)
  bool is_anomaly(const Level* l) const;

  // An expression of the spec language (`--eval`), run in the sandbox as a
  // spec file is, on the symbolic history `h` and, when `framework` is
  // given, its witness relations `e` (without, `e` has no relations): a
  // relation or a formula. lua/evaluator.hpp evaluates it on a history.
  // Throws SpecError ("--eval:1: message") for a malformed or hostile one.
  struct Expression {
    std::string text;
    logic::ExprPtr expr;        // a relation, or
    logic::FormulaPtr formula;  // a formula
    const Framework* framework = nullptr;
  };
  Expression expression(std::string_view text, const Framework* framework) const;

  // Used by the Lua bindings while a chunk runs.
  struct State;

 private:
  // Loads and runs a chunk under fresh limits: called with no arguments,
  // or by `call` (a C function given the chunk) when there is one.
  void run_chunk(std::string_view text, const std::string& chunk_name, int (*call)(lua_State*)) const;

  // On demand: loads the standard files before index `end` of
  // embedded_specs() not loaded yet.
  void load_standard(std::size_t end) const;
  // The index past the standard file a level name's prefix names ("biswas"
  // for specs/biswas.lua), or every file when none does.
  std::size_t standard_end(std::string_view level_name) const;

  std::unique_ptr<State> state_;
  mutable std::size_t standard_loaded_ = 0;  // embedded_specs() before it are loaded
  mutable std::unique_ptr<std::mutex> loading_ = std::make_unique<std::mutex>();
};

}  // namespace iso::lua
