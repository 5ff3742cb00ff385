// Rendering of decisions for people (text) and machines (JSON): one form for
// `check`, `synth` and `compare`. Names and keys in text go through
// display_text(), so no input can forge a line; JSON holds them as they are.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/decide/decide.hpp"
#include "engine/history/history.hpp"

namespace iso::cli {

// The witness, one relation per line, indented by two spaces.
std::string witness_text(const History& h, const Witness& w);
nlohmann::json witness_json(const History& h, const Witness& w);

// "LEVEL: VERDICT[: ANOMALY]" and the lines that show why: the anomaly, the
// reason, or (with `witness`) the witness; notes last.
std::string decision_text(const History& h, const Level& level, const Decision& d, bool witness);
nlohmann::json decision_json(const History& h, const Level& level, const Decision& d, bool witness);

// JSON text that is always valid: invalid UTF-8 in strings is replaced.
std::string dump_json(const nlohmann::json& j);


}  // namespace iso::cli
