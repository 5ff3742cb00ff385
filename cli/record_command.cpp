// isosynth record --db URL --db-level L --workload W ...: a random workload
// (db/workload.hpp) run by concurrent sessions on a real database and
// recorded (db/recorder.hpp) as a native history, written to a file, and
// with --check decided as `check` decides a history (check_history).
#include <unistd.h>

#include <algorithm>
#include <stdexcept>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/dot.hpp"
#include "cli/level_choice.hpp"
#include "cli/render.hpp"
#include "cli/db_run.hpp"
#include "db/connection.hpp"
#include "db/recorder.hpp"
#include "engine/history/json_format.hpp"
#include "engine/util/budget.hpp"

namespace iso::cli {

namespace {

// A connection that offers the level asked for; else one line naming the
// database and the levels it offers.
std::unique_ptr<db::Connection> connect_at(const RecordArgs& a, const std::string& url, db::ProductLevel level) {
  // No statement outlasts the run's --timeout by much: a session waiting on
  // a lock when time runs out would hold up the end of the run.
  auto c = db::connect(url, std::min(a.statement_timeout, std::max(budget::remaining_seconds(), 0.001)));
  const auto offered = c->levels();
  if (std::find(offered.begin(), offered.end(), level) == offered.end()) {
    std::vector<std::string> names;
    for (auto l : offered) names.push_back(db::level_name(l));
    throw db::DbError(fmt::format("{}: {} does not offer {} (it offers {})", c->url(), c->product(),
                                  db::level_name(level), fmt::join(names, ", ")));
  }
  return c;
}

// "40001: 12, timeout: 1".
std::string abort_counts(const db::Recording& r) {
  std::vector<std::string> parts;
  for (const auto& [reason, n] : r.aborts) parts.push_back(fmt::format("{}: {}", reason, n));
  return fmt::format("{}", fmt::join(parts, ", "));
}

double throughput(const db::Recording& r, std::size_t txns) {
  return r.seconds > 0 ? static_cast<double>(txns) / r.seconds : 0;
}

// The progress, about once a second: a bar, the count, the rate. On a
// terminal the bar is redrawn in place (and its line ended when the
// recording ends, however it ends); elsewhere (a log) one line each time.
class Progress {
 public:
  explicit Progress(std::size_t total) : total_(total), tty_(isatty(fileno(stderr)) != 0) {}
  ~Progress() { end(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void show(std::size_t done, std::size_t aborted) {
    constexpr std::size_t kWidth = 20;
    const double seconds = std::chrono::duration<double>(budget::Clock::now() - start_).count();
    const std::size_t filled = total_ ? done * kWidth / total_ : kWidth;
    fmt::print(stderr, "{}recording [{}{}] {}/{} transactions, {} aborted, {:.0f} txn/s{}", tty_ ? "\r" : "",
               std::string(filled, '#'), std::string(kWidth - filled, '.'), done, total_, aborted,
               seconds > 0 ? static_cast<double>(done) / seconds : 0, tty_ ? "" : "\n");
    open_ = tty_;
  }
  void end() {
    if (open_) fmt::print(stderr, "\n");
    open_ = false;
  }

 private:
  std::size_t total_;
  bool tty_;
  bool open_ = false;  // a bar is on the terminal's current line
  budget::Clock::time_point start_ = budget::Clock::now();
};

// The history's file can be written: checked before the run, so that a
// recording is not lost to a typo in -o. Nothing is created yet: a failed
// run leaves no file behind.
void check_writable(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  const char* why = nullptr;
  if (!fs::is_directory(dir, ec))
    why = "no such directory";
  else if (fs::is_directory(p, ec))
    why = "is a directory";
  else if (::access(fs::exists(p, ec) ? p.c_str() : dir.c_str(), W_OK) != 0)
    why = "permission denied";
  if (why) throw std::runtime_error(fmt::format("{}: cannot write the history: {}", display_text(path), why));
}

nlohmann::json summary_json(const RecordArgs& a, const db::RecordOptions& o, const db::Recording& r) {
  nlohmann::json aborts = nlohmann::json::object();
  for (const auto& [reason, n] : r.aborts) aborts[reason] = n;
  return {{"database", r.product},
          {"url", r.url},
          {"level", db::level_name(o.level)},
          {"workload", db::workload_name(o.kind)},
          {"sessions", a.sessions},
          {"keys", a.keys},
          {"seed", a.seed},
          {"transactions", a.txns},
          {"committed", r.committed},
          {"aborted", r.aborted},
          {"aborts", aborts},
          {"seconds", r.seconds},
          {"throughput", throughput(r, a.txns)},
          {"history", a.output}};
}

}  // namespace

int run_record(const RecordArgs& a) {
  // Every level name resolved before anything runs.
  lua::SpecLibrary lib;
  std::optional<LevelChoice> choice;
  // --check with no level leaves an empty name: check's default set.
  std::vector<std::string> levels;
  for (const auto& l : a.levels)
    if (!l.empty()) levels.push_back(l);
  if (a.check) choice = choose_levels(lib, levels);
  // Both names were checked by the options' validators.
  const auto level = db::parse_level(a.level);
  const auto kind = db::parse_workload(a.workload);
  if (!level || !kind) throw std::invalid_argument(fmt::format("unknown level {} or workload {}", a.level, a.workload));

  check_writable(a.output);

  db::WorkloadOptions w;
  w.kind = *kind;
  w.keys = a.keys;
  w.max_ops = a.ops;
  w.skew = a.skew;
  w.seed = a.seed;
  const auto plan = db::generate_workload(w, a.txns);

  db::RecordOptions o;
  o.sessions = a.sessions;
  o.level = *level;
  o.kind = *kind;
  o.keys = a.keys;
  // "sqlite:" alone: a temporary file, removed at the end.
  const Database database(a.db);
  db::Recording r;
  {
    Progress progress(a.txns);
    o.progress = [&](std::size_t done, std::size_t aborted) { progress.show(done, aborted); };
    r = db::record([&] { return connect_at(a, database.url(), *level); }, plan, o);
  }

  // The history first: whatever the check says, the run is kept, with how
  // it was made (readers ignore the field).
  nlohmann::json doc = summary_json(a, o, r);
  nlohmann::json file = write_native_json(r.history);
  file["recorded"] = doc;
  write_text_file(a.output, dump_json(file) + "\n");

  if (!a.json) {
    fmt::print("{}, {}: {} transactions of {} in {} sessions over {} keys (seed {})\n", r.product,
               db::level_name(o.level), a.txns, db::workload_name(o.kind), a.sessions, a.keys, a.seed);
    fmt::print("{} committed, {} aborted{} in {:.2f} s: {:.0f} txn/s\n", r.committed, r.aborted,
               r.aborted ? fmt::format(" ({})", abort_counts(r)) : "", r.seconds, throughput(r, a.txns));
    fmt::print("history: {}\n", display_text(a.output));
  }
  int code = kExitOk;
  if (choice) {
    CheckArgs c;
    c.file = a.output;
    c.levels = levels;
    c.json = a.json;
    ReadResult loaded;
    loaded.history = std::move(r.history);
    nlohmann::json check_doc;
    code = check_history(c, lib, std::move(*choice), loaded, 0, &check_doc);
    if (a.json) doc["check"] = std::move(check_doc);
  }
  if (a.json) fmt::print("{}\n", dump_json(doc));
  return code;
}

}  // namespace iso::cli
