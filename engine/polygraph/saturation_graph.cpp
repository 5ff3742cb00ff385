// The graph of a model (step 3 of saturation_impl.hpp); the contract is in
// saturation_graph.hpp.
#include "engine/polygraph/saturation_graph.hpp"

#include <stdexcept>

#include "engine/util/budget.hpp"

namespace iso::poly::saturation {

ModelGraph::ModelGraph(const History& h, const AbstractHistory& a, const Choices& choices,
                       GraphLevel level, HbRepresentation hb, CheckStats& stats)
    : h_(h),
      a_(a),
      choices_(choices),
      reads_(choices.reads()),
      level_(level),
      hb_repr_(hb),
      stats_(stats),
      n_(h.num_txns()) {
  session_.resize(n_);
  for (TxnId t = 0; t < n_; ++t) session_[t] = h_.txn(t).session;
}

void ModelGraph::build_sessions(const Model& m) {
  // The session order restricted to the model's members.
  const SessionOrder& so = a_.so;
  sbase_.assign(so.num_sessions() + 1, 0);
  smem_.clear();
  pos_.assign(n_, kNone);
  midx_.assign(n_, kNone);
  midx_[kInitTxn] = 0;
  for (SessionId s = 0; s < so.num_sessions(); ++s) {
    sbase_[s] = static_cast<std::uint32_t>(smem_.size());
    for (TxnId t : so.session(s)) {
      if (!m.member[t]) continue;
      pos_[t] = static_cast<std::uint32_t>(smem_.size()) - sbase_[s];
      midx_[t] = static_cast<std::uint32_t>(smem_.size()) + 1;
      smem_.push_back(t);
    }
  }
  sbase_[so.num_sessions()] = static_cast<std::uint32_t>(smem_.size());
  members_ = smem_.size() + 1;
}

void ModelGraph::add_base_edges(const Model& m) {
  edges_.clear();
  for (std::size_t s = 0; s + 1 < sbase_.size(); ++s) {
    TxnId prev = kInitTxn;
    for (std::uint32_t i = sbase_[s]; i < sbase_[s + 1]; ++i) {
      edges_.push_back(Edge{prev, smem_[i], Kind::So, 0, kNone});
      prev = smem_[i];
    }
  }
  for (std::uint32_t r = 0; r < reads_.size(); ++r)
    if (m.chosen[r] != kNoTxn)
      edges_.push_back(Edge{m.chosen[r], reads_[r].txn, Kind::Wr, reads_[r].key, r});
  base_edges_ = edges_.size();
}

void ModelGraph::build_writers(const Model& m) {
  const std::size_t keys = h_.keys().size();
  // Counting sort by key of the members' final writes, visited in (session,
  // position) order, which each key's range then keeps.
  std::vector<std::uint32_t> start(keys + 1, 0);
  auto writer = [&](TxnId t) { return !(m.committed_writers_only && choices_.unknown(t)); };
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
  gsession_.clear();
  for (std::size_t k = 0; k < keys; ++k) {
    wkey_[k] = static_cast<std::uint32_t>(gstart_.size());
    for (std::uint32_t e = start[k]; e < start[k + 1]; ++e)
      if (e == start[k] || wentries_[e].session != wentries_[e - 1].session) {
        gstart_.push_back(e);
        gsession_.push_back(wentries_[e].session);
      }
  }
  wkey_[keys] = static_cast<std::uint32_t>(gstart_.size());
  gstart_.push_back(start[keys]);
  // Group g ends where group g + 1 starts, also across keys: the entries
  // of consecutive keys are adjacent.
}

// Happens-before in topological order: `table` gets a row of `width` entries
// per member; each member's row merges those of its session predecessor and
// of the writers it reads from (merge(row, their row, them)), then `own`
// adds what the member itself contributes.
template <class T, class Merge, class Own>
void ModelGraph::propagate_hb(const Model& m, const std::vector<TxnId>& topo,
                              LargeVector<T>& table, std::size_t width, Merge merge, Own own) {
  table.assign(members_ * width, 0);
  auto row_of = [&](TxnId t) { return table.data() + midx_[t] * width; };
  for (TxnId t : topo) {
    budget::poll();
    if (t == kInitTxn) continue;
    T* row = row_of(t);
    if (pos_[t] > 0) {
      const TxnId p = smem_[sbase_[session_[t]] + pos_[t] - 1];
      merge(row, row_of(p), p);
    }
    for (std::uint32_t q = choices_.read_begin(t); q < choices_.read_end(t); ++q)
      if (m.chosen[q] != kInitTxn && m.chosen[q] != kNoTxn) merge(row, row_of(m.chosen[q]), m.chosen[q]);
    own(row, t);
  }
}

void ModelGraph::build_hb(const Model& m, const std::vector<TxnId>& topo) {
  const std::size_t sessions = sbase_.size() - 1;
  words_ = (members_ + 63) / 64;
  const double vc_bytes = 4.0 * static_cast<double>(members_) * static_cast<double>(sessions);
  const double bit_bytes = 8.0 * static_cast<double>(members_) * static_cast<double>(words_);
  use_vc_ = hb_repr_ == HbRepresentation::VectorClocks ||
            (hb_repr_ == HbRepresentation::Auto && vc_bytes <= bit_bytes);
  stats_.reach_bytes = std::max(stats_.reach_bytes,
                                static_cast<std::size_t>(use_vc_ ? vc_bytes : bit_bytes));
  if (use_vc_) {  // the prefix of each session: the largest of those merged
    bits_.clear();
    propagate_hb(
        m, topo, vc_, sessions,
        [&](std::uint32_t* row, const std::uint32_t* prow, TxnId) {
          for (std::size_t s = 0; s < sessions; ++s) row[s] = std::max(row[s], prow[s]);
        },
        [&](std::uint32_t* row, TxnId t) { row[session_[t]] = pos_[t] + 1; });
    return;
  }
  vc_.clear();  // bitsets: the union of those merged, and each of them
  propagate_hb(
      m, topo, bits_, words_,
      [&](std::uint64_t* row, const std::uint64_t* prow, TxnId p) {
        for (std::size_t w = 0; w < words_; ++w) row[w] |= prow[w];
        row[midx_[p] / 64] |= std::uint64_t{1} << (midx_[p] % 64);
      },
      [](std::uint64_t*, TxnId) {});
}

std::uint32_t ModelGraph::visible_prefix(TxnId t3, SessionId s) const {
  if (s == session_[t3]) return pos_[t3];
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

std::uint32_t ModelGraph::group_of(KeyId x, SessionId s) const {
  auto g0 = gstart_.begin() + wkey_[x], g1 = gstart_.begin() + wkey_[x + 1];
  auto g = std::lower_bound(g0, g1, s, [&](std::uint32_t entry, SessionId session) {
    return wentries_[entry].session < session;
  });
  if (g == g1 || wentries_[*g].session != s) return kNone;
  return static_cast<std::uint32_t>(g - gstart_.begin());
}

void ModelGraph::collect_writer_reads(const Model& m, TxnId t3) {
  writer_reads_.clear();
  for (std::uint32_t r = choices_.read_begin(t3); r < choices_.read_end(t3); ++r)
    if (m.chosen[r] != kNoTxn && m.chosen[r] != kInitTxn)
      writer_reads_.push_back(WriterRead{m.chosen[r], reads_[r].op, r});
  std::sort(writer_reads_.begin(), writer_reads_.end(), [](const WriterRead& x, const WriterRead& y) {
    return x.writer != y.writer ? x.writer < y.writer : x.op < y.op;
  });
}

namespace {

// A transaction's reads, reads[b ..< e], are sorted by key and then in
// program order: f(first, last) for the range of each key.
template <class F>
void for_each_key_range(const std::vector<Read>& reads, std::uint32_t b, std::uint32_t e, F f) {
  for (std::uint32_t i = b; i < e;) {
    std::uint32_t j = i + 1;
    while (j < e && reads[j].key == reads[i].key) ++j;
    f(i, j);
    i = j;
  }
}

}  // namespace

// RC, up to transitivity. An instance of the axiom is a read α of x by t3
// returning t1's write and an earlier read β of t3 returning the write of
// t2 ≠ t1, a writer of x: (t2, t1). Two kinds of instances imply the others:
//  1. consecutive reads of x (program order) returning different writers:
//     the earlier one's writer before the later one's;
//  2. for each writer t2 of t3's reads, at its first read: for each key x
//     that t2 writes, t2 before the writer of the first read of x after it
//     (unless that is t2).
// Given any instance (t2, t1, α), take t2's first read; the first read of x
// after it is at or before α: its writer is t2 or follows t2 (kind 2), and
// the writers of the reads of x from there to α follow one another (kind
// 1), up to t1. Edges from T0 are left out: T0 precedes every member in so.
// Cost: linear in t3's reads, plus for each of their distinct writers a
// search of the smaller of its writes and t3's read keys in the larger,
// instead of every pair of t3's reads.
void ModelGraph::add_rc_edges(const Model& m, TxnId t3) {
  const std::uint32_t b = choices_.read_begin(t3), e = choices_.read_end(t3);
  const auto& chosen = m.chosen;
  // Kind 1. prev: the last read with a writer in this model.
  std::uint32_t prev = kNone;
  for (std::uint32_t r = b; r < e; ++r) {
    if (chosen[r] == kNoTxn) continue;  // an open read of a partial model
    if (prev != kNone && reads_[prev].key == reads_[r].key && chosen[prev] != chosen[r] &&
        chosen[prev] != kInitTxn)
      add_sat_edge(chosen[prev], chosen[r], r);
    prev = r;
  }
  collect_writer_reads(m, t3);
  // Kind 2: t2 before the writer of the first read of x after op, [xb, xe)
  // being the reads of x.
  auto after = [&](TxnId t2, std::uint32_t op, std::uint32_t xb, std::uint32_t xe) {
    for (std::uint32_t r = xb; r < xe; ++r) {
      if (reads_[r].op <= op || chosen[r] == kNoTxn) continue;
      if (chosen[r] != t2) add_sat_edge(t2, chosen[r], r);
      return;
    }
  };
  for (std::size_t i = 0; i < writer_reads_.size(); ++i) {
    const WriterRead& first = writer_reads_[i];
    if (i > 0 && writer_reads_[i - 1].writer == first.writer) continue;  // not its first read
    const auto& writes = a_.abs[first.writer].writes;  // sorted by key
    if (writes.size() <= e - b) {
      for (const FinalWrite& w : writes) {
        auto key_less = [](const Read& rd, KeyId k) { return rd.key < k; };
        const auto xb = static_cast<std::uint32_t>(
            std::lower_bound(reads_.begin() + b, reads_.begin() + e, w.key, key_less) -
            reads_.begin());
        std::uint32_t xe = xb;
        while (xe < e && reads_[xe].key == w.key) ++xe;
        after(first.writer, first.op, xb, xe);
      }
    } else {
      for_each_key_range(reads_, b, e, [&](std::uint32_t xb, std::uint32_t xe) {
        if (a_.writes(first.writer, reads_[xb].key)) after(first.writer, first.op, xb, xe);
      });
    }
  }
}

// RA: for a read of x by t3 from t1, t3's last session predecessor that
// writes x, and every writer of x that t3 reads from (in any order), before
// t1. Both depend on x and t1 only, not on the read: once per key and
// distinct writer of t3's reads of it.
void ModelGraph::add_ra_edges(const Model& m, TxnId t3) {
  const std::uint32_t b = choices_.read_begin(t3), e = choices_.read_end(t3);
  // Edges from t2 to the distinct writers of the reads [xb, xe) of one key.
  auto to_writers = [&](TxnId t2, std::uint32_t xb, std::uint32_t xe) {
    TxnId last = kNoTxn;
    for (std::uint32_t r = xb; r < xe; ++r) {
      const TxnId t1 = m.chosen[r];
      if (t1 == kNoTxn || t1 == last) continue;
      last = t1;
      if (t1 != t2) add_sat_edge(t2, t1, r);
    }
  };
  for_each_key_range(reads_, b, e, [&](std::uint32_t xb, std::uint32_t xe) {
    const std::uint32_t g = group_of(reads_[xb].key, session_[t3]);
    if (g == kNone) return;
    if (const WriterEntry* t2 = last_writer_before(g, pos_[t3])) to_writers(t2->txn, xb, xe);
  });
  collect_writer_reads(m, t3);
  for (std::size_t i = 0; i < writer_reads_.size(); ++i) {
    const TxnId t2 = writer_reads_[i].writer;
    if (i > 0 && writer_reads_[i - 1].writer == t2) continue;
    for_each_key_range(reads_, b, e, [&](std::uint32_t xb, std::uint32_t xe) {
      if (a_.writes(t2, reads_[xb].key)) to_writers(t2, xb, xe);
    });
  }
}

// CC: for a read of x by t3 from t1, every session's last writer of x that
// happens before t3, before t1; once per key and distinct writer. A session
// whose prefix visible to t3 is also visible to t1 gives an implied edge
// (its writer happens before t1), which the vector clocks tell without a
// search: most sessions, when happens-before is dense.
void ModelGraph::add_cc_edges(const Model& m, TxnId t3) {
  const std::uint32_t b = choices_.read_begin(t3), e = choices_.read_end(t3);
  // How many members of s happen before t (visible_prefix(), inlined for
  // vector clocks: a hot key has a group in every session). A vector clock
  // counts t itself in its own session.
  const std::size_t sessions = sbase_.size() - 1;
  auto before = [&](TxnId t, SessionId s) -> std::uint32_t {
    if (t == kInitTxn) return 0;
    if (!use_vc_) return visible_prefix(t, s);
    return vc_[midx_[t] * sessions + s] - (s == session_[t] ? 1 : 0);
  };
  for_each_key_range(reads_, b, e, [&](std::uint32_t xb, std::uint32_t xe) {
    const KeyId x = reads_[xb].key;
    TxnId last = kNoTxn;
    for (std::uint32_t r = xb; r < xe; ++r) {
      const TxnId t1 = m.chosen[r];
      if (t1 == kNoTxn || t1 == last) continue;
      last = t1;
      const SessionId own1 = t1 == kInitTxn ? kNoSession : session_[t1];
      for (std::uint32_t g = wkey_[x]; g < wkey_[x + 1]; ++g) {
        const SessionId s = gsession_[g];
        const std::uint32_t limit = before(t3, s);
        // In t1's own session its position says it, without t1's vector
        // clock (a cache miss): the last writer of x there before t3 is t1
        // when t3 sees the session up to t1.
        if (s == own1 && limit == pos_[t1] + 1) continue;
        const std::uint32_t before_t1 = s == own1 ? pos_[t1] : before(t1, s);
        if (before_t1 >= limit) continue;  // s's writers before t3 happen before t1
        const WriterEntry* t2 = last_writer_before(g, limit);
        if (t2 != nullptr && t2->txn != t1 && t2->pos >= before_t1)
          edges_.push_back(Edge{t2->txn, t1, Kind::Sat, x, r});
      }
    }
  });
}

void ModelGraph::add_saturation_edges(const Model& m, bool compact) {
  for (TxnId t3 : smem_) {
    budget::poll();
    if (!compact) {
      add_every_sat_edge(m, t3);
      continue;
    }
    switch (level_) {
      case GraphLevel::Rc: add_rc_edges(m, t3); break;
      case GraphLevel::Ra: add_ra_edges(m, t3); break;
      default: add_cc_edges(m, t3); break;
    }
  }
}

// Every instance of the axiom for t3's reads (the full graph of a cyclic
// model, whose cycles are the shortest).
void ModelGraph::add_every_sat_edge(const Model& m, TxnId t3) {
  const std::uint32_t b = choices_.read_begin(t3), e = choices_.read_end(t3);
  // (t2, t1) for every writer t2 of x that a read of t3 returned (RC: an
  // earlier read in program order).
  auto from_read_writers = [&](std::uint32_t r, KeyId x, TxnId t1, bool earlier_only) {
    for (std::uint32_t r2 = b; r2 < e; ++r2) {
      const TxnId t2 = m.chosen[r2];
      if ((!earlier_only || reads_[r2].op < reads_[r].op) && t2 != kInitTxn && t2 != kNoTxn &&
          t2 != t1 && a_.writes(t2, x))
        edges_.push_back(Edge{t2, t1, Kind::Sat, x, r});
    }
  };
  for (std::uint32_t r = b; r < e; ++r) {
    const KeyId x = reads_[r].key;
    const TxnId t1 = m.chosen[r];
    if (t1 == kNoTxn) continue;  // an open read of a partial model
    // RC: writers of later reads are not visible to this one, and session
    // order plays no part.
    if (level_ == GraphLevel::Rc) {
      from_read_writers(r, x, t1, true);
      continue;
    }
    // CC: every session's last writer of x that happens before t3. RA: t3's
    // last session predecessor that writes x, and every transaction t3
    // reads from that writes x.
    auto last_writer = [&](std::uint32_t g, std::uint32_t limit) {
      const WriterEntry* t2 = last_writer_before(g, limit);
      if (t2 != nullptr && t2->txn != t1) edges_.push_back(Edge{t2->txn, t1, Kind::Sat, x, r});
    };
    if (level_ == GraphLevel::Cc) {
      for (std::uint32_t g = wkey_[x]; g < wkey_[x + 1]; ++g)
        last_writer(g, visible_prefix(t3, gsession_[g]));
      continue;
    }
    const std::uint32_t g = group_of(x, session_[t3]);
    if (g != kNone) last_writer(g, pos_[t3]);
    from_read_writers(r, x, t1, false);
  }
}

// The known version orders among this model's members: the chain's writers
// in order, then every other writer of the key after the chain's last.
void ModelGraph::add_known_order_edges(const Model& m) {
  for (std::uint32_t o = 0; o < a_.known_orders.size(); ++o) {
    const KnownOrder& ko = a_.known_orders[o];
    if (ko.condition != kNoTxn && !m.member[ko.condition]) continue;  // its reader did not commit
    TxnId last = kNoTxn;
    for (TxnId w : ko.chain) {
      if (!m.member[w]) continue;
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

void ModelGraph::build_graph(std::size_t m) {
  graph_ = graph::Digraph(static_cast<std::uint32_t>(n_));
  for (std::size_t e = 0; e < m; ++e)
    graph_.add_edge(edges_[e].from, edges_[e].to, static_cast<graph::EdgeId>(e));
}

// Kahn's algorithm as graph::topological_order runs it (the same order), on
// a compressed adjacency built from edges_: a model graph of millions of
// nodes needs no vector of arcs per node unless it has a cycle.
bool ModelGraph::acyclic(const Model& model, std::size_t m, std::vector<TxnId>& order) {
  csr_start_.assign(n_ + 1, 0);
  indegree_.assign(n_, 0);
  for (std::size_t e = 0; e < m; ++e) {
    ++csr_start_[edges_[e].from + 1];
    ++indegree_[edges_[e].to];
  }
  for (std::size_t v = 0; v < n_; ++v) csr_start_[v + 1] += csr_start_[v];
  csr_to_.resize(m);
  {
    std::vector<std::uint32_t> fill(csr_start_.begin(), csr_start_.end() - 1);
    for (std::size_t e = 0; e < m; ++e) csr_to_[fill[edges_[e].from]++] = edges_[e].to;
  }
  std::vector<TxnId> all;  // Kahn's queue, then the order
  all.reserve(n_);
  for (TxnId v = 0; v < n_; ++v)
    if (indegree_[v] == 0) all.push_back(v);
  for (std::size_t head = 0; head < all.size(); ++head) {
    budget::poll();
    const TxnId u = all[head];
    for (std::uint32_t i = csr_start_[u]; i < csr_start_[u + 1]; ++i)
      if (--indegree_[csr_to_[i]] == 0) all.push_back(csr_to_[i]);
  }
  if (all.size() != n_) return false;
  order.clear();
  for (TxnId t : all)  // non-members are isolated nodes: left out
    if (t == kInitTxn || model.member[t]) order.push_back(t);
  return true;
}

// Cycles of a cyclic model graph, fewest edges other than session order
// first: a run of so edges is one so edge (so is transitive), and
// explanations show it so. graph_ then holds the first m edges, for the
// explanations.
void ModelGraph::find_cycles(std::size_t m, std::size_t max_cycles,
                             std::vector<std::vector<std::uint32_t>>& cycles) {
  build_graph(m);
  auto cost = [&](graph::EdgeId e) -> std::uint32_t { return edges_[e].kind == Kind::So ? 0 : 1; };
  for (auto& c : graph::cheap_cycles(graph_, cost, max_cycles, std::max(kCycleSearches, max_cycles)))
    cycles.push_back(std::move(c));
  if (cycles.empty()) throw std::logic_error("saturation: no cycle found in a cyclic graph");
}

bool ModelGraph::build_known(const Model& m, std::vector<std::vector<std::uint32_t>>& cycles) {
  std::vector<TxnId> order;
  build_sessions(m);
  add_base_edges(m);
  if (!acyclic(m, edges_.size(), order)) {
    // A cycle of so and fixed wr edges: in every model (members of
    // unknown status in it are passed through by so).
    find_cycles(edges_.size(), 1, cycles);
    return false;
  }
  build_writers(m);
  build_hb(m, order);
  return true;
}

bool ModelGraph::check(const Model& m, std::vector<TxnId>& order,
                       std::vector<std::vector<std::uint32_t>>& cycles, std::size_t max_cycles) {
  cycles.clear();
  build_sessions(m);
  add_base_edges(m);
  // so ∪ WR must be acyclic on its own (so ∪ WR ⊆ co); then HB is an order.
  if (!acyclic(m, edges_.size(), order)) {
    find_cycles(edges_.size(), max_cycles, cycles);
    return false;
  }
  // RC needs the writers of each key only for known version orders, and
  // collecting them is a pass over every final write.
  if (level_ != GraphLevel::Rc || !a_.known_orders.empty()) build_writers(m);
  if (level_ == GraphLevel::Cc) build_hb(m, order);
  // Acyclicity is decided on the compact graph (the saturation edges up to
  // transitivity, without those so or HB implies): it has a cycle exactly
  // when the full one does.
  add_saturation_edges(m, true);
  add_known_order_edges(m);
  stats_.known_edges = edges_.size();
  if (acyclic(m, edges_.size(), order)) return true;
  // Cyclic: the cycles, which become clauses and explanations, are searched
  // among every instance of the axiom, where the shortest ones are (an
  // implied edge stands for a longer path).
  edges_.resize(base_edges_);
  add_saturation_edges(m, false);
  add_known_order_edges(m);
  find_cycles(edges_.size(), max_cycles, cycles);
  return false;
}

}  // namespace iso::poly::saturation
