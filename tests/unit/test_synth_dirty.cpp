// Synthesis with dirty reads (`synth --dirty-reads`, SpaceOptions::
// dirty_reads): aborted transactions, intermediate writes, and reads of
// either (Adya's G1a and G1b). Completeness is checked against an
// exhaustive enumeration independent of the synthesizer's encoding: every
// transaction committed or aborted, up to two writes of a key in any
// interleaving with the reads, every session structure, each history
// decided by the brute force (which finds the dirty reads from the
// operations, and sets them aside at PL-1 only).
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cegis/synthesizer.hpp"
#include "engine/history/abstract.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/brute.hpp"
#include "tests/unit/synth_helpers.hpp"

using namespace iso;
using namespace iso::cegis;

namespace {

Problem dirty_problem(std::vector<std::string> allow, std::vector<std::string> deny, const std::string& scope,
                      bool sessions = true) {
  Problem p = problem(std::move(allow), std::move(deny), scope);
  p.space.dirty_reads = true;
  p.space.sessions = sessions;
  return p;
}

// With ops = 0, the transaction form: the levels over read events (which
// imply the operation form) are left out.
void check_against_enumeration(int txns, int keys, int values, int ops, bool sessions = true) {
  EnumeratedSpace space{txns, keys, values, ops, sessions, false, true};
  cegis::check_against_enumeration(space, 900);
}

// Does some committed transaction read an aborted or intermediate write?
bool has_dirty_read(const History& h) {
  AbstractOptions o;
  o.set_aside_aborted_reads = o.set_aside_intermediate_reads = true;
  return !abstract_history(h, committed_members(h), o).set_aside.empty();
}

}  // namespace

TEST_CASE("synth dirty reads: complete over transactions (scope 2/1/3)") {
  check_against_enumeration(2, 1, 3, 0);
}

TEST_CASE("synth dirty reads: complete over transactions (scopes 3/1/2 and 3/1/3)") {
  check_against_enumeration(3, 1, 2, 0);
  check_against_enumeration(3, 1, 3, 0);
}

TEST_CASE("synth dirty reads: complete over operations (scopes 2/1/3/2, 2/1/3/3 and 3/1/2/3)") {
  check_against_enumeration(2, 1, 3, 2);
  check_against_enumeration(2, 1, 3, 3);
  check_against_enumeration(3, 1, 2, 3);
}

TEST_CASE("synth dirty reads: complete over operations (scope 2/2/2/2)") {
  check_against_enumeration(2, 2, 2, 2);
}

TEST_CASE("synth dirty reads: complete over operations without sessions (scopes 3/1/2/2 and 3/1/3/2)") {
  check_against_enumeration(3, 1, 2, 2, false);
  check_against_enumeration(3, 1, 3, 2, false);
}

TEST_CASE("synth dirty reads: PL-1 and PL-2 separate by G1a and G1b, and nothing else does") {
  // With two transactions, one key and two values, PL-1 and PL-2 are
  // equivalent without dirty reads (circular information flow needs three
  // values); with them, an aborted read separates them.
  CHECK(synthesize(problem({"adya.PL-1"}, {"adya.PL-2"}, "2,1,2")).outcome == Outcome::None);
  Problem g1a = dirty_problem({"adya.PL-1"}, {"adya.PL-2"}, "2,1,2");
  SynthResult a = synthesize(g1a);
  REQUIRE(a.outcome == Outcome::Found);
  verify_solution(g1a, a);
  a = minimize(g1a, std::move(a));
  INFO(format_history(*a.history));
  CHECK(a.history->num_txns() == 3);
  CHECK(a.history->txn(1).status == TxnStatus::Aborted);
  CHECK(format_txn(*a.history, 1) == "T1: w(x,1)");
  CHECK(format_txn(*a.history, 2) == "T2: r(x,1)");
  CHECK(decide(*a.history, library().level("adya.PL-2")).anomaly->name == "G1a");
  // Without aborted transactions: an intermediate read (three values).
  lua::SpecLibrary lib;
  lib.load_string(R"(
library "t"
level "NoAbortedRead" { framework = "adya", permits = { "aborted reads", "intermediate reads" },
  axiom = function(h, e) return no(h.aborted_reads) end }
)",
                  "no_g1a.lua");
  Problem g1b = dirty_problem({"adya.PL-1"}, {"adya.PL-2"}, "2,1,3");
  g1b.allow.push_back(&lib.level("t.NoAbortedRead"));
  SynthResult b = synthesize(g1b);
  REQUIRE(b.outcome == Outcome::Found);
  CHECK(is_solution(*b.history, g1b));  // a level of its own: the brute force does not know it
  b = minimize(g1b, std::move(b));
  INFO(format_history(*b.history));
  CHECK(decide(*b.history, library().level("adya.PL-2")).anomaly->name == "G1b");
  // Every level but PL-1 forbids them: a dirty read never separates two
  // levels that both count it as a violation.
  for (const char* strong : {"biswas.RC", "adya.PL-2", "biswas.SER"}) {
    Problem p = dirty_problem({"adya.PL-2"}, {strong}, "3,2,3");
    SynthResult r = synthesize(p);
    if (r.outcome == Outcome::Found) CHECK_FALSE(has_dirty_read(*r.history));
  }
}

TEST_CASE("synth dirty reads: on by itself for a level over aborted or intermediate reads") {
  // The catalogue's G1a mentions h.aborted_reads: the space has them
  // without asking.
  Problem p;
  p.deny = {&library().anomaly("G1a")};
  p.scope = parse_scope("3,2,3");
  CHECK(library().anomaly("G1a").uses_dirty_reads());
  CHECK_FALSE(library().level("adya.PL-1").uses_dirty_reads());
  SynthResult r = synthesize(p);
  REQUIRE(r.outcome == Outcome::Found);
  CHECK(has_dirty_read(*r.history));
  // Not with repeated values.
  p.space.duplicates = true;
  CHECK_THROWS_AS(synthesize(p), std::invalid_argument);
  // Without dirty reads PL-1's set-aside relations are empty: no level over
  // them can tell the spaces apart but through the reads themselves.
  Problem q = problem({"adya.PL-1"}, {"adya.PL-2"}, "3,2,3");
  SynthResult plain = synthesize(q);
  REQUIRE(plain.outcome == Outcome::Found);
  CHECK_FALSE(has_dirty_read(*plain.history));
}
