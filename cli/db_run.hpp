// Running histories on a real database and saying what happened, for
// `isosynth run`, `anomalies --db` and `predict --validate`: schedules from
// db/schedule.hpp, tried in turn on db/runner.hpp, each recorded run decided
// against the targets (catalogue anomalies or levels) with decide().
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "db/connection.hpp"
#include "db/runner.hpp"
#include "db/schedule.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso::cli {

// What a run on the database showed, for the whole of its attempts.
enum class RunVerdict {
  Exhibited,            // a recorded run exhibits a target (an anomaly, or violates a level)
  PreventedByAbort,     // none did; the database aborted a transaction in some attempt
  PreventedByBlocking,  // none did, none aborted; some statement waited on a lock
  Diverged,             // none of these: the database returned other values
  Reproduced,           // no targets, and a recorded run is the history itself
  Unrealizable,         // no schedule realizes the history: nothing was run
};
// "exhibited", "prevented by abort", "prevented by blocking", "diverged",
// "reproduced", "no schedule".
const char* run_verdict_word(RunVerdict v);

// The database named by --db: "sqlite:" alone is a temporary file, created
// here and removed when this goes away.
class Database {
 public:
  explicit Database(std::string url);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  const std::string& url() const { return url_; }
  // The product's version string and the levels it offers (one connection).
  const std::string& product() const { return product_; }
  const std::vector<db::ProductLevel>& levels() const { return levels_; }
  // `requested` (empty: every level the database offers), each checked to
  // be offered: DbError naming the database otherwise.
  std::vector<db::ProductLevel> choose(const std::vector<std::string>& requested) const;

 private:
  std::string url_;
  std::string temporary_;  // the SQLite file to remove, or ""
  std::string product_;
  std::vector<db::ProductLevel> levels_;
};

struct RunSettings {
  double statement_timeout = 5;
  double blocked_after = 0.25;
  std::size_t attempts = 4;  // schedules tried at most
};
// The settings --statement-timeout, --blocked-after and --attempts give.
RunSettings run_settings(const DbArgs& a);

struct Attempt {
  db::Schedule schedule;
  db::RunRecord record;
  std::vector<std::string> differences;  // db::differences
  std::vector<const lua::Level*> exhibits;  // the targets the recorded run exhibits or violates
  RunVerdict verdict = RunVerdict::Diverged;
};

struct RunReport {
  db::ProductLevel level{};
  RunVerdict verdict = RunVerdict::Unrealizable;
  std::vector<Attempt> attempts;
  bool search_complete = true;  // Unrealizable: proved (true) or the search's budget ran out
};

// The schedules to try: the one `schedule_text` gives (`--schedule`: the
// transactions' names in the order of their statements, "T1 T2 T1 ..."),
// or those db::find_schedules finds. Throws InputError for a schedule that
// does not cover the history.
db::ScheduleSearch schedules_for(const History& h, const std::string& schedule_text, std::size_t attempts);

// Runs `h` at `level` by the schedules in turn until a recorded run
// exhibits a target (or, without targets, reproduces the history).
RunReport run_on_database(const Database& db, db::ProductLevel level, const History& h,
                          const db::ScheduleSearch& schedules, const std::vector<const lua::Level*>& targets,
                          const RunSettings& settings);

// The picture of the last recorded run: the history the database returned,
// and in red why each target it exhibits rejects it. Empty when nothing ran.
std::string recorded_run_dot(const RunReport& r);

// Text lines for people (indented under a heading the caller prints) and
// JSON for machines.
std::vector<std::string> describe(const History& h, const RunReport& r);
nlohmann::json report_json(const History& h, const RunReport& r);

}  // namespace iso::cli
