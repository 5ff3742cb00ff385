// The graph of a model (step 3 of saturation_impl.hpp).
#include <algorithm>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/history/printer.hpp"
#include "engine/polygraph/explain.hpp"
#include "engine/polygraph/saturation_impl.hpp"
#include "engine/util/budget.hpp"

namespace iso::poly::saturation {

void Saturation::build_sessions() {
  const auto& sessions = h_.sessions();
  sbase_.assign(sessions.size() + 1, 0);
  smem_.clear();
  pos_.assign(n_, kNone);
  midx_.assign(n_, kNone);
  midx_[kInitTxn] = 0;
  for (std::size_t s = 0; s < sessions.size(); ++s) {
    sbase_[s] = static_cast<std::uint32_t>(smem_.size());
    for (TxnId t : sessions[s]) {
      if (!member_[t]) continue;
      pos_[t] = static_cast<std::uint32_t>(smem_.size()) - sbase_[s];
      midx_[t] = static_cast<std::uint32_t>(smem_.size()) + 1;
      smem_.push_back(t);
    }
  }
  sbase_[sessions.size()] = static_cast<std::uint32_t>(smem_.size());
  members_ = smem_.size() + 1;
}

void Saturation::add_base_edges() {
  edges_.clear();
  for (std::size_t s = 0; s + 1 < sbase_.size(); ++s) {
    TxnId prev = kInitTxn;
    for (std::uint32_t i = sbase_[s]; i < sbase_[s + 1]; ++i) {
      edges_.push_back(Edge{prev, smem_[i], Kind::So, 0, kNone});
      prev = smem_[i];
    }
  }
  for (std::uint32_t r = 0; r < reads_.size(); ++r)
    if (chosen_[r] != kNoTxn)
      edges_.push_back(Edge{chosen_[r], reads_[r].txn, Kind::Wr, reads_[r].key, r});
  base_edges_ = edges_.size();
}

void Saturation::build_writers() {
  const std::size_t keys = h_.keys().size();
  // Counting sort by key of the members' final writes, visited in (session,
  // position) order, which each key's range then keeps.
  std::vector<std::uint32_t> start(keys + 1, 0);
  auto writer = [&](TxnId t) { return !(known_model_ && unknown(t)); };
  for (TxnId t : smem_)
    if (writer(t))
      for (const FinalWrite& w : a_.abs[t].writes) ++start[w.key + 1];
  for (std::size_t k = 0; k < keys; ++k) start[k + 1] += start[k];
  wentries_.assign(start[keys], WriterEntry{});
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (std::size_t s = 0; s + 1 < sbase_.size(); ++s)
    for (std::uint32_t i = sbase_[s]; i < sbase_[s + 1]; ++i) {
      TxnId t = smem_[i];
      if (!writer(t)) continue;
      for (const FinalWrite& w : a_.abs[t].writes)
        wentries_[fill[w.key]++] =
            WriterEntry{static_cast<SessionId>(s), i - sbase_[s], t};
    }
  wkey_.assign(keys + 1, 0);
  gstart_.clear();
  for (std::size_t k = 0; k < keys; ++k) {
    wkey_[k] = static_cast<std::uint32_t>(gstart_.size());
    for (std::uint32_t e = start[k]; e < start[k + 1]; ++e)
      if (e == start[k] || wentries_[e].session != wentries_[e - 1].session) gstart_.push_back(e);
  }
  wkey_[keys] = static_cast<std::uint32_t>(gstart_.size());
  gstart_.push_back(start[keys]);
  // Group g ends where group g + 1 starts, also across keys: the entries
  // of consecutive keys are adjacent.
}

void Saturation::build_hb(const std::vector<TxnId>& topo) {
  const std::size_t sessions = sbase_.size() - 1;
  const std::size_t m = members_;
  words_ = (m + 63) / 64;
  const double vc_bytes = 4.0 * static_cast<double>(m) * static_cast<double>(sessions);
  const double bit_bytes = 8.0 * static_cast<double>(m) * static_cast<double>(words_);
  use_vc_ = hb_repr_ == HbRepresentation::VectorClocks ||
            (hb_repr_ == HbRepresentation::Auto && vc_bytes <= bit_bytes);
  stats_.reach_bytes = std::max(stats_.reach_bytes,
                                static_cast<std::size_t>(use_vc_ ? vc_bytes : bit_bytes));
  auto for_each_pred = [&](TxnId t, auto&& f) {
    if (pos_[t] > 0) f(smem_[sbase_[h_.txn(t).session] + pos_[t] - 1]);
    for (std::uint32_t r = read_begin_[t]; r < read_end_[t]; ++r)
      if (chosen_[r] != kInitTxn && chosen_[r] != kNoTxn) f(chosen_[r]);
  };
  if (use_vc_) {
    vc_.assign(m * sessions, 0);
    bits_.clear();
    for (TxnId t : topo) {
      budget::poll();
      if (t == kInitTxn) continue;
      std::uint32_t* row = vc_.data() + midx_[t] * sessions;
      for_each_pred(t, [&](TxnId p) {
        const std::uint32_t* prow = vc_.data() + midx_[p] * sessions;
        for (std::size_t s = 0; s < sessions; ++s) row[s] = std::max(row[s], prow[s]);
      });
      row[h_.txn(t).session] = pos_[t] + 1;
    }
  } else {
    bits_.assign(m * words_, 0);
    vc_.clear();
    for (TxnId t : topo) {
      budget::poll();
      if (t == kInitTxn) continue;
      std::uint64_t* row = bits_.data() + midx_[t] * words_;
      for_each_pred(t, [&](TxnId p) {
        const std::uint64_t* prow = bits_.data() + midx_[p] * words_;
        for (std::size_t w = 0; w < words_; ++w) row[w] |= prow[w];
        row[midx_[p] / 64] |= std::uint64_t{1} << (midx_[p] % 64);
      });
    }
  }
}

// How many members of session s happen before t3 (they are a prefix of s).
std::uint32_t Saturation::visible_prefix(TxnId t3, SessionId s) const {
  if (s == h_.txn(t3).session) return pos_[t3];
  const std::size_t sessions = sbase_.size() - 1;
  if (use_vc_) return vc_[midx_[t3] * sessions + s];
  const std::uint64_t* row = bits_.data() + midx_[t3] * words_;
  std::uint32_t lo = 0, hi = sbase_[s + 1] - sbase_[s];
  while (lo < hi) {  // the first position whose member is not before t3
    std::uint32_t mid = lo + (hi - lo) / 2;
    std::uint32_t bit = sbase_[s] + mid + 1;
    if ((row[bit / 64] >> (bit % 64)) & 1u)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// The saturation edge (t2, t1) for the last writer t2 of the group's session
// at a position below `limit`, unless t2 = t1.
void Saturation::add_last_writer_before(std::uint32_t group, std::uint32_t limit, TxnId t1,
                                        std::uint32_t read) {
  auto first = wentries_.begin() + gstart_[group];
  auto last = wentries_.begin() + gstart_[group + 1];
  auto it = std::lower_bound(first, last, limit,
                             [](const WriterEntry& e, std::uint32_t p) { return e.pos < p; });
  if (it == first) return;
  TxnId t2 = std::prev(it)->txn;
  if (t2 != t1) edges_.push_back(Edge{t2, t1, Kind::Sat, reads_[read].key, read});
}

void Saturation::add_saturation_edges() {
  for (TxnId t3 : smem_) {
    budget::poll();
    const SessionId own = h_.txn(t3).session;
    for (std::uint32_t r = read_begin_[t3]; r < read_end_[t3]; ++r) {
      const KeyId x = reads_[r].key;
      const TxnId t1 = chosen_[r];
      if (t1 == kNoTxn) continue;  // an open read of a partial model
      if (level_ == GraphLevel::Rc) {
        // RC: every writer of x that an earlier read of t3 (in program
        // order) returned. Writers of later reads are not visible to this
        // one, and session order plays no part.
        for (std::uint32_t r2 = read_begin_[t3]; r2 < read_end_[t3]; ++r2) {
          const TxnId t2 = chosen_[r2];
          if (reads_[r2].op < reads_[r].op && t2 != kInitTxn && t2 != kNoTxn && t2 != t1 &&
              a_.writes(t2, x))
            edges_.push_back(Edge{t2, t1, Kind::Sat, x, r});
        }
        continue;
      }
      if (level_ == GraphLevel::Cc) {
        // Every session: its last writer of x that happens before t3.
        for (std::uint32_t g = wkey_[x]; g < wkey_[x + 1]; ++g) {
          SessionId s = wentries_[gstart_[g]].session;
          add_last_writer_before(g, visible_prefix(t3, s), t1, r);
        }
        continue;
      }
      // RA: t3's last session predecessor that writes x ...
      auto g0 = gstart_.begin() + wkey_[x], g1 = gstart_.begin() + wkey_[x + 1];
      auto g = std::lower_bound(g0, g1, own, [&](std::uint32_t e, SessionId s) {
        return wentries_[e].session < s;
      });
      if (g != g1 && wentries_[*g].session == own)
        add_last_writer_before(static_cast<std::uint32_t>(g - gstart_.begin()), pos_[t3], t1, r);
      // ... and every transaction t3 reads from that writes x.
      for (std::uint32_t r2 = read_begin_[t3]; r2 < read_end_[t3]; ++r2) {
        const TxnId t2 = chosen_[r2];
        if (t2 != kInitTxn && t2 != kNoTxn && t2 != t1 && a_.writes(t2, x))
          edges_.push_back(Edge{t2, t1, Kind::Sat, x, r});
      }
    }
  }
}

// The known version orders among this model's members: the chain's writers
// in order, then every other writer of the key after the chain's last.
void Saturation::add_known_order_edges() {
  for (std::uint32_t o = 0; o < a_.known_orders.size(); ++o) {
    const KnownOrder& ko = a_.known_orders[o];
    if (ko.condition != kNoTxn && !member_[ko.condition]) continue;  // its reader did not commit
    TxnId last = kNoTxn;
    for (TxnId w : ko.chain) {
      if (!member_[w]) continue;
      if (last != kNoTxn) edges_.push_back(Edge{last, w, Kind::Vo, ko.key, o});
      last = w;
    }
    if (last == kNoTxn) continue;
    for (std::uint32_t e = gstart_[wkey_[ko.key]]; e < gstart_[wkey_[ko.key + 1]]; ++e) {
      const TxnId w = wentries_[e].txn;
      if (!ko.places(w))
        edges_.push_back(Edge{last, w, Kind::Vo, ko.key, o});
    }
  }
}

void Saturation::build_graph(std::size_t m) {
  graph_ = graph::Digraph(static_cast<std::uint32_t>(n_));
  for (std::size_t e = 0; e < m; ++e)
    graph_.add_edge(edges_[e].from, edges_[e].to, static_cast<graph::EdgeId>(e));
}

bool Saturation::topo_sort(std::vector<TxnId>& order) {
  auto all = graph::topological_order(graph_);
  if (!all) return false;
  order.clear();
  for (graph::Node t : *all)  // non-members are isolated nodes: left out
    if (t == kInitTxn || member_[t]) order.push_back(t);
  return true;
}

// Cycles of a cyclic model graph, fewest edges other than session order
// first: a run of so edges is one so edge (so is transitive), and
// explanations show it so.
void Saturation::find_cycles(std::size_t max_cycles,
                             std::vector<std::vector<std::uint32_t>>& cycles) const {
  auto cost = [&](graph::EdgeId e) -> std::uint32_t { return edges_[e].kind == Kind::So ? 0 : 1; };
  for (auto& c : graph::cheap_cycles(graph_, cost, max_cycles, std::max(kCycleSearches, max_cycles)))
    cycles.push_back(std::move(c));
  if (cycles.empty()) throw std::logic_error("saturation: no cycle found in a cyclic graph");
}

bool Saturation::check_model(std::vector<TxnId>& order,
                             std::vector<std::vector<std::uint32_t>>& cycles,
                             std::size_t max_cycles) {
  cycles.clear();
  build_sessions();
  add_base_edges();
  build_graph(edges_.size());
  // so ∪ WR must be acyclic on its own (so ∪ WR ⊆ co); then HB is an order.
  if (!topo_sort(order)) {
    find_cycles(max_cycles, cycles);
    return false;
  }
  build_writers();
  if (level_ == GraphLevel::Cc) build_hb(order);
  add_saturation_edges();
  add_known_order_edges();
  build_graph(edges_.size());
  stats_.known_edges = edges_.size();
  if (topo_sort(order)) return true;
  find_cycles(max_cycles, cycles);
  return false;
}

}  // namespace iso::poly::saturation
