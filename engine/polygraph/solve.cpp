#include "engine/polygraph/solve.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

#include "engine/graph/dynamic_order.hpp"
#include "engine/sat/solver.hpp"
#include "engine/util/timing.hpp"

namespace iso::poly {

namespace {

using sat::Lit;
// An edge that exists when all of its literals are true.
struct CondEdge {
  DepEdge edge;
  std::array<Lit, 4> lits{};
  std::uint8_t n = 0;
  void add(Lit l) {
    for (std::uint8_t i = 0; i < n; ++i)
      if (lits[i] == l) return;
    lits[n++] = l;
  }
  friend bool operator==(const CondEdge& a, const CondEdge& b) {
    if (!(a.edge == b.edge) || a.n != b.n) return false;
    for (std::uint8_t i = 0; i < a.n; ++i)
      if (!(a.lits[i] == b.lits[i])) return false;
    return true;
  }
};

struct CondEdgeHash {
  std::size_t operator()(const CondEdge& e) const {
    std::uint64_t x = (static_cast<std::uint64_t>(e.edge.from) << 32) ^ e.edge.to;
    x = x * 0x9e3779b97f4a7c15ull ^ (static_cast<std::uint64_t>(e.edge.key) << 2 |
                                      static_cast<std::uint64_t>(e.edge.type));
    for (std::uint8_t i = 0; i < e.n; ++i) x = x * 0x9e3779b97f4a7c15ull ^ e.lits[i].x;
    return static_cast<std::size_t>(x ^ (x >> 29));
  }
};

// A 2-width cycle clause, kept to rebuild its cycle for an explanation.
struct TwoWidth {
  DepEdge first, second;
};

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

class Encoder {
 public:
  Encoder(Polygraph& pg, const CheckOptions& options, CheckStats& stats)
      : pg_(pg), options_(options), stats_(stats),
        commit_var_(pg.history().num_txns(), kNoVar) {}

  void encode(const std::vector<TxnId>& forced_aborts, bool two_width);
  // Lazy acyclicity: cycle clauses learnt from models.
  SolveOutcome solve(Clock::time_point start);
  // Eager acyclicity: a total order of the theory graph's nodes that every
  // edge of the chosen graph follows, as clauses; then a single solver call.
  void encode_eager();
  SolveOutcome solve_eager(Clock::time_point start);

 private:
  static constexpr std::uint32_t kNoVar = UINT32_MAX;

  bool committed_in_model(TxnId t) const {
    return !pg_.unknown(t) || solver_.model_value(commit_var_[t]);
  }
  void add_commit_condition(CondEdge& e, TxnId t) const {
    if (pg_.unknown(t)) e.add(Lit::pos(commit_var_[t]));
  }
  // The literal "from precedes to on the pair's key", for an open pair.
  Lit pair_lit(std::size_t p, TxnId from) const {
    return pair_first_[p] == from ? Lit::pos(pair_var_[p]) : Lit::neg(pair_var_[p]);
  }
  void exactly_one(const std::vector<Lit>& lits, std::optional<Lit> guard);
  void two_width_clauses();
  std::optional<Lit> ww_lit(KeyId k, TxnId from, TxnId to) const;

  // One model: returns the cycles met (as clauses added) or none.
  std::size_t check_model(std::vector<DepEdge>& shortest, std::vector<TxnId>& order);
  std::size_t insert_model_edges(const std::vector<CondEdge>& edges,
                                 std::vector<DepEdge>& shortest, std::vector<TxnId>& order);
  std::vector<DepEdge> rebuild(const TwoWidth& tw) const;
  // Eager: "u precedes v" in the order, for two distinct theory nodes, and
  // the clause "if the edge's conditions hold, its arcs follow the order".
  Lit before(graph::Node u, graph::Node v) const;
  // The committed transactions of the model, T0 first, sorted by the
  // position of their dependency node (t under SER, t⁰ under SI).
  template <class Position>
  std::vector<TxnId> commit_order(Position position) const {
    std::vector<std::pair<std::uint32_t, TxnId>> by_pos;
    for (TxnId t : pg_.abstract().txns) {
      if (!committed_in_model(t)) continue;
      graph::Node nd = pg_.theory().level() == GraphLevel::Ser ? t : 2 * t;
      by_pos.emplace_back(t == kInitTxn ? 0 : position(nd) + 1, t);
    }
    std::sort(by_pos.begin(), by_pos.end());
    std::vector<TxnId> order;
    for (auto [p, t] : by_pos) order.push_back(t);
    return order;
  }
  void require(const CondEdge& e);
  // One solver call within the time left (Unknown when none is).
  sat::Result solve_round(Clock::time_point start);

  Polygraph& pg_;
  const CheckOptions& options_;
  CheckStats& stats_;
  sat::Solver solver_;
  std::vector<std::uint32_t> commit_var_;
  std::vector<std::uint32_t> pair_var_;    // per pair, kNoVar when known
  std::vector<TxnId> pair_first_;          // the endpoint `true` puts first
  std::vector<std::uint32_t> choice_var_;  // per choice: first candidate var, or kNoVar
  std::vector<TwoWidth> two_width_;
  std::size_t clauses_ = 0;
  // Eager: node -> position in the known graph's topological order, and the
  // first order variable (one per pair of positions p < q, triangular).
  std::vector<std::uint32_t> rank_;
  std::uint32_t ord_base_ = 0;
  // Lazy: the order over the known graph plus the last model's edges, each
  // in a slot whose edge id is known().size() + slot.
  std::unique_ptr<graph::DynamicOrder> dyn_;
  std::vector<CondEdge> slots_;
  std::vector<std::uint32_t> slot_seen_;  // round stamp; 0 = free
  std::vector<std::uint32_t> free_slots_;
  std::unordered_map<CondEdge, std::uint32_t, CondEdgeHash> slot_of_;
  std::uint32_t round_stamp_ = 0;
};

void Encoder::exactly_one(const std::vector<Lit>& lits, std::optional<Lit> guard) {
  std::vector<Lit> at_least(lits);
  if (guard) at_least.push_back(~*guard);
  solver_.add_clause(at_least);
  ++clauses_;
  if (lits.size() <= 6) {
    for (std::size_t i = 0; i < lits.size(); ++i)
      for (std::size_t j = i + 1; j < lits.size(); ++j) {
        solver_.add_clause({~lits[i], ~lits[j]});
        ++clauses_;
      }
    return;
  }
  // Sequential counter (Sinz 2005): s_i = "one of lits[0..i] is true".
  std::uint32_t s = solver_.new_vars(static_cast<std::uint32_t>(lits.size() - 1));
  for (std::size_t i = 0; i + 1 < lits.size(); ++i) {
    solver_.add_clause({~lits[i], Lit::pos(s + i)});
    if (i > 0) {
      solver_.add_clause({Lit::neg(s + i - 1), Lit::pos(s + i)});
      solver_.add_clause({~lits[i], Lit::neg(s + i - 1)});
      clauses_ += 2;
    }
    ++clauses_;
  }
  solver_.add_clause({~lits.back(), Lit::neg(s + lits.size() - 2)});
  ++clauses_;
}

void Encoder::encode(const std::vector<TxnId>& forced_aborts, bool two_width) {
  const History& h = pg_.history();
  for (TxnId t = 1; t < h.num_txns(); ++t)
    if (pg_.unknown(t)) commit_var_[t] = solver_.new_var();
  for (TxnId t : forced_aborts) {
    solver_.add_clause({Lit::neg(commit_var_[t])});
    ++clauses_;
  }
  for (TxnId t : pg_.forced_commits()) {
    solver_.add_clause({Lit::pos(commit_var_[t])});
    ++clauses_;
  }
  // Topological positions orient the pair variables.
  const TheoryGraph& th = pg_.theory();
  std::vector<std::uint32_t> pos(th.num_nodes(), 0);
  for (std::uint32_t i = 0; i < pg_.order().size(); ++i) pos[pg_.order()[i]] = i;
  auto node = [&](TxnId t) { return th.level() == GraphLevel::Ser ? t : 2 * t; };

  auto& pairs = pg_.pairs();
  pair_var_.assign(pairs.size(), kNoVar);
  pair_first_.assign(pairs.size(), 0);
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (pairs[p].state != 0) continue;
    pair_var_[p] = solver_.new_var();
    bool a_first = pos[node(pairs[p].a)] <= pos[node(pairs[p].b)];
    pair_first_[p] = a_first ? pairs[p].a : pairs[p].b;
    ++stats_.ww_open;
  }
  auto& choices = pg_.choices();
  choice_var_.assign(choices.size(), kNoVar);
  for (std::size_t c = 0; c < choices.size(); ++c) {
    const WrChoice& ch = choices[c];
    if (ch.fixed) continue;
    ++stats_.wr_open;
    std::uint32_t first = solver_.new_vars(static_cast<std::uint32_t>(ch.cands.size()));
    choice_var_[c] = first;
    std::vector<Lit> lits;
    for (std::size_t i = 0; i < ch.cands.size(); ++i) {
      Lit r = Lit::pos(first + static_cast<std::uint32_t>(i));
      lits.push_back(r);
      // A write is read only if its transaction committed, and so is the read.
      if (pg_.unknown(ch.cands[i])) {
        solver_.add_clause({~r, Lit::pos(commit_var_[ch.cands[i]])});
        ++clauses_;
      }
      if (pg_.unknown(ch.reader)) {
        solver_.add_clause({~r, Lit::pos(commit_var_[ch.reader])});
        ++clauses_;
      }
    }
    std::optional<Lit> guard;
    if (pg_.unknown(ch.reader)) guard = Lit::pos(commit_var_[ch.reader]);
    exactly_one(lits, guard);
  }
  if (two_width) two_width_clauses();
  solver_.set_default_polarity(true);
  stats_.vars = solver_.num_vars();
  stats_.clauses = clauses_;
}

std::optional<Lit> Encoder::ww_lit(KeyId k, TxnId from, TxnId to) const {
  auto p = pg_.pair_index(k, from, to);
  if (!p || pair_var_[*p] == kNoVar) return std::nullopt;
  return pair_lit(*p, from);
}

// VeriStrong Alg. 2 over the choices between committed transactions: two
// literals whose edges close a cycle with known paths (canonical), and a
// write-read choice with a write-write choice that derive an anti-dependency
// closing a cycle (RW). Both are implied by acyclicity, so adding them keeps
// the formula equisatisfiable; they let unit propagation see these cycles.
void Encoder::two_width_clauses() {
  struct Choice {
    Lit lit;
    std::vector<DepEdge> implied;
  };
  std::vector<Choice> lits;
  const auto& pairs = pg_.pairs();
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (pair_var_[p] == kNoVar) continue;
    const WwPair& pr = pairs[p];
    if (pg_.unknown(pr.a) || pg_.unknown(pr.b)) continue;
    lits.push_back({pair_lit(p, pr.a), pg_.implied_by_ww(pr.a, pr.b, pr.key)});
    lits.push_back({pair_lit(p, pr.b), pg_.implied_by_ww(pr.b, pr.a, pr.key)});
  }
  const auto& choices = pg_.choices();
  for (std::size_t c = 0; c < choices.size(); ++c) {
    if (choice_var_[c] == kNoVar || pg_.unknown(choices[c].reader)) continue;
    const WrChoice& ch = choices[c];
    for (std::size_t i = 0; i < ch.cands.size(); ++i) {
      if (pg_.unknown(ch.cands[i])) continue;
      Lit r = Lit::pos(choice_var_[c] + static_cast<std::uint32_t>(i));
      lits.push_back({r, pg_.implied_by_wr(ch.cands[i], ch.reader, ch.key)});
      // RW case: this read with each open order of its writer before another.
      for (TxnId w : pg_.writers(ch.key)) {
        if (w == ch.cands[i] || w == ch.reader || pg_.unknown(w)) continue;
        auto l = ww_lit(ch.key, ch.cands[i], w);
        if (!l) continue;
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
  // Canonical case, under a work budget: quadratic in the open choices.
  const TheoryGraph& th = pg_.theory();
  const auto& reach = pg_.reach();
  std::size_t work = 0;
  constexpr std::size_t kBudget = 40'000'000;
  std::array<TheoryArc, 2> a1, a2;
  for (std::size_t i = 0; i < lits.size() && work < kBudget; ++i) {
    for (std::size_t j = i + 1; j < lits.size() && work < kBudget; ++j) {
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
          if (cyclic) { e1 = x; e2 = y; break; }
        }
        if (cyclic) break;
      }
      if (!cyclic) continue;
      solver_.add_clause({~lits[i].lit, ~lits[j].lit});
      ++stats_.two_width_clauses;
      if (two_width_.size() < 4096) two_width_.push_back({e1, e2});
    }
  }
  clauses_ += stats_.two_width_clauses;
}

// The cycle a 2-width clause stands for: its two edges joined by known paths.
std::vector<DepEdge> Encoder::rebuild(const TwoWidth& tw) const {
  const TheoryGraph& th = pg_.theory();
  std::array<TheoryArc, 2> a1, a2;
  std::uint32_t n1 = th.arcs(tw.first, a1), n2 = th.arcs(tw.second, a2);
  std::vector<DepEdge> best;
  const auto& reach = pg_.reach();
  for (std::uint32_t u = 0; u < n1; ++u)
    for (std::uint32_t v = 0; v < n2; ++v) {
      if (!reach.reaches_or_same(a1[u].to, a2[v].from) ||
          !reach.reaches_or_same(a2[v].to, a1[u].from))
        continue;
      std::vector<DepEdge> cycle{tw.first};
      if (a1[u].to != a2[v].from)
        for (const DepEdge& d : pg_.to_deps(*graph::shortest_path(pg_.known_graph(), a1[u].to, a2[v].from)))
          cycle.push_back(d);
      cycle.push_back(tw.second);
      if (a2[v].to != a1[u].from)
        for (const DepEdge& d : pg_.to_deps(*graph::shortest_path(pg_.known_graph(), a2[v].to, a1[u].from)))
          cycle.push_back(d);
      if (best.empty() || cycle.size() < best.size()) best = std::move(cycle);
    }
  return best;
}

std::size_t Encoder::check_model(std::vector<DepEdge>& shortest, std::vector<TxnId>& order) {
  const History& h = pg_.history();
  const auto& pairs = pg_.pairs();
  const auto& choices = pg_.choices();
  std::vector<CondEdge> edges;

  // Conditional edges of unknown-status transactions that committed.
  for (const DepEdge& e : pg_.conditional()) {
    if (!committed_in_model(e.from) || !committed_in_model(e.to)) continue;
    CondEdge c{e};
    add_commit_condition(c, e.from);
    add_commit_condition(c, e.to);
    edges.push_back(c);
  }
  // The writer each read reads from in this model, per key.
  struct Read {
    TxnId reader, writer;
    std::optional<Lit> lit;
  };
  std::vector<std::vector<Read>> reads_of(h.keys().size());
  for (std::size_t c = 0; c < choices.size(); ++c) {
    const WrChoice& ch = choices[c];
    if (choice_var_[c] == kNoVar) continue;
    if (!committed_in_model(ch.reader)) continue;
    for (std::size_t i = 0; i < ch.cands.size(); ++i) {
      Lit r = Lit::pos(choice_var_[c] + static_cast<std::uint32_t>(i));
      if (!solver_.model_value(r)) continue;
      CondEdge e{{ch.cands[i], ch.reader, Dep::WR, ch.key}};
      e.add(r);
      edges.push_back(e);
      reads_of[ch.key].push_back({ch.reader, ch.cands[i], r});
    }
  }
  std::size_t found = 0;
  // Version order per key: the model's tournament over committed writers.
  std::vector<TxnId> ws;
  std::vector<std::uint32_t> wi, wins, idx;  // writer indices into writers(k)
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    const auto& all = pg_.writers(k);
    ws.clear();
    wi.clear();
    for (std::uint32_t i = 0; i < all.size(); ++i)
      if (committed_in_model(all[i])) {
        ws.push_back(all[i]);
        wi.push_back(i);
      }
    if (ws.empty()) continue;
    // Does the r-th writer of ws precede the s-th?
    auto precedes_at = [&](std::uint32_t r, std::uint32_t s) {
      auto p = pg_.pair_at(k, wi[r], wi[s]);
      const WwPair& pr = pairs[p];
      if (pr.state != 0) return (pr.state > 0) == (pr.a == ws[r]);
      return solver_.model_value(pair_lit(p, ws[r]));
    };
    wins.assign(ws.size(), 0);
    for (std::uint32_t i = 0; i < ws.size(); ++i)
      for (std::uint32_t j = i + 1; j < ws.size(); ++j)
        ++wins[precedes_at(i, j) ? i : j];
    idx.resize(ws.size());
    for (std::uint32_t i = 0; i < ws.size(); ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](auto x, auto y) { return wins[x] > wins[y]; });
    bool transitive = true;
    for (std::uint32_t r = 0; r < idx.size(); ++r)
      transitive = transitive && wins[idx[r]] == ws.size() - 1 - r;
    auto cond_of = [&](TxnId x, TxnId y) {
      CondEdge e{{x, y, Dep::WW, k}};
      if (auto l = ww_lit(k, x, y)) e.add(*l);
      add_commit_condition(e, x);
      add_commit_condition(e, y);
      return e;
    };
    if (!transitive) {
      // Not an order: cut a 3-cycle of the tournament.
      std::unordered_map<TxnId, std::uint32_t> at;
      for (std::uint32_t r = 0; r < ws.size(); ++r) at.emplace(ws[r], r);
      auto [i, m, j] = three_cycle(ws, idx, [&](TxnId x, TxnId y) {
        return precedes_at(at.at(x), at.at(y));
      });
      std::vector<Lit> clause;
      std::vector<DepEdge> cycle;
      for (auto [x, y] : {std::pair{i, m}, std::pair{m, j}, std::pair{j, i}}) {
        CondEdge e = cond_of(x, y);
        for (std::uint8_t q = 0; q < e.n; ++q) clause.push_back(~e.lits[q]);
        cycle.push_back(e.edge);
      }
      solver_.add_clause(clause);
      ++stats_.cycle_clauses;
      ++found;
      if (shortest.empty() || cycle.size() < shortest.size()) shortest = cycle;
      continue;
    }
    std::vector<TxnId> chain;
    for (std::uint32_t r : idx) chain.push_back(ws[r]);
    std::unordered_map<TxnId, std::uint32_t> rank;
    for (std::uint32_t r = 0; r < chain.size(); ++r) rank.emplace(chain[r], r);
    for (std::uint32_t r = 0; r + 1 < chain.size(); ++r) {
      CondEdge e = cond_of(chain[r], chain[r + 1]);
      if (e.n > 0) edges.push_back(e);
    }
    // Anti-dependencies: a read of w precedes the write after w (other than
    // the reader itself, whose own later writes follow by ww).
    auto successor = [&](TxnId w, TxnId reader) -> std::optional<TxnId> {
      std::uint32_t r = w == kInitTxn ? 0 : rank.at(w) + 1;
      if (r < chain.size() && chain[r] == reader) ++r;
      if (r >= chain.size()) return std::nullopt;
      return chain[r];
    };
    auto add_rw = [&](TxnId reader, TxnId w, std::optional<Lit> r) {
      auto nx = successor(w, reader);
      if (!nx) return;
      CondEdge e{{reader, *nx, Dep::RW, k}};
      if (r) e.add(*r);
      if (w != kInitTxn) {
        if (auto l = ww_lit(k, w, *nx)) e.add(*l);
      }
      add_commit_condition(e, *nx);
      add_commit_condition(e, reader);
      if (e.n > 0) edges.push_back(e);
    };
    for (const Read& rd : reads_of[k]) add_rw(rd.reader, rd.writer, rd.lit);
    for (TxnId w : chain)
      for (TxnId s : pg_.known_readers(k, w)) add_rw(s, w, std::nullopt);
    for (TxnId s : pg_.known_readers(k, kInitTxn)) add_rw(s, kInitTxn, std::nullopt);
  }
  if (found > 0) return found;
  return insert_model_edges(edges, shortest, order);
}

// The order over the known graph is kept from one model to the next: the
// edges of the last model that this one lacks are removed (which keeps the
// order topological), and only its new edges are inserted. Consecutive
// models differ in a few choices, so a round costs what changed, not the
// whole graph.
std::size_t Encoder::insert_model_edges(const std::vector<CondEdge>& edges,
                                        std::vector<DepEdge>& shortest,
                                        std::vector<TxnId>& order) {
  const TheoryGraph& th = pg_.theory();
  if (!dyn_) dyn_ = std::make_unique<graph::DynamicOrder>(pg_.known_graph(), pg_.order());
  const auto base = static_cast<graph::EdgeId>(pg_.known().size());
  std::array<TheoryArc, 2> arcs;

  // Which of this model's edges are in the order already.
  ++round_stamp_;
  std::vector<std::size_t> fresh;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    auto it = slot_of_.find(edges[i]);
    if (it == slot_of_.end()) {
      fresh.push_back(i);
    } else {
      slot_seen_[it->second] = round_stamp_;
    }
  }
  auto remove_slot = [&](std::uint32_t slot, std::uint32_t n_arcs) {
    std::uint32_t n = th.arcs(slots_[slot].edge, arcs);
    for (std::uint32_t j = 0; j < std::min(n, n_arcs); ++j)
      dyn_->remove_edge(arcs[j].from, arcs[j].to, base + slot);
    slot_of_.erase(slots_[slot]);
    slot_seen_[slot] = 0;
    free_slots_.push_back(slot);
  };
  for (std::uint32_t slot = 0; slot < slots_.size(); ++slot)
    if (slot_seen_[slot] != 0 && slot_seen_[slot] != round_stamp_) remove_slot(slot, 2);

  auto dep_of = [&](graph::EdgeId id) {
    return id < base ? pg_.known()[id] : slots_[id - base].edge;
  };
  std::size_t found = 0;
  for (std::size_t i : fresh) {
    if (found >= options_.cycles_per_round) break;
    std::uint32_t slot;
    if (free_slots_.empty()) {
      slot = static_cast<std::uint32_t>(slots_.size());
      slots_.push_back(edges[i]);
      slot_seen_.push_back(0);
    } else {
      slot = free_slots_.back();
      free_slots_.pop_back();
      slots_[slot] = edges[i];
    }
    slot_seen_[slot] = round_stamp_;
    slot_of_.emplace(edges[i], slot);
    std::uint32_t n = th.arcs(edges[i].edge, arcs);
    for (std::uint32_t j = 0; j < n; ++j) {
      auto path = dyn_->add_edge(arcs[j].from, arcs[j].to, base + slot);
      if (!path) continue;
      std::vector<Lit> clause;
      std::vector<DepEdge> cycle{edges[i].edge};
      auto take = [&](const CondEdge& e) {
        for (std::uint8_t q = 0; q < e.n; ++q)
          if (std::find(clause.begin(), clause.end(), ~e.lits[q]) == clause.end())
            clause.push_back(~e.lits[q]);
      };
      take(edges[i]);
      for (graph::EdgeId id : *path) {
        if (id >= base) take(slots_[id - base]);
        cycle.push_back(dep_of(id));
      }
      solver_.add_clause(clause);
      ++stats_.cycle_clauses;
      ++found;
      if (shortest.empty() || cycle.size() < shortest.size()) shortest = std::move(cycle);
      remove_slot(slot, j);  // refused: undo the arcs it already added
      break;
    }
  }
  if (found > 0) return found;

  // Acyclic: a commit order is the dynamic order.
  order = commit_order([&](graph::Node nd) { return dyn_->position(nd); });
  return 0;
}

// --- eager acyclicity --------------------------------------------------------
//
// The theory graph is acyclic iff its nodes have a total order that every arc
// follows. One variable per pair of nodes says which comes first, with
// transitivity clauses over every triple (so no cyclic assignment survives);
// every possible edge implies its arcs' order under the literals it exists
// by. The variable of positions p < q in the known graph's topological order
// means "p first", so the default polarity starts from that order. Cubic in
// the nodes: for the small graphs of synthesis, where the single solver call
// beats the model-by-model loop.

Lit Encoder::before(graph::Node u, graph::Node v) const {
  std::uint32_t p = rank_[u], q = rank_[v];
  const auto n = static_cast<std::uint32_t>(rank_.size());
  auto var = [&](std::uint32_t a, std::uint32_t b) {  // a < b
    return ord_base_ + a * n - a * (a + 1) / 2 + (b - a - 1);
  };
  return p < q ? Lit::pos(var(p, q)) : Lit::neg(var(q, p));
}

void Encoder::require(const CondEdge& e) {
  std::array<TheoryArc, 2> arcs;
  std::uint32_t n = pg_.theory().arcs(e.edge, arcs);
  std::vector<Lit> clause;
  for (std::uint32_t j = 0; j < n; ++j) {
    clause.clear();
    for (std::uint8_t q = 0; q < e.n; ++q) clause.push_back(~e.lits[q]);
    // A self-loop cannot follow any order: the edge must not exist.
    if (arcs[j].from != arcs[j].to) clause.push_back(before(arcs[j].from, arcs[j].to));
    solver_.add_clause(clause);
    ++clauses_;
  }
}

void Encoder::encode_eager() {
  const History& h = pg_.history();
  const auto n = pg_.theory().num_nodes();
  rank_.assign(n, 0);
  for (std::uint32_t i = 0; i < pg_.order().size(); ++i) rank_[pg_.order()[i]] = i;
  if (n >= 2) ord_base_ = solver_.new_vars(n * (n - 1) / 2);
  // Transitivity: for positions p < q < r, no p->q->r->p and no p->r->q->p.
  std::vector<graph::Node> at(pg_.order().begin(), pg_.order().end());
  for (std::uint32_t p = 0; p < n; ++p)
    for (std::uint32_t q = p + 1; q < n; ++q)
      for (std::uint32_t r = q + 1; r < n; ++r) {
        Lit pq = before(at[p], at[q]), qr = before(at[q], at[r]), pr = before(at[p], at[r]);
        solver_.add_clause({~pq, ~qr, pr});
        solver_.add_clause({pq, qr, ~pr});
        clauses_ += 2;
      }

  for (const DepEdge& e : pg_.known()) require(CondEdge{e});
  for (const DepEdge& e : pg_.conditional()) {
    CondEdge c{e};
    add_commit_condition(c, e.from);
    add_commit_condition(c, e.to);
    require(c);
  }
  // Write-write: each open pair, both ways.
  const auto& pairs = pg_.pairs();
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (pair_var_[p] == kNoVar) continue;
    for (auto [x, y] : {std::pair{pairs[p].a, pairs[p].b}, std::pair{pairs[p].b, pairs[p].a}}) {
      CondEdge c{{x, y, Dep::WW, pairs[p].key}};
      c.add(pair_lit(p, x));
      add_commit_condition(c, x);
      add_commit_condition(c, y);
      require(c);
    }
  }
  // Write-read choices, and every read's anti-dependencies: a read of w
  // precedes each other writer that w precedes. (Lazy solving derives them to
  // the next version only; with transitive write-write orders the two graphs
  // have the same cycles.)
  struct Read {
    TxnId reader, writer;
    std::optional<Lit> lit;
  };
  std::vector<std::vector<Read>> reads_of(h.keys().size());
  const auto& choices = pg_.choices();
  for (std::size_t c = 0; c < choices.size(); ++c) {
    if (choice_var_[c] == kNoVar) continue;
    const WrChoice& ch = choices[c];
    for (std::size_t i = 0; i < ch.cands.size(); ++i) {
      Lit r = Lit::pos(choice_var_[c] + static_cast<std::uint32_t>(i));
      CondEdge e{{ch.cands[i], ch.reader, Dep::WR, ch.key}};
      e.add(r);  // the choice requires both to commit (encode())
      require(e);
      reads_of[ch.key].push_back({ch.reader, ch.cands[i], r});
    }
  }
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    for (TxnId s : pg_.known_readers(k, kInitTxn)) reads_of[k].push_back({s, kInitTxn, {}});
    for (TxnId w : pg_.writers(k))
      for (TxnId s : pg_.known_readers(k, w)) reads_of[k].push_back({s, w, {}});
    for (const Read& rd : reads_of[k])
      for (TxnId w2 : pg_.writers(k)) {
        if (w2 == rd.writer || w2 == rd.reader) continue;
        CondEdge e{{rd.reader, w2, Dep::RW, k}};
        if (rd.lit) e.add(*rd.lit);
        if (rd.writer != kInitTxn) {
          auto p = *pg_.pair_index(k, rd.writer, w2);
          if (pair_var_[p] != kNoVar) {
            e.add(pair_lit(p, rd.writer));
          } else if ((pairs[p].state > 0) != (pairs[p].a == rd.writer)) {
            continue;  // w2 is known to precede the version read
          }
        }
        add_commit_condition(e, rd.reader);
        add_commit_condition(e, w2);
        require(e);
      }
  }
  stats_.vars = solver_.num_vars();
  stats_.clauses = clauses_;
}

sat::Result Encoder::solve_round(Clock::time_point start) {
  if (options_.timeout_seconds > 0) {
    double left = options_.timeout_seconds - seconds_since(start);
    if (left <= 0) return sat::Result::Unknown;
    solver_.set_max_seconds(left);
  }
  ++stats_.rounds;
  return solver_.solve();
}

SolveOutcome Encoder::solve_eager(Clock::time_point start) {
  SolveOutcome out;
  sat::Result r = solve_round(start);
  if (r == sat::Result::Unknown) return out;
  if (r == sat::Result::Unsat) {
    out.verdict = Verdict::Violated;
    return out;
  }
  // A commit order: by the number of nodes the model puts before each.
  const auto n = pg_.theory().num_nodes();
  out.commit_order = commit_order([&](graph::Node nd) {
    std::uint32_t before_count = 0;
    for (graph::Node m = 0; m < n; ++m)
      if (m != nd && solver_.model_value(before(m, nd))) ++before_count;
    return before_count;
  });
  out.verdict = Verdict::Allowed;
  return out;
}

SolveOutcome Encoder::solve(Clock::time_point start) {
  SolveOutcome out;
  std::vector<DepEdge> shortest;
  auto last_progress = start;
  for (;;) {
    sat::Result r = solve_round(start);
    if (r == sat::Result::Unknown) return out;
    if (r == sat::Result::Unsat) {
      out.verdict = Verdict::Violated;
      for (const TwoWidth& tw : two_width_) {
        auto c = rebuild(tw);
        if (!c.empty() && (shortest.empty() || c.size() < shortest.size())) shortest = c;
      }
      out.cycle = std::move(shortest);
      return out;
    }
    std::vector<TxnId> order;
    std::size_t found = check_model(shortest, order);
    if (found == 0) {
      out.verdict = Verdict::Allowed;
      out.commit_order = std::move(order);
      return out;
    }
    if (options_.progress && seconds_since(start) > 1.0 && seconds_since(last_progress) >= 1.0) {
      last_progress = Clock::now();
      options_.progress(fmt::format("round {}: {} cycle clauses so far, {:.1f} s", stats_.rounds,
                                    stats_.cycle_clauses, seconds_since(start)));
    }
  }
}

}  // namespace

void require_eager_size(std::uint32_t nodes) {
  // Beyond this many theory nodes the eager encoding's clauses (a third of
  // the cube, twice) no longer fit comfortably in memory.
  constexpr std::uint32_t kEagerLimit = 256;
  if (nodes > kEagerLimit)
    throw std::invalid_argument(fmt::format(
        "eager acyclicity is cubic in the graph's nodes and allows at most {}; this graph has {} "
        "(use lazy)", kEagerLimit, nodes));
}

SolveOutcome solve_polygraph(Polygraph& pg, const std::vector<TxnId>& forced_aborts,
                             const CheckOptions& options, CheckStats& stats,
                             Clock::time_point start) {
  const auto nodes = pg.theory().num_nodes();
  bool eager = options.acyclicity == Acyclicity::Eager ||
               (options.acyclicity == Acyclicity::Auto && nodes <= options.eager_max_nodes);
  stats.eager = eager;
  if (eager) require_eager_size(nodes);
  if (eager) {
    Encoder enc(pg, options, stats);
    auto t0 = Clock::now();
    enc.encode(forced_aborts, false);
    enc.encode_eager();
    stats.seconds.encode = seconds_since(t0);
    auto t1 = Clock::now();
    SolveOutcome out = enc.solve_eager(start);
    stats.seconds.solve = seconds_since(t1);
    if (out.verdict != Verdict::Violated || !options.explain) return out;
  }
  // Lazy solving; after an eager violation, to find a cycle explaining it.
  CheckStats lazy_stats;
  CheckStats& st = eager ? lazy_stats : stats;
  Encoder enc(pg, options, st);
  auto t0 = Clock::now();
  enc.encode(forced_aborts, options.two_width);
  double encode_seconds = seconds_since(t0);
  auto t1 = Clock::now();
  SolveOutcome out = enc.solve(start);
  double solve_seconds = seconds_since(t1);
  if (eager) {
    stats.seconds.explain = encode_seconds + solve_seconds;
    if (out.verdict == Verdict::Allowed)
      throw std::logic_error("eager and lazy acyclicity disagree on a history");
    out.verdict = Verdict::Violated;  // a timeout while explaining keeps the verdict
  } else {
    stats.seconds.encode = encode_seconds;
    stats.seconds.solve = solve_seconds;
  }
  return out;
}

}  // namespace iso::poly
