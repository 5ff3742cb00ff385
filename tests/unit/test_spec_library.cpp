// The spec language: loading, the sandbox, and one-line errors with file:line.
#include <doctest/doctest.h>

#include "tests/unit/history_helpers.hpp"

#include <string>

#include "engine/history/json_format.hpp"
#include "lua/spec_library.hpp"

using namespace iso;
using lua::SpecError;
using lua::SpecLibrary;

namespace {

// Loads `text` as "user.lua" into a fresh library and returns the error
// message, or "" when it loaded.
std::string load_error(const std::string& text, lua::Limits limits = {}) {
  SpecLibrary lib(limits);
  try {
    lib.load_string(text, "user.lua");
  } catch (const SpecError& e) {
    std::string msg = e.what();
    CHECK(msg.find('\n') == std::string::npos);  // one line
    return msg;
  }
  return "";
}

}  // namespace

TEST_CASE("the standard library declares every level of the issue with a doc and a source") {
  SpecLibrary lib;
  for (const char* name :
       {"biswas.RA", "biswas.CC", "biswas.PC", "biswas.SI", "biswas.SER", "biswas.UpdateSer",
        "cerone.RA", "cerone.CC", "cerone.UA", "cerone.PSI", "cerone.PC", "cerone.SI", "cerone.SER",
        "cerone.NLU", "cerone.UpdateSer", "plume.TapRA", "plume.TapCC", "plume.RA"}) {
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
