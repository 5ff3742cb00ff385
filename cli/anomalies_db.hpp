// `isosynth anomalies --db`: Hermitage's table computed. Every catalogue
// anomaly is run at every level the database offers, by the schedule that
// should produce its example's reads (cli/db_run.hpp), and each cell says
// what the database did; then each product level is placed among the
// formal levels whose allowed/forbidden pattern on the same examples
// matches its row.
#pragma once

#include <optional>
#include <vector>

#include "cli/commands.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso::cli {

struct CatalogueEntry {
  const lua::Level* anomaly = nullptr;
  std::optional<History> synthesized;  // the smallest example synthesis found, if any
};

// Prints the table (text, --json, --html); returns the exit code: 0 when
// every cell was run (or has no schedule), 3 on the time limit.
int run_anomalies_on_database(const AnomaliesArgs& a, const std::vector<CatalogueEntry>& entries,
                              const std::vector<const lua::Level*>& formal_levels);

}  // namespace iso::cli
