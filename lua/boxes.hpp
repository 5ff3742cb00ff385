// The value boxes: the userdata through which a spec holds engine/logic
// values (a relational expression, a formula, a witness declaration), and the
// auxiliary functions every library of the spec API uses on them, in the
// manner of lauxlib: push a value in its box, test whether a stack slot holds
// one (luaL_testudata), check it or raise a Lua error naming the operation,
// and build a protected metatable from luaL_Reg lists.
//
// A box belongs to the metatable named by its kMeta. Its finalizer empties
// it; an empty box tests as no box at all. A formula pushed while a spec
// function runs is recorded in State::built, and marked used when
// check_formula takes it (spec_function.hpp says why). Internal to lua/.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <new>
#include <string>
#include <utility>

// Lua compiled as C++ (liblua5.4-c++): no extern "C", errors are exceptions.
#include <lauxlib.h>
#include <lua.h>

#include "engine/logic/ast.hpp"

namespace iso::lua::api {

struct ExprBox {
  static constexpr const char* kMeta = "isosynth.expr";
  logic::ExprPtr e;
};
// `generation` and `serial` place a formula built while a spec function ran
// in State::built (generation 0: built outside one).
struct FormulaBox {
  static constexpr const char* kMeta = "isosynth.formula";
  logic::FormulaPtr f;
  std::uint32_t generation = 0;
  std::uint32_t serial = 0;
};
// What order(S) and rel(S, ...) return: the type of a witness relation a
// framework declares, and whether it is a strict total order.
struct WitnessBox {
  static constexpr const char* kMeta = "isosynth.witness";
  logic::Type type;
  bool order;
};

// [-0, +1] Pushes `value` in a new box of type Box.
template <class Box, class T>
void push_box(lua_State* L, T value) {
  void* mem = lua_newuserdatauv(L, sizeof(Box), 0);  // stack: ... box
  new (mem) Box{std::move(value)};
  luaL_setmetatable(L, Box::kMeta);
}

// [-0, +1]
void push_expr(lua_State* L, logic::ExprPtr e);
// [-0, +1] Records the formula in State::built while a spec function runs.
void push_formula(lua_State* L, logic::FormulaPtr f);

// [-0, +0] The box at index `i`, or nullptr when there is none there (or an
// emptied one).
ExprBox* test_expr(lua_State* L, int i);
FormulaBox* test_formula(lua_State* L, int i);
WitnessBox* test_witness(lua_State* L, int i);

// [-0, +0] "a relational expression", "a formula", "a table"...: what is at
// index `i`, for error messages.
std::string describe(lua_State* L, int i);

// [-0, +0, e] The expression at index `i`, or a Lua error "what: expected a
// relational expression, got ...".
logic::ExprPtr check_expr(lua_State* L, int i, const char* what);
// [-0, +0, e] The formula at index `i` (a Lua boolean is the constant), or a
// Lua error. Marks the formula used: an operand, or a spec function's result.
logic::FormulaPtr check_formula(lua_State* L, int i, const char* what);

// [-0, +0] Finalizer of a box. The metatables are out of the spec's reach
// (__metatable), so only the collector calls it; still, it checks what it is
// given and empties the box rather than destroying it, so that a second call
// would find an empty box, not freed memory.
template <class Box>
int gc_box(lua_State* L) {
  if (auto* box = static_cast<Box*>(luaL_testudata(L, 1, Box::kMeta))) *box = Box{};
  return 0;
}

// [-0, +0] Registers the metatable `meta` with the metamethods `metamethods`
// and, when there are `methods` (lists of them), an __index table of them. getmetatable()
// of what it marks gives `false`: the metatables hold __gc, which frees a
// node, and the method tables, which no spec may change.
void new_protected_metatable(lua_State* L, const char* meta, const luaL_Reg* metamethods,
                             std::initializer_list<const luaL_Reg*> methods = {});

}  // namespace iso::lua::api
