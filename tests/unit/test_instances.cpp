// Why no witness exists (engine/decide/instances.hpp): the failing instances
// of a level's formula that decide() gives for the generic oracle's
// violations. On the catalogue's histories the instances are the ones the
// definitions predict; on random histories every violation gets some, and
// they only speak of the part of the history the core names.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;

namespace {

History example(const std::string& name) {
  const std::string path = std::string(ISOSYNTH_SOURCE_DIR) + "/examples/histories/" + name;
  return read_history_path(path, std::nullopt, {}).history;
}

std::string names(const History& h, const std::vector<TxnId>& seq) {
  std::vector<std::string> out;
  for (TxnId t : seq) out.push_back(h.txn_name(t));
  return fmt::format("{}", fmt::join(out, " "));
}

// The instance of `of` bound as `at` ("x := x, t1 := T0, ..."), or null.
const FailingInstance* find(const FailingInstances& f, const std::string& of, const std::string& at) {
  for (const FailingInstance& i : f.instances)
    if (i.of == of && i.at_text() == at) return &i;
  return nullptr;
}

// A cycle read from any of its transactions: the same cycle.
bool same_cycle(const History& h, std::vector<TxnId> cycle, const std::string& expected) {
  if (cycle.empty()) return false;
  cycle.pop_back();
  for (std::size_t r = 0; r < cycle.size(); ++r) {
    std::vector<TxnId> c = cycle;
    std::rotate(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(r), c.end());
    c.push_back(c.front());
    if (names(h, c) == expected) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("failing instances: long fork under biswas.PC forces co both ways between the writers") {
  const History h = example("long-fork.json");
  const Decision d = decide(h, library().level("biswas.PC"));
  REQUIRE(d.verdict == Verdict::Violated);
  REQUIRE(d.failing);
  const FailingInstances& f = *d.failing;
  // Exactly: co total, T0 first for both writers, and the axiom once per
  // reader that saw one write but not the other.
  CHECK(f.instances.size() == 5);
  CHECK(find(f, "co is a strict total order", ""));
  const FailingInstance* wf = find(f, "biswas well-formedness", "(T0, T1)");
  REQUIRE(wf);
  CHECK(wf->needs == "co(T0, T1)");
  const FailingInstance* a = find(f, "biswas.PC axiom", "x := x, t1 := T0, t2 := T1, t3 := T4");
  const FailingInstance* b = find(f, "biswas.PC axiom", "x := y, t1 := T0, t2 := T2, t3 := T3");
  REQUIRE(a);
  REQUIRE(b);
  // T4 read x from T0 after seeing T2 (through y): T1 cannot precede T2.
  CHECK(a->given == "not co(T1, T2)");
  // T3's read then contradicts it.
  CHECK(b->given.starts_with("nothing"));
}

TEST_CASE("failing instances: long fork under adya.PL-2.99 closes the rw/wr cycle through all four") {
  const History h = example("long-fork.json");
  const Decision d = decide(h, library().level("adya.PL-2.99"));
  REQUIRE(d.verdict == Verdict::Violated);
  REQUIRE(d.failing);
  const FailingInstance* acyclic = find(*d.failing, "adya.PL-2.99 axiom", "");
  REQUIRE(acyclic);
  CHECK(same_cycle(h, acyclic->cycle, "T1 T3 T2 T4 T1"));
  // Each key's version order starts at T0: the two facts the cycle needs.
  REQUIRE(find(*d.failing, "adya well-formedness", "x := x, (T0, T1)"));
  CHECK(find(*d.failing, "adya well-formedness", "x := x, (T0, T1)")->needs == "ww(x, T0, T1)");
  CHECK(find(*d.failing, "adya well-formedness", "x := y, (T0, T2)"));
  // The cycle as Adya's dependencies: two item anti-dependencies, two reads.
  REQUIRE(acyclic->dependencies.size() == 4);
  int rw = 0, wr = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    rw += acyclic->dependencies[i].type == Dep::RW && acyclic->item[i];
    wr += acyclic->dependencies[i].type == Dep::WR;
  }
  CHECK(rw == 2);
  CHECK(wr == 2);
  REQUIRE(d.anomaly);
  CHECK(d.anomaly->name == "G2-item");
  CHECK(d.anomaly->description.find("Adya's G2-item") != std::string::npos);
}

TEST_CASE("failing instances: a lost update breaks cerone.UA's NOCONFLICT for the two writers") {
  const History h = example("lost-update.json");
  const Decision d = decide(h, library().level("cerone.UA"));
  REQUIRE(d.verdict == Verdict::Violated);
  REQUIRE(d.failing);
  bool found = false;
  for (const FailingInstance& i : d.failing->instances)
    if (i.of == "cerone.UA axiom") {
      found = true;
      CHECK((i.needs == "vis(T1, T2) or vis(T2, T1)" || i.needs == "vis(T2, T1) or vis(T1, T2)"));
    }
  CHECK(found);
}

TEST_CASE("failing instances: a pattern the history matches is false with no witness at all") {
  const History h = non_repeatable_read_history();
  const Decision d = decide(h, library().level("plume.NoNonRepeatableRead"));
  REQUIRE(d.verdict == Verdict::Violated);
  REQUIRE(d.failing);
  REQUIRE(d.failing->instances.size() == 1);
  CHECK(d.failing->instances[0].needs == "nothing");
  CHECK(d.failing->instances[0].forbids);
  // The instance names the two reads of T2 (its second and first) and what
  // they read from.
  CHECK(find(*d.failing, "plume.NoNonRepeatableRead axiom", "x := x, a := T2.2, b := T2.1, t1 := T1, t2 := T0"));
}

TEST_CASE("failing instances: every generic violation of a random history gets some, within its core") {
  std::mt19937_64 rng(20261126);
  int explained = 0;
  for (int n = 0; n < 120; ++n) {
    const History h = small_random_history(rng, n % 2 == 1);
    for (const char* name : {"biswas.PC", "cerone.PSI", "adya.PL-2.99", "dbcop.RR", "plume.TapCC"}) {
      const Decision d = decide(h, library().level(name));
      // A read anomaly is named before any level; a cycle the instances
      // close comes with them.
      if (d.verdict != Verdict::Violated || (d.anomaly && d.anomaly->cycle.empty())) continue;
      INFO(name, " on #", n, "\n", format_history(h));
      REQUIRE(d.failing);
      REQUIRE_FALSE(d.failing->instances.empty());
      // Every transaction an instance is bound to is in the core.
      std::set<std::string> core{"T0"};
      for (TxnId t : d.core) core.insert(h.txn_name(t));
      for (const FailingInstance& i : d.failing->instances)
        for (const auto& [var, value] : i.at)
          if (value.starts_with("T"))  // a transaction, or a read event "T2.1"
            CHECK_MESSAGE(core.count(value.substr(0, value.find('.'))), value, " bound in ", i.of);
      for (TxnId t : d.failing->cycle) CHECK(core.count(h.txn_name(t)));
      ++explained;
    }
  }
  CHECK(explained >= 40);
}

TEST_CASE("failing instances: circular information flow is a cycle of the history alone under adya.PL-2") {
  const History h = read_native_json(
      R"({"format": "isosynth-history", "version": 1, "init": {"x": 0}, "sessions": [
            [{"id": "T1", "ops": [["r", "x", 2], ["w", "x", 1]]}],
            [{"id": "T2", "ops": [["r", "x", 1], ["w", "x", 2]]}]]})",
      "g1c.json");
  const Decision d = decide(h, library().level("adya.PL-2"));
  REQUIRE(d.verdict == Verdict::Violated);
  REQUIRE(d.failing);
  REQUIRE(d.failing->instances.size() == 1);
  CHECK(d.failing->instances[0].needs == "nothing");
  CHECK(same_cycle(h, d.failing->instances[0].cycle, "T1 T2 T1"));
}
