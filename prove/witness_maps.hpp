// Witness maps: how to build level B's witness from level A's, so that
// A(h, w) ⇒ B(h, f(w)) may be proved for every h and w (implication.hpp).
// A small grammar of relational terms over h, A's witness relations and the
// linearizations A's hypotheses gave (smt_problem.hpp):
//   an order (co, ar):   A's orders; a linearization, with T0 moved first;
//                        last, A's relations and hb, each ∪ T0×T⁺, orders
//                        only where a history makes them one (the goal's
//                        total_order must refute them)
//   a relation (vis):    A's relations and orders; O?;(so ∪ wr) ∪ T0×T⁺;
//                        O?;(so ∪ wr ∪ ww(O)) ∪ T0×T⁺, ww(O) = O on pairs
//                        writing a common key; so ∪ wr ∪ T0×T⁺; hb ∪ T0×T⁺
//   per key (ww(x)):     an order or relation restricted to x's writers
//   read-from (wrx):     kept, or each read's latest visible writer (vis, ar)
//                        or latest O-earlier writer; only between levels of
//                        transaction-level histories that do not tell item
//                        reads apart
// Each map is a candidate; which one proves the claim is the prover's call.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/level/level.hpp"
#include "prove/smt_problem.hpp"

namespace iso::prove {

struct Term {
  logic::ExprPtr expr;
  std::string text;  // "co?;(so ∪ wr) ∪ T0×T⁺"
};

struct WitnessMap {
  std::vector<std::pair<const WitnessDecl*, Term>> witness;  // one per B's witness relation
  std::optional<Term> read_from;                             // a new wrx; none: kept
  std::string text() const;                                  // "vis := co, ar := co"
};

// At most `limit` maps, simplest first (identity where B's relation is A's).
// Empty when some witness relation of B has no candidate of its type.
std::vector<WitnessMap> witness_maps(const Level& a, const Level& b, const std::vector<Linearization>& lins,
                                     bool rechoose_read_from, std::size_t limit);

}  // namespace iso::prove
