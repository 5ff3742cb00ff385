// The catalogue's pictures and page (anomalies_page.hpp).
#include "cli/anomalies_page.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "cli/catalogue_picture.hpp"
#include "cli/classify.hpp"
#include "cli/check_render.hpp"
#include "cli/commands.hpp"
#include "cli/dot.hpp"
#include "cli/html.hpp"
#include "cli/render.hpp"
#include "engine/history/printer.hpp"

namespace iso::cli {

namespace {

// The anchor of level `level`'s verdict on an entry's example.
std::string verdict_id(const lua::Level& anomaly, const lua::Level& level) {
  return html_id("v-" + anomaly_short_name(anomaly) + "-" + level.name);
}

// The picture of entry `k`'s example: its pattern, named as the catalogue
// names it.
std::string entry_dot(const CatalogueEntry& e, const std::vector<const Level*>& forbidding) {
  return catalogue_dot(*e.example, anomaly_display_name(*e.anomaly), forbidding);
}

// The table: a row per level, a column per entry, each cell a link to the
// level's verdict on the entry's example (to the entry when it has none).
std::string table_html(const std::vector<CatalogueEntry>& entries, const std::vector<const lua::Level*>& levels) {
  std::string out = "<table>\n<tr><th>level</th>";
  for (const CatalogueEntry& e : entries)
    out += fmt::format("<th><a href=\"#{}\">{}</a></th>", html_id(anomaly_short_name(*e.anomaly)),
                       html_escape(anomaly_display_name(*e.anomaly)));
  out += "</tr>\n";
  for (std::size_t i = 0; i < levels.size(); ++i) {
    out += "<tr><th>" + html_escape(levels[i]->name) + "</th>";
    for (const CatalogueEntry& e : entries) {
      if (e.example == nullptr) {
        out += fmt::format("<td><a href=\"#{}\">?</a></td>", html_id(anomaly_short_name(*e.anomaly)));
        continue;
      }
      const Verdict v = (*e.decisions)[i].verdict;
      const char* cls = v == Verdict::Allowed ? "allowed" : v == Verdict::Violated ? "forbidden" : "unknown";
      const char* word = v == Verdict::Allowed ? "allowed" : v == Verdict::Violated ? "forbidden" : "?";
      out += fmt::format("<td class=\"{}\"><a href=\"#{}\">{}</a></td>", cls, verdict_id(*e.anomaly, *levels[i]), word);
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

// Level `level`'s verdict on the example `h`, in words (decision_text),
// and for a forbidden one its reason in red: a picture, or a link to the
// one drawn for an earlier level with the same cycle (`drawn`: each cycle
// drawn on this example, its edges as text, and the anchor of its picture).
std::string verdict_html(const History& h, const lua::Level& anomaly, const lua::Level& level, const Decision& d,
                         std::vector<std::pair<std::string, std::string>>& drawn) {
  const std::string id = verdict_id(anomaly, level);
  std::string out = fmt::format("<h4 id=\"{}\">{} on the {} example: {}</h4>\n<pre>{}</pre>\n", id,
                                html_escape(level.name), html_escape(anomaly_display_name(anomaly)),
                                verdict_word(d.verdict), html_escape(decision_text(h, level, d, /*witness=*/true)));
  if (d.verdict != Verdict::Violated) return out;
  std::string cycle;
  if (d.anomaly)
    for (const DepEdge& e : d.anomaly->cycle) cycle += fmt::format("{}>{}:{} ", e.from, e.to, edge_label(h, e));
  if (!cycle.empty())
    for (const auto& [edges, anchor] : drawn)
      if (edges == cycle)
        return out + fmt::format("<p>The picture: the same cycle as <a href=\"#{}\">above</a>.</p>\n", anchor);
  if (!cycle.empty()) drawn.emplace_back(cycle, id);
  return out + render_svg(history_dot(h, {}, {{level.name, &d}}, fmt::format("why {} forbids it", level.name)),
                          "a verdict's picture") +
         "\n";
}

}  // namespace

std::vector<std::vector<const Level*>> forbidding_weakest_first(const std::vector<CatalogueEntry>& entries,
                                                                const std::vector<const lua::Level*>& levels) {
  DecideOptions opt;
  opt.explain = false;
  opt.witness = false;
  // forbids[k][i]: does levels[i] forbid entry k's example?
  std::vector<std::vector<bool>> forbids(entries.size(), std::vector<bool>(levels.size(), false));
  std::vector<std::size_t> forbidden(levels.size(), 0);  // per level: the examples it forbids
  for (std::size_t k = 0; k < entries.size(); ++k)
    for (std::size_t i = 0; entries[k].example != nullptr && i < levels.size(); ++i) {
      try {
        forbids[k][i] = decide(*entries[k].example, *levels[i], opt).verdict == Verdict::Violated;
      } catch (const DecideRefused&) {
        // Not decided: not a level to draw the example by.
      }
      forbidden[i] += forbids[k][i];
    }
  std::vector<std::vector<const Level*>> out;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < levels.size(); ++i)
      if (forbids[k][i]) order.push_back(i);
    // The entry's own framework first: its pattern is written in its terms.
    const Framework* own = entries[k].anomaly->framework;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return std::pair(levels[a]->framework != own, forbidden[a]) < std::pair(levels[b]->framework != own, forbidden[b]);
    });
    out.emplace_back();
    for (std::size_t i : order) out.back().push_back(levels[i]);
  }
  return out;
}

void write_catalogue_dots(const std::string& dir, const std::vector<CatalogueEntry>& entries,
                          const std::vector<const lua::Level*>& picture_levels) {
  const auto forbidding = forbidding_weakest_first(entries, picture_levels);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: cannot create the folder: {}", display_text(dir), ec.message()));
  for (std::size_t k = 0; k < entries.size(); ++k)
    if (entries[k].example != nullptr)
      write_text_file((std::filesystem::path(dir) / (anomaly_short_name(*entries[k].anomaly) + ".dot")).string(),
                      entry_dot(entries[k], forbidding[k]));
}

void write_catalogue_page(const std::string& dir, const std::vector<CatalogueEntry>& entries,
                          const std::vector<const lua::Level*>& levels,
                          const std::vector<const lua::Level*>& picture_levels, const std::string& scope) {
  const auto forbidding = forbidding_weakest_first(entries, picture_levels);
  std::string page = html_begin(fmt::format("Anomalies within scope {}", scope));
  page += "<p>Computed by <code>isosynth anomalies</code>: each anomaly is a pattern "
          "(<code>specs/anomalies.lua</code>); its example is the smallest history of the scope that "
          "exhibits it, and every cell is decided by the same procedure as <code>isosynth check</code>. "
          "Each cell links to that level's verdict on the example: the witness that justifies it when "
          "allowed, the failing axiom or cycle when forbidden. Each picture draws the anomaly's own "
          "pattern in red.</p>\n";
  page += table_html(entries, levels);
  // Each verdict of the page may run Graphviz: on many levels, seconds.
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const CatalogueEntry& e = entries[k];
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > 1.0)
      fmt::print(stderr, "anomalies: drawing the page's pictures of {} ({} of {})\n",
                 anomaly_display_name(*e.anomaly), k + 1, entries.size());
    page += fmt::format("<h2 id=\"{}\">{}</h2>\n<p>{}</p>\n", html_id(anomaly_short_name(*e.anomaly)),
                        html_escape(anomaly_display_name(*e.anomaly)), html_escape(e.anomaly->doc));
    if (e.example == nullptr) {
      page += e.timeout ? "<p>The time limit ran out before an example was found.</p>\n"
                        : "<p>No history of the scope exhibits it.</p>\n";
      continue;
    }
    page += "<pre>" + html_escape(format_history(*e.example)) + "</pre>\n";
    page += render_svg(entry_dot(e, forbidding[k]), "an anomaly's picture") + "\n";
    page += "<h3>Each level's verdict on it</h3>\n";
    std::vector<std::pair<std::string, std::string>> drawn;
    for (std::size_t i = 0; i < levels.size(); ++i)
      page += verdict_html(*e.example, *e.anomaly, *levels[i], (*e.decisions)[i], drawn);
  }
  page += html_end();
  write_html_page(dir, page);
}

}  // namespace iso::cli
