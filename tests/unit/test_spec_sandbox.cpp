// The spec sandbox's second line: library calls whose work the instruction
// count and the allocator do not see, files kept apart from each other,
// formulas a spec builds and throws away, and the names it may declare.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "lua/spec_library.hpp"
#include "engine/history/history.hpp"
#include "engine/util/utf8.hpp"
#include "tests/unit/spec_helpers.hpp"

using namespace iso;
using lua::SpecLibrary;
using test::check_error;
using test::captured;
using test::load_error;
using test::load_into;
using test::small_limits;

namespace {

double seconds_to_load(const std::string& text, lua::Limits limits) {
  const auto t0 = std::chrono::steady_clock::now();
  check_error(text, "user.lua", "instruction budget exceeded", limits);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

const char* const kLevel = "library \"u\"\nlevel \"X\" { framework = \"biswas\",\n  axiom = function(h, e)\n";

}  // namespace

TEST_CASE("sandbox: library loops that allocate nothing are charged before they run") {
  const lua::Limits limits = small_limits();
  // rep0.lua, and the separator alone.
  CHECK(seconds_to_load("local s = string.rep('', math.maxinteger)", limits) < 2);
  CHECK(seconds_to_load("local s = ('x'):rep(0):rep(1e15, '')", limits) < 2);
  // sortlong.lua, smaller: each comparison of two 1 MB strings is charged.
  CHECK(seconds_to_load("local s = string.rep('a', 1000000)\nlocal t = {}\nfor i = 1, 2000 do t[i] = s end\n"
                        "table.sort(t)", limits) < 2);
  // table.concat over elements an __index C function makes up (all "").
  CHECK(seconds_to_load("local t = setmetatable({}, {__index = table.concat})\n"
                        "local s = table.concat(t, '', 1, math.maxinteger)", limits) < 2);
  // table.sort of a length __len makes up.
  CHECK(seconds_to_load("local t = setmetatable({}, {__len = function() return 1 << 40 end,\n"
                        "  __index = function() return 1 end, __newindex = function() end})\n"
                        "table.sort(t)", limits) < 2);
  // A loop of calls, each scanning a long string.
  CHECK(seconds_to_load("local s = string.rep('\\x80', 1 << 20)\nfor i = 1, 1e9 do utf8.len(s) end", limits) < 2);
  CHECK(seconds_to_load("local s = string.rep(' ', 1 << 20)\nfor i = 1, 1e9 do tonumber(s) end", limits) < 2);
  CHECK(seconds_to_load("local s = string.rep('a', 1 << 19)\nfor i = 1, 1e9 do string.byte(s, 1, 1e5) end",
                        limits) < 2);
  // Binary packing is gone.
  check_error("local n = string.packsize('i4')", "user.lua:1:", "string.packsize is not available in specs");
}

TEST_CASE("sandbox: the wrapped library functions still do what Lua's do") {
  CHECK(load_error(R"(
    local t = {5, 3, 9, 1, 7, 3}
    table.sort(t)
    assert(table.concat(t, ',') == '1,3,3,5,7,9')
    table.sort(t, function(a, b) return a > b end)
    assert(table.concat(t, ',') == '9,7,5,3,3,1')
    local w = {'pear', 'apple', 'fig'}
    table.sort(w)
    assert(table.concat(w, ' ', 2, 3) == 'fig pear')
    assert(select('#', table.unpack({1, 2, 3})) == 3 and select(2, table.unpack({1, 2, 3}, 2)) == 3)
    assert(string.rep('ab', 3, '-') == 'ab-ab-ab' and ('x'):rep(0) == '')
    local a, b = string.byte('abc', 2, -1)
    assert(a == 98 and b == 99 and string.byte('abc') == 97 and string.char(104, 105) == 'hi')
    assert(utf8.len('h\u{e9}') == 2 and utf8.codepoint('\u{e9}') == 0xe9 and utf8.offset('a\u{e9}b', 3) == 4)
    local cps = {}
    for _, c in utf8.codes('a\u{e9}') do cps[#cps + 1] = c end
    assert(cps[1] == 97 and cps[2] == 0xe9 and utf8.char(97, 0xe9) == 'a\u{e9}')
    assert(tonumber('0x10') == 16 and tonumber('z', 36) == 35 and tonumber(' 7 ') == 7)
  )") == "");
  // A sort with an order function that errors reports it.
  check_error("table.sort({1, 2, 3}, function(a, b) error('no order') end)", "user.lua:1:", "no order");
  // Errors of the wrapped functions name the spec's line and the function.
  check_error("\nlocal x = string.rep()", "user.lua:2:", "bad argument #1 to 'string.rep'");
  check_error("\n\ntable.sort({1, 'a'})", "user.lua:3:", "attempt to compare");
  check_error("\nlocal n = select('#', table.unpack({}, 1, 1e7))", "user.lua:2:", "too many results to unpack");
}

TEST_CASE("sandbox: one string or table part is at most 17 MiB") {
  check_error("local s = string.rep('x', 20 << 20)", "user.lua:1:", "a string or table larger than 17 MiB");
}

TEST_CASE("sandbox: each file has its own globals, and levels cannot be replaced") {
  SpecLibrary lib;
  // tamper.lua: rewrites `level` and the shipped SER for the files after it.
  CHECK(load_into(lib, "level = function(name) error('tampered') end\nstring.rep = nil\n"
                       "helper = 1\nmath.pi = 3",
                  "tamper.lua") == "");
  CHECK(load_into(lib, "assert(helper == nil and math.pi > 3.14 and string.rep('a', 2) == 'aa')\n"
                       "library \"my\"\nlevel \"L\" { framework = \"biswas\", axiom = function(h, e) "
                       "return levels[\"biswas.SER\"](h, e) end }\n"
                       "assert(maxof and opt)",
                  "next.lua") == "");
  CHECK(lib.level("my.L").axiom != nullptr);
  // rawset on a file's view of levels changes that view only.
  CHECK(load_into(lib, "rawset(levels, 'biswas.SER', function() return TRUE end)\n"
                       "assert(rawequal(levels['biswas.SER'](nil, nil), TRUE))", "t2.lua") == "");
  CHECK(load_into(lib, "library \"m2\"\nlevel \"L\" { framework = \"biswas\", axiom = function(h, e) "
                       "local f = levels['biswas.SER'](h, e)\n assert(not rawequal(f, TRUE)) return f end }",
                  "t2b.lua") == "");
  // h and e cannot be written past their metatables.
  CHECK(load_into(lib, "library \"m3\"\nlevel \"L\" { framework = \"biswas\", axiom = function(h, e) "
                       "rawset(e, 'co', h.so) return TRUE end }", "t2c.lua")
            .find("t2c.lua:2: rawset: this table is read-only") == 0);
  CHECK(load_into(lib, "levels['biswas.SER'] = 1", "t3.lua").find("levels is read-only") != std::string::npos);
  // _G is the file's own table.
  CHECK(load_into(lib, "_G.level = nil\nrawset(_G, 'framework', nil)", "t4.lua") == "");
  CHECK(load_into(lib, "assert(level and framework)", "t5.lua") == "");
}

TEST_CASE("spec lint: a formula built and thrown away is an error at its line") {
  // Lua's `and` keeps the right operand, `or` the left one.
  check_error(std::string(kLevel) + "    local a = some(h.wr)\n    return a and no(h.so)\n  end }",
              "user.lua:4:", "a formula built here is not part of the axiom's result: did you mean `&`");
  check_error(std::string(kLevel) + "    local b = some(h.wr)\n    return no(h.so) or b\n  end }",
              "user.lua:4:", "not part of the axiom's result");
  // A formula as a Lua condition is always true.
  check_error(std::string(kLevel) +
                  "    return forall(Txn, Txn, function(a, b)\n      if e.co(a, b) then return TRUE end\n"
                  "      return FALSE end)\n  end }",
              "user.lua:5:", "not part of the axiom's result");
  // In a framework's wf and an anomaly's pattern too.
  check_error("framework \"z\" { witness = { r = order(Txn) },\n  wf = function(h, e)\n"
              "    local x = some(e.r)\n    return TRUE end }",
              "user.lua:3:", "not part of the wf's result");
  check_error("library \"u\"\nanomaly \"A\" { framework = \"biswas\",\n  pattern = function(h, e)\n"
              "    if some(h.wr) then return TRUE end return FALSE end }",
              "user.lua:4:", "not part of the pattern's result");
  // What is used is fine: helpers, quantifier bodies, all{}, levels[...].
  CHECK(load_error(std::string(kLevel) +
                   "    local parts = {}\n    for _, r in ipairs({h.wr, h.so}) do parts[#parts + 1] = some(r) end\n"
                   "    local f = forall(Txn, function(t) return some(t .. h.so) | no(t .. h.wr) end)\n"
                   "    return all(parts) & f & levels['biswas.SER'](h, e) & (TRUE and some(h.wr))\n  end }") ==
        "");
  // The standard library loads: none of its axioms trips the check.
  CHECK_NOTHROW(SpecLibrary{});
}

TEST_CASE("errors name file:line: a quantifier variable used outside its body") {
  const std::string m = load_error(
      "library \"t\"\nlocal leaked\nforall(Txn, function(t) leaked = t; return TRUE end)\n"
      "level \"L\" { framework = \"biswas\", axiom = function(h, e) return e.co(leaked, leaked) end }");
  INFO(m);
  CHECK(m.rfind("user.lua:4:", 0) == 0);
}

TEST_CASE("an unknown framework lists the known ones") {
  check_error("library \"u\"\nlevel \"X\" { framework = \"biswaz\", axiom = function(h, e) return TRUE end }",
              "user.lua:2:", "unknown framework 'biswaz' (known: adya, biswas, cerone");
}

TEST_CASE("names with control or format characters are refused where they are declared") {
  check_error("library \"x\"\nlevel \"L\\nbiswas.SER: allowed\" {\n  framework = \"biswas\",\n"
              "  axiom = function(h, e) return TRUE end }",
              "user.lua:2:", "level name \"L\\nbiswas.SER: allowed\" holds U+000A");
  check_error("library \"x\"\nanomaly \"A\\u{202E}B\" { framework = \"biswas\", pattern = function(h, e) "
              "return TRUE end }",
              "user.lua:2:", "anomaly name \"A\\u202eB\" holds U+202E");
  check_error("framework \"f\\27\" { witness = {} }", "user.lua:1:", "framework name");
  check_error("framework \"f\" { witness = { [\"r\\r\"] = order(Txn) } }", "user.lua:1:", "witness name");
  check_error("library \"x\"\nlevel \"\\xff\" { framework = \"biswas\", axiom = function(h, e) return TRUE end }",
              "user.lua:2:", "holds byte 0xFF");
  // Docs may hold anything; accented names are fine.
  CHECK(load_error("library \"x\"\nlevel \"Caf\u00e9\" { framework = \"biswas\", doc = \"a\\nb\\27\",\n"
                   "  axiom = function(h, e) return TRUE end }") == "");
}

TEST_CASE("print: one line per call, each argument escaped as names and values are") {
  // Lua's tab between arguments stays; everything hidden inside one is
  // escaped as escape_text escapes it.
  const std::string err = captured(2, [] {
    CHECK(load_error("print('a\\nb\\27[31m\\r\\t', 'x\\u{202E}y\\xff caf\\u{e9}')") == "");
  });
  CHECK(err == "user.lua:1: print: a\\nb\\u001b[31m\\r\\t\tx\\u202ey\\xff caf\u00e9\n");
  CHECK(utf8::hidden(0x2066));
  CHECK(!utf8::hidden('a'));
}
