// Verdicts and witnesses with predicate reads, on every shipped level.
//
// 1. A key a predicate read returns is also an item read (Adya 1999, §4.4.1:
//    a predicate-based read is followed by item reads of the tuples it
//    returns; Vbox Def. 2.1): its overwrite is an item anti-dependency,
//    whether or not the new version still matches. A key it leaves out is
//    a predicate read only. Every path (hyper-polygraph, generic oracle
//    through h.item_wrx, the brute force) must agree.
// 2. No internal error: on random histories with every feature on (unknown
//    status, aborts, dirty reads, re-reads and reads of own writes, deletes,
//    predicate reads and writes, repeated values, an initial state that
//    writes every key, some or none), every
//    shipped level decides or gives its one-line reason, and every allowed
//    verdict's witness satisfies the level's formula.
#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "engine/decide/decide.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/predicate.hpp"
#include "engine/history/printer.hpp"
#include "engine/polygraph/explain.hpp"
#include "lua/spec_library.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/brute_witness.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;

namespace {

History from_json(const std::string& text) { return read_native_json(text, "test.json"); }

Verdict verdict(const History& h, const std::string& level) {
  return decide(h, library().level(level)).verdict;
}

// Two transactions, each returning through a predicate read a key the other
// overwrites with a version that still matches (pl299-visible-pr.json).
constexpr const char* kVisible = R"({"init": {"a": 1, "b": 0},
 "sessions": [[{"id": "T1", "ops": [["pr", "v>0", [["a", 1]]], ["w", "b", 5]]}],
              [{"id": "T2", "ops": [["pr", "v>0", [["a", 1]]], ["w", "a", 2]]}]]})";

// The initial state writes no key; an aborted transaction holds a predicate
// read (internal-error-adya-pl3.json).
constexpr const char* kAbortedPredicate = R"({"initial_state": "explicit-only", "init": {},
 "sessions": [[{"id": "T1", "ops": [["w", "x", 1]]}],
              [{"id": "T2", "status": "aborted", "ops": [["pr", "true", [["x", 1]]]]}]]})";

// The levels whose witnesses these histories can re-check: all but those
// that read the database's own timestamps (these histories have none; their
// witness is the timestamps, tests/unit/test_trusted_timestamps.cpp).
std::vector<const Level*> checkable_levels() {
  std::vector<const Level*> out;
  for (const Level* l : library().levels())
    if (!l->uses_db_timestamps()) out.push_back(l);
  return out;
}

bool brute_knows(const std::string& name) {
  const auto& a = brute::levels();
  const auto& b = brute::adya_levels();
  return std::find(a.begin(), a.end(), name) != a.end() || std::find(b.begin(), b.end(), name) != b.end();
}

// A copy of `h` with each predicate read that leaves no covered key out
// replaced by item reads of what it returned; nullopt when some predicate
// read leaves a key out or returns one it should not (or there is none, or
// a predicate write).
// Every key exists (the initial state writes it), so a predicate read that
// leaves nothing out returns every key it covers.
std::optional<History> as_item_reads(const History& h) {
  if (h.predicate_reads().empty() || h.has_predicate_writes() ||
      h.initial_writes() != InitialWrites::EveryKey)
    return std::nullopt;
  for (const PredicateRead& pr : h.predicate_reads()) {
    const Predicate p = *parse_predicate(pr.predicate);
    for (const auto& [k, v] : pr.result)
      if (!p.covers(h.keys()[k]) || !p.holds(h.keys()[k], h.values()[v])) return std::nullopt;
    for (KeyId k = 0; k < h.keys().size(); ++k)
      if (p.covers(h.keys()[k]) && std::none_of(pr.result.begin(), pr.result.end(),
                                                [&](const auto& kv) { return kv.first == k; }))
        return std::nullopt;
  }
  History out = h;
  for (TxnId t = 1; t < out.num_txns(); ++t) {
    std::vector<Op> ops;
    for (const Op& op : h.txn(t).ops) {
      if (op.kind != OpKind::PredicateRead) {
        ops.push_back(op);
        continue;
      }
      for (const auto& [k, v] : h.predicate_reads()[op.predicate].result) {
        Op read;
        read.key = k;
        read.value = v;
        ops.push_back(read);
      }
    }
    out.txn(t).ops = std::move(ops);
  }
  return out;
}

}  // namespace

TEST_CASE("a key a predicate read returns is an item read: its overwrite is G2-item") {
  const History visible = from_json(kVisible);
  // PL-2.99 forbids the cycle T1 -rw(a)-> T2 -rw(b)-> T1: T1 returned a,
  // so T2's overwrite of it (2, which still satisfies v>0) is an item
  // anti-dependency. PL-3 forbids it too.
  CHECK(verdict(visible, "adya.PL-2.99") == Verdict::Violated);
  CHECK(verdict(visible, "adya.PL-3") == Verdict::Violated);
  CHECK_FALSE(brute::allows(abstract_history(visible), "adya.PL-2.99"));
  // The same with a plain read of a: violated as well.
  const History plain = from_json(R"({"init": {"a": 1, "b": 0},
   "sessions": [[{"id": "T1", "ops": [["r", "a", 1], ["pr", "[b,b] && v>0", []], ["w", "b", 5]]}],
                [{"id": "T2", "ops": [["pr", "v>0", [["a", 1]]], ["w", "a", 2]]}]]})");
  CHECK(verdict(plain, "adya.PL-2.99") == Verdict::Violated);
  // Only left-out keys: both anti-dependencies are predicate ones, and
  // PL-2.99 allows the cycle that PL-3 forbids.
  const History phantoms = from_json(R"({"init": {"a": 0, "b": 0},
   "sessions": [[{"id": "T1", "ops": [["pr", "[a,a] && v>0", []], ["w", "b", 5]]}],
                [{"id": "T2", "ops": [["pr", "[b,b] && v>0", []], ["w", "a", 2]]}]]})");
  CHECK(verdict(phantoms, "adya.PL-2.99") == Verdict::Allowed);
  CHECK(brute::allows(abstract_history(phantoms), "adya.PL-2.99"));
  CHECK(verdict(phantoms, "adya.PL-3") == Verdict::Violated);
  // The explanation says which kind each anti-dependency is.
  const Decision d = decide(visible, library().level("adya.PL-3"));
  REQUIRE(d.anomaly);
  bool item = false;
  for (const std::string& why : d.anomaly->why) item = item || why.find("(an item anti-dependency)") != std::string::npos;
  CHECK_MESSAGE(item, fmt::format("{}", fmt::join(d.anomaly->why, "\n")));
  const Decision p = decide(phantoms, library().level("adya.PL-3"));
  REQUIRE(p.anomaly);
  for (const std::string& why : p.anomaly->why) {
    CHECK(why.find("(a predicate anti-dependency)") != std::string::npos);
    CHECK(why.find("item anti-dependency") == std::string::npos);
  }
}

TEST_CASE("an aborted transaction's predicate read over an initial state that writes nothing") {
  // T0 writes the unborn version of every key whenever the history has a
  // predicate read, whoever holds it: the graph checkers' members, the
  // witness built from their commit order and the generic oracle's re-check
  // all see the same T0.
  const History h = from_json(kAbortedPredicate);
  for (const std::string name : {"adya.PL-3", "adya.SER", "adya.PL-SI", "adya.PL-2.99", "biswas.SER",
                                 "biswas.SI", "cerone.SER", "biswas.CC"}) {
    INFO(name);
    const Level& level = library().level(name);
    const Decision d = decide(h, level);
    REQUIRE(d.verdict == Verdict::Allowed);
    REQUIRE(d.witness);
    std::string why;
    CHECK_MESSAGE(satisfies(h, level, *d.witness, &why), why);
    CHECK(generic_decision(h, level).verdict == Verdict::Allowed);
  }
}

TEST_CASE("a predicate write after a read that PL-1 sets aside") {
  // T2's read of T1's z is an aborted read in the choice where T1 (of
  // unknown status) did not commit: PL-1 sets it aside, and the predicate
  // write's read event of z that follows it moves up; its guard must move
  // with it.
  const History h = from_json(R"({"init": {"x": 0, "y": 0, "z": 0}, "sessions": [
    [{"id": "T1", "status": "unknown", "ops": [["r", "x", 0], ["w", "z", 1], ["r", "x", 0]]},
     {"id": "T2", "ops": [["r", "z", 1], ["w", "y", 2], ["pw", "[y,z] && v>0", 1]]}]]})");
  const Level& level = library().level("adya.PL-1");
  const Decision d = decide(h, level);
  REQUIRE(d.verdict == Verdict::Allowed);
  REQUIRE(d.witness);
  std::string why;
  CHECK_MESSAGE(satisfies(h, level, *d.witness, &why), why);
}

TEST_CASE("predicate reads whose returned keys are overwritten with versions that still match agree with the brute force") {
  // Unique values (1, 2, ... over an initial 0) and predicates every written
  // version satisfies: a key returned and then overwritten still matches, so
  // only its item read tells that the reader missed the new version.
  std::mt19937_64 rng(2027);
  brute::RandomPredicateOptions popt;
  popt.shapes = {"v!=0", "v>0", "[x,y]", "[x,z]", "[y,z] && v>0"};
  popt.wrong = 16;
  const std::vector<std::string> levels = {"adya.PL-2.99", "adya.PL-3", "adya.PL-SI", "biswas.SER", "biswas.SI"};
  std::map<std::string, std::pair<int, int>> counts;
  int overwritten = 0, as_items = 0, item_only = 0;
  for (int i = 0; i < 600; ++i) {
    brute::RandomHistoryOptions opt;
    opt.max_txns = 4;
    opt.thin_air = 0;
    opt.int_violation = 0;
    opt.read_ratio = i % 2 == 0 ? 0.0 : 0.3;  // half of them read through predicates only
    History h = brute::random_history(rng, opt);
    brute::add_predicate_reads(rng, h, popt);
    // Some predicate read returned a key another transaction writes.
    bool over = false;
    for (TxnId t = 1; t < h.num_txns(); ++t)
      for (const Op& op : h.txn(t).ops)
        if (op.kind == OpKind::PredicateRead)
          for (const auto& [k, v] : h.predicate_reads()[op.predicate].result)
            for (TxnId u = 1; u < h.num_txns(); ++u)
              if (u != t && std::any_of(h.txn(u).ops.begin(), h.txn(u).ops.end(), [&](const Op& w) {
                    return w.kind == OpKind::Write && w.key == k && w.value != v;
                  }))
                over = true;
    overwritten += over;
    INFO(fmt::format("#{}\n{}", i, format_history(h)));
    const std::optional<History> items = as_item_reads(h);
    as_items += items.has_value();
    bool pl299 = false, pl3 = false;
    for (const std::string& name : levels) {
      INFO(name);
      const Level& level = library().level(name);
      const Verdict graph = decide(h, level).verdict;
      const Verdict generic = generic_decision(h, level).verdict;
      const bool brute = brute::allows(abstract_history(h), name);
      CHECK(graph == generic);
      CHECK((generic == Verdict::Allowed) == brute);
      // A predicate read that leaves nothing out is item reads of what it
      // returns, at every level.
      if (items) CHECK(decide(*items, level).verdict == generic);
      (brute ? counts[name].first : counts[name].second)++;
      if (name == "adya.PL-2.99") pl299 = brute;
      if (name == "adya.PL-3") pl3 = brute;
    }
    if (pl3) CHECK(pl299);
    // Violated at PL-2.99 though no item read but the returned keys.
    bool plain = false;
    for (TxnId t = 1; t < h.num_txns(); ++t)
      for (const Op& op : h.txn(t).ops) plain = plain || op.kind == OpKind::Read;
    item_only += !plain && !pl299;
  }
  MESSAGE(overwritten, " with a returned key overwritten, ", as_items, " with every covered key returned, ",
          item_only, " violating PL-2.99 through returned keys alone");
  CHECK(overwritten > 250);
  CHECK(as_items > 50);
  CHECK(item_only > 10);
  for (const auto& [name, c] : counts) {
    INFO(name, ": ", c.first, " allowed, ", c.second, " violated");
    CHECK(c.first > 40);
    CHECK(c.second > 40);
  }
}

TEST_CASE("every shipped level on random histories with every feature: no internal error, every witness holds") {
  // 10,000 histories in all, each decided at four levels in turn (every
  // level sees some 900 of them), graph levels on both paths every other
  // history, which must agree. An allowed verdict's witness is re-checked against the level's
  // formula (satisfies) and, where the brute force knows the level, against
  // its literal reading of the definition.
  const std::vector<const Level*> levels = checkable_levels();
  std::mt19937_64 rng(27);
  std::map<std::string, std::pair<int, int>> counts;
  int refused = 0, witnesses = 0;
  constexpr int kHistories = 10000, kPerHistory = 4;
  for (int i = 0; i < kHistories; ++i) {
    brute::RandomHistoryOptions opt;
    opt.max_txns = 4;
    opt.unique_values = i % 3 != 0;
    opt.aborted = 0.12;
    opt.unknown = 0.12;
    opt.dirty = i % 5 == 0 ? 0.2 : 0;
    opt.thin_air = 0.02;
    opt.int_violation = 0.02;
    opt.reread = i % 4 == 2 ? 0.2 : 0;
    opt.read_own_write = i % 4 == 3 ? 0.2 : 0;
    History h = brute::random_history(rng, opt);
    // The initial state: every key, some keys, or none (--init none, and
    // an explicit T0 that initialises only some keys).
    if (i % 3 != 0) {
      h.set_initial_writes(InitialWrites::ExplicitOnly);
      if (i % 3 == 1)
        for (KeyId k = 0; k < h.keys().size(); ++k)
          if (rng() % 2 == 0) h.set_init(k, h.init_value(k));
    }
    // Deletes: a dead version no predicate holds of.
    if (i % 7 == 0)
      for (TxnId t = 1; t < h.num_txns(); ++t)
        if (rng() % 3 == 0) h.add_delete(t, static_cast<KeyId>(rng() % h.keys().size()));
    if (i % 2 == 0) brute::add_predicate_reads(rng, h);
    if (i % 4 == 1) brute::add_predicate_writes(rng, h, 1);
    for (int j = 0; j < kPerHistory; ++j) {
      const Level& level = *levels[static_cast<std::size_t>(i * kPerHistory + j) % levels.size()];
      std::optional<Verdict> by_graph;  // a graph level's verdict by its graph checker
      for (const bool generic : {false, true}) {
        if (generic && (!level.graph || i % 2 == 1)) continue;
        DecideOptions o;
        o.force_generic = generic;
        INFO(fmt::format("#{} {} ({})\n{}", i, level.name, generic ? "generic oracle" : "decide",
                         format_history(h)));
        std::optional<Decision> d;
        try {
          d = decide(h, level, o);
        } catch (const DecideRefused&) {
          ++refused;  // a one-line reason (a predicate-write gap, a permitted list read)
          continue;
        } catch (const std::exception& e) {
          FAIL_CHECK(std::string(e.what()));
          continue;
        }
        REQUIRE(d->verdict != Verdict::Unknown);
        // Both paths of a graph level give one verdict.
        if (!generic) by_graph = d->verdict;
        else if (by_graph) CHECK(*by_graph == d->verdict);
        (d->verdict == Verdict::Allowed ? counts[level.name].first : counts[level.name].second)++;
        if (d->verdict != Verdict::Allowed) continue;
        REQUIRE(d->witness.has_value());
        std::string why;
        CHECK_MESSAGE(satisfies(h, level, *d->witness, &why), why);
        if (brute_knows(level.name) && !h.has_predicate_writes()) {
          const brute::WitnessCheck c = brute::check_witness(h, level.name, to_brute(h, *d->witness));
          CHECK_MESSAGE(c.ok, c.reason);
        }
        ++witnesses;
      }
    }
  }
  MESSAGE(witnesses, " witnesses re-checked, ", refused, " refusals");
  CHECK(refused < kHistories / 10);
  for (const Level* l : levels) {
    INFO(l->name);
    CHECK(counts[l->name].first > 50);
    CHECK(counts[l->name].second > 50);
  }
}
