// isosynth check FILE --level L...: the verdict of each level. Levels with a
// graph characterization go through the graph checker (the hyper-polygraph
// for SER and SI, saturation for RA and CC) and explain a violation by a
// cycle; any other level through the generic oracle.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cegis/oracle.hpp"
#include "cli/check_render.hpp"
#include "cli/commands.hpp"
#include "cli/dot.hpp"
#include "cli/render.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/history/json_format.hpp"
#include "engine/polygraph/checker.hpp"
#include "engine/util/timing.hpp"
#include "engine/history/printer.hpp"

namespace iso::cli {

namespace {

// The generic oracle unrolls quantifiers over all transactions: beyond this
// many it is refused rather than left to exhaust memory.
constexpr std::size_t kGenericMaxTxns = 48;

struct Loaded {
  ReadResult read;
  double seconds = 0;
};

Loaded load(const CheckArgs& a) {
  ReadOptions ro;
  if (a.init == "auto") ro.init = InitMode::Auto;
  else if (a.init == "implicit") ro.init = InitMode::Implicit;
  else if (a.init == "explicit") ro.init = InitMode::Explicit;
  else throw std::invalid_argument(fmt::format("--init {}: expected auto, implicit or explicit", a.init));
  std::optional<Format> format;
  if (!a.format.empty()) {
    format = parse_format_name(a.format);
    if (!format)
      throw std::invalid_argument(fmt::format("--format {}: expected one of {}", a.format,
                                              fmt::join(format_names(), ", ")));
  }
  auto start = Clock::now();
  Loaded l{read_history_path(a.file, format, ro), 0};
  l.seconds = seconds_since(start);
  return l;
}

std::string summary(const CheckArgs& a, const ReadResult& r) {
  const History& h = r.history;
  std::size_t committed = 0, aborted = 0, unknown = 0;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    switch (h.txn(t).status) {
      case TxnStatus::Committed: ++committed; break;
      case TxnStatus::Aborted: ++aborted; break;
      case TxnStatus::Unknown: ++unknown; break;
    }
  }
  std::string s = fmt::format("{} ({}): {} committed transactions", a.file, format_name(r.format),
                              committed);
  if (aborted) s += fmt::format(", {} aborted", aborted);
  if (unknown) s += fmt::format(", {} of unknown status", unknown);
  s += fmt::format(", {} sessions, {} keys", h.sessions().size(), h.keys().size());
  if (r.explicit_init) s += "; initial state: the file's first transaction, taken as T0";
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
          {"cycle_clauses", s.cycle_clauses}, {"reachability_bytes", s.reach_bytes}};
}

std::string order_text(const History& h, const std::vector<TxnId>& order) {
  std::string s;
  for (TxnId t : order) s += (s.empty() ? "" : " < ") + h.txn(t).name;
  return s;
}

}  // namespace

int run_check(const CheckArgs& a) {
  lua::SpecLibrary lib;
  for (const auto& spec : a.specs) lib.load_file(spec);
  std::vector<const lua::Level*> levels;
  for (const auto& name : a.levels) levels.push_back(&lib.level(name));  // all names first

  Loaded loaded = load(a);
  const History& h = loaded.read.history;
  for (const lua::Level* level : levels)
    if (level->graph.empty() && h.num_txns() - 1 > kGenericMaxTxns)
      throw std::invalid_argument(fmt::format(
          "{}: level {} has no graph characterization, and the generic checker handles at most "
          "{} transactions (this history has {}); check SER, SI, RA or CC, or a smaller history",
          a.file, level->name, kGenericMaxTxns, h.num_txns() - 1));
  if (a.stats || loaded.seconds > 1.0)
    fmt::print(stderr, "read {} in {:.2f} s\n", a.file, loaded.seconds);
  for (const auto& note : loaded.read.notes) fmt::print(stderr, "note: {}\n", note);

  nlohmann::json out = nlohmann::json::array();
  bool any_violated = false, any_unknown = false, dot_written = false;
  if (!a.json) {
    fmt::print("{}\n", summary(a, loaded.read));
    if (h.num_txns() <= 13) fmt::print("{}\n", format_history(h));
  }
  for (const lua::Level* level : levels) {
    if (!level->graph.empty()) {
      poly::CheckOptions opt;
      opt.level = *poly::graph_level_from_name(level->graph);  // validated by the library
      const bool saturation =
          opt.level == poly::GraphLevel::Ra || opt.level == poly::GraphLevel::Cc;
      opt.prune = !a.no_prune;
      opt.acyclicity = a.acyclicity == "eager"  ? poly::Acyclicity::Eager
                       : a.acyclicity == "lazy" ? poly::Acyclicity::Lazy
                                                : poly::Acyclicity::Auto;
      opt.timeout_seconds = a.timeout;
      opt.progress = [&](std::string_view line) {
        fmt::print(stderr, "[{}] {}\n", level->name, line);
      };
      poly::CheckResult r;
      try {
        r = poly::check_history(h, opt);
      } catch (const std::invalid_argument& e) {  // an option the history does not allow
        throw std::invalid_argument(fmt::format("{}: {}", a.file, e.what()));
      }
      any_violated |= r.verdict == poly::Verdict::Violated;
      any_unknown |= r.verdict == poly::Verdict::Unknown;
      std::string word = r.verdict == poly::Verdict::Allowed    ? "allowed"
                         : r.verdict == poly::Verdict::Violated ? "violated"
                                                                : "unknown (time limit)";
      if (a.json) {
        nlohmann::json j{{"level", level->name}, {"verdict", r.verdict == poly::Verdict::Unknown ? "unknown" : word},
                         {"checker", saturation ? "saturation" : "polygraph"}};
        if (r.anomaly) j["anomaly"] = anomaly_json(h, *r.anomaly);
        if (a.witness && r.verdict == poly::Verdict::Allowed) {
          nlohmann::json co = nlohmann::json::array();
          for (TxnId t : r.commit_order) co.push_back(h.txn(t).name);
          j["commit_order"] = co;
        }
        if (!r.notes.empty()) j["notes"] = r.notes;
        if (a.stats) j["stats"] = graph_stats_json(r.stats, loaded.seconds);
        out.push_back(std::move(j));
      } else {
        if (r.anomaly)
          fmt::print("{}: {}: {}\n{}", level->name, word, r.anomaly->name,
                     anomaly_text(h, *r.anomaly));
        else
          fmt::print("{}: {}\n", level->name, word);
        if (a.witness && r.verdict == poly::Verdict::Allowed)
          fmt::print("  commit order: {}\n", order_text(h, r.commit_order));
        for (const auto& note : r.notes) fmt::print("  note: {}\n", note);
      }
      if (a.stats && saturation) {
        const auto& s = r.stats;
        fmt::print(stderr,
                   "{}: parse {:.3f} s, construct {:.3f} s, prune {:.3f} s ({} passes), encode "
                   "{:.3f} s, solve {:.3f} s ({} rounds)\n  {} transactions, {} graph edges, {} "
                   "read choices ({} open after pruning), {} vars, {} clauses ({} cycle), "
                   "happens-before {} bytes\n",
                   level->name, loaded.seconds, s.seconds.construct, s.seconds.prune,
                   s.prune_passes, s.seconds.encode, s.seconds.solve, s.rounds, s.txns,
                   s.known_edges, s.wr_choices, s.wr_open, s.vars, s.clauses, s.cycle_clauses,
                   s.reach_bytes);
      } else if (a.stats) {
        const auto& s = r.stats;
        fmt::print(stderr,
                   "{}: parse {:.3f} s, construct {:.3f} s, prune {:.3f} s ({} passes), encode "
                   "{:.3f} s, solve {:.3f} s ({}){}\n  {} transactions, {} "
                   "known edges, {} ww pairs ({} open), {} read choices ({} open), {} vars, {} "
                   "clauses ({} 2-width, {} cycle)\n",
                   level->name, loaded.seconds, s.seconds.construct, s.seconds.prune,
                   s.prune_passes, s.seconds.encode, s.seconds.solve,
                   s.rounds == 0 ? std::string("decided before solving")
                                 : fmt::format("{} rounds, {} acyclicity", s.rounds,
                                               s.eager ? "eager" : "lazy"),
                   s.seconds.explain > 0
                       ? fmt::format(", explain {:.3f} s", s.seconds.explain)
                       : std::string(),
                   s.txns, s.known_edges, s.ww_pairs, s.ww_open, s.wr_choices, s.wr_open,
                   s.vars, s.clauses, s.two_width_clauses, s.cycle_clauses);
      }
      if (!a.dot.empty() && !dot_written && r.anomaly && !r.anomaly->cycle.empty()) {
        write_text_file(a.dot, anomaly_dot(h, *r.anomaly,
                                           fmt::format("{}: {}", level->name, r.anomaly->name)));
        dot_written = true;
      }
      continue;
    }
    cegis::CheckOptions opt;
    opt.timeout_seconds = a.timeout;
    cegis::CheckResult r = cegis::check(h, *level, opt);
    any_violated |= r.verdict == cegis::Verdict::Denied;
    any_unknown |= r.verdict == cegis::Verdict::Unknown;
    if (a.json) {
      nlohmann::json j = check_result_json(h, *level, r);
      j["checker"] = "generic";
      out.push_back(std::move(j));
    } else {
      fmt::print("{}", check_result_text(h, *level, r));
    }
    if (a.stats)
      fmt::print(stderr, "{}: translate {:.3f} s, solve {:.3f} s, {} gates, {} vars, {} clauses\n",
                 level->name, r.stats.translate_seconds, r.stats.solve_seconds, r.stats.gates,
                 r.stats.sat_vars, r.stats.sat_clauses);
  }
  if (a.json) {
    nlohmann::json doc{{"history", a.file}, {"format", std::string(format_name(loaded.read.format))},
                       {"explicit_init", loaded.read.explicit_init}, {"results", out}};
    if (!loaded.read.notes.empty()) doc["notes"] = loaded.read.notes;
    fmt::print("{}\n", doc.dump(2));
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
    for (const lua::Level* l : lib.levels())
      out.push_back({{"name", l->name}, {"framework", l->framework->name}, {"doc", l->doc},
                     {"defined_at", l->location}});
    fmt::print("{}\n", out.dump(2));
    return kExitOk;
  }
  std::string current;
  for (const lua::Level* l : lib.levels()) {
    std::string group = l->name.substr(0, l->name.find('.'));
    if (group != current) {
      current = group;
      fmt::print("{}:\n", group);
    }
    fmt::print("  {:<18} {}\n", l->name, l->doc);
  }
  fmt::print("\nBare names mean the biswas definition: SER = biswas.SER.\n");
  return kExitOk;
}

int run_show(const ShowArgs& a) {
  History h = read_native_json_file(a.file);
  if (a.json) {
    fmt::print("{}\n", write_native_json(h).dump(2));
  } else {
    fmt::print("{}\n", format_history(h));
  }
  return kExitOk;
}

}  // namespace iso::cli
