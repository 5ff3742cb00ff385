// The snapshot-isolation variants that differ in time (specs/viper.lua;
// Viper §5, Crooks et al. 2017): Strong SI ⊂ Strong Session SI ⊂ GSI ⊂
// Adya SI. The SI polygraph decides them with Viper's real-time edges
// between begin and commit nodes (engine/polygraph/real_time_edges.cpp);
// its verdicts are checked against the generic oracle on the specs and
// against the brute force, which enumerates ar and the snapshots, on random
// histories with random intervals and clock skews.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <tuple>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/history/abstract.hpp"
#include "engine/history/printer.hpp"
#include "engine/polygraph/checker.hpp"
#include "engine/polygraph/polygraph.hpp"
#include "engine/verdict/graph_level.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/brute_witness.hpp"
#include "tests/unit/history_helpers.hpp"
#include "tests/unit/synth_helpers.hpp"

using namespace iso;

namespace {

// Strongest first: each allows what the one before allows.
const std::vector<std::string> kChain = {"viper.StrongSI", "viper.StrongSessionSI", "viper.GSI",
                                         "viper.AdyaSI"};

// A history from (session, begin, commit, ops) rows; -1: no timestamps.
// The times are exact: each event happened at its timestamp (begin_end =
// begin, commit_start = commit), as a client that timed both ends of each
// request within one tick would know them.
struct Row {
  SessionId session;
  std::int64_t begin, commit;
  std::vector<std::tuple<char, std::string, std::int64_t>> ops;  // ('r'|'w', key, value)
};

History make(const std::vector<Row>& rows, std::uint32_t sessions) {
  History h;
  for (std::uint32_t s = 0; s < sessions; ++s) h.add_session();
  int n = 0;
  for (const Row& r : rows) {
    const TxnId t = h.add_txn(r.session, fmt::format("T{}", ++n));
    if (r.begin >= 0) h.txn(t).begin = h.txn(t).begin_end = r.begin;
    if (r.commit >= 0) h.txn(t).commit = h.txn(t).commit_start = r.commit;
    for (const auto& [kind, key, value] : r.ops) {
      const KeyId k = h.intern_key(key);
      const ValueId v = h.intern_value(Value{value});
      if (kind == 'r')
        h.add_read(t, k, v);
      else
        h.add_write(t, k, v);
    }
  }
  return h;
}

bool allowed(const History& h, const std::string& level) {
  return decide(h, library().level(level)).verdict == Verdict::Allowed;
}

// Sometimes when the begin returned and when the commit was requested
// (Viper's postBeginTS, preCommitTS), inside begin..commit.
void inner_timestamps(std::mt19937_64& rng, Transaction& t) {
  const std::int64_t len = *t.commit - *t.begin + 1;
  if (rng() % 2 == 0) t.begin_end = *t.begin + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(len));
  if (rng() % 2 == 0) t.commit_start = *t.commit - static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(len));
}

// Intervals: either random on a small clock (they overlap often), or laid
// out roughly in transaction order (so that reads of earlier transactions
// fit real time), some left out; sometimes a clock skew.
void random_intervals(std::mt19937_64& rng, History& h) {
  const bool ordered = rng() % 2 == 0;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    if (rng() % 8 == 0) continue;
    const auto noise = static_cast<std::int64_t>(rng() % 16);
    const std::int64_t b = ordered ? 10 * static_cast<std::int64_t>(t) + noise : noise * 3;
    h.txn(t).begin = b;
    h.txn(t).commit = b + static_cast<std::int64_t>(rng() % 15);
    inner_timestamps(rng, h.txn(t));
  }
  h.set_clock_skew(static_cast<std::int64_t>(rng() % 3 == 0 ? rng() % 8 : 0));
}

}  // namespace

TEST_CASE("SI variants: one history separates each step of Crooks' chain") {
  // Adya SI, not GSI: T2 began (at 5) before T1 committed (at 10), yet reads
  // T1's write. (With only each transaction's outer interval, [0, 10] and
  // [5, 15], T2 might have begun after T1 committed: allowed.)
  History adya_not_gsi = make({{0, 0, 10, {{'w', "x", 1}}}, {1, 5, 15, {{'r', "x", 1}}}}, 2);
  // GSI, not Strong Session SI: T2 follows T1 in its session and misses its
  // write (no timestamps: real time says nothing).
  History gsi_not_session = make({{0, -1, -1, {{'w', "x", 1}}}, {0, -1, -1, {{'r', "x", 0}}}}, 1);
  // Strong Session SI, not Strong SI: T2, in another session, began at 20,
  // after T1 committed at 10, and misses its write: a stale read.
  History session_not_strong = make({{0, 0, 10, {{'w', "x", 1}}}, {1, 20, 30, {{'r', "x", 0}}}}, 2);
  const std::vector<std::pair<const History*, std::size_t>> cases = {
      {&adya_not_gsi, 3}, {&gsi_not_session, 2}, {&session_not_strong, 1}};
  for (const auto& [h, first_allowing] : cases) {
    INFO(format_history(*h));
    for (std::size_t i = 0; i < kChain.size(); ++i) {
      INFO(kChain[i]);
      const bool expect = i >= first_allowing;
      CHECK(allowed(*h, kChain[i]) == expect);
      CHECK(brute::allows(abstract_history(*h), kChain[i]) == expect);
      CHECK((generic_decision(*h, library().level(kChain[i])).verdict == Verdict::Allowed) == expect);
    }
  }
  // The violations are explained by a real-time edge and named as Elle does.
  Decision d = decide(session_not_strong, library().level("viper.StrongSI"));
  REQUIRE(d.anomaly.has_value());
  CHECK(d.anomaly->name.ends_with("-realtime"));
  bool says_when = false;
  for (const auto& w : d.anomaly->why) says_when = says_when || w.find("T1 committed at 10 before T2 began at 20") != std::string::npos;
  CHECK(says_when);
  d = decide(adya_not_gsi, library().level("viper.GSI"));
  REQUIRE(d.anomaly.has_value());
  says_when = false;
  for (const auto& w : d.anomaly->why) says_when = says_when || w.find("T2 began at 5 before T1 committed at 10") != std::string::npos;
  CHECK(says_when);
  // A clock skew of 10 or more hides the stale read.
  session_not_strong.set_clock_skew(10);
  CHECK(allowed(session_not_strong, "viper.StrongSI"));
  // Without the inner timestamps, T2 may have begun after T1 committed.
  for (TxnId t = 1; t < adya_not_gsi.num_txns(); ++t) {
    adya_not_gsi.txn(t).begin_end.reset();
    adya_not_gsi.txn(t).commit_start.reset();
  }
  CHECK(allowed(adya_not_gsi, "viper.GSI"));
  CHECK(brute::allows(abstract_history(adya_not_gsi), "viper.GSI"));
}

TEST_CASE("SI variants: graph, generic oracle and brute force agree on random histories with intervals") {
  std::mt19937_64 rng(2017);
  std::map<std::string, std::pair<int, int>> counts;  // level -> (allowed, violated)
  for (int i = 0; i < 900; ++i) {
    brute::RandomHistoryOptions opt;
    opt.unique_values = i % 3 != 0;
    opt.max_txns = 5;
    History h = brute::random_history(rng, opt);
    random_intervals(rng, h);
    INFO(format_history(h), "\nclock skew ", h.clock_skew());
    bool stronger = false;  // a stronger level of the chain allowed it
    for (const std::string& name : kChain) {
      INFO(name);
      const Level& level = library().level(name);
      Decision d = decide(h, level);
      REQUIRE(d.verdict != Verdict::Unknown);
      CHECK(d.checker == Checker::Polygraph);
      const bool got = d.verdict == Verdict::Allowed;
      CHECK(got == brute::allows(abstract_history(h), name));
      // Reachability in the chain form, with the commit copies' chains
      // linked through real-time paths (claims), which a history this small
      // would otherwise never use.
      DecideOptions chains;
      chains.chains_always = true;
      CHECK((decide(h, level, chains).verdict == Verdict::Allowed) == got);
      if (i % 4 == 0) CHECK((generic_decision(h, level).verdict == Verdict::Allowed) == got);
      if (stronger) CHECK(got);  // the chain: each level allows what a stronger one does
      stronger = got;
      (got ? counts[name].first : counts[name].second)++;
      if (got) {
        REQUIRE(d.witness.has_value());
        brute::WitnessCheck c = brute::check_witness(h, name, to_brute(h, *d.witness));
        CHECK_MESSAGE(c.ok, c.reason);
      }
    }
    // Without real time, Adya SI is adya.PL-SI.
    CHECK(allowed(h, "viper.AdyaSI") == allowed(h, "adya.PL-SI"));
  }
  for (const auto& [name, c] : counts) {
    INFO(name, ": ", c.first, " allowed, ", c.second, " violated");
    CHECK(c.first > 60);
    CHECK(c.second > 60);
  }
}

TEST_CASE("SI variants: the real-time edges reach exactly the real-time pairs") {
  // The edges are a sparse subset (real_time_edges.cpp); with each
  // transaction's begin before its commit, their paths must reach every
  // pair of each real-time order, and only those, whatever the skew and
  // whichever transactions are of unknown status (their edges exist only if
  // they committed, so they must not relay anyone else's).
  std::mt19937_64 rng(55);
  for (int i = 0; i < 300; ++i) {
    History h;
    const SessionId s = h.add_session();
    const int n = 2 + static_cast<int>(rng() % 40);
    for (int t = 1; t <= n; ++t) {
      const bool unknown = rng() % 7 == 0;
      const TxnId id = h.add_txn(s, fmt::format("T{}", t), unknown ? TxnStatus::Unknown : TxnStatus::Committed);
      if (rng() % 10 == 0) continue;
      const auto b = static_cast<std::int64_t>(rng() % 100);
      h.txn(id).begin = b;
      h.txn(id).commit = b + static_cast<std::int64_t>(rng() % 20);
      inner_timestamps(rng, h.txn(id));
    }
    h.set_clock_skew(static_cast<std::int64_t>(rng() % 2 == 0 ? 0 : rng() % 10));
    const AbstractHistory a = poly::check_abstraction(h);
    // Strict serializability's, Strong SI's and GSI's kinds.
    for (const RealTimeEdges kinds : {RealTimeEdges{true, false, false},
                                            RealTimeEdges{true, true, true},
                                            RealTimeEdges{false, true, true}}) {
      const bool cc = kinds.commit_commit;
      poly::Polygraph pg(h, a, GraphLevel::Si, kinds);
      pg.add_real_time_edges();
      for (const bool with_unknown : {false, true}) {
        // Closure over begin (2t) and commit (2t + 1) nodes.
        const std::size_t m = 2 * h.num_txns();
        std::vector<std::vector<bool>> reach(m, std::vector<bool>(m, false));
        auto present = [&](TxnId t) { return h.txn(t).status == TxnStatus::Committed || with_unknown; };
        auto arc = [&](const DepEdge& e) {
          if (!real_time(e.type) || !present(e.from) || !present(e.to)) return;
          const poly::ScheduleArc sa = poly::schedule_arc(e.type);
          reach[2 * e.from + (sa.from_commit ? 1 : 0)][2 * e.to + (sa.to_commit ? 1 : 0)] = true;
        };
        for (const auto& e : pg.known()) arc(e);
        for (const auto& c : pg.conditional()) arc(c.edge);
        for (TxnId t = 1; t < h.num_txns(); ++t) reach[2 * t][2 * t + 1] = present(t);
        for (std::size_t k = 0; k < m; ++k)
          for (std::size_t x = 0; x < m; ++x)
            if (reach[x][k])
              for (std::size_t y = 0; y < m; ++y)
                if (reach[k][y]) reach[x][y] = true;
        using Event = History::Event;
        for (TxnId x = 1; x < h.num_txns(); ++x)
          for (TxnId y = 1; y < h.num_txns(); ++y) {
            if (x == y || !present(x) || !present(y)) continue;
            INFO("T", x, " T", y, " skew ", h.clock_skew(), " unknown ", with_unknown);
            if (kinds.commit_begin)
              CHECK(reach[2 * x + 1][2 * y] == h.time_before(x, Event::Commit, y, Event::Begin));
            if (!cc) continue;
            CHECK(reach[2 * x + 1][2 * y + 1] == h.time_before(x, Event::Commit, y, Event::Commit));
            CHECK(reach[2 * x][2 * y + 1] == h.time_before(x, Event::Begin, y, Event::Commit));
          }
      }
    }
  }
}

TEST_CASE("real time fixes write orders and anti-dependencies before the search (Vbox W^t, A^t, A^w)") {
  // T1 and T2 write x, T1 committed (10) before T2 began (20): ww(T1, T2)
  // is known (W^t). T3 read x from T1, so it anti-depends on T2 (A^w); T4
  // read x's initial version before T2 began, so it anti-depends on T2 by
  // time alone (A^t).
  History h = make({{0, 0, 10, {{'w', "x", 1}}},
                    {1, 20, 30, {{'w', "x", 2}}},
                    {2, 12, 25, {{'r', "x", 1}}},
                    {3, 0, 8, {{'r', "x", 0}}}},
                   4);
  const AbstractHistory a = poly::check_abstraction(h);
  for (const GraphLevel g : {GraphLevel::Ser, GraphLevel::Si}) {
    poly::Polygraph pg(h, a, g, {true, g == GraphLevel::Si, g == GraphLevel::Si});
    pg.add_real_time_edges();
    std::size_t passes = 0;
    if (g == GraphLevel::Ser) {
      // Strict serializability: real time orders x's writers one after the
      // other, so x is a chain from the start (time_chain.cpp), without a
      // pair, and T4's read of the initial version anti-depends on T1, the
      // next writer, which precedes T2.
      CHECK(pg.pairs().empty());
      REQUIRE(pg.chain(0) != nullptr);
      CHECK(*pg.chain(0) == std::vector<TxnId>{1, 2});
      CHECK_FALSE(pg.prune(true, passes).has_value());
      CHECK(pg.known_id({1, 2, Dep::WW, 0}).has_value());
      CHECK(pg.known_id({3, 2, Dep::RW, 0}).has_value());
      CHECK(pg.known_id({4, 1, Dep::RW, 0}).has_value());
      CHECK(pg.reach().reaches_or_same(4, 2));
    } else {
      REQUIRE(pg.pairs().size() == 1);
      CHECK(pg.pairs()[0].state == 0);  // open before pruning
      CHECK_FALSE(pg.prune(true, passes).has_value());
      CHECK(pg.pairs()[0].state == 1);  // T1 -> T2 on x
      CHECK(pg.known_id({1, 2, Dep::WW, 0}).has_value());
      CHECK(pg.known_id({3, 2, Dep::RW, 0}).has_value());
      CHECK(pg.known_id({4, 2, Dep::RW, 0}).has_value());
    }
    // Without time both orders of T1 and T2 remain.
    poly::Polygraph plain(h, a, g);
    CHECK_FALSE(plain.prune(true, passes).has_value());
    CHECK(plain.pairs()[0].state == 0);
  }
}

TEST_CASE("SI variants: synthesis with time finds a separating history exactly when an enumeration does") {
  // The enumeration tries every history of the scope with every weak order
  // of its begin and commit events (tests/brute/enumerate.hpp), decided by
  // the brute force; synthesis searches the space with an event order.
  const std::vector<std::string> levels = {"biswas.SER", "biswas.StrictSER", "biswas.SI", "viper.AdyaSI",
                                           "viper.GSI", "viper.StrongSessionSI", "viper.StrongSI"};
  for (const std::string scope : {"2,1,2", "2,2,2", "3,1,2"}) {
    brute::EnumeratedSpace space;
    space.txns = scope[0] - '0';
    space.keys = scope[2] - '0';
    space.values = scope[4] - '0';
    space.real_time = true;
    std::size_t histories = 0;
    const auto separated = brute::enumerate_separations(space, levels, histories);
    CHECK(histories > 400);
    std::size_t found = 0;
    for (std::size_t a = 0; a < levels.size(); ++a)
      for (std::size_t b = 0; b < levels.size(); ++b) {
        if (a == b) continue;
        cegis::Problem p = cegis::problem({levels[a]}, {levels[b]}, scope);
        const cegis::SynthResult r = cegis::synthesize(p);
        INFO(levels[a], " but not ", levels[b], " at ", scope);
        CHECK((r.outcome == cegis::Outcome::Found) == separated[a][b]);
        if (r.outcome == cegis::Outcome::Found) {
          cegis::verify_solution(p, r);
          ++found;
          // Exact event times, each begin not after its commit, and a
          // session's transactions one after another.
          const History& h = *r.history;
          for (TxnId t = 1; t < h.num_txns(); ++t) {
            const Transaction& x = h.txn(t);
            if (!x.begin) continue;  // a history without timed levels has no times
            CHECK(x.begin_end == x.begin);
            CHECK(x.commit_start == x.commit);
            CHECK(*x.begin <= *x.commit);
          }
          for (const auto& session : h.sessions())
            for (std::size_t i = 1; i < session.size(); ++i)
              if (h.txn(session[i]).begin) CHECK(*h.txn(session[i - 1]).commit < *h.txn(session[i]).begin);
        }
      }
    MESSAGE(scope, ": ", histories, " timed histories, ", found, " separations");
    CHECK(found > 10);
  }
}
