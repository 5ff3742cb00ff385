// isosynth check FILE --level L...: the verdict of each level, by decide()
// (engine/decide/decide.hpp), with the anomaly that breaks it or the witness
// that satisfies it. Also `levels` and `show`.
#include <cstdio>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/check_render.hpp"
#include "cli/commands.hpp"
#include "cli/dot.hpp"
#include "cli/render.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/timing.hpp"
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

nlohmann::json graph_stats_json(const poly::CheckStats& s, double parse_seconds) {
  return {{"seconds", {{"parse", parse_seconds}, {"construct", s.seconds.construct},
                       {"prune", s.seconds.prune}, {"encode", s.seconds.encode},
                       {"solve", s.seconds.solve}, {"explain", s.seconds.explain}}},
          {"acyclicity", s.eager ? "eager" : "lazy"},
          {"transactions", s.txns}, {"known_edges", s.known_edges},
          {"ww_pairs", s.ww_pairs}, {"ww_open", s.ww_open},
          {"read_choices", s.wr_choices}, {"read_choices_open", s.wr_open},
          {"prune_passes", s.prune_passes}, {"vars", s.vars}, {"clauses", s.clauses},
          {"two_width_clauses", s.two_width_clauses}, {"rounds", s.rounds},
          {"cycle_clauses", s.cycle_clauses}, {"reachability_bytes", s.reach_bytes},
          {"peak_bytes", {{"construct", s.peak_bytes.construct}, {"prune", s.peak_bytes.prune},
                          {"encode", s.peak_bytes.encode}, {"end", s.peak_bytes.end}}}};
}

nlohmann::json generic_stats_json(const GenericStats& s, double parse_seconds) {
  return {{"seconds", {{"parse", parse_seconds}, {"translate", s.translate_seconds},
                       {"solve", s.solve_seconds}}},
          {"gates", s.gates}, {"vars", s.sat_vars}, {"clauses", s.sat_clauses},
          {"solver_calls", s.solver_calls}};
}

// The peak resident memory at the end of each phase that ran, in MB.
void print_peaks(const poly::PhasePeaks& p, std::size_t reach_bytes) {
  std::string line;
  for (const auto& [name, bytes] : {std::pair{"construct", p.construct}, std::pair{"prune", p.prune},
                                    std::pair{"encode", p.encode}, std::pair{"end", p.end}})
    if (bytes > 0) line += fmt::format("{}{} {:.0f} MB", line.empty() ? "" : ", ", name, bytes / 1e6);
  if (line.empty()) return;
  fmt::print(stderr, "  peak memory after: {}{}\n", line,
             reach_bytes > 0 ? fmt::format(" (reachability {:.0f} MB)", reach_bytes / 1e6) : std::string());
}

void print_stats(const Level& level, const Decision& d, double parse_seconds) {
  if (d.checker == Checker::Generic) {
    const auto& s = d.generic_stats;
    fmt::print(stderr, "{}: parse {:.3f} s, translate {:.3f} s, solve {:.3f} s, {} gates, {} vars, "
               "{} clauses\n", level.name, parse_seconds, s.translate_seconds, s.solve_seconds,
               s.gates, s.sat_vars, s.sat_clauses);
    return;
  }
  const auto& s = d.graph_stats;
  if (d.checker == Checker::Timestamps) {
    fmt::print(stderr, "{}: parse {:.3f} s, prepare {:.3f} s, check the timestamps {:.3f} s\n  {} transactions\n",
               level.name, parse_seconds, s.seconds.construct, s.seconds.solve, s.txns);
    print_peaks(s.peak_bytes, 0);
    return;
  }
  if (d.checker == Checker::Saturation) {
    fmt::print(stderr,
               "{}: parse {:.3f} s, construct {:.3f} s, prune {:.3f} s ({} passes), encode "
               "{:.3f} s, solve {:.3f} s ({} rounds)\n  {} transactions, {} graph edges, {} "
               "read choices ({} open after pruning), {} vars, {} clauses ({} cycle), "
               "happens-before {} bytes\n",
               level.name, parse_seconds, s.seconds.construct, s.seconds.prune, s.prune_passes,
               s.seconds.encode, s.seconds.solve, s.rounds, s.txns, s.known_edges, s.wr_choices,
               s.wr_open, s.vars, s.clauses, s.cycle_clauses, s.reach_bytes);
    print_peaks(s.peak_bytes, 0);
    return;
  }
  fmt::print(stderr,
             "{}: parse {:.3f} s, construct {:.3f} s, prune {:.3f} s ({} passes), encode "
             "{:.3f} s, solve {:.3f} s ({}){}\n  {} transactions, {} known edges, {} ww pairs "
             "({} open), {} read choices ({} open), {} vars, {} clauses ({} 2-width, {} cycle)\n",
             level.name, parse_seconds, s.seconds.construct, s.seconds.prune, s.prune_passes,
             s.seconds.encode, s.seconds.solve,
             s.rounds == 0 ? std::string("decided before solving")
                           : fmt::format("{} rounds, {} acyclicity", s.rounds,
                                         s.eager ? "eager" : "lazy"),
             s.seconds.explain > 0 ? fmt::format(", explain {:.3f} s", s.seconds.explain)
                                   : std::string(),
             s.txns, s.known_edges, s.ww_pairs, s.ww_open, s.wr_choices, s.wr_open, s.vars,
             s.clauses, s.two_width_clauses, s.cycle_clauses);
  print_peaks(s.peak_bytes, s.reach_bytes);
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
  std::vector<const Level*> levels;
  for (const auto& name : a.levels) levels.push_back(&lib.level(name));  // all names first

  double parse_seconds = 0;
  ReadResult loaded = load(a.file, a.input, parse_seconds);
  loaded.history.set_clock_skew(a.clock_skew);
  const History& h = loaded.history;
  DecideOptions opt;
  opt.sessions = a.sessions == "ignore" ? SessionMode::Ignore : SessionMode::Auto;
  opt.prune = !a.no_prune;
  opt.acyclicity = a.acyclicity == "eager"  ? poly::Acyclicity::Eager
                   : a.acyclicity == "lazy" ? poly::Acyclicity::Lazy
                                            : poly::Acyclicity::Auto;
  // Every refusal before any verdict: no half-printed output.
  for (const Level* level : levels)
    if (auto why = refusal(h, *level, opt))
      throw std::invalid_argument(fmt::format("{}: {}", a.file, *why));
  if (a.stats || parse_seconds > 1.0)
    fmt::print(stderr, "read {} in {:.2f} s\n", display_text(a.file), parse_seconds);
  for (const auto& note : loaded.notes) fmt::print(stderr, "note: {}\n", note);

  const bool small = h.num_txns() - 1 <= kSmallHistory;
  const bool show_witness = a.witness || small;
  nlohmann::json results = nlohmann::json::array();
  bool any_violated = false, any_unknown = false, dot_written = false;
  if (!a.json) {
    fmt::print("{}\n", summary(a.file, loaded));
    if (small) fmt::print("{}\n", format_history(h));
  }
  for (const Level* level : levels) {
    opt.progress = [&](std::string_view line) {
      fmt::print(stderr, "[{}] {}\n", level->name, line);
    };
    Decision d;
    try {
      d = decide(h, *level, opt);
    } catch (const std::invalid_argument& e) {  // an option this history does not allow
      throw std::invalid_argument(fmt::format("{}: {}", a.file, e.what()));
    }
    any_violated |= d.verdict == Verdict::Violated;
    any_unknown |= d.verdict == Verdict::Unknown;
    if (a.json) {
      nlohmann::json j = decision_json(h, *level, d, show_witness);
      if (a.stats)
        j["stats"] = d.checker == Checker::Generic ? generic_stats_json(d.generic_stats, parse_seconds)
                                                    : graph_stats_json(d.graph_stats, parse_seconds);
      results.push_back(std::move(j));
    } else {
      fmt::print("{}", decision_text(h, *level, d, show_witness));
    }
    if (a.stats) print_stats(*level, d, parse_seconds);
    // The first violation's picture: its cycle, or, on a small history, the
    // history with the level's reason (failing instances, core) in red.
    if ((!a.dot.empty() || !a.svg.empty()) && !dot_written && d.verdict == Verdict::Violated) {
      std::string picture;
      if (d.anomaly && !d.anomaly->cycle.empty())
        picture = anomaly_dot(h, *d.anomaly, fmt::format("{}: {}", level->name, d.anomaly->name));
      else if (small)
        picture = history_dot(h, {}, {Denial{level->name, &d}}, fmt::format("{} rejects this history", level->name));
      if (!picture.empty()) {
        if (!a.dot.empty()) write_text_file(a.dot, picture);
        if (!a.svg.empty()) write_svg(a.svg, picture);
        dot_written = true;
      }
    }
  }
  if ((!a.dot.empty() || !a.svg.empty()) && !dot_written)
    fmt::print(stderr, "note: no picture written: {}\n",
               any_violated ? "the violation has no cycle to draw and the history is too large to draw whole"
                            : "no level rejects the history (a picture shows why one does)");
  if (a.json) {
    nlohmann::json doc{{"history", a.file},
                       {"format", std::string(format_name(loaded.format))},
                       {"initial_state", std::string(initial_state_name(loaded.initial_state))},
                       {"explicit_init", loaded.explicit_init},
                       {"results", results}};
    if (!loaded.notes.empty()) doc["notes"] = loaded.notes;
    fmt::print("{}\n", dump_json(doc));
  }
  if (any_violated) return kExitNo;
  if (any_unknown) return kExitTimeout;
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
      if (l->graph) j["graph"] = std::string(poly::graph_level_name(*l->graph));
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
  double seconds = 0;
  ReadResult loaded = load(a.file, a.input, seconds);
  for (const auto& note : loaded.notes) fmt::print(stderr, "note: {}\n", note);
  if (a.json) {
    fmt::print("{}\n", dump_json(write_native_json(loaded.history)));
  } else {
    fmt::print("{}\n", format_history(loaded.history));
  }
  return kExitOk;
}

}  // namespace iso::cli
