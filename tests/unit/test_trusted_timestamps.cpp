// The trusted-timestamp check (engine/timestamps/trusted_check.hpp): SI and
// SER with vis and ar fixed by the database's start and commit timestamps,
// as Chronos/Aion checks them. Hand-made histories for each violation kind
// and for the allowed corner cases (ties, zero-length transactions, list
// reads, repeated values, T0), then a cross-check against a literal
// reference below that enumerates every arbitration order.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/decide/decide.hpp"
#include "engine/history/printer.hpp"
#include "engine/timestamps/trusted_check.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/brute_witness.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;
using namespace iso::timestamps;

namespace {

DbTimestamp ts(std::int64_t physical, std::int64_t logical = 0) { return DbTimestamp{physical, logical}; }

// Hand-made histories: transactions named by the caller, in sessions named
// by the caller, with integer values.
struct Builder {
  History h;
  std::map<std::string, SessionId> sessions;

  TxnId txn(const std::string& name, const std::string& session, DbTimestamp sts, DbTimestamp cts) {
    auto it = sessions.find(session);
    if (it == sessions.end()) it = sessions.emplace(session, h.add_session()).first;
    const TxnId t = h.add_txn(it->second, name);
    h.txn(t).start_ts = sts;
    h.txn(t).commit_ts = cts;
    return t;
  }
  ValueId val(std::int64_t v) { return h.intern_value(Value{v}); }
  KeyId key(const std::string& k) { return h.intern_key(k); }
  void r(TxnId t, const std::string& k, std::int64_t v) { h.add_read(t, key(k), val(v)); }
  void w(TxnId t, const std::string& k, std::int64_t v) { h.add_write(t, key(k), val(v)); }
  void lr(TxnId t, const std::string& k, const std::vector<std::int64_t>& l) {
    std::vector<ValueId> ids;
    for (std::int64_t v : l) ids.push_back(val(v));
    h.add_list_read(t, key(k), ids, h.init_value(key(k)));
  }
};

std::vector<ViolationKind> kinds(const TrustedResult& r) {
  std::vector<ViolationKind> out;
  for (const Violation& v : r.violations) out.push_back(v.kind);
  return out;
}

std::string all_text(const TrustedResult& r) {
  std::string out;
  for (const Violation& v : r.violations) out += fmt::format("{}: {}\n", violation_kind_name(v.kind), v.description);
  return out;
}

bool allows(const History& h, TrustedLevel level, bool sessions = true) {
  return check_trusted(h, level, sessions).violations.empty();
}

using VK = ViolationKind;
using VKs = std::vector<ViolationKind>;

// --- the reference -------------------------------------------------------------

// The formulas of trusted_check.hpp read literally, by enumerating every
// strict total order ar on T⁺ that contains the strict commit-timestamp order
// (T0 first): the level holds iff some ar satisfies vis ⊆ ar, EXT (register
// reads: the final write of the ar-greatest visible writer, T0's initial
// value when T0 writes the key; list reads: the concatenation in ar of the
// visible writers' writes of the key), and, independent of ar, SESSION
// (every pair in session order, when asked), NOCONFLICT (SI) or TOTALVIS
// (SER) on every pair. Every transaction but T0 must be committed with
// timestamps. Up to 7 transactions besides T0.
bool reference_allows(const History& h, TrustedLevel level, bool sessions) {
  const std::size_t n = h.num_txns();
  for (TxnId t = 1; t < n; ++t) {
    REQUIRE(h.txn(t).status == TxnStatus::Committed);
    REQUIRE((h.txn(t).start_ts && h.txn(t).commit_ts && *h.txn(t).start_ts <= *h.txn(t).commit_ts));
  }
  REQUIRE(n <= 8);
  // h.ts_vis, written out: of two transactions that start and commit at one
  // timestamp, only the later sees the earlier.
  const auto vis = [&](TxnId a, TxnId b) {
    if (a == b || b == kInitTxn) return false;
    if (a == kInitTxn) return true;
    const DbTimestamp ca = *h.txn(a).commit_ts, sb = *h.txn(b).start_ts;
    if (ca != sb) return ca < sb;
    return !(*h.txn(a).start_ts == ca && *h.txn(b).commit_ts == sb) || a < b;
  };
  const auto writes = [&](TxnId t, KeyId k) {
    if (t == kInitTxn) return h.t0_writes(k);
    for (const Op& op : h.txn(t).ops)
      if (op.kind == OpKind::Write && op.key == k) return true;
    return false;
  };
  const auto one_way = [&](TxnId a, TxnId b) { return vis(a, b) || vis(b, a); };

  if (sessions) {
    for (const auto& s : h.sessions())
      for (std::size_t i = 0; i < s.size(); ++i)
        for (std::size_t j = i + 1; j < s.size(); ++j)
          if (!vis(s[i], s[j])) return false;
  }
  for (TxnId a = 0; a < n; ++a) {
    for (TxnId b = a + 1; b < n; ++b) {
      if (level == TrustedLevel::SER && a != kInitTxn && !one_way(a, b)) return false;
      if (level == TrustedLevel::SI) {
        for (KeyId k = 0; k < h.keys().size(); ++k)
          if (writes(a, k) && writes(b, k) && !one_way(a, b)) return false;
      }
    }
  }

  // Candidate arbitrations.
  std::vector<TxnId> perm(n - 1);
  std::iota(perm.begin(), perm.end(), TxnId{1});
  std::vector<int> pos(n);
  do {
    pos[kInitTxn] = -1;
    for (std::size_t i = 0; i < perm.size(); ++i) pos[perm[i]] = static_cast<int>(i);
    bool ok = true;
    for (TxnId a = 1; a < n && ok; ++a)
      for (TxnId b = 1; b < n && ok; ++b)
        if (a != b && *h.txn(a).commit_ts < *h.txn(b).commit_ts && pos[a] > pos[b]) ok = false;
    for (TxnId a = 0; a < n && ok; ++a)
      for (TxnId b = 0; b < n && ok; ++b)
        if (vis(a, b) && pos[a] > pos[b]) ok = false;
    // EXT
    for (TxnId b = 1; b < n && ok; ++b) {
      std::vector<bool> own(h.keys().size(), false);
      for (const Op& op : h.txn(b).ops) {
        if (op.kind == OpKind::Write) own[op.key] = true;
        if (op.kind != OpKind::Read || own[op.key]) continue;
        std::vector<TxnId> visible;
        for (TxnId a = 0; a < n; ++a)
          if (vis(a, b) && writes(a, op.key)) visible.push_back(a);
        if (visible.empty()) { ok = false; break; }
        std::sort(visible.begin(), visible.end(), [&](TxnId x, TxnId y) { return pos[x] < pos[y]; });
        if (op.list == kNoList) {
          const TxnId latest = visible.back();
          ValueId v = h.init_value(op.key);
          if (latest != kInitTxn)
            for (const Op& o : h.txn(latest).ops)
              if (o.kind == OpKind::Write && o.key == op.key) v = o.value;
          if (v != op.value) { ok = false; break; }
        } else {
          std::vector<ValueId> state;
          for (TxnId a : visible) {
            if (a == kInitTxn) continue;
            for (const Op& o : h.txn(a).ops)
              if (o.kind == OpKind::Write && o.key == op.key) state.push_back(o.value);
          }
          if (state != h.lists()[op.list]) { ok = false; break; }
        }
      }
    }
    if (ok) return true;
  } while (std::next_permutation(perm.begin(), perm.end()));
  return false;
}

// --- random histories ----------------------------------------------------------

// Random timestamps on every transaction: start <= commit on a small clock
// (physical 0..range, logical 0 or 1), so that ties, zero-length
// transactions and overlaps are frequent.
void random_timestamps(std::mt19937_64& rng, History& h, std::int64_t range) {
  const auto draw = [&] {
    return ts(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(range + 1)),
              rng() % 4 == 0 ? 1 : 0);
  };
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    DbTimestamp a = draw(), b = rng() % 4 == 0 ? a : draw();
    if (b < a) std::swap(a, b);
    h.txn(t).start_ts = a;
    h.txn(t).commit_ts = b;
  }
}

// A history generated from its timestamps, so that many are allowed: each
// read returns what the timestamps say (the visible writes, in an order of
// the commit timestamps with ties broken at random), except with
// probability `noise`. Values repeat when `repeat`; with `lists`, writes
// are appends and reads list reads.
History timed_history(std::mt19937_64& rng, bool lists, bool repeat, double noise) {
  const auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1)); };
  const int n = pick(1, 6), nkeys = pick(1, 3), nsessions = pick(1, 3);
  const std::int64_t range = pick(2, 8);
  struct Planned { bool read; int key; std::int64_t value; std::vector<std::int64_t> list; };
  struct T { DbTimestamp sts, cts; int session; std::vector<Planned> ops; int tie; };
  std::vector<T> txns(static_cast<std::size_t>(n));
  std::int64_t fresh = 1;
  for (T& t : txns) {
    t.sts = ts(pick(0, static_cast<int>(range)), pick(0, 3) == 0 ? 1 : 0);
    t.cts = pick(0, 3) == 0 ? t.sts : ts(pick(0, static_cast<int>(range)), pick(0, 3) == 0 ? 1 : 0);
    if (t.cts < t.sts) std::swap(t.sts, t.cts);
    t.session = pick(0, nsessions - 1);
    t.tie = pick(0, 1000);
    for (int i = pick(1, 4); i > 0; --i) {
      Planned op{pick(0, 1) == 0, pick(0, nkeys - 1), 0, {}};
      if (!op.read) op.value = repeat ? pick(0, 3) : fresh++;
      t.ops.push_back(op);
    }
  }
  // ar: by commit timestamp, zero-length last in a tie (they see the
  // others), the rest of a tie at random.
  std::vector<std::size_t> ar(txns.size());
  std::iota(ar.begin(), ar.end(), std::size_t{0});
  std::sort(ar.begin(), ar.end(), [&](std::size_t a, std::size_t b) {
    const T &x = txns[a], &y = txns[b];
    if (x.cts != y.cts) return x.cts < y.cts;
    const bool zx = x.sts == x.cts, zy = y.sts == y.cts;
    if (zx != zy) return zy;
    return std::pair(x.tie, a) < std::pair(y.tie, b);
  });
  for (std::size_t b = 0; b < txns.size(); ++b) {
    std::vector<std::vector<std::int64_t>> state(static_cast<std::size_t>(nkeys));
    for (std::size_t a : ar) {
      if (a == b || txns[a].cts > txns[b].sts) continue;
      for (const Planned& op : txns[a].ops) {
        if (op.read) continue;
        auto& s = state[static_cast<std::size_t>(op.key)];
        if (lists) s.push_back(op.value);
        else s.assign(1, op.value);
      }
    }
    for (Planned& op : txns[b].ops) {
      auto& s = state[static_cast<std::size_t>(op.key)];
      if (!op.read) {
        if (lists) s.push_back(op.value);
        else s.assign(1, op.value);
        continue;
      }
      op.list = s;
      if (static_cast<double>(rng() % 1000) < noise * 1000) {
        switch (rng() % 3) {
          case 0: if (!op.list.empty()) op.list.pop_back(); break;
          case 1: op.list.push_back(pick(0, 3)); break;
          default: if (op.list.size() >= 2) std::swap(op.list[0], op.list[1]); else op.list.assign(1, pick(0, 3)); break;
        }
      }
      op.value = op.list.empty() ? 0 : op.list.back();
    }
  }
  // Sessions follow the start timestamps, or not.
  std::vector<std::size_t> order(txns.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (rng() % 2 == 0) {
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return txns[a].sts < txns[b].sts; });
  } else {
    std::shuffle(order.begin(), order.end(), rng);
  }
  Builder bld;
  for (int k = 0; k < nkeys; ++k) bld.key(fmt::format("k{}", k));
  if (rng() % 6 == 0) {
    bld.h.set_initial_writes(InitialWrites::ExplicitOnly);
    for (int k = 0; k < nkeys; ++k)
      if (rng() % 2 == 0) bld.h.set_init(static_cast<KeyId>(k), bld.val(0));
  }
  for (std::size_t i : order) {
    const T& t = txns[i];
    const TxnId id = bld.txn(fmt::format("T{}", i + 1), fmt::format("s{}", t.session), t.sts, t.cts);
    for (const Planned& op : t.ops) {
      const std::string k = fmt::format("k{}", op.key);
      if (!op.read) bld.w(id, k, op.value);
      else if (lists) bld.lr(id, k, op.list);
      else bld.r(id, k, op.value);
    }
  }
  return std::move(bld.h);
}

struct Tally {
  int allowed = 0, violated = 0;
  void add(bool a) { a ? ++allowed : ++violated; }
};

// Compares check_trusted with the reference on h at both levels, sessions
// on and off; counts verdicts per level.
void cross_check(const History& h, Tally& si, Tally& ser) {
  for (bool sessions : {true, false}) {
    for (TrustedLevel level : {TrustedLevel::SI, TrustedLevel::SER}) {
      const TrustedResult got = check_trusted(h, level, sessions);
      const bool expected = reference_allows(h, level, sessions);
      INFO(format_history(h));
      INFO("level ", level == TrustedLevel::SI ? "SI" : "SER", ", sessions ", sessions);
      for (TxnId t = 1; t < h.num_txns(); ++t)
        INFO(h.txn_name(t), " [", h.txn(t).start_ts->physical, ".", h.txn(t).start_ts->logical, ", ",
             h.txn(t).commit_ts->physical, ".", h.txn(t).commit_ts->logical, "]");
      INFO(all_text(got));
      REQUIRE(got.violations.empty() == expected);
      // A report cut short still says violated.
      const TrustedResult one = check_trusted(h, level, sessions, 1);
      CHECK(one.violations.size() == std::min<std::size_t>(1, got.violations.size()));
      CHECK(one.truncated == (got.violations.size() > 1));
      for (const Violation& v : got.violations) {
        CHECK_FALSE(v.description.empty());
        CHECK_FALSE(v.txns.empty());
        for (TxnId t : v.txns) CHECK(t < h.num_txns());
      }
      if (sessions) (level == TrustedLevel::SI ? si : ser).add(expected);
    }
  }
}

}  // namespace

// --- hand-made histories ---------------------------------------------------------

TEST_CASE("trusted timestamps: names of the violation kinds") {
  CHECK(violation_kind_name(VK::Session) == "SESSION");
  CHECK(violation_kind_name(VK::Ext) == "EXT");
  CHECK(violation_kind_name(VK::NoConflict) == "NOCONFLICT");
  CHECK(violation_kind_name(VK::TotalVis) == "TRANSVIS");
  CHECK(violation_kind_name(VK::Order) == "ORDER");
}

TEST_CASE("trusted timestamps: timestamp_gaps names what breaks the precondition") {
  Builder b;
  const TxnId t1 = b.txn("T1", "s", ts(1), ts(2));
  const TxnId t2 = b.txn("T2", "s", ts(3), ts(2));
  const TxnId t3 = b.txn("T3", "s", ts(3), ts(4));
  b.h.txn(t3).start_ts.reset();
  const TxnId t4 = b.txn("T4", "s", ts(5), ts(6));
  b.h.txn(t4).status = TxnStatus::Aborted;
  const TimestampGaps g = timestamp_gaps(b.h);
  CHECK(g.inverted == std::vector<TxnId>{t2});
  CHECK(g.missing == std::vector<TxnId>{t3});
  CHECK(g.not_committed == std::vector<TxnId>{t4});
  CHECK_FALSE(g.empty());
  b.h.txn(t2).start_ts = ts(1);
  b.h.txn(t3).start_ts = ts(3);
  b.h.txn(t4).status = TxnStatus::Committed;
  CHECK(timestamp_gaps(b.h).empty());
  (void)t1;
}

TEST_CASE("trusted timestamps: a read of the latest visible write is allowed, a stale or future one is EXT") {
  Builder b;
  const TxnId t1 = b.txn("T1", "a", ts(1), ts(2));
  b.w(t1, "x", 1);
  const TxnId t2 = b.txn("T2", "b", ts(2), ts(3));  // starts when T1 commits: sees it
  b.r(t2, "x", 1);
  CHECK(allows(b.h, TrustedLevel::SI));
  CHECK(allows(b.h, TrustedLevel::SER));

  Builder stale;
  const TxnId s1 = stale.txn("T1", "a", ts(1), ts(2));
  stale.w(s1, "x", 1);
  const TxnId s2 = stale.txn("T2", "b", ts(5), ts(6));
  stale.r(s2, "x", 0);
  const TrustedResult r = check_trusted(stale.h, TrustedLevel::SI, true);
  REQUIRE(kinds(r) == VKs{VK::Ext});
  CHECK(r.violations[0].description ==
        "T2 reads x = 0 but the latest write of x visible at its start (5.0) is T1's x = 1 "
        "(committed at 2.0); x = 0 is the initial value, overwritten");
  CHECK(r.violations[0].txns == std::vector<TxnId>{s1, s2});
  CHECK(r.violations[0].key == stale.key("x"));

  Builder future;
  const TxnId f1 = future.txn("T1", "a", ts(1), ts(4));
  future.w(f1, "x", 1);
  const TxnId f2 = future.txn("T2", "b", ts(3), ts(5));
  future.r(f2, "x", 1);
  const TrustedResult fr = check_trusted(future.h, TrustedLevel::SI, true);
  REQUIRE(kinds(fr) == VKs{VK::Ext});
  CHECK(fr.violations[0].description ==
        "T2 reads x = 1 but no write of x is visible at its start (3.0): it reads the initial x = 0; "
        "x = 1 is written by T1, committed at 4.0, after T2 started");
  // SER: the two overlap as well.
  CHECK(kinds(check_trusted(future.h, TrustedLevel::SER, true)) == VKs{VK::TotalVis, VK::Ext});
}

TEST_CASE("trusted timestamps: repeated values are compared as values, any writer of them will do") {
  Builder b;
  const TxnId t1 = b.txn("T1", "a", ts(1), ts(2));
  b.w(t1, "x", 1);
  const TxnId t2 = b.txn("T2", "a", ts(3), ts(4));
  b.w(t2, "x", 1);
  const TxnId t3 = b.txn("T3", "a", ts(5), ts(6));
  b.w(t3, "x", 2);
  const TxnId t4 = b.txn("T4", "b", ts(4), ts(7));
  b.r(t4, "x", 1);  // T2's 1
  const TxnId t5 = b.txn("T5", "c", ts(2), ts(7));
  b.r(t5, "x", 1);  // T1's 1
  CHECK(allows(b.h, TrustedLevel::SI));
  const TxnId t6 = b.txn("T6", "d", ts(8), ts(9));
  b.r(t6, "x", 1);  // but T3's 2 is the latest
  const TrustedResult r = check_trusted(b.h, TrustedLevel::SI, true);
  REQUIRE(kinds(r) == VKs{VK::Ext});
  CHECK(r.violations[0].description ==
        "T6 reads x = 1 but the latest write of x visible at its start (8.0) is T3's x = 2 "
        "(committed at 6.0); x = 1 is written by T2, committed earlier at 4.0");
  // An intermediate write of a key is not a version.
  Builder mid;
  const TxnId m1 = mid.txn("T1", "a", ts(1), ts(2));
  mid.w(m1, "x", 1);
  mid.w(m1, "x", 2);
  const TxnId m2 = mid.txn("T2", "b", ts(3), ts(4));
  mid.r(m2, "x", 1);
  const TrustedResult mr = check_trusted(mid.h, TrustedLevel::SER, true);
  REQUIRE(kinds(mr) == VKs{VK::Ext});
  CHECK(mr.violations[0].description.ends_with("x = 1 is an intermediate write of T1"));
  (void)t4, (void)t5;
}

TEST_CASE("trusted timestamps: reads of T0, and keys without an initial value") {
  Builder b;
  const TxnId t1 = b.txn("T1", "a", ts(1), ts(2));
  b.r(t1, "x", 0);
  b.lr(t1, "l", {});
  CHECK(allows(b.h, TrustedLevel::SER));
  b.h.set_initial_writes(InitialWrites::ExplicitOnly);
  const TrustedResult r = check_trusted(b.h, TrustedLevel::SI, true);
  REQUIRE(kinds(r) == VKs{VK::Ext, VK::Ext});
  CHECK(r.violations[0].description ==
        "T1 reads x = 0 but no write of x is visible at its start (1.0) and x has no initial value; "
        "no transaction writes x = 0");
  CHECK(r.violations[1].description ==
        "T1 reads l = [] but no append to l is visible at its start (1.0) and l has no initial value");
  b.h.set_init(b.key("x"), b.val(0));
  b.h.set_init(b.key("l"), b.val(0));
  CHECK(allows(b.h, TrustedLevel::SI));
}

TEST_CASE("trusted timestamps: internal reads are left to INT") {
  Builder b;
  const TxnId t1 = b.txn("T1", "a", ts(1), ts(2));
  b.w(t1, "x", 5);
  b.r(t1, "x", 7);  // INT's business, not this check's
  b.lr(t1, "x", {5});
  CHECK(allows(b.h, TrustedLevel::SER));
}

TEST_CASE("trusted timestamps: SESSION is so ⊆ vis, only when sessions are checked") {
  Builder b;
  const TxnId t1 = b.txn("T1", "s", ts(1), ts(5));
  const TxnId t2 = b.txn("T2", "s", ts(3), ts(6));
  b.r(t1, "x", 0);
  b.r(t2, "y", 0);
  const TrustedResult r = check_trusted(b.h, TrustedLevel::SI, true);
  REQUIRE(kinds(r) == VKs{VK::Session});
  CHECK(r.violations[0].description == "T2 starts at 3.0, before its session predecessor T1 commits at 5.0");
  CHECK(r.violations[0].txns == std::vector<TxnId>{t1, t2});
  CHECK(allows(b.h, TrustedLevel::SI, false));
  // SER: TOTALVIS catches the overlap whatever the sessions.
  CHECK(kinds(check_trusted(b.h, TrustedLevel::SER, false)) == VKs{VK::TotalVis});
  CHECK(kinds(check_trusted(b.h, TrustedLevel::SER, true)) == VKs{VK::Session, VK::TotalVis});
  // Starting exactly when the predecessor commits is in time.
  b.h.txn(t2).start_ts = ts(5);
  CHECK(allows(b.h, TrustedLevel::SER, true));
}

TEST_CASE("trusted timestamps: NOCONFLICT forbids overlapping writers of a key, SI allows the rest") {
  Builder b;
  const TxnId t1 = b.txn("T1", "a", ts(1), ts(4));
  b.r(t1, "x", 0);
  b.w(t1, "x", 1);
  const TxnId t2 = b.txn("T2", "b", ts(2), ts(5));
  b.r(t2, "x", 0);
  b.w(t2, "x", 2);  // a lost update
  const TrustedResult r = check_trusted(b.h, TrustedLevel::SI, true);
  REQUIRE(kinds(r) == VKs{VK::NoConflict});
  CHECK(r.violations[0].description ==
        "T1 and T2 both write x and overlap: T2 starts at 2.0, before T1 commits at 4.0");
  CHECK(r.violations[0].key == b.key("x"));
  CHECK(kinds(check_trusted(b.h, TrustedLevel::SER, true)) == VKs{VK::TotalVis});

  // Write skew: overlapping writers of different keys are SI, not SER.
  Builder skew;
  const TxnId s1 = skew.txn("T1", "a", ts(1), ts(4));
  skew.r(s1, "x", 0);
  skew.r(s1, "y", 0);
  skew.w(s1, "x", 1);
  const TxnId s2 = skew.txn("T2", "b", ts(2), ts(5));
  skew.r(s2, "x", 0);
  skew.r(s2, "y", 0);
  skew.w(s2, "y", 1);
  CHECK(allows(skew.h, TrustedLevel::SI));
  const TrustedResult sr = check_trusted(skew.h, TrustedLevel::SER, true);
  REQUIRE(kinds(sr) == VKs{VK::TotalVis});
  CHECK(sr.violations[0].description == "T1 and T2 overlap: T2 starts at 2.0, before T1 commits at 4.0");
}

TEST_CASE("trusted timestamps: ties in commit timestamps") {
  SUBCASE("two writers committed together, neither zero-length: NOCONFLICT, and either can be read") {
    Builder b;
    const TxnId t1 = b.txn("T1", "a", ts(1), ts(5));
    b.w(t1, "x", 1);
    const TxnId t2 = b.txn("T2", "b", ts(2), ts(5));
    b.w(t2, "x", 2);
    const TxnId t3 = b.txn("T3", "c", ts(6), ts(7));
    b.r(t3, "x", 1);
    const TxnId t4 = b.txn("T4", "d", ts(6), ts(7));
    b.r(t4, "x", 2);
    CHECK(kinds(check_trusted(b.h, TrustedLevel::SI, true)) == VKs{VK::NoConflict});
    const TxnId t5 = b.txn("T5", "e", ts(6), ts(8));
    b.r(t5, "x", 0);
    const TrustedResult r = check_trusted(b.h, TrustedLevel::SI, true);
    REQUIRE(kinds(r) == VKs{VK::NoConflict, VK::Ext});
    CHECK(r.violations[1].description ==
          "T5 reads x = 0 but the latest write of x visible at its start (6.0) is T1's x = 1 or "
          "T2's x = 2 (committed at 5.0, in either order); x = 0 is the initial value, overwritten");
    (void)t3, (void)t4;
  }
  SUBCASE("a zero-length writer tied with another sees it, so it is the later one") {
    Builder b;
    const TxnId t1 = b.txn("T1", "a", ts(1), ts(5));
    b.w(t1, "x", 1);
    const TxnId t2 = b.txn("T2", "b", ts(5), ts(5));
    b.r(t2, "x", 1);  // sees T1: its commit is not after T2's start
    b.w(t2, "x", 2);
    const TxnId t3 = b.txn("T3", "c", ts(5), ts(9));
    b.r(t3, "x", 2);  // both visible, T2 last
    CHECK(allows(b.h, TrustedLevel::SI));
    CHECK(allows(b.h, TrustedLevel::SER));
    b.h.txn(t3).ops[0].value = b.val(1);
    const TrustedResult r = check_trusted(b.h, TrustedLevel::SI, true);
    REQUIRE(kinds(r) == VKs{VK::Ext});
    CHECK(r.violations[0].description ==
          "T3 reads x = 1 but the latest write of x visible at its start (5.0) is T2's x = 2 "
          "(committed at 5.0); x = 1 is written by T1, committed earlier at 5.0");
  }
  SUBCASE("of two zero-length transactions at one timestamp, the later sees the earlier") {
    // Read-only transactions stamped at their snapshot (cts = sts) share
    // timestamps; h.ts_vis keeps file order among them, as Chronos does.
    Builder b;
    const TxnId t1 = b.txn("T1", "a", ts(3, 1), ts(3, 1));
    b.r(t1, "x", 0);
    const TxnId t2 = b.txn("T2", "b", ts(3, 1), ts(3, 1));
    b.r(t2, "y", 0);
    CHECK(allows(b.h, TrustedLevel::SI, false));
    CHECK(allows(b.h, TrustedLevel::SER, false));
    // If they write, the later one reads the earlier's write, not the other way.
    b.w(t1, "z", 1);
    const TxnId t3 = b.txn("T3", "c", ts(3, 1), ts(3, 1));
    b.r(t3, "z", 1);
    CHECK(allows(b.h, TrustedLevel::SER, false));
    b.h.txn(t1).ops.clear();
    b.h.txn(t3).ops.clear();
    b.r(t1, "z", 1);
    b.w(t3, "z", 1);  // now T3 writes z = 1 and T1, earlier, reads it: not visible
    const TrustedResult r = check_trusted(b.h, TrustedLevel::SER, false);
    CHECK(kinds(r) == VKs{VK::Ext});
    CHECK(reference_allows(b.h, TrustedLevel::SER, false) == false);
    (void)t2;
  }
  SUBCASE("a zero-length reader does not see its own write") {
    Builder b;
    const TxnId t1 = b.txn("T1", "a", ts(1), ts(4));
    b.w(t1, "x", 1);
    const TxnId t2 = b.txn("T2", "b", ts(4), ts(4));
    b.r(t2, "x", 1);
    b.w(t2, "x", 2);
    b.lr(t2, "l", {});
    b.h.add_write(t2, b.key("l"), b.val(7));
    CHECK(allows(b.h, TrustedLevel::SER));
  }
}

TEST_CASE("trusted timestamps: list reads are the visible appends in commit order") {
  Builder b;
  const TxnId t1 = b.txn("T1", "a", ts(1), ts(2));
  b.w(t1, "l", 1);
  b.w(t1, "l", 2);
  const TxnId t2 = b.txn("T2", "b", ts(3), ts(4));
  b.w(t2, "l", 3);
  const TxnId t3 = b.txn("T3", "c", ts(5), ts(6));
  b.lr(t3, "l", {1, 2, 3});
  const TxnId t4 = b.txn("T4", "d", ts(2), ts(7));
  b.lr(t4, "l", {1, 2});
  CHECK(allows(b.h, TrustedLevel::SI));

  SUBCASE("missing a visible append") {
    b.lr(b.txn("T5", "e", ts(4), ts(8)), "l", {1, 2});
    const TrustedResult r = check_trusted(b.h, TrustedLevel::SI, true);
    REQUIRE(kinds(r) == VKs{VK::Ext});
    CHECK(r.violations[0].description ==
          "T5 reads l = [1, 2] but the appends to l visible at its start (4.0) make [1, 2, 3]: "
          "T2's append of 3 (committed at 4.0) is visible but missing");
    CHECK(r.violations[0].txns == std::vector<TxnId>{t2, *b.h.find_txn("T5")});
  }
  SUBCASE("an append not yet committed") {
    b.lr(b.txn("T5", "e", ts(3), ts(8)), "l", {1, 2, 3});
    const TrustedResult r = check_trusted(b.h, TrustedLevel::SI, true);
    REQUIRE(kinds(r) == VKs{VK::Ext});
    CHECK(r.violations[0].description ==
          "T5 reads l = [1, 2, 3] but the appends to l visible at its start (3.0) make [1, 2]: "
          "3 is appended by T2, committed at 4.0, after T5 started");
  }
  SUBCASE("an order the commit timestamps contradict") {
    b.lr(b.txn("T5", "e", ts(5), ts(8)), "l", {3, 1, 2});
    const TrustedResult r = check_trusted(b.h, TrustedLevel::SI, true);
    REQUIRE(kinds(r) == VKs{VK::Order});
    CHECK(r.violations[0].description ==
          "T5 reads l = [3, 1, 2], with T2's append (committed at 4.0) before T1's (committed at "
          "2.0), against their timestamps");
  }
  SUBCASE("a read that splits a transaction's appends") {
    b.lr(b.txn("T5", "e", ts(5), ts(8)), "l", {1});
    const TrustedResult r = check_trusted(b.h, TrustedLevel::SI, true);
    REQUIRE(kinds(r) == VKs{VK::Ext});
    CHECK(r.violations[0].description ==
          "T5 reads l = [1] but the appends to l visible at its start (5.0) make [1, 2, 3]: "
          "T1's append of 2 (committed at 2.0) is visible but missing");
  }
  (void)t3, (void)t4;
}

TEST_CASE("trusted timestamps: a list read whose last element is right but whose order is not") {
  // What a check of the last element alone (Chronos's) passes: T3 sees
  // only T2, whose append 2 ends the list, but the list puts T1's 1, not
  // yet committed, before it.
  Builder b;
  const TxnId t1 = b.txn("T1", "a", ts(4), ts(5));
  b.w(t1, "l", 1);
  const TxnId t2 = b.txn("T2", "b", ts(2), ts(3));
  b.w(t2, "l", 2);
  const TxnId t3 = b.txn("T3", "c", ts(4), ts(6));
  b.lr(t3, "l", {1, 2});
  const TrustedResult r = check_trusted(b.h, TrustedLevel::SI, true);
  REQUIRE(kinds(r) == VKs{VK::Order});
  CHECK(r.violations[0].txns == std::vector<TxnId>{t2, t1, t3});
  CHECK(reference_allows(b.h, TrustedLevel::SI, true) == false);
}

TEST_CASE("trusted timestamps: list reads with repeated elements compare the whole list") {
  // Two appends of the same 5: a read of [5] ends with the latest append's
  // value, but misses one of them.
  Builder b;
  const TxnId t1 = b.txn("T1", "a", ts(1), ts(2));
  b.w(t1, "l", 5);
  const TxnId t2 = b.txn("T2", "b", ts(3), ts(4));
  b.w(t2, "l", 5);
  const TxnId t3 = b.txn("T3", "c", ts(5), ts(6));
  b.lr(t3, "l", {5, 5});
  CHECK(allows(b.h, TrustedLevel::SER));
  b.lr(b.txn("T4", "d", ts(5), ts(7)), "l", {5});
  CHECK(kinds(check_trusted(b.h, TrustedLevel::SI, true)) == VKs{VK::Ext});
  CHECK_FALSE(reference_allows(b.h, TrustedLevel::SI, true));
  (void)t3;
}

TEST_CASE("trusted timestamps: tied list writers may be read in either order, with NOCONFLICT") {
  Builder b;
  const TxnId t1 = b.txn("T1", "a", ts(1), ts(5));
  b.w(t1, "l", 1);
  const TxnId t2 = b.txn("T2", "b", ts(2), ts(5));
  b.w(t2, "l", 2);
  b.lr(b.txn("T3", "c", ts(6), ts(7)), "l", {2, 1});
  b.lr(b.txn("T4", "d", ts(6), ts(7)), "l", {1, 2});
  CHECK(kinds(check_trusted(b.h, TrustedLevel::SI, true)) == VKs{VK::NoConflict});
  CHECK_FALSE(reference_allows(b.h, TrustedLevel::SI, true));
}

TEST_CASE("trusted timestamps: max_violations truncates the report") {
  Builder b;
  for (int i = 1; i <= 5; ++i) {
    const TxnId t = b.txn(fmt::format("T{}", i), "s", ts(10 - i), ts(10 - i));
    b.r(t, "x", 1);  // nobody writes 1
  }
  const TrustedResult all = check_trusted(b.h, TrustedLevel::SI, true);
  CHECK(all.violations.size() == 9);  // 4 session pairs, 5 reads
  CHECK_FALSE(all.truncated);
  const TrustedResult three = check_trusted(b.h, TrustedLevel::SI, true, 3);
  CHECK(three.violations.size() == 3);
  CHECK(three.truncated);
  const TrustedResult nine = check_trusted(b.h, TrustedLevel::SI, true, 9);
  CHECK_FALSE(nine.truncated);
}

TEST_CASE("trusted timestamps: transactions outside the precondition take no part") {
  Builder b;
  const TxnId t1 = b.txn("T1", "a", ts(1), ts(2));
  b.w(t1, "x", 1);
  b.h.txn(t1).status = TxnStatus::Aborted;
  const TxnId t2 = b.txn("T2", "b", ts(3), ts(4));
  b.r(t2, "x", 0);
  const TxnId t3 = b.txn("T3", "c", ts(3), ts(4));
  b.w(t3, "x", 3);
  b.h.txn(t3).commit_ts.reset();
  CHECK(allows(b.h, TrustedLevel::SER));
}

// --- the cross-check -------------------------------------------------------------

namespace {

// 1500 histories of the brute force's generator with random timestamps,
// then 2500 generated from their timestamps (timed_history), registers or
// lists; check_trusted against the reference on each.
void cross_check_random(std::uint64_t seed, bool lists) {
  std::mt19937_64 rng(seed);
  Tally si, ser;
  for (int i = 0; i < 1500; ++i) {
    History h;
    if (lists) {
      brute::RandomListOptions opt;
      opt.min_txns = 1;
      opt.max_txns = 6;
      opt.aborted = 0;
      opt.unknown = 0;
      opt.explicit_init = 0.2;
      h = brute::random_list_history(rng, opt);
    } else {
      brute::RandomHistoryOptions opt;
      opt.min_txns = 1;
      opt.max_txns = 6;
      opt.unique_values = i % 2 == 0;
      opt.int_violation = 0;
      opt.thin_air = i % 10 == 0 ? 0.5 : 0;
      opt.read_own_write = 0.2;
      h = brute::random_history(rng, opt);
    }
    random_timestamps(rng, h, static_cast<std::int64_t>(2 + i % 5));
    cross_check(h, si, ser);
  }
  for (int i = 0; i < 2500; ++i) {
    const bool repeat = lists ? i % 4 == 0 : i % 2 == 0;
    History h = timed_history(rng, lists, repeat, i % 3 == 0 ? 0.15 : 0.0);
    cross_check(h, si, ser);
  }
  MESSAGE("SI allowed ", si.allowed, " violated ", si.violated, ", SER allowed ", ser.allowed,
          " violated ", ser.violated);
  CHECK(si.allowed > 600);
  CHECK(si.violated > 600);
  CHECK(ser.allowed > 300);
  CHECK(ser.violated > 600);
}

}  // namespace

TEST_CASE("trusted timestamps: agrees with the reference on random register histories") {
  cross_check_random(20250401, false);
}

TEST_CASE("trusted timestamps: agrees with the reference on random list histories") {
  cross_check_random(1812, true);
}

TEST_CASE("trusted timestamps: the levels' fast path, the generic oracle and the brute force agree") {
  // cerone.TimestampSI and cerone.TimestampSER are decided by check_trusted
  // (graph = "timestamps-..."); their formulas by the generic oracle; the
  // brute force enumerates ar and the snapshots with the timestamps' vis.
  std::mt19937_64 rng(7031);
  std::map<std::string, Tally> tally;
  int refused = 0;
  for (int i = 0; i < 1200; ++i) {
    const bool lists = i % 3 == 2;
    History h = timed_history(rng, lists, i % 2 == 0, i % 4 == 0 ? 0.15 : 0.0);
    INFO(format_history(h));
    for (const char* name : {"cerone.TimestampSI", "cerone.TimestampSER"}) {
      INFO(name);
      const Level& level = library().level(name);
      if (refusal(h, level)) {  // an element appended twice to a list key
        ++refused;
        CHECK_THROWS_AS(decide(h, level), DecideRefused);
        continue;
      }
      const Decision d = decide(h, level);
      CHECK(d.checker == Checker::Timestamps);
      const bool got = d.verdict == Verdict::Allowed;
      CHECK((generic_decision(h, level).verdict == Verdict::Allowed) == got);
      CHECK(brute::allows(abstract_history(h), name) == got);
      tally[name].add(got);
      // A trusted verdict implies the untrusted level's.
      if (got) CHECK(decide(h, library().level(std::string(name) == "cerone.TimestampSI" ? "cerone.SI" : "cerone.SER")).verdict == Verdict::Allowed);
    }
  }
  for (const auto& [name, t] : tally) {
    INFO(name, ": ", t.allowed, " allowed, ", t.violated, " violated");
    CHECK(t.allowed > 150);
    CHECK(t.violated > 150);
  }
  CHECK(refused > 10);
}

TEST_CASE("trusted timestamps: a history without them is refused, by name") {
  Builder b;
  const TxnId t1 = b.txn("T1", "s", ts(1), ts(2));
  b.w(t1, "x", 1);
  const TxnId t2 = b.h.add_txn(b.sessions["s"], "T2");
  b.r(t2, "x", 1);
  const Level& level = library().level("cerone.TimestampSI");
  CHECK_THROWS_WITH_AS(decide(b.h, level), doctest::Contains("1 transaction has none (the first is T2)"),
                       DecideRefused);
  DecideOptions generic;
  generic.force_generic = true;
  CHECK_THROWS_AS(decide(b.h, level, generic), DecideRefused);
}

// --- timing (not a test: run with -tc='*timing*' --no-skip) ------------------------

namespace {

// A large history as a database with snapshots would log it: transaction i
// commits at 10 i; under SI it starts up to 40 earlier (so it overlaps the
// few before it) and writes only keys nobody wrote since it started; under
// SER it starts when its predecessor commits. Reads return the latest
// version committed by the start, as lists when `lists`. Sessions are 64
// clients in turn.
History large_history(std::size_t n, bool ser, bool lists, std::mt19937_64& rng) {
  History h;
  const std::size_t nkeys = lists ? n / 4 : n / 20;
  std::vector<KeyId> keys(nkeys);
  for (std::size_t k = 0; k < nkeys; ++k) keys[k] = h.intern_key(fmt::format("k{}", k));
  std::vector<SessionId> sessions(64);
  for (auto& s : sessions) s = h.add_session();
  const ValueId zero = h.intern_value(Value{std::int64_t{0}});
  struct Version { std::int64_t cts; ValueId v; };
  std::vector<std::vector<Version>> versions(nkeys);
  std::int64_t next = 1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t cts = 10 * static_cast<std::int64_t>(i + 1);
    const std::int64_t sts = ser ? cts - 10 : cts - static_cast<std::int64_t>(rng() % 40);
    const TxnId t = h.add_txn(sessions[i % 64], fmt::format("T{}", i + 1));
    h.txn(t).start_ts = ts(sts);
    h.txn(t).commit_ts = ts(cts);
    for (int j = 0; j < 4; ++j) {
      const std::size_t k = rng() % nkeys;
      auto& vs = versions[k];
      const auto visible = std::partition_point(vs.begin(), vs.end(), [&](const Version& v) { return v.cts <= sts; });
      if (rng() % 2 == 0 || visible != vs.end()) {  // a read, or a write that would conflict
        if (lists) {
          std::vector<ValueId> l;
          for (auto it = vs.begin(); it != visible; ++it) l.push_back(it->v);
          h.add_list_read(t, keys[k], std::move(l), zero);
        } else {
          h.add_read(t, keys[k], visible == vs.begin() ? zero : std::prev(visible)->v);
        }
        continue;
      }
      if (!vs.empty() && vs.back().cts == cts) continue;  // one write of a key per transaction
      const ValueId v = h.intern_value(Value{next++});
      h.add_write(t, keys[k], v);
      vs.push_back(Version{cts, v});
    }
  }
  return h;
}

}  // namespace

TEST_CASE("trusted timestamps: timing on large histories" * doctest::skip()) {
  std::mt19937_64 rng(7);
  for (std::size_t n : {std::size_t{100'000}, std::size_t{1'000'000}}) {
    for (bool lists : {false, true}) {
      for (TrustedLevel level : {TrustedLevel::SI, TrustedLevel::SER}) {
        const History h = large_history(n, level == TrustedLevel::SER, lists, rng);
        // CPU time as well as wall time: the machine may be shared.
        const auto cpu_ms = [] {
          timespec t{};
          clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
          return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
        };
        const double cpu_start = cpu_ms();
        const auto start = std::chrono::steady_clock::now();
        const TrustedResult r = check_trusted(h, level, true);
        const auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        const double cpu = cpu_ms() - cpu_start;
        std::size_t ops = 0, elements = 0;
        for (const auto& t : h.txns()) ops += t.ops.size();
        for (const auto& l : h.lists()) elements += l.size();
        MESSAGE(fmt::format("{} txns, {} ops, {} list elements, {} {}: {:.0f} ms ({:.0f} ms CPU), {} violations",
                            n, ops, elements, lists ? "lists" : "registers",
                            level == TrustedLevel::SI ? "SI" : "SER", ms, cpu, r.violations.size()));
        CHECK(r.violations.empty());
      }
    }
  }
}
