// isosynth run: a history executed on a real database, one connection per
// session, by the schedule under which a database would return exactly its
// reads; what the database did is recorded and decided against the
// history's anomalies (cli/db_run.hpp).
#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/db_run.hpp"
#include "cli/dot.hpp"
#include "cli/level_choice.hpp"
#include "cli/render.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/input_error.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"

namespace iso::cli {

namespace {

// What a recorded run must show to count as exhibiting the history's
// anomaly: the anomalies and levels named, else the catalogue anomalies the
// history exhibits, else the default levels it violates.
std::vector<const lua::Level*> choose_targets(const lua::SpecLibrary& lib, const History& h, const RunArgs& a) {
  std::vector<const lua::Level*> out;
  for (const auto& n : a.exhibit) out.push_back(&lib.anomaly(n));
  for (const auto& n : a.deny) out.push_back(&lib.level(n));
  if (!out.empty()) return out;
  out = violated_levels(h, lib.anomalies());
  if (!out.empty()) return out;
  return violated_levels(h, choose_levels(lib, {}).levels);
}

// The picture of the last level's last recorded run.
void write_picture(const RunArgs& a, const RunReport& r) {
  if ((a.dot.empty() && a.svg.empty()) || r.attempts.empty()) return;
  const std::string dot = recorded_run_dot(r);
  if (!a.dot.empty()) write_text_file(a.dot, dot);
  if (!a.svg.empty()) write_svg(a.svg, dot);
}

}  // namespace

int run_run(const RunArgs& a) {
  double read_seconds = 0;
  const History h = load(a.file, a.input, read_seconds).history;
  if (auto why = db::unsupported(h)) throw InputError(fmt::format("{}: {}", a.file, *why));
  lua::SpecLibrary lib;
  for (const auto& spec : a.specs) lib.load_file(spec);
  const std::vector<const lua::Level*> targets = choose_targets(lib, h, a);
  const db::ScheduleSearch schedules = schedules_for(h, a.schedule, a.attempts);
  const Database database(a.db);
  const std::vector<db::ProductLevel> levels = database.choose(a.db_levels);
  const RunSettings settings = run_settings(a);

  std::vector<RunReport> reports;
  const auto start = std::chrono::steady_clock::now();
  for (db::ProductLevel l : levels) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(1))
      fmt::print(stderr, "run: at {}\n", db::level_name(l));
    reports.push_back(run_on_database(database, l, h, schedules, targets, settings));
  }
  if (a.json) {
    nlohmann::json runs = nlohmann::json::array();
    for (const RunReport& r : reports) runs.push_back(report_json(h, r));
    std::vector<std::string> names;
    for (const auto* t : targets) names.push_back(t->name);
    fmt::print("{}\n", dump_json(nlohmann::json{{"database", db::redact_url(database.url())},
                                                 {"product", database.product()},
                                                 {"history", write_native_json(h)},
                                                 {"targets", names},
                                                 {"runs", std::move(runs)}}));
  } else {
    fmt::print("history: {}\n", history_one_line(h));
    std::vector<std::string> names;
    for (const auto* t : targets) names.push_back(t->name);
    fmt::print("targets: {}\n", names.empty() ? "none (the run should reproduce the history)" : fmt::format("{}", fmt::join(names, ", ")));
    fmt::print("database: {} ({})\n", escape_text(database.product()), escape_text(db::redact_url(database.url())));
    for (const RunReport& r : reports) {
      fmt::print("\n{}: {}\n", db::level_name(r.level), run_verdict_word(r.verdict));
      for (const std::string& line : describe(h, r)) fmt::print("  {}\n", line);
    }
  }
  if (!reports.empty()) write_picture(a, reports.back());
  const bool all = std::all_of(reports.begin(), reports.end(), [](const RunReport& r) {
    return r.verdict == RunVerdict::Exhibited || r.verdict == RunVerdict::Reproduced;
  });
  return all ? kExitOk : kExitNo;
}

}  // namespace iso::cli
