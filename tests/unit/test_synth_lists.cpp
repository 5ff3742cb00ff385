// Synthesis over list-append keys (`synth --lists`, SpaceOptions::lists):
// writes append, reads return whole lists, and the lists reveal version
// orders. The space's symbolic known order must be the one the checker
// derives from the decoded lists (engine/history/known_order.hpp), and
// synthesis must be complete against an exhaustive enumeration that tries
// every order of each key's appenders (tests/brute/enumerate.hpp), each
// history decided by the brute force (which reads the lists literally).
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cegis/history_space.hpp"
#include "cegis/synthesizer.hpp"
#include "engine/history/abstract.hpp"
#include "engine/history/printer.hpp"
#include "engine/logic/cnf.hpp"
#include "engine/model/concrete.hpp"
#include "engine/model/schema.hpp"
#include "engine/sat/solver.hpp"
#include "tests/unit/synth_helpers.hpp"

using namespace iso;
using namespace iso::cegis;

namespace {

using Triple = std::tuple<std::string, std::string, std::string>;  // (key, t1, t2)

// The tuples of the relation `rel` under `b`, by atom names.
std::set<Triple> named_tuples(const logic::Circuit& c, const std::vector<bool>& inputs, const logic::Universe& u,
                              const logic::Bindings& b, const logic::Relation& rel) {
  std::set<Triple> out;
  const logic::BoolMatrix& m = *b.find(rel);
  const logic::Index N = u.size();
  for (const auto& [idx, l] : m.cells) {
    if (!c.eval(l, inputs)) continue;
    out.emplace(u.name(static_cast<logic::Atom>(idx / (N * N))), u.name(static_cast<logic::Atom>(idx / N % N)),
                u.name(static_cast<logic::Atom>(idx % N)));
  }
  return out;
}

}  // namespace

TEST_CASE("synth lists: the space's version order and read-from are the ones the decoded lists show") {
  const Scope scope = parse_scope("4,2,4");
  SpaceOptions opt;
  opt.lists = true;
  opt.index_ordered = false;  // every order of the appenders
  logic::Circuit c;
  sat::Solver solver;
  logic::CnfEncoder cnf(c, solver);
  HistorySpace space(scope, opt, c);
  cnf.assert_true(space.constraints());
  const model::HistorySchema& s = model::history_schema();
  std::mt19937 rng(7);
  std::size_t histories = 0, with_order = 0;
  for (int round = 0; round < 600; ++round) {
    // Random assumptions on the history's variables spread the models.
    std::vector<sat::Lit> assumptions;
    for (std::uint32_t t = 1; t <= scope.txns; ++t)
      for (std::uint32_t x = 0; x < scope.objects; ++x)
        for (std::uint32_t v = 0; v < scope.values; ++v) {
          if (rng() % 8 == 0) assumptions.push_back(cnf.literal(rng() % 3 ? space.read_var(t, x, v) : !space.read_var(t, x, v)));
          if (v > 0 && rng() % 8 == 0)
            assumptions.push_back(cnf.literal(rng() % 2 ? space.write_var(t, x, v) : !space.write_var(t, x, v)));
        }
    if (solver.solve(assumptions) != sat::Result::Sat) continue;
    const std::vector<bool> inputs = cnf.input_values();
    const History h = space.decode(c, inputs);
    INFO(format_history(h));
    const AbstractHistory ah = abstract_history(h);
    // A history of the space: no read the checker finds impossible.
    CHECK(ah.unjustified_reads.empty());
    CHECK(ah.int_violations.empty());
    logic::Circuit cc;
    const model::ConcreteInstance inst = model::concrete_instance(ah, cc);
    const std::vector<bool> none;
    for (const logic::RelationPtr& rel : {s.vo, s.wrx}) {
      INFO(rel->name);
      CHECK(named_tuples(c, inputs, space.universe(), space.bindings(), *rel) ==
            named_tuples(cc, none, inst.universe, inst.bindings, *rel));
    }
    ++histories;
    if (!named_tuples(c, inputs, space.universe(), space.bindings(), *s.vo).empty()) ++with_order;
  }
  CHECK(histories >= 150);
  CHECK(with_order >= 20);  // lists that reveal orders were drawn
}

TEST_CASE("synth lists: complete over transactions (scopes 2/2/3 and 3/1/3)") {
  for (const auto& [txns, keys] : {std::pair{2, 2}, std::pair{3, 1}}) {
    EnumeratedSpace space;
    space.txns = txns;
    space.keys = keys;
    space.values = 3;
    space.lists = true;
    check_against_enumeration(space, 900);
  }
}

TEST_CASE("synth lists: G0 needs list reads, and every level forbids it") {
  const Level& g0 = library().anomaly("anomalies.G0");
  CHECK(g0.list_reads);
  Problem p;
  p.deny = {&g0};
  p.scope = parse_scope("3,2,3");
  SynthResult r = synthesize(p);
  REQUIRE(r.outcome == Outcome::Found);
  const History& h = *r.history;
  INFO(format_history(h));
  // The write cycle is shown by the lists: opposite known orders on x and y.
  const AbstractHistory ah = abstract_history(h);
  CHECK(ah.known_orders.size() == 2);
  // Registers cannot force a version order: without lists, no history of
  // the space exhibits G0.
  Problem registers = p;
  Level plain = g0;
  plain.list_reads = false;
  registers.deny = {&plain};
  CHECK(synthesize(registers).outcome == Outcome::None);
  // Every framework's version or commit order contains the known orders,
  // so every level forbids it.
  for (const char* level : {"adya.PL-1", "biswas.RC", "cerone.RA", "plume.TapRA"})
    CHECK(decide(h, library().level(level)).verdict == Verdict::Violated);
}

TEST_CASE("synth lists: refused with duplicates, dirty reads or operations, with a message") {
  for (int which = 0; which < 3; ++which) {
    SpaceOptions opt;
    opt.lists = true;
    Scope scope = parse_scope("2,1,3");
    if (which == 0) opt.duplicates = true;
    if (which == 1) opt.dirty_reads = true;
    if (which == 2) scope.ops = 2;
    logic::Circuit c;
    CHECK_THROWS_WITH_AS(HistorySpace(scope, opt, c), doctest::Contains("list-append keys"), std::invalid_argument);
  }
}
