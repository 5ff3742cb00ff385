// Histories run on a database and judged (db_run.hpp): the schedules tried,
// the recorded runs decided, the verdict per level, as text and JSON.
#include "cli/db_run.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/dot.hpp"
#include "cli/json_fields.hpp"
#include "cli/render.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/input_error.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"

namespace iso::cli {

const char* run_verdict_word(RunVerdict v) {
  switch (v) {
    case RunVerdict::Exhibited: return "exhibited";
    case RunVerdict::PreventedByAbort: return "prevented by abort";
    case RunVerdict::PreventedByBlocking: return "prevented by blocking";
    case RunVerdict::Diverged: return "diverged";
    case RunVerdict::Reproduced: return "reproduced";
    case RunVerdict::Unrealizable: return "no schedule";
  }
  return "?";
}

namespace {

// A new empty file for "sqlite:", in $TMPDIR or /tmp.
std::string temporary_sqlite_file() {
  const char* dir = std::getenv("TMPDIR");
  std::string path = fmt::format("{}/isosynth-XXXXXX", dir && *dir ? dir : "/tmp");
  const int fd = ::mkstemp(path.data());
  if (fd < 0) throw db::DbError(fmt::format("sqlite: cannot create a temporary database file in {}", path));
  ::close(fd);
  return path;
}

}  // namespace

Database::Database(std::string url) : url_(std::move(url)) {
  if (url_ == "sqlite:") {
    temporary_ = temporary_sqlite_file();
    url_ = "sqlite:" + temporary_;
  }
  const auto c = db::connect(url_, 10);
  product_ = c->product();
  levels_ = c->levels();
}

Database::~Database() {
  if (temporary_.empty()) return;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::remove((temporary_ + suffix).c_str());
}

std::vector<db::ProductLevel> Database::choose(const std::vector<std::string>& requested) const {
  if (requested.empty()) return levels_;
  std::vector<db::ProductLevel> out;
  for (const std::string& name : requested) {
    const auto l = db::parse_level(name);
    if (!l) throw db::DbError(fmt::format("unknown isolation level \"{}\"", name));
    if (std::find(levels_.begin(), levels_.end(), *l) == levels_.end()) {
      std::vector<std::string> offered;
      for (auto x : levels_) offered.push_back(db::level_name(x));
      throw db::DbError(fmt::format("{}: {} does not offer {} (it offers: {})", db::redact_url(url_), product_,
                                    db::level_name(*l), fmt::join(offered, ", ")));
    }
    if (std::find(out.begin(), out.end(), *l) == out.end()) out.push_back(*l);
  }
  return out;
}

RunSettings run_settings(const DbArgs& a) {
  RunSettings s;
  s.statement_timeout = a.statement_timeout;
  s.blocked_after = a.blocked_after;
  s.attempts = a.attempts;
  return s;
}

db::ScheduleSearch schedules_for(const History& h, const std::string& schedule_text, std::size_t attempts) {
  if (schedule_text.empty()) {
    // Schedules of every read model, a few each: each level tries those of
    // its own model first (run_on_database).
    db::ScheduleOptions opt;
    opt.max_schedules = 3 * attempts;
    opt.max_per_pass = std::max<std::size_t>(1, attempts / 2);
    return db::find_schedules(h, opt);
  }
  // The user's order: each name is the next statement of that transaction
  // (its operations in program order, then its commit, or its rollback
  // when the history says it aborted).
  db::Schedule s;
  s.model = db::ReadModel::Committed;
  s.models = {db::ReadModel::Snapshot, db::ReadModel::Committed, db::ReadModel::Uncommitted};
  std::vector<std::uint32_t> next(h.num_txns(), 0);
  std::istringstream in(schedule_text);
  std::string name;
  const auto fail = [](const std::string& what) { throw InputError("--schedule: " + what); };
  while (in >> name) {
    const auto t = h.find_txn(name);
    if (!t || *t == kInitTxn) fail(fmt::format("no transaction {} in the history", display_text(name)));
    const Transaction& txn = h.txn(*t);
    if (next[*t] > txn.ops.size()) fail(fmt::format("{} has only {} statements", display_text(name), txn.ops.size() + 1));
    if (next[*t] == 0 && txn.position > 0) {
      const TxnId before = h.sessions()[txn.session][txn.position - 1];
      if (next[before] <= h.txn(before).ops.size())
        fail(fmt::format("{} starts before {}, earlier in its session, ends", display_text(name), h.txn_name(before)));
    }
    db::Step step{*t, db::Step::Kind::Op, next[*t]};
    if (next[*t] == txn.ops.size())
      step.kind = txn.status == TxnStatus::Aborted ? db::Step::Kind::Abort : db::Step::Kind::Commit;
    s.steps.push_back(step);
    ++next[*t];
  }
  for (TxnId t = 1; t < h.num_txns(); ++t)
    if (next[t] != h.txn(t).ops.size() + 1)
      fail(fmt::format("{} has {} statements (its operations and its end), the schedule names it {} times",
                       h.txn_name(t), h.txn(t).ops.size() + 1, next[t]));
  return db::ScheduleSearch{{std::move(s)}, true};
}

namespace {

// How a database at `level` reads, as far as its name says: read
// uncommitted sees uncommitted writes, read committed the latest committed
// ones, repeatable read and serializable a snapshot (PostgreSQL, MariaDB's
// consistent reads, SQLite).
db::ReadModel model_of(db::ProductLevel level) {
  switch (level) {
    case db::ProductLevel::ReadUncommitted: return db::ReadModel::Uncommitted;
    case db::ProductLevel::ReadCommitted: return db::ReadModel::Committed;
    default: return db::ReadModel::Snapshot;
  }
}

// The schedules of the level's own read model first, each group in the
// search's order.
std::vector<db::Schedule> ordered_for(db::ProductLevel level, const std::vector<db::Schedule>& all) {
  std::vector<db::Schedule> out = all;
  std::stable_partition(out.begin(), out.end(), [m = model_of(level)](const db::Schedule& s) {
    return std::find(s.models.begin(), s.models.end(), m) != s.models.end();
  });
  return out;
}

RunVerdict attempt_verdict(const Attempt& a, bool has_targets) {
  if (has_targets && !a.exhibits.empty()) return RunVerdict::Exhibited;
  if (!has_targets && a.differences.empty()) return RunVerdict::Reproduced;
  if (a.record.any_aborted_by_database()) return RunVerdict::PreventedByAbort;
  if (a.record.any_blocked()) return RunVerdict::PreventedByBlocking;
  return RunVerdict::Diverged;
}

}  // namespace

RunReport run_on_database(const Database& database, db::ProductLevel level, const History& h,
                          const db::ScheduleSearch& schedules, const std::vector<const lua::Level*>& targets,
                          const RunSettings& settings) {
  RunReport report;
  report.level = level;
  report.search_complete = schedules.complete;
  if (schedules.schedules.empty()) return report;
  db::RunOptions opt;
  opt.level = level;
  opt.statement_timeout = settings.statement_timeout;
  opt.blocked_after = settings.blocked_after;
  for (db::Schedule s : ordered_for(level, schedules.schedules)) {
    if (report.attempts.size() >= settings.attempts) break;
    // Said in the level's own model where the schedule realizes the
    // history under it.
    const db::ReadModel own = model_of(level);
    if (std::find(s.models.begin(), s.models.end(), own) != s.models.end()) s.model = own;
    Attempt a{s, db::run_schedule(database.url(), h, s, opt), {}, {}, RunVerdict::Diverged};
    a.differences = db::differences(h, a.record);
    a.exhibits = violated_levels(a.record.recorded, targets);
    a.verdict = attempt_verdict(a, !targets.empty());
    const bool done = a.verdict == RunVerdict::Exhibited || a.verdict == RunVerdict::Reproduced;
    report.attempts.push_back(std::move(a));
    if (done) break;
  }
  // The strongest thing any attempt showed: an exhibited (or reproduced)
  // run, else an abort, else a wait, else other values.
  report.verdict = RunVerdict::Diverged;
  for (RunVerdict v : {RunVerdict::Exhibited, RunVerdict::Reproduced, RunVerdict::PreventedByAbort,
                       RunVerdict::PreventedByBlocking}) {
    if (std::any_of(report.attempts.begin(), report.attempts.end(), [v](const Attempt& a) { return a.verdict == v; })) {
      report.verdict = v;
      break;
    }
  }
  return report;
}

namespace {

std::string step_text(const History& h, const db::Step& st) {
  const std::string t = h.txn_name(st.txn);
  if (st.kind == db::Step::Kind::Commit) return t + ".commit";
  if (st.kind == db::Step::Kind::Abort) return t + ".rollback";
  return t + "." + format_op(h, h.txn(st.txn).ops[st.op]);
}

std::string status_text(const db::Status& s) {
  const char* kind = s.kind == db::Status::Kind::Timeout ? "statement timeout" : "aborted";
  if (s.sqlstate.empty()) return fmt::format("{}: {}", kind, s.message);
  return fmt::format("{}, {}: {}", kind, s.sqlstate, s.message);
}

// What happened at each step worth saying: waits and aborts.
std::vector<std::string> events(const History& h, const Attempt& a) {
  std::vector<std::string> out;
  const auto& steps = a.schedule.steps;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const db::StepOutcome& o = a.record.steps[i];
    if (o.blocked) {
      std::string line = fmt::format("{} blocked for {:.2f} s", step_text(h, steps[i]), o.seconds);
      if (o.released_after >= 0)
        line += fmt::format(", until after {}", step_text(h, steps[static_cast<std::size_t>(o.released_after)]));
      out.push_back(line);
    }
    if (o.run && !o.status.ok()) out.push_back(fmt::format("{}: {}", step_text(h, steps[i]), escape_text(status_text(o.status))));
  }
  return out;
}

const char* model_words(const db::Schedule& s) {
  switch (s.model) {
    case db::ReadModel::Snapshot: return "reads from a snapshot at each transaction's first statement";
    case db::ReadModel::Committed: return "each read sees the latest committed write";
    case db::ReadModel::Uncommitted: return "reads see uncommitted writes";
  }
  return "";
}

std::vector<std::string> names(const std::vector<const lua::Level*>& levels) {
  std::vector<std::string> out;
  for (const auto* l : levels) out.push_back(l->name);
  return out;
}

}  // namespace

std::string recorded_run_dot(const RunReport& r) {
  if (r.attempts.empty()) return {};
  const Attempt& last = r.attempts.back();
  std::vector<Decision> decisions;
  std::vector<Denial> denials;
  decisions.reserve(last.exhibits.size());  // denials point into it
  for (const lua::Level* t : last.exhibits) {
    decisions.push_back(decide(last.record.recorded, *t));
    denials.push_back({t->name, &decisions.back()});
  }
  return history_dot(last.record.recorded, {}, denials,
                     fmt::format("recorded at {}: {}", db::level_name(r.level), run_verdict_word(r.verdict)));
}

std::vector<std::string> describe(const History& h, const RunReport& r) {
  std::vector<std::string> out;
  if (r.attempts.empty()) {
    out.push_back(r.search_complete ? "no schedule realizes this history: in every interleaving of its statements, "
                                      "some read returns another value, whether reads see snapshots, committed "
                                      "writes or uncommitted ones"
                                    : "no schedule found within the search's budget (the history is too large "
                                      "to search every interleaving; give one with --schedule)");
    return out;
  }
  for (std::size_t k = 0; k < r.attempts.size(); ++k) {
    const Attempt& a = r.attempts[k];
    std::vector<std::string> steps;
    for (const auto& st : a.schedule.steps) steps.push_back(step_text(h, st));
    out.push_back(fmt::format("schedule {} ({}{}{}): {}", k + 1, model_words(a.schedule),
                              a.schedule.reordered ? "; operations reordered where no read can tell" : "",
                              a.schedule.dirty_writes ? "; writes over uncommitted writes" : "",
                              fmt::join(steps, " ")));
    for (const std::string& e : events(h, a)) out.push_back("  " + e);
    out.push_back("  recorded: " + history_one_line(a.record.recorded, false));
    if (!a.differences.empty()) out.push_back(fmt::format("  differs: {}", fmt::join(a.differences, "; ")));
    out.push_back(fmt::format("  {}{}", run_verdict_word(a.verdict),
                              a.exhibits.empty() ? "" : fmt::format(": {}", fmt::join(names(a.exhibits), ", "))));
  }
  return out;
}

nlohmann::json report_json(const History& h, const RunReport& r) {
  nlohmann::json attempts = nlohmann::json::array();
  for (const Attempt& a : r.attempts) {
    nlohmann::json steps = nlohmann::json::array();
    for (std::size_t i = 0; i < a.schedule.steps.size(); ++i) {
      const db::StepOutcome& o = a.record.steps[i];
      const db::Step& st = a.schedule.steps[i];
      nlohmann::json s{{"step", step_text(h, st)}, {"run", o.run}, {"blocked", o.blocked},
                       {"seconds", o.seconds}};
      // The step as data: its transaction and what it does, the operation structured.
      s["txn"] = h.txn(st.txn).name;
      s["kind"] = st.kind == db::Step::Kind::Commit ? "commit" : st.kind == db::Step::Kind::Abort ? "rollback" : "operation";
      s["operation"] = st.kind == db::Step::Kind::Op ? operation_json(h, st.txn, st.op) : nlohmann::json(nullptr);
      if (o.run && !o.status.ok())
        s["status"] = {{"kind", o.status.kind == db::Status::Kind::Timeout ? "timeout" : "aborted"},
                       {"sqlstate", o.status.sqlstate},
                       {"message", o.status.message}};
      steps.push_back(std::move(s));
    }
    attempts.push_back({{"model", db::model_name(a.schedule.model)},
                        {"reordered", a.schedule.reordered},
                        {"dirty_writes", a.schedule.dirty_writes},
                        {"steps", std::move(steps)},
                        {"recorded", write_native_json(a.record.recorded)},
                        {"differences", a.differences},
                        {"exhibits", names(a.exhibits)},
                        {"verdict", run_verdict_word(a.verdict)}});
  }
  nlohmann::json j{{"level", db::level_name(r.level)}, {"verdict", run_verdict_word(r.verdict)},
                   {"attempts", std::move(attempts)}};
  if (r.attempts.empty()) j["schedule_search_complete"] = r.search_complete;
  return j;
}

}  // namespace iso::cli
