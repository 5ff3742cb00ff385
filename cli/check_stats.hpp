// check --stats: the time of each phase of deciding a level and the sizes it
// worked on, on stderr and in JSON. A level whose time ran out shows what
// was measured until then: the phases that completed, with their times.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/decide/decide.hpp"

namespace iso::cli {

// `parse_seconds`: reading the history; `decide_seconds`: decide() for this
// level, all phases and what lies between them.
void print_stats(const Level& level, const Decision& d, double parse_seconds, double decide_seconds);
nlohmann::json stats_json(const Decision& d, double parse_seconds, double decide_seconds);

}  // namespace iso::cli
