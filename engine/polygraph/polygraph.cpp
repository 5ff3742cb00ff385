// The hyper-polygraph of a history (polygraph.hpp): its construction (session
// order, write-write pairs, write-read choices, known version orders) and its
// 1-width pruning to a fixpoint.
#include "engine/polygraph/polygraph.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "engine/util/budget.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly {

namespace {
const std::vector<TxnId> kNone;
}

Polygraph::Polygraph(const History& h, const AbstractHistory& a, GraphLevel level,
                     RealTimeEdges real_time)
    : h_(h), a_(a), real_time_(real_time),
      theory_(level, static_cast<std::uint32_t>(h.num_txns())),
      unknown_(h.num_txns(), false), writers_(h.keys().size()),
      pair_base_(h.keys().size(), 0) {
  const std::size_t n = h.num_txns();
  for (TxnId t = 1; t < n; ++t)
    unknown_[t] = a.member[t] && h.txn(t).status == TxnStatus::Unknown;

  // Session order: consecutive committed members are known; an unknown one
  // is linked to its committed neighbours and to the unknown ones up to the
  // next committed member, conditionally.
  for (SessionId s = 0; s < a.so.num_sessions(); ++s) {
    TxnId prev_committed = kNoTxn;
    std::vector<TxnId> pending_unknown;  // since prev_committed
    for (TxnId t : a.so.session(s)) {
      if (unknown_[t]) {
        if (prev_committed != kNoTxn) conditional_.push_back({{prev_committed, t, Dep::SO, 0}});
        for (TxnId u : pending_unknown) conditional_.push_back({{u, t, Dep::SO, 0}});
        pending_unknown.push_back(t);
        continue;
      }
      if (prev_committed != kNoTxn) add_known({prev_committed, t, Dep::SO, 0}, {});
      for (TxnId u : pending_unknown) conditional_.push_back({{u, t, Dep::SO, 0}});
      pending_unknown.clear();
      prev_committed = t;
    }
  }

  add_write_write();
  add_write_read();
  add_known_orders();
  commit_implications_ = a.commit_implications;
  for (TxnId t : a.forced_commits)
    if (unknown_[t]) forced_commits_.push_back(t);
}

// Writers per key (T0 apart: it is first in every version order), and their
// version order: a read-modify-write chain is the order itself; otherwise T0
// before every writer, and a pair constraint for every two other writers.
void Polygraph::add_write_write() {
  const AbstractHistory& a = a_;
  for (TxnId t : a.txns) {
    if (t == kInitTxn) continue;
    for (const FinalWrite& w : a.abs[t].writes) writers_[w.key].push_back(t);
  }
  std::vector<bool> listed(writers_.size(), false);  // keys with a known order from list reads
  for (const KnownOrder& ko : a.known_orders) listed[ko.key] = true;
  // Keys whose version order is a chain (read-modify-write or real time):
  // found first, so that the pairs of the others can be reserved at once.
  std::vector<bool> by_time(writers_.size(), false);
  for (KeyId k = 0; k < writers_.size() && !lost_update_; ++k) {
    if (writers_[k].size() < 2 || listed[k]) continue;
    auto chain = rmw_chain(k, lost_update_);
    if (!chain && !lost_update_ && (chain = time_chain(k))) by_time[k] = true;
    if (chain) chains_.emplace(k, std::move(*chain));
  }
  if (!lost_update_) {
    // Reserved at its final size: a large history has hundreds of millions
    // of pairs, and a doubling vector would hold one and a half copies.
    std::size_t total = 0;
    for (KeyId k = 0; k < writers_.size(); ++k)
      if (writers_[k].size() >= 2 && !chains_.contains(k))
        total += writers_[k].size() * (writers_[k].size() - 1) / 2;
    pairs_.reserve(total);
  }
  for (KeyId k = 0; k < writers_.size(); ++k) {
    const auto& ws = writers_[k];
    pair_base_[k] = pairs_.size();
    if (auto chain = chains_.find(k); chain != chains_.end()) {
      const EdgeWhy why{by_time[k] ? EdgeWhy::Kind::RealTime : EdgeWhy::Kind::ReadModifyWrite, 0};
      TxnId prev = kInitTxn;
      for (TxnId w : chain->second) {
        fix_ww(prev, w, k, why);
        prev = w;
      }
      continue;
    }
    for (TxnId w : ws) {
      if (!a.writes(kInitTxn, k)) break;  // no initial version of k to overwrite (not even an unborn one)
      // A guarded write needs no edge from T0, which no edge enters: the
      // anti-dependencies of T0's readers are the encoder's, conditional.
      if (a.guard_of(w, k) != kNoGuard) continue;
      if (unknown_[w]) {
        conditional_.push_back({{kInitTxn, w, Dep::WW, k}});
      } else {
        ww_succ_[key_txn(k, kInitTxn)].push_back(w);
        add_known({kInitTxn, w, Dep::WW, k}, {EdgeWhy::Kind::Initial, 0});
      }
    }
    if (lost_update_) continue;  // the verdict is known: no pairs needed
    // The pairs of a key are contiguous, in the order pair_at() computes.
    for (std::size_t i = 0; i < ws.size(); ++i) {
      budget::poll();
      writer_pos_.emplace(key_txn(k, ws[i]), static_cast<std::uint32_t>(i));
      for (std::size_t j = i + 1; j < ws.size(); ++j)
        pairs_.push_back(WwPair{std::min(ws[i], ws[j]), std::max(ws[i], ws[j]), k, 0});
    }
  }
}

// Write-read: one candidate -> known; several -> a choice.
void Polygraph::add_write_read() {
  const AbstractHistory& a = a_;
  for (TxnId t : a.txns) {
    const auto& reads = a.abs[t].reads;
    for (std::size_t i = 0; i < reads.size(); ++i) {
      const auto& cands = a.candidates[t][i];
      if (cands.empty()) continue;  // an unjustified read: reported before
      bool certain = cands.size() == 1 && !unknown_[t] && !uncertain(cands[0], reads[i].key);
      if (certain) {
        fix_wr(cands[0], t, reads[i].key, {});
      } else {
        choices_.push_back(
            WrChoice{t, reads[i].key, reads[i].op, std::vector<TxnId>(cands.begin(), cands.end()), false});
      }
    }
  }
}

// Known version orders (list-append reads; engine/history/known_order.hpp):
// the writers of a chain are ordered, and every other writer of the key
// comes after its last one. An order with an unknown-status writer holds
// if that writer committed (a conditional edge).
// An order revealed by an unknown-status reader holds if it committed.
void Polygraph::add_known_orders() {
  const AbstractHistory& a = a_;
  auto order = [&](TxnId x, TxnId y, KeyId k, TxnId condition, std::uint32_t source) {
    if (x == y) return;
    if (unknown_[x] || unknown_[y] || condition != kNoTxn) {
      conditional_.push_back({{x, y, Dep::WW, k}, condition});
      return;
    }
    auto p = pair_index(k, x, y);
    if (!p) return;
    if (pairs_[*p].state == 0) fix_ww(x, y, k, {EdgeWhy::Kind::ListOrder, source});
  };
  for (std::uint32_t o = 0; o < a.known_orders.size(); ++o) {
    const KnownOrder& ko = a.known_orders[o];
    const KeyId k = ko.key;
    for (std::size_t i = 0; i + 1 < ko.chain.size(); ++i)
      order(ko.chain[i], ko.chain[i + 1], k, ko.condition, o);
    for (TxnId w : writers_[k])
      if (!ko.places(w)) order(ko.chain.back(), w, k, ko.condition, o);
  }
}

// Under SER and SI a transaction t that reads x from w and then writes x
// comes right after w in x's version order: a writer u of x in between
// would close t -rw(x)-> u -ww(x)-> t (t read a version u overwrote, and u's
// write precedes t's), a lost update both levels forbid. So when every
// committed writer of x does that, each reading one writer (or T0's
// initial version) with no other candidate, and no two the same one, the
// writers form chains from the versions they read; if that is one chain
// from T0 through all of them, it is x's version order in every acyclic
// compatible graph, and no pair of writers is left to choose. (A chain
// that does not start at T0 or misses a writer is left to the
// general case; two readers of one version are a lost update, reported
// as such.) TPC-C's hot rows are such keys: every write is an increment.
std::optional<std::vector<TxnId>> Polygraph::rmw_chain(KeyId k, std::optional<LostUpdate>& lost) const {
  std::unordered_map<TxnId, TxnId> next;  // the version read -> the writer that read it
  bool all = a_.writes(kInitTxn, k);  // every writer a read-modify-write of one version
  for (TxnId w : writers_[k]) {
    const auto& reads = a_.abs[w].reads;
    TxnId read_from = kNoTxn;
    bool rmw = !uncertain(w, k);
    for (std::size_t i = 0; i < reads.size() && rmw; ++i) {
      if (reads[i].key != k) continue;
      const auto& cands = a_.candidates[w][i];
      rmw = read_from == kNoTxn && cands.size() == 1 && cands[0] != w && !uncertain(cands[0], k);
      if (rmw) read_from = cands[0];
    }
    if (!rmw || read_from == kNoTxn) {
      all = false;
      continue;
    }
    if (auto [it, fresh] = next.emplace(read_from, w); !fresh) {
      lost = LostUpdate{it->second, w, k};
      return std::nullopt;
    }
  }
  if (!all) return std::nullopt;
  std::vector<TxnId> chain;
  for (auto it = next.find(kInitTxn); it != next.end(); it = next.find(chain.back())) {
    chain.push_back(it->second);
    if (chain.size() > writers_[k].size()) return std::nullopt;
  }
  if (chain.size() != writers_[k].size()) return std::nullopt;
  return chain;
}

const std::vector<TxnId>& Polygraph::ww_successors(KeyId k, TxnId w) const {
  auto it = ww_succ_.find(key_txn(k, w));
  return it == ww_succ_.end() ? kNone : it->second;
}

const std::vector<TxnId>& Polygraph::known_readers(KeyId k, TxnId w) const {
  auto it = readers_.find(key_txn(k, w));
  return it == readers_.end() ? kNone : it->second;
}

std::optional<std::size_t> Polygraph::pair_index(KeyId k, TxnId a, TxnId b) const {
  if (a == b) return std::nullopt;
  auto i = writer_pos_.find(key_txn(k, a));
  auto j = writer_pos_.find(key_txn(k, b));
  if (i == writer_pos_.end() || j == writer_pos_.end()) return std::nullopt;
  return pair_at(k, i->second, j->second);
}

void Polygraph::add_known(const DepEdge& e, EdgeWhy why) {
  if (e.from == e.to) return;
  if (unknown_[e.from] || unknown_[e.to]) {
    conditional_.push_back({e});
    return;
  }
  known_.push_back(e);
  why_kind_.push_back(why.kind);
  if (why.kind == EdgeWhy::Kind::ListOrder || why.kind == EdgeWhy::Kind::Pruned)
    if (why_refs_.empty() || why_refs_.back().second != why.ref)
      why_refs_.emplace_back(known_.size() - 1, why.ref);
}

EdgeWhy Polygraph::known_why(std::size_t id) const {
  EdgeWhy why{why_kind_.at(id), 0};
  if (why.kind == EdgeWhy::Kind::ListOrder || why.kind == EdgeWhy::Kind::Pruned) {
    // The last run that starts at or before id.
    auto run = std::upper_bound(why_refs_.begin(), why_refs_.end(), id,
                                [](std::size_t i, const auto& r) { return i < r.first; });
    why.ref = std::prev(run)->second;
  }
  return why;
}

void Polygraph::fix_ww(TxnId from, TxnId to, KeyId k, EdgeWhy why) {
  if (auto p = pair_index(k, from, to)) {
    WwPair& pair = pairs_[*p];
    pair.state = pair.a == from ? 1 : -1;
  }
  add_known({from, to, Dep::WW, k}, why);
  ww_succ_[key_txn(k, from)].push_back(to);
  for (TxnId s : known_readers(k, from))
    if (s != to) add_known({s, to, Dep::RW, k}, {EdgeWhy::Kind::Derived, 0});
}

void Polygraph::fix_wr(TxnId writer, TxnId reader, KeyId k, EdgeWhy why) {
  add_known({writer, reader, Dep::WR, k}, why);
  readers_[key_txn(k, writer)].push_back(reader);
  for (TxnId w : ww_successors(k, writer))
    if (w != reader) add_known({reader, w, Dep::RW, k}, {EdgeWhy::Kind::Derived, 0});
}

std::optional<std::size_t> Polygraph::known_id(const DepEdge& e) const {
  for (std::size_t i = 0; i < known_.size(); ++i)
    if (known_[i] == e) return i;
  return std::nullopt;
}

std::optional<std::vector<DepEdge>> Polygraph::path_before(graph::Node from, graph::Node to,
                                                           std::size_t bound) const {
  if (from == to) return std::vector<DepEdge>{};
  auto path = graph::cheapest_path(graph_, from, to, [&](graph::EdgeId id) {
    return id < bound ? std::uint32_t{1} : graph::kSkipEdge;
  });
  if (!path) return std::nullopt;
  return to_deps(*path);
}

std::vector<DepEdge> Polygraph::alternative_cycle(std::size_t id) const {
  const DepEdge& e = known_[id];
  const std::size_t bound = known_why(id).ref;
  // The edges the alternative implies, from the facts known before `e`.
  std::vector<std::vector<DepEdge>> alternatives;
  auto wr_sources = [&](TxnId writer, KeyId k) {  // known readers of writer's k, before e
    std::vector<TxnId> out;
    for (std::size_t i = 0; i < id; ++i)
      if (known_[i].type == Dep::WR && known_[i].from == writer && known_[i].key == k)
        out.push_back(known_[i].to);
    return out;
  };
  auto ww_successors_before = [&](TxnId writer, KeyId k) {
    std::vector<TxnId> out;
    for (std::size_t i = 0; i < id; ++i)
      if (known_[i].type == Dep::WW && known_[i].from == writer && known_[i].key == k)
        out.push_back(known_[i].to);
    return out;
  };
  if (e.type == Dep::WW) {
    std::vector<DepEdge> alt{{e.to, e.from, Dep::WW, e.key}};
    for (TxnId s : wr_sources(e.to, e.key))
      if (s != e.from) alt.push_back({s, e.from, Dep::RW, e.key});
    alternatives.push_back(std::move(alt));
  } else if (e.type == Dep::WR) {
    const auto& reads = a_.abs[e.to].reads;
    for (std::size_t i = 0; i < reads.size(); ++i) {
      if (reads[i].key != e.key) continue;
      for (TxnId w : a_.candidates[e.to][i]) {
        if (w == e.from || uncertain(w, e.key)) continue;
        std::vector<DepEdge> alt{{w, e.to, Dep::WR, e.key}};
        for (TxnId x : ww_successors_before(w, e.key))
          if (x != e.to) alt.push_back({e.to, x, Dep::RW, e.key});
        alternatives.push_back(std::move(alt));
      }
    }
  }
  std::vector<DepEdge> best;
  std::array<TheoryArc, 2> arcs;
  for (const auto& alt : alternatives)
    for (const DepEdge& x : alt) {
      std::uint32_t n = theory_.arcs(x, arcs);
      for (std::uint32_t j = 0; j < n; ++j) {
        auto path = path_before(arcs[j].to, arcs[j].from, bound);
        if (!path) continue;
        std::vector<DepEdge> cycle{x};
        cycle.insert(cycle.end(), path->begin(), path->end());
        if (best.empty() || cycle.size() < best.size()) best = std::move(cycle);
      }
    }
  return best;
}

void Polygraph::rebuild_graph() {
  graph_ = graph::Digraph(theory_.num_nodes());
  std::array<TheoryArc, 2> arcs;
  {
    std::vector<std::size_t> out(theory_.num_nodes(), 0);
    for (const DepEdge& e : known_) {
      const std::uint32_t n = theory_.arcs(e, arcs);
      for (std::uint32_t j = 0; j < n; ++j) ++out[arcs[j].from];
    }
    for (graph::Node u = 0; u < out.size(); ++u) graph_.reserve(u, out[u]);
  }
  for (std::size_t i = 0; i < known_.size(); ++i) {
    std::uint32_t n = theory_.arcs(known_[i], arcs);
    for (std::uint32_t j = 0; j < n; ++j)
      graph_.add_edge(arcs[j].from, arcs[j].to, static_cast<graph::EdgeId>(i));
  }
}

bool Polygraph::closes_cycle(const DepEdge& e) const {
  if (e.from == e.to) return true;
  std::array<TheoryArc, 2> arcs;
  std::uint32_t n = theory_.arcs(e, arcs);
  for (std::uint32_t j = 0; j < n; ++j)
    if (reach_.reaches_or_same(arcs[j].to, arcs[j].from)) return true;
  return false;
}

void Polygraph::implied_by_ww(TxnId from, TxnId to, KeyId k, std::vector<DepEdge>& out) const {
  out.assign(1, DepEdge{from, to, Dep::WW, k});
  // Case III of Fig. 8: the anti-dependencies the order derives.
  for (TxnId s : known_readers(k, from))
    if (s != to) out.push_back({s, to, Dep::RW, k});
}

void Polygraph::implied_by_wr(TxnId writer, TxnId reader, KeyId k,
                              std::vector<DepEdge>& out) const {
  out.assign(1, DepEdge{writer, reader, Dep::WR, k});
  for (TxnId w : ww_successors(k, writer))
    if (w != reader) out.push_back({reader, w, Dep::RW, k});
}

std::vector<DepEdge> Polygraph::implied_by_ww(TxnId from, TxnId to, KeyId k) const {
  std::vector<DepEdge> out;
  implied_by_ww(from, to, k, out);
  return out;
}

std::vector<DepEdge> Polygraph::implied_by_wr(TxnId writer, TxnId reader, KeyId k) const {
  std::vector<DepEdge> out;
  implied_by_wr(writer, reader, k, out);
  return out;
}

bool Polygraph::infeasible(const std::vector<DepEdge>& implied) const {
  for (const DepEdge& e : implied)
    if (closes_cycle(e)) return true;
  return false;
}

std::vector<DepEdge> Polygraph::shortest_cycle(const std::vector<DepEdge>& implied) const {
  std::vector<DepEdge> best;
  for (const DepEdge& e : implied) {
    auto c = cycle_through(e);
    if (!c.empty() && (best.empty() || c.size() < best.size())) best = std::move(c);
  }
  return best;
}

std::vector<DepEdge> Polygraph::to_deps(const std::vector<graph::EdgeId>& ids) const {
  std::vector<DepEdge> out;
  out.reserve(ids.size());
  for (graph::EdgeId id : ids) out.push_back(known_[id]);
  return out;
}

std::vector<DepEdge> Polygraph::cycle_through(const DepEdge& e) const {
  std::array<TheoryArc, 2> arcs;
  std::uint32_t n = theory_.arcs(e, arcs);
  std::vector<DepEdge> best;
  for (std::uint32_t j = 0; j < n; ++j) {
    std::vector<DepEdge> cycle{e};
    if (arcs[j].to != arcs[j].from) {
      auto path = graph::shortest_path(graph_, arcs[j].to, arcs[j].from);
      if (!path) continue;
      for (const DepEdge& d : to_deps(*path)) cycle.push_back(d);
    }
    if (best.empty() || cycle.size() < best.size()) best = std::move(cycle);
  }
  return best;
}

std::optional<PruneViolation> Polygraph::prune(bool enabled, std::size_t& passes, bool chains_always) {
  passes = 0;
  if (lost_update_) {
    // Whichever of the two writes comes first, the other read the version
    // it overwrote.
    const auto [a, b, k] = *lost_update_;
    return PruneViolation{{{a, b, Dep::WW, k}, {b, a, Dep::RW, k}}, {{{b, a, Dep::WW, k}, {a, b, Dep::RW, k}}}};
  }
  std::vector<DepEdge> ab, ba;  // reused: the edges each alternative implies
  std::vector<bool> relayed;
  std::vector<graph::Node> preferred;
  for (;;) {
    ++passes;
    progress_ = {passes, 0, pairs_.size() + choices_.size(), false};
    const EdgeWhy pruned{EdgeWhy::Kind::Pruned, static_cast<std::uint32_t>(known_.size())};
    rebuild_graph();
    if (passes == 1) {
      // Reachability's chains follow the sessions: each transaction prefers
      // its session predecessor (graph::Reachability::Hints).
      relayed = theory_.relayed();
      preferred.assign(theory_.num_nodes(), graph::Reachability::kNoNode);
      std::array<TheoryArc, 2> arcs;
      for (const DepEdge& e : known_)
        if (e.type == Dep::SO && theory_.arcs(e, arcs) > 0) preferred[arcs[0].to] = arcs[0].from;
      prefer_commit_chains(preferred);
    }
    auto order = graph::topological_order(graph_);
    if (!order) return PruneViolation{to_deps(graph::short_cycles(graph_).front()), {}};
    order_ = std::move(*order);
    reach_ = {};  // before the next one is built: never two at once
    reach_ = graph::Reachability(graph_, order_, {&relayed, &preferred, chains_always});
    progress_.examining = true;
    if (!enabled) return std::nullopt;

    bool changed = false;
    if (auto v = prune_pairs(pruned, ab, ba, changed)) return v;
    if (auto v = prune_choices(pruned, ab, changed)) return v;
    if (!changed) return std::nullopt;
  }
}


// One pass over the open write-write pairs, key by key: an order that
// closes a cycle with the known graph is dropped (the other is fixed,
// `changed`); both: a violation. Whether an order closes a cycle depends on
// the reachability of the pass and on the known readers of the first writer
// only, not on the other orders fixed in the pass, so the edges of the
// orders a key's pass fixes are added after it (add_pruned_orders).
std::optional<PruneViolation> Polygraph::prune_pairs(const EdgeWhy& pruned, std::vector<DepEdge>& ab,
                                                     std::vector<DepEdge>& ba, bool& changed) {
  // The orders of the key fixed in this pass: (first, second) as indices
  // into its writers.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> fixed;
  std::vector<const std::vector<TxnId>*> readers;  // per writer of the key
  // Would "from before to" close a cycle: its write-write edge, or the
  // anti-dependency of a known reader of `from` (Fig. 8, case III)?
  auto closes = [&](TxnId from, TxnId to, KeyId k, const std::vector<TxnId>& from_readers) {
    if (closes_cycle({from, to, Dep::WW, k})) return true;
    for (TxnId s : from_readers)
      if (s != to && closes_cycle({s, to, Dep::RW, k})) return true;
    return false;
  };
  for (KeyId k = 0; k < writers_.size(); ++k) {
    const auto& ws = writers_[k];
    const std::size_t end = k + 1 < writers_.size() ? pair_base_[k + 1] : pairs_.size();
    if (pair_base_[k] == end) continue;
    fixed.clear();
    readers.clear();
    for (TxnId w : ws) readers.push_back(&known_readers(k, w));
    for (std::size_t i = 0, p = pair_base_[k]; i < ws.size(); ++i)
      for (std::size_t j = i + 1; j < ws.size(); ++j, ++p) {
        WwPair& q = pairs_[p];
        ++progress_.done;
        budget::poll();
        if (q.state != 0 || unknown_[q.a] || unknown_[q.b]) continue;
        // q.a is the smaller id; ws[i], ws[j] are in writer order.
        const bool a_is_i = q.a == ws[i];
        const auto& ra = *readers[a_is_i ? i : j];
        const auto& rb = *readers[a_is_i ? j : i];
        bool bad_ab = closes(q.a, q.b, k, ra), bad_ba = closes(q.b, q.a, k, rb);
        if (a_.guard_of(q.a, k) != kNoGuard || a_.guard_of(q.b, k) != kNoGuard) {
          // A guarded write may not exist: if both do, their order is the
          // one that closes no cycle (its edges stay conditional on the
          // truths, not in the known graph); if neither order can, they do
          // not both exist.
          if (bad_ab && bad_ba) q.state = WwPair::kNotBoth;
          else if (bad_ab) q.state = -1;
          else if (bad_ba) q.state = 1;
          continue;
        }
        if (bad_ab && bad_ba) {
          add_pruned_orders(k, fixed, pruned);
          implied_by_ww(q.a, q.b, k, ab);
          implied_by_ww(q.b, q.a, k, ba);
          auto c1 = shortest_cycle(ab), c2 = shortest_cycle(ba);
          if (c2.size() < c1.size()) std::swap(c1, c2);
          return PruneViolation{std::move(c1), {std::move(c2)}};
        }
        if (bad_ab || bad_ba) {
          q.state = bad_ab ? -1 : 1;
          const bool i_first = (q.state > 0) == a_is_i;
          fixed.emplace_back(static_cast<std::uint32_t>(i_first ? i : j),
                             static_cast<std::uint32_t>(i_first ? j : i));
          changed = true;
        }
      }
    add_pruned_orders(k, fixed, pruned);
  }
  return std::nullopt;
}

// The edges of the orders `fixed` (pairs of k, their state set) into the
// known graph, closest writers first. An order a→b needs no edge when a
// known write-write successor c of a is known to precede b: a→c is an edge,
// every reader of a has its anti-dependency to c (or is c), and c reaches b
// by write-write edges (by induction over this rule), so a and its readers
// reach b without the edges. Reachability, hence every later cycle and
// verdict, is that of the graph with all the edges, in the SI graph too:
// a reader r then reaches b's copy b⁰ instead of b¹, and b⁰ has every arc
// out of b¹. A key whose order is total gets about one write-write edge per
// writer and one anti-dependency per read (to the next version), where
// every pair and every later writer would be quadratic.
void Polygraph::add_pruned_orders(KeyId k, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& fixed,
                                  const EdgeWhy& why) {
  if (fixed.empty()) return;
  const auto& ws = writers_[k];
  // Is the x-th writer known to precede the y-th (indices into ws)?
  auto before = [&](std::uint32_t x, std::uint32_t y) {
    const WwPair& q = pairs_[pair_at(k, x, y)];
    return (q.state == 1 || q.state == -1) && (q.state > 0) == (q.a == ws[x]);
  };
  // How many writers each writer is known to precede: closer writers (by
  // that count) first, so that the successors that imply an order come
  // before it.
  std::vector<std::uint32_t> wins(ws.size(), 0);
  if (fixed.size() > 1)
    for (std::uint32_t i = 0; i < ws.size(); ++i)
      for (std::uint32_t j = i + 1; j < ws.size(); ++j) {
        const WwPair& q = pairs_[pair_at(k, i, j)];
        if (q.state == 1 || q.state == -1) ++wins[before(i, j) ? i : j];
      }
  std::vector<std::pair<std::int64_t, std::size_t>> todo;  // (gap, index into fixed)
  todo.reserve(fixed.size());
  for (std::size_t f = 0; f < fixed.size(); ++f)
    todo.emplace_back(std::int64_t{wins[fixed[f].first]} - std::int64_t{wins[fixed[f].second]}, f);
  std::sort(todo.begin(), todo.end());
  // The known write-write successors of each writer (with an edge), as
  // indices into ws.
  std::vector<std::vector<std::uint32_t>> succ(ws.size());
  for (std::uint32_t i = 0; i < ws.size(); ++i)
    for (TxnId c : ww_successors(k, ws[i])) succ[i].push_back(writer_pos_.at(key_txn(k, c)));
  // Whether a known successor c of `from` (an edge) is known to precede `to`.
  auto implied = [&](std::uint32_t from, std::uint32_t to) {
    for (std::uint32_t c : succ[from]) {
      if (c == to) return true;
      if (!uncertain(ws[c], k) && before(c, to)) return true;
    }
    return false;
  };
  for (const auto& [gap, f] : todo) {
    const auto [from, to] = fixed[f];
    if (implied(from, to)) continue;
    fix_ww(ws[from], ws[to], k, why);
    succ[from].push_back(to);
  }
}

// One pass over the open reads: a candidate whose read closes a cycle with
// the known graph is dropped (`changed`), a read left with one committed
// candidate is fixed; none left: a violation.
std::optional<PruneViolation> Polygraph::prune_choices(const EdgeWhy& pruned,
                                                       std::vector<DepEdge>& ab, bool& changed) {
  for (WrChoice& c : choices_) {
    ++progress_.done;
    budget::poll();
    if (c.fixed || unknown_[c.reader]) continue;
    std::vector<TxnId> alive;
    for (TxnId w : c.cands) {
      // A guarded write read is one that exists: its edges are as
      // certain as a certain write's.
      const bool maybe = unknown_[w];
      if (!maybe) implied_by_wr(w, c.reader, c.key, ab);
      if (maybe || !infeasible(ab)) alive.push_back(w);
    }
    if (alive.empty()) {
      std::vector<std::vector<DepEdge>> cycles;
      for (TxnId w : c.cands) cycles.push_back(shortest_cycle(implied_by_wr(w, c.reader, c.key)));
      std::sort(cycles.begin(), cycles.end(),
                [](const auto& x, const auto& y) { return x.size() < y.size(); });
      PruneViolation v{std::move(cycles.front()), {}};
      v.others.assign(std::make_move_iterator(cycles.begin() + 1),
                      std::make_move_iterator(cycles.end()));
      return v;
    }
    if (alive.size() != c.cands.size()) {
      changed = true;
      c.cands = std::move(alive);
    }
    if (c.cands.size() == 1 && !unknown_[c.cands[0]]) {
      fix_wr(c.cands[0], c.reader, c.key, pruned);
      c.fixed = true;
      changed = true;
    }
  }
  return std::nullopt;
}

}  // namespace iso::poly
