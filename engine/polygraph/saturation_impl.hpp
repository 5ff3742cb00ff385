// Internals of the saturation checker (saturation.hpp), shared by its stages:
// choices and their encoding (saturation_choices.cpp), the graph of a model
// (saturation_graph.cpp), 1-width pruning (saturation_prune.cpp), clauses
// and explanations (saturation_explain.cpp), and the loop (saturation.cpp).
//
// Outline:
//
//  1. Choices. Unknown-status transactions that cannot have committed (an INT
//     violation, a read nothing justifies, or, transitively, a read whose
//     every candidate writer cannot have committed) are dropped. A read is
//     fixed when its reader and its only candidate are committed; the other
//     reads are open, and so are the other unknown-status transactions.
//  2. Pruning (only with open choices). Candidates that close a cycle with
//     the edges every model has are dropped, which can fix more reads; to a
//     fixpoint. Then one SAT variable per candidate of each open read (exactly
//     one chosen if the reader committed) and one commit variable per
//     unknown-status transaction; the first model is steered to a plausible
//     read-from (choose_preferences()).
//  3. A model (the fixed choices when there are no variables) fixes the
//     members and the read-from. Its graph: session order between consecutive
//     members (T0 before the first member of each session), the wr edges,
//     the known version orders of list-append reads (Vo edges), and, when
//     those are acyclic, the saturation edges; checked by Kahn's algorithm
//     on the compact graph (below), and only when that has a cycle built
//     again with every saturation edge, where the cycles are searched.
//  4. Acyclic: the topological order is a commit order. Cyclic: the
//     cycles with fewest non-so edges (graph::cheap_cycles) become clauses over the literals their
//     edges exist by (the wr choices, the commit choices, and for a
//     saturation edge also the wr choice it comes from and the so/wr path
//     that makes t2 visible to t3). Every model satisfying those literals
//     has those edges, hence the cycle, so a clause removes no solution; it
//     removes the current model, so the loop ends. An unsatisfiable solver
//     means every choice is cyclic.
//
// Saturation edges are generated up to transitivity. For a read of x by t3
// from t1 and a session s, the writers of x in s that C(·, t3) relates form
// a prefix of s (C is closed under so-predecessors: for CC because HB
// contains so and is transitive; for RA only t3's own session has
// so-predecessors, and a wr source is a single transaction), and the last
// of them suffices: the earlier ones reach t1 through so and that edge (or
// through so to t1 itself, when the last is t1). T0 is so-before everything,
// so its edges (T0, t1) need no saturation edge.
//
// The compact graph, which decides acyclicity, leaves out more (the graph
// of millions of transactions is otherwise mostly such edges): per reader,
// once per key and distinct writer read; edges (t2, t1) that so implies,
// and for CC those HB implies (t2 happens before t1: the vector clocks say
// it); for RC, the instances implied by transitivity through the writers of
// the reader's other reads (add_rc_edges()). Its reachability is that of
// the full graph, so it has a cycle exactly when the full graph has. The
// full graph is built only for a cyclic model: its cycles are the shortest
// and name the instances the explanations and clauses are made of.
//
// Cost of one model with n members, S sessions, m so/wr edges, W final
// writes, R external reads, S(x) the sessions holding writers of x:
//  - graph and writer lists: O(n + m + W + K) with K keys;
//  - RC: O(R + Σ_t Σ_{distinct writers w of t} min(W(w), R(t)) log(...))
//    with W(w) the final writes of w and R(t) the reads of t; the full graph
//    (cyclic models) O(Σ_t R(t)² log W);
//  - RA: O(Σ_reads log W + Σ_t D(t) R(t) log W), D(t) the distinct writers
//    t reads from;
//  - CC: happens-before as vector clocks, S entries per member, computed in
//    topological order in O(S (n + m)) time and 4 n S bytes; or as bitsets,
//    n / 64 words per member, O(n (n + m) / 64) time and n² / 8 bytes;
//    whichever is smaller. Then O(Σ_reads S(x)) vector clock look-ups, and a
//    search (log n) only in the sessions whose writers of x before the
//    reader do not all happen before t1;
//  - cycle search, when cyclic: strongly connected components, O(n + e) for
//    e edges in all, then a breadth-first search from each of a bounded
//    number of nodes of the cyclic components, O(n + e) each.
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <vector>

#include "engine/graph/digraph.hpp"
#include "engine/polygraph/saturation.hpp"
#include "engine/sat/solver.hpp"
#include "engine/verdict/graph_level.hpp"

namespace iso::poly::saturation {

using sat::Lit;

// The allocator of a model graph's large arrays (vector clocks, edges): a
// block of 2 MiB or more is aligned to 2 MiB and advised for transparent huge
// pages. The vector clocks of millions of transactions take gigabytes read
// at random (a row per writer read from), where 4 KiB pages cost a TLB miss
// per access and a page fault per 4 KiB on first touch.
template <class T>
struct LargeAllocator {
  using value_type = T;
  static constexpr std::size_t kHuge = std::size_t{2} << 20;
  LargeAllocator() = default;
  template <class U>
  LargeAllocator(const LargeAllocator<U>&) {}  // NOLINT: rebinding, as allocators do
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHuge) return static_cast<T*>(::operator new(bytes));
    const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
    void* p = std::aligned_alloc(kHuge, rounded);
    if (p == nullptr) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: no huge pages is fine
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < kHuge)
      ::operator delete(p);
    else
      std::free(p);
  }
  template <class U>
  bool operator==(const LargeAllocator<U>&) const { return true; }
};

template <class T>
using LargeVector = std::vector<T, LargeAllocator<T>>;

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// Breadth-first searches per cyclic model: enough to find the shortest
// cycle of small graphs and a short one of large graphs.
constexpr std::size_t kCycleSearches = 64;

// What pruning left of a candidate: still possible; closing a cycle with
// the edges every model has; or written by a transaction that cannot have
// committed.
constexpr char kCyclic = 0, kAlive = 1, kDropped = 2;

// An external read of a transaction that may be a member. Its candidate
// writers (those that may have committed) and what pruning left of each are
// Saturation::cands_[first ..< first + count] and alive_[...] (kAlive,
// kCyclic or kDropped): one array for all reads, not two per read, since
// large histories have tens of millions of reads.
struct Read {
  TxnId txn = 0;
  KeyId key = 0;
  std::uint32_t op = 0;       // index of the read in Transaction::ops
  std::uint32_t first = 0;    // of its candidates in cands_ and alive_
  std::uint32_t count = 0;    // candidates
  std::uint32_t var = kNone;  // first of `count` choice variables; kNone: fixed
  TxnId known = kNoTxn;       // the writer in every model the reader is in, if fixed
  std::uint32_t pref = 0;     // the preferred candidate (choose_preferences())
};

enum class Kind : std::uint8_t { So, Wr, Sat, Vo };

// An edge of a model's graph. Wr: `read` is the read it serves. Sat: the
// edge (t2, t1) on `key`, because reads_[read] (by t3, of key) reads from t1
// while C(t2, t3). Vo: the known version order of `key` (a list-append read,
// AbstractHistory::known_orders[read]) puts `from`'s version before `to`'s,
// and co must agree.
struct Edge {
  TxnId from = 0, to = 0;
  Kind kind = Kind::So;
  KeyId key = 0;
  std::uint32_t read = kNone;
};

// Why a saturation edge's C(t2, t3) holds in a model.
struct Visibility {
  enum class How : std::uint8_t { Session, ReadFrom, Path } how = How::Session;
  std::uint32_t read = kNone;       // ReadFrom: t3's read from t2
  std::vector<std::uint32_t> path;  // Path: ids of so/wr edges t2 ->* t3
};

// A final write of a member, in the per-key writer lists.
struct WriterEntry {
  SessionId session = 0;
  std::uint32_t pos = 0;  // among the session's members
  TxnId txn = 0;
};

class Saturation {
 public:
  Saturation(const History& h, const AbstractHistory& a, GraphLevel level, HbRepresentation hb,
             CheckStats& stats)
      : h_(h), a_(a), level_(level), hb_repr_(hb), stats_(stats), n_(h.num_txns()) {}

  // Step 1. A violation when a committed read has no candidate writer that
  // can have committed. Then run() does the rest.
  std::optional<Anomaly> prepare(const std::vector<TxnId>& forced_aborts);
  SaturationOutcome run(const CheckOptions& options);

 private:
  bool unknown(TxnId t) const { return h_.txn(t).status == TxnStatus::Unknown; }
  std::span<const TxnId> cands(const Read& r) const { return {cands_.data() + r.first, r.count}; }
  std::span<char> alive(const Read& r) { return {alive_.data() + r.first, r.count}; }
  std::span<const char> alive(const Read& r) const { return {alive_.data() + r.first, r.count}; }
  void encode();
  std::vector<double> pseudo_times() const;
  void choose_preferences();
  // The literal "read r reads from its i-th candidate".
  Lit cand_lit(std::uint32_t r, std::uint32_t i) const {
    return i == reads_[r].pref ? Lit::neg(reads_[r].var + i) : Lit::pos(reads_[r].var + i);
  }
  void read_model();
  // 1-width pruning; a cycle every model has, if any.
  std::optional<Anomaly> prune(std::size_t& passes);
  bool reaches(TxnId u, TxnId v) const;
  // Whether the edge (t2, t1) follows from session order, which every model
  // graph has: such a saturation edge adds nothing to its reachability.
  // (add_cc_edges() also leaves out those that happens-before implies.)
  bool implied(TxnId t2, TxnId t1) const;
  // Adds the saturation edge (t2, t1) of read r unless it is implied.
  void add_sat_edge(TxnId t2, TxnId t1, std::uint32_t read);
  // A committed read whose candidates were all pruned, explained by the
  // cycle its first candidate closes.
  std::optional<Anomaly> explain_pruned();
  // Why read r (its reader a member) has no candidate left.
  std::optional<Anomaly> explain_read(std::uint32_t r);
  // Step 3 on the current model: true when acyclic, with `order` its
  // topological order; otherwise `cycles` gets up to `max_cycles` cycles
  // (edge ids), shortest first.
  bool check_model(std::vector<TxnId>& order, std::vector<std::vector<std::uint32_t>>& cycles,
                   std::size_t max_cycles);
  void build_sessions();
  void build_writers();
  void add_base_edges();
  // compact: up to transitivity and without implied edges (check_model()).
  void add_saturation_edges(bool compact);
  void add_rc_edges(TxnId t3);
  void add_ra_edges(TxnId t3);
  void add_cc_edges(TxnId t3);
  void add_known_order_edges();
  void build_hb(const std::vector<TxnId>& topo);
  std::uint32_t visible_prefix(TxnId t3, SessionId s) const;
  void add_last_writer_before(std::uint32_t group, std::uint32_t limit, TxnId t1,
                              std::uint32_t read);
  void build_graph(std::size_t m);
  // Kahn's algorithm on the first m edges: true with `order` the members in
  // a topological order; false when they have a cycle, and then graph_
  // holds them, for the cycle search and the explanations.
  bool acyclic(std::size_t m, std::vector<TxnId>& order);
  void find_cycles(std::size_t max_cycles, std::vector<std::vector<std::uint32_t>>& cycles) const;
  Visibility visibility(const Edge& sat) const;
  std::vector<std::uint32_t> cheapest_path(TxnId from, TxnId to) const;
  // The literals an edge of the current model exists by.
  void commit_lit(TxnId t, std::vector<Lit>& out) const;
  void choice_lit(std::uint32_t read, std::vector<Lit>& out) const;
  void edge_lits(std::uint32_t id, std::vector<Lit>& out) const;
  std::vector<Lit> blocking_clause(const std::vector<std::uint32_t>& cycle) const;
  DepEdge dep(std::uint32_t id) const;
  // The edges as dependencies, each run of so edges as one (so is transitive).
  std::vector<DepEdge> deps(const std::vector<std::uint32_t>& ids) const;
  Anomaly anomaly(const std::vector<std::uint32_t>& cycle) const;
  void explain_edges(const std::vector<std::uint32_t>& ids, Anomaly& a) const;

  const History& h_;
  const AbstractHistory& a_;
  GraphLevel level_;
  HbRepresentation hb_repr_;
  CheckStats& stats_;
  const std::size_t n_;

  // --- choices ---------------------------------------------------------------
  std::vector<char> dead_;                        // unknown status, cannot have committed
  std::vector<std::uint32_t> dead_why_;           // the read that showed it, if pruning did
  std::vector<std::uint32_t> cvar_;               // commit variable, or kNone
  // Each transaction's session (kNoSession for T0): a dense copy, read for
  // every saturation edge, where the Transaction would be a cache miss.
  std::vector<SessionId> session_;
  std::vector<Read> reads_;
  std::vector<TxnId> cands_;  // every read's candidates (Read::first)
  std::vector<char> alive_;   // and what pruning left of each
  std::vector<std::uint32_t> read_begin_, read_end_;  // per txn: its range in reads_
  sat::Solver solver_;
  bool has_vars_ = false;

  // --- the current model ----------------------------------------------------
  std::vector<char> member_;
  // The known model, for pruning: every transaction that may commit is a
  // member, reads are fixed only where every model agrees, and only
  // committed transactions count as writers.
  bool known_model_ = false;
  std::vector<TxnId> chosen_;            // per read: its writer, kNoTxn when no member reads
  std::vector<std::uint32_t> chosen_i_;  // per read: the writer's index in cands
  std::size_t members_ = 0;
  // Members of each session in order: smem_[sbase_[s] ..< sbase_[s + 1]];
  // pos_[t] is t's index there; midx_[t] a dense index (T0 = 0, then
  // sessions in order, so that each session is contiguous).
  std::vector<std::uint32_t> sbase_;
  std::vector<TxnId> smem_;
  std::vector<std::uint32_t> pos_, midx_;
  // Writers of each key sorted by (session, position), in groups of one
  // session: the groups of key x are [wkey_[x], wkey_[x + 1]), group g covers
  // wentries_[gstart_[g] ..< gstart_[g + 1]].
  std::vector<WriterEntry> wentries_;
  std::vector<std::uint32_t> wkey_, gstart_;
  std::vector<SessionId> gsession_;  // per group: its session, densely
  // Happens-before for CC: per member, the length of the prefix of each
  // session that happens before it or is it (vector clocks), or the set of
  // members that happen before it (bitsets).
  bool use_vc_ = true;
  std::size_t words_ = 0;
  LargeVector<std::uint32_t> vc_;
  LargeVector<std::uint64_t> bits_;
  // The graph: so and wr edges first (base_edges_ of them), then saturation
  // edges; graph_ holds them (edge id = index into edges_) as last built.
  LargeVector<Edge> edges_;
  std::size_t base_edges_ = 0;
  graph::Digraph graph_;
  // acyclic()'s compressed adjacency (targets by source) and in-degrees,
  // kept between models to save their allocation.
  LargeVector<std::uint32_t> csr_start_, csr_to_, indegree_;
  // add_rc_edges() and add_ra_edges(): the distinct writers of a
  // transaction's reads, each with its first read (writer, op, read).
  struct WriterRead {
    TxnId writer;
    std::uint32_t op, read;
  };
  std::vector<WriterRead> writer_reads_;
};

}  // namespace iso::poly::saturation
