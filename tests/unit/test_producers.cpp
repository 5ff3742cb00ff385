// Each producer's semantics, to the letter: Elle's closed predicates without
// :init and its real time (the order of events), Vbox's clock skew on both
// ends, Adya's PL-1 on list reads of aborted and intermediate appends
// (against the brute force), and dbcop's unsigned 64-bit values.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "engine/decide/decide.hpp"
#include "engine/history/abstract.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"
#include "lua/spec_library.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;

namespace {

Verdict verdict(const History& h, const std::string& level) {
  return decide(h, library().level(level)).verdict;
}

bool has_note(const ReadResult& r, const std::string& part) {
  for (const auto& n : r.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

// A dbcop history.bincode (FORMATS.md §5) of single-session transactions,
// each a list of (write, variable, value) events, all committed.
struct Event {
  bool write;
  std::uint64_t variable, value;
};
std::string bincode(const std::vector<std::vector<Event>>& txns) {
  std::string b;
  auto u64 = [&](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) b.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  };
  auto str = [&](const std::string& s) {
    u64(s.size());
    b += s;
  };
  for (int i = 0; i < 5; ++i) u64(static_cast<std::uint64_t>(i));
  str("db");
  str("start");
  str("end");
  u64(txns.size());  // one session per transaction
  for (const auto& t : txns) {
    u64(1);
    u64(t.size());
    for (const Event& e : t) {
      b.push_back(e.write ? 1 : 0);
      u64(e.variable);
      u64(e.value);
      b.push_back(1);
    }
    b.push_back(1);
  }
  return b;
}

}  // namespace

TEST_CASE("producers: Elle's closed predicates without :init: nil is unborn and matches nothing") {
  const std::string text =
      "{:process 0, :type :invoke, :f :txn, :value [[:rp :true nil]]}\n"
      "{:process 0, :type :ok, :f :txn, :value [[:rp :true {}]]}\n"
      "{:process 1, :type :invoke, :f :txn, :value [[:w :x 1]]}\n"
      "{:process 1, :type :ok, :f :txn, :value [[:w :x 1]]}\n";
  ReadResult r = read_elle_edn(text, "h", {});
  CHECK(r.initial_state == InitialState::None);
  CHECK_FALSE(r.history.t0_writes(0));
  CHECK(has_note(r, "every key is unborn until inserted"));
  for (const char* level : {"biswas.SER", "adya.PL-3", "biswas.SI", "biswas.RA"}) {
    INFO(level);
    CHECK(verdict(r.history, level) == Verdict::Allowed);
  }
  // Reading x as nil after the insert committed is a stale read of the
  // unborn version: a predicate read of x alone that returned nothing.
  ReadResult stale = read_elle_edn(
      "{:process 1, :type :ok, :f :txn, :value [[:insert :x 1]]}\n"
      "{:process 0, :type :ok, :f :txn, :value [[:r :x 1]]}\n"
      "{:process 0, :type :ok, :f :txn, :value [[:r :x nil]]}\n",
      "h", {});
  CHECK(has_note(stale, "1 reads of nil"));
  CHECK(verdict(stale.history, "biswas.SER") == Verdict::Violated);
  CHECK(verdict(stale.history, "adya.PL-3") == Verdict::Allowed);  // no sessions in Adya's
  // --init implicit would make nil a value that matches :true: refused.
  CHECK_THROWS_AS(read_elle_edn(text, "h", ReadOptions{InitMode::Implicit}), InputError);
  // A register history without predicates keeps nil as every key's initial value.
  ReadResult plain = read_elle_edn("{:process 0, :type :ok, :f :txn, :value [[:r :x nil]]}\n", "h", {});
  CHECK(plain.initial_state == InitialState::Implicit);
}

TEST_CASE("producers: Elle's real time is the order of events, not :time") {
  // Without :time: T1 and T2 complete before the reads begin, so StrictSER
  // must order both appends before the reader of [1].
  const std::string no_time =
      "{:process 0, :type :invoke, :f :txn, :value [[:append :x 1]]}\n"
      "{:process 0, :type :ok, :f :txn, :value [[:append :x 1]]}\n"
      "{:process 1, :type :invoke, :f :txn, :value [[:append :x 2]]}\n"
      "{:process 1, :type :ok, :f :txn, :value [[:append :x 2]]}\n"
      "{:process 2, :type :invoke, :f :txn, :value [[:r :x nil]]}\n"
      "{:process 2, :type :ok, :f :txn, :value [[:r :x [1]]]}\n";
  History h = read_elle_edn(no_time, "h", {}).history;
  CHECK(verdict(h, "biswas.SER") == Verdict::Allowed);
  CHECK(verdict(h, "biswas.StrictSER") == Verdict::Violated);
  CHECK_FALSE(brute::allows_some_commit(h, "biswas.StrictSER"));
  // :time that says the opposite is not read.
  std::string timed;
  const char* times[] = {"900", "901", "500", "501", "10", "11"};
  std::size_t start = 0;
  for (const char* t : times) {
    const std::size_t end = no_time.find("}\n", start);
    timed += no_time.substr(start, end - start) + fmt::format(", :time {}}}\n", t);
    start = end + 2;
  }
  CHECK(verdict(read_elle_edn(timed, "h", {}).history, "biswas.StrictSER") == Verdict::Violated);
  // Concurrent (the read's invocation before the second append completed):
  // allowed.
  History overlap = read_elle_edn(
      "{:process 0, :type :invoke, :f :txn, :value [[:append :x 1]]}\n"
      "{:process 0, :type :ok, :f :txn, :value [[:append :x 1]]}\n"
      "{:process 1, :type :invoke, :f :txn, :value [[:append :x 2]]}\n"
      "{:process 2, :type :invoke, :f :txn, :value [[:r :x nil]]}\n"
      "{:process 1, :type :ok, :f :txn, :value [[:append :x 2]]}\n"
      "{:process 2, :type :ok, :f :txn, :value [[:r :x [1]]]}\n",
      "h", {}).history;
  CHECK(verdict(overlap, "biswas.StrictSER") == Verdict::Allowed);
  // An :info never completes: nothing follows it in real time.
  History info = read_elle_edn(
      "{:process 0, :type :invoke, :f :txn, :value [[:append :x 1]]}\n"
      "{:process 0, :type :info, :f :txn, :value [[:append :x 1]]}\n"
      "{:process 1, :type :invoke, :f :txn, :value [[:r :x nil]]}\n"
      "{:process 1, :type :ok, :f :txn, :value [[:r :x []]]}\n"
      "{:process 2, :type :invoke, :f :txn, :value [[:r :x nil]]}\n"
      "{:process 2, :type :ok, :f :txn, :value [[:r :x [1]]]}\n",
      "h", {}).history;
  CHECK(verdict(info, "biswas.StrictSER") == Verdict::Allowed);
}

TEST_CASE("producers: the clock skew widens both ends (Vbox's Δ)") {
  History h;
  const SessionId s1 = h.add_session(), s2 = h.add_session();
  const TxnId t1 = h.add_txn(s1, "T1"), t2 = h.add_txn(s2, "T2");
  h.txn(t1).begin = 100;
  h.txn(t1).commit = 110;
  h.txn(t2).begin = 115;
  h.txn(t2).commit = 130;
  for (std::int64_t skew = 0; skew <= 4; ++skew) {
    h.set_clock_skew(skew);
    INFO("skew ", skew);
    // 110 + Δ < 115 - Δ
    CHECK(h.real_time_before(t1, t2) == (110 + 2 * skew < 115));
  }
}

TEST_CASE("producers: PL-1 decides list reads of aborted and intermediate appends as the brute force does") {
  std::mt19937_64 rng(27031);
  const Level& pl1 = library().level("adya.PL-1");
  int allowed = 0, violated = 0, dirty_allowed = 0, dirty_violated = 0;
  for (int i = 0; i < 1500; ++i) {
    brute::RandomListOptions opt;
    opt.aborted = 0.25;
    opt.visible = 0.8;
    opt.intermediate = 0.4;
    opt.max_keys = i % 2 == 0 ? 2 : 3;
    History h = brute::random_list_history(rng, opt);
    INFO(format_history(h));
    Decision d = decide(h, pl1);
    REQUIRE(d.verdict != Verdict::Unknown);
    const bool got = d.verdict == Verdict::Allowed;
    CHECK(got == brute::allows_some_commit(h, "adya.PL-1"));
    // Does some committed list read hold a dirty state?
    AbstractOptions o;
    o.set_aside_aborted_reads = o.set_aside_intermediate_reads = true;
    const AbstractHistory a = abstract_history(h, committed_members(h), o);
    bool dirty = !a.set_aside.empty();
    for (const auto& n : a.notes) dirty = dirty || n.find("did not commit (G1a)") != std::string::npos;
    (got ? allowed : violated)++;
    if (dirty) (got ? dirty_allowed : dirty_violated)++;
  }
  MESSAGE("PL-1: ", allowed, " allowed, ", violated, " violated; with dirty list reads ", dirty_allowed,
          " allowed, ", dirty_violated, " violated");
  CHECK(dirty_allowed > 50);
  CHECK(dirty_violated > 5);
}

TEST_CASE("producers: dbcop values are unsigned 64-bit") {
  const std::uint64_t top = UINT64_MAX, half = std::uint64_t{1} << 63;
  // T0.0 writes 2^64-1 to variable 2^64-1; T1.0 reads it and writes 2^63;
  // T2.0 reads 2^63, then 2^64-1 again (a non-repeatable read).
  const std::string bytes = bincode({{{true, top, top}},
                                     {{false, top, top}, {true, top, half}},
                                     {{false, top, half}, {false, top, top}}});
  ReadResult r = read_dbcop(bytes, "h.bincode", {});
  const History& h = r.history;
  REQUIRE(h.num_txns() == 4);
  const Transaction& t1 = h.txn(2);
  CHECK(h.key_text(t1.ops[0].key) == "18446744073709551615");
  CHECK(h.value_text(t1.ops[0].value) == "18446744073709551615");
  CHECK(h.value_text(t1.ops[1].value) == "9223372036854775808");
  CHECK(t1.ops[0].value != t1.ops[1].value);
  // Not the same as any signed value: -1 and INT64_MIN stay apart.
  History probe = h;
  CHECK(probe.intern_value(Value{std::int64_t{-1}}) != t1.ops[0].value);
  CHECK(probe.intern_value(Value{INT64_MIN}) != t1.ops[1].value);
  CHECK(probe.intern_value(unsigned_value(top)) == t1.ops[0].value);
  CHECK(probe.intern_value(unsigned_value(5)) == probe.intern_value(Value{std::int64_t{5}}));
  CHECK(verdict(h, "biswas.SER") == Verdict::Violated);
  CHECK(verdict(h, "adya.PL-2") == Verdict::Allowed);
  // Native JSON writes them as numbers and reads them back.
  const std::string json = write_native_json(h).dump();
  CHECK(json.find("18446744073709551615") != std::string::npos);
  ReadResult back = read_native(json, "h.json", {});
  CHECK(write_native_json(back.history) == write_native_json(h));
  CHECK(verdict(back.history, "biswas.SER") == Verdict::Violated);
  // dbcop's JSON and .hist text: versions up to 2^64-1 too.
  ReadResult text = read_dbcop_hist("[x:=18446744073709551615]\n[x==18446744073709551615]\n", "h.hist", {});
  CHECK(text.history.value_text(text.history.txn(1).ops[0].value) == "18446744073709551615");
}
