// Rendering of the graph checker's results: the anomaly with its cycle, each
// edge typed, keyed and explained by the operations behind it, for people
// (text), machines (JSON) and Graphviz (DOT).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/history/history.hpp"
#include "engine/polygraph/all_anomalies.hpp"
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

// check --all: every class of a level's violation, its count and its
// instances (anomaly_text each), indented by two spaces.
std::string classes_text(const History& h, const std::vector<poly::AnomalyClass>& classes, std::size_t limit);
// {"limit", "classes": [{"name", "source", "count", "incomplete", "instances": [anomaly_json]}]}.
nlohmann::json classes_json(const History& h, const std::vector<poly::AnomalyClass>& classes, std::size_t limit);
// One picture per instance into the folder `dir` (created if need be), named
// LEVEL-CLASS-N.dot (.svg with `svg`); the paths written.
std::vector<std::string> write_class_pictures(const std::string& dir, bool svg, const History& h,
                                              const std::string& level,
                                              const std::vector<poly::AnomalyClass>& classes);

}  // namespace iso::cli
