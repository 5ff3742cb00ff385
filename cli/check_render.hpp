// Rendering of the graph checker's results: the anomaly with its cycle, each
// edge typed, keyed and explained by the operations behind it, for people
// (text), machines (JSON) and Graphviz (DOT).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/history/history.hpp"
#include "engine/verdict/anomaly.hpp"

namespace iso::cli {

// The anomaly's name and the names other checkers give it:
// "G1a (Plume TAP-b: aborted read)", "thin-air read (Plume TAP-a)".
std::string anomaly_title(const Anomaly& a);
// Several lines, indented by two spaces, ending in a newline.
std::string anomaly_text(const History& h, const Anomaly& a);
nlohmann::json anomaly_json(const History& h, const Anomaly& a);
// An edge's label: its type and key, "rw(x)".
std::string edge_label(const History& h, const DepEdge& e);
// A picture of the cycle: its transactions with their operations, its edges
// labelled with type and key.
std::string anomaly_dot(const History& h, const Anomaly& a, const std::string& title);

}  // namespace iso::cli
