// isosynth predict: from an observed run, a run the weak level allows and
// serializability forbids (cegis/predictor.hpp).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cegis/predictor.hpp"
#include "cli/check_render.hpp"
#include "cli/commands.hpp"
#include "cli/db_run.hpp"
#include "cli/dot.hpp"
#include "cli/json_fields.hpp"
#include "cli/render.hpp"
#include "engine/history/input_error.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"

namespace iso::cli {

namespace {

// "T2.0's r(a,1) (line 6) read T1.0's write; it now reads T0's: r(a,0)".
std::string changed_text(const History& observed, const cegis::ChangedRead& c, const History& predicted) {
  const Op& op = observed.txn(c.reader).ops[c.op];
  const Op& now = predicted.txn(c.reader).ops[c.op];
  std::string s = fmt::format("{}'s {}", observed.txn_name(c.reader), format_op(observed, op));
  if (op.line > 0) s += fmt::format(" (line {})", op.line);
  return fmt::format("{} read {}'s write; it now reads {}'s: {}", s, observed.txn_name(c.observed),
                     observed.txn_name(c.writer), format_op(predicted, now));
}

// "T2.0's read 1".
std::string observed_read_name(const History& h, const cegis::ChangedRead& c) {
  return fmt::format("{}'s read {}", h.txn_name(c.reader), c.op + 1);
}

// How the search went: what a benchmark reads.
nlohmann::json search_json(const cegis::PredictResult& r) {
  return {{"candidates", r.candidates},      {"cycles", r.cycles},
          {"lemmas", r.lemmas},              {"seconds", r.seconds},
          {"first_seconds", r.first_seconds},
          {"solve_seconds", r.sat.solve_seconds}, {"check_seconds", r.check_seconds},
          {"lemma_seconds", r.lemma_seconds}, {"sat_vars", r.sat.vars},
          {"sat_clauses", r.sat.clauses},    {"conflicts", r.sat.conflicts},
          {"ruled_out", r.ruled_out}};
}

// The observed operations a prediction leaves out (the rest of a session
// after its boundary): a dropped transaction keeps its place, empty.
std::size_t dropped_ops(const History& observed, const History& predicted) {
  std::size_t n = 0;
  for (TxnId t = 1; t < observed.num_txns(); ++t) n += observed.txn(t).ops.size() - predicted.txn(t).ops.size();
  return n;
}

// "FILE:LINE: message", naming the operation at fault where the input has
// its line. A folder's operations have lines in its logs, not in the
// folder: the folder alone is named.
std::string trace_error_text(const std::string& file, const cegis::TraceError& e) {
  const std::string source = file == kStdinPath ? "<stdin>" : file;
  std::error_code ec;
  if (e.line() == 0 || std::filesystem::is_directory(file, ec)) return fmt::format("{}: {}", source, e.what());
  return fmt::format("{}:{}: {}", source, e.line(), e.what());
}

// IsoPredict's validation (§5), on a real database: each prediction run
// by a schedule that should produce its reads, and the recorded run
// decided against serializability.
struct Validation {
  std::optional<Database> database;
  std::vector<db::ProductLevel> levels;
  RunSettings settings;
};

// Did the database produce the prediction itself (some attempt's reads all
// as predicted)?
bool produced(const RunReport& r) {
  return std::any_of(r.attempts.begin(), r.attempts.end(), [](const Attempt& a) { return a.differences.empty(); });
}

std::string validation_text(const Validation& v, const History& p, const std::vector<RunReport>& reports) {
  std::string out;
  for (const RunReport& r : reports) {
    const bool unserializable = r.verdict == RunVerdict::Exhibited;
    out += fmt::format("validated on {}, {}: {}; {}\n", escape_text(v.database->product()), db::level_name(r.level),
                       r.attempts.empty() ? "not run" : produced(r) ? "the database produced the prediction" : "diverged",
                       r.attempts.empty() ? "no schedule realizes it"
                       : unserializable   ? "the recorded run is unserializable"
                                          : fmt::format("no recorded run is unserializable ({})", run_verdict_word(r.verdict)));
    for (const std::string& line : describe(p, r)) out += "  " + line + "\n";
  }
  return out;
}

// The line that opens prediction i of n, or, when the observed run itself
// is the prediction, the line that says so.
std::string heading(const lua::Level& under, const lua::Level& ser, const std::string& mode, std::size_t i,
                    std::size_t n, bool unchanged) {
  if (unchanged)
    return fmt::format("the observed run itself is allowed by {} and forbidden by {}: nothing needs to change\n\n",
                       under.name, ser.name);
  if (n == 1)
    return fmt::format("predicted: a run that {} allows and {} forbids ({} boundary)\n\n", under.name, ser.name,
                       mode);
  return fmt::format("{}prediction {} of {}: a run that {} allows and {} forbids ({} boundary)\n\n", i ? "\n" : "",
                     i + 1, n, under.name, ser.name, mode);
}

nlohmann::json changed_json(const History& h, const std::vector<cegis::ChangedRead>& changed) {
  nlohmann::json cs = nlohmann::json::array();
  for (const auto& c : changed)
    cs.push_back({{"reader", h.txn_name(c.reader)}, {"op", c.op + 1}, {"observed", h.txn_name(c.observed)},
                  {"writer", h.txn_name(c.writer)}, {"read", operation_json(h, c.reader, c.op)}});
  return cs;
}

// Prediction p run on the database at each level asked (none without
// --validate), the recorded runs decided against serializability.
std::vector<RunReport> validate(const Validation& v, const History& p, const lua::Level& ser,
                                const std::string& file) {
  std::vector<RunReport> out;
  if (!v.database) return out;
  if (auto why = db::unsupported(p)) throw InputError(fmt::format("{}: --validate: {}", file, *why));
  const db::ScheduleSearch schedules = schedules_for(p, "", v.settings.attempts);
  for (db::ProductLevel l : v.levels)
    out.push_back(run_on_database(*v.database, l, p, schedules, {&ser}, v.settings));
  return out;
}

nlohmann::json validation_json(const Validation& v, const History& p, const std::vector<RunReport>& reports) {
  nlohmann::json runs = nlohmann::json::array();
  for (const RunReport& rep : reports) {
    nlohmann::json j = report_json(p, rep);
    j["produced"] = produced(rep);
    runs.push_back(std::move(j));
  }
  return {{"database", db::redact_url(v.database->url())}, {"product", v.database->product()},
          {"runs", std::move(runs)}};
}

// What predict asks of the search, with its progress on stderr (one line
// rewritten in place on a terminal).
cegis::PredictOptions predict_options(const PredictArgs& a, bool tty) {
  const auto mode = a.mode == "relaxed" ? cegis::PredictMode::Relaxed : cegis::PredictMode::Strict;
  cegis::PredictOptions o{mode, a.timeout, a.limit, a.fewest_for, {}};
  o.on_progress = [tty](const cegis::PredictProgress& p) {
    fmt::print(stderr, "{}predict: up to {} changed reads, {} candidates, {} cycles, {} lemmas, {:.1f} s{}",
               tty ? "\r" : "", p.bound, p.candidates, p.cycles, p.lemmas, p.elapsed_seconds, tty ? "   " : "\n");
    std::fflush(stderr);
  };
  return o;
}

// The observed run's own verdict under the weak level: a run the level does
// not allow is said so first, with the level's reason, and predicted from
// all the same (IsoPredict puts no condition on it). Sets `observed` (its
// JSON) and returns its text (empty when allowed).
std::string observed_verdict(const History& h, const lua::Level& under, const cegis::PredictResult& r,
                             nlohmann::json& observed) {
  observed = nlohmann::json{{"level", under.name}, {"verdict", "allowed"}};
  if (r.observed_under != Verdict::Violated) return "";
  const Decision d = decide(h, under, DecideOptions{});
  observed = decision_json(h, under, d, false);
  return fmt::format("observed: not allowed by {}: no store that provides it produced this run; predicted from "
                     "all the same\n{}\n",
                     under.name, decision_text(h, under, d, false));
}

// --dot: the first prediction's cycle, its changed reads in the title.
void write_prediction_dot(const std::string& path, const History& h, const History& p, const lua::Level& under,
                          const std::vector<cegis::ChangedRead>& changed, const Anomaly& anomaly) {
  std::string title = fmt::format("{} in a run {} allows", anomaly.name, under.name);
  for (const auto& c : changed)
    title += fmt::format("; {} now reads {} from {}", observed_read_name(h, c), h.key_text(h.txn(c.reader).ops[c.op].key),
                         h.txn_name(c.writer));
  write_text_file(path, anomaly_dot(p, anomaly, title));
}

// One predicted run as text: its heading, the history, what changed, and
// the two levels' decisions on it (and the database's runs of it).
struct PredictedRun {
  const History& p;
  const std::vector<cegis::ChangedRead>& changed;
  const Decision& allowed;
  const Decision& denied;
};
std::string run_text(const PredictArgs& a, const History& h, const lua::Level& under, const lua::Level& ser,
                     const cegis::PredictResult& r, std::size_t i, const PredictedRun& run) {
  const auto& changed = run.changed;
  const std::size_t dropped = dropped_ops(h, run.p);
  std::string text = heading(under, ser, a.mode, i, r.runs.size(), changed.empty() && dropped == 0);
  text += format_history(run.p) + "\n";
  for (const auto& c : changed) text += fmt::format("changed: {}\n", changed_text(h, c, run.p));
  if (changed.empty() && dropped > 0)
    text += fmt::format("no read changed: the observed run cut short, {} of its operations dropped\n", dropped);
  if (i == 0 && !changed.empty()) {
    if (r.fewest)
      text += fmt::format("{} changed read{}: the fewest any prediction changes\n", changed.size(),
                          changed.size() == 1 ? "" : "s");
    else
      text += fmt::format("{} changed reads; none changes fewer than {} (the search for fewer stopped: "
                          "--fewest-for, --timeout)\n",
                          changed.size(), r.fewest_below);
  }
  return text + "\n" + decision_text(run.p, under, run.allowed, true) + decision_text(run.p, ser, run.denied, false);
}

}  // namespace

int run_predict(const PredictArgs& a) {
  lua::SpecLibrary lib;
  for (const auto& spec : a.specs) lib.load_file(spec);
  const lua::Level& under = lib.level(a.under);
  const lua::Level& ser = lib.level("biswas.SER");
  double seconds = 0;
  ReadResult loaded = load(a.file, a.input, seconds);
  const History& h = loaded.history;
  // A trace prediction cannot read is an input error at the operation at
  // fault, told before any note so that it is the one line.
  std::optional<cegis::ObservedTrace> trace;
  try {
    trace.emplace(h);
  } catch (const cegis::TraceError& e) {
    throw InputError(trace_error_text(a.file, e));
  }
  for (const auto& note : loaded.notes) fmt::print(stderr, "note: {}\n", note);
  const bool tty = isatty(fileno(stderr));
  const cegis::PredictOptions o = predict_options(a, tty);
  // The database is reached before the search, so that a wrong URL or
  // level is told at once.
  Validation validation;
  if (a.validate) {
    validation.database.emplace(a.db.db);
    validation.levels = validation.database->choose(a.db.db_levels);
    validation.settings = run_settings(a.db);
  }
  const cegis::PredictResult r = cegis::predict(*trace, under, ser, o);
  if (tty && r.seconds >= 1.0) fmt::print(stderr, "\n");
  if (r.outcome == cegis::Outcome::Timeout) {
    if (a.json)
      fmt::print("{}\n", dump_json(nlohmann::json{{"outcome", "timeout"}}));
    else
      fmt::print("timeout: no prediction found in {:.1f} s\n", r.seconds);
    return kExitTimeout;
  }
  nlohmann::json observed;
  std::string text = observed_verdict(h, under, r, observed);
  if (r.outcome == cegis::Outcome::None) {
    if (a.json)
      fmt::print("{}\n", dump_json(nlohmann::json{{"outcome", "none"},
                                                  {"under", under.name},
                                                  {"mode", a.mode},
                                                  {"observed", observed},
                                                  {"search", search_json(r)}}));
    else
      fmt::print("{}none: no run that {} allows and {} forbids can be predicted from this one ({} boundary; {} "
                 "candidates)\n",
                 text, under.name, ser.name, a.mode, r.candidates);
    return kExitNo;
  }
  DecideOptions opt;
  nlohmann::json runs = nlohmann::json::array();
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    const History& p = r.runs[i].history;
    const auto& changed = r.runs[i].changed;
    const Decision allowed = decide(p, under, opt);
    const Decision denied = decide(p, ser, opt);
    const std::vector<RunReport> validated = validate(validation, p, ser, a.file);
    if (i == 0 && !a.dot.empty() && denied.anomaly) write_prediction_dot(a.dot, h, p, under, changed, *denied.anomaly);
    if (a.json) {
      nlohmann::json run{{"history", write_native_json(p)},
                         {"changed", changed_json(h, changed)},
                         {"dropped", dropped_ops(h, p)},
                         {"allowed", decision_json(p, under, allowed, true)},
                         {"denied", decision_json(p, ser, denied, false)}};
      if (validation.database) run["validation"] = validation_json(validation, p, validated);
      runs.push_back(std::move(run));
      continue;
    }
    text += run_text(a, h, under, ser, r, i, PredictedRun{p, changed, allowed, denied});
    if (validation.database) text += "\n" + validation_text(validation, p, validated);
  }
  if (a.json)
    fmt::print("{}\n", dump_json(nlohmann::json{{"outcome", "found"}, {"under", under.name}, {"mode", a.mode},
                                                {"observed", observed}, {"runs", runs}, {"fewest", r.fewest},
                                                {"fewest_below", r.fewest_below}, {"search", search_json(r)}}));
  else
    fmt::print("{}", text);
  return kExitOk;
}

}  // namespace iso::cli
