// decide(), the one entry point, on its own: which checker its policy picks
// for each kind of level, session order as each level defines it (and
// ignored when asked), reads nothing justifies reported before any checker,
// and the two paths agreeing on a level that has both.
#include <doctest/doctest.h>

#include "engine/decide/decide.hpp"
#include "engine/history/one_line.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;

namespace {

const Level& level(const char* name) { return library().level(name); }

}  // namespace

TEST_CASE("decide: the checker follows the level's declared graph, else the generic oracle") {
  const History ws = parse_one_line("T1: r(x,0) w(y,1) | T2: r(y,0) w(x,1)", "ws");
  CHECK(decide(ws, level("biswas.SER")).checker == Checker::Polygraph);
  CHECK(decide(ws, level("biswas.SI")).checker == Checker::Polygraph);
  CHECK(decide(ws, level("biswas.CC")).checker == Checker::Saturation);
  CHECK(decide(ws, level("biswas.PC")).checker == Checker::Generic);
  CHECK(decide(ws, level("biswas.SER")).verdict == Verdict::Violated);
  CHECK(decide(ws, level("biswas.SI")).verdict == Verdict::Allowed);
  // Forced past the graph, the generic oracle gives the same verdicts.
  DecideOptions generic;
  generic.force_generic = true;
  for (const char* l : {"biswas.SER", "biswas.SI", "biswas.CC"}) {
    const Decision d = decide(ws, level(l), generic);
    CHECK(d.checker == Checker::Generic);
    CHECK(d.verdict == decide(ws, level(l)).verdict);
  }
}

TEST_CASE("decide: session order kept by the levels that mention it, and ignored when asked") {
  // A missed session write: T2, after T1 in its session, reads x's older value.
  const History h = parse_one_line("T1: w(x,1); T2: r(x,0)", "msw");
  const Decision ser = decide(h, level("biswas.SER"));
  CHECK(ser.verdict == Verdict::Violated);
  CHECK_FALSE(ser.sessions_ignored);
  // Adya's levels do not mention session order: decided without it.
  const Decision adya = decide(h, level("adya.PL-3"));
  CHECK(adya.verdict == Verdict::Allowed);
  CHECK(adya.sessions_ignored);
  // Ignore: every level decides the history with each transaction alone.
  DecideOptions ignore;
  ignore.sessions = SessionMode::Ignore;
  const Decision ser_alone = decide(h, level("biswas.SER"), ignore);
  CHECK(ser_alone.verdict == Verdict::Allowed);
  CHECK(ser_alone.sessions_ignored);
}

TEST_CASE("decide: a read that nothing justifies violates every level, whatever the checker") {
  // T2 reads a value nobody wrote (thin air).
  const History h = parse_one_line("T1: w(x,1) | T2: r(x,7)", "thin");
  for (const char* l : {"biswas.RC", "biswas.CC", "biswas.PC", "biswas.SER", "adya.PL-1"}) {
    INFO(l);
    const Decision d = decide(h, level(l));
    CHECK(d.verdict == Verdict::Violated);
  }
  // An aborted read: PL-1 permits it, every level above does not.
  const History g1a = parse_one_line("T1: w(x,1) [aborted] | T2: r(x,1)", "g1a");
  CHECK(decide(g1a, level("adya.PL-1")).verdict == Verdict::Allowed);
  CHECK(decide(g1a, level("adya.PL-2")).verdict == Verdict::Violated);
  CHECK(decide(g1a, level("biswas.RC")).verdict == Verdict::Violated);
}
