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

// What a picture leaves out or names otherwise (history_dot).
struct PictureOptions {
  // Only these transactions are drawn (T0 too when listed); empty: all.
  std::vector<TxnId> only;
  // What was left out, for the ellipsis note under the legend.
  std::string left_out;
  // The name the denials' cycles are shown under instead of the checker's:
  // a catalogue picture names its pattern ("long fork"), not the cycle.
  std::string pattern;
};

// `title`: a first line above the legend. Every picture has a legend: the
// edge kinds, their colours, and what red means.
std::string history_dot(const History& h, const std::vector<LabelledWitness>& witnesses,
                        const std::vector<Denial>& denials = {}, const std::string& title = "",
                        const PictureOptions& options = {});

// Why `level` rejects `h` (its decision `d`, with a cycle), for check --dot
// and --svg: the whole history when it fits a screen (at most
// kScreenfulTxns transactions), else only the cycle's transactions and
// their neighbours (an edge to or from them on the cycle's keys), with a
// note of what was left out.
inline constexpr std::size_t kScreenfulTxns = 30;
std::string violation_dot(const History& h, const std::string& level, const Decision& d,
                          const std::string& title);
// The same for one anomaly with a cycle (one instance of several, as
// check --all finds them).
std::string violation_dot(const History& h, const std::string& level, const Anomaly& a, const std::string& title);

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
