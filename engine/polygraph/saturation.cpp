// Read Atomic and Causal Consistency by saturation (Biswas & Enea 2019); see
// saturation.hpp for why saturation decides them. Outline:
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
//     and, when those are acyclic, the saturation edges; checked by Kahn's
//     algorithm.
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
// Cost of one model with n members, S sessions, m so/wr edges, W final
// writes, R external reads, S(x) the sessions holding writers of x:
//  - graph and writer lists: O(n + m + W + K) with K keys;
//  - RA: O(Σ_reads (log W + reads of the reader));
//  - CC: happens-before as vector clocks, S entries per member, computed in
//    topological order in O(S (n + m)) time and 4 n S bytes; or as bitsets,
//    n / 64 words per member, O(n (n + m) / 64) time and n² / 8 bytes;
//    whichever is smaller. Then O(Σ_reads S(x) log n) to find, per session,
//    the last writer of x that happens before the reader;
//  - cycle search, when cyclic: strongly connected components, O(n + e) for
//    e edges in all, then a breadth-first search from each of a bounded
//    number of nodes of the cyclic components, O(n + e) each.
#include "engine/polygraph/saturation.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/graph/digraph.hpp"
#include "engine/history/printer.hpp"
#include "engine/polygraph/explain.hpp"
#include "engine/sat/solver.hpp"

namespace iso::poly {

namespace {

using sat::Lit;
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// Breadth-first searches per cyclic model: enough to find the shortest
// cycle of small graphs and a short one of large graphs.
constexpr std::size_t kCycleSearches = 64;

// What pruning left of a candidate: still possible; closing a cycle with
// the edges every model has; or written by a transaction that cannot have
// committed.
constexpr char kCyclic = 0, kAlive = 1, kDropped = 2;

// An external read of a transaction that may be a member.
struct Read {
  TxnId txn = 0;
  KeyId key = 0;
  std::uint32_t op = 0;       // index of the read in Transaction::ops
  std::vector<TxnId> cands;   // candidate writers that may have committed
  std::uint32_t var = kNone;  // first of cands.size() choice variables; kNone: fixed
  std::vector<char> alive;    // per candidate: kAlive, kCyclic or kDropped
  TxnId known = kNoTxn;       // the writer in every model the reader is in, if fixed
  std::uint32_t pref = 0;     // the preferred candidate (choose_preferences())
};

enum class Kind : std::uint8_t { So, Wr, Sat };

// An edge of a model's graph. Wr: `read` is the read it serves. Sat: the
// edge (t2, t1) on `key`, because reads_[read] (by t3, of key) reads from t1
// while C(t2, t3).
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
  SaturationOutcome run(const CheckOptions& options, Clock::time_point start);

 private:
  bool unknown(TxnId t) const { return h_.txn(t).status == TxnStatus::Unknown; }
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
  void add_saturation_edges();
  void build_hb(const std::vector<TxnId>& topo);
  std::uint32_t visible_prefix(TxnId t3, SessionId s) const;
  void add_last_writer_before(std::uint32_t group, std::uint32_t limit, TxnId t1,
                              std::uint32_t read);
  void build_graph(std::size_t m);
  bool topo_sort(std::vector<TxnId>& order);
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
  std::vector<Read> reads_;
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
  // Happens-before for CC: per member, the length of the prefix of each
  // session that happens before it or is it (vector clocks), or the set of
  // members that happen before it (bitsets).
  bool use_vc_ = true;
  std::size_t words_ = 0;
  std::vector<std::uint32_t> vc_;
  std::vector<std::uint64_t> bits_;
  // The graph: so and wr edges first (base_edges_ of them), then saturation
  // edges; graph_ holds them (edge id = index into edges_) as last built.
  std::vector<Edge> edges_;
  std::size_t base_edges_ = 0;
  graph::Digraph graph_;
};

// --- choices, and their encoding (steps 1 and 2) ----------------------------

std::optional<Anomaly> Saturation::prepare(const std::vector<TxnId>& forced_aborts) {
  dead_.assign(n_, 0);
  dead_why_.assign(n_, kNone);
  for (TxnId t : forced_aborts) dead_[t] = 1;
  // Dropping a transaction can leave another's read without a candidate:
  // repeat to a fixpoint.
  for (bool changed = true; changed;) {
    changed = false;
    for (TxnId t : a_.txns) {
      if (dead_[t]) continue;
      const auto& rs = a_.abs[t].reads;
      for (std::size_t i = 0; i < rs.size(); ++i) {
        const auto& cands = a_.candidates[t][i];
        if (std::any_of(cands.begin(), cands.end(), [&](TxnId w) { return !dead_[w]; }))
          continue;
        if (unknown(t)) {
          dead_[t] = 1;
          changed = true;
          break;
        }
        const Transaction& txn = h_.txn(t);
        std::vector<std::string> names;
        for (TxnId w : cands) names.push_back(h_.txn_name(w));
        Anomaly an;
        an.name = "read of an unknown-status write";
        an.description = fmt::format(
            "{}: {} reads a value only {} wrote, whose commit status is unknown and which cannot "
            "have committed",
            h_.txn_name(t), format_op(h_, txn.ops[rs[i].op]), fmt::join(names, ", "));
        an.txns.push_back(t);
        an.txns.insert(an.txns.end(), cands.begin(), cands.end());
        return an;
      }
    }
  }
  read_begin_.assign(n_, 0);
  read_end_.assign(n_, 0);
  for (TxnId t : a_.txns) {
    read_begin_[t] = static_cast<std::uint32_t>(reads_.size());
    if (!dead_[t]) {
      const auto& rs = a_.abs[t].reads;
      for (std::size_t i = 0; i < rs.size(); ++i) {
        Read r{t, rs[i].key, rs[i].op, {}, kNone, {}, kNoTxn};
        for (TxnId w : a_.candidates[t][i])
          if (!dead_[w]) r.cands.push_back(w);
        r.alive.assign(r.cands.size(), kAlive);
        if (!unknown(t) && r.cands.size() == 1 && !unknown(r.cands[0])) r.known = r.cands[0];
        reads_.push_back(std::move(r));
      }
    }
    read_end_[t] = static_cast<std::uint32_t>(reads_.size());
  }
  cvar_.assign(n_, kNone);
  return std::nullopt;
}

// A guess at when each transaction ran, for the preferred candidates: the
// commit timestamps when every member has one; otherwise the position in its
// session scaled to [0, 1] (sessions taken to run at a steady pace). T0: -1.
std::vector<double> Saturation::pseudo_times() const {
  std::vector<double> tau(n_, 0);
  bool stamped = true;
  for (TxnId t : a_.txns)
    if (t != kInitTxn && !dead_[t] && !h_.txn(t).commit) stamped = false;
  for (const auto& session : h_.sessions()) {
    std::size_t len = 0, i = 0;
    for (TxnId t : session) len += a_.member[t] && !dead_[t];
    for (TxnId t : session) {
      if (!a_.member[t] || dead_[t]) continue;
      tau[t] = stamped ? static_cast<double>(*h_.txn(t).commit)
                       : static_cast<double>(++i) / static_cast<double>(len + 1);
    }
  }
  tau[kInitTxn] = -1;
  if (stamped)
    for (TxnId t : a_.txns) tau[kInitTxn] = std::min(tau[kInitTxn], tau[t] - 1);
  return tau;
}

// The preferred candidate of each open read, from a simulated execution: the
// transactions are placed one at a time, each session in order, choosing
// among those whose every read has a placed candidate the earliest by
// pseudo_times() (or, when there is none, the earliest next transaction of a
// session); each read prefers the candidate placed last before its reader.
// The preferred read-from thus keeps so ∪ WR acyclic where it can, and reads
// the latest write it can.
void Saturation::choose_preferences() {
  const std::vector<double> tau = pseudo_times();
  std::vector<std::uint32_t> placed_at(n_, kNone), missing(n_, 0);
  std::vector<std::vector<std::uint32_t>> waiting(n_);  // writer -> open reads it may serve
  std::vector<char> served(reads_.size(), 0);
  for (std::uint32_t r = 0; r < reads_.size(); ++r) {
    const Read& rd = reads_[r];
    if (dead_[rd.txn]) continue;
    ++missing[rd.txn];
    if (rd.known != kNoTxn) {
      waiting[rd.known].push_back(r);
      continue;
    }
    for (std::uint32_t i = 0; i < rd.cands.size(); ++i)
      if (rd.alive[i] == kAlive) waiting[rd.cands[i]].push_back(r);
  }
  // Each session's members, and the index of the next one to place.
  std::vector<std::vector<TxnId>> sessions;
  std::vector<std::uint32_t> session_of(n_, kNone);
  for (const auto& session : h_.sessions()) {
    sessions.emplace_back();
    for (TxnId t : session)
      if (a_.member[t] && !dead_[t]) {
        session_of[t] = static_cast<std::uint32_t>(sessions.size() - 1);
        sessions.back().push_back(t);
      }
  }
  std::vector<std::uint32_t> next(sessions.size(), 0);
  using Entry = std::pair<double, TxnId>;
  std::vector<Entry> heap;  // ready session heads, earliest first
  auto push_if_ready = [&](TxnId t) {
    if (missing[t] == 0) {
      heap.emplace_back(tau[t], t);
      std::push_heap(heap.begin(), heap.end(), std::greater<>());
    }
  };
  std::uint32_t count = 0;
  auto place = [&](TxnId t) {
    placed_at[t] = count++;
    for (std::uint32_t r : waiting[t])
      if (!served[r]) {
        served[r] = 1;
        const TxnId reader = reads_[r].txn;
        // Ready once served, if it is the next of its session.
        if (--missing[reader] == 0 && sessions[session_of[reader]][next[session_of[reader]]] ==
                                          reader)
          push_if_ready(reader);
      }
    if (t == kInitTxn) return;
    const std::uint32_t s = session_of[t];
    if (++next[s] < sessions[s].size()) push_if_ready(sessions[s][next[s]]);
  };
  place(kInitTxn);
  for (std::size_t s = 0; s < sessions.size(); ++s)
    if (!sessions[s].empty()) push_if_ready(sessions[s][0]);
  for (std::size_t left = a_.txns.size() - 1; left > 0;) {
    TxnId t = kNoTxn;
    while (!heap.empty() && t == kNoTxn) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<>());
      TxnId c = heap.back().second;
      heap.pop_back();
      if (placed_at[c] == kNone) t = c;
    }
    if (t == kNoTxn) {  // nothing ready: the earliest next transaction of a session
      for (std::size_t s = 0; s < sessions.size(); ++s)
        if (next[s] < sessions[s].size()) {
          TxnId c = sessions[s][next[s]];
          if (t == kNoTxn || tau[c] < tau[t]) t = c;
        }
      if (t == kNoTxn) break;  // dead transactions only
    }
    // Choose for its reads before placing it.
    for (std::uint32_t r = read_begin_[t]; r < read_end_[t]; ++r) {
      Read& rd = reads_[r];
      if (rd.known != kNoTxn) continue;
      std::uint32_t best = kNone;
      for (std::uint32_t i = 0; i < rd.cands.size(); ++i) {
        if (rd.alive[i] != kAlive) continue;
        const TxnId w = rd.cands[i];
        if (best == kNone) {
          best = i;
          continue;
        }
        const TxnId b = rd.cands[best];
        // Placed beats unplaced; among placed, the last; among unplaced, the
        // earliest by pseudo-time.
        const bool w_placed = placed_at[w] != kNone, b_placed = placed_at[b] != kNone;
        if (w_placed != b_placed ? w_placed
                                 : w_placed ? placed_at[w] > placed_at[b] : tau[w] < tau[b])
          best = i;
      }
      rd.pref = best == kNone ? 0 : best;
    }
    place(t);
    --left;
  }
}

// Variables: a commit variable per unknown-status transaction that may have
// committed; per open read, one per candidate. The solver's default polarity
// is `false`, and each read's preferred candidate (choose_preferences()) has
// its variable negated (true: not chosen), so the first model commits no
// unknown-status transaction and reads from the preferred candidates.
void Saturation::encode() {
  solver_.set_default_polarity(false);
  for (TxnId t : a_.txns)
    if (!dead_[t] && unknown(t)) cvar_[t] = solver_.new_var();
  choose_preferences();
  std::vector<Lit> clause;
  for (std::uint32_t ri = 0; ri < reads_.size(); ++ri) {
    Read& r = reads_[ri];
    if (r.known != kNoTxn || dead_[r.txn]) continue;  // fixed, or never read
    const auto k = static_cast<std::uint32_t>(r.cands.size());
    r.var = solver_.new_vars(k);
    // The reader committed => one of the candidates; a candidate => the
    // reader and the writer committed; pruned candidates never.
    clause.clear();
    if (cvar_[r.txn] != kNone) clause.push_back(Lit::neg(cvar_[r.txn]));
    for (std::uint32_t i = 0; i < k; ++i)
      if (r.alive[i] == kAlive) clause.push_back(cand_lit(ri, i));
    solver_.add_clause(clause);
    for (std::uint32_t i = 0; i < k; ++i) {
      const Lit c = cand_lit(ri, i);
      if (r.alive[i] != kAlive) {
        solver_.add_clause({~c});
        continue;
      }
      if (cvar_[r.txn] != kNone) solver_.add_clause({~c, Lit::pos(cvar_[r.txn])});
      if (cvar_[r.cands[i]] != kNone) solver_.add_clause({~c, Lit::pos(cvar_[r.cands[i]])});
    }
    // At most one candidate: pairwise for a few, a sequential counter
    // (Sinz 2005) for more.
    if (k <= 6) {
      for (std::uint32_t i = 0; i < k; ++i)
        for (std::uint32_t j = i + 1; j < k; ++j)
          solver_.add_clause({~cand_lit(ri, i), ~cand_lit(ri, j)});
    } else {
      // S(i): one of the first i + 1 candidates is chosen; negated from the
      // preferred one on, like the candidates, so that `false` agrees.
      const std::uint32_t s = solver_.new_vars(k - 1);
      auto S = [&](std::uint32_t i) { return i >= r.pref ? Lit::neg(s + i) : Lit::pos(s + i); };
      solver_.add_clause({~cand_lit(ri, 0), S(0)});
      for (std::uint32_t i = 1; i + 1 < k; ++i) {
        solver_.add_clause({~cand_lit(ri, i), S(i)});
        solver_.add_clause({~S(i - 1), S(i)});
        solver_.add_clause({~cand_lit(ri, i), ~S(i - 1)});
      }
      solver_.add_clause({~cand_lit(ri, k - 1), ~S(k - 2)});
    }
  }
  has_vars_ = solver_.num_vars() > 0;
  stats_.vars = solver_.num_vars();
  stats_.clauses = solver_.stats().clauses;
}

void Saturation::read_model() {
  member_.assign(n_, 0);
  for (TxnId t : a_.txns)
    member_[t] = !dead_[t] && (cvar_[t] == kNone || solver_.model_value(cvar_[t]));
  chosen_.assign(reads_.size(), kNoTxn);
  chosen_i_.assign(reads_.size(), kNone);
  for (std::uint32_t r = 0; r < reads_.size(); ++r) {
    const Read& rd = reads_[r];
    if (!member_[rd.txn]) continue;
    if (rd.var == kNone) {  // fixed
      chosen_[r] = rd.known;
      chosen_i_[r] = kNone;
      continue;
    }
    for (std::uint32_t i = 0; i < rd.cands.size(); ++i) {
      if (solver_.model_value(cand_lit(r, i))) {
        chosen_[r] = rd.cands[i];
        chosen_i_[r] = i;
        break;
      }
    }
  }
}

// --- the graph of a model (step 3) ------------------------------------------

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
    const SessionId own = h_.txn(t3).session;
    for (std::uint32_t r = read_begin_[t3]; r < read_end_[t3]; ++r) {
      const KeyId x = reads_[r].key;
      const TxnId t1 = chosen_[r];
      if (t1 == kNoTxn) continue;  // an open read of a partial model
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
  build_graph(edges_.size());
  stats_.known_edges = edges_.size();
  if (topo_sort(order)) return true;
  find_cycles(max_cycles, cycles);
  return false;
}

// --- 1-width pruning (step 2) -----------------------------------------------
//
// After VeriStrong §6.1.1, for the saturated graph: the known model holds the
// edges every model has (session order, reads with a fixed writer between
// committed transactions). A candidate w of t's read of x is never chosen if
//  - t reaches w: the wr edge (w, t) closes a cycle; or
//  - w reaches a committed writer t2 ≠ w of x with C(t2, t) known (a session
//    predecessor of t or, for RA, the fixed writer of another of t's reads;
//    for CC, anything that happens before t): the saturation edge (t2, w)
//    closes a cycle.
// Such candidates get no variable that can be true. A read of a committed
// transaction left with one committed candidate becomes fixed, which adds
// known edges: repeat until nothing changes.

bool Saturation::reaches(TxnId u, TxnId v) const {
  if (u == kInitTxn) return v != kInitTxn;
  return pos_[u] < visible_prefix(v, h_.txn(u).session);
}

std::optional<Anomaly> Saturation::prune(std::size_t& passes) {
  std::vector<TxnId> order, visible;
  std::vector<std::vector<std::uint32_t>> cycles;
  for (bool again = true; again;) {
    again = false;
    ++passes;
    member_.assign(n_, 0);
    for (TxnId t : a_.txns) member_[t] = !dead_[t];
    chosen_.assign(reads_.size(), kNoTxn);
    chosen_i_.assign(reads_.size(), kNone);
    for (std::uint32_t r = 0; r < reads_.size(); ++r) {
      const Read& rd = reads_[r];
      if (rd.known == kNoTxn) continue;
      chosen_[r] = rd.known;
      chosen_i_[r] = static_cast<std::uint32_t>(
          std::find(rd.cands.begin(), rd.cands.end(), rd.known) - rd.cands.begin());
    }
    build_sessions();
    add_base_edges();
    build_graph(edges_.size());
    if (!topo_sort(order)) {
      // A cycle of so and fixed wr edges: in every model (members of
      // unknown status in it are passed through by so).
      find_cycles(1, cycles);
      return anomaly(cycles.front());
    }
    known_model_ = true;
    build_writers();
    known_model_ = false;
    build_hb(order);
    for (std::uint32_t r = 0; r < reads_.size(); ++r) {
      Read& rd = reads_[r];
      if (rd.known != kNoTxn || dead_[rd.txn]) continue;
      const TxnId t = rd.txn;
      const KeyId x = rd.key;
      // Committed writers of x with C(·, t) in every model.
      visible.clear();
      for (std::uint32_t g = wkey_[x]; g < wkey_[x + 1]; ++g) {
        const SessionId s = wentries_[gstart_[g]].session;
        if (level_ == GraphLevel::Ra && s != h_.txn(t).session) continue;
        const std::uint32_t limit = visible_prefix(t, s);
        auto first = wentries_.begin() + gstart_[g], last = wentries_.begin() + gstart_[g + 1];
        auto it = std::lower_bound(first, last, limit,
                                   [](const WriterEntry& e, std::uint32_t p) { return e.pos < p; });
        // The last one: w reaches an earlier one only through it (when w is
        // the last, it reaches none of them).
        if (it != first) visible.push_back(std::prev(it)->txn);
      }
      if (level_ == GraphLevel::Ra)
        for (std::uint32_t r2 = read_begin_[t]; r2 < read_end_[t]; ++r2) {
          const TxnId t2 = reads_[r2].known;
          if (t2 != kNoTxn && t2 != kInitTxn && a_.writes(t2, x)) visible.push_back(t2);
        }
      std::uint32_t left = 0;
      TxnId last_left = kNoTxn;
      for (std::uint32_t i = 0; i < rd.cands.size(); ++i) {
        if (rd.alive[i] != kAlive) continue;
        const TxnId w = rd.cands[i];
        bool cyclic = reaches(t, w);
        for (TxnId t2 : visible)
          if (!cyclic && t2 != w && reaches(w, t2)) cyclic = true;
        if (cyclic) {
          rd.alive[i] = kCyclic;
          continue;
        }
        ++left;
        last_left = w;
      }
      if (left == 1 && !unknown(t) && !unknown(last_left)) {
        rd.known = last_left;
        again = true;
      }
      // An unknown-status reader left without a candidate cannot have
      // committed: drop it, and it as a candidate.
      if (left == 0 && unknown(t)) {
        dead_[t] = 1;
        dead_why_[t] = r;
        for (Read& other : reads_)
          for (std::uint32_t i = 0; i < other.cands.size(); ++i)
            if (other.cands[i] == t && other.alive[i] == kAlive) other.alive[i] = kDropped;
        again = true;
      }
    }
  }
  return std::nullopt;
}

std::optional<Anomaly> Saturation::explain_pruned() {
  for (std::uint32_t r = 0; r < reads_.size(); ++r) {
    const Read& rd = reads_[r];
    if (!unknown(rd.txn) && rd.known == kNoTxn && !rd.cands.empty() &&
        std::find(rd.alive.begin(), rd.alive.end(), kAlive) == rd.alive.end())
      return explain_read(r);
  }
  return std::nullopt;
}

std::optional<Anomaly> Saturation::explain_read(std::uint32_t r) {
  const Read& rd = reads_[r];
  auto cyclic = std::find(rd.alive.begin(), rd.alive.end(), kCyclic);
  if (cyclic == rd.alive.end()) {
    // Every candidate was dropped: explain why the first cannot have
    // committed (it was dropped before this read's candidates were).
    const TxnId u = rd.cands.front();
    if (dead_why_[u] == kNone) return std::nullopt;
    std::optional<Anomaly> inner = explain_read(dead_why_[u]);
    if (!inner) return std::nullopt;
    const Transaction& txn = h_.txn(rd.txn);
    std::vector<std::string> names;
    for (TxnId w : rd.cands) names.push_back(h_.txn_name(w));
    inner->description = fmt::format(
        "{}: {} reads a value only {} wrote, whose commit status is unknown; {} cannot have "
        "committed: {}",
        h_.txn_name(rd.txn), format_op(h_, txn.ops[rd.op]), fmt::join(names, ", "), h_.txn_name(u),
        inner->description);
    if (!unknown(rd.txn)) inner->name = "read of an unknown-status write";
    inner->txns.insert(inner->txns.begin(), rd.txn);
    return inner;
  }
  // The committed transactions, the fixed reads, the reader and the first
  // candidate pruned for closing a cycle.
  const TxnId w = rd.cands[static_cast<std::size_t>(cyclic - rd.alive.begin())];
  member_.assign(n_, 0);
  for (TxnId t : a_.txns) member_[t] = !unknown(t);
  member_[rd.txn] = member_[w] = 1;
  chosen_.assign(reads_.size(), kNoTxn);
  chosen_i_.assign(reads_.size(), kNone);
  for (std::uint32_t q = 0; q < reads_.size(); ++q) {
    const Read& qd = reads_[q];
    if (qd.known == kNoTxn || !member_[qd.txn] || !member_[qd.known]) continue;
    chosen_[q] = qd.known;
    chosen_i_[q] = static_cast<std::uint32_t>(
        std::find(qd.cands.begin(), qd.cands.end(), qd.known) - qd.cands.begin());
  }
  chosen_[r] = w;
  chosen_i_[r] = static_cast<std::uint32_t>(cyclic - rd.alive.begin());
  std::vector<TxnId> order;
  std::vector<std::vector<std::uint32_t>> cycles;
  if (check_model(order, cycles, 1)) return std::nullopt;
  return anomaly(cycles.front());
}

// --- clauses and explanations (step 4) --------------------------------------

Visibility Saturation::visibility(const Edge& sat) const {
  const TxnId t2 = sat.from, t3 = reads_[sat.read].txn;
  Visibility v;
  if (h_.txn(t2).session == h_.txn(t3).session && pos_[t2] < pos_[t3]) return v;
  for (std::uint32_t r = read_begin_[t3]; r < read_end_[t3]; ++r)
    if (chosen_[r] == t2) {
      v.how = Visibility::How::ReadFrom;
      v.read = r;
      return v;
    }
  v.how = Visibility::How::Path;
  v.path = cheapest_path(t2, t3);
  return v;
}

// A path of so/wr edges with the fewest edges that depend on a choice.
std::vector<std::uint32_t> Saturation::cheapest_path(TxnId from, TxnId to) const {
  std::vector<Lit> lits;
  auto cost = [&](graph::EdgeId e) -> std::uint32_t {
    if (e >= base_edges_) return graph::kSkipEdge;  // saturation edges are not visibility
    lits.clear();
    edge_lits(e, lits);
    return lits.empty() ? 0 : 1;
  };
  auto path = graph::cheapest_path(graph_, from, to, cost);
  if (!path) return {};  // not reached: HB says otherwise
  return {path->begin(), path->end()};
}

void Saturation::commit_lit(TxnId t, std::vector<Lit>& out) const {
  if (cvar_[t] != kNone) out.push_back(Lit::pos(cvar_[t]));
}

void Saturation::choice_lit(std::uint32_t read, std::vector<Lit>& out) const {
  // A choice implies that its reader and writer committed (clauses).
  if (reads_[read].var != kNone) out.push_back(cand_lit(read, chosen_i_[read]));
}

void Saturation::edge_lits(std::uint32_t id, std::vector<Lit>& out) const {
  const Edge& e = edges_[id];
  switch (e.kind) {
    case Kind::So:
      // None needed: so holds between any two members, and a cycle does
      // not need a pass-through member of a session (without it, so links
      // its neighbours); every other edge at a member implies its commit.
      return;
    case Kind::Wr:
      choice_lit(e.read, out);
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

std::vector<Lit> Saturation::blocking_clause(const std::vector<std::uint32_t>& cycle) const {
  std::vector<Lit> lits;
  for (std::uint32_t id : cycle) edge_lits(id, lits);
  std::sort(lits.begin(), lits.end(), [](Lit x, Lit y) { return x.x < y.x; });
  lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
  for (Lit& l : lits) l = ~l;
  return lits;
}

DepEdge Saturation::dep(std::uint32_t id) const {
  const Edge& e = edges_[id];
  switch (e.kind) {
    case Kind::So: return DepEdge{e.from, e.to, Dep::SO, 0};
    case Kind::Wr: return DepEdge{e.from, e.to, Dep::WR, e.key};
    case Kind::Sat: break;
  }
  return DepEdge{e.from, e.to, Dep::WW, e.key};
}

std::vector<DepEdge> Saturation::deps(const std::vector<std::uint32_t>& ids) const {
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

// Names the cycle of the current model. Only so and wr: the causal order
// itself is cyclic (G1c, with session order). Otherwise by how the described
// saturation edge's t2 is visible to its reader t3: through a path of
// several so/wr edges, a causality violation (CC only); read from directly,
// a fractured read; an earlier transaction of t3's session, a missed session
// write. The cycle is rotated to start at the described edge.
Anomaly Saturation::anomaly(const std::vector<std::uint32_t>& cycle_ids) const {
  std::vector<std::uint32_t> ids = cycle_ids;
  auto rank = [&](std::uint32_t id) {
    if (edges_[id].kind == Kind::So) return -1;
    if (edges_[id].kind != Kind::Sat) return 0;
    switch (visibility(edges_[id]).how) {
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
  Anomaly a;
  // Start at the described edge (a wr edge for G1c: never inside a run of so).
  std::rotate(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(best), ids.end());
  a.cycle = deps(ids);
  for (const DepEdge& e : a.cycle) a.txns.push_back(e.from);
  const std::string cyc = format_cycle(h_, a.cycle);
  if (best_rank == 0) {
    a.name = "G1c";
    a.description = fmt::format("{}: session order and read-from are cyclic", cyc);
    return a;
  }
  for (std::uint32_t id : ids) {
    const Edge& e = edges_[id];
    TxnId t3 = e.kind == Kind::Sat ? reads_[e.read].txn : kNoTxn;
    if (t3 != kNoTxn && std::find(a.txns.begin(), a.txns.end(), t3) == a.txns.end())
      a.txns.push_back(t3);
  }
  const Edge& e = edges_[ids.front()];
  const std::string t1 = h_.txn_name(e.to), t2 = h_.txn_name(e.from);
  const std::string t3 = h_.txn_name(reads_[e.read].txn), x = h_.key_text(e.key);
  Visibility v = visibility(e);
  std::string why;
  switch (v.how) {
    case Visibility::How::Session:
      a.name = "missed session write";
      why = fmt::format("{} precedes it in its session", t2);
      break;
    case Visibility::How::ReadFrom:
      a.name = "fractured read";
      why = fmt::format("it reads {} from {}", h_.key_text(reads_[v.read].key), t2);
      break;
    case Visibility::How::Path: {
      a.name = "causality violation";
      why = fmt::format("{} happens before it ({})", t2, format_cycle(h_, deps(v.path)));
      break;
    }
  }
  a.description = fmt::format(
      "{} reads {} from {}, but {} and {} wrote {}, so {}'s write must precede {}'s: {}", t3, x,
      t1, why, t2, x, t2, t1, cyc);
  return a;
}

// --- the loop ---------------------------------------------------------------

SaturationOutcome Saturation::run(const CheckOptions& options, Clock::time_point start) {
  SaturationOutcome out;
  auto violated = [&](std::optional<Anomaly> a) {
    out.verdict = Verdict::Violated;
    out.anomaly = a ? std::move(a)
                    : Anomaly{"cycle", "every choice of read-from and commits is cyclic", {}, {}};
    return out;
  };
  // Choices: prune them, unless there are none.
  const bool open = std::any_of(reads_.begin(), reads_.end(),
                                [](const Read& r) { return r.known == kNoTxn; }) ||
                    std::any_of(a_.txns.begin(), a_.txns.end(),
                                [&](TxnId t) { return !dead_[t] && unknown(t); });
  if (open) {
    stats_.wr_choices = static_cast<std::size_t>(std::count_if(
        reads_.begin(), reads_.end(), [](const Read& r) { return r.known == kNoTxn; }));
    auto t_prune = Clock::now();
    std::optional<Anomaly> forced = prune(stats_.prune_passes);
    stats_.seconds.prune = seconds_since(t_prune);
    if (forced) return violated(std::move(forced));
    for (const Read& r : reads_) {
      if (dead_[r.txn]) continue;
      const auto left = std::count(r.alive.begin(), r.alive.end(), kAlive);
      stats_.wr_open += r.known == kNoTxn && left > 1;
      if (r.known == kNoTxn && !unknown(r.txn) && left == 0) return violated(explain_pruned());
    }
  }
  auto t_encode = Clock::now();
  encode();
  stats_.seconds.encode = seconds_since(t_encode);

  auto t_solve = Clock::now();
  std::vector<TxnId> order;
  std::vector<std::vector<std::uint32_t>> cycles;
  auto allowed = [&] {
    stats_.seconds.solve = seconds_since(t_solve);
    out.verdict = Verdict::Allowed;
    out.commit_order = std::move(order);
    return out;
  };
  if (!has_vars_) {  // one model: the fixed choices
    read_model();
    ++stats_.rounds;
    if (check_model(order, cycles, 1)) return allowed();
    stats_.seconds.solve = seconds_since(t_solve);
    return violated(anomaly(cycles.front()));
  }
  // The cycle explaining a violation: the one with the fewest edges other
  // than session order among those found.
  std::optional<Anomaly> best;
  std::size_t best_cost = 0;
  std::set<std::vector<std::uint32_t>> added;  // the clauses, as literal codes
  auto last_report = Clock::now();
  for (;;) {
    if (options.timeout_seconds > 0) {
      double left = options.timeout_seconds - seconds_since(start);
      if (left <= 0) break;
      solver_.set_max_seconds(left);
    }
    sat::Result res = solver_.solve();
    if (res == sat::Result::Unknown) break;
    if (res == sat::Result::Unsat) {
      stats_.seconds.solve = seconds_since(t_solve);
      if (!best) best = explain_pruned();
      return violated(std::move(best));
    }
    ++stats_.rounds;
    read_model();
    if (check_model(order, cycles, std::max<std::size_t>(1, options.cycles_per_round)))
      return allowed();
    for (const auto& cycle : cycles) {
      const auto cost = static_cast<std::size_t>(
          std::count_if(cycle.begin(), cycle.end(),
                        [&](std::uint32_t id) { return edges_[id].kind != Kind::So; }));
      if (!best || cost < best_cost) {
        best = anomaly(cycle);
        best_cost = cost;
      }
      std::vector<Lit> clause = blocking_clause(cycle);
      if (clause.empty()) {  // a cycle in every choice
        stats_.seconds.solve = seconds_since(t_solve);
        return violated(anomaly(cycle));
      }
      std::vector<std::uint32_t> code;
      for (Lit l : clause) code.push_back(l.x);
      if (!added.insert(std::move(code)).second) continue;
      solver_.add_clause(clause);
      ++stats_.cycle_clauses;
    }
    stats_.clauses = solver_.stats().clauses;
    if (options.progress && seconds_since(last_report) > 1.0) {
      last_report = Clock::now();
      options.progress(fmt::format("saturation: round {}, {} cycle clauses", stats_.rounds,
                                   stats_.cycle_clauses));
    }
  }
  stats_.seconds.solve = seconds_since(t_solve);
  return out;  // Unknown: out of time
}

}  // namespace

SaturationOutcome solve_saturation(const History& h, const AbstractHistory& a,
                                   const std::vector<TxnId>& forced_aborts,
                                   const CheckOptions& options, CheckStats& stats,
                                   Clock::time_point start, HbRepresentation hb) {
  Saturation s(h, a, options.level, hb, stats);
  if (auto unjustified = s.prepare(forced_aborts)) {
    SaturationOutcome out;
    out.verdict = Verdict::Violated;
    out.anomaly = std::move(unjustified);
    return out;
  }
  return s.run(options, start);
}

}  // namespace iso::poly
