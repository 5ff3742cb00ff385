#include "lua/spec_library.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

// Lua compiled as C++ (liblua5.4-c++): no extern "C", errors are exceptions.
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "engine/model/schema.hpp"
#include "engine/polygraph/dependency.hpp"
#include "lua/embedded_specs.hpp"

namespace iso::lua {

using namespace logic;

// ---------------------------------------------------------------------------
// State shared with the C functions through the Lua registry.

struct SpecLibrary::State {
  lua_State* L = nullptr;
  Limits limits;
  std::size_t memory = 0;
  std::uint64_t instructions = 0;
  std::string library;  // the current `library "name"` prefix, per chunk
  std::vector<std::unique_ptr<Framework>> frameworks;
  std::vector<std::unique_ptr<Level>> levels;
  std::map<std::string, Framework*, std::less<>> framework_index;
  std::map<std::string, Level*, std::less<>> level_index;
};

namespace {

using State = SpecLibrary::State;

const char* const kExprMeta = "isosynth.expr";
const char* const kFormulaMeta = "isosynth.formula";
const char* const kWitnessMeta = "isosynth.witness";
const int kStateKey = 0;  // its address is the registry key of the State

State& state(lua_State* L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kStateKey);
  auto* s = static_cast<State*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  return *s;
}

// --- sandbox limits ----------------------------------------------------------

void* limited_alloc(void* ud, void* ptr, std::size_t osize, std::size_t nsize) {
  auto* s = static_cast<State*>(ud);
  const std::size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    s->memory -= old;
    std::free(ptr);
    return nullptr;
  }
  if (nsize > old && s->memory + (nsize - old) > s->limits.memory_bytes) return nullptr;
  void* p = std::realloc(ptr, nsize);
  if (p) s->memory = s->memory - old + nsize;
  return p;
}

constexpr int kHookEvery = 1000;

void count_hook(lua_State* L, lua_Debug* ar) {
  State& s = state(L);
  s.instructions += kHookEvery;
  if (s.instructions <= s.limits.instructions) return;
  // Inside a hook, level 0 is the running Lua function: name its line.
  std::string where;
  if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0) where = fmt::format("{}:{}: ", ar->short_src, ar->currentline);
  lua_pushstring(L, fmt::format("{}instruction budget exceeded ({} instructions): does the spec "
                                "loop forever?", where, s.limits.instructions).c_str());
  lua_error(L);
}

// --- userdata ------------------------------------------------------------------

struct ExprBox { ExprPtr e; };
struct FormulaBox { FormulaPtr f; };
struct WitnessBox { Type type; bool order; };

template <class Box, class T>
void push_box(lua_State* L, const char* meta, T value) {
  void* mem = lua_newuserdatauv(L, sizeof(Box), 0);
  new (mem) Box{std::move(value)};
  luaL_setmetatable(L, meta);
}

void push_expr(lua_State* L, ExprPtr e) { push_box<ExprBox>(L, kExprMeta, std::move(e)); }
void push_formula(lua_State* L, FormulaPtr f) { push_box<FormulaBox>(L, kFormulaMeta, std::move(f)); }

template <class Box>
int gc_box(lua_State* L) {
  static_cast<Box*>(lua_touserdata(L, 1))->~Box();
  return 0;
}

ExprBox* test_expr(lua_State* L, int i) {
  return static_cast<ExprBox*>(luaL_testudata(L, i, kExprMeta));
}
FormulaBox* test_formula(lua_State* L, int i) {
  return static_cast<FormulaBox*>(luaL_testudata(L, i, kFormulaMeta));
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
  if (FormulaBox* b = test_formula(L, i)) return b->f;
  if (lua_isboolean(L, i)) return constant(lua_toboolean(L, i) != 0);
  luaL_error(L, "%s: expected a formula, got %s", what, describe(L, i).c_str());
  return nullptr;
}

// Runs a binding body; turns C++ exceptions (type errors from the AST
// factories) into Lua errors located at the calling line of the spec. Lua's
// own errors are not std::exceptions and pass through untouched.
template <int (*F)(lua_State*)>
int guarded(lua_State* L) {
  std::string msg;
  try {
    return F(L);
  } catch (const std::bad_alloc&) {
    msg = "out of memory";
  } catch (const std::exception& e) {
    msg = e.what();
  }
  return luaL_error(L, "%s", msg.c_str());
}

// --- operators -------------------------------------------------------------------

int op_add(lua_State* L) {
  push_expr(L, union_(check_expr(L, 1, "+"), check_expr(L, 2, "+")));
  return 1;
}
int op_sub(lua_State* L) {
  push_expr(L, diff(check_expr(L, 1, "-"), check_expr(L, 2, "-")));
  return 1;
}
int op_band(lua_State* L) {
  if (test_expr(L, 1) || test_expr(L, 2)) {
    push_expr(L, inter(check_expr(L, 1, "&"), check_expr(L, 2, "&")));
  } else {
    push_formula(L, and_(check_formula(L, 1, "&"), check_formula(L, 2, "&")));
  }
  return 1;
}
int op_bor(lua_State* L) {
  if (test_expr(L, 1) || test_expr(L, 2))
    return luaL_error(L, "|: is 'or' of formulas; use + for the union of relations");
  push_formula(L, or_(check_formula(L, 1, "|"), check_formula(L, 2, "|")));
  return 1;
}
int op_bnot(lua_State* L) {
  if (test_expr(L, 1)) {
    push_expr(L, transpose(check_expr(L, 1, "~")));
  } else {
    push_formula(L, not_(check_formula(L, 1, "~")));
  }
  return 1;
}
int op_concat(lua_State* L) {
  push_expr(L, join(check_expr(L, 1, ".."), check_expr(L, 2, "..")));
  return 1;
}
int op_mul(lua_State* L) {
  push_expr(L, product(check_expr(L, 1, "*"), check_expr(L, 2, "*")));
  return 1;
}
int op_call(lua_State* L) {
  ExprPtr r = check_expr(L, 1, "membership r(...)");
  std::vector<ExprPtr> args;
  for (int i = 2; i <= lua_gettop(L); ++i) args.push_back(check_expr(L, i, "membership r(...)"));
  push_formula(L, member(args, r));
  return 1;
}
int expr_tostring(lua_State* L) {
  lua_pushstring(L, to_string(check_expr(L, 1, "tostring")).c_str());
  return 1;
}
int formula_tostring(lua_State* L) {
  lua_pushstring(L, to_string(check_formula(L, 1, "tostring")).c_str());
  return 1;
}
int op_eq_error(lua_State* L) {
  return luaL_error(L, "== compares Lua objects, not relations; use eq(a, b) or ne(a, b)");
}

// --- methods and functions -------------------------------------------------------

int m_closure(lua_State* L) {
  push_expr(L, closure(check_expr(L, 1, "closure")));
  return 1;
}
int m_rclosure(lua_State* L) {
  push_expr(L, rclosure(check_expr(L, 1, "rclosure")));
  return 1;
}
int m_within(lua_State* L) {
  push_formula(L, subset(check_expr(L, 1, "within"), check_expr(L, 2, "within")));
  return 1;
}
int f_eq(lua_State* L) {
  push_formula(L, equal(check_expr(L, 1, "eq"), check_expr(L, 2, "eq")));
  return 1;
}
int f_ne(lua_State* L) {
  push_formula(L, not_(equal(check_expr(L, 1, "ne"), check_expr(L, 2, "ne"))));
  return 1;
}
template <FormulaPtr (*Mult)(const ExprPtr&)>
int f_mult(lua_State* L) {
  push_formula(L, Mult(check_expr(L, 1, "multiplicity (some/no/one/lone)")));
  return 1;
}
int f_implies(lua_State* L) {
  push_formula(L, implies(check_formula(L, 1, "implies"), check_formula(L, 2, "implies")));
  return 1;
}
int f_iff(lua_State* L) {
  push_formula(L, iff(check_formula(L, 1, "iff"), check_formula(L, 2, "iff")));
  return 1;
}
int f_not(lua_State* L) {
  push_formula(L, not_(check_formula(L, 1, "NOT")));
  return 1;
}
int f_acyclic(lua_State* L) {
  push_formula(L, acyclic(check_expr(L, 1, "acyclic")));
  return 1;
}
int f_total_order(lua_State* L) {
  push_formula(L, total_order(check_expr(L, 1, "total_order"), check_expr(L, 2, "total_order")));
  return 1;
}
int f_ite(lua_State* L) {
  push_expr(L, ite(check_formula(L, 1, "ite"), check_expr(L, 2, "ite"), check_expr(L, 3, "ite")));
  return 1;
}
int f_project(lua_State* L) {
  ExprPtr e = check_expr(L, 1, "project");
  std::vector<int> cols;
  for (int i = 2; i <= lua_gettop(L); ++i)
    cols.push_back(static_cast<int>(luaL_checkinteger(L, i)) - 1);  // 1-based in Lua
  push_expr(L, project(e, std::move(cols)));
  return 1;
}
// all{f1, f2, ...} / any{...}: conjunction / disjunction of a list.
template <bool All>
int f_fold(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  std::vector<FormulaPtr> fs;
  const lua_Integer n = luaL_len(L, 1);
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_geti(L, 1, i);
    fs.push_back(check_formula(L, -1, All ? "all" : "any"));
    lua_pop(L, 1);
  }
  push_formula(L, All ? and_(std::move(fs)) : or_(std::move(fs)));
  return 1;
}
// empty(Txn, Txn): the empty relation of that type.
int f_empty(lua_State* L) {
  Type t;
  for (int i = 1; i <= lua_gettop(L); ++i) {
    ExprPtr s = check_expr(L, i, "empty");
    if (s->op != Expr::Op::Sort) return luaL_error(L, "empty: arguments must be sorts (Txn, Obj, Val)");
    t.push_back(s->sort);
  }
  push_expr(L, none(t));
  return 1;
}

// Collects the quantifier's domains (arguments 1..n-1) and calls the body
// (argument n) with one fresh variable per domain, named after the body's
// parameters.
std::pair<std::vector<Decl>, FormulaPtr> bind_body(lua_State* L, const char* what) {
  const int top = lua_gettop(L);
  if (top < 2 || lua_type(L, top) != LUA_TFUNCTION)
    luaL_error(L, "%s(D1, ..., Dk, function(v1, ..., vk) ... end): the last argument must be a "
               "function", what);
  std::vector<Decl> decls;
  for (int i = 1; i < top; ++i) {
    ExprPtr dom = check_expr(L, i, what);
    if (dom->arity() != 1)
      luaL_error(L, "%s: domain %d must be a set (arity 1), got %s of arity %d", what, i,
                 to_string(dom).c_str(), static_cast<int>(dom->arity()));
    lua_pushvalue(L, top);
    const char* pname = lua_getlocal(L, nullptr, i);  // parameter names of a function value
    std::string name = pname ? pname : fmt::format("v{}", i);
    decls.push_back(Decl{make_variable(std::move(name), dom->type[0]), dom});
  }
  lua_pushvalue(L, top);
  for (const Decl& d : decls) push_expr(L, var(d.var));
  lua_call(L, static_cast<int>(decls.size()), 1);
  FormulaPtr body = check_formula(L, -1, what);
  lua_pop(L, 1);
  return {std::move(decls), std::move(body)};
}

int f_forall(lua_State* L) {
  auto [decls, body] = bind_body(L, "forall");
  push_formula(L, forall(std::move(decls), body));
  return 1;
}
int f_exists(lua_State* L) {
  auto [decls, body] = bind_body(L, "exists");
  push_formula(L, exists(std::move(decls), body));
  return 1;
}
int f_setof(lua_State* L) {
  auto [decls, body] = bind_body(L, "setof");
  push_expr(L, comprehension(std::move(decls), body));
  return 1;
}

// order(Txn) / rel(Txn, Txn): witness relation declarations.
template <bool Order>
int f_witness(lua_State* L) {
  Type t;
  for (int i = 1; i <= lua_gettop(L); ++i) {
    ExprPtr s = check_expr(L, i, Order ? "order" : "rel");
    if (s->op != Expr::Op::Sort)
      return luaL_error(L, "%s: arguments must be sorts (Txn, Obj, Val)", Order ? "order" : "rel");
    t.push_back(s->sort);
  }
  if (Order && t.size() != 1) return luaL_error(L, "order(S) takes exactly one sort");
  if (!Order && t.empty()) return luaL_error(L, "rel(S1, ..., Sk) needs at least one sort");
  if (Order) t.push_back(t[0]);
  void* mem = lua_newuserdatauv(L, sizeof(WitnessBox), 0);
  new (mem) WitnessBox{std::move(t), Order};
  luaL_setmetatable(L, kWitnessMeta);
  return 1;
}

// --- declarations --------------------------------------------------------------

std::string where(lua_State* L, int level) {
  luaL_where(L, level);
  std::string w = lua_tostring(L, -1);
  lua_pop(L, 1);
  while (!w.empty() && (w.back() == ' ' || w.back() == ':')) w.pop_back();
  return w;
}

std::string opt_string_field(lua_State* L, int table, const char* field) {
  lua_getfield(L, table, field);
  std::string out;
  if (lua_type(L, -1) == LUA_TSTRING) {
    out = lua_tostring(L, -1);
  } else if (!lua_isnil(L, -1)) {
    luaL_error(L, "field '%s' must be a string, got %s", field, luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  return out;
}

// Pushes the history table `h`: the schema's expressions under their spec names,
// guarded by a metatable that rejects unknown names.
void push_history(lua_State* L) {
  const auto& s = model::history_schema();
  lua_newtable(L);
  auto field = [&](const char* name, const ExprPtr& e) {
    push_expr(L, e);
    lua_setfield(L, -2, name);
  };
  field("reads", rel(s.reads));
  field("writes", rel(s.writes));
  field("so", rel(s.so));
  field("wrx", rel(s.wrx));
  field("wr", s.wr);
  field("writer", s.writer);
  field("reader", s.reader);
  field("T0", s.T0);
  field("Tplus", s.Tplus);
  field("U", s.U);
  field("hb", s.hb);
  field("vo", rel(s.vo));
  luaL_setmetatable(L, "isosynth.strict");
}

// Calls fn(h, e) (fn at index `fn`, e at index `e`) and returns its formula.
FormulaPtr eval_spec_function(lua_State* L, int fn, int e, const std::string& what) {
  lua_pushvalue(L, fn);
  push_history(L);
  lua_pushvalue(L, e);
  lua_call(L, 2, 1);
  if (!test_formula(L, -1) && !lua_isboolean(L, -1))
    luaL_error(L, "%s must return a formula, but returned %s", what.c_str(), describe(L, -1).c_str());
  FormulaPtr f = check_formula(L, -1, what.c_str());
  lua_pop(L, 1);
  return f;
}

// framework "name" { doc = ..., witness = { co = order(Txn) }, wf = function(h, e) ... end }
int declare_framework(lua_State* L) {
  std::string name = lua_tostring(L, lua_upvalueindex(1));
  luaL_checktype(L, 1, LUA_TTABLE);
  State& s = state(L);
  if (s.framework_index.count(name)) return luaL_error(L, "framework '%s' is already declared", name.c_str());
  auto fw = std::make_unique<Framework>();
  fw->name = name;
  fw->location = where(L, 1);
  fw->doc = opt_string_field(L, 1, "doc");

  lua_getfield(L, 1, "witness");
  if (!lua_istable(L, -1))
    return luaL_error(L, "framework '%s': 'witness' must be a table such as { co = order(Txn) }",
                      name.c_str());
  const int wt = lua_gettop(L);
  std::vector<std::string> names;
  lua_pushnil(L);
  while (lua_next(L, wt)) {
    if (lua_type(L, -2) != LUA_TSTRING)
      return luaL_error(L, "framework '%s': witness names must be strings", name.c_str());
    names.push_back(lua_tostring(L, -2));
    lua_pop(L, 1);
  }
  std::sort(names.begin(), names.end());
  lua_newtable(L);  // e
  const int et = lua_gettop(L);
  for (const auto& wname : names) {
    lua_getfield(L, wt, wname.c_str());
    auto* box = static_cast<WitnessBox*>(luaL_testudata(L, -1, kWitnessMeta));
    if (!box)
      return luaL_error(L, "framework '%s': witness '%s' must be declared with order(S) or rel(S, ...)",
                        name.c_str(), wname.c_str());
    WitnessRelation w{wname, make_relation(wname, box->type), box->order,
                      box->order ? box->type[0] : kAnySort};
    lua_pop(L, 1);
    push_expr(L, rel(w.rel));
    lua_setfield(L, et, wname.c_str());
    fw->witness.push_back(std::move(w));
  }
  luaL_setmetatable(L, "isosynth.strict");

  lua_getfield(L, 1, "wf");
  if (lua_isnil(L, -1)) {
    fw->wf = constant(true);
  } else if (lua_isfunction(L, -1)) {
    fw->wf = eval_spec_function(L, lua_gettop(L), et, "framework '" + name + "': wf");
  } else {
    return luaL_error(L, "framework '%s': 'wf' must be a function(h, e)", name.c_str());
  }
  // Remember e for the framework's levels.
  lua_pushvalue(L, et);
  lua_setfield(L, LUA_REGISTRYINDEX, ("isosynth.e." + name).c_str());

  Framework* raw = fw.get();
  s.frameworks.push_back(std::move(fw));
  s.framework_index[name] = raw;
  return 0;
}

// `framework "name" {...}` and `level "NAME" {...}` are two calls: the first
// takes the name and returns a function of the table, with the name as upvalue.
template <int (*Declare)(lua_State*)>
int named_declaration(lua_State* L) {
  luaL_checkstring(L, 1);
  lua_pushvalue(L, 1);
  lua_pushcclosure(L, guarded<Declare>, 1);
  return 1;
}

// level "NAME" { framework = "biswas", doc = "...", axiom = function(h, e) ... end,
//               graph = "SER" }   -- optional: a graph characterization (SER, SI, RA, CC)
int declare_level(lua_State* L) {
  std::string short_name = lua_tostring(L, lua_upvalueindex(1));
  luaL_checktype(L, 1, LUA_TTABLE);
  State& s = state(L);
  std::string fw_name = opt_string_field(L, 1, "framework");
  if (fw_name.empty())
    return luaL_error(L, "level '%s': missing field 'framework' (e.g. framework = \"biswas\")",
                      short_name.c_str());
  auto fw = s.framework_index.find(fw_name);
  if (fw == s.framework_index.end())
    return luaL_error(L, "level '%s': unknown framework '%s'", short_name.c_str(), fw_name.c_str());
  std::string prefix = s.library.empty() ? fw_name : s.library;
  // "biswas.X" names its library; "PL-2.99" is a short name with a dot in it.
  auto dot = short_name.find('.');
  bool qualified = dot != std::string::npos &&
                   (s.framework_index.count(short_name.substr(0, dot)) > 0 ||
                    short_name.substr(0, dot) == s.library);
  std::string name = qualified ? short_name : prefix + "." + short_name;
  if (s.level_index.count(name)) return luaL_error(L, "level '%s' is already declared", name.c_str());

  auto lv = std::make_unique<Level>();
  lv->name = name;
  lv->location = where(L, 1);
  lv->doc = opt_string_field(L, 1, "doc");
  lv->framework = fw->second;
  const std::string graph = opt_string_field(L, 1, "graph");
  if (!graph.empty()) {
    lv->graph = poly::graph_level_from_name(graph);
    if (!lv->graph)
      return luaL_error(L, "level '%s': graph = '%s' is not a known graph characterization "
                        "(\"SER\", \"SI\", \"RA\" or \"CC\")", name.c_str(), graph.c_str());
  }
  lua_getfield(L, 1, "axiom");
  if (!lua_isfunction(L, -1))
    return luaL_error(L, "level '%s': 'axiom' must be a function(h, e) returning a formula",
                      name.c_str());
  const int fn = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, ("isosynth.e." + fw_name).c_str());
  lv->axiom = eval_spec_function(L, fn, lua_gettop(L), "level '" + name + "': axiom");
  lua_pop(L, 1);
  // levels["name"] = axiom, for composition in later specs.
  lua_getglobal(L, "levels");
  lua_pushstring(L, name.c_str());
  lua_pushvalue(L, fn);
  lua_rawset(L, -3);
  Level* raw = lv.get();
  s.levels.push_back(std::move(lv));
  s.level_index[name] = raw;
  return 0;
}

int library_decl(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  for (const char* p = name; *p; ++p)
    if (!std::isalnum(static_cast<unsigned char>(*p)) && *p != '_')
      return luaL_error(L, "library name '%s' must be letters, digits and _", name);
  state(L).library = name;
  return 0;
}

// Tables h, e and levels reject unknown names instead of returning nil.
int strict_index(lua_State* L) {
  const char* key = lua_tostring(L, 2);
  std::string known;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    if (lua_type(L, -2) == LUA_TSTRING) known += std::string(known.empty() ? "" : ", ") + lua_tostring(L, -2);
    lua_pop(L, 1);
  }
  return luaL_error(L, "unknown relation '%s' (known here: %s)", key ? key : "?", known.c_str());
}
int levels_index(lua_State* L) {
  const char* key = lua_tostring(L, 2);
  return luaL_error(L, "unknown level '%s' (levels are named like \"biswas.PC\")", key ? key : "?");
}

void register_api(lua_State* L) {
  // Expression metatable.
  luaL_newmetatable(L, kExprMeta);
  const luaL_Reg expr_ops[] = {
      {"__add", guarded<op_add>},       {"__sub", guarded<op_sub>},
      {"__band", guarded<op_band>},     {"__bor", guarded<op_bor>},
      {"__bnot", guarded<op_bnot>},     {"__concat", guarded<op_concat>},
      {"__mul", guarded<op_mul>},       {"__call", guarded<op_call>},
      {"__tostring", guarded<expr_tostring>}, {"__eq", op_eq_error},
      {"__gc", gc_box<ExprBox>},        {nullptr, nullptr}};
  luaL_setfuncs(L, expr_ops, 0);
  lua_newtable(L);
  const luaL_Reg expr_methods[] = {
      {"closure", guarded<m_closure>}, {"rclosure", guarded<m_rclosure>},
      {"within", guarded<m_within>},   {"eq", guarded<f_eq>},
      {"ne", guarded<f_ne>},           {"some", guarded<f_mult<some>>},
      {"no", guarded<f_mult<no>>},     {"one", guarded<f_mult<one>>},
      {"lone", guarded<f_mult<lone>>}, {"project", guarded<f_project>},
      {nullptr, nullptr}};
  luaL_setfuncs(L, expr_methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);

  // Formula metatable.
  luaL_newmetatable(L, kFormulaMeta);
  const luaL_Reg formula_ops[] = {
      {"__band", guarded<op_band>}, {"__bor", guarded<op_bor>},
      {"__bnot", guarded<op_bnot>}, {"__tostring", guarded<formula_tostring>},
      {"__eq", op_eq_error},        {"__gc", gc_box<FormulaBox>},
      {nullptr, nullptr}};
  luaL_setfuncs(L, formula_ops, 0);
  lua_newtable(L);
  const luaL_Reg formula_methods[] = {
      {"implies", guarded<f_implies>}, {"iff", guarded<f_iff>}, {nullptr, nullptr}};
  luaL_setfuncs(L, formula_methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);

  luaL_newmetatable(L, kWitnessMeta);
  lua_pushcfunction(L, gc_box<WitnessBox>);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);

  luaL_newmetatable(L, "isosynth.strict");
  lua_pushcfunction(L, strict_index);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);

  const luaL_Reg globals[] = {
      {"forall", guarded<f_forall>},   {"exists", guarded<f_exists>},
      {"setof", guarded<f_setof>},     {"some", guarded<f_mult<some>>},
      {"no", guarded<f_mult<no>>},     {"one", guarded<f_mult<one>>},
      {"lone", guarded<f_mult<lone>>}, {"implies", guarded<f_implies>},
      {"iff", guarded<f_iff>},         {"NOT", guarded<f_not>},
      {"eq", guarded<f_eq>},           {"ne", guarded<f_ne>},
      {"acyclic", guarded<f_acyclic>}, {"total_order", guarded<f_total_order>},
      {"ite", guarded<f_ite>},         {"project", guarded<f_project>},
      {"all", guarded<f_fold<true>>},  {"any", guarded<f_fold<false>>},
      {"empty", guarded<f_empty>},     {"order", guarded<f_witness<true>>},
      {"rel", guarded<f_witness<false>>}, {"framework", named_declaration<declare_framework>},
      {"level", named_declaration<declare_level>},  {"library", guarded<library_decl>},
      {nullptr, nullptr}};
  lua_pushglobaltable(L);
  luaL_setfuncs(L, globals, 0);
  push_expr(L, sort(model::kTxn));
  lua_setfield(L, -2, "Txn");
  push_expr(L, sort(model::kObj));
  lua_setfield(L, -2, "Obj");
  push_expr(L, sort(model::kVal));
  lua_setfield(L, -2, "Val");
  push_expr(L, iden());
  lua_setfield(L, -2, "iden");
  push_expr(L, univ());
  lua_setfield(L, -2, "univ");
  push_formula(L, constant(true));
  lua_setfield(L, -2, "TRUE");
  push_formula(L, constant(false));
  lua_setfield(L, -2, "FALSE");
  lua_newtable(L);
  lua_newtable(L);
  lua_pushcfunction(L, levels_index);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  lua_setfield(L, -2, "levels");
  lua_pop(L, 1);
}

void open_sandboxed_libs(lua_State* L) {
  // Only pure libraries; nothing that reaches the file system or the process.
  const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},
                           {LUA_TABLIBNAME, luaopen_table},
                           {LUA_STRLIBNAME, luaopen_string},
                           {LUA_MATHLIBNAME, luaopen_math},
                           {LUA_UTF8LIBNAME, luaopen_utf8}};
  for (const auto& lib : libs) {
    luaL_requiref(L, lib.name, lib.func, 1);
    lua_pop(L, 1);
  }
  for (const char* name : {"dofile", "loadfile", "load", "require", "collectgarbage"}) {
    lua_pushnil(L);
    lua_setglobal(L, name);
  }
  lua_getglobal(L, "string");
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");
  lua_pop(L, 1);
}

// One line: Lua's message already starts with "file:line:".
std::string one_line(std::string msg) {
  for (char& ch : msg)
    if (ch == '\n' || ch == '\r') ch = ' ';
  return msg;
}

int message_handler(lua_State* L) {
  if (!lua_isstring(L, 1)) {
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  return 1;
}

}  // namespace

SpecLibrary::SpecLibrary(Limits limits) : state_(std::make_unique<State>()) {
  state_->limits = limits;
  model::history_schema();  // names the sorts
  lua_State* L = lua_newstate(limited_alloc, state_.get());
  if (!L) throw SpecError("cannot create the Lua state");
  state_->L = L;
  lua_pushlightuserdata(L, state_.get());
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kStateKey);
  try {
    open_sandboxed_libs(L);
    register_api(L);
  } catch (...) {
    lua_close(L);
    state_->L = nullptr;
    throw SpecError("cannot set up the spec sandbox");
  }
  for (const auto& spec : embedded_specs()) load_string(spec.text, std::string(spec.name));
}

SpecLibrary::~SpecLibrary() {
  if (state_ && state_->L) lua_close(state_->L);
}

void SpecLibrary::load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SpecError(fmt::format("{}: cannot open spec file", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  load_string(ss.str(), path);
}

void SpecLibrary::load_string(std::string_view text, const std::string& chunk_name) {
  lua_State* L = state_->L;
  state_->library.clear();
  state_->instructions = 0;
  lua_pushcfunction(L, message_handler);
  const int handler = lua_gettop(L);
  // Text only ("t"): a precompiled binary chunk could crash the VM.
  int rc = luaL_loadbufferx(L, text.data(), text.size(), ("@" + chunk_name).c_str(), "t");
  if (rc == LUA_OK) {
    lua_sethook(L, count_hook, LUA_MASKCOUNT, kHookEvery);
    rc = lua_pcall(L, 0, 0, handler);
    lua_sethook(L, nullptr, 0, 0);
  }
  if (rc != LUA_OK) {
    std::string msg = lua_isstring(L, -1) ? lua_tostring(L, -1) : "unknown error";
    if (rc == LUA_ERRMEM) msg = chunk_name + ": the spec used more memory than allowed";
    lua_settop(L, handler - 1);
    if (msg.rfind(chunk_name, 0) != 0) msg = chunk_name + ": " + msg;
    throw SpecError(one_line(msg));
  }
  lua_settop(L, handler - 1);
}

static std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const Level& SpecLibrary::level(std::string_view name) const {
  const auto& idx = state_->level_index;
  std::string full(name);
  if (full.find('.') == std::string::npos) full = "biswas." + full;
  if (auto it = idx.find(full); it != idx.end()) return *it->second;
  const Level* ci = nullptr;
  for (const auto& [n, l] : idx)
    if (lower(n) == lower(full)) ci = l;
  if (ci) return *ci;
  // Suggest levels sharing the short name.
  std::string short_name = lower(full.substr(full.find('.') + 1));
  std::string hint;
  for (const auto& l : state_->levels)
    if (lower(l->name.substr(l->name.find('.') + 1)) == short_name) hint += (hint.empty() ? "" : ", ") + l->name;
  throw SpecError(fmt::format("unknown level '{}'{}; 'isosynth levels' lists them", name,
                              hint.empty() ? "" : " (did you mean " + hint + "?)"));
}

std::vector<const Level*> SpecLibrary::levels() const {
  std::vector<const Level*> out;
  for (const auto& l : state_->levels) out.push_back(l.get());
  return out;
}

}  // namespace iso::lua
