// The pictures and the page of `isosynth anomalies` (--dot DIR, --html DIR):
// each catalogue entry's example drawn as its own pattern (catalogue_dot),
// and the table "level x anomaly" whose every cell links to that level's
// verdict on the example: the witness when allowed, the failing axiom or
// cycle with its picture when forbidden.
#pragma once

#include <string>
#include <vector>

#include "engine/decide/decide.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso::cli {

// One entry of the catalogue as the page shows it.
struct CatalogueEntry {
  const lua::Level* anomaly;
  const History* example;                // null: none found (`timeout`: time ran out)
  const std::vector<Decision>* decisions;  // per level of the table; null without an example
  bool timeout = false;
};

// Per entry: the levels of `levels` that forbid its example, weakest first
// (those of the entry's own framework, Adya's for the shipped catalogue,
// first; among them, those forbidding fewer of the catalogue's examples
// first; then in the order given). The picture of an entry draws the first
// of them that names a cycle, whichever levels the table shows.
std::vector<std::vector<const Level*>> forbidding_weakest_first(const std::vector<CatalogueEntry>& entries,
                                                                const std::vector<const lua::Level*>& levels);

// --dot DIR: DIR/NAME.dot for each entry with an example (NAME: the entry's
// name without its library, "LongFork"); creates DIR. `picture_levels`:
// the levels the pictures may be drawn by (every level of the library that
// a synthesized example can be decided at).
void write_catalogue_dots(const std::string& dir, const std::vector<CatalogueEntry>& entries,
                          const std::vector<const lua::Level*>& picture_levels);

// --html DIR: DIR/index.html, the table over `levels`.
void write_catalogue_page(const std::string& dir, const std::vector<CatalogueEntry>& entries,
                          const std::vector<const lua::Level*>& levels,
                          const std::vector<const lua::Level*>& picture_levels, const std::string& scope);

}  // namespace iso::cli
