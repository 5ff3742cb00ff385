// Explanations a database engineer believes: every printed cycle is a cycle
// of one compatible graph, so none of its edges contradicts what the history
// makes certain (the polygraph's known edges after pruning: session order,
// unique read-from, T0 first, list-append orders, orders pruning proved);
// every edge says what it rests on; snapshot isolation's cycles carry SI's
// names, never G2-item (which SI allows). Checked on random register and
// list-append histories and on every shared recorded history.
#include <filesystem>
#include <random>
#include <string>

#include <doctest/doctest.h>

#include "tests/unit/history_helpers.hpp"
#include <fmt/format.h>

#include "engine/decide/decide.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/history/printer.hpp"
#include "engine/polygraph/explain.hpp"
#include "engine/polygraph/polygraph.hpp"
#include "engine/verdict/graph_level.hpp"
#include "lua/spec_library.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/shared_data.hpp"

using namespace iso;

namespace {


// Empty when no edge of `cycle` contradicts a certain edge of the history's
// polygraph for `level`; otherwise what does.
std::string contradiction(const History& h, const std::vector<DepEdge>& cycle,
                          GraphLevel level) {
  AbstractHistory a = poly::check_abstraction(h);
  poly::Polygraph pg(h, a, level);
  std::size_t passes = 0;
  if (pg.prune(true, passes)) return {};  // the certain edges alone are cyclic
  auto known = [&](const DepEdge& e) { return pg.known_id(e).has_value(); };
  // The writer a read of `key` by `reader` is certain to read from, if any.
  auto certain_writer = [&](TxnId reader, KeyId key) -> std::optional<TxnId> {
    for (const auto& e : pg.known())
      if (e.type == Dep::WR && e.to == reader && e.key == key) return e.from;
    return std::nullopt;
  };
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const auto& e = cycle[i];
    if (e.to != cycle[(i + 1) % cycle.size()].from) return "the edges do not chain";
    const std::string edge = poly::format_cycle(h, {e});
    switch (e.type) {
      case Dep::SO:
        break;
      case Dep::RT:
      case Dep::RTCC:
      case Dep::RTBC: {
        const poly::ScheduleArc arc = poly::schedule_arc(e.type);
        using Event = History::Event;
        if (!h.time_before(e.from, arc.from_commit ? Event::Commit : Event::Begin, e.to,
                           arc.to_commit ? Event::Commit : Event::Begin))
          return fmt::format("{}: not ordered in real time", edge);
        break;
      }
      case Dep::WW:
        if (known({e.to, e.from, Dep::WW, e.key}))
          return fmt::format("{}: the reverse order is certain", edge);
        break;
      case Dep::WR:
        if (auto w = certain_writer(e.to, e.key); w && *w != e.from)
          return fmt::format("{}: the read certainly reads from {}", edge, h.txn_name(*w));
        break;
      case Dep::RW:
        if (auto w = certain_writer(e.from, e.key);
            w && *w != kInitTxn && known({e.to, *w, Dep::WW, e.key}))
          return fmt::format("{}: the version read certainly follows {}'s", edge,
                             h.txn_name(e.to));
        break;
    }
  }
  return {};
}

// Checks one decision's explanation; returns how many cycles it checked.
int check_explanation(const History& h, const Level& level, const Decision& d,
                      const std::string& what) {
  if (d.verdict != Verdict::Violated || !d.anomaly || d.anomaly->cycle.empty()) return 0;
  const Anomaly& an = *d.anomaly;
  INFO(what, " ", level.name, ": ", an.name, ": ", an.description);
  CHECK(an.why.size() == an.cycle.size());
  for (const auto& w : an.why) CHECK_FALSE(w.empty());
  if (level.graph == GraphLevel::Si) {
    CHECK(an.name != "G2-item");
    CHECK(an.name != "write skew");
    for (std::size_t k = 0; k < an.cycle.size(); ++k)
      CHECK_FALSE((an.cycle[k].type == Dep::RW &&
                   an.cycle[(k + 1) % an.cycle.size()].type == Dep::RW));
  }
  if (level.graph == GraphLevel::Ser || level.graph == GraphLevel::Si) {
    const History& checked = d.sessions_ignored ? h.each_in_own_session() : h;
    CHECK(contradiction(checked, an.cycle, *level.graph) == "");
    // An inferred write-write order says why.
    for (std::size_t k = 0; k < an.cycle.size(); ++k)
      if (an.cycle[k].type == Dep::WW && an.cycle[k].from != kInitTxn)
        CHECK(an.why[k].find(": ") != std::string::npos);
  }
  return 1;
}

}  // namespace

TEST_CASE("explanations on random histories: certain edges, reasons, SI's names") {
  std::mt19937_64 rng(4242);
  int cycles = 0;
  for (int i = 0; i < 600; ++i) {
    History h;
    if (i % 2 == 0) {
      brute::RandomHistoryOptions opt;
      opt.unique_values = i % 4 == 0;
      opt.thin_air = 0;
      opt.int_violation = 0;
      h = brute::random_history(rng, opt);
    } else {
      h = brute::random_list_history(rng, {});
    }
    for (const char* name : {"biswas.SER", "biswas.SI", "adya.PL-SI", "biswas.RA", "biswas.CC"}) {
      const Level& level = library().level(name);
      cycles += check_explanation(h, level, decide(h, level), format_history(h));
    }
  }
  CHECK(cycles > 200);
}

TEST_CASE("explanations on the shared recorded histories") {
  int cycles = 0;
  for (const auto& path : shared_histories({"polysi-text", "elle", "elle-cli", "cobra",
                                            "awdit-test", "dbcop/dgraph-si-violation"})) {
    ReadResult r = read_history_path(path, std::nullopt, {});
    for (const char* name : {"biswas.SER", "biswas.SI", "biswas.RA", "biswas.CC"}) {
      const Level& level = library().level(name);
      cycles += check_explanation(r.history, level, decide(r.history, level), path);
    }
  }
  REQUIRE_FALSE(shared_histories({"polysi-text"}).empty());
  CHECK(cycles >= 10);
}
