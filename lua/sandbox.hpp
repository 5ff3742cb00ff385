// The spec sandbox: the state the Lua bindings share (SpecLibrary::State)
// and the limits that bound a spec file: memory (the allocator),
// instructions and wall-clock time (the count hook), the work of library
// calls that the hook cannot see (charged before they run), and the
// standard library as specs see it. Internal to lua/: spec_library.cpp
// builds the Lua state with these, api.cpp opens the libraries of the spec
// language on top (boxes, operators, declarations).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>

// Lua compiled as C++ (liblua5.4-c++): no extern "C", errors are exceptions.
#include <lauxlib.h>
#include <lua.h>

#include "engine/logic/limits.hpp"
#include "engine/util/budget.hpp"
#include "lua/spec_library.hpp"

namespace iso::lua {

// ---------------------------------------------------------------------------
// State shared with the C functions: its address is in the Lua state's extra
// space (lua_getextraspace), which the spec cannot reach.

struct SpecLibrary::State {
  lua_State* L = nullptr;
  Limits limits;
  std::size_t memory = 0;
  std::uint64_t instructions = 0;   // spent by the file being loaded
  budget::Clock::time_point stop_at{};  // the file's wall-clock limit
  // Set when a limit stopped the spec (instructions, memory, formula size,
  // time): the error, with its file:line. From then on the hook and every
  // pcall raise it again, so the spec cannot catch it and carry on.
  std::string fatal;
  bool timeout = false;             // fatal because the run's deadline passed
  // Set by the allocator, which may not build strings, when it refused to
  // allocate past the instruction budget: `fatal` is filled in later.
  bool over_budget = false;
  std::size_t printed = 0;          // bytes print() wrote to stderr
  std::string library;  // the current `library "name"` prefix, per chunk
  std::vector<std::unique_ptr<Framework>> frameworks;
  std::vector<std::unique_ptr<Level>> levels;
  std::map<std::string, Framework*, std::less<>> framework_index;
  std::map<std::string, Level*, std::less<>> level_index;
  // Named anomalies (`anomaly` declarations), each as the level that forbids
  // it: a history exhibits the anomaly when that level rejects it.
  std::vector<std::unique_ptr<Level>> anomalies;
  std::map<std::string, Level*, std::less<>> anomaly_index;
  // Formulas built while a spec function (axiom, wf, pattern) runs, in the
  // order built, each with where it was built and whether an API function
  // took it as an operand or the function returned it. One that was neither
  // was thrown away: `a and b` (Lua's `and`) or a formula used as a Lua
  // condition, both of which load silently otherwise.
  struct Built {
    std::string at;
    bool used = false;
  };
  std::vector<Built> built;
  std::uint32_t generation = 1;  // of `built`: boxes from earlier calls are not in it
  int spec_calls = 0;            // spec functions running (nested declarations)
  // Quantified variables of the file being loaded, by id: "'t' (bound at
  // file:line)", for the error when one is used outside its body.
  std::map<std::uint32_t, std::string> variables;
  // A single allocation past this: a string or table larger than any spec
  // needs, whose every comparison or scan would be one long C loop.
  bool block_too_big = false;
  std::string block_at;  // the Lua line that asked for it
  // An --eval expression (SpecLibrary::expression): the framework whose
  // witness table is `e` (none: an empty one), and what it evaluated to.
  const Framework* eval_framework = nullptr;
  logic::ExprPtr eval_expr;
  logic::FormulaPtr eval_formula;

  std::string budget_message() const {
    return fmt::format("instruction budget exceeded ({} instructions): does the spec loop forever?",
                       limits.instructions);
  }
  // True once a limit stopped the spec; `fatal` then says why.
  bool stopped() {
    if (fatal.empty() && over_budget) fatal = budget_message();
    return !fatal.empty();
  }
  std::string memory_message() const {
    if (block_too_big)
      return fmt::format("a string or table larger than {} MiB: more than a spec needs", kMaxBlock >> 20);
    return fmt::format("the spec used more memory than allowed ({} MiB)", limits.memory_bytes >> 20);
  }
  // The largest single allocation: strings, table parts and the Lua stack
  // (at its deepest, about 16 MB) fit.
  static constexpr std::size_t kMaxBlock = std::size_t{17} << 20;
};

namespace sandbox {

using State = SpecLibrary::State;

// Its address marks the metatables the sandbox's setmetatable made.
inline constexpr int kCopyKey = 0;

inline State& state(lua_State* L) { return **static_cast<State**>(lua_getextraspace(L)); }

// "file:line" of the function `level` frames up (0: the running one, 1: the
// caller of a C function), or "" when it is not Lua code. Allocates nothing
// in Lua, so it works when the Lua heap is full.
inline std::string where(lua_State* L, int level) {
  lua_Debug ar;
  if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) return "";
  return fmt::format("{}:{}", ar.short_src, ar.currentline);
}

// "file:line" of the innermost Lua function on the call stack, from the
// caller of a C function up (a C function may be called by another: a
// wrapper, pcall, a metamethod), or "".
inline std::string lua_line(lua_State* L) {
  for (int level = 1; level <= 4; ++level)
    if (std::string at = where(L, level); !at.empty()) return at;
  return "";
}

inline std::string located(const std::string& at, const std::string& msg) {
  return at.empty() ? msg : at + ": " + msg;
}

// --- limits (sandbox.cpp) ---------------------------------------------------

// The allocator of the Lua state (its ud: the State): refuses what passes
// the memory limit or the largest single block.
void* limited_alloc(void* ud, void* ptr, std::size_t osize, std::size_t nsize);

// Instructions between two calls of the count hook.
inline constexpr int kHookEvery = 100;

// The count hook: the instruction budget, the run's deadline and the
// file's wall-clock limit.
void count_hook(lua_State* L, lua_Debug* ar);

// Raises the fatal error: Lua's own error, which the sandbox's pcall lets
// through.
int raise_fatal(lua_State* L);

// Stops the spec for good with `msg` located at `at`.
int stop(lua_State* L, const std::string& at, const std::string& msg, bool timeout = false);

// Counts work a C function does in one call against the instruction budget,
// before it does it.
void charge(lua_State* L, lua_Unsigned units);

// Runs a binding body; turns C++ exceptions (type errors from the AST
// factories) into Lua errors located at the calling line of the spec. Lua's
// own errors are not std::exceptions and pass through untouched. A formula
// past the limits (logic::LimitError) or out of memory stops the spec: it
// is a limit, not a mistake to recover from.
template <int (*F)(lua_State*)>
int guarded(lua_State* L) {
  std::string msg;
  bool fatal = false;
  try {
    return F(L);
  } catch (const std::bad_alloc&) {
    msg = "out of memory";
    fatal = true;
  } catch (const logic::LimitError& e) {
    msg = e.what();
    fatal = true;
  } catch (const std::exception& e) {
    msg = e.what();
  }
  if (fatal) return stop(L, where(L, 1), msg);
  return luaL_error(L, "%s", msg.c_str());
}

// Sets __metatable = false on the table at the top of the stack: getmetatable
// then returns false, and setmetatable refuses to replace it. [-0, +0]
inline void protect_metatable(lua_State* L) {
  lua_pushboolean(L, 0);  // stack: ... mt false
  lua_setfield(L, -2, "__metatable");
}

// Opens the libraries specs may use (base, string, table, math, utf8), each
// function with its bound: the ones that escape the limits replaced or
// removed, the ones whose work in one call the hook does not see charged
// first (docs/spec-language.md lists them all).
void open_sandboxed_libs(lua_State* L);

}  // namespace sandbox
}  // namespace iso::lua
