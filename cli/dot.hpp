// Graphviz pictures of histories: transactions as nodes, session order and
// read-from edges, and the witness edges of each allowed level.
#pragma once

#include <string>
#include <vector>

#include "cegis/oracle.hpp"
#include "engine/history/history.hpp"

namespace iso::cli {

struct LabelledWitness {
  std::string level;
  const cegis::Witness* witness;
};

std::string history_dot(const History& h, const std::vector<LabelledWitness>& witnesses);

}  // namespace iso::cli
