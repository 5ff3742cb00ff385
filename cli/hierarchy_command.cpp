// isosynth hierarchy: every ordered pair of levels decided within a scope,
// the equivalence classes and the Hasse diagram, with a minimal separating
// history for every non-implication (cegis/hierarchy.hpp).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cegis/hierarchy.hpp"
#include "cli/classify.hpp"
#include "cli/commands.hpp"
#include "cli/db_table.hpp"
#include "cli/dot.hpp"
#include "cli/html.hpp"
#include "cli/proof_report.hpp"
#include "cli/render.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"
#include "engine/util/thread_pool.hpp"

namespace iso::cli {

namespace {

// Why the second level of a pair that does not imply rejects its history:
// the decision (for pictures), what the history exhibits and its name
// (cli/classify.hpp: the catalogue's, whichever pair it was found for).
// Decided once per pair, for every output.
struct Rejection {
  Decision decision;
  std::vector<const lua::Level*> exhibits;
  std::string name;
};
using Rejections = std::vector<std::vector<std::optional<Rejection>>>;

// The separated pairs' rejections, `jobs` at once: each reads its own
// history and the library, and writes its own cell.
Rejections rejections(const lua::SpecLibrary& lib, const cegis::Hierarchy& hy, std::size_t jobs) {
  const std::size_t n = hy.levels.size();
  Rejections out(n, std::vector<std::optional<Rejection>>(n));
  std::vector<std::pair<std::size_t, std::size_t>> separated;
  for (std::size_t x = 0; x < n; ++x)
    for (std::size_t y = 0; y < n; ++y)
      if (hy.pairs[x][y].separation && hy.pairs[x][y].separation->history) separated.emplace_back(x, y);
  for_each_ordered(separated.size(), jobs, [&](std::size_t k) {
    const auto [x, y] = separated[k];
    const History& h = *hy.pairs[x][y].separation->history;
    Decision d = decide(h, *hy.levels[y]);
    std::vector<const lua::Level*> exhibits = classify(lib, h);
    const bool cycle = d.anomaly && !d.anomaly->cycle.empty();
    std::string name = history_name(exhibits, cycle ? std::string_view(d.anomaly->name) : std::string_view());
    out[x][y] = Rejection{std::move(d), std::move(exhibits), std::move(name)};
  });
  return out;
}

std::string class_name(const cegis::Hierarchy& hy, std::size_t c, const char* sep) {
  std::string s;
  for (std::size_t i : hy.classes[c]) s += (s.empty() ? "" : sep) + hy.levels[i]->name;
  return s;
}

// With --prove: each class and each cover proved for every size, refuted
// by a history beyond the scope, or bounded (true within the scope, no more
// known).
enum class Standing : std::uint8_t { Proved, Refuted, Bounded };
const char* standing_word(Standing s) {
  return s == Standing::Proved ? "proved" : s == Standing::Refuted ? "refuted beyond the scope" : "bounded";
}
struct ProofStatus {
  std::vector<Standing> classes, covers;
};

std::string hierarchy_dot(const cegis::Hierarchy& hy, const Rejections& why, const std::string& scope,
                          const ProofStatus* proved) {
  std::string out = fmt::format(
      "digraph hierarchy {{\n  rankdir=TB;\n  labelloc=t;\n  label=\"{}\";\n  fontname=\"sans-serif\";\n"
      "  node [shape=box, style=rounded, fontname=\"monospace\"];\n  edge [fontname=\"sans-serif\", fontsize=10];\n",
      dot_escape(fmt::format("levels within scope {}: an arrow from a stronger level to a weaker one,", scope)) +
          "\\l" + dot_escape("labelled with the anomaly the weaker allows and the stronger forbids") + "\\l");
  // With proofs: a class proved equal says so; a cover proved is drawn
  // solid, one bounded by the scope dashed.
  for (std::size_t c = 0; c < hy.classes.size(); ++c) {
    std::string label = class_name(hy, c, "\n= ");
    if (proved && hy.classes[c].size() > 1)
      label += fmt::format("\n(equal: {})", standing_word(proved->classes[c]));
    out += fmt::format("  c{} [label=\"{}\"];\n", c, dot_escape(label));
  }
  for (std::size_t e = 0; e < hy.covers.size(); ++e) {
    const auto [strong, weak] = hy.covers[e];
    const auto& r = why[hy.classes[weak][0]][hy.classes[strong][0]];
    std::string label = r ? r->name : "";
    std::string style;
    if (proved) {
      label += fmt::format("\n({})", standing_word(proved->covers[e]));
      style = proved->covers[e] == Standing::Proved ? "" : ", style=dashed";
    }
    out += fmt::format("  c{} -> c{} [label=\"{}\"{}];\n", strong, weak, dot_escape(label), style);
  }
  out += "}\n";
  return out;
}

// The section of a separated pair (x, y): its history in the papers'
// notation, each level's verdict on it in words (x's witness, y's cycle or
// failing axiom), and its picture.
std::string separation_html(const cegis::Hierarchy& hy, const Rejections& why, std::size_t x, std::size_t y,
                            const std::string& id) {
  const auto& levels = hy.levels;
  const auto& pr = hy.pairs[x][y];
  const History& h = *pr.separation->history;
  const std::string& name = why[x][y]->name;
  std::vector<LabelledWitness> ws{{levels[x]->name, &pr.separation->allow_witnesses[0]}};
  std::vector<Denial> ds{{levels[y]->name, &why[x][y]->decision}};
  const std::string title = fmt::format("allowed by {}, forbidden by {}", levels[x]->name, levels[y]->name);
  const Decision allowed = decide(h, *levels[x]);
  return fmt::format("<h3 id=\"{}\">{}{}</h3>\n<pre>{}</pre>\n<pre>{}</pre>\n<pre>{}</pre>\n{}\n", id,
                     html_escape(title), name.empty() ? "" : html_escape(": " + name), html_escape(format_history(h)),
                     html_escape(decision_text(h, *levels[x], allowed, /*witness=*/true)),
                     html_escape(decision_text(h, *levels[y], why[x][y]->decision, /*witness=*/false)),
                     render_svg(history_dot(h, ws, ds, title), "a separating history"));
}

// The table of every ordered pair; each cell links to what it stands for:
// the level's class (the diagonal), the implication, the separating
// history with both verdicts, or why the pair is undecided. `sections`
// gets the separations, `facts` the implications and undecided pairs.
std::string pairs_table_html(const cegis::Hierarchy& hy, const Rejections& why, std::string& sections,
                             std::string& facts) {
  const auto& levels = hy.levels;
  std::vector<std::size_t> class_of(levels.size(), 0);
  for (std::size_t c = 0; c < hy.classes.size(); ++c)
    for (std::size_t i : hy.classes[c]) class_of[i] = c;
  std::string out = "<table>\n<tr><th></th>";
  for (const auto* l : levels) out += "<th>" + html_escape(l->name) + "</th>";
  out += "</tr>\n";
  for (std::size_t x = 0; x < levels.size(); ++x) {
    out += "<tr><th>" + html_escape(levels[x]->name) + "</th>";
    for (std::size_t y = 0; y < levels.size(); ++y) {
      const auto& pr = hy.pairs[x][y];
      const std::string a = html_escape(levels[x]->name), b = html_escape(levels[y]->name);
      if (x == y) {
        out += fmt::format("<td><a href=\"#class-{}\">=</a></td>", class_of[x]);
      } else if (pr.relation == cegis::Relation::Implies) {
        out += fmt::format("<td class=\"implies\"><a href=\"#i{}-{}\">&rArr;</a></td>", x, y);
        facts += fmt::format("<li id=\"i{}-{}\">{} &rArr; {}: every history of the scope that {} allows, {} allows "
                             "too ({})</li>\n",
                             x, y, a, b, a, b,
                             pr.by_transitivity ? "from two other implications" : "no separating history exists");
      } else if (pr.relation == cegis::Relation::Separated) {
        const std::string& name = why[x][y]->name;
        const std::string id = fmt::format("p{}-{}", x, y);
        out += fmt::format("<td class=\"not-implied\"><a href=\"#{}\">{}</a></td>", id,
                           html_escape(name));
        sections += separation_html(hy, why, x, y, id);
      } else {
        out += fmt::format("<td><a href=\"#u{}-{}\">?</a></td>", x, y);
        facts += fmt::format("<li id=\"u{}-{}\">{} and {}: undecided (the time limit ran out before the search "
                             "ended)</li>\n", x, y, a, b);
      }
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

// A self-contained page (no script, no network): the Hasse diagram, the
// table of every ordered pair, and for each separation its history in the
// papers' notation with both levels' verdicts and its picture.
std::string hierarchy_html(const cegis::Hierarchy& hy, const Rejections& why, const std::string& scope,
                           const ProofStatus* proved) {
  std::string out = html_begin(fmt::format("Isolation levels within scope {}", scope));
  out += "<p>Computed by <code>isosynth hierarchy</code>: for every ordered pair, either every history of the "
         "scope that the first level allows the second allows too (&rArr;), or a smallest history the first "
         "allows and the second forbids. Levels that allow the same histories are one class.</p>\n";
  out += "<h2>Hasse diagram</h2>\n" + render_svg(hierarchy_dot(hy, why, scope, proved), "the Hasse diagram") + "\n";
  out += "<h2>Classes, strongest first</h2>\n<ol>\n";
  for (std::size_t c = 0; c < hy.classes.size(); ++c)
    out += fmt::format("<li id=\"class-{}\">{}</li>\n", c, html_escape(class_name(hy, c, " = ")));
  out += "</ol>\n<h2>Every pair</h2>\n<p>Row A, column B: &rArr; when A implies B within the scope; "
         "otherwise the anomaly A allows and B forbids, linked to its history with both verdicts: the "
         "witness that A allows it, the cycle or axiom by which B forbids it.</p>\n";
  std::string sections, facts;
  out += pairs_table_html(hy, why, sections, facts);
  if (!facts.empty()) out += "<h2>The pairs without a separating history</h2>\n<ul>\n" + facts + "</ul>\n";
  out += "<h2>The separating histories</h2>\n" + sections + html_end();
  return out;
}

}  // namespace

namespace {

// hierarchy --db: every history that separates two of the levels, run on
// the database. A product level that exhibits what B forbids is not as
// strong as B; the levels it behaves as are those allowing exactly what it
// exhibited.
int place_on_database(const HierarchyArgs& a, const cegis::Hierarchy& hy) {
  std::vector<Probe> probes;
  for (std::size_t x = 0; x < hy.levels.size(); ++x)
    for (std::size_t y = 0; y < hy.levels.size(); ++y) {
      const cegis::PairResult& pr = hy.pairs[x][y];
      if (x == y || pr.relation != cegis::Relation::Separated || !pr.separation || !pr.separation->history) continue;
      probes.push_back({fmt::format("{} allows, {} forbids", hy.levels[x]->name, hy.levels[y]->name),
                        fmt::format("A history {} allows and {} forbids: a database that exhibits it is not as "
                                    "strong as {}",
                                    hy.levels[x]->name, hy.levels[y]->name, hy.levels[y]->name),
                        hy.levels[y], *pr.separation->history, "", ""});
    }
  if (probes.empty()) throw std::invalid_argument("--db: no history of the scope tells two of these levels apart");
  return run_probes_on_database(a.db, TableOutput{a.search.json, a.html, "separating history"}, probes, hy.levels);
}

// The levels named, each once, in the order first named.
std::vector<const lua::Level*> distinct_levels(const lua::SpecLibrary& lib, const std::vector<std::string>& names) {
  std::vector<const lua::Level*> levels;
  for (const auto& name : names) {
    const lua::Level* l = &lib.level(name);
    if (std::find(levels.begin(), levels.end(), l) == levels.end()) levels.push_back(l);
  }
  return levels;
}

// The search's scope, space and limits, from the command line.
cegis::HierarchyOptions hierarchy_options(const SearchArgs& a) {
  cegis::HierarchyOptions opt;
  opt.scope = cegis::parse_scope(a.scope);
  opt.space.blind_writes = !a.no_blind_writes;
  opt.space.sessions = !a.no_sessions;
  opt.space.duplicates = a.duplicates;
  opt.space.dirty_reads = a.dirty_reads;
  opt.space.lists = a.lists;
  opt.minimize = a.minimize;
  opt.synth.timeout_seconds = a.timeout;
  return opt;
}

const char* relation_name(cegis::Relation r) {
  return r == cegis::Relation::Implies ? "implies" : r == cegis::Relation::Separated ? "does_not_imply" : "unknown";
}

// hierarchy --json: the levels, the classes, the Hasse diagram and every
// ordered pair with its separating history.
nlohmann::json hierarchy_json(const cegis::Hierarchy& hy, const std::vector<const lua::Level*>& levels,
                              const Rejections& why, const std::string& scope) {
  nlohmann::json j{{"scope", scope}, {"seconds", hy.seconds}, {"searched", hy.searched}};
  nlohmann::json ls = nlohmann::json::array(), cs = nlohmann::json::array(), hs = nlohmann::json::array(),
                 ps = nlohmann::json::array();
  for (const auto* l : levels) ls.push_back(l->name);
  for (const auto& c : hy.classes) {
    nlohmann::json names = nlohmann::json::array();
    for (std::size_t i : c) names.push_back(levels[i]->name);
    cs.push_back(names);
  }
  for (const auto& [s, w] : hy.covers) hs.push_back({{"stronger", s}, {"weaker", w}});
  for (std::size_t x = 0; x < levels.size(); ++x)
    for (std::size_t y = 0; y < levels.size(); ++y) {
      if (x == y) continue;
      const auto& pr = hy.pairs[x][y];
      nlohmann::json p{{"a", levels[x]->name},
                       {"b", levels[y]->name},
                       {"relation", relation_name(pr.relation)},
                       {"by_transitivity", pr.by_transitivity}};
      if (why[x][y]) {
        p["history"] = write_native_json(*pr.separation->history);
        p["anomaly"] = why[x][y]->name;
        p["exhibits"] = exhibits_json(why[x][y]->exhibits);
        if (const auto& an = why[x][y]->decision.anomaly; an && !an->cycle.empty()) p["cycle"] = an->name;
      }
      ps.push_back(std::move(p));
    }
  j["levels"] = ls;
  j["classes"] = cs;
  j["hasse"] = hs;
  j["pairs"] = ps;
  return j;
}

// The Hasse diagram's layers, strongest first: a class's layer is the
// length of the longest chain of covers above it, so the classes of one
// layer are incomparable (neither implies the other).
std::vector<std::vector<std::size_t>> layers(const cegis::Hierarchy& hy) {
  std::vector<std::size_t> depth(hy.classes.size(), 0);
  // Classes come strongest first: a class's stronger ones are settled before it.
  for (std::size_t c = 0; c < hy.classes.size(); ++c)
    for (const auto& [s, w] : hy.covers)
      if (w == c) depth[c] = std::max(depth[c], depth[s] + 1);
  std::vector<std::vector<std::size_t>> out;
  for (std::size_t c = 0; c < hy.classes.size(); ++c) {
    if (out.size() <= depth[c]) out.resize(depth[c] + 1);
    out[depth[c]].push_back(c);
  }
  return out;
}

// The layers, the Hasse diagram with what each weaker class allows, and
// every ordered pair, as text (the summary line is the caller's).
void print_hierarchy(const cegis::Hierarchy& hy, const std::vector<const lua::Level*>& levels,
                     const Rejections& why) {
  fmt::print("{}\n", notation_legend());
  fmt::print("\nlayers of the Hasse diagram, strongest first (= : no difference up to the scope; levels on one "
             "line, apart, are incomparable):\n");
  for (const auto& layer : layers(hy)) {
    std::vector<std::string> names;
    for (std::size_t c : layer) names.push_back(class_name(hy, c, " = "));
    fmt::print("  {}\n", fmt::join(names, "    "));
  }
  fmt::print("\nHasse diagram (stronger => weaker: what the weaker allows and the stronger forbids):\n");
  for (const auto& [s, w] : hy.covers) {
    const std::size_t weaker = hy.classes[w][0], stronger = hy.classes[s][0];
    std::string what;
    if (const auto& r = why[weaker][stronger])
      what = fmt::format(": {}: {}", r->name, history_one_line(*hy.pairs[weaker][stronger].separation->history));
    fmt::print("  {} => {}{}\n", class_name(hy, s, " = "), class_name(hy, w, " = "), what);
  }
  fmt::print("\nevery pair (A => B: every history A allows, B allows, up to the scope; A =/=> B: what A allows "
             "and B forbids):\n");
  for (std::size_t x = 0; x < levels.size(); ++x)
    for (std::size_t y = 0; y < levels.size(); ++y) {
      if (x == y) continue;
      const auto& pr = hy.pairs[x][y];
      if (pr.relation == cegis::Relation::Implies) {
        fmt::print("  {} => {}: no difference up to the scope{}\n", levels[x]->name, levels[y]->name,
                   pr.by_transitivity ? " (by transitivity)" : "");
      } else if (pr.relation == cegis::Relation::Separated) {
        fmt::print("  {} =/=> {}: {}: {}\n", levels[x]->name, levels[y]->name, why[x][y]->name,
                   history_one_line(*pr.separation->history));
      } else {
        fmt::print("  {} ? {}: undecided (time limit)\n", levels[x]->name, levels[y]->name);
      }
    }
}

// --prove: what the diagram claims for every size, one implication each:
// every cover from the stronger class's first level to the weaker's, and
// around each class of several levels a cycle (L1 => L2 => ... => L1).
struct Claims {
  std::vector<std::pair<const Level*, const Level*>> implications;
  std::vector<std::vector<std::size_t>> of_class, of_cover;  // indices into implications
};

Claims diagram_claims(const cegis::Hierarchy& hy) {
  Claims c;
  auto add = [&](std::size_t x, std::size_t y) {
    c.implications.emplace_back(hy.levels[x], hy.levels[y]);
    return c.implications.size() - 1;
  };
  for (const auto& members : hy.classes) {
    c.of_class.emplace_back();
    if (members.size() > 1)
      for (std::size_t k = 0; k < members.size(); ++k)
        c.of_class.back().push_back(add(members[k], members[(k + 1) % members.size()]));
  }
  for (const auto& [s, w] : hy.covers) c.of_cover.push_back({add(hy.classes[s][0], hy.classes[w][0])});
  return c;
}

// Proved when every implication it rests on is (a class of one level rests
// on none); refuted when one of them is.
Standing standing(const std::vector<std::size_t>& which, const std::vector<prove::ImplicationProof>& proofs) {
  if (std::any_of(which.begin(), which.end(), [&](std::size_t i) { return proofs[i].counterexample.has_value(); }))
    return Standing::Refuted;
  return std::all_of(which.begin(), which.end(), [&](std::size_t i) { return proofs[i].proved; }) ? Standing::Proved
                                                                                                  : Standing::Bounded;
}

void print_proofs(const cegis::Hierarchy& hy, const ProofStatus& status,
                  const std::vector<prove::ImplicationProof>& proofs) {
  fmt::print("\nfor every size (--prove; bounded: no history within the scope separates them, nothing known "
             "beyond):\n");
  for (std::size_t k = 0; k < hy.classes.size(); ++k)
    if (hy.classes[k].size() > 1)
      fmt::print("  class {}: {}\n", class_name(hy, k, " = "), standing_word(status.classes[k]));
  for (std::size_t e = 0; e < hy.covers.size(); ++e)
    fmt::print("  {} => {}: {}\n", class_name(hy, hy.covers[e].first, " = "),
               class_name(hy, hy.covers[e].second, " = "), standing_word(status.covers[e]));
  fmt::print("\n");
  for (const auto& p : proofs) fmt::print("{}", proof_text(p));
}

}  // namespace

int run_hierarchy(const HierarchyArgs& a) {
  lua::SpecLibrary lib;
  for (const auto& spec : a.search.specs) lib.load_file(spec);
  const std::vector<const lua::Level*> levels = distinct_levels(lib, a.levels);
  if (levels.size() < 2) throw std::invalid_argument("hierarchy needs at least two distinct levels");
  if (a.prove.prove && !a.db.db.empty())
    throw std::invalid_argument("--prove proves the formal hierarchy: give it without --db");
  cegis::HierarchyOptions opt = hierarchy_options(a.search);
  opt.jobs = a.jobs;
  const bool tty = isatty(fileno(stderr));
  const auto start = std::chrono::steady_clock::now();
  bool printed = false;
  opt.on_pair = [&](std::size_t done, std::size_t total, const std::string& pair) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 1.0) return;
    fmt::print(stderr, "{}hierarchy: pair {} of {}: {}{}", tty ? "\r\033[K" : "", done, total, pair,
               tty ? "" : "\n");
    std::fflush(stderr);
    printed = true;
  };
  const cegis::Hierarchy hy = cegis::hierarchy(levels, opt);
  if (printed && tty) fmt::print(stderr, "\n");
  const std::string scope = opt.scope.text();
  std::size_t unknown = 0, implied = 0;
  for (std::size_t x = 0; x < levels.size(); ++x)
    for (std::size_t y = 0; y < levels.size(); ++y) {
      if (x == y) continue;
      unknown += hy.pairs[x][y].relation == cegis::Relation::Unknown;
      implied += hy.pairs[x][y].by_transitivity;
    }

  if (!a.db.db.empty()) return place_on_database(a, hy);
  // --prove once every pair is decided: the diagram is then what it claims.
  const bool proving = a.prove.prove && unknown == 0;
  const Claims claims = proving ? diagram_claims(hy) : Claims{};
  const std::vector<prove::ImplicationProof> proofs =
      proving ? prove_each(claims.implications, a.prove, a.search, start) : std::vector<prove::ImplicationProof>{};
  const int code = unknown > 0 || any_out_of_time(proofs) ? kExitTimeout : kExitOk;
  std::optional<ProofStatus> status;
  if (proving) {
    status.emplace();
    for (const auto& which : claims.of_class) status->classes.push_back(standing(which, proofs));
    for (const auto& which : claims.of_cover) status->covers.push_back(standing(which, proofs));
  }
  const ProofStatus* proved = status ? &*status : nullptr;
  const Rejections why = rejections(lib, hy, a.jobs);
  if (!a.html.empty()) write_html_page(a.html, hierarchy_html(hy, why, scope, proved));
  if (!a.dot.empty() || !a.svg.empty()) {
    const std::string picture = hierarchy_dot(hy, why, scope, proved);
    if (!a.dot.empty()) write_text_file(a.dot, picture);
    if (!a.svg.empty()) write_svg(a.svg, picture);
  }
  if (a.search.json) {
    nlohmann::json j = hierarchy_json(hy, levels, why, scope);
    if (status) {
      j["proofs"] = proofs_json(proofs);
      j["classes_proved"] = nlohmann::json::array();
      for (Standing c : status->classes) j["classes_proved"].push_back(c == Standing::Proved);
      for (std::size_t e = 0; e < hy.covers.size(); ++e) {
        j["hasse"][e]["proved"] = status->covers[e] == Standing::Proved;
        j["hasse"][e]["refuted"] = status->covers[e] == Standing::Refuted;
      }
    }
    fmt::print("{}\n", dump_json(j));
    return code;
  }
  fmt::print("hierarchy of {} levels within scope {}: {} pairs searched, {} implied by transitivity{}, {:.1f} s\n",
             levels.size(), scope, hy.searched, implied,
             unknown > 0 ? fmt::format(", {} undecided (time limit)", unknown) : "", hy.seconds);
  print_hierarchy(hy, levels, why);
  if (status) print_proofs(hy, *status, proofs);
  if (a.prove.prove && unknown > 0) fmt::print("\nnot proved: --prove is not attempted while pairs are undecided\n");
  return code;
}

}  // namespace iso::cli
