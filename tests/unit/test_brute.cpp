// The brute-force reference semantics on hand-made histories whose verdicts
// follow directly from the definitions in docs/levels.md, and its internal
// consistency on random histories: the pruned search agrees with plain
// enumeration, the Biswas–Enea and Cerone et al. definitions of the same
// level agree, and the known implications between levels hold.

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/history/history.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/random_history.hpp"

namespace {

using iso::History;
using iso::brute::allows;

// One session per inner list, one transaction per string, written in the
// papers' notation: "r(x,0) w(x,1)", with Elle's appends and list reads as
// "a(x,1) r(x,[1 2])". Transactions are named T1, T2, ... in the order they
// are listed.
History make(const std::vector<std::vector<std::string>>& sessions) {
  History h;
  int next = 1;
  for (const auto& session : sessions) {
    const iso::SessionId s = h.add_session();
    for (const std::string& text : session) {
      const iso::TxnId t = h.add_txn(s, fmt::format("T{}", next++));
      std::size_t i = 0;
      while (i < text.size()) {
        if (text[i] == ' ') {
          ++i;
          continue;
        }
        const char kind = text[i];
        const std::size_t open = text.find('(', i);
        const std::size_t comma = text.find(',', open);
        const std::size_t close = text.find(')', comma);
        REQUIRE((kind == 'r' || kind == 'w' || kind == 'a'));
        REQUIRE(close != std::string::npos);
        const iso::KeyId k = h.intern_key(text.substr(open + 1, comma - open - 1));
        const std::string arg = text.substr(comma + 1, close - comma - 1);
        i = close + 1;
        if (arg.front() == '[') {  // a list read
          std::vector<iso::ValueId> list;
          std::istringstream in(arg.substr(1, arg.size() - 2));
          for (std::int64_t e = 0; in >> e;) list.push_back(h.intern_value(iso::Value{e}));
          h.add_list_read(t, k, std::move(list), h.init_value(k));
          continue;
        }
        const iso::ValueId val = h.intern_value(iso::Value{std::stoll(arg)});
        if (kind == 'r') {
          h.add_read(t, k, val);
        } else {
          h.add_write(t, k, val);  // an append is a write of its element
        }
      }
    }
  }
  return h;
}

using Verdicts = std::map<std::string, bool>;

// Checks the listed verdicts, with the pruned search and with plain
// enumeration, and that every witness found satisfies its level.
void expect(const History& h, const Verdicts& verdicts, const iso::brute::Options& opt = {}) {
  const iso::AbstractHistory a = iso::abstract_history(h);
  for (const auto& entry : verdicts) {
    const std::string& level = entry.first;
    const bool allowed = entry.second;
    INFO(level, (opt.ignore_sessions ? " without sessions" : ""), "\n", iso::format_history(h));
    const auto w = iso::brute::find_witness(a, level, opt);
    CHECK(w.has_value() == allowed);
    CHECK(iso::brute::allows_naive(a, level, opt) == allowed);
    if (w) CHECK(iso::brute::check_witness(h, level, *w, opt).reason == "");
  }
}

// The biswas, cerone and plume levels.
Verdicts all_levels(bool allowed) {
  Verdicts v;
  for (const std::string& l : iso::brute::levels()) v[l] = allowed;
  return v;
}

// All of those and Adya's.
Verdicts every_level(bool allowed) {
  Verdicts v = all_levels(allowed);
  for (const std::string& l : iso::brute::adya_levels()) v[l] = allowed;
  return v;
}

Verdicts with(Verdicts v, const Verdicts& changes) {
  for (const auto& [level, allowed] : changes) v[level] = allowed;
  return v;
}

// A non-repeatable read: T2 reads x from T0, then from T1, and nothing else
// orders T1. Every level of the Biswas–Enea shape Ax(C, D) with T2 in D(x)
// needs T1 before T0 (RA: wr(T0, x, T2) and T1 -WR-> T2); Cerone's EXT
// gives each transaction one value per key; Plume's k and l need two keys,
// and so do its read-order patterns h, i (non-monotonic) and k, l
// (fractured) over read events, while j is this very pattern (so dbcop's
// RR); m has T0 -HB-> T1 -HB-> T2; G2-item has T2 -rw-> T1 -wr-> T2.
Verdicts non_repeatable() {
  return with(every_level(false), {{"biswas.RC", true},
                                   {"biswas.UpdateSer", true},  // T2 is read-only
                                   {"plume.TapRA", true},
                                   {"plume.RA", true},
                                   {"plume.NoNonMonotonicRead", true},
                                   {"plume.NoFracturedRead", true},
                                   {"adya.PL-1", true},
                                   {"adya.PL-2", true},
                                   {"adya.PL-CS", true}});
}

}  // namespace

TEST_CASE("brute: level names") {
  const auto& names = iso::brute::levels();
  CHECK(names.size() == 23);
  CHECK(names.front() == "biswas.RC");
  CHECK(iso::brute::adya_levels() ==
        std::vector<std::string>{"adya.PL-1", "adya.PL-2", "adya.PL-CS", "adya.PL-2.99",
                                 "adya.PL-SI", "adya.SI", "adya.PL-3", "adya.SER"});
  const History h = make({{"r(x,0)"}});
  const iso::AbstractHistory a = iso::abstract_history(h);
  for (const std::string& l : names) CHECK(allows(a, l));
  for (const std::string& l : iso::brute::adya_levels()) CHECK(allows(a, l));
  CHECK_THROWS_AS(allows(a, "biswas.XYZ"), std::invalid_argument);
  CHECK_THROWS_AS(allows(a, "SER"), std::invalid_argument);
  CHECK_THROWS_AS(iso::brute::allows_naive(a, "cerone"), std::invalid_argument);
}

TEST_CASE("brute: serial history allowed everywhere") {
  expect(make({{"r(x,0) w(x,1)", "r(x,1) w(y,2)"}, {"r(y,2) r(x,1)"}}), all_levels(true));
}

TEST_CASE("brute: write skew") {
  // Allowed by SI, denied by SER, in both frameworks.
  const History h = make({{"r(x,0) r(y,0) w(x,1)"}, {"r(x,0) r(y,0) w(y,1)"}});
  expect(h, with(all_levels(true), {{"biswas.SER", false},
                                    {"biswas.UpdateSer", false},
                                    {"cerone.SER", false},
                                    {"cerone.UpdateSer", false}}));
}

TEST_CASE("brute: lost update") {
  const History h = make({{"r(x,0) w(x,1)"}, {"r(x,0) w(x,2)"}});
  expect(h, with(all_levels(true), {{"biswas.SI", false},
                                    {"biswas.SER", false},
                                    {"biswas.UpdateSer", false},
                                    {"cerone.UA", false},
                                    {"cerone.PSI", false},
                                    {"cerone.SI", false},
                                    {"cerone.SER", false},
                                    {"cerone.UpdateSer", false},
                                    {"cerone.NLU", false}}));
}

TEST_CASE("brute: write missed by a later transaction of the same session") {
  // Isolde's counterexample to TapRA => RA: k and l need two keys. TapCC
  // denies it through pattern m (T0 -HB-> T1 -so-> T2, T2 reading x from T0).
  // T2 is read-only, so the Biswas UpdateSer axiom (t3 must be an update
  // transaction) says nothing about its read, while Cerone's UpdateSer keeps
  // SESSION and EXT for it. RC, dbcop's RR and Plume's non-repeatable and
  // non-monotonic reads only relate the reads of one transaction; Plume's
  // fractured read (TAP-k/l) has this session-order case.
  const History h = make({{"r(x,0) w(x,1)", "r(x,0)"}});
  expect(h, with(all_levels(false), {{"plume.TapRA", true},
                                     {"biswas.UpdateSer", true},
                                     {"biswas.RC", true},
                                     {"dbcop.RR", true},
                                     {"plume.NoNonRepeatableRead", true},
                                     {"plume.NoNonMonotonicRead", true}}));
}

TEST_CASE("brute: same history in different sessions is fine") {
  expect(make({{"r(x,0) w(x,1)"}, {"r(x,0)"}}), all_levels(true));
}

TEST_CASE("brute: fractured read") {
  // T2 sees T1's write of y but not of x. T2 reads y first: in Plume's
  // operation-level terms a non-monotonic read (TAP-h/i), not a fractured
  // one (TAP-k/l: x first), which the other order is.
  const History h = make({{"w(x,1) w(y,1)"}, {"r(y,1) r(x,0)"}});
  expect(h, with(all_levels(false), {{"biswas.UpdateSer", true},
                                     {"dbcop.RR", true},
                                     {"plume.NoNonRepeatableRead", true},
                                     {"plume.NoFracturedRead", true}}));
  const History x_first = make({{"w(x,1) w(y,1)"}, {"r(x,0) r(y,1)"}});
  expect(x_first, with(all_levels(false), {{"biswas.UpdateSer", true},
                                           {"biswas.RC", true},
                                           {"dbcop.RR", true},
                                           {"plume.NoNonRepeatableRead", true},
                                           {"plume.NoNonMonotonicRead", true}}));
}

TEST_CASE("brute: causality violation") {
  // T3 sees T2, which saw T1, but not T1 itself: RA but not CC.
  const History h = make({{"w(x,1)"}, {"r(x,1) w(y,1)"}, {"r(y,1) r(x,0)"}});
  expect(h, Verdicts{{"biswas.RA", true},
                     {"biswas.CC", false},
                     {"biswas.PC", false},
                     {"biswas.SI", false},
                     {"biswas.SER", false},
                     {"biswas.UpdateSer", true},
                     {"cerone.RA", true},
                     {"cerone.CC", false},
                     {"cerone.UA", true},
                     {"cerone.PSI", false},
                     {"cerone.PC", false},
                     {"cerone.SI", false},
                     {"cerone.SER", false},
                     {"cerone.UpdateSer", true},
                     {"cerone.NLU", true},
                     {"plume.TapRA", true},
                     {"plume.TapCC", false},
                     {"plume.RA", true},
                     {"plume.NoNonRepeatableRead", true},
                     {"plume.NoNonMonotonicRead", true},
                     {"plume.NoFracturedRead", true},
                     {"dbcop.RR", true}});
}

TEST_CASE("brute: long fork") {
  // Two readers see two independent writes in opposite orders: PSI but not PC.
  const History h =
      make({{"w(x,1)"}, {"w(y,1)"}, {"r(x,1) r(y,0)"}, {"r(x,0) r(y,1)"}});
  expect(h, with(all_levels(true), {{"biswas.PC", false},
                                    {"biswas.SI", false},
                                    {"biswas.SER", false},
                                    {"cerone.PC", false},
                                    {"cerone.SI", false},
                                    {"cerone.SER", false}}));
}

TEST_CASE("brute: Fekete's read-only anomaly (Isolde Listing 3)") {
  const History h =
      make({{"r(y,0) w(y,1)"}, {"r(x,0) r(y,1)"}, {"r(x,0) r(y,0) w(x,1)"}});
  expect(h, Verdicts{{"biswas.SI", true},
                     {"biswas.UpdateSer", true},
                     {"biswas.SER", false},
                     {"cerone.SI", true},
                     {"cerone.UpdateSer", true},
                     {"cerone.SER", false}});
}

TEST_CASE("brute: NLU does not imply UA (Isolde Figure 1)") {
  const History h = make({{"r(x,0) w(x,1) w(y,1)"},
                          {"r(x,1) r(y,1) w(y,2)"},
                          {"r(x,0) r(y,2) w(y,3)"}});
  expect(h, Verdicts{{"cerone.RA", true},
                     {"cerone.NLU", true},
                     {"cerone.UA", false},
                     {"cerone.PSI", false}});
}

TEST_CASE("brute: NLU needs only the latest earlier writer to be visible") {
  // T1 and T3 both write x and each reads the initial value of a key the
  // other writes, so neither can see the other: UA denies. With T2 writing x
  // between them, T3 only needs to see T2.
  const History with_t2 =
      make({{"r(z,0) w(x,1) w(y,1)"}, {"w(x,2)"}, {"r(y,0) w(x,3) w(z,3)"}});
  expect(with_t2, Verdicts{{"cerone.RA", true}, {"cerone.NLU", true}, {"cerone.UA", false}});
  const History without_t2 = make({{"r(z,0) w(x,1) w(y,1)"}, {"r(y,0) w(x,3) w(z,3)"}});
  expect(without_t2, Verdicts{{"cerone.RA", true}, {"cerone.NLU", false}, {"cerone.UA", false}});
}

TEST_CASE("brute: repeated values make wr a choice") {
  // T3 reads x = 1, written by both T1 and T2. Reading it from T1 is a
  // fractured read (T3 also reads y from T2, which follows T1 in so);
  // reading it from T2 is serializable.
  const History dup = make({{"w(x,1)", "w(x,1) w(y,2)"}, {"r(y,2) r(x,1)"}});
  const iso::AbstractHistory a = iso::abstract_history(dup);
  CHECK_FALSE(a.unique_values());
  expect(dup, all_levels(true));
  const auto w = iso::brute::find_witness(a, "biswas.RA");
  REQUIRE(w.has_value());
  const iso::TxnId t2 = *dup.find_txn("T2");
  const iso::TxnId t3 = *dup.find_txn("T3");
  INFO(iso::brute::format_witness(a, *w));
  REQUIRE(w->wr[t3].size() == 2);
  // By key, each naming its read event by its operation.
  CHECK(w->wr[t3][0] == iso::brute::ReadFrom{*dup.find_key("x"), t2, 1});
  CHECK(w->wr[t3][1] == iso::brute::ReadFrom{*dup.find_key("y"), t2, 0});

  // With T2 writing a different value of x only T1 can be read: fractured
  // (in Plume's read-order terms non-monotonic: y is read first).
  const History uniq = make({{"w(x,1)", "w(x,3) w(y,2)"}, {"r(y,2) r(x,1)"}});
  expect(uniq, with(all_levels(false), {{"biswas.UpdateSer", true},
                                        {"dbcop.RR", true},
                                        {"plume.NoNonRepeatableRead", true},
                                        {"plume.NoFracturedRead", true}}));
}

TEST_CASE("brute: a rewrite of the initial value") {
  // T3 follows T1 in its session, so it cannot read x = 0 from T0; it can
  // read it from T2, which overwrote T1's 5 with 0: serial T0 T1 T2 T3.
  const History h = make({{"w(x,5)", "r(x,0)"}, {"r(x,5) w(x,0)"}});
  expect(h, all_levels(true));
  // With T2 writing 7 instead, T3 can only read T0: T1's write is missed.
  const History h2 = make({{"w(x,5)", "r(x,0)"}, {"r(x,5) w(x,7)"}});
  expect(h2, with(all_levels(false), {{"biswas.UpdateSer", true},
                                      {"plume.TapRA", true},
                                      {"biswas.RC", true},
                                      {"dbcop.RR", true},
                                      {"plume.NoNonRepeatableRead", true},
                                      {"plume.NoNonMonotonicRead", true}}));
}

TEST_CASE("brute: thin air and INT violations are denied everywhere") {
  expect(make({{"r(x,5)"}}), every_level(false));
  expect(make({{"w(x,1)"}, {"r(x,2)"}}), every_level(false));
  expect(make({{"w(x,1) r(x,2)"}}), every_level(false));
  // Not the transaction's last write, nor another's (Plume's
  // not-my-last-write and not-my-own-write).
  expect(make({{"w(x,1) w(x,2) r(x,1)"}}), every_level(false));
  expect(make({{"w(x,1)"}, {"w(x,2) r(x,1)"}}), every_level(false));
  // A read of the transaction's own later write (future read).
  expect(make({{"r(x,1) w(x,1)"}}), every_level(false));
  // An intermediate write is not visible to others, but at PL-1.
  expect(make({{"w(x,1) w(x,2)"}, {"r(x,1)"}}),
         with(every_level(false), {{"adya.PL-1", true}}));
}

TEST_CASE("brute: aborted transactions are not members") {
  History h = make({{"w(x,1)"}, {"r(x,0)"}});
  h.txn(*h.find_txn("T1")).status = iso::TxnStatus::Aborted;
  History h2 = make({{"w(x,1)"}, {"r(x,1)"}});
  h2.txn(*h2.find_txn("T1")).status = iso::TxnStatus::Aborted;
  for (const std::string& l : iso::brute::levels()) {
    CHECK(allows(iso::abstract_history(h), l));
    CHECK_FALSE(allows(iso::abstract_history(h2), l));
  }
  // A read of an aborted write (G1a) is PL-1's only.
  expect(h2, with(every_level(false), {{"adya.PL-1", true}}));
}

// ---------------------------------------------------------------------------
// Adya's levels are session-free. G1a and G1b (register reads of aborted or
// intermediate writes) have no witness but at PL-1, which sets them aside.

namespace {

Verdicts adya(bool pl1, bool pl2, bool plcs, bool pl299, bool plsi, bool pl3) {
  return Verdicts{{"adya.PL-1", pl1},    {"adya.PL-2", pl2},   {"adya.PL-CS", plcs},
                  {"adya.PL-2.99", pl299}, {"adya.PL-SI", plsi}, {"adya.SI", plsi},
                  {"adya.PL-3", pl3},     {"adya.SER", pl3}};
}

iso::TxnId id(const History& h, const char* name) { return *h.find_txn(name); }

}  // namespace

// ---------------------------------------------------------------------------
// Operation-level histories: every read not preceded by the transaction's
// own write of the key is a read event with its own writer.

TEST_CASE("brute: a non-repeatable read") {
  const History h = make({{"w(x,1)"}, {"r(x,0) r(x,1)"}});
  const iso::AbstractHistory a = iso::abstract_history(h);
  const iso::TxnId t2 = *h.find_txn("T2");
  REQUIRE(a.abs[t2].reads.size() == 2);
  expect(h, non_repeatable());
  expect(h, non_repeatable(), {.ignore_sessions = true});
  // RC's witness has one writer per read event, T0 for the first, T1 for
  // the second.
  const auto w = iso::brute::find_witness(a, "biswas.RC");
  REQUIRE(w.has_value());
  const iso::KeyId x = *h.find_key("x");
  CHECK(w->wr[t2] == std::vector<iso::brute::ReadFrom>{{x, 0, 0}, {x, *h.find_txn("T1"), 1}});
  CHECK(iso::brute::format_witness(a, *w) == "order: T0 T1 T2; wr: T2.x@1<-T0 T2.x@2<-T1");
  // Reading back an older version is not RC: T1 before T0.
  expect(make({{"w(x,1)"}, {"r(x,1) r(x,0)"}}), with(non_repeatable(), {{"biswas.RC", false}}));
  // Re-reads of the same value are fine everywhere.
  expect(make({{"w(x,1)"}, {"r(x,1) r(x,1)"}}), every_level(true));
  expect(make({{"w(x,1)"}, {"r(x,0) r(x,0)"}}), every_level(true));
  // A read after the transaction's own write is no read event: RC has
  // nothing to say about it, and reading the own write back is INT.
  expect(make({{"w(x,1)"}, {"r(x,0) w(x,2) r(x,2)"}}),
         Verdicts{{"biswas.RC", true}, {"biswas.SER", true}, {"adya.PL-3", true},
                  {"cerone.SER", true}});
}

TEST_CASE("brute: Plume's read-order patterns and dbcop's repeatable read") {
  const Verdicts none{{"biswas.RC", true},
                      {"dbcop.RR", true},
                      {"plume.NoNonRepeatableRead", true},
                      {"plume.NoNonMonotonicRead", true},
                      {"plume.NoFracturedRead", true}};
  // Re-reading x back from T0 after T1: RC and TAP-j, not TAP-h/i (one key).
  expect(make({{"w(x,1)"}, {"r(x,1) r(x,0)"}}),
         with(none, {{"biswas.RC", false},
                     {"dbcop.RR", false},
                     {"plume.NoNonRepeatableRead", false}}));
  // TAP-k/l: T3 reads x from T1, then y from T2, which overwrote T1's x
  // (T1 -so-> T2); with the reads the other way round, TAP-h/i.
  expect(make({{"w(x,1)", "w(x,2) w(y,2)"}, {"r(x,1) r(y,2)"}}),
         with(none, {{"plume.NoFracturedRead", false}}));
  expect(make({{"w(x,1)", "w(x,2) w(y,2)"}, {"r(y,2) r(x,1)"}}),
         with(none, {{"biswas.RC", false}, {"plume.NoNonMonotonicRead", false}}));
  // Without the session order nothing puts T1 before T2: T2 first will do.
  expect(make({{"w(x,1)"}, {"w(x,2) w(y,2)"}, {"r(x,1) r(y,2)"}}), none);
  // A re-read of one value written twice reads it from one writer; only a
  // choice of two writers would be a non-repeatable read.
  expect(make({{"w(x,1)"}, {"w(x,1)"}, {"r(x,1) r(x,1)"}}), none);
  // Re-reading x after its own write is no read event, so no re-read.
  expect(make({{"w(x,1)"}, {"r(x,1) w(x,2) r(x,2)"}}), none);
}

TEST_CASE("brute: Read Committed follows program order across keys") {
  // T2 reads y from T1, then x from T0 although T1 writes x: RC needs T1
  // before T0. With the reads the other way round RC allows; RA does not
  // (a fractured read either way).
  const History bad = make({{"w(x,1) w(y,1)"}, {"r(y,1) r(x,0)"}});
  const History ok = make({{"w(x,1) w(y,1)"}, {"r(x,0) r(y,1)"}});
  for (const bool ignore : {false, true}) {
    expect(bad, Verdicts{{"biswas.RC", false}, {"biswas.RA", false}, {"adya.PL-2", true}},
           {.ignore_sessions = ignore});
    expect(ok, Verdicts{{"biswas.RC", true}, {"biswas.RA", false}, {"adya.PL-2", true}},
           {.ignore_sessions = ignore});
  }
  // A transaction that reads from T1 and then from T0 a key T1 does not
  // write is fine.
  expect(make({{"w(y,1)"}, {"r(y,1) r(x,0)"}}), Verdicts{{"biswas.RC", true}});
  // RC keeps so ⊆ co: T3 reads y from T2, then x from T1, so T2 (a writer
  // of x) precedes T1, which its session denies.
  const History so = make({{"w(x,1)", "w(x,2) w(y,2)"}, {"r(y,2) r(x,1)"}});
  expect(so, Verdicts{{"biswas.RC", false}, {"adya.PL-2", true}});
  expect(so, Verdicts{{"biswas.RC", true}}, {.ignore_sessions = true});
}

TEST_CASE("brute: each read event chooses its own writer") {
  // x = 1 is written by T1 and by T3. T4's first read of x cannot be T3's
  // (T4 then reads y from T0 although T3 writes y: T3 before T0), and its
  // last cannot be T1's (T4 read z from T2, which writes x and follows T1
  // in its session: T2 before T1). So RC needs the first read from T1 and
  // the last from T3: one writer for both reads of x has no witness.
  const History h = make({{"w(x,1)", "w(x,4) w(z,3)"},
                          {"w(x,1) w(y,2)"},
                          {"r(x,1) r(y,0) r(z,3) r(x,1)"}});
  const iso::AbstractHistory a = iso::abstract_history(h);
  const iso::TxnId t1 = id(h, "T1"), t2 = id(h, "T2"), t3 = id(h, "T3"), t4 = id(h, "T4");
  expect(h, Verdicts{{"biswas.RC", true}, {"biswas.RA", false}, {"adya.PL-2", true}});
  const auto w = iso::brute::find_witness(a, "biswas.RC");
  REQUIRE(w.has_value());
  INFO(iso::brute::format_witness(a, *w));
  const iso::KeyId x = *h.find_key("x");
  std::vector<iso::brute::ReadFrom> xs;
  for (const auto& rf : w->wr[t4])
    if (rf.key == x) xs.push_back(rf);
  CHECK(xs == std::vector<iso::brute::ReadFrom>{{x, t1, 0}, {x, t3, 3}});
  CHECK(w->order == std::vector<iso::TxnId>{0, t1, t2, t3, t4});
  // The same writer for both reads of x fails RC either way.
  iso::brute::Witness same = *w;
  for (auto& rf : same.wr[t4])
    if (rf.key == x) rf.writer = t1;
  CHECK(iso::brute::check_witness(h, "biswas.RC", same).reason ==
        "biswas.RC: RC fails for x, T1, T2, T4's reads at operations 3 and 4");
  for (auto& rf : same.wr[t4])
    if (rf.key == x) rf.writer = t3;
  CHECK(iso::brute::check_witness(h, "biswas.RC", same).reason ==
        "biswas.RC: RC fails for y, T0, T3, T4's reads at operations 1 and 2");
  // A witness must say which writer each read event of x reads, and name
  // read events only.
  iso::brute::Witness first_only = *w;
  std::erase_if(first_only.wr[t4], [&](const auto& rf) { return rf.key == x && rf.op == 3; });
  CHECK(iso::brute::check_witness(h, "biswas.RC", first_only).reason ==
        "biswas.RC: wr does not say which of 2 writers T4's read of x reads");
  iso::brute::Witness no_event = *w;
  no_event.wr[t4].push_back({x, t1, 1});
  CHECK(iso::brute::check_witness(h, "biswas.RC", no_event).reason ==
        "biswas.RC: T4 has no read event of x at operation 2");
  iso::brute::Witness twice = *w;
  twice.wr[t4].push_back({x, t1, 0});
  CHECK(iso::brute::check_witness(h, "biswas.RC", twice).reason ==
        "biswas.RC: wr gives T4's read of x at operation 1 twice");
}

TEST_CASE("brute: a lost update is PL-2 but not PL-CS") {
  // Whichever of T1, T2 installs x last, say T2, read x from T0 and wrote
  // it after T1 did: G-cursor(x), T2 -rw(x)-> T1 -ww(x)-> T2.
  const History lu = make({{"r(x,0) w(x,1)"}, {"r(x,0) w(x,2)"}});
  expect(lu, adya(true, true, false, false, false, false));
  // The anti-dependency and the write must be on the same key: write skew
  // is cursor-stable (the classic write skew is in the case above).
  expect(make({{"r(x,0) w(y,1)"}, {"r(y,0) w(x,1)"}}),
         adya(true, true, true, false, true, false));
  // A read of x after T1's own write of x is no read event: nothing to lose.
  expect(make({{"w(x,1) r(x,1) w(x,3)"}, {"r(x,0) w(x,2)"}}),
         adya(true, true, true, true, true, true));
  // T2 reads x from T0, then from T1, then writes x: T1 -wr-> T2 puts T1
  // between T0 and T2 in ww(x), and the first read makes G-cursor(x).
  expect(make({{"w(x,1)"}, {"r(x,0) r(x,1) w(x,2)"}}),
         adya(true, true, false, false, false, false));
}

TEST_CASE("brute: PL-1 sets aside dirty register reads") {
  // G1a: T1 aborted.
  History g1a = make({{"w(x,1)"}, {"r(x,1)"}});
  g1a.txn(*g1a.find_txn("T1")).status = iso::TxnStatus::Aborted;
  expect(g1a, with(every_level(false), {{"adya.PL-1", true}}));
  // The aborted transaction's intermediate write too, and several reads.
  History more = make({{"w(x,1) w(x,2) w(y,1)"}, {"r(x,1) r(x,2) r(y,1) r(x,0)"}});
  more.txn(*more.find_txn("T1")).status = iso::TxnStatus::Aborted;
  expect(more, with(every_level(false), {{"adya.PL-1", true}}));
  // G1b: a committed transaction's non-final write.
  expect(make({{"w(x,1) w(x,2)"}, {"r(x,1) r(x,2)"}}),
         with(every_level(false), {{"adya.PL-1", true}}));
  // Beside a read set aside, the other reads are decided as usual.
  expect(make({{"w(x,1) w(x,2) w(y,1)"}, {"r(x,1) r(y,1)"}}),
         with(every_level(false), {{"adya.PL-1", true}}));
  // What is set aside is only what no committed final write explains: here
  // T3's final write of x = 1 explains the read.
  History explained = make({{"w(x,1)"}, {"r(x,1)"}, {"w(x,1)"}});
  explained.txn(*explained.find_txn("T1")).status = iso::TxnStatus::Aborted;
  expect(explained, every_level(true));
  // Not set aside: thin air, a read of the transaction's own later write,
  // INT. List reads of an intermediate or aborted state are, and their
  // lists (without the aborted elements) still order the versions.
  expect(make({{"w(x,1) w(x,2)"}, {"r(x,1) r(x,7)"}}), every_level(false));
  expect(make({{"w(x,1) w(x,2)"}, {"r(x,1) w(x,5) r(x,6)"}}), every_level(false));
  expect(make({{"a(x,1) a(x,2)"}, {"r(x,[1])"}}), with(every_level(false), {{"adya.PL-1", true}}));
  History list = make({{"a(x,1)"}, {"r(x,[1])"}});
  list.txn(*list.find_txn("T1")).status = iso::TxnStatus::Aborted;
  expect(list, with(every_level(false), {{"adya.PL-1", true}}));
  // A G0 that only the order an aborted element's list shows closes:
  // T1 before T2 on x ([1 9 2], 9 aborted), T2 before T1 on y.
  History g0 = make({{"a(x,1) a(y,3)"}, {"a(x,2) a(y,4)"}, {"a(x,9)"}, {"r(x,[1 9 2]) r(y,[4 3])"}});
  g0.txn(*g0.find_txn("T3")).status = iso::TxnStatus::Aborted;
  expect(g0, every_level(false));
  // A transaction of unknown status that did not commit aborted.
  History unknown = make({{"w(x,1) r(y,5)"}, {"r(x,1)"}});
  unknown.txn(*unknown.find_txn("T1")).status = iso::TxnStatus::Unknown;
  expect(unknown, with(every_level(false), {{"adya.PL-1", true}}));
  CHECK(iso::brute::allows_some_commit(unknown, "adya.PL-1"));
  CHECK_FALSE(iso::brute::allows_some_commit(unknown, "adya.PL-2"));
  // A witness gives no writer for a read set aside.
  iso::brute::Witness w;
  w.wr.resize(g1a.num_txns());
  w.wr[*g1a.find_txn("T2")] = {{*g1a.find_key("x"), *g1a.find_txn("T1"), 0}};
  CHECK(iso::brute::check_witness(g1a, "adya.PL-1", w).reason ==
        "adya.PL-1: T2 has no read event of x at operation 1");
  w.wr[*g1a.find_txn("T2")].clear();
  CHECK(iso::brute::check_witness(g1a, "adya.PL-1", w).ok);
}

// ---------------------------------------------------------------------------
// List-append reads (Elle). A list read returns the version of the writer of
// its last element: every element of every writer up to it in the key's
// version order, in order.

namespace {

void set_status(History& h, const char* txn, iso::TxnStatus status) {
  h.txn(*h.find_txn(txn)).status = status;
}

// The six levels the list cases state verdicts for, in this order.
Verdicts six(bool ra, bool cc, bool ser, bool si, bool pl3, bool cerone_ser) {
  return Verdicts{{"biswas.RA", ra},  {"biswas.CC", cc},   {"biswas.SER", ser},
                  {"biswas.SI", si},  {"adya.PL-3", pl3},  {"cerone.SER", cerone_ser}};
}

}  // namespace

TEST_CASE("brute: list reads of a serial execution are allowed everywhere") {
  expect(make({{"a(x,1) a(y,1)", "r(x,[1]) a(x,2)"}, {"r(x,[1 2]) r(y,[1]) a(y,2)"}}),
         every_level(true));
  // Reads after the transaction's own appends: the versions before it, then
  // its appends so far.
  expect(make({{"a(x,1)"}, {"r(x,[1]) a(x,2) r(x,[1 2]) a(x,3) r(x,[1 2 3])"}}),
         every_level(true));
  // An element appended twice by one transaction is read twice.
  expect(make({{"a(x,1) a(x,1)"}, {"r(x,[1 1])"}}), every_level(true));
  // The empty list is T0's version.
  expect(make({{"a(x,1)"}, {"r(x,[])"}}), every_level(true));
}

TEST_CASE("brute: a list holding an aborted append (G1a) is denied everywhere but PL-1") {
  History h = make({{"a(x,1)"}, {"r(x,[1])"}});
  set_status(h, "T1", iso::TxnStatus::Aborted);
  expect(h, six(false, false, false, false, false, false));
  expect(h, with(every_level(false), {{"adya.PL-1", true}}));
  // Of unknown status, T1 may have committed.
  set_status(h, "T1", iso::TxnStatus::Unknown);
  // The abstract history leaves it out.
  expect(h, with(every_level(false), {{"adya.PL-1", true}}));
  for (const std::string& l : iso::brute::adya_levels()) {
    CHECK(iso::brute::allows_some_commit(h, l));
  }
  const auto w = iso::brute::find_witness_some_commit(h, "biswas.SER");
  REQUIRE(w.has_value());
  CHECK(w->committed == std::vector<iso::TxnId>{*h.find_txn("T1")});
}

TEST_CASE("brute: garbage and duplicated elements are denied everywhere") {
  // 9 was never appended.
  expect(make({{"a(x,1)"}, {"r(x,[1 9])"}}), six(false, false, false, false, false, false));
  expect(make({{"a(x,1)"}, {"r(x,[9])"}}), every_level(false));
  // 1 was appended once and read twice.
  expect(make({{"a(x,1)"}, {"r(x,[1 1])"}}), six(false, false, false, false, false, false));
  expect(make({{"a(x,1)"}, {"a(x,2)"}, {"r(x,[1 2 1])"}}), every_level(false));
}

TEST_CASE("brute: two reads in incompatible orders are denied everywhere") {
  // No version order of x has both [1 2] and [2 1] as versions, whatever the
  // level: even RA, CC and PL-1 need one.
  const History h = make({{"a(x,1)"}, {"a(x,2)"}, {"r(x,[1 2])"}, {"r(x,[2 1])"}});
  expect(h, six(false, false, false, false, false, false));
  expect(h, every_level(false));
  expect(h, every_level(false), {.ignore_sessions = true});
  // Over two keys the orders are each fine, but ww(x) ∪ ww(y) is a cycle
  // (G0): PL-1 denies, and so does every level with a commit order.
  const History g0 = make({{"a(x,1) a(y,1)"}, {"a(x,2) a(y,2)"}, {"r(x,[1 2]) r(y,[2 1])"}});
  expect(g0, every_level(false));
}

TEST_CASE("brute: a list that stops inside another transaction's appends is denied but at PL-1") {
  // T1's version is [1 2]; [1] is no transaction's version (G1b), which
  // PL-1 permits.
  expect(make({{"a(x,1) a(x,2)"}, {"r(x,[1])"}}), with(every_level(false), {{"adya.PL-1", true}}));
  expect(make({{"a(x,1) a(x,2)"}, {"r(x,[1 2])"}}), every_level(true));
}

TEST_CASE("brute: list reads inside a transaction") {
  // T2's own appends must appear, after the versions before it.
  expect(make({{"a(x,1)"}, {"r(x,[1]) a(x,2) r(x,[1])"}}), every_level(false));
  expect(make({{"a(x,1)"}, {"a(x,2) r(x,[2 1])"}}), every_level(false));
  // T2 read [2] after its append: T2 is the first writer of x, so T3's
  // [1 2] cannot be a version.
  expect(make({{"a(x,1)"}, {"a(x,2) r(x,[2])"}, {"r(x,[1 2])"}}), every_level(false));
  expect(make({{"a(x,1)"}, {"a(x,2) r(x,[2])"}, {"r(x,[2 1])"}}), every_level(true));
  // A re-read before T2's own append is a read event of its own: a
  // non-repeatable read, as with registers.
  expect(make({{"a(x,1)"}, {"r(x,[]) r(x,[1])"}}), non_repeatable());
  expect(make({{"a(x,1)"}, {"r(x,[1]) r(x,[])"}}),
         with(non_repeatable(), {{"biswas.RC", false}}));
  expect(make({{"a(x,1)"}, {"r(x,[1]) r(x,[1])"}}), every_level(true));
  // Each list read event must be some writer's version (but at PL-1).
  expect(make({{"a(x,1) a(x,2)"}, {"r(x,[1 2]) r(x,[1])"}}),
         with(every_level(false), {{"adya.PL-1", true}}));
}

TEST_CASE("brute: a list read reveals the order of earlier appends") {
  // T5's [1 2] puts T1 before T2 in x's version order. T4 reads x from T1
  // although T2 happened before it (T2 -wr-> T3 -wr-> T4): CC needs T2
  // before T1 and denies, RA (only so ∪ wr edges into T4) allows. PL-3: T4
  // -rw-> T2 (T2 follows T1 in ww(x)) closes T2 -wr-> T3 -wr-> T4 -rw-> T2.
  const History list = make({{"a(x,1)"},
                             {"a(x,2) a(y,1)"},
                             {"r(y,[1]) a(z,1)"},
                             {"r(z,[1]) r(x,[1])"},
                             {"r(x,[1 2])"}});
  expect(list, six(true, false, false, false, false, false));
  expect(list, Verdicts{{"adya.PL-2", true}, {"adya.PL-SI", false}, {"cerone.RA", true},
                        {"cerone.CC", false}});
  // Read as registers (the last element only), T2 may precede T1:
  // T2 T3 T5 T1 T4 is serial.
  const History registers = make({{"w(x,1)"},
                                  {"w(x,2) w(y,1)"},
                                  {"r(y,1) w(z,1)"},
                                  {"r(z,1) r(x,1)"},
                                  {"r(x,2)"}});
  expect(registers, six(true, true, true, true, true, true));
}

TEST_CASE("brute: a read [1 2 3] puts its writers before every other writer") {
  // T5 reads [1 2 3] after T4 appended 4 in the same session: the version it
  // read precedes T4's, so T5 missed its session predecessor's write. Adya's
  // levels have no sessions: T5 -rw-> T4 is the only consequence.
  const History list =
      make({{"a(x,1)"}, {"a(x,2)"}, {"a(x,3)"}, {"a(x,4)", "r(x,[1 2 3])"}});
  expect(list, six(false, false, false, false, true, false));
  expect(list, six(true, true, true, true, true, true), {.ignore_sessions = true});
  // Reading only the last element, T4 may come before T3: T1 T2 T4 T3 T5.
  const History registers = make({{"w(x,1)"}, {"w(x,2)"}, {"w(x,3)"}, {"w(x,4)", "r(x,3)"}});
  expect(registers, six(true, true, true, true, true, true));
}

TEST_CASE("brute: T0 writes only the keys it initialises") {
  History h = make({{"r(x,[])"}, {"r(y,0)"}});
  h.set_initial_writes(iso::InitialWrites::ExplicitOnly);
  // Nobody writes x or y: neither read has a writer.
  expect(h, every_level(false));
  h.set_init(*h.find_key("x"), h.intern_value(iso::Value{std::int64_t{0}}));
  h.set_init(*h.find_key("y"), h.intern_value(iso::Value{std::int64_t{0}}));
  expect(h, every_level(true));
  // The first writer of an uninitialised key loses no update.
  History first = make({{"a(x,1)"}, {"r(x,[1]) a(x,2)"}});
  first.set_initial_writes(iso::InitialWrites::ExplicitOnly);
  expect(first, every_level(true));
}

// ---------------------------------------------------------------------------
// Adya's levels on the classic anomalies (adya() above).

TEST_CASE("brute: Adya levels on the classic anomalies") {
  // Write skew: T1 -rw(y)-> T2 -rw(x)-> T1 is a G2-item cycle. For G-SI the
  // composition (ww ∪ wr) ; rw? needs a ww or wr edge before each rw edge,
  // and the only ones come from T0: no cycle.
  expect(make({{"r(x,0) r(y,0) w(x,1)"}, {"r(x,0) r(y,0) w(y,1)"}}),
         adya(true, true, true, false, true, false));
  // Lost update: say T2 is second in ww(x). T2 read T0's x, which T1
  // overwrote: T2 -rw(x)-> T1 -ww(x)-> T2, a G-SI and G2-item cycle and,
  // on one key, G-cursor(x). PL-2 holds: ww ∪ wr is acyclic.
  expect(make({{"r(x,0) w(x,1)"}, {"r(x,0) w(x,2)"}}),
         adya(true, true, false, false, false, false));
  // G1c: T1 -wr(x)-> T2 -wr(y)-> T1. ww has no cycle: PL-1 holds.
  expect(make({{"w(x,1) r(y,1)"}, {"w(y,1) r(x,1)"}}),
         adya(true, false, false, false, false, false));
  // Long fork: T1 -wr-> T3 -rw(y)-> T2 -wr-> T4 -rw(x)-> T1. Both rw edges
  // follow a wr edge, so (ww ∪ wr) ; rw? has T1 -> T2 -> T1: G-SI.
  expect(make({{"w(x,1)"}, {"w(y,1)"}, {"r(x,1) r(y,0)"}, {"r(x,0) r(y,1)"}}),
         adya(true, true, true, false, false, false));
  // A write missed by a later transaction of the same session: no session
  // order in Adya, so T2 simply precedes T1.
  expect(make({{"w(x,1)", "r(x,0)"}}), adya(true, true, true, true, true, true));
  // Serial: everything holds.
  expect(make({{"r(x,0) w(x,1)", "r(x,1) w(y,2)"}, {"r(y,2) r(x,1)"}}),
         adya(true, true, true, true, true, true));
}

// ---------------------------------------------------------------------------
// Session order ignored.

TEST_CASE("brute: levels with session order ignored") {
  // T2 misses its session predecessor's write: only session order makes
  // this an anomaly (of the read-order patterns, Plume's fractured read).
  const History h = make({{"w(x,1)", "r(x,0)"}});
  expect(h, with(all_levels(false), {{"plume.TapRA", true},
                                     {"biswas.UpdateSer", true},
                                     {"biswas.RC", true},
                                     {"dbcop.RR", true},
                                     {"plume.NoNonRepeatableRead", true},
                                     {"plume.NoNonMonotonicRead", true}}));
  expect(h, every_level(true), {.ignore_sessions = true});
  // Without sessions the frameworks coincide: biswas.SER is adya.PL-3 and
  // biswas.SI is adya.PL-SI (VeriStrong Thms 3.5 and A.2).
  for (const History& g : {make({{"r(x,0) r(y,0) w(x,1)"}, {"r(x,0) r(y,0) w(y,1)"}}),
                           make({{"w(x,1)"}, {"w(y,1)"}, {"r(x,1) r(y,0)"}, {"r(x,0) r(y,1)"}})}) {
    const iso::AbstractHistory a = iso::abstract_history(g);
    CHECK(allows(a, "biswas.SER", {.ignore_sessions = true}) == allows(a, "adya.PL-3"));
    CHECK(allows(a, "biswas.SI", {.ignore_sessions = true}) == allows(a, "adya.PL-SI"));
  }
}

// ---------------------------------------------------------------------------
// Checking given witnesses.

TEST_CASE("brute: check_witness accepts found witnesses and says why others fail") {
  using iso::brute::check_witness;
  using iso::brute::ReadFrom;
  using iso::brute::Witness;
  // Lost update, committed T1 then T2, both reading x from T0.
  const History lu = make({{"r(x,0) w(x,1)"}, {"r(x,0) w(x,2)"}});
  const iso::KeyId x = *lu.find_key("x");
  Witness w;
  w.order = {0, id(lu, "T1"), id(lu, "T2")};
  w.wr.resize(lu.num_txns());
  w.wr[id(lu, "T1")] = {ReadFrom{x, 0}};
  w.wr[id(lu, "T2")] = {ReadFrom{x, 0}};
  CHECK(check_witness(lu, "biswas.RA", w).ok);
  CHECK(check_witness(lu, "biswas.SI", w).reason ==
        "biswas.SI: Conflict fails for x, x, T0, T1, T2, T1");
  CHECK(check_witness(lu, "biswas.SER", w).reason == "biswas.SER: axiom fails for x, T0, T1, T2");
  CHECK(check_witness(lu, "biswas.RC", w).ok);
  // The reads have one candidate each: wr may be left out.
  Witness bare = w;
  bare.wr.clear();
  CHECK(check_witness(lu, "biswas.RA", bare).ok);
  // Broken witnesses.
  Witness missing = w;
  missing.order.pop_back();
  CHECK(check_witness(lu, "biswas.RA", missing).reason ==
        "biswas.RA: T2 is missing from the order");
  Witness late = w;
  late.order = {id(lu, "T1"), 0, id(lu, "T2")};
  CHECK(check_witness(lu, "biswas.RA", late).reason == "biswas.RA: T0 is not first in co");
  Witness wrong = w;
  wrong.wr[id(lu, "T2")] = {ReadFrom{x, id(lu, "T1")}};
  CHECK(check_witness(lu, "biswas.RA", wrong).reason == "biswas.RA: T2 cannot read x from T1");
  // Adya: ww(x) = T0 T1 T2; T2 read T0 and T1 follows T0: T2 -rw-> T1.
  Witness ww;
  ww.ww = {{0, id(lu, "T1"), id(lu, "T2")}};
  CHECK(check_witness(lu, "adya.PL-2", ww).ok);
  CHECK(check_witness(lu, "adya.PL-3", ww).reason == "adya.PL-3: G2-item: cycle T1 T2 T1");
  CHECK(check_witness(lu, "adya.PL-SI", ww).reason == "adya.PL-SI: G-SI: cycle T1 T1");
  CHECK(check_witness(lu, "adya.PL-CS", ww).reason ==
        "adya.PL-CS: G-cursor(x): T2 read x from T0, which T1 overwrote before T2");
  ww.ww = {{id(lu, "T1"), 0, id(lu, "T2")}};
  CHECK(check_witness(lu, "adya.PL-1", ww).reason == "adya.PL-1: T0 is not first in ww(x)");
  ww.ww.clear();
  CHECK(check_witness(lu, "adya.PL-1", ww).reason == "adya.PL-1: no version order of x");
  // Cerone: SER with T1 invisible to T2.
  Witness cer;
  cer.order = {0, id(lu, "T1"), id(lu, "T2")};
  cer.vis = {{0, id(lu, "T1")}, {0, id(lu, "T2")}};
  CHECK(check_witness(lu, "cerone.RA", cer).ok);
  CHECK(check_witness(lu, "cerone.SER", cer).reason == "cerone.SER: TOTALVIS fails for T1, T2");
  CHECK(check_witness(lu, "cerone.NLU", cer).reason ==
        "cerone.NLU: lost update of x by T2: T1 is not visible");
  cer.vis.emplace_back(id(lu, "T1"), id(lu, "T2"));
  CHECK(check_witness(lu, "cerone.SER", cer).reason == "cerone.SER: EXT fails for T2's read of x");
  CHECK_THROWS_AS(check_witness(lu, "biswas.XYZ", w), std::invalid_argument);

  // Repeated values: the witness must say which writer T3 reads.
  const History dup = make({{"w(x,1)", "w(x,1) w(y,2)"}, {"r(y,2) r(x,1)"}});
  Witness d;
  d.order = {0, id(dup, "T1"), id(dup, "T2"), id(dup, "T3")};
  CHECK(check_witness(dup, "biswas.RA", d).reason ==
        "biswas.RA: wr does not say which of 2 writers T3's read of x reads");
  d.wr.resize(dup.num_txns());
  d.wr[id(dup, "T3")] = {ReadFrom{*dup.find_key("x"), id(dup, "T1"), 1}};
  CHECK(check_witness(dup, "biswas.RA", d).reason == "biswas.RA: axiom fails for x, T1, T2, T3");
  d.wr[id(dup, "T3")] = {ReadFrom{*dup.find_key("x"), id(dup, "T2"), 1}};
  CHECK(check_witness(dup, "biswas.SER", d).ok);

  // List reads: the version order decides which writer a list read reads.
  const History l = make({{"a(x,1)"}, {"a(x,2)"}, {"r(x,[2 1])"}});
  Witness lo;
  lo.order = {0, id(l, "T2"), id(l, "T1"), id(l, "T3")};
  CHECK(check_witness(l, "biswas.SER", lo).ok);
  lo.order = {0, id(l, "T1"), id(l, "T2"), id(l, "T3")};
  CHECK(check_witness(l, "biswas.SER", lo).reason ==
        "biswas.SER: no writer installs T3's read of x [2 1]");
  Witness lww;
  lww.ww = {{0, id(l, "T1"), id(l, "T2")}};
  CHECK(check_witness(l, "adya.PL-1", lww).reason ==
        "adya.PL-1: no writer installs T3's read of x [2 1]");

  // Unknown status: the witness says who committed.
  History u = make({{"a(x,1)"}, {"r(x,[1])"}});
  set_status(u, "T1", iso::TxnStatus::Unknown);
  Witness uw;
  uw.order = {0, id(u, "T2")};
  CHECK(check_witness(u, "biswas.RA", uw).reason ==
        "biswas.RA: T2: r(x,[1]) has no writer to read from");
  uw.order = {0, id(u, "T1"), id(u, "T2")};
  uw.committed = {id(u, "T1")};
  CHECK(check_witness(u, "biswas.RA", uw).ok);
  set_status(u, "T1", iso::TxnStatus::Aborted);
  CHECK(check_witness(u, "biswas.RA", uw).reason ==
        "biswas.RA: T1 aborted and cannot have committed");
}

// ---------------------------------------------------------------------------
// Random histories.

namespace {

std::vector<History> random_histories(std::uint64_t seed, int count,
                                      iso::brute::RandomHistoryOptions opt) {
  std::mt19937_64 rng(seed);
  std::vector<History> out;
  for (int i = 0; i < count; ++i) {
    opt.unique_values = i % 2 == 0;
    out.push_back(iso::brute::random_history(rng, opt));
  }
  return out;
}

// allows() agrees with allows_naive() on `levels`, and every witness found
// satisfies its level according to check_witness(); counts the verdicts.
void agree_with_naive(const History& h, const std::vector<std::string>& levels,
                      const iso::brute::Options& opt, int& allowed, int& denied) {
  const iso::AbstractHistory a = iso::abstract_history(h);
  for (const std::string& l : levels) {
    INFO(l, (opt.ignore_sessions ? " without sessions" : ""), "\n", iso::format_history(h));
    const auto w = iso::brute::find_witness(a, l, opt);
    REQUIRE(w.has_value() == iso::brute::allows_naive(a, l, opt));
    if (w) REQUIRE(iso::brute::check_witness(h, l, *w, opt).reason == "");
    (w ? allowed : denied)++;
  }
}

// The Biswas–Enea and Cerone et al. definitions of a level agree.
void frameworks_agree(const History& h, const iso::brute::Options& opt = {}) {
  const iso::AbstractHistory a = iso::abstract_history(h);
  for (const char* l : {"RA", "CC", "PC", "SI", "SER"}) {
    INFO(l, (opt.ignore_sessions ? " without sessions" : ""), "\n", iso::format_history(h));
    REQUIRE(allows(a, std::string("biswas.") + l, opt) ==
            allows(a, std::string("cerone.") + l, opt));
  }
}

}  // namespace

TEST_CASE("brute: random histories are deterministic") {
  iso::brute::RandomHistoryOptions opt;
  std::mt19937_64 a(42), b(42);
  for (int i = 0; i < 20; ++i) {
    opt.unique_values = i % 2 == 0;
    const History x = iso::brute::random_history(a, opt);
    const History y = iso::brute::random_history(b, opt);
    CHECK(iso::format_history(x) == iso::format_history(y));
    CHECK(x.num_txns() >= 3);
    CHECK(x.num_txns() <= 6);
    CHECK(x.keys().size() <= 3);
  }
}

TEST_CASE("brute: pruned search agrees with plain enumeration") {
  iso::brute::RandomHistoryOptions opt;
  opt.max_txns = 4;
  int allowed = 0, denied = 0;
  for (const History& h : random_histories(7, 150, opt)) {
    agree_with_naive(h, iso::brute::levels(), {}, allowed, denied);
  }
  // The sample exercises both verdicts.
  CHECK(allowed > 200);
  CHECK(denied > 200);
}

TEST_CASE("brute: Biswas-Enea and Cerone et al. definitions agree") {
  iso::brute::RandomHistoryOptions opt;
  for (const History& h : random_histories(11, 400, opt)) frameworks_agree(h);
}

TEST_CASE("brute: implications between levels") {
  // (stronger, weaker) pairs.
  const std::vector<std::pair<std::string, std::string>> chain = {
      {"biswas.SER", "biswas.SI"},       {"biswas.SI", "biswas.PC"},
      {"biswas.PC", "biswas.CC"},        {"biswas.CC", "biswas.RA"},
      {"biswas.SER", "biswas.UpdateSer"},
      {"cerone.SER", "cerone.SI"},       {"cerone.SI", "cerone.PC"},
      {"cerone.PC", "cerone.CC"},        {"cerone.CC", "cerone.RA"},
      {"cerone.SI", "cerone.PSI"},       {"cerone.PSI", "cerone.CC"},
      {"cerone.PSI", "cerone.UA"},       {"cerone.UA", "cerone.RA"},
      {"cerone.UA", "cerone.NLU"},       {"cerone.NLU", "cerone.RA"},
      {"cerone.SER", "cerone.UpdateSer"}, {"cerone.UpdateSer", "cerone.RA"},
      {"plume.TapCC", "plume.TapRA"},    {"plume.RA", "plume.TapRA"},
      {"biswas.RA", "plume.RA"},         {"biswas.CC", "plume.TapCC"},
      {"plume.TapCC", "biswas.CC"},      {"biswas.RA", "biswas.RC"},
  };
  iso::brute::RandomHistoryOptions opt;
  for (const History& h : random_histories(23, 400, opt)) {
    const iso::AbstractHistory a = iso::abstract_history(h);
    for (const auto& pair : chain) {
      const std::string& strong = pair.first;
      const std::string& weak = pair.second;
      INFO(strong, " => ", weak, "\n", iso::format_history(h));
      if (allows(a, strong)) REQUIRE(allows(a, weak));
    }
  }
}

// ---------------------------------------------------------------------------
// Random list-append histories.

namespace {

std::vector<History> random_list_histories(std::uint64_t seed, int count,
                                           const iso::brute::RandomListOptions& opt) {
  std::mt19937_64 rng(seed);
  std::vector<History> out;
  for (int i = 0; i < count; ++i) out.push_back(iso::brute::random_list_history(rng, opt));
  return out;
}

// Small enough for allows_naive(), with every injection likely.
iso::brute::RandomListOptions small_lists() {
  iso::brute::RandomListOptions opt;
  opt.max_txns = 4;
  opt.garbage = opt.duplicate = opt.swap = 0.1;
  opt.intermediate = 0.2;
  opt.explicit_init = 0.1;
  return opt;
}

std::vector<std::string> all_level_names() {
  std::vector<std::string> v = iso::brute::levels();
  for (const std::string& l : iso::brute::adya_levels()) v.push_back(l);
  return v;
}

}  // namespace

TEST_CASE("brute: random list histories are deterministic and small") {
  iso::brute::RandomListOptions opt;
  opt.max_txns = 6;
  opt.max_keys = 3;
  std::mt19937_64 a(5), b(5);
  std::map<std::string, int> seen;  // features of the sample
  for (int i = 0; i < 300; ++i) {
    const History x = iso::brute::random_list_history(a, opt);
    const History y = iso::brute::random_list_history(b, opt);
    REQUIRE(iso::format_history(x) == iso::format_history(y));
    REQUIRE(x.lists() == y.lists());
    CHECK(x.num_txns() >= 3);
    CHECK(x.num_txns() <= 7);
    CHECK(x.keys().size() <= 3);
    for (const auto& t : x.txns()) {
      if (t.status == iso::TxnStatus::Aborted) seen["aborted"]++;
      if (t.status == iso::TxnStatus::Unknown) seen["unknown"]++;
      std::map<iso::KeyId, int> appends;
      for (const iso::Op& op : t.ops) {
        if (op.kind == iso::OpKind::Write) appends[op.key]++;
        if (op.list != iso::kNoList && appends[op.key] > 0) seen["read after own append"]++;
        if (op.kind == iso::OpKind::Write && appends[op.key] == 2) seen["two appends"]++;
      }
    }
    for (const auto& l : x.lists()) {
      if (l.size() >= 2) seen["long list"]++;
      for (std::size_t j = 0; j < l.size(); ++j) {
        if (x.value_text(l[j]) == "1000000") seen["garbage"]++;
        if (std::count(l.begin(), l.end(), l[j]) > 1) seen["duplicate"]++;
      }
    }
  }
  for (const char* f : {"aborted", "unknown", "read after own append", "two appends",
                        "long list", "garbage", "duplicate"}) {
    INFO(f);
    CHECK(seen[f] > 0);
  }
}

TEST_CASE("brute: serial list executions are serializable") {
  iso::brute::RandomListOptions opt;
  opt.serial = 1;
  opt.aborted = opt.unknown = 0;
  opt.garbage = opt.duplicate = opt.swap = opt.intermediate = 0;
  opt.max_txns = 6;
  opt.max_keys = 3;
  for (const History& h : random_list_histories(3, 150, opt)) {
    const iso::AbstractHistory a = iso::abstract_history(h);
    INFO(iso::format_history(h));
    REQUIRE(allows(a, "biswas.SER"));
    REQUIRE(allows(a, "cerone.SER"));
    REQUIRE(allows(a, "adya.PL-3"));
  }
}

TEST_CASE("brute: pruned search agrees with plain enumeration on list histories") {
  int allowed = 0, denied = 0;
  for (const History& h : random_list_histories(13, 120, small_lists())) {
    for (const bool ignore : {false, true}) {
      agree_with_naive(h, all_level_names(), {.ignore_sessions = ignore}, allowed, denied);
    }
  }
  CHECK(allowed > 1000);
  CHECK(denied > 1000);
}

TEST_CASE("brute: the frameworks agree on list histories") {
  iso::brute::RandomListOptions opt;
  for (const History& h : random_list_histories(17, 300, opt)) {
    for (const bool ignore : {false, true}) frameworks_agree(h, {.ignore_sessions = ignore});
    // Session-free, Biswas–Enea's SER and SI are Adya's PL-3 and PL-SI
    // (VeriStrong Thms 3.5 and A.2).
    const iso::AbstractHistory a = iso::abstract_history(h);
    INFO(iso::format_history(h));
    REQUIRE(allows(a, "biswas.SER", {.ignore_sessions = true}) == allows(a, "adya.PL-3"));
    REQUIRE(allows(a, "biswas.SI", {.ignore_sessions = true}) == allows(a, "adya.PL-SI"));
  }
}

TEST_CASE("brute: Adya levels on random register histories") {
  iso::brute::RandomHistoryOptions opt;
  opt.max_txns = 4;
  const std::vector<std::pair<std::string, std::string>> chain = {
      {"adya.PL-3", "adya.PL-SI"}, {"adya.PL-SI", "adya.PL-2"}, {"adya.PL-2", "adya.PL-1"},
      {"adya.PL-3", "adya.PL-2.99"}, {"adya.PL-2.99", "adya.PL-3"}, {"biswas.SER", "adya.PL-3"},
      {"biswas.SI", "adya.PL-SI"}, {"adya.PL-SI", "adya.PL-CS"}, {"adya.PL-2.99", "adya.PL-CS"},
      {"adya.PL-CS", "adya.PL-2"}};
  int allowed = 0, denied = 0;
  for (const History& h : random_histories(29, 200, opt)) {
    agree_with_naive(h, iso::brute::adya_levels(), {}, allowed, denied);
    const iso::AbstractHistory a = iso::abstract_history(h);
    INFO(iso::format_history(h));
    for (const auto& [strong, weak] : chain) {
      INFO(strong, " => ", weak);
      if (allows(a, strong)) REQUIRE(allows(a, weak));
    }
    REQUIRE(allows(a, "biswas.SER", {.ignore_sessions = true}) == allows(a, "adya.PL-3"));
    REQUIRE(allows(a, "biswas.SI", {.ignore_sessions = true}) == allows(a, "adya.PL-SI"));
  }
  CHECK(allowed > 100);
  CHECK(denied > 100);
}

TEST_CASE("brute: a witness of a weaker level fails a stronger level that denies") {
  // (weaker, stronger) levels of one framework.
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"biswas.RA", "biswas.SER"}, {"biswas.PC", "biswas.SI"}, {"plume.TapRA", "plume.TapCC"},
      {"cerone.RA", "cerone.SER"}, {"cerone.CC", "cerone.PSI"}, {"adya.PL-2", "adya.PL-3"},
      {"adya.PL-1", "adya.PL-SI"}};
  int rejected = 0;
  for (const History& h : random_list_histories(31, 300, iso::brute::RandomListOptions{})) {
    for (const auto& [weak, strong] : pairs) {
      INFO(weak, " witness for ", strong, "\n", iso::format_history(h));
      const auto w = iso::brute::find_witness_some_commit(h, weak);
      if (!w) continue;
      const iso::brute::WitnessCheck c = iso::brute::check_witness(h, strong, *w);
      if (!iso::brute::allows_some_commit(h, strong)) {
        REQUIRE_FALSE(c.ok);
        REQUIRE(c.reason.starts_with(strong + ": "));
        ++rejected;
      } else if (c.ok) {
        REQUIRE(iso::brute::check_witness(h, weak, *w).ok);
      }
    }
  }
  CHECK(rejected > 50);
}

// ---------------------------------------------------------------------------
// Random operation-level histories: re-reads (of the same or another
// value), reads after the transaction's own writes, repeated values, aborted
// and unknown-status transactions, dirty reads.

namespace {

iso::brute::RandomHistoryOptions operation_level(int i) {
  iso::brute::RandomHistoryOptions opt;
  opt.min_txns = 3;
  opt.max_txns = 4;
  opt.unique_values = i % 2 == 0;
  opt.snapshot = 0.25;
  opt.read_latest = 0.3;
  opt.read_earlier = 0.65;
  opt.reread = 0.5;
  opt.read_own_write = 0.3;
  opt.int_violation = 0.08;
  opt.thin_air = 0.02;
  opt.aborted = 0.15;
  opt.unknown = 0.1;
  opt.dirty = 0.06;
  return opt;
}

std::vector<History> operation_level_histories(std::uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::vector<History> out;
  for (int i = 0; i < count; ++i) {
    out.push_back(iso::brute::random_history(rng, operation_level(i)));
  }
  return out;
}

// What a history has, by name: "non-repeatable read" (two reads of a key,
// before the transaction writes it, returning different values), "read own
// write", "INT violation", "aborted", "unknown", "dirty read" (a read of a
// value only an aborted transaction or a non-final write wrote).
std::vector<std::string> features(const History& h) {
  std::vector<std::string> out;
  const auto add = [&out](const char* f) {
    if (std::find(out.begin(), out.end(), f) == out.end()) out.emplace_back(f);
  };
  for (iso::TxnId t = 1; t < h.num_txns(); ++t) {
    const iso::Transaction& txn = h.txn(t);
    if (txn.status == iso::TxnStatus::Aborted) add("aborted");
    if (txn.status == iso::TxnStatus::Unknown) add("unknown");
    std::map<iso::KeyId, iso::ValueId> first_read, last_write;
    for (const iso::Op& op : txn.ops) {
      if (op.kind == iso::OpKind::Write) {
        last_write[op.key] = op.value;
        continue;
      }
      if (auto w = last_write.find(op.key); w != last_write.end()) {
        add(w->second == op.value ? "read own write" : "INT violation");
        continue;
      }
      auto [r, fresh] = first_read.emplace(op.key, op.value);
      if (!fresh && r->second != op.value) add("non-repeatable read");
      // Dirty: no committed final write of the value, an aborted or
      // intermediate one.
      bool committed = !h.t0_writes(op.key) ? false : h.init_value(op.key) == op.value;
      bool dirty = false;
      for (iso::TxnId s = 1; s < h.num_txns(); ++s) {
        if (s == t) continue;
        const auto& ops = h.txn(s).ops;
        for (std::size_t i = 0; i < ops.size(); ++i) {
          if (ops[i].kind != iso::OpKind::Write || ops[i].key != op.key ||
              ops[i].value != op.value)
            continue;
          const bool final_write =
              std::none_of(ops.begin() + static_cast<std::ptrdiff_t>(i) + 1, ops.end(),
                           [&](const iso::Op& o) {
                             return o.kind == iso::OpKind::Write && o.key == op.key;
                           });
          const bool aborted = h.txn(s).status == iso::TxnStatus::Aborted;
          if (final_write && h.txn(s).status == iso::TxnStatus::Committed) committed = true;
          if (aborted || !final_write) dirty = true;
        }
      }
      if (dirty && !committed) add("dirty read");
    }
  }
  return out;
}

}  // namespace

TEST_CASE("brute: random operation-level histories have what they are asked for") {
  std::map<std::string, int> seen;
  std::mt19937_64 a(3), b(3);
  for (int i = 0; i < 300; ++i) {
    const History x = iso::brute::random_history(a, operation_level(i));
    const History y = iso::brute::random_history(b, operation_level(i));
    REQUIRE(iso::format_history(x) == iso::format_history(y));
    CHECK(x.num_txns() <= 5);
    for (const std::string& f : features(x)) seen[f]++;
  }
  INFO(fmt::format("{}", seen));
  for (const char* f : {"non-repeatable read", "read own write", "INT violation", "aborted",
                        "unknown", "dirty read"}) {
    INFO(f);
    CHECK(seen[f] > 5);
  }
  // Off by default: without the options no re-read returns another value.
  std::mt19937_64 c(3);
  for (int i = 0; i < 300; ++i) {
    iso::brute::RandomHistoryOptions opt;
    opt.unique_values = i % 2 == 0;
    opt.int_violation = 0;
    opt.thin_air = 0;
    const std::vector<std::string> f = features(iso::brute::random_history(c, opt));
    INFO(fmt::format("{}", f));
    CHECK(std::find(f.begin(), f.end(), "non-repeatable read") == f.end());
    CHECK(std::find(f.begin(), f.end(), "dirty read") == f.end());
    CHECK(std::find(f.begin(), f.end(), "aborted") == f.end());
  }
}

TEST_CASE("brute: pruned search agrees with plain enumeration on operation-level histories") {
  std::map<std::string, std::pair<int, int>> counts;  // level -> (allowed, denied)
  const std::vector<std::string> levels = all_level_names();
  int i = 0;
  for (const History& h : operation_level_histories(37, 300)) {
    const iso::brute::Options opt{.ignore_sessions = i++ % 3 == 0};
    const iso::AbstractHistory a = iso::abstract_history(h);
    for (const std::string& l : levels) {
      INFO(l, (opt.ignore_sessions ? " without sessions" : ""), "\n", iso::format_history(h));
      const auto w = iso::brute::find_witness(a, l, opt);
      REQUIRE(w.has_value() == iso::brute::allows_naive(a, l, opt));
      if (w) REQUIRE(iso::brute::check_witness(h, l, *w, opt).reason == "");
      (w ? counts[l].first : counts[l].second)++;
    }
  }
  for (const std::string& l : levels) {
    INFO(l, ": ", counts[l].first, " allowed, ", counts[l].second, " denied");
    CHECK(counts[l].first > 20);
    CHECK(counts[l].second > 10);
  }
}

TEST_CASE("brute: implications between levels on operation-level histories") {
  const std::vector<std::pair<std::string, std::string>> chain = {
      {"biswas.CC", "biswas.RA"},     {"biswas.RA", "biswas.RC"},
      {"biswas.SER", "biswas.SI"},    {"biswas.SI", "biswas.PC"},
      {"biswas.PC", "biswas.CC"},     {"cerone.RA", "biswas.RA"},
      {"adya.PL-3", "adya.PL-SI"},    {"adya.PL-3", "adya.PL-CS"},
      {"adya.PL-SI", "adya.PL-CS"},   {"adya.PL-CS", "adya.PL-2"},
      {"adya.PL-2", "adya.PL-1"},     {"biswas.RC", "adya.PL-2"},
  };
  int rc_not_ra = 0, pl2_not_plcs = 0, pl1_not_pl2 = 0;
  for (const History& h : operation_level_histories(41, 400)) {
    const iso::AbstractHistory a = iso::abstract_history(h);
    frameworks_agree(h);
    INFO(iso::format_history(h));
    for (const auto& [strong, weak] : chain) {
      INFO(strong, " => ", weak);
      // Adya's levels are session-free: compare them without sessions.
      const iso::brute::Options opt{.ignore_sessions =
                                        strong.starts_with("adya.") || weak.starts_with("adya.")};
      if (allows(a, strong, opt)) REQUIRE(allows(a, weak, opt));
    }
    REQUIRE(allows(a, "biswas.SER", {.ignore_sessions = true}) == allows(a, "adya.PL-3"));
    REQUIRE(allows(a, "biswas.SI", {.ignore_sessions = true}) == allows(a, "adya.PL-SI"));
    rc_not_ra += allows(a, "biswas.RC") && !allows(a, "biswas.RA");
    pl2_not_plcs += allows(a, "adya.PL-2") && !allows(a, "adya.PL-CS");
    pl1_not_pl2 += allows(a, "adya.PL-1") && !allows(a, "adya.PL-2");
  }
  CHECK(rc_not_ra > 10);
  CHECK(pl2_not_plcs > 2);
  CHECK(pl1_not_pl2 > 10);
}
