// Clauses and explanations (step 4 of saturation_impl.hpp); the contract is
// in saturation_explain.hpp.
#include <algorithm>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/history/printer.hpp"
#include "engine/polygraph/explain.hpp"
#include "engine/polygraph/saturation_explain.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly::saturation {

Visibility CycleExplainer::visibility(const Edge& sat) const {
  const auto& reads = choices_.reads();
  const TxnId t2 = sat.from, t3 = reads[sat.read].txn;
  Visibility v;
  // RC: only an earlier read of t3 makes t2 visible (saturation_graph.cpp).
  const bool rc = level_ == GraphLevel::Rc;
  if (!rc && h_.txn(t2).session == h_.txn(t3).session && graph_.pos(t2) < graph_.pos(t3)) return v;
  for (std::uint32_t r = choices_.read_begin(t3); r < choices_.read_end(t3); ++r)
    if (model_.chosen[r] == t2 && (!rc || reads[r].op < reads[sat.read].op)) {
      v.how = Visibility::How::ReadFrom;
      v.read = r;
      return v;
    }
  v.how = Visibility::How::Path;
  v.path = cheapest_path(t2, t3);
  return v;
}

// A path of so/wr edges with the fewest edges that depend on a choice.
std::vector<std::uint32_t> CycleExplainer::cheapest_path(TxnId from, TxnId to) const {
  std::vector<Lit> lits;
  auto cost = [&](graph::EdgeId e) -> std::uint32_t {
    if (e >= graph_.base_edges()) return graph::kSkipEdge;  // saturation edges are not visibility
    lits.clear();
    edge_lits(e, lits);
    return lits.empty() ? 0 : 1;
  };
  auto path = graph::cheapest_path(graph_.graph(), from, to, cost);
  if (!path) return {};  // not reached: HB says otherwise
  return {path->begin(), path->end()};
}

void CycleExplainer::commit_lit(TxnId t, std::vector<Lit>& out) const {
  if (choices_.commit_var(t) != kNone) out.push_back(Lit::pos(choices_.commit_var(t)));
}

void CycleExplainer::choice_lit(std::uint32_t read, std::vector<Lit>& out) const {
  // A choice implies that its reader and writer committed (clauses).
  if (choices_.reads()[read].var != kNone)
    out.push_back(choices_.cand_lit(read, model_.chosen_i[read]));
}

void CycleExplainer::edge_lits(std::uint32_t id, std::vector<Lit>& out) const {
  const Edge& e = graph_.edge(id);
  switch (e.kind) {
    case Kind::So:
      // None needed: so holds between any two members, and a cycle does
      // not need a pass-through member of a session (without it, so links
      // its neighbours); every other edge at a member implies its commit.
      return;
    case Kind::Wr:
      choice_lit(e.read, out);
      return;
    case Kind::Vo:  // the order holds between any two members, if its reader committed
      commit_lit(e.from, out);
      commit_lit(e.to, out);
      if (a_.known_orders[e.read].condition != kNoTxn)
        commit_lit(a_.known_orders[e.read].condition, out);
      return;
    case Kind::Sat: {
      choice_lit(e.read, out);  // wr(t1, x, t3)
      commit_lit(e.from, out);  // t2 ∈ Wr(x)
      Visibility v = visibility(e);
      switch (v.how) {
        case Visibility::How::Session:  // so(t2, t3): both members, as said
          break;
        case Visibility::How::ReadFrom:
          choice_lit(v.read, out);
          break;
        case Visibility::How::Path:
          for (std::uint32_t p : v.path) edge_lits(p, out);
          break;
      }
      return;
    }
  }
}

std::vector<Lit> CycleExplainer::blocking_clause(const std::vector<std::uint32_t>& cycle) const {
  std::vector<Lit> lits;
  for (std::uint32_t id : cycle) edge_lits(id, lits);
  std::sort(lits.begin(), lits.end(), [](Lit x, Lit y) { return x.x < y.x; });
  lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
  for (Lit& l : lits) l = ~l;
  return lits;
}

DepEdge CycleExplainer::dep(std::uint32_t id) const {
  const Edge& e = graph_.edge(id);
  switch (e.kind) {
    case Kind::So: return DepEdge{e.from, e.to, Dep::SO, 0};
    case Kind::Wr: return DepEdge{e.from, e.to, Dep::WR, e.key};
    case Kind::Sat:
    case Kind::Vo: break;
  }
  return DepEdge{e.from, e.to, Dep::WW, e.key};
}

// Why saturation edge e holds (t1 = e.to's write read by t3 and t2 = e.from
// visible to t3); the read and what makes t2 visible go to a.context.
std::string CycleExplainer::explain_sat_edge(const Edge& e, Anomaly& a) const {
  auto add_context = [&](const DepEdge& d) {
    if (std::find(a.context.begin(), a.context.end(), d) == a.context.end() &&
        std::find(a.cycle.begin(), a.cycle.end(), d) == a.cycle.end())
      a.context.push_back(d);
  };
  const auto& reads = choices_.reads();
  const Read& rd = reads[e.read];
  const DepEdge read{e.to, rd.txn, Dep::WR, e.key};
  add_context(read);
  Visibility v = visibility(e);
  std::string seen;
  switch (v.how) {
    case Visibility::How::Session:
      seen = fmt::format("precedes {} in its session", h_.txn_name(rd.txn));
      add_context(DepEdge{e.from, rd.txn, Dep::SO, 0});
      break;
    case Visibility::How::ReadFrom:
      seen = fmt::format("{} reads {} from it", h_.txn_name(rd.txn),
                         h_.key_text(reads[v.read].key));
      add_context(DepEdge{e.from, rd.txn, Dep::WR, reads[v.read].key});
      break;
    case Visibility::How::Path: {
      const auto path = deps(v.path);
      seen = fmt::format("happens before {} ({})", h_.txn_name(rd.txn), format_cycle(h_, path));
      for (const DepEdge& p : path) add_context(p);
      break;
    }
  }
  return fmt::format("{}'s version of {} must precede {}'s: {}, and {} wrote {} and {}",
                     h_.txn_name(e.from), h_.key_text(e.key), h_.txn_name(e.to),
                     edge_fact(h_, read), h_.txn_name(e.from), h_.key_text(e.key), seen);
}

// What each edge of the cycle rests on (a.why, in the order of deps(ids)),
// and the reads that force its saturation edges (a.context).
void CycleExplainer::explain_edges(const std::vector<std::uint32_t>& ids, Anomaly& a) const {
  std::size_t at = 0;  // index into a.cycle
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const Edge& e = graph_.edge(ids[i]);
    if (e.kind == Kind::So && i > 0 && graph_.edge(ids[i - 1]).kind == Kind::So) continue;  // merged
    const DepEdge& d = a.cycle[at++];
    std::string why = edge_fact(h_, d);
    switch (e.kind) {
      case Kind::So:
        break;
      case Kind::Wr:
        if (choices_.reads()[e.read].var != kNone)
          why += ": one of the writers of that value; every choice of writers has a cycle";
        break;
      case Kind::Vo:
        why = fmt::format("{}'s version precedes {}'s: {}", h_.txn_name(e.from), h_.txn_name(e.to),
                          list_order_text(h_, a_.known_orders[e.read], d));
        break;
      case Kind::Sat:
        why = explain_sat_edge(e, a);
        break;
    }
    a.why.push_back(std::move(why));
  }
}

std::vector<DepEdge> CycleExplainer::deps(const std::vector<std::uint32_t>& ids) const {
  std::vector<DepEdge> out;
  for (std::uint32_t id : ids) {
    DepEdge d = dep(id);
    if (d.type == Dep::SO && !out.empty() && out.back().type == Dep::SO)
      out.back().to = d.to;
    else
      out.push_back(d);
  }
  return out;
}

// The edge a cycle's description names: the saturation edge whose t2 is
// visible to its reader t3 in the most telling way (a path over a read over
// session order), else the first wr or Vo edge (rank 0).
std::pair<std::size_t, int> CycleExplainer::described_edge(
    const std::vector<std::uint32_t>& ids) const {
  auto rank = [&](std::uint32_t id) {
    const Edge& e = graph_.edge(id);
    if (e.kind == Kind::So) return -1;
    if (e.kind != Kind::Sat) return 0;
    switch (visibility(e).how) {
      case Visibility::How::Session: return 1;
      case Visibility::How::ReadFrom: return 2;
      case Visibility::How::Path: return 3;
    }
    return 0;
  };
  std::size_t best = 0;
  int best_rank = -2;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    int r = rank(ids[i]);
    if (r > best_rank) {
      best_rank = r;
      best = i;
    }
  }
  return {best, best_rank};
}

// Names the cycle of the model. Only so and wr: the causal order itself is
// cyclic (G1c, with session order). Otherwise by how the described
// saturation edge's t2 is visible to its reader t3: through a path of
// several so/wr edges, a causality violation (CC only); read from directly,
// a fractured read (a non-repeatable read when t3 read the same key from
// it); an earlier transaction of t3's session, a missed session
// write. The cycle is rotated to start at the described edge.
Anomaly CycleExplainer::anomaly(const std::vector<std::uint32_t>& cycle_ids) const {
  std::vector<std::uint32_t> ids = cycle_ids;
  const auto [best, best_rank] = described_edge(ids);
  Anomaly a;
  // Start at the described edge (a wr edge for G1c: never inside a run of so).
  std::rotate(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(best), ids.end());
  a.cycle = deps(ids);
  for (const DepEdge& e : a.cycle) a.txns.push_back(e.from);
  explain_edges(ids, a);
  if (best_rank == 0)
    name_so_wr_cycle(ids, a);
  else
    name_saturation_cycle(ids, a);
  return a;
}

// Only so, wr and known version orders: G1c with a read-from, G0 without.
void CycleExplainer::name_so_wr_cycle(const std::vector<std::uint32_t>& ids, Anomaly& a) const {
  bool wr = false, vo = false;
  for (std::uint32_t id : ids) {
    wr = wr || graph_.edge(id).kind == Kind::Wr;
    vo = vo || graph_.edge(id).kind == Kind::Vo;
  }
  a.name = wr ? "G1c" : "G0";
  a.description = fmt::format("{}: {} cyclic", format_cycle(h_, a.cycle),
                              vo ? (wr ? "session order, read-from and the known version orders are"
                                       : "session order and the known version orders are")
                                 : "session order and read-from are");
}

// Named by the saturation edge ids.front() (t2, t1) of t3's read of x.
void CycleExplainer::name_saturation_cycle(const std::vector<std::uint32_t>& ids,
                                           Anomaly& a) const {
  const auto& reads = choices_.reads();
  for (std::uint32_t id : ids) {
    const Edge& e = graph_.edge(id);
    TxnId t3 = e.kind == Kind::Sat ? reads[e.read].txn : kNoTxn;
    if (t3 != kNoTxn && std::find(a.txns.begin(), a.txns.end(), t3) == a.txns.end())
      a.txns.push_back(t3);
  }
  const Edge& e = graph_.edge(ids.front());
  const std::string t1 = h_.txn_name(e.to), t2 = h_.txn_name(e.from);
  const std::string t3 = h_.txn_name(reads[e.read].txn), x = h_.key_text(e.key);
  Visibility v = visibility(e);
  std::string why;
  switch (v.how) {
    case Visibility::How::Session:
      a.name = "missed session write";
      why = fmt::format("{} precedes it in its session", t2);
      break;
    case Visibility::How::ReadFrom:
      // Reading x itself from t2 as well: one transaction sees two versions
      // of x (Adya's fuzzy read).
      // Under RC the earlier read came first in program order: the reads
      // went back in x's version order (Plume's non-monotonic read).
      if (reads[v.read].key == e.key)
        a.name = "non-repeatable read";
      else
        a.name = level_ == GraphLevel::Rc ? "non-monotonic read" : "fractured read";
      why = fmt::format("it {}reads {} from {}{}", reads[v.read].key == e.key ? "also " : "",
                        h_.key_text(reads[v.read].key), t2,
                        level_ == GraphLevel::Rc ? " before" : "");
      break;
    case Visibility::How::Path: {
      a.name = "causality violation";
      why = fmt::format("{} happens before it ({})", t2, format_cycle(h_, deps(v.path)));
      break;
    }
  }
  a.description = fmt::format(
      "{} reads {} from {}, but {} and {} wrote {}, so {}'s write must precede {}'s: {}", t3, x,
      t1, why, t2, x, t2, t1, format_cycle(h_, a.cycle));
}

}  // namespace iso::poly::saturation
