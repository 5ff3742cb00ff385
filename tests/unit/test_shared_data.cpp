// Every recorded history of ../shared/data loads, and the graph checker's
// SER and SI verdicts match what is known about it (data/LABELS.md and
// table2-sample-verdicts.csv). A disagreement is a finding: it is explained
// here, never silenced.
#include <doctest/doctest.h>

#include "tests/unit/history_helpers.hpp"
#include "tests/unit/replay.hpp"
#include "tests/unit/shared_data.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/polygraph/checker.hpp"
#include "engine/verdict/graph_level.hpp"

using namespace iso;
namespace fs = std::filesystem;

namespace {


std::string data(const std::string& rel) {
  return std::string(ISOSYNTH_SHARED_DIR) + "/data/histories/" + rel;
}

// The shared data is there, or the test fails saying so.
bool have_data() {
  require_shared(std::string(ISOSYNTH_SHARED_DIR) + "/data/histories");
  return true;
}

// "allowed" / "violated" for SER and SI.
std::pair<bool, bool> verdicts(const std::string& path, ReadOptions ro = {}) {
  ReadResult r = read_history_path(path, std::nullopt, ro);
  auto run = [&](GraphLevel level) {
    poly::CheckOptions opt;
    opt.level = level;
    opt.timeout_seconds = 120;
    poly::CheckResult c = poly::check_history(r.history, opt);
    REQUIRE_MESSAGE(c.verdict != Verdict::Unknown, path);
    return c.verdict == Verdict::Allowed;
  };
  return {run(GraphLevel::Ser), run(GraphLevel::Si)};
}

// One table-2 history where our SI verdict differs from VeriStrong's.
const std::string kSessionDisagreement =
    "ser/roachdb_general_all_writes/6_30_20_540/hist-00038/history.bincode";

struct Known {
  const char* path;
  int ser;  // 1 allowed, 0 violated, -1 not known
  int si;
};

}  // namespace

TEST_CASE("shared histories: SER and SI verdicts match LABELS.md") {
  if (!have_data()) return;
  const Known known[] = {
      {"polysi-text/galera-si-violation.txt", 0, 0},
      {"polysi-text/yugabyte-si-violation.txt", 0, 0},
      {"dbcop/dgraph-si-violation", 0, 0},
      {"polysi-text/isovista-dgraph-si-bug.txt", 0, 0},
      // The first transaction writes the initial values: read as T0 (auto),
      // SER is violated and SI holds (see the next test for the other reading).
      {"polysi-text/isovista-postgres-ser-bug.txt", 0, 1},
      {"polysi-text/isovista-yugabyte-tcc-bug.txt", 0, 0},
      {"cobra/cock-blog", 0, -1},
      {"cobra/cock-G2", 0, 1},
      {"dbcop/postgres-dup-values/BL-1k/hist-00000", 1, 1},
      {"dbcop/postgres-dup-values/RH-1k/hist-00000", 1, 1},
      {"dbcop/postgres-dup-values/WH-1k/hist-00000", 1, 1},
      {"viper-json/postgres-1000", 1, 1},
      // Cobra's benchmark runs (writes identified by value hash).
      {"cobra-bench/tpcc-10k", 1, 1},
      {"cobra-bench/rubis-10k", 1, 1},
      {"cobra-bench/twitter-10k", 1, 1},
      // AWDIT's samples: a long fork and a lost update are causal but not SI.
      {"awdit-test/causal/long-fork.txt", 0, 0},
      {"awdit-test/causal/lost-update.txt", 0, 0},
  };
  for (const Known& k : known) {
    CAPTURE(k.path);
    auto [ser, si] = verdicts(data(k.path));
    if (k.ser >= 0) CHECK(ser == (k.ser == 1));
    if (k.si >= 0) CHECK(si == (k.si == 1));
    // SER implies SI.
    if (ser) CHECK(si);
  }
}

TEST_CASE("the PostgreSQL bug hides when its initial transaction is an ordinary writer") {
  if (!have_data()) return;
  ReadOptions ro;
  ro.init = InitMode::Implicit;
  auto [ser, si] = verdicts(data("polysi-text/isovista-postgres-ser-bug.txt"), ro);
  // LABELS.md: "taken as an ordinary writer of duplicate zeros, SER passes".
  CHECK(ser);
  CHECK(si);
}

TEST_CASE("dbcop table 2 sample: verdicts match table2-sample-verdicts.csv") {
  if (!have_data()) return;
  std::ifstream in(std::string(ISOSYNTH_SHARED_DIR) + "/data/table2-sample-verdicts.csv");
  REQUIRE(in.good());
  std::string line;
  std::getline(in, line);  // file,ser,si
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream ss(line);
    std::string file, ser, si;
    std::getline(ss, file, ',');
    std::getline(ss, ser, ',');
    std::getline(ss, si, ',');
    CAPTURE(file);
    auto [got_ser, got_si] = verdicts(data("dbcop/table2-sample/" + file));
    CHECK(got_ser == (ser == "true"));
    if (file == kSessionDisagreement) {
      // The one disagreement, investigated in the next test: SI is violated
      // only through session order, which VeriStrong's verdict leaves out.
      CHECK_FALSE(got_si);
      CHECK(si == "true");
    } else {
      CHECK(got_si == (si == "true"));
    }
    ++rows;
  }
  CHECK(rows == 60);
}

TEST_CASE("every shared history loads and gets a verdict") {
  if (!have_data()) return;
  int loaded = 0;
  for (const auto& group : {"elle", "elle-cli", "awdit-test", "polysi-text"}) {
    for (const auto& e : fs::recursive_directory_iterator(data(group))) {
      if (!e.is_regular_file()) continue;
      CAPTURE(e.path().string());
      auto [ser, si] = verdicts(e.path().string());
      if (ser) CHECK(si);
      ++loaded;
    }
  }
  CHECK(loaded >= 20);
}

TEST_CASE("the table-2 SI disagreement is a session-order violation") {
  // VeriStrong reports this CockroachDB history as satisfying SI; we report
  // a G-single cycle T2.19 -rw(69)-> T1.15 -ww(42)-> T3.16 -wr(528)-> T2.17
  // -so-> T2.18 -so-> T2.19: T2.17 saw T3.16, so T2.19, later in the same
  // session, must see T1.15 (committed before T3.16) and cannot read the
  // older version of 69. Snapshot isolation in Biswas & Enea's definition,
  // and in VeriStrong's Theorem A.2, includes session order; without it the
  // history satisfies SI, which is what VeriStrong printed. Serializability
  // is violated either way (both tools agree).
  if (!have_data()) return;
  ReadResult r = read_history_path(data("dbcop/table2-sample/" + kSessionDisagreement),
                                   std::nullopt, {});
  poly::CheckOptions opt;
  opt.level = GraphLevel::Si;
  poly::CheckResult with = poly::check_history(r.history, opt);
  REQUIRE(with.verdict == Verdict::Violated);
  REQUIRE(with.anomaly.has_value());
  bool uses_so = false;
  for (const auto& e : with.anomaly->cycle) uses_so |= e.type == Dep::SO;
  CHECK(uses_so);
  History flat = r.history.each_in_own_session();
  CHECK(poly::check_history(flat, opt).verdict == Verdict::Allowed);
  opt.level = GraphLevel::Ser;
  CHECK(poly::check_history(flat, opt).verdict == Verdict::Violated);
}

TEST_CASE("SER witnesses of the shared histories replay as serial executions") {
  // An independent check of every SER "allowed" on real data, the large Elle
  // history included: the commit order, run serially, gives every read its
  // value and every list-append read its list.
  if (!have_data()) return;
  int replayed = 0;
  for (const auto& path : shared_histories(
           {"elle", "elle-cli", "awdit-test", "polysi-text", "cobra", "cobra-bench", "viper-json", "dbcop"})) {
    CAPTURE(path);
    ReadResult r = read_history_path(path, std::nullopt, {});
    poly::CheckOptions opt;
    opt.timeout_seconds = 120;
    poly::CheckResult c = poly::check_history(r.history, opt);
    REQUIRE(c.verdict != Verdict::Unknown);
    if (c.verdict != Verdict::Allowed) continue;
    // Unknown-status transactions the witness committed replay as committed.
    CHECK(replay::serial_problem(r.history, c.commit_order, c.committed_unknown) == "");
    ++replayed;
  }
  // AWDIT's none/hb-cycle.txt and read-committed/generated/l4e10sqrt.txt are
  // not serializable once read without an initial state, as AWDIT means them.
  CHECK(replayed >= 16);
}

TEST_CASE("SI, RA and CC witnesses of the shared histories are what they say") {
  // Every "allowed" of SI replays as a begin/commit schedule (snapshots,
  // first committer wins, session order); of RA and CC, its commit order
  // satisfies Biswas and Enea's axiom. Independent of the checkers' code.
  if (!have_data()) return;
  int checked = 0;
  for (const auto& path : shared_histories({"elle", "elle-cli", "awdit-test", "polysi-text",
                                            "cobra", "cobra-bench", "viper-json", "dbcop", "dbcop-tests/native"})) {
    CAPTURE(path);
    ReadResult r = read_history_path(path, std::nullopt, {});
    for (const char* name : {"biswas.SI", "biswas.RA", "biswas.CC"}) {
      DecideOptions opt;
      opt.timeout_seconds = 120;
      Decision d = decide(r.history, library().level(name), opt);
      REQUIRE(d.verdict != Verdict::Unknown);
      if (d.verdict != Verdict::Allowed) continue;
      REQUIRE(d.witness.has_value());
      CAPTURE(name);
      if (std::string(name) == "biswas.SI")
        CHECK(replay::schedule_problem(r.history, *d.witness) == "");
      else
        CHECK(replay::axiom_problem(r.history, d.commit_order, d.witness->chosen_reads,
                                    d.witness->committed_unknown,
                                    std::string(name) == "biswas.CC") == "");
      ++checked;
    }
  }
  CHECK(checked >= 100);
}
