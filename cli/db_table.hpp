// `isosynth anomalies --db` and `hierarchy --db`: Hermitage's table
// computed. Every probe (a catalogue anomaly's example, or a history that
// separates two formal levels) is run at every level the database offers,
// by the schedule that should produce its reads (cli/db_run.hpp), and each
// cell says what the database did; then each product level is placed among
// the formal levels whose allowed/forbidden pattern on the same histories
// matches its row.
#pragma once

#include <optional>
#include <vector>

#include "cli/commands.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso::cli {

// One column of the table: a history to run and what its recorded run must
// show.
struct Probe {
  std::string label;  // "write skew", "biswas.SER / biswas.SI"
  std::string doc;    // a sentence for the page
  // The target: a recorded run "exhibits" when this level (an anomaly, or
  // a formal level) rejects it.
  const lua::Level* target = nullptr;
  std::optional<History> synthesized;  // the smallest example synthesis found, if any
  std::string run_example;             // a declared example (one-line notation), if any
  std::string column;                  // the table's column heading ("LF"); empty: its number
};

struct TableOutput {
  bool json = false;
  std::string html;  // a folder, or ""
  std::string what = "anomaly";  // what a probe is, for headings
};

// Prints the table; returns the exit code (0).
int run_probes_on_database(const DbArgs& db, const TableOutput& out, const std::vector<Probe>& probes,
                           const std::vector<const lua::Level*>& formal_levels);

}  // namespace iso::cli
