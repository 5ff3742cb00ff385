// The spec language: isolation levels written as Lua predicates. A spec file
// declares frameworks (witness relations plus well-formedness axioms) and
// levels (a formula over a history `h` and a witness `e`). Each Lua function
// runs exactly once, at load time, on symbolic relations: what it returns is an
// engine/logic formula, and nothing is evaluated in Lua when a history is
// checked or synthesized.
//
// Specs run in a sandbox: no io, os, debug or package libraries, no loading of
// files or binary chunks, a memory cap and an instruction budget, so a broken
// or hostile spec ends in a SpecError ("file:line: message"), never a crash or
// a hang.
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/logic/ast.hpp"

struct lua_State;

namespace iso::lua {

// A problem in a spec or a level name. what() is one line, normally
// "file:line: message".
class SpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct WitnessRelation {
  std::string name;            // "co", "vis", "ar"
  logic::RelationPtr rel;
  bool order = false;          // declared with order(S): a strict total order on S
  logic::SortId order_sort = logic::kAnySort;
};

struct Framework {
  std::string name;
  std::string doc;
  std::string location;        // "specs/biswas.lua:12"
  std::vector<WitnessRelation> witness;
  logic::FormulaPtr wf;        // the framework's axioms, conjoined with every level
};

struct Level {
  std::string name;            // "biswas.SER"
  std::string doc;
  std::string location;
  const Framework* framework = nullptr;
  logic::FormulaPtr axiom;
  // A graph characterization the level declares ("SER", "SI", "RA" or "CC";
  // poly::graph_level_from_name): `check` then decides it through the graph
  // checker (the hyper-polygraph, or saturation for RA and CC) instead of
  // the generic oracle. Empty when the level has none.
  std::string graph;

  // The whole constraint on an execution: order witnesses, wf, and the axiom.
  logic::FormulaPtr constraint() const;
};

struct Limits {
  std::size_t memory_bytes = 256u << 20;
  std::uint64_t instructions = 200'000'000;  // per loaded file
};

class SpecLibrary {
 public:
  // Creates the sandbox and loads the standard library (specs/*.lua).
  explicit SpecLibrary(Limits limits = {});
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

  // Used by the Lua bindings while a chunk runs.
  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace iso::lua
