// Every witness decide() prints is what it says: on random register
// histories (unique and repeated values, aborted and unknown-status
// transactions), for every shipped level, on every path (graph
// characterization and generic oracle), with session order kept and
// ignored, an allowed verdict's witness satisfies the level's formula
// (decide's satisfies()) and the brute force's literal evaluation of the
// definition.
#include <random>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "tests/unit/brute_witness.hpp"
#include "tests/unit/history_helpers.hpp"

#include "engine/decide/decide.hpp"
#include "engine/history/printer.hpp"
#include "engine/model/schema.hpp"
#include "lua/spec_library.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/random_history.hpp"

using namespace iso;

namespace {


bool brute_knows(const std::string& name) {
  const auto& a = brute::levels();
  const auto& b = brute::adya_levels();
  return std::find(a.begin(), a.end(), name) != a.end() ||
         std::find(b.begin(), b.end(), name) != b.end();
}

}  // namespace

TEST_CASE("every allowed verdict's witness satisfies the level, on every path") {
  std::mt19937_64 rng(99);
  std::size_t checked = 0, by_graph = 0;
  for (int i = 0; i < 400; ++i) {
    brute::RandomHistoryOptions opt;
    opt.unique_values = i % 2 == 0;
    opt.thin_air = 0;
    opt.int_violation = 0;
    opt.max_txns = 4;
    History h = brute::random_history(rng, opt);
    if (i % 3 == 0) brute::randomize_status(rng, h, 0.1, 0.15);
    for (const Level* level : library().levels()) {
      if (level->uses_db_timestamps()) continue;  // these histories have no database timestamps
      for (bool generic : {false, true}) {
        if (generic && !level->graph) continue;
        for (SessionMode sessions : {SessionMode::Auto, SessionMode::Ignore}) {
          DecideOptions o;
          o.force_generic = generic;
          o.sessions = sessions;
          std::optional<Decision> decided = decide_unless_permitted(h, *level, o);
          if (!decided || decided->verdict != Verdict::Allowed) continue;
          Decision& d = *decided;
          INFO(fmt::format("#{} {} ({}, sessions {})\n{}", i, level->name,
                           checker_name(d.checker),
                           sessions == SessionMode::Ignore ? "ignored" : "as defined",
                           format_history(h)));
          REQUIRE(d.witness.has_value());
          std::string why;
          CHECK_MESSAGE(satisfies(h, *level, *d.witness, &why, sessions), why);
          if (brute_knows(level->name)) {
            brute::Options bo;
            bo.ignore_sessions = sessions == SessionMode::Ignore;
            brute::WitnessCheck c = brute::check_witness(h, level->name, to_brute(h, *d.witness), bo);
            CHECK_MESSAGE(c.ok, c.reason);
          }
          ++checked;
          by_graph += !generic && level->graph;
        }
      }
    }
  }
  CHECK(checked > 3000);
  CHECK(by_graph > 500);
}

TEST_CASE("a level decided without session order agrees with the brute force") {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 300; ++i) {
    brute::RandomHistoryOptions opt;
    opt.unique_values = i % 2 == 0;
    History h = brute::random_history(rng, opt);
    for (const std::string name : {"biswas.SER", "biswas.SI", "biswas.RA", "biswas.CC",
                                   "cerone.PSI", "adya.PL-3", "adya.PL-SI"}) {
      DecideOptions o;
      o.sessions = SessionMode::Ignore;
      brute::Options bo;
      bo.ignore_sessions = true;
      const bool got = decide(h, library().level(name), o).verdict == Verdict::Allowed;
      CHECK_MESSAGE(got == brute::allows_some_commit(h, name, bo),
                    fmt::format("#{} {}\n{}", i, name, format_history(h)));
    }
  }
}

TEST_CASE("a few transactions with hundreds of operations are decided, their witness not re-checked") {
  // 12 transactions in 3 sessions, each reading and writing 60 keys: the
  // formula the re-check would unroll is too large, and deciding must not
  // fail for it (IsoPredict's traces have this shape).
  History h;
  std::vector<SessionId> sessions;
  for (int s = 0; s < 3; ++s) sessions.push_back(h.add_session());
  std::vector<int> last(60, 0);
  int next = 1;
  for (int t = 0; t < 12; ++t) {
    const TxnId id = h.add_txn(sessions[t % 3], fmt::format("T{}", t + 1));
    for (int k = 0; k < 60; ++k) {
      const KeyId key = h.intern_key(fmt::format("k{}", k));
      h.add_read(id, key, h.intern_value(Value{std::int64_t{last[k]}}));
      last[k] = next++;
      h.add_write(id, key, h.intern_value(Value{std::int64_t{last[k]}}));
    }
  }
  for (const std::string name : {"biswas.CC", "biswas.RC", "biswas.SER", "biswas.SI"}) {
    const Decision d = decide(h, library().level(name));
    CHECK_MESSAGE(d.verdict == Verdict::Allowed, name);
    CHECK_MESSAGE(d.witness.has_value(), name);
  }
}
