// isosynth check FILE [--level L...]: the verdict of each level, by decide()
// (engine/decide/decide.hpp), with the anomaly that breaks it or the witness
// that satisfies it, or why the level cannot be decided on this history.
// Also `levels` and `show`.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/check_render.hpp"
#include "cli/check_stats.hpp"
#include "cli/commands.hpp"
#include "cegis/search.hpp"
#include "cli/dot.hpp"
#include "cli/evaluations.hpp"
#include "cli/level_choice.hpp"
#include "cli/render.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"
#include "engine/logic/translator.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/thread_pool.hpp"
#include "engine/util/timing.hpp"
#include "engine/verdict/graph_level.hpp"
#include "lua/spec_library.hpp"

namespace iso::cli {

namespace {

ReadOptions read_options(const InputArgs& in) {
  ReadOptions ro;
  ro.init = parse_init_mode(in.init).value_or(InitMode::Auto);  // validated by the option's check
  ro.initial_value = in.initial_value;
  return ro;
}

std::string initial_state_text(const ReadResult& r) {
  switch (r.initial_state) {
    case InitialState::Explicit: return "explicit (the file's initial transaction is T0)";
    case InitialState::None: return "none (no transaction writes the initial values)";
    case InitialState::Implicit: break;
  }
  return "implicit (T0 writes every key's initial value)";
}

std::string summary(const std::string& file, const ReadResult& r) {
  const History& h = r.history;
  std::size_t committed = 0, aborted = 0, unknown = 0;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    switch (h.txn(t).status) {
      case TxnStatus::Committed: ++committed; break;
      case TxnStatus::Aborted: ++aborted; break;
      case TxnStatus::Unknown: ++unknown; break;
    }
  }
  std::string s = fmt::format("{} ({}): {} committed transactions", display_text(file),
                              format_name(r.format), committed);
  if (aborted) s += fmt::format(", {} aborted", aborted);
  if (unknown) s += fmt::format(", {} of unknown status", unknown);
  s += fmt::format(", {} sessions, {} keys; initial state: {}", h.sessions().size(),
                   h.keys().size(), initial_state_text(r));
  return s;
}

// Decides `o.level` into `o.decision`, or says in `o.refused` why it cannot
// be decided on `h` (found out only while deciding); returns the seconds it
// took. Levels are decided on threads of their own (--jobs): each gets its
// own copy of the options, and `h` is only read.
double decide_level(const History& h, DecideOptions opt, LevelOutcome& o) {
  opt.progress = [&](std::string_view line) { fmt::print(stderr, "[{}] {}\n", o.level->name, line); };
  const auto start = Clock::now();
  try {
    o.decision = decide(h, *o.level, opt);
  } catch (const DecideRefused& e) {
    o.refused = e.what();
  } catch (const logic::TranslationError& e) {  // the formula unrolls too far on this history
    o.refused = e.what();
  } catch (const std::invalid_argument& e) {  // an option this history does not allow
    o.refused = e.what();
  }
  return seconds_since(start);
}

// How check decides: --sessions, --no-prune, --acyclicity.
DecideOptions decide_options(const CheckArgs& a) {
  DecideOptions opt;
  opt.sessions = a.sessions == "ignore" ? SessionMode::Ignore : SessionMode::Auto;
  opt.prune = !a.no_prune;
  opt.acyclicity = a.acyclicity == "eager"  ? poly::Acyclicity::Eager
                   : a.acyclicity == "lazy" ? poly::Acyclicity::Lazy
                                            : poly::Acyclicity::Auto;
  opt.all_limit = a.all ? a.limit : 0;
  return opt;
}

// --dot and --svg: the first violation's picture, its cycle in red with the
// history around it (violation_dot: on a large history only the cycle's
// neighbourhood), or, on a small history, the history with the level's
// reason (failing instances, core) in red. False when there is nothing to
// draw (no cycle, a large history).
bool write_violation_picture(const CheckArgs& a, const History& h, const Level& level, const Decision& d,
                             bool small) {
  std::string picture;
  if (d.anomaly && !d.anomaly->cycle.empty())
    picture = violation_dot(h, level.name, d, fmt::format("{}: {}", level.name, d.anomaly->name));
  else if (small)
    picture = history_dot(h, {}, {Denial{level.name, &d}}, fmt::format("{} rejects this history", level.name));
  if (picture.empty()) return false;
  if (!a.dot.empty()) write_text_file(a.dot, picture);
  if (!a.svg.empty()) write_svg(a.svg, picture);
  return true;
}

// --all with --dot/--svg: one picture per instance of each class into the
// folders. False when the level has no class to draw.
bool write_all_pictures(const CheckArgs& a, const History& h, const Level& level, const Decision& d) {
  if (d.verdict != Verdict::Violated || d.classes.empty()) return false;
  if (!a.dot.empty()) write_class_pictures(a.dot, false, h, level.name, d.classes);
  if (!a.svg.empty()) write_class_pictures(a.svg, true, h, level.name, d.classes);
  return true;
}

// --dot and --svg for one level: with --all, every instance of each class
// into the folders; else the first violation's picture, unless one is
// `written` already. True when a picture of this level or before it is.
bool write_level_pictures(const CheckArgs& a, const History& h, const Level& level, const Decision& d, bool small,
                          bool written) {
  if (a.dot.empty() && a.svg.empty()) return false;
  if (a.all) return write_all_pictures(a, h, level, d) || written;
  if (written || d.verdict != Verdict::Violated) return written;
  return write_violation_picture(a, h, level, d, small);
}

// One level's entry of check --json: its decision, and with --stats and
// --all what they add. A level that was refused ran no checker.
nlohmann::json level_json(const CheckArgs& a, const History& h, const LevelOutcome& o, bool show_witness,
                          double parse_seconds, double seconds) {
  nlohmann::json j = decision_json(h, *o.level, o.decision, show_witness);
  if (!o.refused.empty()) {  // no checker ran, with or without sessions
    j.erase("checker");
    j.erase("sessions");
  }
  if (a.stats && o.refused.empty()) j["stats"] = stats_json(o.decision, parse_seconds, seconds);
  if (a.all && !o.decision.classes.empty()) j["all"] = classes_json(h, o.decision.classes, a.limit);
  return j;
}

// The cycle of the first violated level that has one (named by its checker), or "".
std::string first_cycle(const std::vector<LevelOutcome>& outcomes) {
  for (const LevelOutcome& o : outcomes)
    if (o.decision.verdict == Verdict::Violated && o.decision.anomaly && !o.decision.anomaly->cycle.empty())
      return o.decision.anomaly->name;
  return "";
}

// check --json's document: what was read and how, the level set, each
// level's result.
nlohmann::json check_json(const std::string& file, const ReadResult& loaded, LevelSet set, nlohmann::json results) {
  nlohmann::json doc{{"history", file},
                     {"format", std::string(format_name(loaded.format))},
                     {"initial_state", std::string(initial_state_name(loaded.initial_state))},
                     {"explicit_init", loaded.explicit_init},
                     {"levels", std::string(level_set_name(set))},
                     {"results", std::move(results)}};
  if (!loaded.notes.empty()) doc["notes"] = loaded.notes;
  return doc;
}

// What check has reported so far, across levels.
struct Tally {
  bool any_violated = false, any_unknown = false, any_decided = false, dot_written = false;
};

// How one level is reported: the history's size, what to show, the seconds.
struct ReportContext {
  bool small, show_witness, list_refused;
  double parse_seconds, seconds;
};

// One decided (or refused) level's report: its entry in `results` (--json)
// or its text, its stats and pictures; `tally` sums up the verdicts.
void report_level(const CheckArgs& a, const History& h, LevelOutcome& o, const ReportContext& c,
                  nlohmann::json& results, Tally& tally) {
  const Level* level = o.level;
  Decision& d = o.decision;
  if (!o.refused.empty()) {
    d = Decision{};
    d.verdict = Verdict::NotApplicable;
    d.reason = o.refused;
  } else {
    tally.any_decided = true;
    tally.any_violated |= d.verdict == Verdict::Violated;
    tally.any_unknown |= d.verdict == Verdict::Unknown;
  }
  const bool shown = o.refused.empty() || c.list_refused || a.json;
  if (a.json && shown) {
    results.push_back(level_json(a, h, o, c.show_witness, c.parse_seconds, c.seconds));
  } else if (shown) {
    fmt::print("{}", decision_text(h, *level, d, c.show_witness));
    if (a.all && !d.classes.empty()) fmt::print("{}", classes_text(h, d.classes, a.limit));
  }
  if (a.stats && o.refused.empty()) print_stats(*level, d, c.parse_seconds, c.seconds);
  tally.dot_written = write_level_pictures(a, h, *level, d, c.small, tally.dot_written);
}

}  // namespace

ReadResult load(const std::string& file, const InputArgs& in, double& seconds) {
  std::optional<Format> f;
  if (!in.format.empty()) f = parse_format_name(in.format);  // validated by the option's check
  auto start = Clock::now();
  // A large input takes seconds to read: say so, about once a second.
  budget::ScopedHeartbeat beat(
      [&] { fmt::print(stderr, "reading {}, {:.1f} s\n", display_text(file), seconds_since(start)); });
  ReadResult r = read_history_path(file, f, read_options(in));
  seconds = seconds_since(start);
  return r;
}

int run_check(const CheckArgs& a) {
  lua::SpecLibrary lib;
  for (const auto& spec : a.specs) lib.load_file(spec);
  LevelChoice choice = choose_levels(lib, a.levels);  // every name resolved before reading

  double parse_seconds = 0;
  ReadResult loaded = load(a.file, a.input, parse_seconds);
  return check_history(a, lib, std::move(choice), loaded, parse_seconds);
}

// --eval on a checked history: under the witness of each level that allows
// it (one found by the generic oracle when the checker gave none).
std::vector<EvalLine> check_evals(const Evaluations& ev, const History& h, const std::vector<LevelOutcome>& outcomes,
                                  const DecideOptions& opt) {
  std::vector<std::optional<Witness>> found(outcomes.size());
  std::vector<LevelWitness> lw;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const Decision& d = outcomes[i].decision;
    const std::string& name = outcomes[i].level->name;
    std::string none = fmt::format("{} does not allow the history", name);
    if (d.verdict == Verdict::Unknown) none = fmt::format("{} is undecided", name);
    if (d.verdict == Verdict::NotApplicable) none = fmt::format("{} does not apply", name);
    if (d.verdict == Verdict::Allowed) {
      none = fmt::format("{} allows the history, and gave no witness in its framework's terms", name);
      try {
        found[i] = d.witness ? d.witness : cegis::decide_with_witness(h, *outcomes[i].level, opt).witness;
      } catch (const DecideRefused& refused) {
        none = fmt::format("{} gives no witness in its framework's terms on this history: {}", name, refused.what());
      }
    }
    lw.push_back({outcomes[i].level, found[i] ? &*found[i] : nullptr, std::move(none)});
  }
  return ev.evaluate(h, lw);
}

int check_history(const CheckArgs& a, const lua::SpecLibrary& lib, LevelChoice choice, ReadResult& loaded,
                  double parse_seconds, nlohmann::json* json_out) {
  loaded.history.set_clock_skew(a.clock_skew);
  const History& h = loaded.history;
  if (choice.set == LevelSet::Default && has_real_time(h)) choice.levels.push_back(&lib.level("biswas.StrictSER"));
  DecideOptions opt = decide_options(a);
  // The levels this history cannot decide, before any verdict: when none
  // can be decided, one line and no half-printed output.
  std::vector<LevelOutcome> outcomes;
  for (const Level* level : choice.levels) outcomes.push_back({level, {}, refusal(h, *level, opt).value_or("")});
  auto refused = [](const LevelOutcome& o) { return !o.refused.empty(); };
  if (std::all_of(outcomes.begin(), outcomes.end(), refused))
    throw std::invalid_argument(fmt::format("{}: {}", a.file, none_decided(outcomes)));
  const Evaluations ev(lib, a.eval, choice.levels);  // a malformed expression before any verdict
  if (a.stats || parse_seconds > 1.0)
    fmt::print(stderr, "read {} in {:.2f} s\n", display_text(a.file), parse_seconds);
  for (const auto& note : loaded.notes) fmt::print(stderr, "note: {}\n", note);

  const bool small = h.num_txns() - 1 <= kSmallHistory;
  const bool show_witness = a.witness || small;
  // A level named with -l gets its entry whatever its verdict; of `all` and
  // the default set, the levels that do not apply are summed up in one line.
  const bool list_refused = choice.set == LevelSet::Named;
  nlohmann::json results = nlohmann::json::array();
  Tally tally;
  if (!a.json) {
    fmt::print("{}\n", summary(a.file, loaded));
    if (small) fmt::print("{}\n", format_history(h));
  }
  // The levels are decided at once (--jobs), each reported, in order, as
  // soon as it and those before it are decided: the output of a loop.
  std::vector<double> seconds(outcomes.size(), 0);
  for_each_ordered(
      outcomes.size(), a.jobs,
      [&](std::size_t i) {
        if (outcomes[i].refused.empty()) seconds[i] = decide_level(h, opt, outcomes[i]);
      },
      [&](std::size_t i) {
        report_level(a, h, outcomes[i], ReportContext{small, show_witness, list_refused, parse_seconds, seconds[i]},
                     results, tally);
      });
  // Every level was refused, some only while deciding: as when all are
  // refused at the start.
  if (!tally.any_decided) throw std::invalid_argument(fmt::format("{}: {}", a.file, none_decided(outcomes)));
  // A violated history's name (cli/classify.hpp); the catalogue's patterns
  // are decided on small histories only.
  std::optional<std::vector<const Level*>> exhibits;
  if (tally.any_violated && small) exhibits = classify(lib, h, a.jobs);
  if (exhibits && !a.json) fmt::print("{}\n", escape_text(exhibits_line(*exhibits, first_cycle(outcomes))));
  if (!a.json && !list_refused && std::any_of(outcomes.begin(), outcomes.end(), refused))
    fmt::print("not-applicable: {}\n", grouped_reasons(outcomes));
  const std::vector<EvalLine> evals = ev.empty() ? std::vector<EvalLine>{} : check_evals(ev, h, outcomes, opt);
  if (!a.json) fmt::print("{}", eval_text(evals));
  if ((!a.dot.empty() || !a.svg.empty()) && !tally.dot_written)
    fmt::print(stderr, "note: no picture written: {}\n",
               tally.any_violated ? "the violation has no cycle to draw and the history is too large to draw whole"
                            : "no level rejects the history (a picture shows why one does)");
  if (a.json) {
    nlohmann::json doc = check_json(a.file, loaded, choice.set, std::move(results));
    if (!ev.empty()) doc["eval"] = eval_json(evals);
    if (exhibits) doc["exhibits"] = exhibits_json(*exhibits);
    if (json_out)
      *json_out = std::move(doc);
    else
      fmt::print("{}\n", dump_json(doc));
  }
  // The decided levels say the exit code; those that do not apply say nothing.
  if (tally.any_violated) return kExitNo;
  if (tally.any_unknown) return kExitTimeout;
  return kExitOk;
}

int run_levels(const LevelsArgs& a) {
  lua::SpecLibrary lib;
  for (const auto& spec : a.specs) lib.load_file(spec);
  if (a.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const Level* l : lib.levels()) {
      nlohmann::json j{{"name", l->name}, {"framework", l->framework->name}, {"doc", l->doc},
                       {"defined_at", l->location}, {"sessions", l->uses_sessions()}};
      if (l->graph) j["graph"] = std::string(graph_level_name(*l->graph));
      out.push_back(std::move(j));
    }
    fmt::print("{}\n", dump_json(out));
    return kExitOk;
  }
  std::string current;
  for (const Level* l : lib.levels()) {
    std::string group = l->name.substr(0, l->name.find('.'));
    if (group != current) {
      current = group;
      fmt::print("{}:\n", escape_text(group));
    }
    fmt::print("  {:<18} {}\n", escape_text(l->name), escape_text(l->doc));
  }
  fmt::print("\nBare names mean the biswas definition: SER = biswas.SER.\n");
  std::vector<std::string> anomalies;
  for (const Level* an : lib.anomalies()) anomalies.push_back(escape_text(anomaly_display_name(*an)));
  if (!anomalies.empty())
    fmt::print("Named anomalies, with their smallest examples in `isosynth anomalies`: {}.\n",
               fmt::join(anomalies, ", "));
  return kExitOk;
}

int run_show(const ShowArgs& a) {
  std::optional<lua::SpecLibrary> lib;  // only for --eval
  if (!a.eval.empty()) lib.emplace();
  const std::optional<Evaluations> ev =
      lib ? std::optional<Evaluations>(std::in_place, *lib, a.eval, std::vector<const Level*>{}) : std::nullopt;
  double seconds = 0;
  ReadResult loaded = load(a.file, a.input, seconds);
  for (const auto& note : loaded.notes) fmt::print(stderr, "note: {}\n", note);
  const std::vector<EvalLine> evals = ev ? ev->evaluate(loaded.history, {}) : std::vector<EvalLine>{};
  if (a.json) {
    nlohmann::json j = write_native_json(loaded.history);
    if (ev) j["eval"] = eval_json(evals);
    fmt::print("{}\n", dump_json(j));
  } else {
    fmt::print("{}\n{}", format_history(loaded.history), eval_text(evals));
  }
  return kExitOk;
}

}  // namespace iso::cli
