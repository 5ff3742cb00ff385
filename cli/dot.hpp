// Graphviz pictures of histories: transactions as nodes, session order and
// read-from edges, and the witness edges of each allowed level.
#pragma once

#include <string>
#include <vector>

#include "engine/decide/witness.hpp"
#include "engine/history/history.hpp"

namespace iso::cli {

struct LabelledWitness {
  std::string level;
  const Witness* witness;
};

std::string history_dot(const History& h, const std::vector<LabelledWitness>& witnesses);

// A string escaped for a double-quoted DOT label or id.
std::string dot_escape(const std::string& s);

// Writes `text` to `path`; throws std::runtime_error naming the path on failure.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace iso::cli
