// Calling a spec function: an axiom, a framework's wf or an anomaly's
// pattern runs exactly once, when it is declared, on the symbolic history
// `h` (the schema's relations under their spec names) and the framework's
// witness relations `e`, and what it returns is the formula that stands for
// it. A formula the function built and then threw away is an error at the
// line that built it, and so is a result in which a quantified variable is
// free: either loads silently otherwise and means something else. The
// tables h and e reject unknown names (their metatable: kStrictMeta,
// opened by api::open_strict_tables). Internal to lua/.
#pragma once

#include <string>

#include "engine/logic/ast.hpp"

struct lua_State;

namespace iso::lua::api {

// The metatable of the tables h and e: reading an unknown name is an error
// that lists the known ones.
inline constexpr const char* kStrictMeta = "isosynth.strict";

// [-0, +0, e] Calls fn(h, e) (fn at index `fn`, e at index `e`) and returns
// its formula. `role` is what the function is ("axiom", "wf", "pattern")
// and `what` names it in errors ("level 'biswas.SI': axiom").
logic::FormulaPtr eval_spec_function(lua_State* L, int fn, int e, const std::string& what,
                                     const char* role);

// What a function evaluated by `--eval` returned: a relational expression
// or a formula (one of the two set).
struct SpecValue {
  logic::ExprPtr expr;
  logic::FormulaPtr formula;
};

// [-0, +0, e] As eval_spec_function, but a relational expression is a
// result too.
SpecValue eval_spec_value(lua_State* L, int fn, int e, const std::string& what, const char* role);

}  // namespace iso::lua::api
