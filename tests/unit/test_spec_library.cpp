// The spec language: loading, the sandbox, and one-line errors with file:line.
#include <doctest/doctest.h>

#include "tests/unit/history_helpers.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "engine/history/json_format.hpp"
#include "engine/model/schema.hpp"
#include "engine/util/budget.hpp"
#include "lua/spec_library.hpp"
#include "tests/unit/spec_helpers.hpp"

using namespace iso;
using lua::SpecError;
using lua::SpecLibrary;
using test::check_error;
using test::load_error;
using test::small_limits;

using test::captured;

TEST_CASE("the standard library declares every level of the issue with a doc and a source") {
  SpecLibrary lib;
  for (const char* name :
       {"biswas.RA", "biswas.CC", "biswas.PC", "biswas.SI", "biswas.SER", "biswas.UpdateSer",
        "cerone.RA", "cerone.CC", "cerone.UA", "cerone.PSI", "cerone.PC", "cerone.SI", "cerone.SER",
        "cerone.NLU", "cerone.UpdateSer", "plume.TapRA", "plume.TapCC", "plume.RA",
        "plume.NoNonRepeatableRead", "plume.NoNonMonotonicRead", "plume.NoFracturedRead",
        "dbcop.RR"}) {
    const lua::Level& l = lib.level(name);
    CHECK(l.name == name);
    CHECK(!l.doc.empty());
    CHECK(l.location.rfind("specs/", 0) == 0);
  }
  CHECK(&lib.level("SER") == &lib.level("biswas.SER"));
  CHECK(&lib.level("ser") == &lib.level("biswas.SER"));
  CHECK_THROWS_WITH_AS(lib.level("NOPE"), doctest::Contains("unknown level 'NOPE'"), SpecError);
  CHECK_THROWS_WITH_AS(lib.level("UA"), doctest::Contains("did you mean cerone.UA"), SpecError);
}

TEST_CASE("permits: reads of writes that never became committed versions") {
  SpecLibrary lib;
  lib.load_string("library \"u\"\nlevel \"X\" { framework = \"adya\", permits = { \"aborted reads\" },"
                  "\n  axiom = function(h, e) return TRUE end }",
                  "user.lua");
  const Level& x = lib.level("u.X");
  CHECK(x.permits.aborted_reads);
  CHECK_FALSE(x.permits.intermediate_reads);
  CHECK(lib.level("adya.PL-1").permits.intermediate_reads);
  CHECK(lib.level("adya.PL-1").permits.aborted_reads);
  CHECK_FALSE(lib.level("adya.PL-2").permits.aborted_reads);
  CHECK_FALSE(lib.level("adya.PL-2").permits.intermediate_reads);
  // A re-read is two read events, which the formula decides.
  check_error("level \"X\" { framework = \"biswas\", permits = { \"non-repeatable reads\" },\n"
              "  axiom = function(h, e) return TRUE end }",
              "user.lua:1:", "permits: each entry is");
  check_error("level \"X\" { framework = \"biswas\", graph = \"SER\", permits = { \"aborted reads\" },\n"
              "  axiom = function(h, e) return TRUE end }",
              "user.lua:1:", "cannot permit aborted or intermediate reads");
  check_error("level \"X\" { framework = \"biswas\", permits = \"dirty\",\n"
              "  axiom = function(h, e) return TRUE end }",
              "user.lua:1:", "permits: must be a list of strings");
  check_error("level \"X\" { framework = \"biswas\", permits = { \"dirty reads\" },\n"
              "  axiom = function(h, e) return TRUE end }",
              "user.lua:1:", "permits: each entry is");
}

TEST_CASE("errors in a spec are reported as file:line: message") {
  CHECK(load_error("level \"X\" { framework = \"biswas\", axiom = function(h, e)\n"
                   "  return h.so +\nend }") .find("user.lua:3:") == 0);
  // Unknown relation on h.
  std::string m = load_error("library \"u\"\nlevel \"X\" { framework = \"biswas\",\n"
                             "  axiom = function(h, e) return h.sox:within(e.co) end }");
  CHECK(m.find("user.lua:3:") == 0);
  CHECK(m.find("unknown relation 'sox'") != std::string::npos);
  // Sort mismatch: writer is Txn->Obj, so is Txn->Txn.
  m = load_error("library \"u\"\nlevel \"X\" { framework = \"biswas\",\n"
                 "  axiom = function(h, e)\n    return (h.writer + h.so):some() end }");
  CHECK(m.find("user.lua:4:") == 0);
  CHECK(m.find("sort mismatch") != std::string::npos);
  // Arity mismatch in membership.
  m = load_error("library \"u\"\nlevel \"X\" { framework = \"biswas\",\n"
                 "  axiom = function(h, e) return forall(Txn, function(t) return h.so(t) end) end }");
  CHECK(m.find("user.lua:3:") == 0);
  CHECK(m.find("arity 2") != std::string::npos);
  // A level that does not return a formula.
  m = load_error("library \"u\"\nlevel \"X\" { framework = \"biswas\",\n"
                 "  axiom = function(h, e) return 42 end }");
  CHECK(m.find("user.lua:2:") == 0);
  CHECK(m.find("must return a formula") != std::string::npos);
  // Unknown framework.
  m = load_error("level \"X\" { framework = \"nope\", axiom = function(h, e) return TRUE end }");
  CHECK(m.find("unknown framework 'nope'") != std::string::npos);
  // Unknown level referenced through levels[...].
  m = load_error("local f = levels[\"biswas.NOPE\"]");
  CHECK(m.find("user.lua:1:") == 0);
  CHECK(m.find("unknown level") != std::string::npos);
  // Plain Lua errors keep their position.
  CHECK(load_error("\n\nerror('boom')").find("user.lua:3: boom") == 0);
  CHECK(load_error("x = = 1").find("user.lua:1:") == 0);
}

TEST_CASE("the sandbox has no file system, process or debug access") {
  CHECK(load_error("assert(io == nil and os == nil and debug == nil and package == nil)") == "");
  CHECK(load_error("assert(require == nil and dofile == nil and loadfile == nil and load == nil)") == "");
  CHECK(load_error("assert(string.dump == nil)") == "");
  CHECK(load_error("io.open('/etc/passwd')").find("user.lua:1:") == 0);
}

TEST_CASE("a spec that loops forever is stopped by the instruction budget") {
  lua::Limits limits;
  limits.instructions = 5'000'000;
  std::string m = load_error("local i = 0\nwhile true do i = i + 1 end", limits);
  CHECK(m.find("user.lua:2:") == 0);
  CHECK(m.find("instruction budget") != std::string::npos);
  // Also inside an axiom, which runs at load time.
  m = load_error("library \"u\"\nlevel \"X\" { framework = \"biswas\",\n"
                 "  axiom = function(h, e) while true do end end }", limits);
  CHECK(m.find("instruction budget") != std::string::npos);
}

TEST_CASE("a spec that allocates without bound hits the memory cap") {
  lua::Limits limits;
  limits.memory_bytes = 32u << 20;
  std::string m = load_error("local t = {}\nfor i = 1, 1e9 do t[i] = string.rep('x', 1000) .. i end", limits);
  CHECK(!m.empty());
  CHECK(m.find("user.lua") == 0);
}

TEST_CASE("sandbox: no metatable of the API is reachable, so no finalizer can be called by hand") {
  CHECK(load_error("assert(getmetatable(Txn) == false and getmetatable(TRUE) == false)\n"
                   "assert(getmetatable(order(Txn)) == false and getmetatable(levels) == false)\n"
                   "assert(getmetatable('') == false)") == "");
  // uaf3.lua: the expression's __gc called on a live expression.
  check_error("local g = Txn + Txn\ngetmetatable(g).__gc(g)", "user.lua:2:",
              "attempt to index a boolean value");
  // The h table's metatable can be neither read nor replaced.
  check_error("library \"u\"\nlevel \"X\" { framework = \"biswas\",\n"
              "  axiom = function(h, e) setmetatable(h, nil) return TRUE end }",
              "user.lua:3:", "cannot change a protected metatable");
  // Methods still work through the hidden metatable of strings.
  CHECK(load_error("assert(('ab'):rep(2) == 'abab' and ('abc'):sub(2, 2) == 'b')") == "");
}

TEST_CASE("sandbox: pcall and xpcall cannot catch the limits") {
  // Once the budget is spent, every pcall re-raises: the loop ends in the
  // budget error, not in the spec's own.
  check_error("local caught = 0\n"
              "for i = 1, 3 do\n"
              "  if not pcall(function() while true do end end) then caught = caught + 1 end\n"
              "end\n"
              "error('caught ' .. caught)",
              "user.lua:3:", "instruction budget exceeded", small_limits());
  check_error("xpcall(function() while true do end end, function(e) return e end)\nerror('swallowed')",
              "user.lua:1:", "instruction budget exceeded", small_limits());
  // The handler is not run for a budget error: Lua would run it with the
  // budget's hook disabled.
  check_error("local ran = false\n"
              "pcall(xpcall, function() while true do end end, function(e) ran = true return e end)\n"
              "error(ran and 'handler ran' or 'handler skipped')",
              "user.lua:2:", "instruction budget exceeded", small_limits());
  // The memory cap the same way.
  lua::Limits limits;
  limits.memory_bytes = 8u << 20;
  check_error("pcall(function() local t = {} for i = 1, 1e8 do t[i] = i end end)\nerror('swallowed')",
              "user.lua", "more memory than allowed", limits);
  // Ordinary errors are still caught.
  CHECK(load_error("assert(not pcall(error, 'x'))\n"
                   "local ok, v = xpcall(function() error('x') end, function(e) return 'handled' end)\n"
                   "assert(not ok and v == 'handled')\n"
                   "assert(select(2, pcall(function() return 1, 2 end)) == 1)") == "");
}

TEST_CASE("sandbox: no patterns, no table.move, no coroutines") {
  for (const char* call : {"string.find('aaa', 'a*b')", "string.match('a', 'a')", "('a'):gsub('a', 'b')",
                           "string.gmatch('a', 'a')", "table.move({}, 1, 2, 3)"}) {
    INFO(call);
    check_error(std::string("local x = ") + call, "user.lua:1:", "is not available in specs");
  }
  CHECK(load_error("assert(coroutine == nil and collectgarbage == nil)") == "");
}

TEST_CASE("sandbox: setmetatable refuses finalizers, to-be-closed and weak tables") {
  for (const char* field : {"__gc", "__close", "__mode", "__metatable"}) {
    INFO(field);
    check_error(std::string("setmetatable({}, {") + field + " = 'k'})", "user.lua:1:",
                std::string(field) + " is not available in specs");
  }
  // A field added to the metatable later has no effect: the table got a copy.
  check_error("local mt = {}\nlocal t = setmetatable({}, mt)\nmt.__close = function() end\n"
              "do local x <close> = t end",
              "user.lua:4:", "non-closable value");
  // Plain metatables work, getmetatable gives back the one set, and a table's
  // metatable can be replaced.
  CHECK(load_error("local C = {}\nC.__index = C\nfunction C.get(o) return o.v end\n"
                   "local o = setmetatable({v = 3}, C)\nassert(o:get() == 3 and getmetatable(o) == C)\n"
                   "setmetatable(o, {__index = function() return 4 end})\nassert(o.w == 4)\n"
                   "setmetatable(o, nil)\nassert(getmetatable(o) == nil)") == "");
}

TEST_CASE("sandbox: print writes to stderr with the spec's line, never to stdout") {
  std::string err;
  const std::string out = captured(1, [&] {
    err = captured(2, [] { CHECK(load_error("\nprint('{\"bogus\": true}', 2)") == ""); });
  });
  CHECK(out.empty());
  CHECK(err == "user.lua:2: print: {\"bogus\": true}\t2\n");
}

TEST_CASE("sandbox: work done inside one C call counts against the budget") {
  // table.insert shifting what __len makes up.
  check_error("local t = setmetatable({}, {__len = function() return 1e8 end})\ntable.insert(t, 1, 0)",
              "user.lua:2:", "instruction budget exceeded", small_limits());
  // Allocation: a few calls building long strings.
  check_error("for i = 1, 100 do local s = string.rep('x', 1 << 20) end", "user.lua",
              "instruction budget exceeded", small_limits());
  CHECK(load_error("local t = {1, 2, 3}\ntable.insert(t, 2, 9)\nassert(table.remove(t, 1) == 1)\n"
                   "assert(table.concat(t, ',') == '9,2,3')") == "");
}

TEST_CASE("sandbox: the wall-clock limit and the run's deadline stop a spec") {
  lua::Limits limits;
  limits.instructions = 1'000'000'000'000;
  limits.seconds = 0.2;
  const auto t0 = std::chrono::steady_clock::now();
  check_error("\nwhile true do end", "user.lua:2:", "the spec ran for more than 0.2 s", limits);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  limits.seconds = 0;
  SpecLibrary lib(limits);
  const budget::ScopedDeadline deadline(0.2);
  CHECK_THROWS_AS(lib.load_string("while true do end", "user.lua"), TimeoutError);
}

TEST_CASE("sandbox: a formula nested too deeply is refused at the line that builds it") {
  check_error("local r = Txn * Txn\nfor i = 1, 200000 do\n  r = r + Txn * Txn\nend", "user.lua:3:",
              "nested more than 1000 levels deep");
  check_error("local f = some(Txn)\nfor i = 1, 5000 do f = NOT(implies(f, f)) end", "user.lua:2:",
              "nested more than 1000 levels deep");
  // As deep as allowed still loads and prints.
  CHECK(load_error("local r = Txn * Txn\nfor i = 1, 990 do r = r + Txn * Txn end\nassert(#tostring(r) > 0)") == "");
  // Many variables in one quantifier count as nesting too.
  check_error("local d = {}\nfor i = 1, 2000 do d[i] = Txn end\n"
              "d[#d + 1] = function() return TRUE end\nforall(table.unpack(d))",
              "user.lua:4:", "more than the 1000 levels of nesting allowed");
  // Within the limit, each variable gets its stack slot.
  CHECK(load_error("local d = {}\nfor i = 1, 60 do d[i] = Txn end\n"
                   "d[#d + 1] = function(...) assert(select('#', ...) == 60) return TRUE end\n"
                   "assert(forall(table.unpack(d)))") == "");
}

TEST_CASE("sandbox: the memory and the work of a spec's formulas are capped") {
  // deep-and.lua: f = f & g copies the growing conjunction every turn.
  const std::string deep_and = "local f = some(Txn)\nfor i = 1, 200000 do\n  f = f & Txn:within(Txn)\nend";
  lua::Limits limits;
  limits.formulas.max_live_bytes = 4u << 20;
  const auto t0 = std::chrono::steady_clock::now();
  check_error(deep_and, "user.lua:3:", "formulas hold more than 4 MiB", limits);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
  limits = {};
  limits.formulas.max_built_bytes = 4u << 20;
  check_error(deep_and, "user.lua:3:", "took more than 4 MiB", limits);
  // A list too long for the formulas' memory is refused before it is read.
  check_error("local t = setmetatable({}, {__len = function() return 1 << 40 end})\nall(t)", "user.lua:2:",
              "more than the");
  check_error("local r = Txn\nfor i = 1, 20 do r = r * Txn end", "user.lua:2:",
              "arity 9: more than the 8 columns allowed");
}

TEST_CASE("sandbox: the live node memory is given back when a library goes") {
  model::history_schema();
  const std::size_t before = logic::live_bytes();
  {
    SpecLibrary lib;
    CHECK(logic::live_bytes() > before);
    CHECK_THROWS_AS(lib.load_string("local r = Txn\nfor i = 1, 5000 do r = r + Txn end", "user.lua"),
                    SpecError);
  }
  CHECK(logic::live_bytes() == before);
}

TEST_CASE("formulas print within a length, however much they share") {
  // 2^40 leaves in the tree of a 40-node DAG.
  CHECK(load_error("local r = Txn * Txn\nfor i = 1, 40 do r = r + r end\n"
                   "local f = r:some()\nfor i = 1, 40 do f = implies(f, f) end\n"
                   "error(#tostring(r) .. ' ' .. #tostring(f))") == "user.lua:5: 4003 4003");
}

TEST_CASE("a user level: UpdateSer as in Isolde Listing 1 agrees with biswas.UpdateSer") {
  SpecLibrary lib;
  lib.load_file(std::string(ISOSYNTH_SOURCE_DIR) + "/examples/specs/update-ser.lua");
  const lua::Level& mine = lib.level("my.UpdateSer");
  CHECK(mine.framework->name == "biswas");
  for (const char* name : {"write-skew", "fekete-read-only", "lost-update", "long-fork",
                           "fractured-read", "missed-session-write", "nlu-not-ua"}) {
    History h = read_native_json_file(std::string(ISOSYNTH_SOURCE_DIR) + "/examples/histories/" +
                                      name + ".json");
    INFO(name);
    CHECK(generic_decision(h, mine).verdict == generic_decision(h, lib.level("biswas.UpdateSer")).verdict);
  }
}

TEST_CASE("composition: a later spec can reuse levels[...] of the library") {
  SpecLibrary lib;
  lib.load_string(
      "library \"mine\"\n"
      "level \"PSIish\" { framework = \"cerone\", doc = \"CC and UA\",\n"
      "  axiom = function(h, e) return levels['cerone.CC'](h, e) & levels['cerone.UA'](h, e) end }",
      "compose.lua");
  History h = read_native_json_file(std::string(ISOSYNTH_SOURCE_DIR) +
                                    "/examples/histories/long-fork.json");
  CHECK(generic_decision(h, lib.level("mine.PSIish")).verdict ==
        generic_decision(h, lib.level("cerone.PSI")).verdict);
}
