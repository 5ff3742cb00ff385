#include "lua/spec_library.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <new>
#include <optional>
#include <sstream>

#include <fmt/format.h>

// Lua compiled as C++ (liblua5.4-c++): no extern "C", errors are exceptions.
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "engine/history/history.hpp"
#include "engine/history/input_error.hpp"
#include "engine/history/one_line.hpp"
#include "engine/model/schema.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/utf8.hpp"
#include "engine/verdict/graph_level.hpp"
#include "lua/embedded_specs.hpp"
#include "lua/sandbox.hpp"

namespace iso::lua {

using namespace logic;

namespace {

using namespace sandbox;

// Does a characterization model the real-time orders a level mentions?
bool graph_models_real_time(GraphLevel g, model::RealTimeUse use) {
  if (!use.any()) return true;
  if (g == GraphLevel::Si) return true;
  return g == GraphLevel::Ser && !use.begin_commit;
}

// `seconds` from now (budget::time_after: saturated); never, when it is not
// positive.
budget::Clock::time_point deadline_after(double seconds) {
  return seconds > 0 ? budget::time_after(seconds) : budget::Clock::time_point::max();
}

const char* const kExprMeta = "isosynth.expr";
const char* const kFormulaMeta = "isosynth.formula";
const char* const kWitnessMeta = "isosynth.witness";
const char* const kStrictMeta = "isosynth.strict";
const char* const kLevelsViewMeta = "isosynth.levels_view";
// The registry's table of level axioms by name; each file sees it through a
// read-only view (its global `levels`).
const char* const kLevelsKey = "isosynth.levels";
const char* const kPreludeName = "lua/prelude.lua";  // its name in embedded_specs()

// --- userdata ------------------------------------------------------------------

struct ExprBox { ExprPtr e; };
// `generation` and `serial` place a formula built while a spec function ran
// in State::built (generation 0: built outside one).
struct FormulaBox {
  FormulaPtr f;
  std::uint32_t generation = 0;
  std::uint32_t serial = 0;
};
struct WitnessBox { Type type; bool order; };

template <class Box, class T>
void push_box(lua_State* L, const char* meta, T value) {
  void* mem = lua_newuserdatauv(L, sizeof(Box), 0);
  new (mem) Box{std::move(value)};
  luaL_setmetatable(L, meta);
}

void push_expr(lua_State* L, ExprPtr e) { push_box<ExprBox>(L, kExprMeta, std::move(e)); }
// Formulas past this many in one spec function are not followed: the check
// for discarded ones is for mistakes, not for spec functions that build
// millions of formulas (the formula limits stop those).
constexpr std::size_t kMaxBuiltFollowed = std::size_t{1} << 18;

void push_formula(lua_State* L, FormulaPtr f) {
  push_box<FormulaBox>(L, kFormulaMeta, std::move(f));
  State& s = state(L);
  if (s.spec_calls == 0 || s.built.size() >= kMaxBuiltFollowed) return;
  auto* box = static_cast<FormulaBox*>(lua_touserdata(L, -1));
  box->generation = s.generation;
  box->serial = static_cast<std::uint32_t>(s.built.size());
  s.built.push_back({lua_line(L), false});
}

// Finalizer of a box. The metatables are out of the spec's reach
// (__metatable), so only the collector calls it; still, it checks what it is
// given and empties the box rather than destroying it, so that a second call
// would find an empty box, not freed memory.
template <class Box>
int gc_box(lua_State* L, const char* meta) {
  if (auto* box = static_cast<Box*>(luaL_testudata(L, 1, meta))) *box = Box{};
  return 0;
}
int gc_expr(lua_State* L) { return gc_box<ExprBox>(L, kExprMeta); }
int gc_formula(lua_State* L) { return gc_box<FormulaBox>(L, kFormulaMeta); }
int gc_witness(lua_State* L) { return gc_box<WitnessBox>(L, kWitnessMeta); }

ExprBox* test_expr(lua_State* L, int i) {
  auto* b = static_cast<ExprBox*>(luaL_testudata(L, i, kExprMeta));
  return b && b->e ? b : nullptr;
}
FormulaBox* test_formula(lua_State* L, int i) {
  auto* b = static_cast<FormulaBox*>(luaL_testudata(L, i, kFormulaMeta));
  return b && b->f ? b : nullptr;
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
    State& s = state(L);
    if (b->generation == s.generation && b->serial < s.built.size()) s.built[b->serial].used = true;
    return b->f;
  }
  if (lua_isboolean(L, i)) return constant(lua_toboolean(L, i) != 0);
  luaL_error(L, "%s: expected a formula, got %s", what, describe(L, i).c_str());
  return nullptr;
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
constexpr std::size_t kTostringChars = 4000;

int expr_tostring(lua_State* L) {
  lua_pushstring(L, to_string(check_expr(L, 1, "tostring"), kTostringChars).c_str());
  return 1;
}
int formula_tostring(lua_State* L) {
  lua_pushstring(L, to_string(check_formula(L, 1, "tostring"), kTostringChars).c_str());
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
// all{f1, f2, ...} / any{...}: conjunction / disjunction of a list.
template <bool All>
int f_fold(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  std::vector<FormulaPtr> fs;
  const lua_Integer n = luaL_len(L, 1);
  // The list lives outside the Lua heap: as long as the formulas may be.
  const auto most = static_cast<lua_Integer>(state(L).limits.formulas.max_live_bytes / sizeof(FormulaPtr));
  if (n > most)
    return stop(L, where(L, 1), fmt::format("{}{{...}}: a list of {} formulas, more than the {} allowed",
                                            All ? "all" : "any", n, most));
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
    if (s->op != Expr::Op::Sort) return luaL_error(L, "empty: arguments must be sorts (Txn, Obj, Val, Read)");
    t.push_back(s->sort);
  }
  push_expr(L, none(t));
  return 1;
}

// Variables whose binding line State::variables keeps, per file: enough for
// any spec, bounded for a loop of quantifiers.
constexpr std::size_t kMaxVariablesNamed = std::size_t{1} << 16;

// Collects the quantifier's domains (arguments 1..n-1) and calls the body
// (argument n) with one fresh variable per domain, named after the body's
// parameters.
std::pair<std::vector<Decl>, FormulaPtr> bind_body(lua_State* L, const char* what) {
  const int top = lua_gettop(L);
  if (top < 2 || lua_type(L, top) != LUA_TFUNCTION)
    luaL_error(L, "%s(D1, ..., Dk, function(v1, ..., vk) ... end): the last argument must be a "
               "function", what);
  // A quantifier is deeper than its variables are many: refused before one
  // is made. The body and one variable per domain go on the stack: room for
  // them first (a C function may only assume LUA_MINSTACK free slots).
  if (static_cast<std::uint32_t>(top - 1) > state(L).limits.formulas.max_depth)
    stop(L, where(L, 1), fmt::format("{}: {} variables, more than the {} levels of nesting allowed",
                                     what, top - 1, state(L).limits.formulas.max_depth));
  luaL_checkstack(L, top + 1, "too many quantified variables");
  std::vector<Decl> decls;
  for (int i = 1; i < top; ++i) {
    ExprPtr dom = check_expr(L, i, what);
    if (dom->arity() != 1)
      luaL_error(L, "%s: domain %d must be a set (arity 1), got %s of arity %d", what, i,
                 to_string(dom).c_str(), static_cast<int>(dom->arity()));
    lua_pushvalue(L, top);
    const char* pname = lua_getlocal(L, nullptr, i);  // parameter names of a function value
    std::string name = pname ? pname : fmt::format("v{}", i);
    lua_pop(L, 1);  // lua_getlocal leaves the function there
    decls.push_back(Decl{make_variable(std::move(name), dom->type[0]), dom});
    if (state(L).variables.size() < kMaxVariablesNamed)
      state(L).variables[decls.back().var->id] =
          fmt::format("'{}' (bound at {})", decls.back().var->name, where(L, 1));
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
      return luaL_error(L, "%s: arguments must be sorts (Txn, Obj, Val, Read)", Order ? "order" : "rel");
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

// The first character of `name` a name may not hold (utf8::hidden, or a
// byte that is not valid UTF-8), as the message shows it ("U+000A",
// "byte 0xFF"); nullopt when there is none.
std::optional<std::string> bad_name_char(std::string_view name) {
  for (std::size_t i = 0; i < name.size();) {
    const utf8::Sequence seq = utf8::sequence_at(name, i);
    if (seq.length == 0) return fmt::format("byte 0x{:02X}", static_cast<unsigned char>(name[i]));
    if (utf8::hidden(seq.code_point)) return fmt::format("U+{:04X}", seq.code_point);
    i += seq.length;
  }
  return std::nullopt;
}

// Names a spec declares are printed in reports, one per line, and in HTML and
// DOT: one with a newline, an escape or a bidi override could forge a line or
// hide what it says, so such names are refused where they are declared.
void check_name(lua_State* L, const char* kind, std::string_view name) {
  if (auto bad = bad_name_char(name))
    luaL_error(L, "%s name \"%s\" holds %s, a control or format character: names are printed "
               "in reports and may not", kind, escape_text(name).c_str(), bad->c_str());
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
  // The read-from of item reads only (Adya's item read-dependencies).
  field("item_wrx", rel(s.iwrx));
  field("wr", s.wr);
  field("writer", s.writer);
  field("reader", s.reader);
  field("T0", s.T0);
  field("Tplus", s.Tplus);
  field("U", s.U);
  field("hb", s.hb);
  field("vo", rel(s.vo));
  field("rt", rel(s.rt));
  field("rt_cc", rel(s.rt_cc));
  field("rt_bc", rel(s.rt_bc));
  field("ts_vis", rel(s.ts_vis));
  field("ts_ar", rel(s.ts_ar));
  // Reads of writes that never became committed versions (seen only by a
  // level that permits them: Level::permits).
  field("aborted_reads", rel(s.abr));
  field("intermediate_reads", rel(s.irr));
  // The operation level: read events (sort Read).
  field("txn", rel(s.rtxn));
  field("key", rel(s.rkey));
  field("val", rel(s.rval));
  field("po", rel(s.po));
  field("rf", rel(s.rf));
  luaL_setmetatable(L, kStrictMeta);
}

// Marks State::built as followed while a spec function runs; the outermost
// call forgets its formulas when it ends, however it ends.
class FollowBuilt {
 public:
  explicit FollowBuilt(State& s) : s_(s), first_(s.built.size()) { ++s_.spec_calls; }
  ~FollowBuilt() {
    if (--s_.spec_calls > 0) return;
    s_.built.clear();
    ++s_.generation;
  }
  FollowBuilt(const FollowBuilt&) = delete;
  FollowBuilt& operator=(const FollowBuilt&) = delete;
  // Where the first formula built since this call began that nothing used
  // was built, if there is one.
  std::optional<std::string> discarded() const {
    for (std::size_t i = first_; i < s_.built.size(); ++i)
      if (!s_.built[i].used) return s_.built[i].at;
    return std::nullopt;
  }

 private:
  State& s_;
  std::size_t first_;
};

// Calls fn(h, e) (fn at index `fn`, e at index `e`) and returns its formula.
// `role` is what the function is ("axiom", "wf", "pattern") and `what`
// names it in errors. A formula the function built and then threw away is
// an error at the line that built it: Lua's `and`/`or` on formulas keep one
// operand and drop the other, and a formula as a Lua condition is always
// true; either would load silently and mean something else.
FormulaPtr eval_spec_function(lua_State* L, int fn, int e, const std::string& what, const char* role) {
  FollowBuilt follow(state(L));
  lua_pushvalue(L, fn);
  push_history(L);
  lua_pushvalue(L, e);
  lua_call(L, 2, 1);
  if (!test_formula(L, -1) && !lua_isboolean(L, -1))
    luaL_error(L, "%s must return a formula, but returned %s", what.c_str(), describe(L, -1).c_str());
  FormulaPtr f = check_formula(L, -1, what.c_str());
  lua_pop(L, 1);
  // A variable a quantifier's body let out (stored in an upvalue) is free in
  // the result: no history can give it a value.
  if (!f->free.empty()) {
    const auto& vars = state(L).variables;
    const auto v = vars.find(f->free.front());
    luaL_error(L, "%s uses the quantified variable %s outside the body of its quantifier: a "
               "quantifier's variables exist only inside its function", what.c_str(),
               v == vars.end() ? "(bound in a quantifier)" : v->second.c_str());
  }
  if (auto at = follow.discarded()) {
    lua_pushstring(L, located(at->empty() ? where(L, 1) : *at,
                              fmt::format("a formula built here is not part of the {}'s result: did "
                                          "you mean `&` (or `|`) instead of `and`/`or`, or a formula "
                                          "used as a Lua condition?", role))
                          .c_str());
    lua_error(L);
  }
  return f;
}

// framework "name" { doc = ..., witness = { co = order(Txn) }, wf = function(h, e) ... end }
int declare_framework(lua_State* L) {
  std::string name = lua_tostring(L, lua_upvalueindex(1));
  luaL_checktype(L, 1, LUA_TTABLE);
  check_name(L, "framework", name);
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
    check_name(L, "witness", names.back());
    lua_pop(L, 1);
  }
  std::sort(names.begin(), names.end());
  lua_newtable(L);  // e
  const int et = lua_gettop(L);
  for (const auto& wname : names) {
    lua_getfield(L, wt, wname.c_str());
    auto* box = static_cast<WitnessBox*>(luaL_testudata(L, -1, kWitnessMeta));
    if (!box || box->type.empty())
      return luaL_error(L, "framework '%s': witness '%s' must be declared with order(S) or rel(S, ...)",
                        name.c_str(), wname.c_str());
    WitnessDecl w{wname, make_relation(wname, box->type), box->order,
                  box->order ? box->type[0] : kAnySort};
    lua_pop(L, 1);
    push_expr(L, rel(w.rel));
    lua_setfield(L, et, wname.c_str());
    fw->witness.push_back(std::move(w));
  }
  luaL_setmetatable(L, kStrictMeta);

  lua_getfield(L, 1, "wf");
  if (lua_isnil(L, -1)) {
    fw->wf = constant(true);
  } else if (lua_isfunction(L, -1)) {
    fw->wf = eval_spec_function(L, lua_gettop(L), et, "framework '" + name + "': wf", "wf");
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

// "adya, biswas, cerone": the frameworks declared so far.
std::string known_frameworks(const State& s) {
  std::string known;
  for (const auto& [n, fw] : s.framework_index) known += (known.empty() ? "" : ", ") + n;
  return known.empty() ? "none" : known;
}

// The optional field `permits = { "aborted reads", "intermediate reads" }` of
// a level table at `table`. Returns nullptr, or
// what is wrong with it (a static string).
const char* read_permits(lua_State* L, int table, Level::Permits& out) {
  lua_getfield(L, table, "permits");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return nullptr;
  }
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    return "must be a list of strings";
  }
  const lua_Unsigned n = lua_rawlen(L, -1);
  for (lua_Unsigned i = 1; i <= n && i <= 16; ++i) {
    lua_rawgeti(L, -1, static_cast<lua_Integer>(i));
    const std::string_view what = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    lua_pop(L, 1);
    if (what == "aborted reads") out.aborted_reads = true;
    else if (what == "intermediate reads") out.intermediate_reads = true;
    else {
      lua_pop(L, 1);
      return "each entry is \"aborted reads\" or \"intermediate reads\" (a non-repeatable read "
             "is two read events, which the level's formula decides)";
    }
  }
  lua_pop(L, 1);
  return nullptr;
}

// level "NAME" { framework = "biswas", doc = "...", axiom = function(h, e) ... end,
//               graph = "SER",    -- optional: a graph characterization (SER, SI, RC, RA, CC)
//               permits = { "aborted reads" } }  -- optional: see Level::Permits
int declare_level(lua_State* L) {
  std::string short_name = lua_tostring(L, lua_upvalueindex(1));
  luaL_checktype(L, 1, LUA_TTABLE);
  check_name(L, "level", short_name);
  State& s = state(L);
  std::string fw_name = opt_string_field(L, 1, "framework");
  if (fw_name.empty())
    return luaL_error(L, "level '%s': missing field 'framework' (e.g. framework = \"biswas\")",
                      short_name.c_str());
  auto fw = s.framework_index.find(fw_name);
  if (fw == s.framework_index.end())
    return luaL_error(L, "level '%s': unknown framework '%s' (known: %s)", short_name.c_str(),
                      escape_text(fw_name).c_str(), known_frameworks(s).c_str());
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
    lv->graph = graph_level_from_name(graph);
    if (!lv->graph)
      return luaL_error(L, "level '%s': graph = '%s' is not a known graph characterization "
                        "(\"SER\", \"SI\", \"RC\", \"RA\" or \"CC\")",
                        name.c_str(), escape_text(graph).c_str());
  }
  if (const char* bad = read_permits(L, 1, lv->permits))
    return luaL_error(L, "level '%s': permits: %s", name.c_str(), bad);
  if (lv->graph && (lv->permits.aborted_reads || lv->permits.intermediate_reads))
    return luaL_error(L, "level '%s': a level with a graph characterization counts every read, "
                      "so it cannot permit aborted or intermediate reads", name.c_str());
  lua_getfield(L, 1, "axiom");
  if (!lua_isfunction(L, -1))
    return luaL_error(L, "level '%s': 'axiom' must be a function(h, e) returning a formula",
                      name.c_str());
  const int fn = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, ("isosynth.e." + fw_name).c_str());
  lv->axiom = eval_spec_function(L, fn, lua_gettop(L), "level '" + name + "': axiom", "axiom");
  lua_pop(L, 1);
  // Real time in a graph: the SER polygraph takes rt and rt_cc as known
  // edges (its commit order is a topological order of them), the SI one all
  // three, on begin and commit nodes; the other characterizations do not
  // model real time.
  if (lv->graph && !graph_models_real_time(*lv->graph, model::real_time_use(lv->axiom)))
    return luaL_error(L, "level '%s': graph = '%s' does not model the real-time order%s it "
                      "mentions (\"SER\" models h.rt and h.rt_cc, \"SI\" also h.rt_bc)",
                      name.c_str(), graph.c_str(),
                      *lv->graph == GraphLevel::Ser ? " h.rt_bc" : "");
  // The database's timestamps are read only by the characterizations that
  // trust them, and those need them.
  const bool trusted = lv->graph && trusts_timestamps(*lv->graph);
  if (lv->graph && trusted != model::mentions_db_timestamps(lv->axiom))
    return luaL_error(L, trusted ? "level '%s': graph = '%s' decides levels that read the "
                                   "database's timestamps (h.ts_vis, h.ts_ar), and this one does not"
                                 : "level '%s': graph = '%s' does not read the database's "
                                   "timestamps (h.ts_vis, h.ts_ar); only \"timestamps-SI\" and "
                                   "\"timestamps-SER\" do",
                      name.c_str(), graph.c_str());
  // levels["name"] = axiom, for composition in later specs.
  lua_getfield(L, LUA_REGISTRYINDEX, kLevelsKey);
  lua_pushstring(L, name.c_str());
  lua_pushvalue(L, fn);
  lua_rawset(L, -3);
  Level* raw = lv.get();
  s.levels.push_back(std::move(lv));
  s.level_index[name] = raw;
  return 0;
}

// anomaly "NAME" { framework = "adya", title = "...", doc = "...", histories = "list-append",
//                  run_example = "T1: ... | T2: ...", pattern = function(h, e) ... end }
// A history exhibits the anomaly when every execution of the framework
// satisfies the pattern; it is stored as the level "no NAME" (the pattern
// negated), which rejects exactly those histories. That level permits
// aborted and intermediate reads (sets them aside, as Adya's PL-1 does): a
// pattern sees them through h.aborted_reads and h.intermediate_reads, and a
// history with such a read exhibits only the anomalies whose pattern holds.
// `histories = "list-append"`: the pattern needs the version orders that
// list reads reveal (G0), and synthesis searches list-append histories.
int declare_anomaly(lua_State* L) {
  std::string short_name = lua_tostring(L, lua_upvalueindex(1));
  luaL_checktype(L, 1, LUA_TTABLE);
  check_name(L, "anomaly", short_name);
  State& s = state(L);
  std::string fw_name = opt_string_field(L, 1, "framework");
  if (fw_name.empty())
    return luaL_error(L, "anomaly '%s': missing field 'framework' (e.g. framework = \"adya\")",
                      short_name.c_str());
  auto fw = s.framework_index.find(fw_name);
  if (fw == s.framework_index.end())
    return luaL_error(L, "anomaly '%s': unknown framework '%s' (known: %s)", short_name.c_str(),
                      escape_text(fw_name).c_str(), known_frameworks(s).c_str());
  std::string name = (s.library.empty() ? fw_name : s.library) + "." + short_name;
  if (s.anomaly_index.count(name)) return luaL_error(L, "anomaly '%s' is already declared", name.c_str());
  auto an = std::make_unique<Level>();
  an->name = name;
  an->location = where(L, 1);
  an->doc = opt_string_field(L, 1, "doc");
  an->title = opt_string_field(L, 1, "title");
  an->framework = fw->second;
  an->permits.aborted_reads = true;
  an->permits.intermediate_reads = true;
  const std::string histories = opt_string_field(L, 1, "histories");
  if (!histories.empty() && histories != "list-append")
    return luaL_error(L, "anomaly '%s': histories = \"%s\" is not known (the one kind is \"list-append\")",
                      name.c_str(), escape_text(histories).c_str());
  an->list_reads = histories == "list-append";
  an->run_example = opt_string_field(L, 1, "run_example");
  if (!an->run_example.empty()) {
    std::string bad;
    try {
      (void)parse_one_line(an->run_example, "run_example");
    } catch (const InputError& e) {
      bad = e.what();
    }
    if (!bad.empty()) return luaL_error(L, "anomaly '%s': %s", name.c_str(), escape_text(bad).c_str());
  }
  lua_getfield(L, 1, "pattern");
  if (!lua_isfunction(L, -1))
    return luaL_error(L, "anomaly '%s': 'pattern' must be a function(h, e) returning a formula",
                      name.c_str());
  const int fn = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, ("isosynth.e." + fw_name).c_str());
  an->axiom = logic::not_(
      eval_spec_function(L, fn, lua_gettop(L), "anomaly '" + name + "': pattern", "pattern"));
  lua_pop(L, 1);
  Level* raw = an.get();
  s.anomalies.push_back(std::move(an));
  s.anomaly_index[name] = raw;
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
  return luaL_error(L, "unknown relation '%s' (known here: %s)", key ? escape_text(key).c_str() : "?",
                    known.c_str());
}
// levels[name] of a file: the registry's, read only, so that no file can
// replace a level the files after it build on.
int levels_index(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kLevelsKey);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, -2) != LUA_TNIL) return 1;
  const char* key = lua_tostring(L, 2);
  return luaL_error(L, "unknown level '%s' (levels are named like \"biswas.PC\")",
                    key ? escape_text(key).c_str() : "?");
}
int levels_newindex(lua_State* L) {
  return luaL_error(L, "levels is read-only: declare a level with level \"NAME\" { ... }");
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
      {"__gc", gc_expr},                {nullptr, nullptr}};
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
      {"__eq", op_eq_error},        {"__gc", gc_formula},
      {nullptr, nullptr}};
  luaL_setfuncs(L, formula_ops, 0);
  lua_newtable(L);
  const luaL_Reg formula_methods[] = {
      {"implies", guarded<f_implies>}, {"iff", guarded<f_iff>}, {nullptr, nullptr}};
  luaL_setfuncs(L, formula_methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);

  luaL_newmetatable(L, kWitnessMeta);
  lua_pushcfunction(L, gc_witness);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);

  luaL_newmetatable(L, kStrictMeta);
  lua_pushcfunction(L, guarded<strict_index>);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);

  // getmetatable() of anything the API hands out gives `false`: the
  // metatables hold __gc, which frees a node, and the method tables.
  for (const char* meta : {kExprMeta, kFormulaMeta, kWitnessMeta, kStrictMeta}) {
    luaL_getmetatable(L, meta);
    protect_metatable(L);
    lua_pop(L, 1);
  }

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
      {"anomaly", named_declaration<declare_anomaly>},
      {nullptr, nullptr}};
  lua_pushglobaltable(L);
  luaL_setfuncs(L, globals, 0);
  push_expr(L, sort(model::kTxn));
  lua_setfield(L, -2, "Txn");
  push_expr(L, sort(model::kObj));
  lua_setfield(L, -2, "Obj");
  push_expr(L, sort(model::kVal));
  lua_setfield(L, -2, "Val");
  push_expr(L, sort(model::kRead));
  lua_setfield(L, -2, "Read");
  push_expr(L, iden());
  lua_setfield(L, -2, "iden");
  push_expr(L, univ());
  lua_setfield(L, -2, "univ");
  push_formula(L, constant(true));
  lua_setfield(L, -2, "TRUE");
  push_formula(L, constant(false));
  lua_setfield(L, -2, "FALSE");
  lua_pop(L, 1);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, kLevelsKey);
  luaL_newmetatable(L, kLevelsViewMeta);
  lua_pushcfunction(L, guarded<levels_index>);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, levels_newindex);
  lua_setfield(L, -2, "__newindex");
  protect_metatable(L);
  // Each file's view is its own: rawset on it (tamper.lua's
  // `rawset(levels, "biswas.SER", f)`) changes what that file reads, never a
  // level or another file's view.
  lua_pushboolean(L, 1);
  lua_rawsetp(L, -2, &kCopyKey);
  lua_pop(L, 1);
}

// The environment a spec file runs in (its _ENV): its own table of globals,
// reading through to the sandbox's (the API, the libraries, the prelude's
// helpers), which it cannot write. The libraries' tables are copied, so that
// `string.rep = f` or `level = f` changes this file only, and `levels` is a
// read-only view. Takes the loaded chunk at index 1.
int set_file_env(lua_State* L) {
  lua_newtable(L);
  const int env = lua_gettop(L);
  for (const char* lib : {LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME, LUA_UTF8LIBNAME}) {
    lua_newtable(L);
    lua_getglobal(L, lib);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, -5);
    }
    lua_pop(L, 1);
    lua_setfield(L, env, lib);
  }
  lua_newtable(L);
  luaL_setmetatable(L, kLevelsViewMeta);
  lua_setfield(L, env, "levels");
  lua_pushvalue(L, env);
  lua_setfield(L, env, "_G");
  // The metatable counts as the file's own (kCopyKey): setmetatable and
  // rawset on _G change nothing but this file.
  lua_newtable(L);
  lua_pushglobaltable(L);
  lua_setfield(L, -2, "__index");
  protect_metatable(L);
  lua_pushboolean(L, 1);
  lua_rawsetp(L, -2, &kCopyKey);
  lua_setmetatable(L, env);
  if (!lua_setupvalue(L, 1, 1)) lua_pop(L, 1);
  return 0;
}

// One line: Lua's message already starts with "file:line:".
std::string one_line(std::string msg) {
  for (char& ch : msg)
    if (ch == '\n' || ch == '\r') ch = ' ';
  return msg;
}

// Leaves a string as the error: numbers are converted here, while the call
// is still protected (the conversion allocates).
int message_handler(lua_State* L) {
  if (lua_type(L, 1) == LUA_TNUMBER) {
    lua_tostring(L, 1);
  } else if (lua_type(L, 1) != LUA_TSTRING) {
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  return 1;
}

// Builds the sandbox, protected: an error outside a protected call would
// abort the process.
int set_up(lua_State* L) {
  open_sandboxed_libs(L);
  register_api(L);
  return 0;
}

}  // namespace

SpecLibrary::SpecLibrary(Limits limits, bool standard_specs) : state_(std::make_unique<State>()) {
  state_->limits = limits;
  model::history_schema();  // names the sorts
  lua_State* L = lua_newstate(limited_alloc, state_.get());
  // lua_newstate fails only when its first allocations do: out of memory
  // (under --max-memory, as any other allocation that fails).
  if (!L) throw std::bad_alloc();
  state_->L = L;
  *static_cast<State**>(lua_getextraspace(L)) = state_.get();
  // The budget hook stays for the state's lifetime: whatever Lua code runs,
  // when and wherever, is counted.
  lua_sethook(L, count_hook, LUA_MASKCOUNT, kHookEvery);
  lua_pushcfunction(L, set_up);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
    lua_close(L);
    state_->L = nullptr;
    throw SpecError("cannot set up the spec sandbox");
  }
  for (const auto& spec : embedded_specs())
    if (standard_specs || spec.name == kPreludeName) load_string(spec.text, std::string(spec.name));
}

SpecLibrary::~SpecLibrary() {
  if (!state_ || !state_->L) return;
  // Closing runs what finalizers remain (the sandbox lets specs set none):
  // under a fresh budget, so that even one that loops cannot hang the exit.
  state_->instructions = 0;
  state_->fatal.clear();
  state_->over_budget = false;
  state_->stop_at = deadline_after(state_->limits.seconds);
  lua_close(state_->L);
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
  State& s = *state_;
  s.library.clear();
  s.variables.clear();
  s.instructions = 0;
  s.fatal.clear();
  s.over_budget = false;
  s.block_too_big = false;
  s.block_at.clear();
  s.timeout = false;
  s.stop_at = deadline_after(s.limits.seconds);
  const logic::ScopedNodeLimits armed(s.limits.formulas);
  lua_pushcfunction(L, message_handler);
  const int handler = lua_gettop(L);
  // Text only ("t"): a precompiled binary chunk could crash the VM.
  int rc = luaL_loadbufferx(L, text.data(), text.size(), ("@" + chunk_name).c_str(), "t");
  // Every file but the prelude (whose helpers every file sees) in an
  // environment of its own.
  if (rc == LUA_OK && chunk_name != kPreludeName) {
    lua_pushcfunction(L, set_file_env);
    lua_pushvalue(L, -2);
    rc = lua_pcall(L, 1, 0, handler);
  }
  if (rc == LUA_OK) rc = lua_pcall(L, 0, 0, handler);
  if (rc != LUA_OK) {
    std::string msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "unknown error";
    if (rc == LUA_ERRMEM)
      msg = (s.block_too_big && !s.block_at.empty() ? s.block_at : chunk_name) + ": " + s.memory_message();
    if (s.stopped()) msg = s.fatal;  // what stopped it, whatever came after
    lua_settop(L, handler - 1);
    if (s.timeout) throw TimeoutError();
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

std::vector<const Level*> SpecLibrary::anomalies() const {
  std::vector<const Level*> out;
  for (const auto& l : state_->anomalies) out.push_back(l.get());
  return out;
}

const Level& SpecLibrary::anomaly(std::string_view name) const {
  const auto& idx = state_->anomaly_index;
  std::string full(name);
  if (full.find('.') == std::string::npos) full = "anomalies." + full;
  for (const auto& [n, l] : idx)
    if (lower(n) == lower(full)) return *l;
  std::string known;
  for (const auto& [n, l] : idx) known += (known.empty() ? "" : ", ") + n;
  throw SpecError(fmt::format("unknown anomaly '{}' (known: {})", name, known));
}

}  // namespace iso::lua
