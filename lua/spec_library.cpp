// Loading spec files and the library they build (spec_library.hpp): the
// Lua state made and set up (sandbox.hpp's limits, api.hpp's libraries),
// each file run in an environment of its own under fresh limits, what stops
// it turned into one SpecError line "file:line: message" (or TimeoutError
// when the run's deadline passed), and the levels and anomalies the files
// declared looked up by name.
#include "lua/spec_library.hpp"

#include <cctype>
#include <fstream>
#include <new>
#include <sstream>

#include <fmt/format.h>

// Lua compiled as C++ (liblua5.4-c++): no extern "C", errors are exceptions.
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "engine/model/schema.hpp"
#include "engine/util/budget.hpp"
#include "lua/api.hpp"
#include "lua/embedded_specs.hpp"
#include "lua/sandbox.hpp"

namespace iso::lua {

namespace {

using namespace sandbox;

// `seconds` from now (budget::time_after: saturated); never, when it is not
// positive.
budget::Clock::time_point deadline_after(double seconds) {
  return seconds > 0 ? budget::time_after(seconds) : budget::Clock::time_point::max();
}

const char* const kPreludeName = "lua/prelude.lua";  // its name in embedded_specs()

// The environment a spec file runs in (its _ENV): its own table of globals,
// reading through to the sandbox's (the API, the libraries, the prelude's
// helpers), which it cannot write. The libraries' tables are copied, so that
// `string.rep = f` or `level = f` changes this file only, and `levels` is a
// read-only view.
// stack: chunk -> chunk (its first upvalue, _ENV, set to the new environment)
int set_file_env(lua_State* L) {
  lua_newtable(L);  // stack: chunk env
  const int env = lua_gettop(L);
  for (const char* lib : {LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME, LUA_UTF8LIBNAME}) {
    lua_newtable(L);        // stack: chunk env copy
    lua_getglobal(L, lib);  // stack: chunk env copy lib
    lua_pushnil(L);         // stack: chunk env copy lib nil
    while (lua_next(L, -2)) {  // stack: chunk env copy lib k v
      lua_pushvalue(L, -2);    // stack: chunk env copy lib k v k
      lua_insert(L, -2);       // stack: chunk env copy lib k k v
      lua_rawset(L, -5);       // stack: chunk env copy lib k
    }
    lua_pop(L, 1);  // stack: chunk env copy
    lua_setfield(L, env, lib);
  }
  lua_newtable(L);  // stack: chunk env view
  luaL_setmetatable(L, api::kLevelsViewMeta);
  lua_setfield(L, env, "levels");
  lua_pushvalue(L, env);  // stack: chunk env env
  lua_setfield(L, env, "_G");
  // The metatable counts as the file's own (kCopyKey): setmetatable and
  // rawset on _G change nothing but this file.
  lua_newtable(L);         // stack: chunk env mt
  lua_pushglobaltable(L);  // stack: chunk env mt G
  lua_setfield(L, -2, "__index");
  protect_metatable(L);
  lua_pushboolean(L, 1);  // stack: chunk env mt true
  lua_rawsetp(L, -2, &kCopyKey);
  lua_setmetatable(L, env);  // stack: chunk env
  if (!lua_setupvalue(L, 1, 1)) lua_pop(L, 1);  // stack: chunk
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
// stack: error -> error [message]
int message_handler(lua_State* L) {
  if (lua_type(L, 1) == LUA_TNUMBER) {
    lua_tostring(L, 1);
  } else if (lua_type(L, 1) != LUA_TSTRING) {
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  return 1;
}

// Builds the sandbox, protected: an error outside a protected call would
// abort the process. [-0, +0]
int set_up(lua_State* L) {
  api::register_api(L);
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
  lua_pushcfunction(L, set_up);  // stack: set_up
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) {  // stack: (empty) or error
    lua_close(L);
    state_->L = nullptr;
    throw SpecError("cannot set up the spec sandbox");
  }
  if (standard_specs) {
    load_standard(embedded_specs().size());
  } else {
    for (const auto& spec : embedded_specs())
      if (spec.name == kPreludeName) run_chunk(spec.text, std::string(spec.name), nullptr);
    standard_loaded_ = embedded_specs().size();
  }
}

SpecLibrary::SpecLibrary(Limits limits, OnDemand) : SpecLibrary(limits, false) {
  // The prelude comes first (lua/embed_specs.cmake): the files after it wait.
  standard_loaded_ = 1;
}

void SpecLibrary::load_standard(std::size_t end) const {
  const std::lock_guard<std::mutex> lock(*loading_);
  const auto& specs = embedded_specs();
  for (; standard_loaded_ < std::min(end, specs.size()); ++standard_loaded_)
    run_chunk(specs[standard_loaded_].text, std::string(specs[standard_loaded_].name), nullptr);
}

std::size_t SpecLibrary::standard_end(std::string_view level_name) const {
  const auto& specs = embedded_specs();
  const auto dot = level_name.find('.');
  const std::string file =
      "specs/" + std::string(dot == std::string_view::npos ? "biswas" : level_name.substr(0, dot)) + ".lua";
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (specs[i].name == file) return i + 1;
  return specs.size();
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
  // A user's file may use any standard level (levels["..."]).
  load_standard(embedded_specs().size());
  run_chunk(text, chunk_name, nullptr);
}

void SpecLibrary::run_chunk(std::string_view text, const std::string& chunk_name, int (*call)(lua_State*)) const {
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
  lua_pushcfunction(L, message_handler);  // stack: handler
  const int handler = lua_gettop(L);
  // Text only ("t"): a precompiled binary chunk could crash the VM.
  // stack: handler chunk, or handler error
  int rc = luaL_loadbufferx(L, text.data(), text.size(), ("@" + chunk_name).c_str(), "t");
  // Every file but the prelude (whose helpers every file sees) in an
  // environment of its own.
  if (rc == LUA_OK && chunk_name != kPreludeName) {
    lua_pushcfunction(L, set_file_env);  // stack: handler chunk set_file_env
    lua_pushvalue(L, -2);                // stack: handler chunk set_file_env chunk
    rc = lua_pcall(L, 1, 0, handler);    // stack: handler chunk, or handler chunk error
  }
  if (rc == LUA_OK && call) {
    lua_pushcfunction(L, call);  // stack: handler chunk call
    lua_insert(L, -2);           // stack: handler call chunk
    rc = lua_pcall(L, 1, 0, handler);  // stack: handler, or handler error
  } else if (rc == LUA_OK) {
    rc = lua_pcall(L, 0, 0, handler);  // stack: handler, or handler error
  }
  if (rc != LUA_OK) {
    std::string msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "unknown error";
    if (rc == LUA_ERRMEM)
      msg = (s.block_too_big && !s.block_at.empty() ? s.block_at : chunk_name) + ": " + s.memory_message();
    if (s.stopped()) msg = s.fatal;  // what stopped it, whatever came after
    lua_settop(L, handler - 1);      // stack: (as on entry)
    if (s.timeout) throw TimeoutError();
    if (msg.rfind(chunk_name, 0) != 0) msg = chunk_name + ": " + msg;
    throw SpecError(one_line(msg));
  }
  lua_settop(L, handler - 1);  // stack: (as on entry)
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
  load_standard(standard_end(full));
  if (auto it = idx.find(full); it != idx.end()) return *it->second;
  load_standard(embedded_specs().size());  // a case-insensitive match, or the hint, may be anywhere
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
  load_standard(embedded_specs().size());
  std::vector<const Level*> out;
  for (const auto& l : state_->levels) out.push_back(l.get());
  return out;
}

std::vector<const Level*> SpecLibrary::anomalies() const {
  load_standard(embedded_specs().size());
  std::vector<const Level*> out;
  for (const auto& l : state_->anomalies) out.push_back(l.get());
  return out;
}

bool SpecLibrary::is_anomaly(const Level* l) const {
  for (const auto& a : state_->anomalies)
    if (a.get() == l) return true;
  return false;
}

const Level& SpecLibrary::anomaly(std::string_view name) const {
  load_standard(embedded_specs().size());
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
