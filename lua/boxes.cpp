// The value boxes and their auxiliary functions (boxes.hpp).
#include "lua/boxes.hpp"

#include "lua/sandbox.hpp"

namespace iso::lua::api {

using namespace logic;
using sandbox::State;

namespace {

// Formulas past this many in one spec function are not followed: the check
// for discarded ones is for mistakes, not for spec functions that build
// millions of formulas (the formula limits stop those).
constexpr std::size_t kMaxBuiltFollowed = std::size_t{1} << 18;

}  // namespace

void push_expr(lua_State* L, ExprPtr e) { push_box<ExprBox>(L, std::move(e)); }

void push_formula(lua_State* L, FormulaPtr f) {
  push_box<FormulaBox>(L, std::move(f));  // stack: ... box
  State& s = sandbox::state(L);
  if (s.spec_calls == 0 || s.built.size() >= kMaxBuiltFollowed) return;
  auto* box = static_cast<FormulaBox*>(lua_touserdata(L, -1));
  box->generation = s.generation;
  box->serial = static_cast<std::uint32_t>(s.built.size());
  s.built.push_back({sandbox::lua_line(L), false});
}

ExprBox* test_expr(lua_State* L, int i) {
  auto* b = static_cast<ExprBox*>(luaL_testudata(L, i, ExprBox::kMeta));
  return b && b->e ? b : nullptr;
}
FormulaBox* test_formula(lua_State* L, int i) {
  auto* b = static_cast<FormulaBox*>(luaL_testudata(L, i, FormulaBox::kMeta));
  return b && b->f ? b : nullptr;
}
WitnessBox* test_witness(lua_State* L, int i) {
  auto* b = static_cast<WitnessBox*>(luaL_testudata(L, i, WitnessBox::kMeta));
  return b && !b->type.empty() ? b : nullptr;
}

std::string describe(lua_State* L, int i) {
  if (test_expr(L, i)) return "a relational expression";
  if (test_formula(L, i)) return "a formula";
  return std::string("a ") + luaL_typename(L, i);
}

ExprPtr check_expr(lua_State* L, int i, const char* what) {
  if (ExprBox* b = test_expr(L, i)) return b->e;
  luaL_error(L, "%s: expected a relational expression, got %s", what, describe(L, i).c_str());
  return nullptr;
}

FormulaPtr check_formula(lua_State* L, int i, const char* what) {
  if (FormulaBox* b = test_formula(L, i)) {
    // Taken as an operand, or returned: part of a result.
    State& s = sandbox::state(L);
    if (b->generation == s.generation && b->serial < s.built.size()) s.built[b->serial].used = true;
    return b->f;
  }
  if (lua_isboolean(L, i)) return constant(lua_toboolean(L, i) != 0);
  luaL_error(L, "%s: expected a formula, got %s", what, describe(L, i).c_str());
  return nullptr;
}

void new_protected_metatable(lua_State* L, const char* meta, const luaL_Reg* metamethods,
                             std::initializer_list<const luaL_Reg*> methods) {
  luaL_newmetatable(L, meta);  // stack: ... mt
  luaL_setfuncs(L, metamethods, 0);
  if (methods.size() > 0) {
    lua_newtable(L);  // stack: ... mt methods
    for (const luaL_Reg* list : methods) luaL_setfuncs(L, list, 0);
    lua_setfield(L, -2, "__index");  // stack: ... mt
  }
  sandbox::protect_metatable(L);
  lua_pop(L, 1);  // stack: ...
}

}  // namespace iso::lua::api
