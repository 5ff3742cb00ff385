// The SAT encoding of a pruned hyper-polygraph (encoder.hpp): its variables
// and clauses, the 2-width cycle clauses, and the edges a model of the
// solver gives the graph (model_edges()).
#include "engine/polygraph/encoder.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "engine/sat/cardinality.hpp"
#include "engine/util/budget.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly {

using sat::Lit;

std::size_t CondEdgeHash::operator()(const CondEdge& e) const {
  std::uint64_t x = (static_cast<std::uint64_t>(e.edge.from) << 32) ^ e.edge.to;
  x = x * 0x9e3779b97f4a7c15ull ^
      (static_cast<std::uint64_t>(e.edge.key) << 2 | static_cast<std::uint64_t>(e.edge.type));
  for (std::uint8_t i = 0; i < e.n; ++i) x = x * 0x9e3779b97f4a7c15ull ^ e.lits[i].x;
  return static_cast<std::size_t>(x ^ (x >> 29));
}

namespace {

// A tournament that is not transitive has a 3-cycle i -> m -> j -> i. With
// the vertices sorted by wins, take a back edge j -> i where wins(i) >=
// wins(j): if no m beaten by i beat j, j would beat i and all that i beats,
// more than i. `idx` sorts `ws` by wins, most first.
template <class Precedes>
std::array<TxnId, 3> three_cycle(const std::vector<TxnId>& ws,
                                 const std::vector<std::uint32_t>& idx, Precedes precedes) {
  for (std::size_t r = 0; r < idx.size(); ++r)
    for (std::size_t s = r + 1; s < idx.size(); ++s) {
      TxnId i = ws[idx[r]], j = ws[idx[s]];
      if (!precedes(j, i)) continue;
      for (TxnId m : ws)
        if (m != i && m != j && precedes(i, m) && precedes(m, j)) return {i, m, j};
    }
  return {};  // unreachable for a non-transitive tournament
}

}  // namespace

Encoder::Encoder(Polygraph& pg, CheckStats& stats)
    : pg_(pg), stats_(stats), commit_var_(pg.history().num_txns(), kNoVar) {}

void Encoder::encode(const std::vector<TxnId>& forced_aborts, bool two_width) {
  commit_variables(forced_aborts);
  pair_variables();
  settle_keys();
  choice_variables();
  guard_clauses();
  latest_version_clauses();
  not_both_clauses();
  if (two_width) two_width_clauses();
  solver_.set_default_polarity(true);
  stats_.vars = solver_.num_vars();
  stats_.clauses = solver_.stats().clauses;
}

// A commit variable per unknown-status transaction and a truth variable per
// guarded write; the commits the history forces or implies.
void Encoder::commit_variables(const std::vector<TxnId>& forced_aborts) {
  const History& h = pg_.history();
  for (TxnId t = 1; t < h.num_txns(); ++t)
    if (pg_.unknown(t)) commit_var_[t] = solver_.new_var();
  for (TxnId t : forced_aborts) {
    solver_.add_clause({Lit::neg(commit_var_[t])});
  }
  for (TxnId t : pg_.forced_commits()) {
    solver_.add_clause({Lit::pos(commit_var_[t])});
  }
  const AbstractHistory& a = pg_.abstract();
  guard_var_.assign(a.guarded.size(), kNoVar);
  for (auto& v : guard_var_) v = solver_.new_var();
  for (auto [r, w] : pg_.commit_implications()) {
    solver_.add_clause({Lit::neg(commit_var_[r]), Lit::pos(commit_var_[w])});
  }
}

// A variable per open ww pair, its `true` oriented by the topological
// positions of the known graph.
void Encoder::pair_variables() {
  const TheoryGraph& th = pg_.theory();
  std::vector<std::uint32_t> pos(th.num_nodes(), 0);
  for (std::uint32_t i = 0; i < pg_.order().size(); ++i) pos[pg_.order()[i]] = i;
  auto node = [&](TxnId t) { return th.level() == GraphLevel::Ser ? t : 2 * t; };

  auto& pairs = pg_.pairs();
  open_ = RankBits(pairs.size());
  open_first_.clear();
  first_pair_var_ = solver_.num_vars();
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    budget::poll();
    if (pairs[p].state != 0) continue;
    // The open pairs' variables are consecutive, in pair order (pair_var()).
    if (solver_.new_var() != first_pair_var_ + open_.size())
      throw std::logic_error("encoder: pair variables out of order");
    open_.push_back(p);
    bool a_first = pos[node(pairs[p].a)] <= pos[node(pairs[p].b)];
    open_first_.push_back(a_first ? pairs[p].a : pairs[p].b);
    ++stats_.ww_open;
  }
}

// The version order of each key whose pairs pruning decided, all of whose
// writers are certain: their wins over the others rank them (a known
// order is transitive, or pruning would have found the known graph cyclic;
// a key that is not stays unsettled and is ranked per model). For every
// other key, its open pairs by writer index, and (all writers certain) the
// wins its decided pairs give, which every model adds to.
void Encoder::settle_keys() {
  const auto& pairs = pg_.pairs();
  settled_.assign(pg_.history().keys().size(), {});
  open_pairs_.assign(settled_.size(), {});
  base_wins_.assign(settled_.size(), {});
  std::vector<std::uint32_t> wins, idx;
  for (KeyId k = 0; k < settled_.size(); ++k) {
    budget::poll();
    const auto& ws = pg_.writers(k);
    if (ws.empty()) continue;
    const bool certain = std::none_of(ws.begin(), ws.end(), [&](TxnId t) { return pg_.uncertain(t, k); });
    if (const std::vector<TxnId>* rmw = pg_.chain(k)) {
      if (certain) settled_[k] = *rmw;
      continue;
    }
    wins.assign(ws.size(), 0);
    for (std::uint32_t i = 0; i < ws.size(); ++i)
      for (std::uint32_t j = i + 1; j < ws.size(); ++j) {
        const std::size_t p = pg_.pair_at(k, i, j);
        const WwPair& pr = pairs[p];
        if (has_pair_var(p)) open_pairs_[k].push_back({p, i, j});
        else if (pr.state == 1 || pr.state == -1) ++wins[(pr.state > 0) == (pr.a == ws[i]) ? i : j];
      }
    if (!certain) continue;
    if (!open_pairs_[k].empty()) {
      base_wins_[k] = wins;
      continue;
    }
    idx.resize(ws.size());
    for (std::uint32_t i = 0; i < ws.size(); ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](auto x, auto y) { return wins[x] > wins[y]; });
    bool transitive = true;
    for (std::uint32_t r = 0; r < idx.size(); ++r)
      transitive = transitive && wins[idx[r]] == ws.size() - 1 - r;
    if (!transitive) continue;
    for (std::uint32_t r : idx) settled_[k].push_back(ws[r]);
  }
}

// Per open read, a variable per candidate writer, exactly one true if the
// reader committed; a candidate only if its writer committed and, if
// guarded, happened.
void Encoder::choice_variables() {
  const AbstractHistory& a = pg_.abstract();
  auto& choices = pg_.choices();
  choice_var_.assign(choices.size(), kNoVar);
  std::vector<Lit> lits;
  for (std::size_t c = 0; c < choices.size(); ++c) {
    budget::poll();
    const WrChoice& ch = choices[c];
    if (ch.fixed) continue;
    ++stats_.wr_open;
    std::uint32_t first = solver_.new_vars(static_cast<std::uint32_t>(ch.cands.size()));
    choice_var_[c] = first;
    lits.clear();
    for (std::size_t i = 0; i < ch.cands.size(); ++i) {
      Lit r = choice_lit(c, i);
      lits.push_back(r);
      // A write is read only if its transaction committed, and so is the read.
      if (pg_.unknown(ch.cands[i])) solver_.add_clause({~r, Lit::pos(commit_var_[ch.cands[i]])});
      if (pg_.unknown(ch.reader)) solver_.add_clause({~r, Lit::pos(commit_var_[ch.reader])});
      // A guarded write is read only if it happened.
      if (const std::uint32_t g = a.guard_of(ch.cands[i], ch.key); g != kNoGuard)
        solver_.add_clause({~r, Lit::pos(guard_var_[g])});
    }
    std::optional<Lit> guard;
    if (pg_.unknown(ch.reader)) guard = Lit::pos(commit_var_[ch.reader]);
    sat::exactly_one(solver_, lits, guard);
  }
}

void Encoder::guard_clauses() {
  const AbstractHistory& a = pg_.abstract();
  auto& choices = pg_.choices();
  // A guarded write happens exactly when its predicate write's read of the
  // key saw a version that satisfies the predicate.
  std::unordered_map<std::uint64_t, std::uint32_t> guard_at;  // (reader, op) of its read -> guard
  for (std::uint32_t g = 0; g < a.guarded.size(); ++g)
    guard_at.emplace(static_cast<std::uint64_t>(a.guarded[g].txn) << 32 | a.guarded[g].op, g);
  auto truth = [&](std::uint32_t g, TxnId writer) {
    const auto& sat = a.guarded[g].satisfying;
    return std::binary_search(sat.begin(), sat.end(), writer) ? Lit::pos(guard_var_[g])
                                                              : Lit::neg(guard_var_[g]);
  };
  std::vector<bool> chosen(a.guarded.size(), false);
  for (std::size_t c = 0; c < choices.size() && !guard_at.empty(); ++c) {
    const WrChoice& ch = choices[c];
    auto it = guard_at.find(static_cast<std::uint64_t>(ch.reader) << 32 | ch.op);
    if (it == guard_at.end()) continue;
    // Several guarded keys share the predicate write's op: find this key's.
    std::uint32_t g = it->second;
    while (g < a.guarded.size() && a.guarded[g].txn == ch.reader && a.guarded[g].key != ch.key) ++g;
    if (g == a.guarded.size() || a.guarded[g].key != ch.key) continue;  // unreachable: one guard per key
    chosen[g] = true;
    if (choice_var_[c] == kNoVar) {
      solver_.add_clause({truth(g, ch.cands.front())});
      continue;
    }
    for (std::size_t i = 0; i < ch.cands.size(); ++i)
      solver_.add_clause({~choice_lit(c, i), truth(g, ch.cands[i])});
  }
  for (std::uint32_t g = 0; g < a.guarded.size(); ++g)
    if (!chosen[g]) {  // a read with one candidate writer, certain from the start
      const auto cands = a.candidates[a.guarded[g].txn][a.guarded[g].read];
      if (!cands.empty()) solver_.add_clause({truth(g, cands.front())});
    }
  for (const auto& [g, happened] : a.forced_guards)
    solver_.add_clause({happened ? Lit::pos(guard_var_[g]) : Lit::neg(guard_var_[g])});
  // A read fixed to a guarded write by pruning: the write happened.
  for (const WrChoice& ch : choices)
    if (ch.fixed)
      if (const std::uint32_t g = a.guard_of(ch.cands.front(), ch.key); g != kNoGuard)
        solver_.add_clause({Lit::pos(guard_var_[g])});
}

// Two writes of a pair that pruning found cannot both exist.
void Encoder::not_both_clauses() {
  for (const WwPair& pr : pg_.pairs()) {
    if (pr.state != WwPair::kNotBoth) continue;
    CondEdge both{};
    add_write_condition(both, pr.a, pr.key);
    add_write_condition(both, pr.b, pr.key);
    std::vector<Lit> clause;
    for (std::uint8_t q = 0; q < both.n; ++q) clause.push_back(~both.lits[q]);
    solver_.add_clause(clause);
  }
}

// A read of w cannot be followed by a guarded write w' of the key that the
// reader reaches back (w' before the reader in every compatible graph)
// and that comes after w if both exist (T0 first, or the order pruning
// fixed): the anti-dependency reader -> w' would close a cycle. So reading
// w and w' happening exclude each other: a binary clause per such pair.
// Where real time or sessions order the writers, unit propagation then
// evaluates predicate writes one after the other, as the database did.
void Encoder::latest_version_clauses() {
  const AbstractHistory& a = pg_.abstract();
  if (a.guarded.empty()) return;
  std::vector<std::vector<TxnId>> guarded_writers(pg_.history().keys().size());
  for (const GuardedWrite& gw : a.guarded)
    if (gw.final && !gw.sure) guarded_writers[gw.key].push_back(gw.txn);
  const auto& choices = pg_.choices();
  const auto& pairs = pg_.pairs();
  for (std::size_t c = 0; c < choices.size(); ++c) {
    const WrChoice& ch = choices[c];
    if (choice_var_[c] == kNoVar || pg_.unknown(ch.reader)) continue;
    for (TxnId w2 : guarded_writers[ch.key]) {
      budget::poll();
      if (w2 == ch.reader || pg_.unknown(w2)) continue;
      if (!pg_.closes_cycle(DepEdge{ch.reader, w2, Dep::RW, ch.key})) continue;
      const Lit happened = Lit::pos(guard_var_[a.guard_of(w2, ch.key)]);
      for (std::size_t i = 0; i < ch.cands.size(); ++i) {
        const TxnId w = ch.cands[i];
        if (w == w2 || pg_.unknown(w)) continue;
        if (w != kInitTxn) {
          const auto p = pg_.pair_index(ch.key, w, w2);
          if (!p || pairs[*p].state == 0 || pairs[*p].state == WwPair::kNotBoth) continue;
          if ((pairs[*p].state > 0) != (pairs[*p].a == w)) continue;  // w2 first
        }
        solver_.add_clause({~choice_lit(c, i), ~happened});
        ++stats_.two_width_clauses;
      }
    }
  }
}

std::optional<Lit> Encoder::ww_lit(KeyId k, TxnId from, TxnId to) const {
  auto p = pg_.pair_index(k, from, to);
  if (!p || !has_pair_var(*p)) return std::nullopt;
  return pair_lit(*p, from);
}

// VeriStrong Alg. 2 over the choices between committed transactions: two
// literals whose edges close a cycle with known paths (canonical), and a
// write-read choice with a write-write choice that derive an anti-dependency
// closing a cycle (RW). Both are implied by acyclicity, so adding them keeps
// the formula equisatisfiable; they let unit propagation see these cycles.
void Encoder::two_width_clauses() {
  std::vector<TwoWidthChoice> lits;
  const auto& pairs = pg_.pairs();
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (!has_pair_var(p)) continue;
    const WwPair& pr = pairs[p];
    if (pg_.uncertain(pr.a, pr.key) || pg_.uncertain(pr.b, pr.key)) continue;
    lits.push_back({pair_lit(p, pr.a), pg_.implied_by_ww(pr.a, pr.b, pr.key)});
    lits.push_back({pair_lit(p, pr.b), pg_.implied_by_ww(pr.b, pr.a, pr.key)});
  }
  const auto& choices = pg_.choices();
  for (std::size_t c = 0; c < choices.size(); ++c) {
    if (choice_var_[c] == kNoVar || pg_.unknown(choices[c].reader)) continue;
    const WrChoice& ch = choices[c];
    for (std::size_t i = 0; i < ch.cands.size(); ++i) {
      budget::poll();
      if (pg_.uncertain(ch.cands[i], ch.key)) continue;
      Lit r = choice_lit(c, i);
      lits.push_back({r, pg_.implied_by_wr(ch.cands[i], ch.reader, ch.key)});
      // RW case: this read with each open order of its writer before another
      // (pairs by writer index: a hot key has thousands of writers). A
      // read-modify-write chain's key has no pairs.
      if (pg_.chain(ch.key)) continue;
      const auto& ws = pg_.writers(ch.key);
      const auto ci = static_cast<std::size_t>(std::find(ws.begin(), ws.end(), ch.cands[i]) - ws.begin());
      for (std::size_t j = 0; j < ws.size() && ci < ws.size(); ++j) {
        const TxnId w = ws[j];
        if (j == ci || w == ch.reader || pg_.uncertain(w, ch.key)) continue;
        const std::size_t p = pg_.pair_at(ch.key, ci, j);
        if (!has_pair_var(p)) continue;
        const std::optional<Lit> l = pair_lit(p, ch.cands[i]);
        DepEdge rw{ch.reader, w, Dep::RW, ch.key};
        if (pg_.closes_cycle(rw)) {
          solver_.add_clause({~r, ~*l});
          ++stats_.two_width_clauses;
          if (two_width_.size() < 4096)
            two_width_.push_back({rw, DepEdge{ch.cands[i], w, Dep::WW, ch.key}});
        }
      }
    }
  }
  canonical_two_width(lits);
}

namespace {

// An arc of a literal's implied edges, as positions in the known graph's
// topological order.
struct PosArc {
  std::uint32_t from, to, lit;
  std::uint32_t lo() const { return std::min(from, to); }
  std::uint32_t hi() const { return std::max(from, to); }
};

// The pairs of literals (i < j, sorted) whose arcs could close a cycle with
// known paths: arcs f1->t1 and f2->t2 do only if t1 reaches f2 and t2
// reaches f1, so (positions in a topological order) t1 <= f2 and t2 <= f1.
// Two forward arcs (f < t) never do (t2 <= f1 < t1 <= f2 < t2); so one is
// backward (t <= f), and the other's span lies within its span (forward)
// or meets it (backward). Each backward arc is matched against the arcs
// that start within its span, which finds every such pair once or more.
// Positions make this a sweep over sorted arcs: near-linear where the
// open choices are local, where the quadratic search over every pair of
// literals would be budget-bound.
std::vector<std::pair<std::uint32_t, std::uint32_t>> candidate_pairs(
    std::vector<PosArc>& arcs, std::size_t limit) {
  std::sort(arcs.begin(), arcs.end(), [](const PosArc& a, const PosArc& b) {
    return a.lo() != b.lo() ? a.lo() < b.lo() : a.lit < b.lit;
  });
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  std::size_t scanned = 0;  // bounded too: a long backward span meets many arcs
  for (std::size_t b = 0; b < arcs.size() && out.size() < limit && scanned < 4 * limit; ++b) {
    const PosArc& back = arcs[b];
    if (back.from < back.to) continue;  // forward
    // Arcs starting within [back.to, back.from]: from b on (ties before b
    // start at back.to too).
    auto first = std::lower_bound(arcs.begin(), arcs.end(), back.lo(),
                                  [](const PosArc& a, std::uint32_t v) { return a.lo() < v; });
    for (auto it = first; it != arcs.end() && it->lo() <= back.hi(); ++it) {
      budget::poll();
      ++scanned;
      if (it->lit == back.lit) continue;
      const bool forward = it->from < it->to;
      if (forward && it->hi() > back.hi()) continue;  // not within: t1 <= f2 fails
      out.emplace_back(std::min(it->lit, back.lit), std::max(it->lit, back.lit));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

// The canonical case of two_width_clauses(): two literals whose implied
// edges close a cycle with known paths, over the candidate pairs of the
// sweep above, in the order of a search over every pair (i < j), under a
// work budget.
void Encoder::canonical_two_width(const std::vector<TwoWidthChoice>& lits) {
  const TheoryGraph& th = pg_.theory();
  const auto& reach = pg_.reach();
  std::vector<std::uint32_t> pos(th.num_nodes(), 0);
  for (std::uint32_t i = 0; i < pg_.order().size(); ++i) pos[pg_.order()[i]] = i;
  std::array<TheoryArc, 2> a1, a2;
  std::vector<PosArc> arcs;
  for (std::uint32_t i = 0; i < lits.size(); ++i)
    for (const DepEdge& x : lits[i].implied) {
      const std::uint32_t n = th.arcs(x, a1);
      for (std::uint32_t u = 0; u < n; ++u) arcs.push_back({pos[a1[u].from], pos[a1[u].to], i});
    }
  constexpr std::size_t kBudget = 40'000'000;
  const auto pairs = candidate_pairs(arcs, kBudget / 4);
  std::size_t work = 0;
  for (std::size_t q = 0; q < pairs.size() && work < kBudget; ++q) {
    budget::poll();
    const auto [i, j] = pairs[q];
    if (lits[i].lit.var() == lits[j].lit.var()) continue;
    bool cyclic = false;
    DepEdge e1{}, e2{};
    for (const DepEdge& x : lits[i].implied) {
      std::uint32_t n1 = th.arcs(x, a1);
      for (const DepEdge& y : lits[j].implied) {
        std::uint32_t n2 = th.arcs(y, a2);
        ++work;
        for (std::uint32_t u = 0; u < n1 && !cyclic; ++u)
          for (std::uint32_t v = 0; v < n2 && !cyclic; ++v)
            cyclic = reach.reaches_or_same(a1[u].to, a2[v].from) &&
                     reach.reaches_or_same(a2[v].to, a1[u].from);
        if (cyclic) {
          e1 = x;
          e2 = y;
          break;
        }
      }
      if (cyclic) break;
    }
    if (!cyclic) continue;
    solver_.add_clause({~lits[i].lit, ~lits[j].lit});
    ++stats_.two_width_clauses;
    if (two_width_.size() < 4096) two_width_.push_back({e1, e2});
  }
}

std::vector<DepEdge> Encoder::rebuild(const TwoWidth& tw) const {
  const TheoryGraph& th = pg_.theory();
  std::array<TheoryArc, 2> a1, a2;
  std::uint32_t n1 = th.arcs(tw.first, a1), n2 = th.arcs(tw.second, a2);
  std::vector<DepEdge> best;
  const auto& reach = pg_.reach();
  auto known_path = [&](graph::Node from, graph::Node to, std::vector<DepEdge>& out) {
    if (from == to) return;
    for (const DepEdge& d : pg_.to_deps(*graph::shortest_path(pg_.known_graph(), from, to)))
      out.push_back(d);
  };
  for (std::uint32_t u = 0; u < n1; ++u)
    for (std::uint32_t v = 0; v < n2; ++v) {
      if (!reach.reaches_or_same(a1[u].to, a2[v].from) ||
          !reach.reaches_or_same(a2[v].to, a1[u].from))
        continue;
      std::vector<DepEdge> cycle{tw.first};
      known_path(a1[u].to, a2[v].from, cycle);
      cycle.push_back(tw.second);
      known_path(a2[v].to, a1[u].from, cycle);
      if (best.empty() || cycle.size() < best.size()) best = std::move(cycle);
    }
  return best;
}

std::vector<DepEdge> Encoder::shortest_two_width_cycle() const {
  std::vector<DepEdge> shortest;
  for (const TwoWidth& tw : two_width_) {
    auto c = rebuild(tw);
    if (!c.empty() && (shortest.empty() || c.size() < shortest.size())) shortest = std::move(c);
  }
  return shortest;
}

ModelEdges Encoder::model_edges() {
  ModelEdges out;
  conditional_edges(out);
  const std::vector<std::vector<ModelRead>> reads_of = read_edges(out);
  Tournament scratch;
  std::vector<std::uint32_t> sig;
  memo_.resize(pg_.history().keys().size());
  for (KeyId k = 0; k < memo_.size(); ++k) {
    budget::poll();
    key_signature(k, reads_of[k], sig);
    KeyMemo& m = memo_[k];
    if (!m.valid || m.sig != sig) {
      m.edges = {};
      version_order_edges(k, reads_of[k], scratch, m.edges);
      m.sig.swap(sig);
      m.valid = true;
    }
    out.edges.insert(out.edges.end(), m.edges.edges.begin(), m.edges.edges.end());
    out.broken.insert(out.broken.end(), m.edges.broken.begin(), m.edges.broken.end());
  }
  return out;
}

// Every model value version_order_edges() reads for k: a settled key's
// edges depend on the model's reads alone (its writers are certain, its
// orders known); another's also on which of its writes exist and on its
// open orders.
void Encoder::key_signature(KeyId k, const std::vector<ModelRead>& reads,
                            std::vector<std::uint32_t>& sig) const {
  sig.clear();
  if (settled_[k].empty()) {
    for (TxnId w : pg_.writers(k))
      if (pg_.uncertain(w, k)) sig.push_back(write_in_model(w, k) ? 1 : 0);
    for (const OpenPair& o : open_pairs_[k]) sig.push_back(solver_.model_value(Lit::pos(pair_var(o.p))) ? 1 : 0);
  }
  for (const ModelRead& rd : reads) {
    sig.push_back(rd.reader);
    sig.push_back(rd.writer);
    sig.push_back(rd.lit ? rd.lit->x : UINT32_MAX);
  }
}

// Conditional edges of unknown-status transactions that committed.
void Encoder::conditional_edges(ModelEdges& out) const {
  for (const auto& [e, also] : pg_.conditional()) {
    if (!committed_in_model(e.from) || !committed_in_model(e.to)) continue;
    if (also != kNoTxn && !committed_in_model(also)) continue;
    CondEdge c{e};
    add_commit_condition(c, e.from);
    add_commit_condition(c, e.to);
    if (also != kNoTxn) add_commit_condition(c, also);
    out.edges.push_back(c);
  }
}

// The wr edge of each open read in this model; per key, the writer each
// such read reads from.
std::vector<std::vector<Encoder::ModelRead>> Encoder::read_edges(ModelEdges& out) const {
  const auto& choices = pg_.choices();
  std::vector<std::vector<ModelRead>> reads_of(pg_.history().keys().size());
  for (std::size_t c = 0; c < choices.size(); ++c) {
    const WrChoice& ch = choices[c];
    if (choice_var_[c] == kNoVar || !committed_in_model(ch.reader)) continue;
    for (std::size_t i = 0; i < ch.cands.size(); ++i) {
      Lit r = choice_lit(c, i);
      if (!solver_.model_value(r)) continue;
      CondEdge e{{ch.cands[i], ch.reader, Dep::WR, ch.key}};
      e.add(r);
      out.edges.push_back(e);
      reads_of[ch.key].push_back({ch.reader, ch.cands[i], r});
    }
  }
  return reads_of;
}

// The ww edge (x, y) on k with the literals it exists by: `order`, its
// pair's literal if the pair is open.
CondEdge Encoder::ww_edge(KeyId k, TxnId x, TxnId y, std::optional<Lit> order) const {
  CondEdge e{{x, y, Dep::WW, k}};
  if (order) e.add(*order);
  add_write_condition(e, x, k);
  add_write_condition(e, y, k);
  return e;
}

// Version order of key k: the model's tournament over committed writers.
// Transitive: its chain as ww edges, and the anti-dependencies; otherwise a
// 3-cycle of it, in out.broken.
void Encoder::version_order_edges(KeyId k, const std::vector<ModelRead>& reads,
                                  Tournament& tn, ModelEdges& out) const {
  if (!settled_[k].empty()) {
    // Its write-write edges and the anti-dependencies of its known reads
    // are known edges: only the model's reads add anti-dependencies.
    if (!reads.empty()) anti_dependency_edges(k, settled_[k], {}, reads, false, out.edges);
    return;
  }
  const auto& all = pg_.writers(k);
  auto& [ws, wi, wins, idx] = tn;  // writer indices into writers(k)
  ws.clear();
  wi.clear();
  for (std::uint32_t i = 0; i < all.size(); ++i)
    if (write_in_model(all[i], k)) {
      ws.push_back(all[i]);
      wi.push_back(i);
    }
  if (ws.empty()) return;
  // Does the r-th writer of ws precede the s-th?
  auto precedes_at = [&](std::uint32_t r, std::uint32_t s) {
    auto p = pg_.pair_at(k, wi[r], wi[s]);
    const WwPair& pr = pg_.pairs()[p];
    if (pr.state != 0) return (pr.state > 0) == (pr.a == ws[r]);
    return solver_.model_value(pair_lit(p, ws[r]));
  };
  const std::vector<TxnId>* rmw = pg_.chain(k);
  if (rmw) ws = *rmw;  // a read-modify-write chain: the order is known (its writers all commit)
  idx.resize(ws.size());
  for (std::uint32_t i = 0; i < ws.size(); ++i) idx[i] = i;
  bool transitive = true;
  if (!rmw) {
    if (!base_wins_[k].empty()) {
      // Every writer is certain (ws is all of them): the decided pairs'
      // wins plus the model's open ones.
      wins = base_wins_[k];
      for (const OpenPair& o : open_pairs_[k])
        ++wins[solver_.model_value(pair_lit(o.p, all[o.i])) ? o.i : o.j];
    } else {
      wins.assign(ws.size(), 0);
      for (std::uint32_t i = 0; i < ws.size(); ++i)
        for (std::uint32_t j = i + 1; j < ws.size(); ++j) ++wins[precedes_at(i, j) ? i : j];
    }
    std::sort(idx.begin(), idx.end(), [&](auto x, auto y) { return wins[x] > wins[y]; });
    for (std::uint32_t r = 0; r < idx.size(); ++r)
      transitive = transitive && wins[idx[r]] == ws.size() - 1 - r;
  }
  if (!transitive) {
    std::unordered_map<TxnId, std::uint32_t> at;
    for (std::uint32_t r = 0; r < ws.size(); ++r) at.emplace(ws[r], r);
    auto [i, m, j] = three_cycle(ws, idx, [&](TxnId x, TxnId y) {
      return precedes_at(at.at(x), at.at(y));
    });
    out.broken.push_back({ww_edge(k, i, m, ww_lit(k, i, m)), ww_edge(k, m, j, ww_lit(k, m, j)),
                          ww_edge(k, j, i, ww_lit(k, j, i))});
    return;
  }
  std::vector<TxnId> chain;
  std::vector<std::uint32_t> chain_wi;  // their indices into writers(k); none for a chain key
  for (std::uint32_t r : idx) {
    chain.push_back(ws[r]);
    if (!rmw) chain_wi.push_back(wi[r]);
  }
  for (std::uint32_t r = 0; r + 1 < chain.size(); ++r) {
    std::optional<Lit> order;
    if (!rmw) order = pair_lit_at(k, chain_wi[r], chain_wi[r + 1], chain[r]);
    CondEdge e = ww_edge(k, chain[r], chain[r + 1], order);
    if (e.n > 0) out.edges.push_back(e);
  }
  anti_dependency_edges(k, chain, chain_wi, reads, true, out.edges);
}

// Anti-dependencies on k: a read of w precedes the write after w in `chain`
// (other than the reader itself, whose own later writes follow by ww). The
// model's reads, and the known ones when `known_reads` (a settled key's are
// known edges). `chain_wi`: the chain's indices into writers(k), or empty
// when none of its orders is open.
void Encoder::anti_dependency_edges(KeyId k, const std::vector<TxnId>& chain,
                                    const std::vector<std::uint32_t>& chain_wi,
                                    const std::vector<ModelRead>& reads, bool known_reads,
                                    std::vector<CondEdge>& edges) const {
  std::unordered_map<TxnId, std::uint32_t> rank;
  for (std::uint32_t r = 0; r < chain.size(); ++r) rank.emplace(chain[r], r);
  auto add_rw = [&](TxnId reader, TxnId w, std::optional<Lit> r) {
    const std::uint32_t at = w == kInitTxn ? 0 : rank.at(w);  // w's place, if not T0
    std::uint32_t next = w == kInitTxn ? 0 : at + 1;
    if (next < chain.size() && chain[next] == reader) ++next;
    if (next >= chain.size()) return;
    const TxnId nx = chain[next];
    CondEdge e{{reader, nx, Dep::RW, k}};
    if (r) e.add(*r);
    if (w != kInitTxn && !chain_wi.empty())
      if (auto l = pair_lit_at(k, chain_wi[at], chain_wi[next], w)) e.add(*l);
    add_write_condition(e, nx, k);
    // The version read, when it is a guarded write's: the order after it
    // is then no known edge, nor is this one (a read of it fixed by
    // pruning has no literal of its own).
    if (w != kInitTxn) add_write_condition(e, w, k);
    add_commit_condition(e, reader);
    if (e.n > 0) edges.push_back(e);
  };
  for (const ModelRead& rd : reads) add_rw(rd.reader, rd.writer, rd.lit);
  if (!known_reads) return;
  for (TxnId w : chain)
    for (TxnId s : pg_.known_readers(k, w)) add_rw(s, w, std::nullopt);
  for (TxnId s : pg_.known_readers(k, kInitTxn)) add_rw(s, kInitTxn, std::nullopt);
}

std::vector<bool> Encoder::guards_in_model() const {
  std::vector<bool> out(guard_var_.size());
  for (std::size_t g = 0; g < guard_var_.size(); ++g) out[g] = solver_.model_value(guard_var_[g]);
  return out;
}

std::vector<poly::ChosenRead> Encoder::chosen_reads() const {
  std::vector<poly::ChosenRead> out;
  const auto& choices = pg_.choices();
  for (std::size_t c = 0; c < choices.size(); ++c) {
    const WrChoice& ch = choices[c];
    if (!committed_in_model(ch.reader)) continue;
    if (choice_var_[c] == kNoVar) {
      if (!ch.cands.empty()) out.push_back({ch.cands.front(), ch.reader, ch.op, ch.key});
      continue;
    }
    for (std::size_t i = 0; i < ch.cands.size(); ++i)
      if (solver_.model_value(choice_lit(c, i)))
        out.push_back({ch.cands[i], ch.reader, ch.op, ch.key});
  }
  return out;
}

}  // namespace iso::poly
