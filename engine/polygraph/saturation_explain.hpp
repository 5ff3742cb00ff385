// Clauses and explanations of the saturation checker (step 4 of
// saturation_impl.hpp).
//
// Contract: a CycleExplainer is made for one graph, a ModelGraph just built
// (check() or build_known()) from the Model `model`, and holds only
// references to them, to the Choices they come from and to the history.
//  - blocking_clause(cycle): the clause forbidding the choices (wr choices,
//    commit choices, and the so/wr path behind each saturation edge) that
//    every model with this cycle makes; empty when the cycle is in every
//    model.
//  - anomaly(cycle): the named anomaly the cycle shows, with the fact each
//    edge rests on and the reads that force its saturation edges; the cycle
//    rotated to start at the edge its description names.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/polygraph/saturation_graph.hpp"

namespace iso::poly::saturation {

class CycleExplainer {
 public:
  CycleExplainer(const History& h, const AbstractHistory& a, GraphLevel level,
                 const Choices& choices, const Model& model, const ModelGraph& graph)
      : h_(h), a_(a), level_(level), choices_(choices), model_(model), graph_(graph) {}

  std::vector<Lit> blocking_clause(const std::vector<std::uint32_t>& cycle) const;
  Anomaly anomaly(const std::vector<std::uint32_t>& cycle) const;

 private:
  Visibility visibility(const Edge& sat) const;
  std::vector<std::uint32_t> cheapest_path(TxnId from, TxnId to) const;
  // The literals an edge of the model exists by.
  void commit_lit(TxnId t, std::vector<Lit>& out) const;
  void choice_lit(std::uint32_t read, std::vector<Lit>& out) const;
  void edge_lits(std::uint32_t id, std::vector<Lit>& out) const;
  DepEdge dep(std::uint32_t id) const;
  // The edges as dependencies, each run of so edges as one (so is transitive).
  std::vector<DepEdge> deps(const std::vector<std::uint32_t>& ids) const;
  // Why the saturation edge e holds: the text, and the context it adds.
  std::string explain_sat_edge(const Edge& e, Anomaly& a) const;
  void explain_edges(const std::vector<std::uint32_t>& ids, Anomaly& a) const;
  // The cycle's index of the edge its description names, and its rank.
  std::pair<std::size_t, int> described_edge(const std::vector<std::uint32_t>& ids) const;
  void name_so_wr_cycle(const std::vector<std::uint32_t>& ids, Anomaly& a) const;
  void name_saturation_cycle(const std::vector<std::uint32_t>& ids, Anomaly& a) const;

  const History& h_;
  const AbstractHistory& a_;
  GraphLevel level_;
  const Choices& choices_;
  const Model& model_;
  const ModelGraph& graph_;
};

}  // namespace iso::poly::saturation
