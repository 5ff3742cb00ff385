// check --stats (check_stats.hpp): phase times and sizes on stderr and in
// JSON.
#include "cli/check_stats.hpp"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace iso::cli {

namespace {

// A phase that completed has taken some time; one that was cut short by the
// time limit, or did not run, has none recorded.
bool completed(double seconds) { return seconds > 0; }

// "construct 0.412 s, prune 2.100 s", for the phases that completed.
std::string completed_phases(const std::vector<std::pair<const char*, double>>& phases) {
  std::string out;
  for (const auto& [name, seconds] : phases)
    if (completed(seconds)) out += fmt::format("{}{} {:.3f} s", out.empty() ? "" : ", ", name, seconds);
  return out;
}

// "100000 transactions, 499317 ww pairs", for the sizes measured.
std::string measured_sizes(const std::vector<std::pair<const char*, std::size_t>>& sizes) {
  std::string out;
  for (const auto& [name, n] : sizes)
    if (n > 0) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, name);
  return out;
}

// The peak resident memory at the end of each phase that ran, in MB.
// `chains`: the reachability index's chains (0: bitsets), where it has them.
void print_peaks(const poly::PhasePeaks& p, std::size_t reach_bytes, std::optional<std::uint32_t> chains = {}) {
  std::string line;
  for (const auto& [name, bytes] : {std::pair{"construct", p.construct}, std::pair{"prune", p.prune},
                                    std::pair{"encode", p.encode}, std::pair{"end", p.end}})
    if (bytes > 0) line += fmt::format("{}{} {:.0f} MB", line.empty() ? "" : ", ", name, bytes / 1e6);
  if (line.empty()) return;
  fmt::print(stderr, "  peak memory after: {}{}\n", line,
             reach_bytes == 0 ? std::string()
             : !chains        ? fmt::format(" (reachability {:.0f} MB)", reach_bytes / 1e6)
             : *chains == 0   ? fmt::format(" (reachability {:.0f} MB, bitsets)", reach_bytes / 1e6)
                              : fmt::format(" (reachability {:.0f} MB, {} chains)", reach_bytes / 1e6, *chains));
}

// The phases by their JSON names (the timestamps' check keeps the graph
// checkers' names there: construct is its preparation, solve its check).
std::vector<std::pair<const char*, double>> phases(const Decision& d, double parse_seconds) {
  if (d.checker == Checker::Generic)
    return {{"parse", parse_seconds}, {"translate", d.generic_stats.translate_seconds},
            {"solve", d.generic_stats.solve_seconds}};
  const poly::PhaseSeconds& s = d.graph_stats.seconds;
  return {{"parse", parse_seconds}, {"construct", s.construct}, {"prune", s.prune},
          {"encode", s.encode},     {"solve", s.solve},         {"explain", s.explain}};
}

std::vector<std::pair<const char*, std::size_t>> sizes(const Decision& d) {
  if (d.checker == Checker::Generic) {
    const GenericStats& s = d.generic_stats;
    return {{"gates", s.gates}, {"vars", s.sat_vars}, {"clauses", s.sat_clauses}, {"solver calls", s.solver_calls}};
  }
  const poly::CheckStats& s = d.graph_stats;
  return {{"transactions", s.txns},       {"known edges", s.known_edges}, {"ww pairs", s.ww_pairs},
          {"read choices", s.wr_choices}, {"prune passes", s.prune_passes}, {"vars", s.vars},
          {"clauses", s.clauses},         {"rounds", s.rounds},           {"cycle clauses", s.cycle_clauses}};
}

// Out of time: what was measured, and nothing that was not.
void print_unknown_stats(const Level& level, const Decision& d, double parse_seconds, double decide_seconds) {
  fmt::print(stderr, "{}: time limit reached after {:.3f} s; completed: {}\n", level.name, decide_seconds,
             completed_phases(phases(d, parse_seconds)));
  const std::string measured = measured_sizes(sizes(d));
  if (!measured.empty()) fmt::print(stderr, "  measured: {}\n", measured);
  if (d.checker != Checker::Generic)
    print_peaks(d.graph_stats.peak_bytes, d.graph_stats.reach_bytes,
                d.checker == Checker::Polygraph ? std::optional(d.graph_stats.reach_chains) : std::nullopt);
}

}  // namespace

void print_stats(const Level& level, const Decision& d, double parse_seconds, double decide_seconds) {
  if (d.verdict == Verdict::Unknown) return print_unknown_stats(level, d, parse_seconds, decide_seconds);
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
  print_peaks(s.peak_bytes, s.reach_bytes, s.reach_chains);
}

nlohmann::json stats_json(const Decision& d, double parse_seconds, double decide_seconds) {
  // Out of time, a phase that did not complete has no time: null, not 0.
  nlohmann::json seconds = nlohmann::json::object();
  for (const auto& [name, s] : phases(d, parse_seconds))
    seconds[name] = d.verdict == Verdict::Unknown && !completed(s) ? nlohmann::json(nullptr) : nlohmann::json(s);
  seconds["decide"] = decide_seconds;
  if (d.checker == Checker::Generic) {
    const GenericStats& s = d.generic_stats;
    return {{"seconds", seconds}, {"gates", s.gates}, {"vars", s.sat_vars}, {"clauses", s.sat_clauses},
            {"solver_calls", s.solver_calls}};
  }
  const poly::CheckStats& s = d.graph_stats;
  return {{"seconds", seconds}, {"acyclicity", s.eager ? "eager" : "lazy"},
          {"transactions", s.txns}, {"known_edges", s.known_edges},
          {"ww_pairs", s.ww_pairs}, {"ww_open", s.ww_open},
          {"read_choices", s.wr_choices}, {"read_choices_open", s.wr_open},
          {"prune_passes", s.prune_passes}, {"vars", s.vars}, {"clauses", s.clauses},
          {"two_width_clauses", s.two_width_clauses}, {"rounds", s.rounds},
          {"cycle_clauses", s.cycle_clauses}, {"reachability_bytes", s.reach_bytes},
          {"reachability_chains", s.reach_chains},
          {"peak_bytes", {{"construct", s.peak_bytes.construct}, {"prune", s.peak_bytes.prune},
                          {"encode", s.peak_bytes.encode}, {"end", s.peak_bytes.end}}}};
}

}  // namespace iso::cli
