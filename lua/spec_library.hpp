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

#include "engine/level/level.hpp"
#include "engine/logic/ast.hpp"

struct lua_State;

namespace iso::lua {

// A problem in a spec or a level name. what() is one line, normally
// "file:line: message".
class SpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The spec language builds the engine's frameworks and levels.
using WitnessRelation = iso::WitnessDecl;
using Framework = iso::Framework;
using Level = iso::Level;

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
