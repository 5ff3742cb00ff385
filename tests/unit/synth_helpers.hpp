// Shared by the synthesis tests: a problem by level names, the re-check of a
// synthesized history (after a JSON round trip, by the oracle and by the
// brute force, with each allow witness checked against its level), and the
// exhaustive enumeration the synthesizer's completeness is checked against
// (tests/brute/enumerate.hpp).
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cegis/synthesizer.hpp"
#include "engine/history/abstract.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/enumerate.hpp"
#include "tests/unit/brute_witness.hpp"
#include "tests/unit/history_helpers.hpp"

namespace iso::cegis {

inline Problem problem(std::vector<std::string> allow, std::vector<std::string> deny, const std::string& scope,
                bool blind_writes = true) {
  Problem p;
  for (const auto& a : allow) p.allow.push_back(&library().level(a));
  for (const auto& d : deny) p.deny.push_back(&library().level(d));
  p.scope = parse_scope(scope);
  p.space.blind_writes = blind_writes;
  return p;
}

// Re-checks a synthesized history after a JSON round trip.
inline void verify_solution(const Problem& p, const SynthResult& r) {
  REQUIRE(r.outcome == Outcome::Found);
  REQUIRE(r.history.has_value());
  History h = read_native_json(write_native_json(*r.history).dump(), "synthesized.json");
  INFO(format_history(h));
  AbstractHistory ah = abstract_history(h);
  CHECK(h.num_txns() - 1 <= p.scope.txns);
  CHECK(h.keys().size() <= p.scope.objects);
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    if (p.scope.ops > 0) CHECK(h.txn(t).ops.size() <= p.scope.ops);
    if (!p.space.sessions) CHECK(h.sessions()[h.txn(t).session].size() == 1);
  }
  for (const auto* a : p.allow) {
    INFO("allow ", a->name);
    CHECK(decide(h, *a).verdict == Verdict::Allowed);
    CHECK(brute::allows(ah, a->name));
  }
  for (const auto* d : p.deny) {
    INFO("deny ", d->name);
    CHECK(decide(h, *d).verdict == Verdict::Violated);
    CHECK_FALSE(brute::allows(ah, d->name));
  }
  // The witnesses printed with the history are what they say: each
  // satisfies its level, by the level's formula and by the brute force's
  // literal reading of the definition.
  REQUIRE(r.allow_witnesses.size() == p.allow.size());
  for (std::size_t i = 0; i < p.allow.size(); ++i) {
    INFO("witness of ", p.allow[i]->name);
    std::string why;
    CHECK_MESSAGE(satisfies(*r.history, *p.allow[i], r.allow_witnesses[i], &why), why);
    brute::WitnessCheck c =
        brute::check_witness(*r.history, p.allow[i]->name, to_brute(*r.history, r.allow_witnesses[i]));
    CHECK_MESSAGE(c.ok, c.reason);
  }
}

using brute::all_levels;
using brute::enumerate_separations;
using brute::EnumeratedSpace;
using brute::record_separations;

// Completeness in `space`: for every ordered pair of shipped levels (those
// over read events only in the operation form), synthesis at the space's
// scope, with its options, finds a history exactly when one of the
// enumerated histories separates the pair, and every history found is a
// solution. At least `min_histories` are enumerated (the space is not
// trivially small).
inline void check_against_enumeration(const EnumeratedSpace& space, std::size_t min_histories) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> levels;
  for (const std::string& l : all_levels())
    if (space.ops > 0 || !library().level(l).uses_read_events()) levels.push_back(l);
  std::size_t histories = 0;
  auto separated = enumerate_separations(space, levels, histories);
  const double enumerate_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(histories >= min_histories);
  const std::string scope = space.ops > 0 ? fmt::format("{},{},{},{}", space.txns, space.keys, space.values, space.ops)
                                          : fmt::format("{},{},{}", space.txns, space.keys, space.values);
  const std::string what = fmt::format("{}{}{}{}{}{}", scope, space.sessions ? "" : ", no sessions",
                                       space.duplicates ? ", duplicates" : "", space.dirty_reads ? ", dirty reads" : "",
                                       space.lists ? ", lists" : "", space.predicates ? ", predicate reads" : "");
  std::size_t found = 0;
  for (std::size_t a = 0; a < levels.size(); ++a)
    for (std::size_t b = 0; b < levels.size(); ++b) {
      if (a == b) continue;
      Problem p = problem({levels[a]}, {levels[b]}, scope);
      p.space.sessions = space.sessions;
      p.space.duplicates = space.duplicates;
      p.space.dirty_reads = space.dirty_reads;
      p.space.lists = space.lists;
      SynthResult r = synthesize(p);
      INFO(levels[a], " but not ", levels[b], " at ", what);
      CHECK((r.outcome == Outcome::Found) == separated[a][b]);
      if (r.outcome == Outcome::Found) {
        verify_solution(p, r);
        ++found;
      }
    }
  const double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE(what, ": ", histories, " histories, ", found, " separations of ", levels.size() * (levels.size() - 1),
          " ordered pairs; enumeration ", enumerate_s, " s, total ", total_s, " s");
}

}  // namespace iso::cegis
