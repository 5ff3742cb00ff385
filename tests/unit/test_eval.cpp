// --eval: expressions of the spec language evaluated on a history and a
// witness (lua/evaluator.hpp). On random histories the history relations
// (h.wr, h.so, h.wrx) and compositions of them equal what is computed here
// from the operations, independently of the logic; a witness relation
// (e.vis, e.ar, e.co) equals the witness the decision returned, itself
// checked by the brute force; formulas evaluate to their truth; malformed
// and hostile expressions end in one SpecError line.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

#include <fmt/format.h>

#include "engine/decide/decide.hpp"
#include "engine/history/abstract.hpp"
#include "engine/history/printer.hpp"
#include "lua/evaluator.hpp"
#include "tests/brute/brute.hpp"
#include "tests/brute/random_history.hpp"
#include "tests/unit/brute_witness.hpp"
#include "tests/unit/history_helpers.hpp"

using namespace iso;

namespace {

using Tuples = std::set<std::vector<std::string>>;

Tuples eval(const History& h, const std::string& text, const Level* level = nullptr, const Witness* w = nullptr) {
  const auto x = library().expression(text, level ? level->framework : nullptr);
  const lua::EvalValue v = lua::evaluate(x, h, level, w);
  REQUIRE_FALSE(v.is_formula);
  return Tuples(v.tuples.begin(), v.tuples.end());
}

// From the operations: the last write of each key by each transaction, T0
// writing every key's initial value.
TxnId final_writer(const History& h, KeyId k, ValueId v) {
  TxnId found = v == h.init_value(k) ? 0 : UINT32_MAX;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    std::optional<ValueId> last;
    for (const Op& op : h.txn(t).ops)
      if (op.kind == OpKind::Write && op.key == k) last = op.value;
    if (last == v) found = t;
  }
  return found;
}

// wrx: (writer, key, reader) for each read not after the reader's own write
// of the key; wr its projection; so: T0 first, then session order.
struct Reference {
  Tuples wrx, wr, so;
};

Reference reference(const History& h) {
  Reference r;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    std::set<KeyId> written;
    for (const Op& op : h.txn(t).ops) {
      if (op.kind == OpKind::Write) written.insert(op.key);
      if (op.kind != OpKind::Read || written.count(op.key)) continue;
      const TxnId w = final_writer(h, op.key, op.value);
      r.wrx.insert({h.txn(w).name, h.key_text(op.key), h.txn(t).name});
      r.wr.insert({h.txn(w).name, h.txn(t).name});
    }
    r.so.insert({"T0", h.txn(t).name});
    const auto& s = h.sessions()[h.txn(t).session];
    for (TxnId u : s)
      if (h.txn(u).position > h.txn(t).position) r.so.insert({h.txn(t).name, h.txn(u).name});
  }
  return r;
}

Tuples join(const Tuples& a, const Tuples& b) {
  Tuples out;
  for (const auto& x : a)
    for (const auto& y : b)
      if (x.back() == y.front()) {
        std::vector<std::string> t(x.begin(), x.end() - 1);
        t.insert(t.end(), y.begin() + 1, y.end());
        out.insert(t);
      }
  return out;
}

// Random histories every read of which some write explains, without INT
// violations: the histories levels are decided on.
std::vector<History> random_histories(int count) {
  std::mt19937_64 rng(7);
  brute::RandomHistoryOptions opt;
  opt.thin_air = 0;
  opt.int_violation = 0;
  std::vector<History> out;
  while (static_cast<int>(out.size()) < count) {
    History h = brute::random_history(rng, opt);
    const AbstractHistory a = abstract_history(h);
    if (a.int_violations.empty() && a.unjustified_reads.empty()) out.push_back(std::move(h));
  }
  return out;
}

}  // namespace

TEST_CASE("--eval: h.wr, h.so, h.wrx and compositions equal the relations computed from the operations") {
  for (const History& h : random_histories(150)) {
    INFO(format_history(h));
    const Reference r = reference(h);
    CHECK(eval(h, "h.wrx") == r.wrx);
    CHECK(eval(h, "h.wr") == r.wr);
    CHECK(eval(h, "h.so") == r.so);
    CHECK(eval(h, "h.wr .. h.so") == join(r.wr, r.so));
    CHECK(eval(h, "h.so .. h.wr") == join(r.so, r.wr));
    Tuples both;
    std::set_union(r.wr.begin(), r.wr.end(), r.so.begin(), r.so.end(), std::inserter(both, both.end()));
    CHECK(eval(h, "h.wr + h.so") == both);
    Tuples inverse;
    for (const auto& t : r.wr) inverse.insert({t[1], t[0]});
    CHECK(eval(h, "~h.wr") == inverse);
    const auto x = library().expression("some(h.wr & h.so)", nullptr);
    const lua::EvalValue v = lua::evaluate(x, h, nullptr, nullptr);
    CHECK(v.is_formula);
    Tuples common;
    std::set_intersection(r.wr.begin(), r.wr.end(), r.so.begin(), r.so.end(), std::inserter(common, common.end()));
    CHECK(v.truth == !common.empty());
  }
}

TEST_CASE("--eval: a witness relation equals the witness the decision returned, which the brute force accepts") {
  int allowed = 0;
  for (const History& h : random_histories(80)) {
    INFO(format_history(h));
    for (const char* name : {"cerone.SI", "biswas.CC", "adya.PL-2"}) {
      INFO(name);
      const Level& level = library().level(name);
      const Decision d = decide(h, level);
      if (d.verdict != Verdict::Allowed || !d.witness) continue;
      ++allowed;
      const auto check = brute::check_witness(h, name, to_brute(h, *d.witness));
      CHECK_MESSAGE(check.ok, check.reason);
      for (const WitnessRelation& rel : d.witness->relations) {
        Tuples expected;
        for (const auto& t : tuples_of(*d.witness, rel)) {
          std::vector<std::string> names;
          for (std::size_t c = 0; c < t.size(); ++c)
            names.push_back(rel.type[c] == model::kTxn ? h.txn(t[c]).name : h.key_text(t[c]));
          expected.insert(names);
        }
        CHECK(eval(h, "e." + rel.name, &level, &*d.witness) == expected);
      }
    }
  }
  CHECK(allowed > 50);
}

TEST_CASE("--eval: malformed and hostile expressions are one-line errors") {
  auto error = [](const std::string& text) -> std::string {
    try {
      (void)library().expression(text, nullptr);
    } catch (const lua::SpecError& e) {
      return e.what();
    }
    return "";
  };
  for (const char* bad : {"h.wr ..", "h.nope", "e.vis", "1 +", "'text'", "(function() while true do end end)()",
                          "string.rep('x', 1 << 30)", "(function() local t = {} for i = 1, 1e9 do t[i] = i end end)()",
                          "io.open('/etc/passwd')", "h.wr) end os.exit(1) --"}) {
    INFO(bad);
    const std::string msg = error(bad);
    CHECK_FALSE(msg.empty());
    CHECK(msg.find('\n') == std::string::npos);
    CHECK(msg.rfind("--eval", 0) == 0);
  }
  // The sandbox is usable after a hostile expression.
  CHECK(library().expression("h.wr", nullptr).expr != nullptr);
}

TEST_CASE("--eval: with repeated values, read-from is the witness's choice, and a free choice is said so") {
  History h;
  const KeyId x = h.intern_key("x");
  const ValueId one = h.intern_value(Value{std::int64_t{1}});
  const TxnId t1 = h.add_txn(h.add_session(), "T1"), t2 = h.add_txn(h.add_session(), "T2");
  const TxnId t3 = h.add_txn(h.add_session(), "T3");
  h.add_write(t1, x, one);
  h.add_write(t2, x, one);
  h.add_read(t3, x, one);
  for (const char* name : {"SER", "cerone.SI", "adya.PL-3"}) {
    INFO(name);
    const Level& level = library().level(name);
    DecideOptions opt;
    opt.force_generic = true;  // a witness in the framework's terms, read-from included
    const Decision d = decide(h, level, opt);
    REQUIRE(d.verdict == Verdict::Allowed);
    REQUIRE(d.witness);
    REQUIRE(d.witness->chosen_reads.size() == 1);
    const TxnId writer = d.witness->chosen_reads[0].writer;
    const auto wr = library().expression("h.wr", nullptr);
    const lua::EvalValue v = lua::evaluate(wr, h, &level, &*d.witness);
    CHECK_FALSE(v.read_from_chosen);
    CHECK(v.tuples == std::vector<std::vector<std::string>>{{h.txn(writer).name, "T3"}});
  }
  const lua::EvalValue free = lua::evaluate(library().expression("h.wr", nullptr), h, nullptr, nullptr);
  CHECK(free.read_from_chosen);
  CHECK(free.tuples.size() == 1);
  // A formula every choice makes true is no choice.
  const lua::EvalValue some = lua::evaluate(library().expression("some(h.wr)", nullptr), h, nullptr, nullptr);
  CHECK(some.truth);
  CHECK_FALSE(some.read_from_chosen);
}
