// The front end's stages (engine/history/front_end.hpp) checked one by one
// on a few thousand random histories: each stage's output, as
// abstract_history() stores it, against a naive recomputation from the
// History alone (every pair of transactions compared, every writer
// scanned, no index, no incremental state):
//  - members: T0 forced in, the member list ordered by (session, position);
//  - initial state: T0's writes, key by key;
//  - read events: the reads not preceded by an own write (predicate reads
//    expanded key by key over every key the predicate covers), final
//    writes, INT violations;
//  - candidate writers: every member scanned for a final write of the
//    read's (key, value), or for a version an invisible read's predicate
//    rejects;
//  - unjustified reads: each read without a candidate explained by
//    scanning every transaction's writes, and set aside as the options say;
//  - known orders: every two list reads of a key compared for a prefix,
//    and the chain read off the longest list's appenders;
//  - guarded writes: the candidates whose version satisfies the predicate;
//  - session order: before() on every pair against sessions and positions,
//    next() and after() against it, session() against each recorded
//    session's members.
// The checks can fail: the last test case corrupts each stage's output in
// one place and requires the corresponding check to report it: session
// order off by one (next() skipping a member; before() comparing ranks
// with <= instead of <, so that every member precedes itself, which the
// pairwise check sees on the first history against the naive "a != b"), a
// dropped read event, a missing candidate, members out of order, a
// reported read moved aside, T0's write of a key lost.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "engine/history/abstract.hpp"
#include "engine/history/predicate.hpp"
#include "engine/history/printer.hpp"
#include "tests/brute/random_history.hpp"

using namespace iso;

namespace {

// ---- naive facts about the History --------------------------------------

// The last item write of k in t before operation `before`: (op, value).
std::optional<std::pair<std::uint32_t, ValueId>> last_write(const History& h, TxnId t, KeyId k,
                                                            std::uint32_t before = UINT32_MAX) {
  std::optional<std::pair<std::uint32_t, ValueId>> out;
  const auto& ops = h.txn(t).ops;
  for (std::uint32_t i = 0; i < ops.size() && i < before; ++i)
    if (ops[i].kind == OpKind::Write && ops[i].key == k) out = std::pair{i, ops[i].value};
  return out;
}

// w's version of k as a member's final write (no predicate writes): T0's
// initial or unborn one, or the last item write.
std::optional<ValueId> final_value(const History& h, const AbstractOptions& o, TxnId w, KeyId k) {
  if (w == kInitTxn) {
    if (h.t0_writes(k)) return h.init_value(k);
    if (o.predicate_reads && !h.predicate_reads().empty()) return kUnborn;
    return std::nullopt;
  }
  if (auto lw = last_write(h, w, k)) return lw->second;
  return std::nullopt;
}

Predicate predicate(const History& h, const Op& op) {
  return *parse_predicate(h.predicate_reads()[op.predicate].predicate);
}

using Event = std::tuple<KeyId, ValueId, std::uint32_t>;  // key, value, op

// The read events of t, in (key, op) order, set-aside reads included.
std::vector<Event> naive_read_events(const History& h, const AbstractOptions& o, TxnId t) {
  std::vector<Event> out;
  const auto& ops = h.txn(t).ops;
  for (std::uint32_t i = 0; i < ops.size(); ++i) {
    const Op& op = ops[i];
    if (op.kind == OpKind::Read && !last_write(h, t, op.key, i)) out.emplace_back(op.key, op.value, i);
    if (op.kind != OpKind::PredicateRead || !o.predicate_reads) continue;
    const Predicate p = predicate(h, op);
    const auto& result = h.predicate_reads()[op.predicate].result;
    for (KeyId k = 0; k < h.keys().size(); ++k) {
      if (!p.covers(h.keys()[k]) || last_write(h, t, k, i)) continue;
      ValueId v = kInvisible;
      for (const auto& [rk, rv] : result)
        if (rk == k) v = rv;
      out.emplace_back(k, v, i);
    }
  }
  std::sort(out.begin(), out.end(), [](const Event& a, const Event& b) {
    return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) < std::get<0>(b) : std::get<2>(a) < std::get<2>(b);
  });
  return out;
}

// The candidates of t's read event e: every other member whose version of
// the key is the value read, or one the predicate rejects.
std::vector<TxnId> naive_candidates(const History& h, const AbstractHistory& a, const AbstractOptions& o,
                                    TxnId t, const ExternalRead& e) {
  std::vector<TxnId> out;
  for (TxnId w = 0; w < h.num_txns(); ++w) {
    if (w == t || !a.member[w]) continue;
    const auto v = final_value(h, o, w, e.key);
    if (!v) continue;
    if (e.value != kInvisible) {
      if (*v == e.value) out.push_back(w);
      continue;
    }
    const Predicate p = predicate(h, h.txn(t).ops[e.op]);
    if (*v == kUnborn || !p.holds(h.keys()[e.key], h.values()[*v])) out.push_back(w);
  }
  return out;
}

// Why t's read of (k, v) at `op` has no candidate: (kind, writer).
std::pair<ReadAnomaly, TxnId> naive_explanation(const History& h, const AbstractHistory& a, TxnId t,
                                                KeyId k, ValueId v, std::uint32_t op) {
  for (TxnId w = 1; w < h.num_txns(); ++w) {
    if (w == t || a.member[w]) continue;
    const auto lw = last_write(h, w, k);
    if (!lw || lw->second != v) continue;
    const TxnStatus s = h.txn(w).status;
    return {s == TxnStatus::Aborted   ? ReadAnomaly::Aborted
            : s == TxnStatus::Unknown ? ReadAnomaly::UnknownStatus
                                      : ReadAnomaly::NotMember,
            w};
  }
  for (TxnId w = 1; w < h.num_txns(); ++w) {
    if (w == t) continue;
    const auto& ops = h.txn(w).ops;
    const auto lw = last_write(h, w, k);
    for (std::uint32_t i = 0; i < ops.size(); ++i)
      if (ops[i].kind == OpKind::Write && ops[i].key == k && ops[i].value == v && lw->first != i)
        return {ReadAnomaly::Intermediate, w};
  }
  const auto& ops = h.txn(t).ops;
  for (std::uint32_t i = op + 1; i < ops.size(); ++i)
    if (ops[i].kind == OpKind::Write && ops[i].key == k && ops[i].value == v) return {ReadAnomaly::FutureRead, t};
  return {ReadAnomaly::ThinAir, kNoTxn};
}

// ---- one check per stage: "" when it agrees, else what differs ------------

std::string check_members(const History& h, const std::vector<bool>& given, const AbstractHistory& a) {
  std::vector<TxnId> expect;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    if (a.member[t] != (t < given.size() && given[t])) return fmt::format("member[{}]", t);
    if (a.member[t]) expect.push_back(t);
  }
  if (!a.member[kInitTxn]) return "T0 not a member";
  std::sort(expect.begin(), expect.end(), [&](TxnId x, TxnId y) {
    return std::pair{h.txn(x).session, h.txn(x).position} < std::pair{h.txn(y).session, h.txn(y).position};
  });
  expect.insert(expect.begin(), kInitTxn);
  return a.txns == expect ? "" : "member list";
}

std::string check_initial_state(const History& h, const AbstractOptions& o, const AbstractHistory& a) {
  std::vector<std::pair<KeyId, ValueId>> expect, got;
  for (KeyId k = 0; k < h.keys().size(); ++k)
    if (auto v = final_value(h, o, kInitTxn, k)) expect.emplace_back(k, *v);
  for (const FinalWrite& w : a.abs[kInitTxn].writes) got.emplace_back(w.key, w.value);
  return got == expect ? "" : "T0's writes";
}

bool set_aside(const AbstractHistory& a, TxnId t, std::uint32_t op) {
  return std::any_of(a.set_aside.begin(), a.set_aside.end(),
                     [&](const UnjustifiedRead& u) { return u.txn == t && u.op == op; });
}

// Read events, final writes and INT (histories without predicate writes).
std::string check_read_events(const History& h, const AbstractOptions& o, const AbstractHistory& a) {
  std::multiset<std::tuple<TxnId, std::uint32_t, IntViolation::Pattern>> int_expect, int_got;
  for (TxnId t : a.txns) {
    if (t == kInitTxn) continue;
    std::vector<Event> expect, got;
    for (const Event& e : naive_read_events(h, o, t))
      if (!set_aside(a, t, std::get<2>(e))) expect.push_back(e);
    for (const ExternalRead& r : a.abs[t].reads) got.emplace_back(r.key, r.value, r.op);
    if (got != expect) return fmt::format("read events of {}", h.txn_name(t));
    std::vector<std::tuple<KeyId, ValueId, std::uint32_t>> wexpect, wgot;
    for (KeyId k = 0; k < h.keys().size(); ++k)
      if (auto lw = last_write(h, t, k)) wexpect.emplace_back(k, lw->second, lw->first);
    for (const FinalWrite& w : a.abs[t].writes) wgot.emplace_back(w.key, w.value, w.op);
    if (wgot != wexpect) return fmt::format("final writes of {}", h.txn_name(t));
    const auto& ops = h.txn(t).ops;
    for (std::uint32_t i = 0; i < ops.size(); ++i) {
      const auto own = ops[i].kind == OpKind::Read && ops[i].list == kNoList ? last_write(h, t, ops[i].key, i)
                                                                             : std::nullopt;
      if (!own || own->second == ops[i].value) continue;
      const bool overwritten = std::any_of(ops.begin(), ops.begin() + own->first, [&](const Op& w) {
        return w.kind == OpKind::Write && w.key == ops[i].key && w.value == ops[i].value;
      });
      int_expect.emplace(t, i, overwritten ? IntViolation::Pattern::NotMyLastWrite : IntViolation::Pattern::NotMyOwnWrite);
    }
  }
  for (const IntViolation& v : a.int_violations)
    if (v.kind == IntViolation::Kind::OwnWrite && h.txn(v.txn).ops[v.op].kind == OpKind::Read)
      int_got.emplace(v.txn, v.op, v.pattern);
  return int_got == int_expect ? "" : "INT violations";
}

std::string check_candidates(const History& h, const AbstractOptions& o, const AbstractHistory& a) {
  for (TxnId t : a.txns)
    for (std::size_t i = 0; i < a.abs[t].reads.size(); ++i) {
      const auto c = a.candidates[t][i];
      if (std::vector<TxnId>(c.begin(), c.end()) != naive_candidates(h, a, o, t, a.abs[t].reads[i]))
        return fmt::format("candidates of {}'s read at op {}", h.txn_name(t), a.abs[t].reads[i].op);
    }
  return "";
}

// Every read event without a candidate (set-aside ones included), not
// reported by INT or as a predicate mismatch before, explained as the
// naive scan explains it, and set aside exactly as the options say.
std::string check_unjustified(const History& h, const AbstractOptions& o, const AbstractHistory& a) {
  std::set<std::pair<TxnId, std::uint32_t>> earlier;
  for (const IntViolation& v : a.int_violations) earlier.emplace(v.txn, v.op);
  for (const UnjustifiedRead& u : a.unjustified_reads)
    if (u.kind == ReadAnomaly::PredicateMismatch) earlier.emplace(u.txn, u.op);
  using Row = std::tuple<TxnId, std::uint32_t, ReadAnomaly, TxnId, bool>;
  std::multiset<Row> expect, got;
  for (TxnId t : a.txns)
    for (const auto& [k, v, op] : naive_read_events(h, o, t)) {
      if (v == kInvisible || earlier.count({t, op})) continue;
      if (!naive_candidates(h, a, o, t, ExternalRead{k, v, op}).empty()) continue;
      const auto [kind, writer] = naive_explanation(h, a, t, k, v, op);
      const bool aborted = kind == ReadAnomaly::Aborted || kind == ReadAnomaly::UnknownStatus;
      const bool aside = (aborted && o.set_aside_aborted_reads) ||
                         (kind == ReadAnomaly::Intermediate && o.set_aside_intermediate_reads);
      expect.emplace(t, op, kind, writer, aside);
    }
  for (const UnjustifiedRead& u : a.unjustified_reads)
    if (u.kind != ReadAnomaly::PredicateMismatch) got.emplace(u.txn, u.op, u.kind, u.writer, false);
  for (const UnjustifiedRead& u : a.set_aside) got.emplace(u.txn, u.op, u.kind, u.writer, true);
  return got == expect ? "" : "unjustified reads";
}

// How many keys' chains check_known_orders() compared (not skipped for a
// reported read or an ambiguous element): the list test requires many.
int known_orders_compared = 0;

// List histories, every member counting as committed and no dirty element
// left out (the lists as read): where the list reads
// of a key are all prefixes of one another and none is reported, the known
// order is the longest list's appenders in order; where two are not, one of
// the key's reads is reported.
std::string check_known_orders(const History& h, const AbstractHistory& a) {
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    std::vector<const std::vector<ValueId>*> lists;
    for (TxnId t : a.txns)
      for (const Op& op : h.txn(t).ops)
        if (op.list != kNoList && op.key == k) lists.push_back(&h.lists()[op.list]);
    bool comparable = true;
    for (const auto* x : lists)
      for (const auto* y : lists) {
        const auto n = std::min(x->size(), y->size());
        comparable = comparable && std::equal(x->begin(), x->begin() + static_cast<std::ptrdiff_t>(n), y->begin());
      }
    bool reported = false;
    for (const UnjustifiedRead& u : a.unjustified_reads) reported = reported || h.txn(u.txn).ops[u.op].key == k;
    for (const IntViolation& v : a.int_violations) reported = reported || h.txn(v.txn).ops[v.op].key == k;
    if (!comparable && !reported) return fmt::format("{}: incomparable lists not reported", h.key_text(k));
    if (!comparable || reported || lists.empty()) continue;
    const auto* longest = *std::max_element(lists.begin(), lists.end(), [](auto* x, auto* y) { return x->size() < y->size(); });
    std::vector<TxnId> chain;
    bool ambiguous = false;  // an element several appended: the order around it is not used
    for (ValueId v : *longest) {
      std::set<TxnId> by;
      for (TxnId w = 1; w < h.num_txns(); ++w)
        for (const Op& op : h.txn(w).ops)
          if (op.kind == OpKind::Write && op.key == k && op.value == v) by.insert(w);
      ambiguous = ambiguous || by.size() != 1;
      if (by.size() == 1 && (chain.empty() || chain.back() != *by.begin())) chain.push_back(*by.begin());
    }
    if (ambiguous) continue;
    ++known_orders_compared;
    const auto ko = std::find_if(a.known_orders.begin(), a.known_orders.end(),
                                 [&](const KnownOrder& o) { return o.key == k && o.condition == kNoTxn; });
    if (chain.empty() ? ko != a.known_orders.end() : ko == a.known_orders.end() || ko->chain != chain)
      return fmt::format("known order of {}", h.key_text(k));
  }
  return "";
}

// Each guarded write: its read event, and the candidates whose version of
// the key satisfies the predicate.
std::string check_guarded(const History& h, const AbstractHistory& a) {
  for (const GuardedWrite& gw : a.guarded) {
    const ExternalRead& r = a.abs[gw.txn].reads[gw.read];
    if (r.key != gw.key || r.op != gw.op || r.value != kInvisible) return "guarded write's read event";
    const Predicate p = predicate(h, h.txn(gw.txn).ops[gw.op]);
    std::vector<TxnId> expect;
    for (TxnId w : a.candidates[gw.txn][gw.read])
      for (const FinalWrite& fw : a.abs[w].writes)
        if (fw.key == gw.key && fw.value != kUnborn && p.holds(h.keys()[gw.key], h.values()[fw.value]))
          expect.push_back(w);
    if (gw.satisfying != expect) return "guarded write's satisfying candidates";
  }
  return "";
}

// Any object with SessionOrder's before(), next(), after() and session().
template <class Order>
std::string check_session_order(const History& h, const std::vector<bool>& member, const Order& so) {
  auto naive_before = [&](TxnId x, TxnId y) {
    if (!member[x] || !member[y] || x == y || y == kInitTxn) return false;
    return x == kInitTxn || (h.txn(x).session == h.txn(y).session && h.txn(x).position < h.txn(y).position);
  };
  for (TxnId x = 0; x < h.num_txns(); ++x) {
    std::set<TxnId> after;
    TxnId next = kNoTxn;
    for (TxnId y = 0; y < h.num_txns(); ++y) {
      if (so.before(x, y) != naive_before(x, y)) return fmt::format("before({}, {})", x, y);
      if (!naive_before(x, y)) continue;
      after.insert(y);
      if (x != kInitTxn && (next == kNoTxn || h.txn(y).position < h.txn(next).position)) next = y;
    }
    if (so.next(x) != next) return fmt::format("next({})", x);
    const auto got = so.after(x);
    if (std::set<TxnId>(got.begin(), got.end()) != after || got.size() != after.size())
      return fmt::format("after({})", x);
  }
  // Each session's members, in session order.
  if (so.num_sessions() != h.sessions().size()) return "num_sessions()";
  for (SessionId sid = 0; sid < h.sessions().size(); ++sid) {
    std::vector<TxnId> expect;
    for (TxnId t : h.sessions()[sid])
      if (member[t]) expect.push_back(t);
    const auto got = so.session(sid);
    if (!std::equal(got.begin(), got.end(), expect.begin(), expect.end())) return fmt::format("session({})", sid);
  }
  return "";
}

// Every check that applies to h.
std::string check_stages(const History& h, const std::vector<bool>& given, const AbstractOptions& o,
                         const AbstractHistory& a) {
  const bool lists = h.has_list_reads(), pw = h.has_predicate_writes();
  for (const std::string& e : {check_members(h, given, a), check_initial_state(h, o, a),
                               pw ? check_guarded(h, a) : check_read_events(h, o, a),
                               pw ? "" : check_candidates(h, o, a),
                               lists || pw ? "" : check_unjustified(h, o, a),
                               lists && !o.unknown_members_maybe && !o.set_aside_aborted_reads
                                   ? check_known_orders(h, a)
                                   : "",
                               check_session_order(h, a.member, a.so)})
    if (!e.empty()) return e;
  return "";
}

// The memberships and options the checkers use: the committed members
// (the generic oracle), with the dirty reads a level may permit set aside,
// and every member not aborted with unknown ones maybe (the graphs').
struct Setup {
  std::vector<bool> member;
  AbstractOptions options;
};
std::vector<Setup> setups(const History& h, bool predicates) {
  std::vector<Setup> out(3);
  out[0].member = out[1].member = committed_members(h);
  out[1].options.set_aside_aborted_reads = out[1].options.set_aside_intermediate_reads = true;
  out[2].member.assign(h.num_txns(), false);
  for (TxnId t = 0; t < h.num_txns(); ++t) out[2].member[t] = h.txn(t).status != TxnStatus::Aborted;
  out[2].options.unknown_members_maybe = true;
  for (Setup& s : out) s.options.predicate_reads = predicates;
  return out;
}

void check_all(const History& h, bool predicates) {
  for (const Setup& s : setups(h, predicates)) {
    const AbstractHistory a = abstract_history(h, s.member, s.options);
    INFO(format_history(h));
    CHECK(check_stages(h, s.member, s.options, a) == "");
  }
}

// Register histories with every kind of read the stages tell apart.
brute::RandomHistoryOptions register_options(int i) {
  brute::RandomHistoryOptions opt;
  opt.max_txns = 6;
  opt.unique_values = i % 2 == 0;                    // repeated values: several candidates
  opt.reread = 0.4, opt.read_own_write = 0.3;        // re-reads, reads after own writes
  opt.int_violation = 0.1, opt.thin_air = 0.05;      // INT, thin air
  opt.aborted = opt.unknown = 0.15, opt.dirty = 0.1;  // G1a, G1b, non-members
  return opt;
}

}  // namespace

TEST_CASE("front end: each stage agrees with a naive recomputation on random register histories") {
  std::mt19937_64 rng(2929);
  for (int i = 0; i < 1500; ++i) check_all(brute::random_history(rng, register_options(i)), false);
}

TEST_CASE("front end: each stage agrees with a naive recomputation with predicate reads and writes") {
  std::mt19937_64 rng(2930);
  for (int i = 0; i < 600; ++i) {
    History h = brute::random_history(rng, register_options(i));
    brute::add_predicate_reads(rng, h);
    check_all(h, true);
  }
  for (int i = 0; i < 300; ++i) {
    History h = brute::random_history(rng, register_options(i));
    brute::add_predicate_writes(rng, h, 2);
    check_all(h, true);
  }
}

TEST_CASE("front end: each stage agrees with a naive recomputation on random list histories") {
  std::mt19937_64 rng(2931);
  brute::RandomListOptions opt;
  opt.explicit_init = 0.2;
  known_orders_compared = 0;
  for (int i = 0; i < 1000; ++i) check_all(brute::random_list_history(rng, opt), false);
  CHECK(known_orders_compared > 500);
}

namespace {

// SessionOrder with its successor off by one: the one after the next.
struct SkipOne {
  const SessionOrder& so;
  bool before(TxnId a, TxnId b) const { return so.before(a, b); }
  TxnId next(TxnId t) const { return so.next(t) == kNoTxn ? kNoTxn : so.next(so.next(t)); }
  std::span<const TxnId> after(TxnId t) const { return so.after(t); }
  std::span<const TxnId> session(SessionId s) const { return so.session(s); }
  std::size_t num_sessions() const { return so.num_sessions(); }
};
// ... and with before() off by one (rank <= rank: every member before
// itself).
struct Reflexive {
  const SessionOrder& so;
  bool before(TxnId a, TxnId b) const { return so.before(a, b) || (a == b && so.member(a)); }
  TxnId next(TxnId t) const { return so.next(t); }
  std::span<const TxnId> after(TxnId t) const { return so.after(t); }
  std::span<const TxnId> session(SessionId s) const { return so.session(s); }
  std::size_t num_sessions() const { return so.num_sessions(); }
};
// ... and with each session's last member left out of session().
struct ShortSessions {
  const SessionOrder& so;
  bool before(TxnId a, TxnId b) const { return so.before(a, b); }
  TxnId next(TxnId t) const { return so.next(t); }
  std::span<const TxnId> after(TxnId t) const { return so.after(t); }
  std::span<const TxnId> session(SessionId s) const {
    return so.session(s).empty() ? so.session(s) : so.session(s).first(so.session(s).size() - 1);
  }
  std::size_t num_sessions() const { return so.num_sessions(); }
};

// The candidate table of `a` without the first candidate of t's read i.
CandidateTable without_candidate(const AbstractHistory& a, TxnId t, std::size_t i) {
  CandidateTable out;
  out.reset(a.member.size());
  for (TxnId u : a.txns) {
    out.begin_row(u);
    for (std::size_t j = 0; j < a.candidates[u].size(); ++j) {
      const auto c = a.candidates[u][j];
      for (std::size_t q = u == t && j == i ? 1 : 0; q < c.size(); ++q) out.add(c[q]);
      out.end_read();
    }
  }
  return out;
}

// Each corruption of one stage's output that applies to `a` (some need a
// read, a candidate, three members of a session), with the check that
// must report it; returns how many applied.
int corrupt_each_stage(const History& h, const Setup& s, const AbstractHistory& a) {
  int applied = 0;
  auto caught = [&](const std::string& report) {
    ++applied;
    CHECK(report != "");
  };
  caught(check_session_order(h, a.member, Reflexive{a.so}));
  for (TxnId t : a.txns)
    if (t != kInitTxn) {
      caught(check_session_order(h, a.member, ShortSessions{a.so}));
      break;
    }
  for (TxnId t : a.txns)
    if (t != kInitTxn && a.so.next(t) != kNoTxn && a.so.next(a.so.next(t)) != kNoTxn) {
      caught(check_session_order(h, a.member, SkipOne{a.so}));
      break;
    }
  for (TxnId t : a.txns)
    if (!a.abs[t].reads.empty()) {
      AbstractHistory b = a;
      b.abs[t].reads.pop_back();  // a read event lost
      caught(check_read_events(h, s.options, b));
      break;
    }
  bool dropped = false;  // one candidate per history
  for (TxnId t : a.txns)
    for (std::size_t i = 0; i < a.candidates[t].size() && !dropped; ++i)
      if (!a.candidates[t][i].empty()) {
        AbstractHistory b = a;
        b.candidates = without_candidate(a, t, i);
        caught(check_candidates(h, s.options, b));
        dropped = true;
      }
  if (a.txns.size() > 2) {
    AbstractHistory b = a;
    std::swap(b.txns[1], b.txns[2]);  // members out of order
    caught(check_members(h, s.member, b));
  }
  if (!a.unjustified_reads.empty() && a.unjustified_reads.back().kind != ReadAnomaly::PredicateMismatch) {
    AbstractHistory b = a;  // a reported read set aside instead
    b.set_aside.push_back(b.unjustified_reads.back());
    b.unjustified_reads.pop_back();
    caught(check_unjustified(h, s.options, b));
  }
  if (!a.abs[kInitTxn].writes.empty()) {
    AbstractHistory b = a;
    b.abs[kInitTxn].writes.pop_back();  // T0's write of a key lost
    caught(check_initial_state(h, s.options, b));
  }
  return applied;
}

}  // namespace

TEST_CASE("front end: the stage checks catch a deliberately wrong stage") {
  std::mt19937_64 rng(2932);
  int applied = 0;
  for (int i = 0; i < 200; ++i) {
    const History h = brute::random_history(rng, register_options(i));
    for (const Setup& s : setups(h, false)) {
      const AbstractHistory a = abstract_history(h, s.member, s.options);
      REQUIRE(check_stages(h, s.member, s.options, a) == "");
      applied += corrupt_each_stage(h, s, a);
    }
  }
  CHECK(applied > 2000);  // most corruptions apply to most histories
}
