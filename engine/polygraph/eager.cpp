// Eager acyclicity (DESIGN §4.4). The theory graph is acyclic iff its nodes
// have a total order that every arc follows. One variable per pair of nodes
// says which comes first, with transitivity clauses over every triple (so no
// cyclic assignment survives); every possible edge implies its arcs' order
// under the literals it exists by. The variable of positions p < q in the
// known graph's topological order means "p first", so the default polarity
// starts from that order. Cubic in the nodes: for the small graphs of
// synthesis, where the single solver call beats the model-by-model loop.
#include <optional>
#include <unordered_map>

#include "engine/polygraph/encoder.hpp"
#include "engine/util/budget.hpp"

namespace iso::poly {

namespace {

using sat::Lit;

class EagerOrder {
 public:
  explicit EagerOrder(Encoder& enc) : enc_(enc), pg_(enc.polygraph()) {}
  void encode();

 private:
  // encode()'s steps, in the order their clauses are made.
  void transitivity();
  void known_and_conditional_edges();
  void write_write_edges();
  struct Read {  // a read of `writer`'s version, by a choice (lit) or known
    TxnId reader, writer;
    std::optional<Lit> lit;
  };
  std::vector<std::vector<Read>> write_read_edges();
  void anti_dependency_edges(KeyId k, std::vector<Read>& reads);
  // "u precedes v" in the order, for two distinct theory nodes.
  Lit before(graph::Node u, graph::Node v) const;
  // The clause "if the edge's conditions hold, its arcs follow the order".
  void require(const CondEdge& e);

  Encoder& enc_;
  const Polygraph& pg_;
  // Node -> position in the known graph's topological order, and the first
  // order variable (one per pair of positions p < q, triangular).
  std::vector<std::uint32_t> rank_;
  std::uint32_t base_ = 0;
};

Lit EagerOrder::before(graph::Node u, graph::Node v) const {
  std::uint32_t p = rank_[u], q = rank_[v];
  const auto n = static_cast<std::uint32_t>(rank_.size());
  auto var = [&](std::uint32_t a, std::uint32_t b) {  // a < b
    return base_ + a * n - a * (a + 1) / 2 + (b - a - 1);
  };
  return p < q ? Lit::pos(var(p, q)) : Lit::neg(var(q, p));
}

void EagerOrder::require(const CondEdge& e) {
  std::array<TheoryArc, 2> arcs;
  std::uint32_t n = pg_.theory().arcs(e.edge, arcs);
  std::vector<Lit> clause;
  for (std::uint32_t j = 0; j < n; ++j) {
    clause.clear();
    for (std::uint8_t q = 0; q < e.n; ++q) clause.push_back(~e.lits[q]);
    // A self-loop cannot follow any order: the edge must not exist.
    if (arcs[j].from != arcs[j].to) clause.push_back(before(arcs[j].from, arcs[j].to));
    enc_.solver().add_clause(clause);
  }
}

void EagerOrder::encode() {
  sat::Solver& solver = enc_.solver();
  const auto n = pg_.theory().num_nodes();
  rank_.assign(n, 0);
  for (std::uint32_t i = 0; i < pg_.order().size(); ++i) rank_[pg_.order()[i]] = i;
  if (n >= 2) base_ = solver.new_vars(n * (n - 1) / 2);
  transitivity();
  known_and_conditional_edges();
  write_write_edges();
  std::vector<std::vector<Read>> reads_of = write_read_edges();
  for (KeyId k = 0; k < pg_.history().keys().size(); ++k) anti_dependency_edges(k, reads_of[k]);
  enc_.stats().vars = solver.num_vars();
  enc_.stats().clauses = solver.stats().clauses;
}

void EagerOrder::transitivity() {
  sat::Solver& solver = enc_.solver();
  const auto n = pg_.theory().num_nodes();
  // Transitivity: for positions p < q < r, no p->q->r->p and no p->r->q->p.
  std::vector<graph::Node> at(pg_.order().begin(), pg_.order().end());
  for (std::uint32_t p = 0; p < n; ++p)
    for (std::uint32_t q = p + 1; q < n; ++q) {
      budget::poll();
      for (std::uint32_t r = q + 1; r < n; ++r) {
        Lit pq = before(at[p], at[q]), qr = before(at[q], at[r]), pr = before(at[p], at[r]);
        solver.add_clause({~pq, ~qr, pr});
        solver.add_clause({pq, qr, ~pr});
      }
    }
}

void EagerOrder::known_and_conditional_edges() {
  for (const DepEdge& e : pg_.known()) require(CondEdge{e});
  for (const auto& [e, also] : pg_.conditional()) {
    CondEdge c{e};
    enc_.add_commit_condition(c, e.from);
    enc_.add_commit_condition(c, e.to);
    if (also != kNoTxn) enc_.add_commit_condition(c, also);
    require(c);
  }
}

// Write-write: each open pair, both ways; a pair with a guarded write whose
// order pruning fixed, that way, if both writes exist.
void EagerOrder::write_write_edges() {
  const auto& pairs = pg_.pairs();
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const WwPair& pr = pairs[p];
    if (!enc_.has_pair_var(p) && (pr.state == 1 || pr.state == -1) &&
        (pg_.abstract().guard_of(pr.a, pr.key) != kNoGuard || pg_.abstract().guard_of(pr.b, pr.key) != kNoGuard)) {
      const TxnId from = pr.state > 0 ? pr.a : pr.b, to = pr.state > 0 ? pr.b : pr.a;
      CondEdge c{{from, to, Dep::WW, pr.key}};
      enc_.add_write_condition(c, from, pr.key);
      enc_.add_write_condition(c, to, pr.key);
      require(c);
      continue;
    }
    if (!enc_.has_pair_var(p)) continue;
    for (auto [x, y] : {std::pair{pairs[p].a, pairs[p].b}, std::pair{pairs[p].b, pairs[p].a}}) {
      CondEdge c{{x, y, Dep::WW, pairs[p].key}};
      c.add(enc_.pair_lit(p, x));
      enc_.add_write_condition(c, x, pairs[p].key);
      enc_.add_write_condition(c, y, pairs[p].key);
      require(c);
    }
  }
}

// Write-read choices; per key, the reads each choice makes.
std::vector<std::vector<EagerOrder::Read>> EagerOrder::write_read_edges() {
  std::vector<std::vector<Read>> reads_of(pg_.history().keys().size());
  const auto& choices = pg_.choices();
  for (std::size_t c = 0; c < choices.size(); ++c) {
    if (!enc_.has_choice_var(c)) continue;
    const WrChoice& ch = choices[c];
    for (std::size_t i = 0; i < ch.cands.size(); ++i) {
      Lit r = enc_.choice_lit(c, i);
      CondEdge e{{ch.cands[i], ch.reader, Dep::WR, ch.key}};
      e.add(r);  // the choice requires both to commit (Encoder::encode())
      require(e);
      reads_of[ch.key].push_back({ch.reader, ch.cands[i], r});
    }
  }
  return reads_of;
}

// Every read's anti-dependencies on key k: a read of w precedes each other
// writer that w precedes. (Lazy solving derives them to the next version
// only; with transitive write-write orders the two graphs have the same
// cycles.) `reads`: the choices' reads of k, to which the known ones are
// added.
void EagerOrder::anti_dependency_edges(KeyId k, std::vector<Read>& reads) {
  const auto& pairs = pg_.pairs();
  for (TxnId s : pg_.known_readers(k, kInitTxn)) reads.push_back({s, kInitTxn, {}});
  for (TxnId w : pg_.writers(k))
    for (TxnId s : pg_.known_readers(k, w)) reads.push_back({s, w, {}});
  // A read-modify-write chain's order is known: a read of a version
  // precedes the writers after it.
  const std::vector<TxnId>* chain = pg_.chain(k);
  std::unordered_map<TxnId, std::size_t> place;  // 1-based; T0's version is 0
  for (std::size_t i = 0; chain && i < chain->size(); ++i) place.emplace((*chain)[i], i + 1);
  for (const Read& rd : reads)
    for (TxnId w2 : pg_.writers(k)) {
      if (w2 == rd.writer || w2 == rd.reader) continue;
      CondEdge e{{rd.reader, w2, Dep::RW, k}};
      if (rd.lit) e.add(*rd.lit);
      if (chain) {
        if (place.at(w2) < (rd.writer == kInitTxn ? 0 : place.at(rd.writer))) continue;
      } else if (rd.writer != kInitTxn) {
        auto p = *pg_.pair_index(k, rd.writer, w2);
        if (enc_.has_pair_var(p)) {
          e.add(enc_.pair_lit(p, rd.writer));
        } else if ((pairs[p].state > 0) != (pairs[p].a == rd.writer)) {
          continue;  // w2 is known to precede the version read
        }
      }
      enc_.add_commit_condition(e, rd.reader);
      enc_.add_write_condition(e, w2, k);
      require(e);
    }
}

}  // namespace

SolveOutcome solve_eager(Encoder& enc) {
  SolveOutcome out;
  auto t0 = Clock::now();
  EagerOrder(enc).encode();
  enc.stats().seconds.encode += seconds_since(t0);
  auto t1 = Clock::now();
  ++enc.stats().rounds;
  sat::Result r = enc.solver().solve();
  enc.stats().seconds.solve += seconds_since(t1);
  if (r == sat::Result::Unknown) return out;
  if (r == sat::Result::Unsat) {
    out.verdict = Verdict::Violated;
    return out;
  }
  out.verdict = Verdict::Allowed;
  fill_execution(enc, enc.model_edges(), out);
  return out;
}

}  // namespace iso::poly
