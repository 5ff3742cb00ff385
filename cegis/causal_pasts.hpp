// Stale writers ruled out under causal consistency (cegis/predictor.hpp):
// the writers a free read could take only in runs that have a causal cycle.
//
// A free read's observed causal past is kept, with its observed writers,
// in every run of the space where the read is free: up to the read
// (strict) or up to its transaction (relaxed, where the transaction's reads
// are free). A transaction before the boundary one in its session is
// complete, so its reads are not free and take complete writers, whose
// reads are not free either, and so on.
// So if a past holds a write of x by t2 (t2 then happens before the read's
// transaction) and w happens before t2, CC forces t2's version after w's
// and w before t2: a cycle. The writers so ruled out are a prefix of each
// session's writers of x, and T0 whenever the past has a write of x; a
// writer after the read's transaction in its own session is ruled out too.
// None of this asks CC to allow the observed run: only that its operations'
// pasts are acyclic (else there are no clocks, and no clauses). When CC
// does not allow it, a read's observed writer may itself be stale: the
// read, free, must change; kept as observed, the search's cycles exclude it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cegis/prediction_space.hpp"
#include "engine/logic/circuit.hpp"

namespace iso::cegis {

class CausalPasts {
 public:
  // Vector clocks over the observed run's operations (as many entries per
  // operation as sessions). No clauses come of a run whose operations'
  // causal order is cyclic.
  CausalPasts(const ObservedTrace& tr, PredictMode mode);

  // For every read event, the writers its own kept past rules out.
  std::vector<logic::BLit> rule_out_all(const PredictionSpace& space, logic::Circuit& c) const;

  // Relaxed: the writers a transaction's reads may no longer take once one
  // of them takes w1. w1 and its observed past (w1 is complete, so its past
  // is kept) join the transaction's past; a writer that past overwrites
  // would close a cycle, so "some read of the transaction takes w1"
  // excludes it for every read of the transaction (one clause per read and
  // session: the writers so excluded are a prefix). This is what makes
  // causal consistency change many reads of a boundary transaction
  // together; a strict boundary frees one read per session, which the
  // search's cycles handle. Only ever clauses that CC implies (the search
  // stays exact without them); `budget` bounds the reads examined,
  // transactions in id order. Empty under a strict boundary.
  std::vector<logic::BLit> rule_out_joined(const PredictionSpace& space, logic::Circuit& c,
                                           std::size_t budget) const;

 private:
  using Past = std::vector<std::uint32_t>;  // per session: how many of its operations
  Past own_past(std::size_t r) const;
  Past txn_past(TxnId t, bool inclusive) const;  // before t's first operation, or up to its last
  // The stale writers of read r under `past`: per session how many of its
  // writers of r's key, and T0.
  struct Stale {
    std::vector<std::size_t> first;
    bool initial = false;
  };
  Stale stale(std::size_t r, const Past& past) const;
  bool is_stale(std::size_t r, const Stale& st, TxnId w) const;  // w among them, or after r in its session
  bool after(TxnId w, TxnId t) const;  // w happens after t: t is in w's past
  std::size_t op_id(TxnId t, std::size_t i) const;

  const ObservedTrace& tr_;
  PredictMode mode_;
  std::size_t S_ = 0;
  std::vector<std::size_t> base_, first_op_;
  std::vector<std::vector<TxnId>> txn_at_;  // per session position: its transaction
  // Per operation and session: how many of the session's operations are
  // in the operation's observed past, itself included (empty: the observed
  // run has no causal order).
  std::vector<std::uint32_t> clock_;
  // Per key and session: the positions of its writes of the key, and the
  // first operations of its writers of the key (empty: the key has none).
  using PerSession = std::vector<std::vector<std::size_t>>;
  std::vector<PerSession> writes_at_, writers_at_;
  const std::vector<std::size_t>& at(const std::vector<PerSession>& m, KeyId k, std::size_t s) const;
};

}  // namespace iso::cegis
