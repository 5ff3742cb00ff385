// The SAT encoding of a pruned hyper-polygraph (DESIGN §4.5, step 3), shared
// by the lazy and the eager acyclicity encodings (lazy.cpp, eager.cpp).
//
// Variables: one per open write-write pair, oriented so that `true` follows
// the known graph's topological order (with the solver's default polarity
// `true`, VeriStrong's order-guided polarity, §6.2); one per candidate of an
// open read; one commit choice per unknown-status transaction; one truth per
// guarded write (Vbox's truth constraints). Clauses: exactly one candidate
// per read of a committed reader, the commit conditions of choices, a
// guarded write read only if true and true exactly when its own read saw a
// version satisfying its predicate, and (lazy) 2-width cycle clauses (Alg. 2).
//
// A model fixes a compatible dependency graph: model_edges() lists its
// edges beyond the known ones, each with the literals it exists by, so that
// a cycle through them becomes a clause over exactly those literals.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "engine/polygraph/checker.hpp"
#include "engine/polygraph/polygraph.hpp"
#include "engine/polygraph/solve.hpp"
#include "engine/sat/solver.hpp"
#include "engine/util/rank_bits.hpp"
#include "engine/util/timing.hpp"

namespace iso::poly {

// An edge that exists when all of its literals are true.
struct CondEdge {
  DepEdge edge;
  // A write-write or anti-dependency edge may need two commits, two truths
  // of guarded writes and an order or read-from: at most five.
  std::array<sat::Lit, 6> lits{};
  std::uint8_t n = 0;
  void add(sat::Lit l) {
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
  std::size_t operator()(const CondEdge& e) const;
};

// The edges of the current model beyond the known graph. When a key's
// version order in the model is not transitive (the pair variables of a key
// form a tournament), `broken` holds one of its 3-cycles instead: a cycle of
// every graph with those choices.
struct ModelEdges {
  std::vector<CondEdge> edges;
  std::vector<std::vector<CondEdge>> broken;
};

// A 2-width cycle clause, kept to rebuild its cycle for an explanation.
struct TwoWidth {
  DepEdge first, second;
};

class Encoder {
 public:
  static constexpr std::uint32_t kNoVar = UINT32_MAX;

  Encoder(Polygraph& pg, CheckStats& stats);

  // Variables and the clauses every encoding needs; 2-width clauses when
  // asked (the lazy encoding).
  void encode(const std::vector<TxnId>& forced_aborts, bool two_width);

  Polygraph& polygraph() { return pg_; }
  const Polygraph& polygraph() const { return pg_; }
  sat::Solver& solver() { return solver_; }
  CheckStats& stats() { return stats_; }

  // --- variables -------------------------------------------------------------
  bool has_pair_var(std::size_t p) const { return open_.contains(p); }
  // "from precedes to on the pair's key", for an open pair.
  sat::Lit pair_lit(std::size_t p, TxnId from) const {
    const std::size_t r = open_.rank(p);
    const auto v = static_cast<std::uint32_t>(first_pair_var_ + r);
    return open_first_[r] == from ? sat::Lit::pos(v) : sat::Lit::neg(v);
  }
  // The literal of an open pair (from, to) on k, if the pair is open.
  std::optional<sat::Lit> ww_lit(KeyId k, TxnId from, TxnId to) const;
  // The same by the writers' indices i, j into writers(k), `from` the i-th.
  std::optional<sat::Lit> pair_lit_at(KeyId k, std::uint32_t i, std::uint32_t j, TxnId from) const {
    const std::size_t p = pg_.pair_at(k, i, j);
    if (!has_pair_var(p)) return std::nullopt;
    return pair_lit(p, from);
  }
  // Choice c's candidate i, when the choice is open.
  bool has_choice_var(std::size_t c) const { return choice_var_[c] != kNoVar; }
  sat::Lit choice_lit(std::size_t c, std::size_t i) const {
    return sat::Lit::pos(choice_var_[c] + static_cast<std::uint32_t>(i));
  }
  void add_commit_condition(CondEdge& e, TxnId t) const {
    if (pg_.unknown(t)) e.add(sat::Lit::pos(commit_var_[t]));
  }
  // What t's write of k exists by: t's commit, and the truth of a guarded
  // write (a predicate write's).
  void add_write_condition(CondEdge& e, TxnId t, KeyId k) const {
    add_commit_condition(e, t);
    if (const std::uint32_t g = pg_.abstract().guard_of(t, k); g != kNoGuard)
      e.add(sat::Lit::pos(guard_var_[g]));
  }

  // --- the current model -----------------------------------------------------
  bool committed_in_model(TxnId t) const {
    return !pg_.unknown(t) || solver_.model_value(commit_var_[t]);
  }
  bool write_in_model(TxnId t, KeyId k) const {
    const std::uint32_t g = pg_.abstract().guard_of(t, k);
    return committed_in_model(t) && (g == kNoGuard || solver_.model_value(guard_var_[g]));
  }
  // The truth of each guarded write in the model (AbstractHistory::guarded).
  std::vector<bool> guards_in_model() const;
  // Remembers each key's edges with the model values they came from (the
  // key's open orders, its uncertain writes, the reads of it the model
  // chooses): a key none of whose values changed since the last call costs
  // their comparison, not its tournament and its readers again. Consecutive
  // models of the lazy loop differ in a few keys.
  ModelEdges model_edges();
  // The read-from of every read with several candidate writers, as
  // (writer, key, reader), for committed readers.
  std::vector<poly::ChosenRead> chosen_reads() const;

  // The cycle a 2-width clause stands for: its two edges joined by known
  // paths. The shortest of those rebuilt, for an explanation.
  std::vector<DepEdge> shortest_two_width_cycle() const;

 private:
  // encode()'s steps, in the order their variables and clauses are made.
  void commit_variables(const std::vector<TxnId>& forced_aborts);
  void pair_variables();
  void choice_variables();
  void guard_clauses();
  void not_both_clauses();
  void two_width_clauses();
  struct TwoWidthChoice {  // a literal and the edges it adds to the known graph
    sat::Lit lit;
    std::vector<DepEdge> implied;
  };
  void canonical_two_width(const std::vector<TwoWidthChoice>& lits);
  // model_edges()'s steps.
  struct ModelRead {  // the writer an open read reads from in the model
    TxnId reader, writer;
    std::optional<sat::Lit> lit;
  };
  struct Tournament {  // scratch of version_order_edges(), kept between keys
    std::vector<TxnId> ws;
    std::vector<std::uint32_t> wi, wins, idx;
  };
  void conditional_edges(ModelEdges& out) const;
  std::vector<std::vector<ModelRead>> read_edges(ModelEdges& out) const;
  CondEdge ww_edge(KeyId k, TxnId x, TxnId y, std::optional<sat::Lit> order) const;
  void version_order_edges(KeyId k, const std::vector<ModelRead>& reads, Tournament& tn,
                           ModelEdges& out) const;
  void anti_dependency_edges(KeyId k, const std::vector<TxnId>& chain,
                             const std::vector<std::uint32_t>& chain_wi,
                             const std::vector<ModelRead>& reads, bool known_reads,
                             std::vector<CondEdge>& edges) const;
  void key_signature(KeyId k, const std::vector<ModelRead>& reads,
                     std::vector<std::uint32_t>& sig) const;
  void latest_version_clauses();
  void settle_keys();
  std::vector<DepEdge> rebuild(const TwoWidth& tw) const;

  Polygraph& pg_;
  CheckStats& stats_;
  sat::Solver solver_;
  std::vector<std::uint32_t> commit_var_;
  // The open pairs (a pair's index is in open_ when it has a variable), their
  // variables consecutive from first_pair_var_ in pair order, and per open
  // pair (by rank) the endpoint `true` puts first: two bits per pair and a
  // few bytes per open pair, where a variable and an endpoint per pair took
  // 8 bytes (2.5 GB at a million transactions).
  RankBits open_;
  std::uint32_t first_pair_var_ = 0;
  std::vector<TxnId> open_first_;
  std::uint32_t pair_var(std::size_t p) const { return static_cast<std::uint32_t>(first_pair_var_ + open_.rank(p)); }
  std::vector<std::uint32_t> choice_var_;  // per choice: first candidate var, or kNoVar
  std::vector<std::uint32_t> guard_var_;   // per guarded write: its truth
  std::vector<TwoWidth> two_width_;
  // Per key whose version order no model can change (every pair of its
  // writers decided, every writer certain): that order, computed once
  // rather than in every round. Empty for the other keys.
  std::vector<std::vector<TxnId>> settled_;
  // Per key other than a settled one: its open pairs (the pair, its
  // writers' indices into writers(k)), and when every writer is certain the
  // wins of each writer in its decided pairs.
  struct OpenPair {
    std::size_t p;
    std::uint32_t i, j;
  };
  std::vector<std::vector<OpenPair>> open_pairs_;
  std::vector<std::vector<std::uint32_t>> base_wins_;
  // model_edges()'s memo of each key's edges.
  struct KeyMemo {
    bool valid = false;
    std::vector<std::uint32_t> sig;  // key_signature() of the model they came from
    ModelEdges edges;
  };
  std::vector<KeyMemo> memo_;
};

// Lazy acyclicity (lazy.cpp): cycle clauses learnt from models until one is
// acyclic. Allowed leaves the accepted model in the encoder's solver.
SolveOutcome solve_lazy(Encoder& enc, const CheckOptions& options, Clock::time_point start);
// Eager acyclicity (eager.cpp): order variables with transitivity, one call.
// Adds stats.seconds.encode and .solve.
SolveOutcome solve_eager(Encoder& enc);

// The execution of an accepted model (execution.cpp): for SER a topological
// order of its dependency graph; for SI a begin/commit schedule (Viper's
// BC-graph: t's begin precedes its commit, a dependency a -> b puts a's
// commit before b's begin, an anti-dependency a -> b a's begin before b's
// commit) and the order of its commits. Also the read-from chosen.
// `model`: enc.model_edges() of the accepted model (the lazy loop has it
// already).
void fill_execution(const Encoder& enc, const ModelEdges& model, SolveOutcome& out);

}  // namespace iso::poly
