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
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "cegis/prediction_space.hpp"
#include "engine/logic/circuit.hpp"

namespace iso::cegis {

class CausalPasts {
 public:
  // Vector clocks over the observed run's operations (as many entries per
  // operation as sessions). No clauses come of a run with no causal order.
  CausalPasts(const ObservedTrace& tr, PredictMode mode);

  // For every read event, the writers its own kept past rules out.
  std::vector<logic::BLit> rule_out_all(const PredictionSpace& space, logic::Circuit& c) const;

 private:
  using Past = std::vector<std::uint32_t>;  // per session: how many of its operations
  Past own_past(std::size_t r) const;
  // The stale writers of read r under `past`: per session how many of its
  // writers of r's key, and T0.
  struct Stale {
    std::vector<std::size_t> first;
    bool initial = false;
  };
  Stale stale(std::size_t r, const Past& past) const;
  bool is_stale(std::size_t r, const Stale& st, TxnId w) const;  // w among them, or after r in its session
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
  std::map<std::pair<std::size_t, KeyId>, std::vector<std::size_t>> writes_at_, writers_at_;
};

}  // namespace iso::cegis
