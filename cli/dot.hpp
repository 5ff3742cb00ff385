// Graphviz pictures of histories: transactions as nodes grouped by session,
// session order and read-from edges (from T0 too), the witness edges of each
// allowed level, and, in red, why each denied level rejects the history.
#pragma once

#include <string>
#include <vector>

#include "engine/decide/decide.hpp"
#include "engine/decide/witness.hpp"
#include "engine/history/history.hpp"

namespace iso::cli {

struct LabelledWitness {
  std::string level;
  const Witness* witness;
};

// A denied level and its decision on the history (its cycle, or its reason).
struct Denial {
  std::string level;
  const Decision* decision;
};

// `title`: a first line above the legend.
std::string history_dot(const History& h, const std::vector<LabelledWitness>& witnesses,
                        const std::vector<Denial>& denials = {}, const std::string& title = "");

// Renders `dot` as SVG into `path` with Graphviz's `dot` program; throws
// std::runtime_error naming the path when it is missing or fails.
void write_svg(const std::string& path, const std::string& dot);
// The same SVG as text, for pages that embed it (`what` names it in errors).
std::string render_svg(const std::string& dot, const std::string& what);

// A string escaped for a double-quoted DOT label or id.
std::string dot_escape(const std::string& s);

// Writes `text` to `path`; throws std::runtime_error naming the path on failure.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace iso::cli
