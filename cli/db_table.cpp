// Hermitage's table (db_table.hpp): every probe run at every level the
// database offers, as text, JSON and HTML.
#include "cli/db_table.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/db_run.hpp"
#include "cli/dot.hpp"
#include "cli/html.hpp"
#include "cli/render.hpp"
#include "db/schedule.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/one_line.hpp"
#include "engine/history/printer.hpp"

namespace iso::cli {

namespace {

// One anomaly as run: the example chosen and its schedules.
struct Runnable {
  const Probe* probe = nullptr;
  std::optional<History> example;  // none: neither example has a schedule
  bool declared = false;           // the anomaly's run_example, not the synthesized one
  db::ScheduleSearch schedules;
  std::vector<Verdict> formal;     // per formal level, on the example
};

// How weak an interpretation a schedule needs: snapshot reads are the
// strongest (every product level shows them), dirty writes the weakest.
int weakness(const db::Schedule& s) {
  return static_cast<int>(s.model) + (s.dirty_writes ? 3 : 0);
}

// The example to run: of the synthesized one and the declared run_example,
// the one some schedule realizes with the strongest read model (so that a
// level that shows the anomaly can show it on that example), the
// synthesized one on a tie.
Runnable choose(const Probe& e, const RunSettings& settings) {
  Runnable best{&e, std::nullopt, false, {{}, true}, {}};
  std::vector<std::pair<History, bool>> candidates;
  if (e.synthesized && !db::unsupported(*e.synthesized)) candidates.emplace_back(*e.synthesized, false);
  if (!e.run_example.empty())
    candidates.emplace_back(parse_one_line(e.run_example, e.target->name + ".run_example"), true);
  for (auto& [h, declared] : candidates) {
    db::ScheduleSearch s = schedules_for(h, "", settings.attempts);
    const bool better = !s.schedules.empty() &&
                        (!best.example || best.schedules.schedules.empty() ||
                         weakness(s.schedules.front()) < weakness(best.schedules.schedules.front()));
    if (!best.example || better) {
      best.example = std::move(h);
      best.declared = declared;
      best.schedules = std::move(s);
    }
  }
  return best;
}

struct Cell {
  std::optional<RunReport> report;  // none: no example
};

char letter(const Cell& c) {
  if (!c.report) return '?';
  switch (c.report->verdict) {
    case RunVerdict::Exhibited: return 'E';
    case RunVerdict::PreventedByAbort: return 'A';
    case RunVerdict::PreventedByBlocking: return 'B';
    case RunVerdict::Diverged: return 'D';
    case RunVerdict::Reproduced: return 'E';
    case RunVerdict::Unrealizable: return 'n';
  }
  return '?';
}

bool decided(const Cell& c) { return c.report && c.report->verdict != RunVerdict::Unrealizable; }
bool exhibited(const Cell& c) { return c.report && c.report->verdict == RunVerdict::Exhibited; }

// The formal levels whose verdicts on the examples match the product
// level's row: allowed where the database exhibited the anomaly, forbidden
// where it prevented it (cells without a run say nothing).
std::vector<std::string> behaves_as(const std::vector<Runnable>& rows, const std::vector<Cell>& cells,
                                    const std::vector<const lua::Level*>& formal) {
  std::vector<std::string> out;
  for (std::size_t f = 0; f < formal.size(); ++f) {
    bool match = true;
    for (std::size_t r = 0; r < rows.size() && match; ++r) {
      if (!decided(cells[r]) || rows[r].formal.empty()) continue;
      const Verdict v = rows[r].formal[f];
      if (v == Verdict::Unknown || v == Verdict::NotApplicable) continue;
      match = (v == Verdict::Allowed) == exhibited(cells[r]);
    }
    if (match) out.push_back(formal[f]->name);
  }
  return out;
}

std::string cell_line(const Runnable& row, const Cell& c) {
  if (!row.example) return "no example";
  if (!c.report) return "?";
  std::string s = run_verdict_word(c.report->verdict);
  if (c.report->attempts.empty()) return s;
  const Attempt& a = c.report->attempts.back();
  return fmt::format("{}; recorded {}", s, history_one_line(a.record.recorded, false));
}

void write_page(const TableOutput& out, const Database& database, const std::vector<db::ProductLevel>& levels,
                const std::vector<Runnable>& rows, const std::vector<std::vector<Cell>>& cells,
                const std::vector<std::vector<std::string>>& matches) {
  std::string page = html_begin(fmt::format("Isolation levels of {}", database.product()));
  page += fmt::format("<p>Computed by <code>isosynth</code> on {} ({}): each {}'s history was run "
                      "at each level by the schedule that should produce its reads, and what the database returned "
                      "was recorded and checked. E: exhibited; A: prevented by abort; B: prevented by blocking; "
                      "D: the database returned other values; n: no schedule realizes the example.</p>\n",
                      html_escape(database.product()), html_escape(db::redact_url(database.url())),
                      html_escape(out.what));
  page += "<table>\n<tr><th>level</th>";
  for (const Runnable& r : rows)
    page += fmt::format("<th>{}</th>", html_escape(r.probe->label));
  page += "</tr>\n";
  for (std::size_t l = 0; l < levels.size(); ++l) {
    page += "<tr><th>" + html_escape(db::level_name(levels[l])) + "</th>";
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const char c = letter(cells[l][r]);
      page += fmt::format("<td class=\"{}\"><a href=\"#{}\">{}</a></td>",
                          c == 'E' ? "allowed" : c == 'n' || c == '?' ? "" : "forbidden",
                          html_id(fmt::format("{}-{}", rows[r].probe->label, l)), c);
    }
    page += "</tr>\n";
  }
  page += "</table>\n<p>Behaves as, on these histories (the formal levels allowing exactly what it exhibited):</p>\n<ul>\n";
  for (std::size_t l = 0; l < levels.size(); ++l)
    page += fmt::format("<li>{}: {}</li>\n", html_escape(db::level_name(levels[l])),
                        html_escape(matches[l].empty() ? "none of the levels" : fmt::format("{}", fmt::join(matches[l], ", "))));
  page += "</ul>\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    page += fmt::format("<h2>{}</h2>\n<p>{}</p>\n", html_escape(rows[r].probe->label),
                        html_escape(rows[r].probe->doc));
    if (!rows[r].example) continue;
    page += "<pre>" + html_escape(history_one_line(*rows[r].example)) + "</pre>\n";
    for (std::size_t l = 0; l < levels.size(); ++l) {
      const Cell& c = cells[l][r];
      page += fmt::format("<h3 id=\"{}\">{}: {}</h3>\n", html_id(fmt::format("{}-{}", rows[r].probe->label, l)),
                          html_escape(db::level_name(levels[l])),
                          html_escape(c.report ? run_verdict_word(c.report->verdict) : "?"));
      if (!c.report) continue;
      std::string lines;
      for (const std::string& line : describe(*rows[r].example, *c.report)) lines += line + "\n";
      page += "<pre>" + html_escape(lines) + "</pre>\n";
      if (!c.report->attempts.empty())
        page += render_svg(recorded_run_dot(*c.report), "a recorded run's picture") + "\n";
    }
  }
  page += html_end();
  write_html_page(out.html, page);
}

// Row r's column heading: the probe's own, else its number.
std::string column(const std::vector<Runnable>& rows, std::size_t r) {
  return rows[r].probe->column.empty() ? std::to_string(r + 1) : escape_text(rows[r].probe->column);
}

}  // namespace

int run_probes_on_database(const DbArgs& dba, const TableOutput& out, const std::vector<Probe>& probes,
                           const std::vector<const lua::Level*>& formal_levels) {
  const Database database(dba.db);
  const std::vector<db::ProductLevel> levels = database.choose(dba.db_levels);
  const RunSettings settings = run_settings(dba);

  std::vector<Runnable> rows;
  for (const Probe& e : probes) {
    Runnable r = choose(e, settings);
    if (r.example)
      for (const lua::Level* f : formal_levels) r.formal.push_back(decide(*r.example, *f).verdict);
    rows.push_back(std::move(r));
  }
  std::vector<std::vector<Cell>> cells(levels.size(), std::vector<Cell>(rows.size()));
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t l = 0; l < levels.size(); ++l)
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (!rows[r].example) continue;
      if (std::chrono::steady_clock::now() - start > std::chrono::seconds(1))
        fmt::print(stderr, "running {} at {}\n", escape_text(rows[r].probe->label),
                   db::level_name(levels[l]));
      cells[l][r].report = run_on_database(database, levels[l], *rows[r].example, rows[r].schedules,
                                           {rows[r].probe->target}, settings);
    }
  std::vector<std::vector<std::string>> matches;
  for (std::size_t l = 0; l < levels.size(); ++l) matches.push_back(behaves_as(rows, cells[l], formal_levels));

  if (!out.html.empty()) write_page(out, database, levels, rows, cells, matches);
  if (out.json) {
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t r = 0; r < rows.size(); ++r) {
      nlohmann::json j{{out.what, rows[r].probe->label}, {"target", rows[r].probe->target->name},
                       {"declared_example", rows[r].declared}};
      j["example"] = rows[r].example ? write_native_json(*rows[r].example) : nlohmann::json(nullptr);
      nlohmann::json runs = nlohmann::json::array();
      for (std::size_t l = 0; l < levels.size(); ++l)
        if (cells[l][r].report) runs.push_back(report_json(*rows[r].example, *cells[l][r].report));
      j["runs"] = std::move(runs);
      list.push_back(std::move(j));
    }
    nlohmann::json placed = nlohmann::json::object();
    for (std::size_t l = 0; l < levels.size(); ++l) placed[db::level_name(levels[l])] = matches[l];
    fmt::print("{}\n", dump_json(nlohmann::json{{"database", db::redact_url(database.url())},
                                                 {"product", database.product()},
                                                 {"probes", std::move(list)},
                                                 {"behaves_as", std::move(placed)}}));
    return kExitOk;
  }
  fmt::print("database: {}\n\n", escape_text(database.product()));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    fmt::print("{}{} {}: {}\n", column(rows, r), rows[r].probe->column.empty() ? "." : " =", escape_text(rows[r].probe->label),
               rows[r].example ? history_one_line(*rows[r].example) : "(no example)");
    for (std::size_t l = 0; l < levels.size(); ++l)
      fmt::print("   {}: {}\n", db::level_name(levels[l]), cell_line(rows[r], cells[l][r]));
  }
  std::size_t width = 0;
  for (auto l : levels) width = std::max(width, db::level_name(l).size());
  fmt::print("\nlevel x {} (E: exhibited, A: prevented by abort, B: prevented by blocking, "
             "D: other values, n: no schedule):\n{:<{}}", out.what, "", width + 2);
  std::size_t cell = 3;
  for (std::size_t r = 0; r < rows.size(); ++r) cell = std::max(cell, column(rows, r).size() + 1);
  for (std::size_t r = 0; r < rows.size(); ++r) fmt::print("{:>{}}", column(rows, r), cell);
  fmt::print("\n");
  for (std::size_t l = 0; l < levels.size(); ++l) {
    fmt::print("{:<{}}", db::level_name(levels[l]), width + 2);
    for (std::size_t r = 0; r < rows.size(); ++r) fmt::print("{:>{}}", letter(cells[l][r]), cell);
    fmt::print("\n");
  }
  fmt::print("\nbehaves as, on these histories (the formal levels allowing exactly what it exhibited):\n");
  for (std::size_t l = 0; l < levels.size(); ++l)
    fmt::print("  {}: {}\n", db::level_name(levels[l]),
               matches[l].empty() ? "none of the levels" : fmt::format("{}", fmt::join(matches[l], ", ")));
  return kExitOk;
}

}  // namespace iso::cli
