// Registering the spec API into a Lua state (api.hpp): the libraries in the
// order they are opened, as linit.c lists Lua's own.
#include "lua/api.hpp"

#include "lua/sandbox.hpp"

namespace iso::lua::api {

namespace {

// Each opener leaves the stack as it found it ([-0, +0]). The standard
// libraries come first: the spec API's globals are set over them.
using Opener = void (*)(lua_State*);
constexpr Opener kLibraries[] = {
    sandbox::open_sandboxed_libs,  // base, string, table, math, utf8, bounded
    open_operators,                 // expressions, formulas, quantifiers, constants
    open_strict_tables,            // h and e reject unknown names
    open_declarations,             // framework, level, anomaly, library, order, rel, levels
};

}  // namespace

void register_api(lua_State* L) {
  for (Opener open : kLibraries) open(L);
}

}  // namespace iso::lua::api
