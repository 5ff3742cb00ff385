// 1-width pruning of the saturation checker's choices (step 2 of
// saturation_impl.hpp), and the explanation of a read it leaves without a
// candidate.
//
// Contract:
//  - Inputs: the Choices after prepare() (changed in place) and a ModelGraph
//    of them (rebuilt at will); the history and the level.
//  - prune(passes): to a fixpoint, marks kCyclic the candidates that close a
//    cycle with the edges every model has, fixes the reads of committed
//    readers left with one committed candidate, and drops the
//    unknown-status readers left with none. Returns a cycle every model
//    has, if any; counts its passes.
//  - explain_pruned(): for the first committed read left with no candidate,
//    the cycle its first pruned candidate closes (or, when every candidate
//    was dropped, why the first cannot have committed); nullopt if none.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/polygraph/saturation_graph.hpp"

namespace iso::poly::saturation {

class Pruner {
 public:
  Pruner(const History& h, const AbstractHistory& a, GraphLevel level, Choices& choices,
         ModelGraph& graph)
      : h_(h), a_(a), level_(level), choices_(choices), graph_(graph) {}

  std::optional<Anomaly> prune(std::size_t& passes);
  std::optional<Anomaly> explain_pruned();

 private:
  // The known model: every transaction that may commit, the fixed reads.
  void known_model(Model& m) const;
  // Committed writers of read rd's key with C(·, reader) in every model.
  void visible_writers(const Read& rd, std::vector<TxnId>& visible) const;
  // Prunes read r's candidates; true when that fixed the read or dropped
  // its reader (another pass may prune more).
  bool prune_read(std::uint32_t r, const std::vector<TxnId>& visible);
  std::optional<Anomaly> explain_read(std::uint32_t r);
  std::optional<Anomaly> explain_dropped(std::uint32_t r);

  const History& h_;
  const AbstractHistory& a_;
  GraphLevel level_;
  Choices& choices_;
  ModelGraph& graph_;
};

}  // namespace iso::poly::saturation
