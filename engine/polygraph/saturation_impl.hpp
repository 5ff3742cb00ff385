// Internals of the saturation checker (saturation.hpp): the vocabulary its
// stages share (reads and their candidates, a model, the edges of a model's
// graph). Each stage is a component of its own, holding only its own state,
// and the model it works on is passed to it:
//
//   Choices      (saturation_choices.hpp)  steps 1-2: the reads, their
//                candidates and what may commit; the SAT encoding; a solver
//                model read back as a Model.
//   ModelGraph   (saturation_graph.hpp)    step 3: the graph of a given
//                Model, acyclic with a commit order or cyclic with cycles.
//   Pruner       (saturation_prune.hpp)    step 2: narrows the Choices by
//                the edges every model has; explains a read left without
//                candidates.
//   CycleExplainer (saturation_explain.hpp) step 4: for a cycle of a
//                ModelGraph built from a Model, its blocking clause and the
//                anomaly that names it.
//
// The loop (saturation.cpp) drives them: engine/sat/lazy_loop.hpp's
// lazy_solve asks the solver for a model, the ModelGraph checks it, and the
// CycleExplainer turns its cycles into clauses.
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

#include "engine/polygraph/saturation.hpp"
#include "engine/sat/solver.hpp"

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
// Choices::cands(read) and Choices::alive(read) (kAlive,
// kCyclic or kDropped): one array for all reads, not two per read, since
// large histories have tens of millions of reads.
struct Read {
  TxnId txn = 0;
  KeyId key = 0;
  std::uint32_t op = 0;       // index of the read in Transaction::ops
  std::uint32_t first = 0;    // of its candidates in Choices' arrays
  std::uint32_t count = 0;    // candidates
  std::uint32_t var = kNone;  // first of `count` choice variables; kNone: fixed
  TxnId known = kNoTxn;       // the writer in every model the reader is in, if fixed
  std::uint32_t pref = 0;     // the preferred candidate (choose_preferences())
};

// A model: the members (committed transactions) and the read-from that one
// graph is built from. Choices::read_model() fills it from the solver;
// pruning and its explanations fill it with the choices every model agrees
// on.
struct Model {
  std::vector<char> member;             // per transaction
  std::vector<TxnId> chosen;            // per read: its writer, kNoTxn when no member reads
  std::vector<std::uint32_t> chosen_i;  // per read: the writer's index in its candidates
  // Pruning's known model: every transaction that may commit is a member,
  // reads are fixed only where every model agrees, and only committed
  // transactions count as writers.
  bool committed_writers_only = false;
};

enum class Kind : std::uint8_t { So, Wr, Sat, Vo };

// An edge of a model's graph. Wr: `read` is the read it serves. Sat: the
// edge (t2, t1) on `key`, because read `read` (by t3, of key) reads from t1
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

}  // namespace iso::poly::saturation
