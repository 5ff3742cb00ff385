// Synthesis with predicate reads (SpaceOptions::predicates): the space a
// level that tells item reads from predicate reads (h.item_wrx, Adya's
// PL-2.99) is searched in. Complete against an exhaustive enumeration whose
// transactions may read every key through one predicate read
// (tests/brute/enumerate.hpp), each history decided by the brute force,
// which tells item from predicate read events by its own reading of the
// operations.
#include <doctest/doctest.h>

#include <string>

#include "cegis/history_space.hpp"
#include "cegis/synthesizer.hpp"
#include "engine/history/printer.hpp"
#include "tests/unit/synth_helpers.hpp"

using namespace iso;
using namespace iso::cegis;

TEST_CASE("synth predicates: complete over transactions with predicate reads (scopes 2/2/2 and 3/2/2)") {
  for (const int txns : {2, 3}) {
    EnumeratedSpace space;
    space.txns = txns;
    space.keys = 2;
    space.values = 2;
    space.predicates = true;
    check_against_enumeration(space, 200);
  }
}

TEST_CASE("synth predicates: the phantom separates PL-2.99 from PL-3, and nothing else from it") {
  Problem p = problem({"adya.PL-2.99"}, {"adya.PL-3"}, "3,2,2");
  SynthResult r = synthesize(p);
  REQUIRE(r.outcome == Outcome::Found);
  verify_solution(p, r);
  const History& h = *r.history;
  INFO(format_history(h));
  CHECK_FALSE(h.predicate_reads().empty());
  // The catalogue's phantom: its level (the pattern's negation) forbids it.
  CHECK(decide(h, library().anomaly("anomalies.Phantom")).verdict == Verdict::Violated);
  // PL-3 allows nothing PL-2.99 does not.
  CHECK(synthesize(problem({"adya.PL-3"}, {"adya.PL-2.99"}, "3,2,2")).outcome == Outcome::None);
  // Refused where the space cannot have predicate reads, with a message.
  SpaceOptions opt;
  opt.predicates = true;
  opt.duplicates = true;
  logic::Circuit c;
  CHECK_THROWS_WITH_AS(HistorySpace(parse_scope("2,2,2"), opt, c),
                       doctest::Contains("predicate reads are searched in the transaction form"),
                       std::invalid_argument);
}
