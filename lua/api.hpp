// The spec API: the libraries a spec file sees besides Lua's own, each
// opened into a Lua state by a function of its own (as lualib.h declares
// the luaopen_* functions), and register_api, which opens them all in order
// (api.cpp, as linit.c does). Each opener leaves the stack as it found it.
// Internal to lua/: spec_library.cpp calls register_api on a new state, in a
// protected call.
#pragma once

#include <string>

struct lua_State;

namespace iso::lua::api {

// The metatable of a file's read-only view of the levels declared so far
// (its global `levels`; declarations.cpp).
inline constexpr const char* kLevelsViewMeta = "isosynth.levels_view";

// [-0, +0] The relational logic: the box metatables with their operators and
// methods, the formula constructors and quantifiers as globals, and the
// constants (Txn, Obj, Val, Read, iden, univ, TRUE, FALSE). operators.cpp.
void open_operators(lua_State* L);

// [-0, +0] The tables a spec function is given (h, e) reject unknown names.
// spec_function.cpp.
void open_strict_tables(lua_State* L);

// [-0, +0] The declarations: framework, level, anomaly, library, the witness
// types order and rel, and the registry's table of level axioms behind each
// file's `levels`. declarations.cpp.
void open_declarations(lua_State* L);

// The registry's key of framework `name`'s witness table `e`, which its
// levels' axioms are given (declarations.cpp).
std::string witness_key(const std::string& framework);

// [-0, +0] Opens the sandboxed standard libraries and then every library
// above: a new state ready to load spec files.
void register_api(lua_State* L);

}  // namespace iso::lua::api
