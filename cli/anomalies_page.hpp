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

// The levels of the table that forbid entry `k`'s example, weakest first:
// those of the entry's own framework (Adya's, for the shipped catalogue)
// first; among them, those forbidding fewer of the catalogue's examples
// first, then in the table's order.
std::vector<const Level*> forbidding_weakest_first(const std::vector<CatalogueEntry>& entries, std::size_t k,
                                                   const std::vector<const lua::Level*>& levels);

// --dot DIR: DIR/NAME.dot for each entry with an example (NAME: the entry's
// name without its library, "LongFork"); creates DIR.
void write_catalogue_dots(const std::string& dir, const std::vector<CatalogueEntry>& entries,
                          const std::vector<const lua::Level*>& levels);

// --html DIR: DIR/index.html.
void write_catalogue_page(const std::string& dir, const std::vector<CatalogueEntry>& entries,
                          const std::vector<const lua::Level*>& levels, const std::string& scope);

}  // namespace iso::cli
