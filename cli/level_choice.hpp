// Which levels `check` decides: the ones named with -l, every level of the
// library (`-l all`), or, without -l, a default set; and how the levels that
// cannot be decided on a history are said in one line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/decide/decide.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso::cli {

enum class LevelSet { Named, All, Default };
// "named", "all", "default" (check --json's "levels").
std::string_view level_set_name(LevelSet s);

struct LevelChoice {
  LevelSet set = LevelSet::Named;
  std::vector<const Level*> levels;  // each once, in the order named
};

// The levels of `names` (-l, repeatable; `all` is every level of `lib`);
// without names, the default set: biswas RC, RA, CC, SI and SER, every one
// decided by a graph checker, so that it scales to any history.
// Throws on an unknown name, as SpecLibrary::level does.
LevelChoice choose_levels(const lua::SpecLibrary& lib, const std::vector<std::string>& names);

// The default set adds biswas.StrictSER when the history has real time:
// some transaction with both a begin and a commit timestamp.
bool has_real_time(const History& h);

// A level, its decision, and why it could not be decided (empty: decided).
struct LevelOutcome {
  const Level* level = nullptr;
  Decision decision;
  std::string refused;
};

// The refused levels of `outcomes` in one line, those with the same reason
// together: "cerone.TimestampSI, cerone.TimestampSER: reads the database's
// start and commit timestamps, ...; biswas.PC: has no graph ...".
std::string grouped_reasons(const std::vector<LevelOutcome>& outcomes);

// The one-line error when no level could be decided: the refusal itself for
// one level, else "no level can be decided on this history: " and the
// grouped reasons.
std::string none_decided(const std::vector<LevelOutcome>& outcomes);

}  // namespace iso::cli
