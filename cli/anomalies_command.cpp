// isosynth anomalies: the catalogue of named anomalies (specs/anomalies.lua),
// each with the smallest history that exhibits it, synthesized and decided
// at every level: the table "level x anomaly: allowed / forbidden".
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cegis/synthesizer.hpp"
#include "cli/anomalies_page.hpp"
#include "cli/classify.hpp"
#include "cli/db_table.hpp"
#include "cli/commands.hpp"
#include "cli/dot.hpp"
#include "cli/html.hpp"
#include "cli/render.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"
#include "engine/util/thread_pool.hpp"

namespace iso::cli {


std::vector<const Level*> violated_levels(const History& h, const std::vector<const Level*>& levels) {
  DecideOptions opt;
  opt.explain = false;
  opt.witness = false;
  std::vector<const Level*> out;
  for (const Level* l : levels)
    if (decide(h, *l, opt).verdict == Verdict::Violated) out.push_back(l);
  return out;
}

namespace {

// One anomaly of the catalogue: its smallest example (none when the scope
// has none, or time ran out) and each level's verdict on it.
struct Row {
  const lua::Level* anomaly;
  std::optional<History> example;
  std::vector<Verdict> verdicts;  // per level
  bool timeout = false;
  std::vector<Decision> decisions;  // per level, for the page's verdicts
  std::vector<const lua::Level*> exhibits;  // what the classifier names the example
};

// One anomaly's smallest example within `scope`, synthesized, and every
// level's verdict on it.
Row catalogue_row(const lua::SpecLibrary& lib, const std::vector<const lua::Level*>& levels, const lua::Level* an,
                  const cegis::Scope& scope, double timeout) {
  cegis::Problem p;
  p.deny = {an};
  p.scope = scope;
  cegis::SynthOptions opt;
  opt.timeout_seconds = timeout;
  // The smallest example without session order when there is one (the
  // literature's long fork has four sessions; Adya's levels know none),
  // else the smallest with it.
  p.space.sessions = false;
  cegis::SynthResult r = cegis::synthesize(p, opt);
  if (r.outcome == cegis::Outcome::None) {
    p.space.sessions = true;
    r = cegis::synthesize(p, opt);
  }
  if (r.outcome == cegis::Outcome::Found) r = cegis::minimize(p, std::move(r), opt);
  Row row{an, std::nullopt, {}, r.outcome == cegis::Outcome::Timeout, {}, {}};
  if (r.outcome == cegis::Outcome::Found) {
    row.example = *r.history;
    row.exhibits = classify(lib, *row.example);
    for (const lua::Level* l : levels) {
      row.decisions.push_back(decide(*row.example, *l));
      row.verdicts.push_back(row.decisions.back().verdict);
    }
  }
  return row;
}

// Every anomaly's row, `jobs` at once (each row is independent: its own
// searches and decisions over the read-only library), in the catalogue's
// order.
std::vector<Row> catalogue(const lua::SpecLibrary& lib, const std::vector<const lua::Level*>& levels,
                           const cegis::Scope& scope, double timeout, std::size_t jobs) {
  const std::vector<const lua::Level*> anomalies = lib.anomalies();
  std::vector<std::optional<Row>> rows(anomalies.size());
  const auto start = std::chrono::steady_clock::now();
  for_each_ordered(anomalies.size(), jobs, [&](std::size_t k) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > 1.0)
      fmt::print(stderr, "anomalies: synthesizing the example of {}\n", anomaly_display_name(*anomalies[k]));
    rows[k] = catalogue_row(lib, levels, anomalies[k], scope, timeout);
  });
  std::vector<Row> out;
  for (auto& r : rows) out.push_back(std::move(*r));
  return out;
}

// As hierarchy: the time limit left something undecided (an example not
// synthesized, a cell unknown), so the table is not the answer: exit 3.
int exit_code(const std::vector<Row>& rows) {
  const bool undecided = std::any_of(rows.begin(), rows.end(), [](const Row& r) {
    return r.timeout || std::count(r.verdicts.begin(), r.verdicts.end(), Verdict::Unknown) > 0;
  });
  return undecided ? kExitTimeout : kExitOk;
}

// The levels a picture may be drawn by: every level of the library that
// needs no database timestamps (which synthesized examples lack).
std::vector<const lua::Level*> picture_levels(const lua::SpecLibrary& lib) {
  std::vector<const lua::Level*> out;
  for (const lua::Level* l : lib.levels())
    if (!l->uses_db_timestamps()) out.push_back(l);
  return out;
}

// The entries as the pictures and the page take them.
std::vector<CatalogueEntry> entries(const std::vector<Row>& rows) {
  std::vector<CatalogueEntry> out;
  for (const Row& r : rows)
    out.push_back({r.anomaly, r.example ? &*r.example : nullptr, r.example ? &r.decisions : nullptr, r.timeout});
  return out;
}

void print_json(const std::vector<Row>& rows, const std::vector<const lua::Level*>& levels,
                const cegis::Scope& scope) {
  nlohmann::json list = nlohmann::json::array();
  for (const Row& row : rows) {
    nlohmann::json j{{"anomaly", row.anomaly->name}, {"doc", row.anomaly->doc}};
    if (row.example) {
      j["example"] = write_native_json(*row.example);
      j["exhibits"] = exhibits_json(row.exhibits);
      nlohmann::json v = nlohmann::json::object();
      for (std::size_t i = 0; i < levels.size(); ++i) v[levels[i]->name] = std::string(verdict_word(row.verdicts[i]));
      j["verdicts"] = v;
    } else {
      j["example"] = nullptr;
      j["why"] = row.timeout ? "time limit" : "no history of the scope exhibits it";
    }
    list.push_back(std::move(j));
  }
  fmt::print("{}\n", dump_json(nlohmann::json{{"scope", scope.text()}, {"anomalies", list}}));
}

// Each anomaly's column heading, its abbreviation; one taken twice gets
// the anomaly's place in the catalogue appended.
std::vector<std::string> column_names(const std::vector<Row>& rows) {
  std::vector<std::string> out;
  for (const Row& row : rows) out.push_back(escape_text(anomaly_abbreviation(*row.anomaly)));
  for (std::size_t k = 0; k < out.size(); ++k)
    if (std::count(out.begin(), out.end(), out[k]) > 1) out[k] += std::to_string(k + 1);
  return out;
}

// The table: a row per level, a column per anomaly, then the key.
void print_table(const std::vector<Row>& rows, const std::vector<const lua::Level*>& levels,
                 const std::vector<std::string>& columns) {
  std::size_t width = 0, cell = 2;
  for (const auto* l : levels) width = std::max(width, escape_text(l->name).size());
  for (const auto& c : columns) cell = std::max(cell, c.size() + 1);
  fmt::print("level x anomaly (A: allows the example, -: forbids it, ?: undecided):\n{:<{}}", "", width + 2);
  for (const auto& c : columns) fmt::print("{:>{}}", c, cell);
  fmt::print("\n");
  for (std::size_t i = 0; i < levels.size(); ++i) {
    fmt::print("{:<{}}", escape_text(levels[i]->name), width + 2);
    for (const Row& row : rows) {
      const char* mark = !row.example                                 ? "?"
                         : row.verdicts[i] == Verdict::Allowed        ? "A"
                         : row.verdicts[i] == Verdict::Violated       ? "-"
                                                                      : "?";
      fmt::print("{:>{}}", mark, cell);
    }
    fmt::print("\n");
  }
  fmt::print("key:\n");
  std::size_t key_width = 0;
  for (const auto& c : columns) key_width = std::max(key_width, c.size());
  for (std::size_t k = 0; k < rows.size(); ++k)
    fmt::print("  {:<{}}  {}\n", columns[k], key_width, escape_text(anomaly_label(*rows[k].anomaly)));
}

// The catalogue for people: each anomaly with its example and what the
// classifier names it, then the table.
void print_text(const std::vector<Row>& rows, const std::vector<const lua::Level*>& levels,
                const cegis::Scope& scope) {
  fmt::print("anomalies within scope {}, each with its smallest example:\n{}\n\n", scope.text(), notation_legend());
  const std::vector<std::string> columns = column_names(rows);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Row& row = rows[k];
    fmt::print("{} = {} [{}]: {}\n", columns[k], escape_text(anomaly_label(*row.anomaly)),
               escape_text(row.anomaly->name), escape_text(row.anomaly->doc));
    if (row.example)
      fmt::print("   {}\n   {}\n\n", history_one_line(*row.example), escape_text(exhibits_line(row.exhibits)));
    else
      fmt::print("   {}\n\n", row.timeout ? "(time limit)" : "(no history of the scope exhibits it)");
  }
  print_table(rows, levels, columns);
}

}  // namespace

int run_anomalies(const AnomaliesArgs& a) {
  lua::SpecLibrary lib;
  for (const auto& spec : a.specs) lib.load_file(spec);
  std::vector<const lua::Level*> levels;
  if (a.levels.empty()) {
    // Synthesized examples have no database timestamps, which the
    // Timestamp levels need: those are left out of the default table.
    for (const lua::Level* l : lib.levels())
      if (!l->uses_db_timestamps()) levels.push_back(l);
  } else {
    for (const auto& n : a.levels) levels.push_back(&lib.level(n));
  }
  const cegis::Scope scope = cegis::parse_scope(a.scope);
  const std::vector<Row> rows = catalogue(lib, levels, scope, a.timeout, a.jobs);
  if (!a.db.db.empty()) {
    std::vector<Probe> probes;
    const std::vector<std::string> columns = column_names(rows);
    for (const Row& r : rows)
      probes.push_back({anomaly_label(*r.anomaly), r.anomaly->doc, r.anomaly, r.example, r.anomaly->run_example,
                        columns[probes.size()]});
    const int code = run_probes_on_database(a.db, TableOutput{a.json, a.html, "anomaly"}, probes, levels);
    return code == kExitOk ? exit_code(rows) : code;
  }
  if (!a.html.empty()) write_catalogue_page(a.html, entries(rows), levels, picture_levels(lib), scope.text());
  if (!a.dot.empty()) write_catalogue_dots(a.dot, entries(rows), picture_levels(lib));
  if (a.json)
    print_json(rows, levels, scope);
  else
    print_text(rows, levels, scope);
  return exit_code(rows);
}

}  // namespace iso::cli
