// check --all's enumeration (engine/polygraph/all_anomalies.hpp) against a
// brute force on small random typed graphs: every simple cycle enumerated,
// classed by cycle_class(), grouped by strongly connected component. The
// enumeration must find every class the brute force finds, with its count
// of components, and every cycle it reports must be a simple cycle of the
// graph's edges of that class; a search whose budget runs out says so.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/history/printer.hpp"
#include "engine/polygraph/all_anomalies.hpp"
#include "engine/polygraph/checker.hpp"
#include "engine/polygraph/polygraph.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/random_history.hpp"

using namespace iso;
using namespace iso::poly;

namespace {

// class name -> the components (by smallest node) with a cycle of it.
using Found = std::map<std::string, std::set<std::uint32_t>>;

std::vector<std::vector<bool>> closure(std::size_t n, const std::vector<DepEdge>& edges) {
  std::vector<std::vector<bool>> c(n, std::vector<bool>(n, false));
  for (std::size_t i = 0; i < n; ++i) c[i][i] = true;
  for (const DepEdge& e : edges) c[e.from][e.to] = true;
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (c[i][k] && c[k][j]) c[i][j] = true;
  return c;
}

// The component of v: its smallest node in both directions.
std::uint32_t component(const std::vector<std::vector<bool>>& c, std::uint32_t v) {
  for (std::uint32_t u = 0; u < c.size(); ++u)
    if (c[u][v] && c[v][u]) return u;
  return v;
}

// Every simple cycle, as edge sequences starting at their smallest node.
void cycles_from(std::uint32_t start, std::uint32_t v, const std::vector<DepEdge>& edges,
                 std::vector<bool>& on, std::vector<DepEdge>& path,
                 std::vector<std::vector<DepEdge>>& out) {
  for (const DepEdge& e : edges) {
    if (e.from != v || e.to < start) continue;
    path.push_back(e);
    if (e.to == start) {
      out.push_back(path);
    } else if (!on[e.to]) {
      on[e.to] = true;
      cycles_from(start, e.to, edges, on, path, out);
      on[e.to] = false;
    }
    path.pop_back();
  }
}

Found all_cycles(std::size_t n, const std::vector<DepEdge>& edges, GraphLevel level) {
  const auto c = closure(n, edges);
  Found found;
  for (std::uint32_t s = 0; s < n; ++s) {
    std::vector<bool> on(n, false);
    on[s] = true;
    std::vector<DepEdge> path;
    std::vector<std::vector<DepEdge>> cycles;
    cycles_from(s, s, edges, on, path, cycles);
    for (const auto& cycle : cycles) {
      const std::string name = cycle_class(cycle, level);
      if (!name.empty()) found[name].insert(component(c, s));
    }
  }
  return found;
}

std::vector<DepEdge> random_graph(std::mt19937& rng, std::size_t n, bool real_time) {
  static const std::vector<Dep> plain{Dep::SO, Dep::WR, Dep::WW, Dep::RW, Dep::WW, Dep::RW, Dep::WR};
  static const std::vector<Dep> timed{Dep::SO, Dep::WR, Dep::WW, Dep::RW, Dep::RT, Dep::RTCC, Dep::RTBC};
  const auto& types = real_time ? timed : plain;
  std::vector<DepEdge> edges;
  const std::size_t m = std::uniform_int_distribution<std::size_t>(n, 3 * n)(rng);
  std::uniform_int_distribution<std::uint32_t> node(0, static_cast<std::uint32_t>(n - 1));
  std::uniform_int_distribution<std::size_t> type(0, types.size() - 1);
  for (std::size_t i = 0; i < m; ++i) {
    DepEdge e{node(rng), node(rng), types[type(rng)], static_cast<KeyId>(rng() % 2)};
    if (e.from == e.to) continue;
    if (!keyed(e.type)) e.key = 0;
    edges.push_back(e);
  }
  return edges;
}

// A reported cycle is a simple cycle of `edges`, of its class.
void check_cycle(const std::vector<DepEdge>& cycle, const std::vector<DepEdge>& edges,
                 const std::string& name, GraphLevel level) {
  REQUIRE(!cycle.empty());
  std::set<TxnId> nodes;
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    CHECK(std::find(edges.begin(), edges.end(), cycle[i]) != edges.end());
    CHECK(cycle[i].to == cycle[(i + 1) % cycle.size()].from);
    nodes.insert(cycle[i].from);
  }
  CHECK(nodes.size() == cycle.size());
  CHECK(cycle_class(cycle, level) == name);
}

std::set<std::string> classes_met;

void compare(std::size_t n, const std::vector<DepEdge>& edges, GraphLevel level) {
  const Found expected = all_cycles(n, edges, level);
  for (const auto& [name, comps] : expected) classes_met.insert(name);
  const auto got = certain_cycles(n, edges, level, 100);
  Found seen;
  for (const ClassCycles& c : got) {
    CHECK_FALSE(c.incomplete);
    CHECK(c.count == c.cycles.size());
    const auto c_closure = closure(n, edges);
    for (const auto& cycle : c.cycles) {
      check_cycle(cycle, edges, c.name, level);
      seen[c.name].insert(component(c_closure, cycle.front().from));
    }
    for (std::size_t i = 1; i < c.cycles.size(); ++i) CHECK(c.cycles[i - 1].size() <= c.cycles[i].size());
  }
  CHECK(seen == expected);
  // Reported in class_rank() order.
  for (std::size_t i = 1; i < got.size(); ++i) CHECK(class_rank(got[i - 1].name) < class_rank(got[i].name));
}

}  // namespace

TEST_CASE("check --all: every class a brute force finds, per component, on random graphs") {
  std::mt19937 rng(20261128);
  for (int round = 0; round < 1500; ++round) {
    const std::size_t n = 2 + round % 6;
    const bool real_time = round % 3 == 0;
    const auto edges = random_graph(rng, n, real_time);
    for (GraphLevel level : {GraphLevel::Ser, GraphLevel::Si}) {
      CAPTURE(round);
      CAPTURE(static_cast<int>(level));
      compare(n, edges, level);
    }
  }
  // The rounds meet every class of both levels (the comparison is not vacuous).
  CHECK(classes_met.size() == 15);
}

TEST_CASE("check --all: a search that runs out of budget says so rather than missing a class") {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    const std::size_t n = 4 + round % 4;
    const auto edges = random_graph(rng, n, round % 2 == 0);
    const Found expected = all_cycles(n, edges, GraphLevel::Ser);
    const auto got = certain_cycles(n, edges, GraphLevel::Ser, 100, /*budget=*/3);
    for (const auto& [name, comps] : expected) {
      CAPTURE(name);
      auto it = std::find_if(got.begin(), got.end(), [&](const ClassCycles& c) { return c.name == name; });
      REQUIRE(it != got.end());
      CHECK((it->count == comps.size() || it->incomplete));
    }
    for (const ClassCycles& c : got)
      for (const auto& cycle : c.cycles) check_cycle(cycle, edges, c.name, GraphLevel::Ser);
  }
}

TEST_CASE("check --all: classes and their names") {
  const DepEdge rw_xy{1, 2, Dep::RW, 0}, rw_yx{2, 1, Dep::RW, 1}, ww_yx{2, 1, Dep::WW, 0};
  const DepEdge wr_yx{2, 1, Dep::WR, 0}, so_yx{2, 1, Dep::SO, 0}, rt_yx{2, 1, Dep::RT, 0};
  CHECK(cycle_class({rw_xy, rw_yx}, GraphLevel::Ser) == "G2-item");
  CHECK(cycle_class({rw_xy, rw_yx}, GraphLevel::Si).empty());  // adjacent anti-dependencies: SI allows it
  CHECK(cycle_class({rw_xy, ww_yx}, GraphLevel::Si) == "G-single");
  CHECK(cycle_class({DepEdge{1, 2, Dep::WW, 0}, wr_yx}, GraphLevel::Ser) == "G1c");
  CHECK(cycle_class({DepEdge{1, 2, Dep::WW, 0}, so_yx}, GraphLevel::Ser) == "G0-process");
  CHECK(cycle_class({rw_xy, rt_yx}, GraphLevel::Ser) == "G-single-realtime");
  CHECK(class_rank("G1a") < class_rank("G0"));
  CHECK(class_rank("G2-item") < class_rank("G0-process"));
  CHECK(class_rank("G0-process") < class_rank("G0-realtime"));
  // Two components with a G-single each, a third with G0: counted per component.
  const std::vector<DepEdge> edges{rw_xy, ww_yx, {3, 4, Dep::RW, 0}, {4, 3, Dep::WR, 0},
                                   {5, 6, Dep::WW, 0}, {6, 5, Dep::WW, 1}};
  const auto got = certain_cycles(7, edges, GraphLevel::Ser, 1);
  REQUIRE(got.size() == 2);
  CHECK(got[0].name == "G0");
  CHECK(got[1].name == "G-single");
  CHECK(got[1].count == 2);
  CHECK(got[1].cycles.size() == 1);  // the limit
}

TEST_CASE("check --all on random histories: certain instances are cycles of known edges, and real violations") {
  std::mt19937_64 rng(30);
  std::size_t certain = 0;
  for (int i = 0; i < 600; ++i) {
    brute::RandomHistoryOptions ro;
    ro.unique_values = i % 3 == 0;
    ro.value_range = 2 + i % 3;
    ro.max_txns = 5;
    History h = brute::random_history(rng, ro);
    brute::randomize_status(rng, h);
    for (auto [level, name] : {std::pair{GraphLevel::Ser, "SER"}, std::pair{GraphLevel::Si, "SI"}}) {
      CAPTURE(i);
      CAPTURE(name);
      poly::CheckOptions opt;
      opt.level = level;
      opt.all_limit = 10;
      const poly::CheckResult r = poly::check_history(h, opt);
      // Classes exactly for a violation the checker names (a violation by
      // commit choices alone has no anomaly, and none to list).
      if (r.classes.empty() != (r.verdict != Verdict::Violated || !r.anomaly))
        FAIL_CHECK(fmt::format("verdict {}, anomaly {}, {} classes\n{}", static_cast<int>(r.verdict),
                               r.anomaly ? r.anomaly->name : "none", r.classes.size(), format_history(h)));
      if (r.verdict != Verdict::Violated) continue;
      // The certain graph as the checker built it: the same construction and pruning.
      const AbstractHistory a = poly::check_abstraction(h, true);
      poly::Polygraph pg(h, a, level);
      std::size_t passes = 0;
      pg.prune(true, passes);
      for (const poly::AnomalyClass& c : r.classes) {
        CHECK(c.count >= c.instances.size());
        if (c.source != poly::AnomalyClass::Source::Certain) continue;
        ++certain;
        // A certain cycle is a violation whatever the choices: the brute force agrees.
        CHECK_FALSE(brute::allows_some_commit(h, fmt::format("biswas.{}", name)));
        for (const Anomaly& an : c.instances) {
          CHECK(cycle_class(an.cycle, level) == c.name);
          CHECK(an.why.size() == an.cycle.size());
          for (const DepEdge& e : an.cycle)
            if (!pg.known_id(e)) FAIL_CHECK(fmt::format("{}: not a known edge\n{}", c.name, format_history(h)));
        }
      }
    }
  }
  CHECK(certain > 50);
}
