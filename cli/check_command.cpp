// isosynth check FILE --level L...: the verdict of each level, with a witness
// when allowed and the reason when denied.
#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cegis/oracle.hpp"
#include "cli/commands.hpp"
#include "cli/render.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"

namespace iso::cli {

int run_check(const CheckArgs& a) {
  History h = read_native_json_file(a.file);
  lua::SpecLibrary lib;
  for (const auto& spec : a.specs) lib.load_file(spec);
  std::vector<const lua::Level*> levels;
  for (const auto& name : a.levels) levels.push_back(&lib.level(name));  // all names first

  cegis::CheckOptions opt;
  opt.timeout_seconds = a.timeout;
  nlohmann::json out = nlohmann::json::array();
  bool any_denied = false, any_unknown = false;
  if (!a.json) fmt::print("{}\n", format_history(h));
  for (const lua::Level* level : levels) {
    cegis::CheckResult r = cegis::check(h, *level, opt);
    any_denied |= r.verdict == cegis::Verdict::Denied;
    any_unknown |= r.verdict == cegis::Verdict::Unknown;
    if (a.json) {
      out.push_back(check_result_json(h, *level, r));
    } else {
      fmt::print("{}", check_result_text(h, *level, r));
    }
    if (a.stats)
      fmt::print(stderr, "{}: translate {:.3f} s, solve {:.3f} s, {} gates, {} vars, {} clauses\n",
                 level->name, r.stats.translate_seconds, r.stats.solve_seconds, r.stats.gates,
                 r.stats.sat_vars, r.stats.sat_clauses);
  }
  if (a.json) fmt::print("{}\n", nlohmann::json{{"history", a.file}, {"results", out}}.dump(2));
  if (any_denied) return kExitNo;
  if (any_unknown) return kExitTimeout;
  return kExitOk;
}

int run_levels(const LevelsArgs& a) {
  lua::SpecLibrary lib;
  for (const auto& spec : a.specs) lib.load_file(spec);
  if (a.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const lua::Level* l : lib.levels())
      out.push_back({{"name", l->name}, {"framework", l->framework->name}, {"doc", l->doc},
                     {"defined_at", l->location}});
    fmt::print("{}\n", out.dump(2));
    return kExitOk;
  }
  std::string current;
  for (const lua::Level* l : lib.levels()) {
    std::string group = l->name.substr(0, l->name.find('.'));
    if (group != current) {
      current = group;
      fmt::print("{}:\n", group);
    }
    fmt::print("  {:<18} {}\n", l->name, l->doc);
  }
  fmt::print("\nBare names mean the biswas definition: SER = biswas.SER.\n");
  return kExitOk;
}

int run_show(const ShowArgs& a) {
  History h = read_native_json_file(a.file);
  if (a.json) {
    fmt::print("{}\n", write_native_json(h).dump(2));
  } else {
    fmt::print("{}\n", format_history(h));
  }
  return kExitOk;
}

}  // namespace iso::cli
