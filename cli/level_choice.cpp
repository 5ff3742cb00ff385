// The levels check decides (level_choice.hpp), and the refused ones said
// in one line.
#include "cli/level_choice.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace iso::cli {

namespace {

// The default set, weakest first. PC is left out: the generic oracle decides
// it, up to 48 transactions, and a default that does not apply to most
// recorded histories would only add a line saying so.
constexpr std::string_view kDefaultLevels[] = {"biswas.RC", "biswas.RA", "biswas.CC", "biswas.SI",
                                               "biswas.SER"};

void add_once(std::vector<const Level*>& levels, const Level* l) {
  if (std::find(levels.begin(), levels.end(), l) == levels.end()) levels.push_back(l);
}

// A refusal names its level first ("level X reads ..."; "level X: ..."):
// grouped under the names, the rest is said once.
std::string without_level_name(const Level& level, const std::string& reason) {
  for (const std::string& prefix : {"level " + level.name + ": ", "level " + level.name + " "})
    if (reason.starts_with(prefix)) return reason.substr(prefix.size());
  return reason;
}

}  // namespace

std::string_view level_set_name(LevelSet s) {
  return s == LevelSet::All ? "all" : s == LevelSet::Default ? "default" : "named";
}

LevelChoice choose_levels(const lua::SpecLibrary& lib, const std::vector<std::string>& names) {
  LevelChoice c;
  if (names.empty()) {
    c.set = LevelSet::Default;
    for (std::string_view n : kDefaultLevels) c.levels.push_back(&lib.level(n));
    return c;
  }
  for (const std::string& n : names) {
    if (n != "all") {
      add_once(c.levels, &lib.level(n));
      continue;
    }
    c.set = LevelSet::All;
    for (const Level* l : lib.levels()) add_once(c.levels, l);
  }
  return c;
}

bool has_real_time(const History& h) {
  return std::any_of(h.txns().begin() + 1, h.txns().end(),
                     [](const Transaction& t) { return t.begin && t.commit; });
}

std::string grouped_reasons(const std::vector<LevelOutcome>& outcomes) {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // reason, levels
  for (const LevelOutcome& o : outcomes) {
    if (o.refused.empty()) continue;
    std::string reason = without_level_name(*o.level, o.refused);
    auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == reason; });
    if (g == groups.end()) g = groups.insert(groups.end(), {std::move(reason), {}});
    g->second.push_back(display_text(o.level->name));
  }
  std::string out;
  for (const auto& [reason, levels] : groups)
    out += fmt::format("{}{}: {}", out.empty() ? "" : "; ", fmt::join(levels, ", "), reason);
  return out;
}

std::string none_decided(const std::vector<LevelOutcome>& outcomes) {
  if (outcomes.size() == 1) return outcomes.front().refused;
  return "no level can be decided on this history: " + grouped_reasons(outcomes);
}

}  // namespace iso::cli
