// The catalogue of named anomalies (specs/anomalies.lua): each example is
// synthesized, exhibits its anomaly, is minimal (dropping any operation
// loses it), and its verdicts agree with the brute force at every level the
// brute force knows; and the table says what the literature says.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "cegis/synthesizer.hpp"
#include "engine/history/abstract.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/enumerate.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;
using namespace iso::cegis;

namespace {

bool exhibits(const History& h, const Level& anomaly) { return decide(h, anomaly).verdict == Verdict::Violated; }

// The example of `anomaly`: the smallest history of the scope that exhibits it.
History example(const Level& anomaly) {
  Problem p;
  p.deny = {&anomaly};
  p.scope = parse_scope("4,2,3");
  SynthResult r = synthesize(p);
  REQUIRE(r.outcome == Outcome::Found);
  r = minimize(p, std::move(r));
  return *r.history;
}

}  // namespace

TEST_CASE("anomalies: every example is minimal and decided as the brute force decides it") {
  const auto anomalies = library().anomalies();
  REQUIRE(anomalies.size() >= 9);
  std::map<std::string, History> examples;
  for (const Level* an : anomalies) {
    const History h = example(*an);
    INFO(an->name, "\n", format_history(h));
    CHECK(exhibits(h, *an));
    // Minimal: without any one operation the anomaly is gone (or the
    // history is no history of the space: a read of a value nobody wrote).
    for (TxnId t = 1; t < h.num_txns(); ++t)
      for (std::size_t i = 0; i < h.txn(t).ops.size(); ++i) {
        History smaller = h;
        smaller.txn(t).ops.erase(smaller.txn(t).ops.begin() + static_cast<std::ptrdiff_t>(i));
        const AbstractHistory a = abstract_history(smaller);
        if (!a.unjustified_reads.empty() || !a.int_violations.empty()) continue;
        CHECK_MESSAGE(!exhibits(smaller, *an), "still exhibited without op ", i, " of ", h.txn_name(t));
      }
    // The row of the table, by the brute force.
    const AbstractHistory ah = abstract_history(h);
    for (const std::string& level : brute::all_levels()) {
      INFO(level);
      CHECK((decide(h, library().level(level)).verdict == Verdict::Allowed) == brute::allows(ah, level));
    }
    examples.emplace(an->name, h);
  }
  // What the literature says of each (allowed by the first, forbidden by the second).
  const std::vector<std::tuple<std::string, std::string, std::string>> cells = {
      {"anomalies.LostUpdate", "biswas.CC", "biswas.SI"},
      {"anomalies.WriteSkew", "biswas.SI", "biswas.SER"},
      {"anomalies.ReadSkew", "biswas.RC", "biswas.RA"},
      {"anomalies.NonRepeatableRead", "adya.PL-2", "dbcop.RR"},
      {"anomalies.CircularInformationFlow", "adya.PL-1", "adya.PL-2"},
      {"anomalies.LongFork", "biswas.CC", "biswas.PC"},
      {"anomalies.CausalityViolation", "biswas.RA", "biswas.CC"},
      {"anomalies.MissedSessionWrite", "adya.PL-3", "biswas.RA"},
      {"anomalies.ReadOnlyAnomaly", "biswas.SI", "biswas.SER"},
      {"anomalies.ReadOnlyAnomaly", "biswas.UpdateSer", "biswas.SER"},
  };
  for (const auto& [an, allows, forbids] : cells) {
    INFO(an, ": ", format_history(examples.at(an)));
    CHECK(decide(examples.at(an), library().level(allows)).verdict == Verdict::Allowed);
    CHECK(decide(examples.at(an), library().level(forbids)).verdict == Verdict::Violated);
  }
}

TEST_CASE("anomalies: a history exhibits an anomaly only when every execution has its pattern") {
  // One writer of x and one reader of its version: the reader's rw edge
  // depends on the version order, but with one writer there is one.
  History h;
  const SessionId s1 = h.add_session(), s2 = h.add_session();
  const KeyId x = h.intern_key("x"), y = h.intern_key("y");
  const ValueId v0 = h.intern_value(Value{std::int64_t{0}}), v1 = h.intern_value(Value{std::int64_t{1}});
  const TxnId t1 = h.add_txn(s1, "T1"), t2 = h.add_txn(s2, "T2");
  h.add_read(t1, y, v0);
  h.add_write(t1, x, v1);
  h.add_read(t2, x, v0);
  h.add_write(t2, y, v1);
  CHECK(exhibits(h, library().anomaly("WriteSkew")));
  CHECK_FALSE(exhibits(h, library().anomaly("LostUpdate")));
  CHECK_FALSE(exhibits(h, library().anomaly("ReadSkew")));
  CHECK_THROWS_WITH_AS(library().anomaly("Nope"), doctest::Contains("unknown anomaly 'Nope'"), lua::SpecError);
}
