// Calling a spec function on the symbolic history and witness (spec_function.hpp).
#include "lua/spec_function.hpp"

#include <optional>
#include <string>

#include <fmt/format.h>

#include "engine/history/history.hpp"
#include "engine/model/schema.hpp"
#include "lua/api.hpp"
#include "lua/boxes.hpp"
#include "lua/sandbox.hpp"

namespace iso::lua::api {

using namespace logic;
using sandbox::State;

namespace {

// The tables h and e reject unknown names instead of returning nil.
// stack: t key -> t key (raises "unknown relation 'key' (known here: ...)")
int strict_index(lua_State* L) {
  const char* key = lua_tostring(L, 2);
  std::string known;
  lua_pushnil(L);  // stack: t key nil
  while (lua_next(L, 1)) {  // stack: t key k v
    if (lua_type(L, -2) == LUA_TSTRING) known += std::string(known.empty() ? "" : ", ") + lua_tostring(L, -2);
    lua_pop(L, 1);  // stack: t key k
  }
  return luaL_error(L, "unknown relation '%s' (known here: %s)", key ? escape_text(key).c_str() : "?",
                    known.c_str());
}

// A field of `h`: a relation of the schema (`relation`) or an expression
// over them (`expr`).
struct HistoryField {
  const char* name;
  logic::RelationPtr model::HistorySchema::*relation;
  ExprPtr model::HistorySchema::*expr;
};
constexpr HistoryField relation_field(const char* name, logic::RelationPtr model::HistorySchema::*r) {
  return {name, r, nullptr};
}
constexpr HistoryField expr_field(const char* name, ExprPtr model::HistorySchema::*e) {
  return {name, nullptr, e};
}

using S = model::HistorySchema;
const HistoryField kHistoryFields[] = {
    relation_field("reads", &S::reads), relation_field("writes", &S::writes),
    relation_field("so", &S::so), relation_field("wrx", &S::wrx),
    // The read-from of item reads only (Adya's item read-dependencies).
    relation_field("item_wrx", &S::iwrx),
    expr_field("wr", &S::wr), expr_field("writer", &S::writer), expr_field("reader", &S::reader),
    expr_field("T0", &S::T0), expr_field("Tplus", &S::Tplus), expr_field("U", &S::U),
    expr_field("hb", &S::hb),
    relation_field("vo", &S::vo), relation_field("rt", &S::rt), relation_field("rt_cc", &S::rt_cc),
    relation_field("rt_bc", &S::rt_bc), relation_field("ts_vis", &S::ts_vis),
    relation_field("ts_ar", &S::ts_ar),
    // Reads of writes that never became committed versions (seen only by a
    // level that permits them: Level::permits).
    relation_field("aborted_reads", &S::abr), relation_field("intermediate_reads", &S::irr),
    // The operation level: read events (sort Read).
    relation_field("txn", &S::rtxn), relation_field("key", &S::rkey), relation_field("val", &S::rval),
    relation_field("po", &S::po), relation_field("rf", &S::rf)};

// [-0, +1] Pushes the history table `h`: the schema's expressions under
// their spec names, guarded by a metatable that rejects unknown names.
void push_history(lua_State* L) {
  const auto& s = model::history_schema();
  lua_newtable(L);  // stack: ... h
  for (const HistoryField& field : kHistoryFields) {
    push_expr(L, field.relation ? rel(s.*field.relation) : s.*field.expr);  // stack: ... h box
    lua_setfield(L, -2, field.name);
  }
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

}  // namespace

void open_strict_tables(lua_State* L) {
  const luaL_Reg metamethods[] = {{"__index", sandbox::guarded<strict_index>}, {nullptr, nullptr}};
  new_protected_metatable(L, kStrictMeta, metamethods);
}

// Lua's `and`/`or` on formulas keep one operand and drop the other, and a
// formula as a Lua condition is always true: FollowBuilt finds the formula
// such a line built.
namespace {

SpecValue call_spec_function(lua_State* L, int fn, int e, const std::string& what, const char* role,
                             bool expressions) {
  FollowBuilt follow(sandbox::state(L));
  lua_pushvalue(L, fn);  // stack: ... fn
  push_history(L);       // stack: ... fn h
  lua_pushvalue(L, e);   // stack: ... fn h e
  lua_call(L, 2, 1);     // stack: ... result
  SpecValue out;
  if (expressions && test_expr(L, -1)) {
    out.expr = check_expr(L, -1, what.c_str());
  } else {
    if (!test_formula(L, -1) && !lua_isboolean(L, -1))
      luaL_error(L, "%s must return a %s, but returned %s", what.c_str(),
                 expressions ? "relation or a formula" : "formula", describe(L, -1).c_str());
    out.formula = check_formula(L, -1, what.c_str());
  }
  lua_pop(L, 1);  // stack: ...
  const std::vector<std::uint32_t>& free = out.expr ? out.expr->free : out.formula->free;
  // A variable a quantifier's body let out (stored in an upvalue) is free in
  // the result: no history can give it a value.
  if (!free.empty()) {
    const auto& vars = sandbox::state(L).variables;
    const auto v = vars.find(free.front());
    luaL_error(L, "%s uses the quantified variable %s outside the body of its quantifier: a "
               "quantifier's variables exist only inside its function", what.c_str(),
               v == vars.end() ? "(bound in a quantifier)" : v->second.c_str());
  }
  if (auto at = follow.discarded()) {
    lua_pushstring(L, sandbox::located(at->empty() ? sandbox::where(L, 1) : *at,
                                       fmt::format("a formula built here is not part of the {}'s "
                                                   "result: did you mean `&` (or `|`) instead of "
                                                   "`and`/`or`, or a formula used as a Lua "
                                                   "condition?", role))
                          .c_str());  // stack: ... message
    lua_error(L);
  }
  return out;
}

}  // namespace

FormulaPtr eval_spec_function(lua_State* L, int fn, int e, const std::string& what, const char* role) {
  return call_spec_function(L, fn, e, what, role, false).formula;
}

SpecValue eval_spec_value(lua_State* L, int fn, int e, const std::string& what, const char* role) {
  return call_spec_function(L, fn, e, what, role, true);
}


}  // namespace iso::lua::api
