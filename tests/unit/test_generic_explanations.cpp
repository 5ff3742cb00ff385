// Violations the generic oracle finds, explained in the history's terms
// (engine/decide/instances.hpp): on random small histories, every shipped
// level without a graph characterization that rejects one explains it
// without the spec's internals (`project(`, `setof(`) and without a cell
// or an equality that relates an atom to itself (`ar(T0, T0)`,
// `ww(x, T1, T1)`, `T1 = T1`), which the explanation must have simplified
// away; and a write skew under adya.PL-2.99 is a named cycle of typed
// edges, each told by its operations and lines.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <regex>
#include <string>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/history/printer.hpp"
#include "engine/polygraph/explain.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;

namespace {

// What `check` prints of a generic violation beyond the verdict: the named
// cycle, each edge's explanation, the reason and the failing instances.
std::string explanation(const History& h, const Level& level, const Decision& d) {
  std::string s = d.reason + "\n";
  if (d.anomaly) {
    s += d.anomaly->name + ": " + d.anomaly->description + "\n";
    for (const std::string& why : d.anomaly->why) s += why + "\n";
  }
  if (d.failing) s += failing_text(h, level.framework->witness.front().name, *d.failing);
  return s;
}

// The first line of `text` that a wrong explanation would have: the spec's
// internals, a cell relating an atom to itself, or an atom equal to itself.
std::string unsimplified(const std::string& text) {
  static const std::regex reflexive(R"(\w+\((?:[^(),]+, )*([^(), ]+), \1\))");
  static const std::regex equal(R"((^|[^\w.])([\w.]+) = \2($|[^\w.]))");
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    if (line.find("project(") != std::string::npos || line.find("setof(") != std::string::npos ||
        std::regex_search(line, reflexive) || std::regex_search(line, equal))
      return line;
    at = end + 1;
  }
  return "";
}

// Does t read k (a read of it, item or predicate, before its own write),
// or write it (T0 writes every key)?
bool reads(const History& h, TxnId t, KeyId k) {
  for (const Op& op : h.txn(t).ops) {
    if (op.key == k && op.kind == OpKind::Write) return false;
    if (op.key == k && op.kind == OpKind::Read) return true;
    if (op.kind == OpKind::PredicateRead) return true;
  }
  return false;
}
bool writes(const History& h, TxnId t, KeyId k) {
  if (t == kInitTxn) return true;
  for (const Op& op : h.txn(t).ops)
    if (op.key == k && (op.kind == OpKind::Write || op.kind == OpKind::PredicateWrite)) return true;
  return false;
}

// What is wrong with a typed cycle, checked on the operations alone: each
// edge ends where the next starts, and is what its type says (wr: the
// writer writes the key the reader reads; ww: both write it; rw: the
// reader reads it and the other writes it; so: one session, in order).
std::string wrong_edge(const History& h, const Anomaly& a) {
  for (std::size_t i = 0; i < a.cycle.size(); ++i) {
    const DepEdge& e = a.cycle[i];
    const std::string edge = poly::format_cycle(h, {e});
    if (e.to != a.cycle[(i + 1) % a.cycle.size()].from) return edge + " does not meet the next edge";
    switch (e.type) {
      case Dep::WR:
        if (!writes(h, e.from, e.key) || !reads(h, e.to, e.key)) return edge;
        break;
      case Dep::WW:
        if (!writes(h, e.from, e.key) || !writes(h, e.to, e.key)) return edge;
        break;
      case Dep::RW:
        if (!reads(h, e.from, e.key) || !writes(h, e.to, e.key) || e.from == e.to) return edge;
        break;
      case Dep::SO:
        if (e.from != kInitTxn && (h.txn(e.from).session != h.txn(e.to).session ||
                                   h.txn(e.from).position >= h.txn(e.to).position))
          return edge;
        break;
      default: break;
    }
  }
  return "";
}

}  // namespace

TEST_CASE("generic explanations: the patterns a wrong explanation shows are caught") {
  CHECK_FALSE(unsimplified("ar(T0, T0)").empty());
  CHECK_FALSE(unsimplified("needs not vis(T0, T2) or ww(x, T1, T1)").empty());
  CHECK_FALSE(unsimplified("at x = x, t1 = T0").empty());
  CHECK_FALSE(unsimplified("some (vis..t & project(writes)..x)").empty());
  CHECK_FALSE(unsimplified("acyclic((ww + setof(...)))").empty());
  CHECK(unsimplified("at x := x, t1 := T0: needs ar(T0, T1) or vis(T1, T2)").empty());
  CHECK(unsimplified("(~t1 = t2 & wr(T1, T2))").empty());
}

TEST_CASE("generic explanations: every shipped generic level's violations are in the history's terms") {
  std::vector<const Level*> generic;
  for (const Level* level : library().levels())
    if (!level->graph) generic.push_back(level);
  REQUIRE(generic.size() >= 10);
  std::mt19937_64 rng(20261128);
  std::map<std::string, int> explained;
  int cycles = 0;
  for (int n = 0; n < 60; ++n) {
    const History h = small_random_history(rng, n % 3 == 1);
    for (const Level* level : generic) {
      if (refusal(h, *level)) continue;  // the levels that read database timestamps
      const Decision d = decide(h, *level);
      if (d.verdict != Verdict::Violated || d.checker != Checker::Generic) continue;
      if (d.anomaly && d.anomaly->cycle.empty()) continue;  // a read anomaly, named before any level
      const std::string text = explanation(h, *level, d);
      INFO(level->name, " on #", n, "\n", format_history(h), "\n", text);
      CHECK(unsimplified(text) == "");
      if (d.anomaly) {
        CHECK(wrong_edge(h, *d.anomaly) == "");
        CHECK(d.anomaly->why.size() == d.anomaly->cycle.size());
        ++cycles;
      }
      ++explained[level->name];
    }
  }
  // Most levels rejected some history, so the check saw their explanations.
  CHECK(explained.size() * 3 >= generic.size() * 2);
  // Some of them as named cycles of dependencies.
  CHECK(cycles >= 10);
}

TEST_CASE("generic explanations: a write skew under adya.PL-2.99 is a named cycle of item anti-dependencies") {
  const History h = read_history_path(std::string(ISOSYNTH_SOURCE_DIR) + "/examples/histories/write-skew.json",
                                      std::nullopt, {})
                        .history;
  const Decision d = decide(h, library().level("adya.PL-2.99"));
  REQUIRE(d.verdict == Verdict::Violated);
  REQUIRE(d.anomaly);
  CHECK(d.anomaly->name == "write skew");
  CHECK(d.anomaly->description.find("Adya's G2-item") != std::string::npos);
  REQUIRE(d.anomaly->cycle.size() == 2);
  REQUIRE(d.anomaly->why.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(d.anomaly->cycle[i].type == Dep::RW);
    CHECK(d.anomaly->why[i].find("(line ") != std::string::npos);
  }
  // Explanations are off for the synthesizer's oracle: the verdict alone.
  DecideOptions quiet;
  quiet.explain = false;
  const Decision bare = decide(h, library().level("adya.PL-2.99"), quiet);
  CHECK(bare.verdict == Verdict::Violated);
  CHECK_FALSE(bare.anomaly);
  CHECK_FALSE(bare.failing);
}
