// The relational logic as specs write it (api.hpp, open_operators): the
// operators of relational expressions (+ - & .. * ~ and r(a, b) for
// membership) and of formulas (& | ~), their methods (r:closure(),
// f:implies(g)...), the formula constructors and quantifiers (eq, some, all,
// forall, setof...) and the constants (Txn, iden, TRUE...) as globals.
//
// Every function here takes its operands from the stack, checks them
// (boxes.hpp: an error names the operator and what it got), builds the
// engine/logic node and pushes it in a box: [-n, +1] in the Lua manual's
// notation, n being its arguments, which stay below the result. Nothing is
// evaluated: the nodes describe what a level requires of any history. Type
// errors of the AST factories are C++ exceptions, which sandbox::guarded
// turns into Lua errors at the spec's line.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/model/schema.hpp"
#include "lua/api.hpp"
#include "lua/boxes.hpp"
#include "lua/sandbox.hpp"

namespace iso::lua::api {

using namespace logic;
using sandbox::guarded;

namespace {

// The name of an operation in its error messages, as a template argument:
// one function template serves every operation of the same shape.
template <std::size_t N>
struct OpName {
  char text[N];
  constexpr OpName(const char (&name)[N]) { std::copy_n(name, N, text); }  // implicit: from the literal
};

// How many operands an engine factory takes.
template <class Result, class... Operands>
constexpr std::size_t arity(Result (*)(const Operands&...)) {
  return sizeof...(Operands);
}

// --- one shape, many operations -------------------------------------------------

// The operand at index `i`, as the engine's factory takes it.
template <class Node>
Node check_operand(lua_State* L, int i, const char* what);
template <>
ExprPtr check_operand(lua_State* L, int i, const char* what) {
  return check_expr(L, i, what);
}
template <>
FormulaPtr check_operand(lua_State* L, int i, const char* what) {
  return check_formula(L, i, what);
}

void push_node(lua_State* L, ExprPtr e) { push_expr(L, std::move(e)); }
void push_node(lua_State* L, FormulaPtr f) { push_formula(L, std::move(f)); }

template <OpName Name, class Result, class... Operands, std::size_t... I>
int construct_from(lua_State* L, Result (*make)(const Operands&...), std::index_sequence<I...>) {
  push_node(L, make(check_operand<Operands>(L, static_cast<int>(I) + 1, Name.text)...));
  return 1;
}

// An operation whose operands are its arguments, each an expression or a
// formula as the engine's factory `Make` takes it; an error names `Name`.
// stack: a1 ... ak -> a1 ... ak Make(a1, ..., ak)
template <OpName Name, auto Make>
int construct(lua_State* L) {
  return construct_from<Name>(L, Make, std::make_index_sequence<arity(Make)>{});
}

FormulaPtr not_equal(const ExprPtr& a, const ExprPtr& b) { return not_(equal(a, b)); }
FormulaPtr and_of_two(const FormulaPtr& a, const FormulaPtr& b) { return and_(a, b); }
FormulaPtr or_of_two(const FormulaPtr& a, const FormulaPtr& b) { return or_(a, b); }

// The multiplicities are global functions and methods of expressions alike.
constexpr OpName kMultiplicity = "multiplicity (some/no/one/lone)";

// --- operators that read their operands' kinds ------------------------------------

// stack: a b -> a b (a & b): intersection of relations, or `and` of formulas.
int op_band(lua_State* L) {
  if (test_expr(L, 1) || test_expr(L, 2)) return construct<"&", inter>(L);
  return construct<"&", and_of_two>(L);
}
// stack: a b -> a b (a | b): `or` of formulas only.
int op_bor(lua_State* L) {
  if (test_expr(L, 1) || test_expr(L, 2))
    return luaL_error(L, "|: is 'or' of formulas; use + for the union of relations");
  return construct<"|", or_of_two>(L);
}
// stack: a -> a ~a: the transpose of a relation, or `not` of a formula.
int op_bnot(lua_State* L) {
  if (test_expr(L, 1)) return construct<"~", transpose>(L);
  return construct<"~", not_>(L);
}
// stack: r a1 ... ak -> r a1 ... ak formula: r(a1, ..., ak), the tuple of
// the ai is in r.
int op_call(lua_State* L) {
  ExprPtr r = check_expr(L, 1, "membership r(...)");
  std::vector<ExprPtr> args;
  for (int i = 2; i <= lua_gettop(L); ++i) args.push_back(check_expr(L, i, "membership r(...)"));
  push_formula(L, member(args, r));
  return 1;
}
int op_eq_error(lua_State* L) {
  return luaL_error(L, "== compares Lua objects, not relations; use eq(a, b) or ne(a, b)");
}

constexpr std::size_t kTostringChars = 4000;

// stack: x -> x string
int expr_tostring(lua_State* L) {
  lua_pushstring(L, to_string(check_expr(L, 1, "tostring"), kTostringChars).c_str());
  return 1;
}
int formula_tostring(lua_State* L) {
  lua_pushstring(L, to_string(check_formula(L, 1, "tostring"), kTostringChars).c_str());
  return 1;
}

// --- constructors with lists of arguments -------------------------------------------

// stack: r c1 ... ck -> r c1 ... ck project(r, c1, ..., ck)
int f_project(lua_State* L) {
  ExprPtr e = check_expr(L, 1, "project");
  std::vector<int> cols;
  for (int i = 2; i <= lua_gettop(L); ++i) {
    const lua_Integer col = luaL_checkinteger(L, i);  // 1-based in Lua
    if (col < 1 || col > static_cast<lua_Integer>(e->arity()))
      return luaL_error(L, "project: column %I out of range for %s (arity %d)", col,
                        to_string(e).c_str(), static_cast<int>(e->arity()));
    cols.push_back(static_cast<int>(col - 1));
  }
  push_expr(L, project(e, std::move(cols)));
  return 1;
}
// stack: c a b -> c a b ite(c, a, b)
int f_ite(lua_State* L) {
  push_expr(L, ite(check_formula(L, 1, "ite"), check_expr(L, 2, "ite"), check_expr(L, 3, "ite")));
  return 1;
}
// all{f1, f2, ...} / any{...}: conjunction / disjunction of a list.
// stack: list -> list formula
template <bool All>
int f_fold(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  std::vector<FormulaPtr> fs;
  const lua_Integer n = luaL_len(L, 1);
  // The list lives outside the Lua heap: as long as the formulas may be.
  const auto most =
      static_cast<lua_Integer>(sandbox::state(L).limits.formulas.max_live_bytes / sizeof(FormulaPtr));
  if (n > most)
    return sandbox::stop(L, sandbox::where(L, 1),
                         fmt::format("{}{{...}}: a list of {} formulas, more than the {} allowed",
                                     All ? "all" : "any", n, most));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_geti(L, 1, i);  // stack: list fi
    fs.push_back(check_formula(L, -1, All ? "all" : "any"));
    lua_pop(L, 1);  // stack: list
  }
  push_formula(L, All ? and_(std::move(fs)) : or_(std::move(fs)));
  return 1;
}
// empty(Txn, Txn): the empty relation of that type.
// stack: S1 ... Sk -> S1 ... Sk none
int f_empty(lua_State* L) {
  Type t;
  for (int i = 1; i <= lua_gettop(L); ++i) {
    ExprPtr s = check_expr(L, i, "empty");
    if (s->op != Expr::Op::Sort) return luaL_error(L, "empty: arguments must be sorts (Txn, Obj, Val, Read)");
    t.push_back(s->sort);
  }
  push_expr(L, none(t));
  return 1;
}

// --- quantifiers ------------------------------------------------------------------

// Variables whose binding line State::variables keeps, per file: enough for
// any spec, bounded for a loop of quantifiers.
constexpr std::size_t kMaxVariablesNamed = std::size_t{1} << 16;

// Collects the quantifier's domains (arguments 1..n-1) and calls the body
// (argument n) with one fresh variable per domain, named after the body's
// parameters.
// stack: D1 ... Dk body -> D1 ... Dk body (the body's result is checked and
// popped)
std::pair<std::vector<Decl>, FormulaPtr> bind_body(lua_State* L, const char* what) {
  const int top = lua_gettop(L);
  if (top < 2 || lua_type(L, top) != LUA_TFUNCTION)
    luaL_error(L, "%s(D1, ..., Dk, function(v1, ..., vk) ... end): the last argument must be a "
               "function", what);
  // A quantifier is deeper than its variables are many: refused before one
  // is made. The body and one variable per domain go on the stack: room for
  // them first (a C function may only assume LUA_MINSTACK free slots).
  const auto max_depth = sandbox::state(L).limits.formulas.max_depth;
  if (static_cast<std::uint32_t>(top - 1) > max_depth)
    sandbox::stop(L, sandbox::where(L, 1),
                  fmt::format("{}: {} variables, more than the {} levels of nesting allowed", what,
                              top - 1, max_depth));
  luaL_checkstack(L, top + 1, "too many quantified variables");
  std::vector<Decl> decls;
  auto& variables = sandbox::state(L).variables;
  for (int i = 1; i < top; ++i) {
    ExprPtr dom = check_expr(L, i, what);
    if (dom->arity() != 1)
      luaL_error(L, "%s: domain %d must be a set (arity 1), got %s of arity %d", what, i,
                 to_string(dom).c_str(), static_cast<int>(dom->arity()));
    lua_pushvalue(L, top);                              // stack: D1 ... Dk body body
    const char* pname = lua_getlocal(L, nullptr, i);  // parameter names of a function value
    std::string name = pname ? pname : fmt::format("v{}", i);
    lua_pop(L, 1);  // lua_getlocal leaves the function there; stack: D1 ... Dk body
    decls.push_back(Decl{make_variable(std::move(name), dom->type[0]), dom});
    if (variables.size() < kMaxVariablesNamed)
      variables[decls.back().var->id] = fmt::format("'{}' (bound at {})", decls.back().var->name,
                                                    sandbox::where(L, 1));
  }
  lua_pushvalue(L, top);  // stack: D1 ... Dk body body
  for (const Decl& d : decls) push_expr(L, var(d.var));  // stack: ... body body v1 ... vk
  lua_call(L, static_cast<int>(decls.size()), 1);        // stack: D1 ... Dk body result
  FormulaPtr body = check_formula(L, -1, what);
  lua_pop(L, 1);  // stack: D1 ... Dk body
  return {std::move(decls), std::move(body)};
}

// stack: D1 ... Dk body -> D1 ... Dk body quantified
template <OpName Name, FormulaPtr (*Quantify)(std::vector<Decl>, const FormulaPtr&)>
int f_quantifier(lua_State* L) {
  auto [decls, body] = bind_body(L, Name.text);
  push_formula(L, Quantify(std::move(decls), body));
  return 1;
}
int f_setof(lua_State* L) {
  auto [decls, body] = bind_body(L, "setof");
  push_expr(L, comprehension(std::move(decls), body));
  return 1;
}

// --- the library ------------------------------------------------------------------

const luaL_Reg kExprMetamethods[] = {
    {"__add", guarded<construct<"+", union_>>},    {"__sub", guarded<construct<"-", diff>>},
    {"__band", guarded<op_band>},                  {"__bor", guarded<op_bor>},
    {"__bnot", guarded<op_bnot>},                  {"__concat", guarded<construct<"..", join>>},
    {"__mul", guarded<construct<"*", product>>},   {"__call", guarded<op_call>},
    {"__tostring", guarded<expr_tostring>},        {"__eq", op_eq_error},
    {"__gc", gc_box<ExprBox>},                     {nullptr, nullptr}};

// Both globals and methods of expressions: eq(a, b) is also a:eq(b).
const luaL_Reg kExprFunctions[] = {
    {"eq", guarded<construct<"eq", equal>>},       {"ne", guarded<construct<"ne", not_equal>>},
    {"some", guarded<construct<kMultiplicity, some>>}, {"no", guarded<construct<kMultiplicity, no>>},
    {"one", guarded<construct<kMultiplicity, one>>}, {"lone", guarded<construct<kMultiplicity, lone>>},
    {"project", guarded<f_project>},               {nullptr, nullptr}};

// Methods of expressions only: r:closure(), r:within(s).
const luaL_Reg kExprMethods[] = {
    {"closure", guarded<construct<"closure", closure>>},
    {"rclosure", guarded<construct<"rclosure", rclosure>>},
    {"within", guarded<construct<"within", subset>>}, {nullptr, nullptr}};

const luaL_Reg kFormulaMetamethods[] = {
    {"__band", guarded<op_band>},  {"__bor", guarded<op_bor>},
    {"__bnot", guarded<op_bnot>},  {"__tostring", guarded<formula_tostring>},
    {"__eq", op_eq_error},         {"__gc", gc_box<FormulaBox>},
    {nullptr, nullptr}};

// Both globals and methods of formulas: implies(f, g) is also f:implies(g).
const luaL_Reg kFormulaFunctions[] = {
    {"implies", guarded<construct<"implies", implies>>},
    {"iff", guarded<construct<"iff", iff>>}, {nullptr, nullptr}};

// Globals only.
const luaL_Reg kGlobals[] = {
    {"forall", guarded<f_quantifier<"forall", forall>>},
    {"exists", guarded<f_quantifier<"exists", exists>>},
    {"setof", guarded<f_setof>},                   {"NOT", guarded<construct<"NOT", not_>>},
    {"acyclic", guarded<construct<"acyclic", acyclic>>},
    {"total_order", guarded<construct<"total_order", total_order>>},
    {"ite", guarded<f_ite>},                       {"all", guarded<f_fold<true>>},
    {"any", guarded<f_fold<false>>},               {"empty", guarded<f_empty>},
    {nullptr, nullptr}};

// The constants, each made as it is set (in this order).
const std::pair<const char*, ExprPtr (*)()> kConstants[] = {
    {"Txn", [] { return sort(model::kTxn); }}, {"Obj", [] { return sort(model::kObj); }},
    {"Val", [] { return sort(model::kVal); }}, {"Read", [] { return sort(model::kRead); }},
    {"iden", iden},                            {"univ", univ}};

// stack: G -> G (the constants set in the global table G)
void set_constants(lua_State* L) {
  for (const auto& [name, make] : kConstants) {
    push_expr(L, make());  // stack: G box
    lua_setfield(L, -2, name);
  }
  for (const bool value : {true, false}) {
    push_formula(L, constant(value));  // stack: G box
    lua_setfield(L, -2, value ? "TRUE" : "FALSE");
  }
}

}  // namespace

void open_operators(lua_State* L) {
  new_protected_metatable(L, ExprBox::kMeta, kExprMetamethods, {kExprMethods, kExprFunctions});
  new_protected_metatable(L, FormulaBox::kMeta, kFormulaMetamethods, {kFormulaFunctions});
  lua_pushglobaltable(L);  // stack: G
  for (const luaL_Reg* functions : {kGlobals, kExprFunctions, kFormulaFunctions})
    luaL_setfuncs(L, functions, 0);
  set_constants(L);
  lua_pop(L, 1);  // stack: (as on entry)
}

}  // namespace iso::lua::api
