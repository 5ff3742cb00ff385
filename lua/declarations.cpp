// The declarations of the spec language (api.hpp, open_declarations): what
// a spec file adds to the library, each checked where it is declared.
//   framework "name" { doc, witness = { co = order(Txn), ... }, wf = function(h, e) }
//   level "NAME" { framework, doc, axiom = function(h, e), graph, permits }
//   anomaly "NAME" { framework, title, aka, doc, histories, run_example, pattern = function(h, e) }
//   library "name"  -- the prefix of the names declared after it in the file
//   order(S), rel(S1, ..., Sk)  -- the types of witness relations
// Each function runs once, as it is declared (spec_function.hpp), and what
// it returns is stored in the State's frameworks, levels and anomalies. A
// level's axiom is also kept in the registry's table of level axioms, which
// later files read through their global `levels`, a read-only view.
// Declared names may not hold control or format characters: they are
// printed in reports. Every error is a Lua error at the declaring line.
#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "engine/history/history.hpp"
#include "engine/history/input_error.hpp"
#include "engine/history/one_line.hpp"
#include "engine/model/schema.hpp"
#include "engine/util/utf8.hpp"
#include "engine/verdict/graph_level.hpp"
#include "lua/api.hpp"
#include "lua/boxes.hpp"
#include "lua/sandbox.hpp"
#include "lua/spec_function.hpp"

namespace iso::lua::api {

using namespace logic;
using sandbox::guarded;
using sandbox::State;

namespace {

// The registry's table of level axioms by name; each file sees it through a
// read-only view (its global `levels`, metatable kLevelsViewMeta).
const char* const kLevelsKey = "isosynth.levels";


// --- names and fields ---------------------------------------------------------------

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

// [-0, +0, e] The declared name (the upvalue named_declaration gave the
// function), checked, and the declaration's table at index 1.
std::string declared_name(lua_State* L, const char* kind) {
  std::string name = lua_tostring(L, lua_upvalueindex(1));
  luaL_checktype(L, 1, LUA_TTABLE);
  check_name(L, kind, name);
  return name;
}

// [-0, +0, e] The string field `field` of the table at `table`; "" when nil.
std::string opt_string_field(lua_State* L, int table, const char* field) {
  lua_getfield(L, table, field);  // stack: ... value
  std::string out;
  if (lua_type(L, -1) == LUA_TSTRING) {
    out = lua_tostring(L, -1);
  } else if (!lua_isnil(L, -1)) {
    luaL_error(L, "field '%s' must be a string, got %s", field, luaL_typename(L, -1));
  }
  lua_pop(L, 1);  // stack: ...
  return out;
}

// "adya, biswas, cerone": the frameworks declared so far.
std::string known_frameworks(const State& s) {
  std::string known;
  for (const auto& [n, fw] : s.framework_index) known += (known.empty() ? "" : ", ") + n;
  return known.empty() ? "none" : known;
}

// [-0, +0, e] The framework the `framework` field of the level or anomaly
// `short_name` (table at index 1) names; `example` is one to suggest.
Framework* framework_field(lua_State* L, const char* kind, const std::string& short_name,
                           const char* example, std::string& fw_name) {
  const State& s = sandbox::state(L);
  fw_name = opt_string_field(L, 1, "framework");
  if (fw_name.empty())
    luaL_error(L, "%s '%s': missing field 'framework' (e.g. framework = \"%s\")", kind,
               short_name.c_str(), example);
  auto fw = s.framework_index.find(fw_name);
  if (fw == s.framework_index.end())
    luaL_error(L, "%s '%s': unknown framework '%s' (known: %s)", kind, short_name.c_str(),
               escape_text(fw_name).c_str(), known_frameworks(s).c_str());
  return fw->second;
}

// A declaration's function field (a level's axiom, an anomaly's pattern),
// and how errors name it: opening + name + closing is "level 'NAME': axiom".
struct FunctionField {
  const char* kind;     // "level"
  const char* field;    // "axiom"
  const char* opening;  // "level '"
  const char* closing;  // "': axiom"
};
constexpr FunctionField kAxiom{"level", "axiom", "level '", "': axiom"};
constexpr FunctionField kPattern{"anomaly", "pattern", "anomaly '", "': pattern"};

// [-0, +1, e] Runs the function in the field `f` of the declaration `name`
// (table at index 1) on h and its framework's e; leaves the function on the
// stack.
FormulaPtr eval_field(lua_State* L, const FunctionField& f, const std::string& name,
                      const std::string& fw_name) {
  lua_getfield(L, 1, f.field);  // stack: ... fn
  if (!lua_isfunction(L, -1))
    luaL_error(L, "%s '%s': '%s' must be a function(h, e) returning a formula", f.kind, name.c_str(),
               f.field);
  const int fn = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, witness_key(fw_name).c_str());  // stack: ... fn e
  FormulaPtr formula = eval_spec_function(L, fn, lua_gettop(L), f.opening + name + f.closing, f.field);
  lua_pop(L, 1);  // stack: ... fn
  return formula;
}

// --- framework --------------------------------------------------------------------

// [-0, +1, e] The witness table `e` of framework `name` from its declaration
// `witness = { co = order(Txn), ... }` (table at `wt`): an expression per
// witness relation, in the order of their names; the declarations go to
// `out`.
void push_witness_table(lua_State* L, int wt, const std::string& name, std::vector<WitnessDecl>& out) {
  std::vector<std::string> names;
  lua_pushnil(L);  // stack: ... nil
  while (lua_next(L, wt)) {  // stack: ... key value
    if (lua_type(L, -2) != LUA_TSTRING)
      luaL_error(L, "framework '%s': witness names must be strings", name.c_str());
    names.push_back(lua_tostring(L, -2));
    check_name(L, "witness", names.back());
    lua_pop(L, 1);  // stack: ... key
  }
  std::sort(names.begin(), names.end());
  lua_newtable(L);  // stack: ... e
  const int et = lua_gettop(L);
  for (const auto& wname : names) {
    lua_getfield(L, wt, wname.c_str());  // stack: ... e box
    const WitnessBox* box = test_witness(L, -1);
    if (!box)
      luaL_error(L, "framework '%s': witness '%s' must be declared with order(S) or rel(S, ...)",
                 name.c_str(), wname.c_str());
    WitnessDecl w{wname, make_relation(wname, box->type), box->order,
                  box->order ? box->type[0] : kAnySort};
    lua_pop(L, 1);                // stack: ... e
    push_expr(L, rel(w.rel));     // stack: ... e relation
    lua_setfield(L, et, wname.c_str());
    out.push_back(std::move(w));
  }
  luaL_setmetatable(L, kStrictMeta);
}

// framework "name" { doc = ..., witness = { co = order(Txn) }, wf = function(h, e) ... end }
// stack: decl -> (e is kept in the registry for the framework's levels)
int declare_framework(lua_State* L) {
  const std::string name = declared_name(L, "framework");
  State& s = sandbox::state(L);
  if (s.framework_index.count(name)) return luaL_error(L, "framework '%s' is already declared", name.c_str());
  auto fw = std::make_unique<Framework>();
  fw->name = name;
  fw->location = sandbox::where(L, 1);
  fw->doc = opt_string_field(L, 1, "doc");

  lua_getfield(L, 1, "witness");  // stack: decl witness
  if (!lua_istable(L, -1))
    return luaL_error(L, "framework '%s': 'witness' must be a table such as { co = order(Txn) }",
                      name.c_str());
  push_witness_table(L, lua_gettop(L), name, fw->witness);  // stack: decl witness e
  const int et = lua_gettop(L);

  lua_getfield(L, 1, "wf");  // stack: decl witness e wf
  if (lua_isnil(L, -1)) {
    fw->wf = constant(true);
  } else if (lua_isfunction(L, -1)) {
    fw->wf = eval_spec_function(L, lua_gettop(L), et, "framework '" + name + "': wf", "wf");
  } else {
    return luaL_error(L, "framework '%s': 'wf' must be a function(h, e)", name.c_str());
  }
  // Remember e for the framework's levels.
  lua_pushvalue(L, et);  // stack: decl witness e wf e
  lua_setfield(L, LUA_REGISTRYINDEX, witness_key(name).c_str());

  Framework* raw = fw.get();
  s.frameworks.push_back(std::move(fw));
  s.framework_index[name] = raw;
  return 0;
}

// --- level ------------------------------------------------------------------------

// Does a characterization model the real-time orders a level mentions?
bool graph_models_real_time(GraphLevel g, model::RealTimeUse use) {
  if (!use.any()) return true;
  if (g == GraphLevel::Si) return true;
  return g == GraphLevel::Ser && !use.begin_commit;
}

// The optional field `permits = { "aborted reads", "intermediate reads" }` of
// a level table at `table`. Returns nullptr, or
// what is wrong with it (a static string). [-0, +0]
const char* read_permits(lua_State* L, int table, Level::Permits& out) {
  lua_getfield(L, table, "permits");  // stack: ... permits
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
    lua_rawgeti(L, -1, static_cast<lua_Integer>(i));  // stack: ... permits entry
    const std::string_view what = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    lua_pop(L, 1);  // stack: ... permits
    if (what == "aborted reads") out.aborted_reads = true;
    else if (what == "intermediate reads") out.intermediate_reads = true;
    else {
      lua_pop(L, 1);
      return "each entry is \"aborted reads\" or \"intermediate reads\" (a non-repeatable read "
             "is two read events, which the level's formula decides)";
    }
  }
  lua_pop(L, 1);  // stack: ...
  return nullptr;
}

// [-0, +0, e] The level's `graph` checked against its axiom. Real time in
// a graph: the SER polygraph takes rt and rt_cc as known edges (its commit
// order is a topological order of them), the SI one all three, on begin and
// commit nodes; the other characterizations do not model real time. The
// database's timestamps are read only by the characterizations that trust
// them, and those need them.
void check_graph_models_axiom(lua_State* L, const Level& lv, const std::string& graph) {
  if (!lv.graph) return;
  if (!graph_models_real_time(*lv.graph, model::real_time_use(lv.axiom)))
    luaL_error(L, "level '%s': graph = '%s' does not model the real-time order%s it "
               "mentions (\"SER\" models h.rt and h.rt_cc, \"SI\" also h.rt_bc)",
               lv.name.c_str(), graph.c_str(), *lv.graph == GraphLevel::Ser ? " h.rt_bc" : "");
  const bool trusted = trusts_timestamps(*lv.graph);
  if (trusted != model::mentions_db_timestamps(lv.axiom))
    luaL_error(L, trusted ? "level '%s': graph = '%s' decides levels that read the "
                            "database's timestamps (h.ts_vis, h.ts_ar), and this one does not"
                          : "level '%s': graph = '%s' does not read the database's "
                            "timestamps (h.ts_vis, h.ts_ar); only \"timestamps-SI\" and "
                            "\"timestamps-SER\" do",
               lv.name.c_str(), graph.c_str());
}

// The full name of the level `short_name`: "biswas.X" names its library;
// "PL-2.99" is a short name with a dot in it, prefixed like any other.
std::string level_full_name(const State& s, const std::string& short_name, const std::string& fw_name) {
  const std::string prefix = s.library.empty() ? fw_name : s.library;
  auto dot = short_name.find('.');
  bool qualified = dot != std::string::npos &&
                   (s.framework_index.count(short_name.substr(0, dot)) > 0 ||
                    short_name.substr(0, dot) == s.library);
  return qualified ? short_name : prefix + "." + short_name;
}

// level "NAME" { framework = "biswas", doc = "...", axiom = function(h, e) ... end,
//               graph = "SER",    -- optional: a graph characterization (SER, SI, RC, RA, CC)
//               permits = { "aborted reads" } }  -- optional: see Level::Permits
// stack: decl -> (the axiom is kept as levels[name])
int declare_level(lua_State* L) {
  const std::string short_name = declared_name(L, "level");
  State& s = sandbox::state(L);
  std::string fw_name;
  Framework* framework = framework_field(L, "level", short_name, "biswas", fw_name);
  const std::string name = level_full_name(s, short_name, fw_name);
  if (s.level_index.count(name)) return luaL_error(L, "level '%s' is already declared", name.c_str());

  auto lv = std::make_unique<Level>();
  lv->name = name;
  lv->location = sandbox::where(L, 1);
  lv->doc = opt_string_field(L, 1, "doc");
  lv->framework = framework;
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
  lv->axiom = eval_field(L, kAxiom, name, fw_name);  // stack: decl axiom
  const int fn = lua_gettop(L);
  check_graph_models_axiom(L, *lv, graph);
  // levels["name"] = axiom, for composition in later specs.
  lua_getfield(L, LUA_REGISTRYINDEX, kLevelsKey);  // stack: decl axiom levels
  lua_pushstring(L, name.c_str());                 // stack: decl axiom levels name
  lua_pushvalue(L, fn);                            // stack: decl axiom levels name axiom
  lua_rawset(L, -3);                               // stack: decl axiom levels
  Level* raw = lv.get();
  s.levels.push_back(std::move(lv));
  s.level_index[name] = raw;
  return 0;
}

// --- anomaly ----------------------------------------------------------------------

// An anomaly's `run_example` ("T1: ... | T2: ..."), which must parse as a
// one-line history: a Lua error otherwise.
void check_run_example(lua_State* L, const std::string& name, const std::string& run_example) {
  if (run_example.empty()) return;
  std::string bad;
  try {
    (void)parse_one_line(run_example, "run_example");
  } catch (const InputError& e) {
    bad = e.what();
  }
  if (!bad.empty()) luaL_error(L, "anomaly '%s': %s", name.c_str(), escape_text(bad).c_str());
}

// anomaly "NAME" { framework = "adya", title = "...", aka = "...", doc = "...", histories = "list-append",
//                  run_example = "T1: ... | T2: ...", pattern = function(h, e) ... end }
// A history exhibits the anomaly when every execution of the framework
// satisfies the pattern; it is stored as the level "no NAME" (the pattern
// negated), which rejects exactly those histories. That level permits
// aborted and intermediate reads (sets them aside, as Adya's PL-1 does): a
// pattern sees them through h.aborted_reads and h.intermediate_reads, and a
// history with such a read exhibits only the anomalies whose pattern holds.
// `histories = "list-append"`: the pattern needs the version orders that
// list reads reveal (G0), and synthesis searches list-append histories.
// stack: decl -> decl pattern
int declare_anomaly(lua_State* L) {
  const std::string short_name = declared_name(L, "anomaly");
  State& s = sandbox::state(L);
  std::string fw_name;
  Framework* framework = framework_field(L, "anomaly", short_name, "adya", fw_name);
  std::string name = (s.library.empty() ? fw_name : s.library) + "." + short_name;
  if (s.anomaly_index.count(name)) return luaL_error(L, "anomaly '%s' is already declared", name.c_str());
  auto an = std::make_unique<Level>();
  an->name = name;
  an->location = sandbox::where(L, 1);
  an->doc = opt_string_field(L, 1, "doc");
  an->title = opt_string_field(L, 1, "title");
  an->aka = opt_string_field(L, 1, "aka");
  an->framework = framework;
  an->permits.aborted_reads = true;
  an->permits.intermediate_reads = true;
  const std::string histories = opt_string_field(L, 1, "histories");
  if (!histories.empty() && histories != "list-append")
    return luaL_error(L, "anomaly '%s': histories = \"%s\" is not known (the one kind is \"list-append\")",
                      name.c_str(), escape_text(histories).c_str());
  an->list_reads = histories == "list-append";
  an->run_example = opt_string_field(L, 1, "run_example");
  check_run_example(L, name, an->run_example);
  an->axiom = logic::not_(eval_field(L, kPattern, name, fw_name));
  Level* raw = an.get();
  s.anomalies.push_back(std::move(an));
  s.anomaly_index[name] = raw;
  return 0;
}

// --- library, witness types, the read-only levels -------------------------------------

// `framework "name" {...}` and `level "NAME" {...}` are two calls: the first
// takes the name and returns a function of the table, with the name as upvalue.
// stack: name -> name declare
template <int (*Declare)(lua_State*)>
int named_declaration(lua_State* L) {
  luaL_checkstring(L, 1);
  lua_pushvalue(L, 1);                       // stack: name name
  lua_pushcclosure(L, guarded<Declare>, 1);  // stack: name declare
  return 1;
}

// stack: name -> name
int library_decl(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  for (const char* p = name; *p; ++p)
    if (!std::isalnum(static_cast<unsigned char>(*p)) && *p != '_')
      return luaL_error(L, "library name '%s' must be letters, digits and _", name);
  sandbox::state(L).library = name;
  return 0;
}

// order(Txn) / rel(Txn, Txn): witness relation declarations.
// stack: S1 ... Sk -> S1 ... Sk witness
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
  push_box<WitnessBox>(L, WitnessBox{std::move(t), Order});
  return 1;
}

// levels[name] of a file: the registry's, read only, so that no file can
// replace a level the files after it build on.
// stack: view name -> view name axiom
int levels_index(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kLevelsKey);  // stack: view name levels
  lua_pushvalue(L, 2);                             // stack: view name levels name
  if (lua_rawget(L, -2) != LUA_TNIL) return 1;     // stack: view name levels axiom
  const char* key = lua_tostring(L, 2);
  return luaL_error(L, "unknown level '%s' (levels are named like \"biswas.PC\")",
                    key ? escape_text(key).c_str() : "?");
}
int levels_newindex(lua_State* L) {
  return luaL_error(L, "levels is read-only: declare a level with level \"NAME\" { ... }");
}

const luaL_Reg kGlobals[] = {
    {"order", guarded<f_witness<true>>},
    {"rel", guarded<f_witness<false>>},
    {"framework", named_declaration<declare_framework>},
    {"level", named_declaration<declare_level>},
    {"library", guarded<library_decl>},
    {"anomaly", named_declaration<declare_anomaly>},
    {nullptr, nullptr}};

const luaL_Reg kWitnessMetamethods[] = {{"__gc", gc_box<WitnessBox>}, {nullptr, nullptr}};

const luaL_Reg kLevelsViewMetamethods[] = {
    {"__index", guarded<levels_index>}, {"__newindex", levels_newindex}, {nullptr, nullptr}};

}  // namespace

void open_declarations(lua_State* L) {
  new_protected_metatable(L, WitnessBox::kMeta, kWitnessMetamethods);
  lua_pushglobaltable(L);  // stack: G
  luaL_setfuncs(L, kGlobals, 0);
  lua_pop(L, 1);  // stack: (as on entry)
  lua_newtable(L);  // stack: levels
  lua_setfield(L, LUA_REGISTRYINDEX, kLevelsKey);
  new_protected_metatable(L, kLevelsViewMeta, kLevelsViewMetamethods);
  // Each file's view is its own: rawset on it (tamper.lua's
  // `rawset(levels, "biswas.SER", f)`) changes what that file reads, never a
  // level or another file's view.
  luaL_getmetatable(L, kLevelsViewMeta);  // stack: mt
  lua_pushboolean(L, 1);                  // stack: mt true
  lua_rawsetp(L, -2, &sandbox::kCopyKey);
  lua_pop(L, 1);  // stack: (as on entry)
}

std::string witness_key(const std::string& framework) { return "isosynth.e." + framework; }

}  // namespace iso::lua::api
