// The choices of the saturation checker (steps 1 and 2 of saturation_impl.hpp):
// every external read of a transaction that may commit, with its candidate
// writers; which unknown-status transactions cannot have committed; and the
// SAT encoding of what is left open.
//
// Contract:
//  - prepare(forced_aborts): input the abstract history and the transactions
//    that cannot have committed; output the reads and their candidates, or
//    the committed read that no candidate able to commit justifies.
//  - Pruning (saturation_prune.hpp) may then narrow the choices: mark
//    candidates cyclic, fix reads, drop unknown-status readers.
//  - encode(): one variable per candidate of each open read and per
//    unknown-status transaction that may commit, with the clauses tying them;
//    after it the choices do not change.
//  - read_model(solver model): the members and read-from of the solver's
//    current model, written into a Model the caller owns.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/polygraph/saturation_impl.hpp"

namespace iso::poly::saturation {

class Choices {
 public:
  Choices(const History& h, const AbstractHistory& a) : h_(h), a_(a), n_(h.num_txns()) {}

  // Step 1. A violation when a committed read has no candidate writer that
  // can have committed.
  std::optional<Anomaly> prepare(const std::vector<TxnId>& forced_aborts);
  // Whether any choice is open: a read with several candidates (or of an
  // unknown-status transaction), or an unknown-status transaction that may
  // have committed.
  bool open() const;
  // Step 2: the variables and clauses; the first model is steered to the
  // preferred candidates (choose_preferences()).
  void encode(CheckStats& stats);
  bool has_vars() const { return has_vars_; }
  sat::Solver& solver() { return solver_; }
  const sat::Solver& solver() const { return solver_; }
  // The members and read-from of the solver's model (or of the fixed
  // choices when there are no variables).
  void read_model(Model& m) const;

  // --- what the other stages read -------------------------------------------
  bool unknown(TxnId t) const { return h_.txn(t).status == TxnStatus::Unknown; }
  bool dead(TxnId t) const { return dead_[t] != 0; }
  // The read whose pruning showed that t cannot have committed, or kNone.
  std::uint32_t dead_why(TxnId t) const { return dead_why_[t]; }
  std::uint32_t commit_var(TxnId t) const { return cvar_[t]; }
  const std::vector<Read>& reads() const { return reads_; }
  // Transaction t's reads are reads()[read_begin(t) ..< read_end(t)].
  std::uint32_t read_begin(TxnId t) const { return read_begin_[t]; }
  std::uint32_t read_end(TxnId t) const { return read_end_[t]; }
  std::span<const TxnId> cands(const Read& r) const { return {cands_.data() + r.first, r.count}; }
  std::span<const char> alive(const Read& r) const { return {alive_.data() + r.first, r.count}; }
  // The literal "read r reads from its i-th candidate".
  Lit cand_lit(std::uint32_t r, std::uint32_t i) const {
    return i == reads_[r].pref ? Lit::neg(reads_[r].var + i) : Lit::pos(reads_[r].var + i);
  }

  // --- what pruning changes --------------------------------------------------
  std::span<char> alive(const Read& r) { return {alive_.data() + r.first, r.count}; }
  // Read r of a committed reader has one candidate left, committed: fixed.
  void fix(std::uint32_t r, TxnId writer) { reads_[r].known = writer; }
  // Unknown-status t cannot have committed (read r showed it): it is no
  // longer a candidate of any read.
  void drop(TxnId t, std::uint32_t r);

 private:
  // Step 1's fixpoint: marks dead the unknown-status transactions whose
  // read no candidate justifies; the committed read so left, if any.
  std::optional<Anomaly> drop_unjustified();
  void collect_reads();
  std::vector<double> pseudo_times() const;
  void choose_preferences();
  std::vector<std::vector<std::uint32_t>> waiting_reads(std::vector<std::uint32_t>& missing) const;
  void prefer_candidates(TxnId t, const std::vector<std::uint32_t>& placed_at,
                         const std::vector<double>& tau);
  void encode_read(std::uint32_t ri, std::vector<Lit>& clause);
  void encode_commit_implications();

  const History& h_;
  const AbstractHistory& a_;
  const std::size_t n_;
  std::vector<char> dead_;               // unknown status, cannot have committed
  std::vector<std::uint32_t> dead_why_;  // the read that showed it, if pruning did
  std::vector<std::uint32_t> cvar_;      // commit variable, or kNone
  std::vector<Read> reads_;
  std::vector<TxnId> cands_;  // every read's candidates (Read::first)
  std::vector<char> alive_;   // and what pruning left of each
  std::vector<std::uint32_t> read_begin_, read_end_;  // per txn: its range in reads_
  sat::Solver solver_;
  bool has_vars_ = false;
};

}  // namespace iso::poly::saturation
