// The spec sandbox's limits and its standard library (sandbox.hpp).
#include "lua/sandbox.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include <lualib.h>

#include "engine/history/history.hpp"

namespace iso::lua::sandbox {

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
  if (nsize > State::kMaxBlock) {
    // Lua raises its memory error without a position: take it now (reading
    // the call stack allocates nothing in Lua).
    if (!s->block_too_big && s->L)
      for (int level = 0; level <= 2 && s->block_at.empty(); ++level) s->block_at = where(s->L, level);
    s->block_too_big = true;
    return nullptr;
  }
  // Allocating counts against the instruction budget too, an instruction a
  // byte: one call of string.rep or table.concat can fill megabytes, work the
  // instruction count does not see. (The shipped specs allocate well under
  // a megabyte each.)
  if (nsize > old) {
    // Past the budget, refused: a C function allocating in a loop (string.rep
    // in a Lua loop) stops at its next allocation, not at the next hook.
    if (s->instructions > s->limits.instructions) {
      s->over_budget = true;
      return nullptr;
    }
    s->instructions += nsize - old;
  }
  void* p = std::realloc(ptr, nsize);
  if (p) s->memory = s->memory - old + nsize;
  return p;
}

// Raises the fatal error: Lua's own error, which the sandbox's pcall lets
// through.
// [-0, +1, v]
int raise_fatal(lua_State* L) {
  State& s = state(L);
  s.stopped();
  lua_pushstring(L, s.fatal.c_str());  // stack: ... fatal
  return lua_error(L);
}

// Stops the spec for good with `msg` located at `at`. [-0, +1, v]
int stop(lua_State* L, const std::string& at, const std::string& msg, bool timeout) {
  State& s = state(L);
  if (!s.stopped()) {
    s.fatal = located(at, msg);
    s.timeout = timeout;
  }
  return raise_fatal(L);
}

// kHookEvery (sandbox.hpp): often enough that a C function spending long on
// one instruction (a comparison of long strings, a scan of a large table) is
// not out of sight for long; rarely enough to cost little.

void count_hook(lua_State* L, lua_Debug* ar) {
  State& s = state(L);
  s.instructions += kHookEvery;
  // Already stopped: whatever runs now (an xpcall handler, a __close
  // method) is cut short again.
  if (s.stopped()) {
    raise_fatal(L);
    return;
  }
  // Inside a hook, level 0 is the running Lua function: name its line.
  std::string at;
  if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0) at = fmt::format("{}:{}", ar->short_src, ar->currentline);
  if (s.instructions > s.limits.instructions) {
    stop(L, at, s.budget_message());
  } else if (budget::expired()) {
    stop(L, at, "time limit reached", true);
  } else if (budget::Clock::now() > s.stop_at) {
    stop(L, at, fmt::format("the spec ran for more than {} s", s.limits.seconds));
  }
}

// Counts work a C function does in one call against the instruction budget,
// before it does it. [-0, +0, v]
void charge(lua_State* L, lua_Unsigned units) {
  State& s = state(L);
  s.instructions += std::min<lua_Unsigned>(units, s.limits.instructions + 1);
  if (s.instructions > s.limits.instructions) stop(L, lua_line(L), s.budget_message());
}

namespace {

// --- the sandbox's versions of standard functions -------------------------------

// pcall(f, ...) and xpcall(f, handler, ...) as Lua's, except that an error
// raised by a limit (State::fatal) is never caught: it is raised again once
// the protected call returns, so `while true do pcall(loop) end` stops. (No
// coroutines in the sandbox, so no yields to continue after.)
// Ends either: `status` is lua_pcall's, `extra` how many slots at the bottom
// are not results (xpcall's handler and the function's copy).
// stack: extra... true results..., or extra... true error -> the results
int finish_pcall(lua_State* L, int status, int extra) {
  State& s = state(L);
  if (status == LUA_ERRMEM && !s.stopped())
    s.fatal = located(s.block_too_big && !s.block_at.empty() ? s.block_at : where(L, 1), s.memory_message());
  if (s.stopped()) return raise_fatal(L);
  if (status != LUA_OK) {
    lua_pushboolean(L, 0);  // stack: ... error false
    lua_pushvalue(L, -2);   // stack: ... error false error
    return 2;
  }
  return lua_gettop(L) - extra;
}

// stack: f args... -> true results... | false error
int sandbox_pcall(lua_State* L) {
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1);  // the first result when there is no error
  lua_insert(L, 1);       // stack: true f args...
  return finish_pcall(L, lua_pcall(L, lua_gettop(L) - 2, LUA_MULTRET, 0), 0);
}

// The handler xpcall installs in place of the spec's: it calls the spec's
// (its upvalue) unless the error is fatal. A fatal error raised by the
// budget hook reaches the handler while the hook still runs, when Lua calls
// no hooks: the spec's handler would run out of the budget's sight.
// stack: error -> error [handled]
int xpcall_handler(lua_State* L) {
  if (state(L).stopped()) return 1;
  lua_pushvalue(L, lua_upvalueindex(1));  // stack: error handler
  lua_insert(L, 1);                       // stack: handler error
  lua_call(L, lua_gettop(L) - 1, 1);      // stack: handled
  return 1;
}

// stack: f handler args... -> true results... | false error
int sandbox_xpcall(lua_State* L) {
  const int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);  // the handler
  lua_pushvalue(L, 2);                     // stack: f handler args... handler
  lua_pushcclosure(L, xpcall_handler, 1);  // stack: f handler args... wrapped
  lua_replace(L, 2);                       // stack: f wrapped args...
  lua_pushboolean(L, 1);                // the first result when there is no error
  lua_pushvalue(L, 1);                  // the function
  lua_rotate(L, 3, 2);                  // stack: f wrapped true f args...
  return finish_pcall(L, lua_pcall(L, n - 2, LUA_MULTRET, 2), 2);
}

// setmetatable(t, mt) of the sandbox. It refuses the fields whose effects
// escape the instruction budget and the spec's lifetime: __gc (a finalizer
// runs whenever the collector decides, the state's closing included),
// __close (runs while an error unwinds) and __mode (weak tables can make the
// collector's work quadratic); and __metatable, which the sandbox uses
// itself. It installs a copy of mt with __metatable = mt, so getmetatable(t)
// still gives mt, but fields added to mt afterwards have no effect: they
// cannot sneak the refused ones in.
// stack: t mt -> t
int sandbox_setmetatable(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const int type = lua_type(L, 2);
  luaL_argexpected(L, type == LUA_TNIL || type == LUA_TTABLE, 2, "nil or table");
  if (lua_getmetatable(L, 1)) {  // stack: t mt old
    const bool copy = lua_rawgetp(L, -1, &kCopyKey) != LUA_TNIL;  // stack: t mt old mark
    lua_pop(L, 2);                                                 // stack: t mt
    if (!copy) return luaL_error(L, "cannot change a protected metatable");
  }
  lua_settop(L, 2);  // stack: t mt
  if (type == LUA_TNIL) {
    lua_setmetatable(L, 1);
    return 1;
  }
  for (const char* field : {"__gc", "__close", "__mode", "__metatable"}) {
    lua_pushstring(L, field);                       // stack: t mt field
    const bool set = lua_rawget(L, 2) != LUA_TNIL;  // stack: t mt value
    lua_pop(L, 1);                                  // stack: t mt
    if (set) return luaL_error(L, "setmetatable: %s is not available in specs", field);
  }
  lua_newtable(L);  // stack: t mt copy
  lua_Unsigned fields = 0;
  lua_pushnil(L);  // stack: t mt copy nil
  while (lua_next(L, 2)) {  // stack: t mt copy k v
    lua_pushvalue(L, -2);   // stack: t mt copy k v k
    lua_insert(L, -2);      // stack: t mt copy k k v
    lua_rawset(L, 3);       // stack: t mt copy k
    ++fields;
  }
  charge(L, fields);
  lua_pushvalue(L, 2);  // stack: t mt copy mt
  lua_setfield(L, 3, "__metatable");
  lua_pushboolean(L, 1);  // stack: t mt copy true
  lua_rawsetp(L, 3, &kCopyKey);
  lua_setmetatable(L, 1);  // stack: t mt
  lua_settop(L, 1);        // stack: t
  return 1;
}

// print(...) of the sandbox: to stderr, never stdout (which carries the
// command's output, JSON included), as "file:line: print: text" with the
// text escaped onto one line; at most kPrintBytes in all, then nothing but
// one notice.
constexpr std::size_t kPrintBytes = 64u << 10;

// stack: args... -> args...
int sandbox_print(lua_State* L) {
  State& s = state(L);
  const std::string at = where(L, 1);
  if (s.printed >= kPrintBytes) return 0;
  std::string text;
  for (int i = 1, n = lua_gettop(L); i <= n && text.size() < kPrintBytes; ++i) {
    std::size_t len = 0;
    const char* p = luaL_tolstring(L, i, &len);  // stack: args... text
    // Each argument escaped (escape_text) and, as Lua's print does, the
    // arguments separated by tabs, which forge no line.
    if (i > 1) text += '\t';
    text += escape_text(std::string_view(p, std::min(len, kPrintBytes)));
    lua_pop(L, 1);  // stack: args...
  }
  s.printed += text.size();
  std::string dropped;
  if (s.printed >= kPrintBytes) {
    text.resize(text.size() - std::min(text.size(), s.printed - kPrintBytes));
    dropped = fmt::format(" [print output past {} KiB dropped]", kPrintBytes >> 10);
  }
  // One line per call, whatever the text holds: its newlines and escapes
  // could otherwise forge lines of isosynth's own or drive the terminal.
  fmt::print(stderr, "{}\n", located(at, "print: " + text + dropped));
  return 0;
}

// table.insert(t, [pos,] v) and table.remove(t [, pos]) as Lua's, except
// that the elements they shift are charged to the instruction budget first:
// Lua's shift up to #t elements in one call, out of the hook's sight, and #t
// is whatever __len says (for a table with holes, any border will do, which
// can lie far beyond its elements). Unsigned arithmetic: #t may be
// math.maxinteger.
// stack: t [pos] v -> (t[pos] = v, the elements from pos on shifted up)
int table_insert(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const auto end = static_cast<lua_Unsigned>(luaL_len(L, 1)) + 1;  // the first free slot
  lua_Unsigned pos = end;
  switch (lua_gettop(L)) {
    case 2: break;
    case 3: {
      pos = static_cast<lua_Unsigned>(luaL_checkinteger(L, 2));
      luaL_argcheck(L, pos - 1u < end, 2, "position out of bounds");
      charge(L, end - pos);
      for (lua_Unsigned i = end; i > pos; --i) {
        lua_geti(L, 1, static_cast<lua_Integer>(i - 1));  // stack: t pos v t[i-1]
        lua_seti(L, 1, static_cast<lua_Integer>(i));      // stack: t pos v
      }
      break;
    }
    default: return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, static_cast<lua_Integer>(pos));  // stack: t [pos]
  return 0;
}

// stack: t [pos] -> t [pos] t[pos] (the elements after it shifted down)
int table_remove(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const auto size = static_cast<lua_Unsigned>(luaL_len(L, 1));
  auto pos = static_cast<lua_Unsigned>(luaL_optinteger(L, 2, static_cast<lua_Integer>(size)));
  if (pos != size) luaL_argcheck(L, pos - 1u <= size, 2, "position out of bounds");
  if (pos < size) charge(L, size - pos);
  lua_geti(L, 1, static_cast<lua_Integer>(pos));  // stack: t [pos] result
  for (; pos < size; ++pos) {
    lua_geti(L, 1, static_cast<lua_Integer>(pos + 1));  // stack: t [pos] result t[pos+1]
    lua_seti(L, 1, static_cast<lua_Integer>(pos));      // stack: t [pos] result
  }
  lua_pushnil(L);  // stack: t [pos] result nil
  lua_seti(L, 1, static_cast<lua_Integer>(pos));  // stack: t [pos] result
  return 1;
}

// --- library functions whose work in one call the hook does not see ----------
//
// The count hook sees Lua instructions and the allocator sees bytes; a C
// function that loops without allocating (string.rep of "", table.concat of
// empty strings, a sort comparing long strings, a scan of a long string) is
// invisible to both for as long as the call lasts. Each such function is
// wrapped: the wrapper charges the call's work to the instruction budget
// before Lua's own function (upvalue 1) does it. docs/spec-language.md lists
// the bound of every function the sandbox exposes.

// Does `msg` start with a position, "file:line:"?
bool has_position(std::string_view msg) {
  const auto colon = msg.find(':');
  if (colon == std::string_view::npos) return false;
  std::size_t i = colon + 1;
  while (i < msg.size() && std::isdigit(static_cast<unsigned char>(msg[i]))) ++i;
  return i > colon + 1 && i < msg.size() && msg[i] == ':';
}

// Ends a protected call of a library function's body made by its wrapper
// (status from lua_pcall; the body's results on the stack). Lua's errors
// name the line of the Lua function that called the C function raising
// them, which is the wrapper here: the wrapper names the spec's line
// instead. The sandbox's limits stay fatal, a memory error included.
// stack: results... -> results..., or error -> (raised again, located)
int finish_wrapped(lua_State* L, int status) {
  State& s = state(L);
  if (status == LUA_OK) return lua_gettop(L);
  if (status == LUA_ERRMEM && !s.stopped())
    s.fatal = located(s.block_too_big && !s.block_at.empty() ? s.block_at : lua_line(L), s.memory_message());
  if (s.stopped()) return raise_fatal(L);
  if (lua_type(L, -1) == LUA_TSTRING) {
    std::string msg = lua_tostring(L, -1);
    // "bad argument #1 to '?'": Lua finds no name for a function its
    // wrapper called; the wrapper's upvalue 2 is it.
    if (const char* name = lua_tostring(L, lua_upvalueindex(2)))
      if (auto q = msg.find(" to '?'"); q != std::string::npos) msg.replace(q + 5, 1, name);
    if (!has_position(msg)) msg = located(lua_line(L), msg);
    lua_pushstring(L, msg.c_str());  // stack: error located
  }
  return lua_error(L);
}

// Calls the wrapped function with the arguments as given.
// stack: args... -> results...
int call_wrapped(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));  // stack: args... f
  lua_insert(L, 1);                       // stack: f args...
  return finish_wrapped(L, lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0));
}

// Lua's rule for string positions: negative counts from the end.
lua_Unsigned string_position(lua_Integer pos, std::size_t len) {
  if (pos >= 0) return static_cast<lua_Unsigned>(pos);
  if (static_cast<lua_Unsigned>(-(pos + 1)) >= len) return 0;
  return len + static_cast<lua_Unsigned>(pos) + 1;
}

// Bytes from position i to j of the string at index 1, clipped to it.
// [-0, +0] (converts a number at index 1 in place)
lua_Unsigned string_span(lua_State* L, lua_Integer i, lua_Integer j) {
  std::size_t len = 0;
  if (!lua_tolstring(L, 1, &len)) return 0;
  lua_Unsigned first = std::max<lua_Unsigned>(string_position(i, len), 1);
  lua_Unsigned last = std::min<lua_Unsigned>(string_position(j, len), len);
  return first <= last ? last - first + 1 : 0;
}

// The integer at index `i`, or `dflt`: the wrapped function checks it. [-0, +0]
lua_Integer opt_integer(lua_State* L, int i, lua_Integer dflt) {
  int ok = 0;
  const lua_Integer v = lua_tointegerx(L, i, &ok);
  return ok ? v : dflt;
}

// The charged_* wrappers: stack: args... -> results... of Lua's function.

// string.rep(s, n, sep): n turns of a loop, even when s and sep are empty
// (the bytes it writes, the allocator counts).
int charged_rep(lua_State* L) {
  const lua_Integer n = opt_integer(L, 2, 0);
  if (n > 0) charge(L, static_cast<lua_Unsigned>(n));
  return call_wrapped(L);
}

// string.byte(s, i, j), utf8.codepoint(s, i, j): one value per byte or
// character of the span (Lua caps them at the stack's size).
int charged_byte(lua_State* L) {
  const lua_Integer i = opt_integer(L, 2, 1);
  charge(L, 1 + string_span(L, i, opt_integer(L, 3, i)));
  return call_wrapped(L);
}

// utf8.len(s, i, j): a scan of the span.
int charged_utf8_len(lua_State* L) {
  charge(L, 1 + string_span(L, opt_integer(L, 2, 1), opt_integer(L, 3, -1)));
  return call_wrapped(L);
}

// utf8.offset(s, n, i), tonumber(s [, base]): at most a scan of the string.
int charged_scan(lua_State* L) {
  std::size_t len = 0;
  if (lua_type(L, 1) == LUA_TSTRING) lua_tolstring(L, 1, &len);
  charge(L, 1 + len);
  return call_wrapped(L);
}

// utf8.char(...), string.char(...): one character an argument.
int charged_args(lua_State* L) {
  charge(L, 1 + static_cast<lua_Unsigned>(lua_gettop(L)));
  return call_wrapped(L);
}

// table.concat(t, sep, i, j) and table.unpack(t, i, j): a turn per element
// from i to j, which may be any range (elements can come from an __index
// function that returns "" without allocating).
template <int First>
int charged_range(lua_State* L) {
  const lua_Integer i = opt_integer(L, First, 1);
  const lua_Integer j = lua_isnoneornil(L, First + 1) && lua_type(L, 1) == LUA_TTABLE
                            ? luaL_len(L, 1)
                            : opt_integer(L, First + 1, i - 1);
  if (j >= i) charge(L, static_cast<lua_Unsigned>(j) - static_cast<lua_Unsigned>(i) + 1);
  return call_wrapped(L);
}

// An iterator step of utf8.codes: Lua's skips every continuation byte after
// the position, a scan as long as the string.
int charged_codes_step(lua_State* L) {
  std::size_t len = 0;
  const char* s = lua_tolstring(L, 1, &len);
  lua_Unsigned run = 0;
  if (s) {
    const auto n = static_cast<lua_Unsigned>(opt_integer(L, 2, 0));
    while (n < len && run < len - n && (static_cast<unsigned char>(s[n + run]) & 0xC0) == 0x80) ++run;
  }
  charge(L, 1 + run);
  return call_wrapped(L);
}

// utf8.codes(s): Lua's, with its iterator wrapped.
// stack: s -> step s 0
int charged_codes(lua_State* L) {
  const int results = call_wrapped(L);  // stack: step s 0
  lua_pushvalue(L, 1);  // Lua's iterator
  lua_pushliteral(L, "utf8.codes iterator");   // stack: step s 0 step name
  lua_pushcclosure(L, charged_codes_step, 2);  // stack: step s 0 charged
  lua_replace(L, 1);                           // stack: charged s 0
  return results;
}

// table.sort(t [, less]): a heapsort of its own, every comparison charged (a
// comparison of two strings as many units as the shorter one has bytes:
// Lua's compares them with strcoll, in one instruction). Lua's quicksort
// compares in C out of the hook's sight. As Lua's, it reads and writes the
// elements with lua_geti/lua_seti, so metamethods apply, and #t is taken
// with __len. The table is at index 1, the comparison (or nil) at 2; each
// step leaves the stack as it found it.
class Sorter {
 public:
  Sorter(lua_State* L, lua_Unsigned n) : L_(L), n_(n) {}

  void run() {
    for (lua_Unsigned i = n_ / 2; i-- > 0;) sift_down(i, n_);
    for (lua_Unsigned end = n_; end > 1; --end) {
      swap(0, end - 1);
      sift_down(0, end - 1);
    }
  }

 private:
  // 0-based positions; the table's are 1-based.
  void get(lua_Unsigned i) { lua_geti(L_, 1, static_cast<lua_Integer>(i + 1)); }
  void set(lua_Unsigned i) { lua_seti(L_, 1, static_cast<lua_Integer>(i + 1)); }
  void swap(lua_Unsigned a, lua_Unsigned b) {
    get(a);  // stack: ... t[a]
    get(b);  // stack: ... t[a] t[b]
    set(a);  // stack: ... t[a]
    set(b);  // stack: ...
  }
  // t[a] < t[b]
  bool less(lua_Unsigned a, lua_Unsigned b) {
    get(a);
    get(b);  // stack: ... t[a] t[b]
    std::size_t la = 0, lb = 0;
    if (lua_type(L_, -2) == LUA_TSTRING && lua_type(L_, -1) == LUA_TSTRING) {
      lua_tolstring(L_, -2, &la);
      lua_tolstring(L_, -1, &lb);
    }
    charge(L_, 1 + std::min(la, lb));
    bool r;
    if (lua_isnil(L_, 2)) {
      r = lua_compare(L_, -2, -1, LUA_OPLT) != 0;
    } else {
      lua_pushvalue(L_, 2);  // stack: ... t[a] t[b] less
      lua_insert(L_, -3);    // stack: ... less t[a] t[b]
      lua_call(L_, 2, 1);    // stack: ... result
      r = lua_toboolean(L_, -1) != 0;
      lua_pop(L_, 1);  // stack: ...
      return r;
    }
    lua_pop(L_, 2);  // stack: ...
    return r;
  }
  void sift_down(lua_Unsigned root, lua_Unsigned end) {
    for (;;) {
      lua_Unsigned child = 2 * root + 1;
      if (child >= end) return;
      if (child + 1 < end && less(child, child + 1)) ++child;
      if (!less(root, child)) return;
      swap(root, child);
      root = child;
    }
  }

  lua_State* L_;
  lua_Unsigned n_;
};

// stack: t less -> t less (sorted)
int sort_body(lua_State* L) {
  const lua_Integer n = luaL_len(L, 1);
  luaL_checkstack(L, 8, "table.sort");
  if (n > 1) Sorter(L, static_cast<lua_Unsigned>(n)).run();
  return 0;
}

// stack: t [less] -> (t sorted)
int sandbox_sort(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);                 // stack: t less
  lua_pushcfunction(L, sort_body);  // stack: t less body
  lua_insert(L, 1);                 // stack: body t less
  return finish_wrapped(L, lua_pcall(L, 2, 0, 0));
}

// rawset(t, k, v) as Lua's, except on the tables the API hands out (`h`,
// `e`): their metatables are protected, and rawset would write past them.
// stack: t k v -> t
int sandbox_rawset(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  if (lua_getmetatable(L, 1)) {  // stack: t k v mt
    const bool copy = lua_rawgetp(L, -1, &kCopyKey) != LUA_TNIL;  // stack: t k v mt mark
    lua_pop(L, 2);                                                 // stack: t k v
    if (!copy) return luaL_error(L, "rawset: this table is read-only");
  }
  return call_wrapped(L);
}

// Replaces lib.name (lib nullptr: the global) by `wrapper`, with Lua's
// function as its upvalue 1 and "lib.name" as upvalue 2. [-0, +0]
void wrap(lua_State* L, const char* lib, const char* name, lua_CFunction wrapper) {
  if (lib) lua_getglobal(L, lib);
  else lua_pushglobaltable(L);  // stack: lib
  lua_getfield(L, -1, name);    // stack: lib f
  if (lib) lua_pushfstring(L, "%s.%s", lib, name);
  else lua_pushstring(L, name);     // stack: lib f "lib.name"
  lua_pushcclosure(L, wrapper, 2);  // stack: lib wrapper
  lua_setfield(L, -2, name);        // stack: lib
  lua_pop(L, 1);
}

// [-0, +0]
void wrap_unseen_loops(lua_State* L) {
  wrap(L, LUA_STRLIBNAME, "rep", charged_rep);
  wrap(L, LUA_STRLIBNAME, "byte", charged_byte);
  wrap(L, LUA_STRLIBNAME, "char", charged_args);
  wrap(L, LUA_UTF8LIBNAME, "codepoint", charged_byte);
  wrap(L, LUA_UTF8LIBNAME, "len", charged_utf8_len);
  wrap(L, LUA_UTF8LIBNAME, "offset", charged_scan);
  wrap(L, LUA_UTF8LIBNAME, "char", charged_args);
  wrap(L, LUA_UTF8LIBNAME, "codes", charged_codes);
  wrap(L, LUA_TABLIBNAME, "concat", charged_range<3>);
  wrap(L, LUA_TABLIBNAME, "unpack", charged_range<2>);
  wrap(L, nullptr, "tonumber", charged_scan);
  wrap(L, nullptr, "rawset", sandbox_rawset);
  lua_getglobal(L, LUA_TABLIBNAME);    // stack: table
  lua_pushcfunction(L, sandbox_sort);  // stack: table sort
  lua_setfield(L, -2, "sort");         // stack: table
  lua_pop(L, 1);
}

// What specs cannot use: "string.find is not available in specs".
// stack: args... -> (raises)
int unavailable(lua_State* L) {
  return luaL_error(L, "%s is not available in specs%s", lua_tostring(L, lua_upvalueindex(1)),
                    lua_tostring(L, lua_upvalueindex(2)));
}

// [-0, +0]
void set_unavailable(lua_State* L, const char* lib, const char* name, const char* why) {
  lua_getglobal(L, lib);                   // stack: lib
  lua_pushfstring(L, "%s.%s", lib, name);  // stack: lib "lib.name"
  lua_pushstring(L, why);                  // stack: lib "lib.name" why
  lua_pushcclosure(L, unavailable, 2);     // stack: lib unavailable
  lua_setfield(L, -2, name);               // stack: lib
  lua_pop(L, 1);
}

}  // namespace

// [-0, +0]
void open_sandboxed_libs(lua_State* L) {
  // Only pure libraries; nothing that reaches the file system or the process.
  // No coroutines either: a coroutine is one more place to catch errors.
  const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},
                           {LUA_TABLIBNAME, luaopen_table},
                           {LUA_STRLIBNAME, luaopen_string},
                           {LUA_MATHLIBNAME, luaopen_math},
                           {LUA_UTF8LIBNAME, luaopen_utf8}};
  for (const auto& lib : libs) {
    luaL_requiref(L, lib.name, lib.func, 1);  // stack: lib
    lua_pop(L, 1);
  }
  for (const char* name : {"dofile", "loadfile", "load", "require", "collectgarbage", "warn"}) {
    lua_pushnil(L);  // stack: nil
    lua_setglobal(L, name);
  }
  const luaL_Reg replaced[] = {{"pcall", sandbox_pcall},
                               {"xpcall", sandbox_xpcall},
                               {"setmetatable", sandbox_setmetatable},
                               {"print", guarded<sandbox_print>},
                               {nullptr, nullptr}};
  lua_pushglobaltable(L);  // stack: G
  luaL_setfuncs(L, replaced, 0);
  lua_pop(L, 1);
  lua_getglobal(L, LUA_TABLIBNAME);    // stack: table
  lua_pushcfunction(L, table_insert);  // stack: table insert
  lua_setfield(L, -2, "insert");
  lua_pushcfunction(L, table_remove);  // stack: table remove
  lua_setfield(L, -2, "remove");       // stack: table
  lua_pop(L, 1);
  // A table.move call loops over any range it is given, out of the hook's
  // sight; patterns backtrack exponentially. Specs need neither.
  set_unavailable(L, LUA_TABLIBNAME, "move", "");
  // Binary packing: nothing a spec needs, and "z" and padding loop in C.
  for (const char* name : {"pack", "packsize", "unpack"}) set_unavailable(L, LUA_STRLIBNAME, name, "");
  wrap_unseen_loops(L);
  for (const char* name : {"find", "match", "gmatch", "gsub"})
    set_unavailable(L, LUA_STRLIBNAME, name, " (no pattern matching)");
  lua_getglobal(L, LUA_STRLIBNAME);  // stack: string
  lua_pushnil(L);                    // stack: string nil
  lua_setfield(L, -2, "dump");       // stack: string
  lua_pop(L, 1);
  // The strings' metatable leads to the string table (its __index) and could
  // be changed: hide it like the API's.
  lua_pushliteral(L, "");   // stack: ""
  lua_getmetatable(L, -1);  // stack: "" mt
  protect_metatable(L);
  lua_pop(L, 2);
}


}  // namespace iso::lua::sandbox
