// synth --count: histories different up to renaming. The canonical form
// (cegis/canonical.hpp) is checked to be the same for a history and any
// renaming of it and different for histories that differ; the synthesizer
// with found histories excluded (Problem::excluded) is checked to give new
// ones, each re-checked by the brute force, and to say when none is left.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include <fmt/format.h>

#include "cegis/canonical.hpp"
#include "cegis/synthesizer.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/synth_helpers.hpp"

using namespace iso;
using namespace iso::cegis;

namespace {

// `h` with its transactions, sessions, keys and values renamed at random:
// sessions in a random order, their transactions interleaved at random (so
// TxnIds change), keys and the non-initial values of each key renamed by
// random permutations.
History renamed(const History& h, std::mt19937_64& rng) {
  History out;
  std::vector<KeyId> key_order(h.keys().size());
  for (KeyId k = 0; k < key_order.size(); ++k) key_order[k] = k;
  std::shuffle(key_order.begin(), key_order.end(), rng);
  std::vector<KeyId> new_key(h.keys().size());
  for (KeyId k : key_order) new_key[k] = out.intern_key(fmt::format("k{}", rng() % 1000 * 10 + k));
  // Per key, its non-initial values to 100 + a random rank.
  std::vector<std::vector<ValueId>> used(h.keys().size());
  auto note = [&](KeyId k, ValueId v) {
    if (v != h.init_value(k) && std::find(used[k].begin(), used[k].end(), v) == used[k].end()) used[k].push_back(v);
  };
  for (const Transaction& t : h.txns())
    for (const Op& op : t.ops) note(op.key, op.value);
  for (auto& vs : used) std::shuffle(vs.begin(), vs.end(), rng);
  auto value = [&](KeyId k, ValueId v) {
    if (v == h.init_value(k)) return out.intern_value(Value{std::int64_t{0}});
    const auto i = std::find(used[k].begin(), used[k].end(), v) - used[k].begin();
    return out.intern_value(Value{std::int64_t{100 + i}});
  };
  std::vector<std::size_t> sessions(h.sessions().size()), next(h.sessions().size(), 0);
  for (std::size_t s = 0; s < sessions.size(); ++s) sessions[s] = s;
  std::shuffle(sessions.begin(), sessions.end(), rng);
  std::vector<SessionId> new_session;
  for (std::size_t i = 0; i < sessions.size(); ++i) new_session.push_back(out.add_session());
  std::size_t left = 0;
  for (const auto& s : h.sessions()) left += s.size();
  for (; left > 0; --left) {
    std::size_t i;
    do i = rng() % sessions.size();
    while (next[sessions[i]] == h.sessions()[sessions[i]].size());
    const TxnId old = h.sessions()[sessions[i]][next[sessions[i]]++];
    const TxnId t = out.add_txn(new_session[i], fmt::format("N{}", old * 7 + 3), h.txn(old).status);
    for (const Op& op : h.txn(old).ops)
      if (op.kind == OpKind::Read) out.add_read(t, new_key[op.key], value(op.key, op.value));
      else out.add_write(t, new_key[op.key], value(op.key, op.value));
  }
  return out;
}

// The classes up to renaming of the histories of 2 transactions, `keys`
// keys and `values` values (the initial one included), in the transaction
// form (each transaction reads a key first or not, and writes it or not;
// each value but the initial one written at most once per key), allowed by
// p's allow levels and violating its deny levels by the brute force,
// enumerated here, apart from the synthesizer's space.
std::size_t brute_classes(const Problem& p, int keys, int values) {
  // A transaction's choice per key: read (-1: none) and write (0: none).
  const int per_key = (values + 1) * values;
  int per_txn = 1;
  for (int k = 0; k < keys; ++k) per_txn *= per_key;
  std::vector<CanonicalForm> forms;
  for (int c1 = 0; c1 < per_txn; ++c1)
    for (int c2 = 0; c2 < per_txn; ++c2)
      for (bool one_session : {false, true}) {
        History h;
        auto v = [&](int i) { return h.intern_value(Value{std::int64_t{i}}); };
        const SessionId s1 = h.add_session(), s2 = one_session ? s1 : h.add_session();
        const TxnId t1 = h.add_txn(s1, "T1"), t2 = h.add_txn(s2, "T2");
        bool unique = true;
        for (int k = 0, d1 = c1, d2 = c2; k < keys; ++k, d1 /= per_key, d2 /= per_key) {
          const KeyId x = h.intern_key(fmt::format("k{}", k));
          const int r1 = d1 % per_key / values - 1, w1 = d1 % per_key % values;
          const int r2 = d2 % per_key / values - 1, w2 = d2 % per_key % values;
          unique = unique && !(w1 > 0 && w1 == w2);
          if (r1 >= 0) h.add_read(t1, x, v(r1));
          if (w1 > 0) h.add_write(t1, x, v(w1));
          if (r2 >= 0) h.add_read(t2, x, v(r2));
          if (w2 > 0) h.add_write(t2, x, v(w2));
        }
        if (!unique) continue;
        const AbstractHistory ah = abstract_history(h);
        bool solution = true;
        for (const auto* a : p.allow) solution = solution && brute::allows(ah, a->name);
        for (const auto* d : p.deny) solution = solution && !brute::allows(ah, d->name);
        if (!solution) continue;
        const CanonicalForm f = canonical_form(h, false);
        if (std::find(forms.begin(), forms.end(), f) == forms.end()) forms.push_back(f);
      }
  return forms.size();
}

}  // namespace

TEST_CASE("canonical form: the same for every renaming, different for different histories") {
  std::mt19937_64 rng(30);
  brute::RandomHistoryOptions opt;
  opt.max_txns = 4;
  int differing = 0;
  for (int i = 0; i < 200; ++i) {
    const History h = brute::random_history(rng, opt);
    INFO(format_history(h));
    const CanonicalForm form = canonical_form(h, true);
    for (int j = 0; j < 3; ++j) {
      const History r = renamed(h, rng);
      INFO(format_history(r));
      CHECK(canonical_form(r, true) == form);
    }
    // A different history: one read returns another value (the key's
    // initial value, or a value nobody wrote): the number of reads of an
    // initial value, which renaming keeps, changes.
    History other = h;
    bool changed = false;
    for (TxnId t = 1; t < other.num_txns() && !changed; ++t)
      for (Op& op : other.txn(t).ops)
        if (op.kind == OpKind::Read) {
          op.value = op.value == other.init_value(op.key) ? other.intern_value(Value{std::int64_t{987654}})
                                                          : other.init_value(op.key);
          changed = true;
          break;
        }
    if (!changed) continue;
    ++differing;
    CHECK(canonical_form(other, true) != form);
  }
  CHECK(differing > 100);
}

TEST_CASE("synth --count 3 --allow SI --deny SER --scope 4,3,3: three histories, different up to renaming") {
  Problem p = problem({"SI"}, {"SER"}, "4,3,3");
  std::vector<CanonicalForm> forms;
  for (int i = 0; i < 3; ++i) {
    SynthResult r = synthesize(p);
    REQUIRE(r.outcome == Outcome::Found);
    r = minimize(p, std::move(r));
    verify_solution(p, r);  // allowed by SI and violating SER, by the oracle and the brute force
    INFO(format_history(*r.history));
    const CanonicalForm f = canonical_form(*r.history, false);
    CHECK(std::find(forms.begin(), forms.end(), f) == forms.end());
    CHECK_FALSE(is_excluded(*r.history, p));
    forms.push_back(f);
    p.excluded.push_back(*r.history);
  }
}

TEST_CASE("synth --count: every history of the scope up to renaming, as many as the brute force enumerates") {
  // Search until none is left: each history new and a solution, and the
  // number of them that of the classes the brute force finds.
  struct Case {
    const char* allow;
    const char* deny;
    const char* scope;
    int keys, values;
  };
  for (const Case& c : {Case{"CC", "SER", "2,2,2", 2, 2}, Case{"SI", "SER", "2,2,2", 2, 2},
                        Case{"CC", "SER", "2,1,3", 1, 3}, Case{"cerone.UA", "SER", "2,2,2", 2, 2},
                        Case{"RA", "SI", "2,2,3", 2, 3}}) {
    INFO(c.allow, " ", c.deny, " ", c.scope);
    Problem p = problem({c.allow}, {c.deny}, c.scope);
    std::vector<CanonicalForm> forms;
    for (int i = 0; i < 200; ++i) {
      SynthResult r = synthesize(p);
      if (r.outcome == Outcome::None) break;
      REQUIRE(r.outcome == Outcome::Found);
      verify_solution(p, r);
      const CanonicalForm f = canonical_form(*r.history, false);
      CHECK(std::find(forms.begin(), forms.end(), f) == forms.end());
      forms.push_back(f);
      p.excluded.push_back(*r.history);
    }
    CHECK(forms.size() == brute_classes(p, c.keys, c.values));
  }
}
