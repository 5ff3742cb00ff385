// Rendering of check results for people (text) and machines (JSON).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "cegis/oracle.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso::cli {

std::string verdict_word(cegis::Verdict v);  // "allowed", "violated", "unknown"
std::string check_result_text(const History& h, const lua::Level& level, const cegis::CheckResult& r);
nlohmann::json check_result_json(const History& h, const lua::Level& level, const cegis::CheckResult& r);
nlohmann::json witness_json(const History& h, const cegis::Witness& w);

}  // namespace iso::cli
