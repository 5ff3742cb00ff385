// The history space's dirty reads (SpaceOptions::dirty_reads;
// cegis/history_space.hpp): the variables of aborted transactions and
// intermediate writes, the committed part the base relations see (committed
// final writes, reads of committed versions), the aborted and intermediate
// reads (abr, irr), and the rules of aborted transactions. Without dirty
// reads every such variable is kFalse and the steps bind empty relations.
#include "cegis/history_space.hpp"

#include <algorithm>

#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

void HistorySpace::make_dirty_variables(Circuit& c) {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values;
  aborted_.assign(n + 1, kFalse);
  intermediate_.assign(static_cast<std::size_t>(n + 1) * K * V, kFalse);
  for (std::uint32_t t = 1; t <= n && dirty_; ++t) {
    aborted_[t] = c.input();
    for (std::uint32_t x = 0; x < K; ++x)
      for (std::uint32_t v = 1; v < V; ++v) intermediate_[(static_cast<std::size_t>(t) * K + x) * V + v] = c.input();
  }
}

HistorySpace::CommittedPart HistorySpace::bind_dirty_reads(Circuit& c, const BaseCells& cells) {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values;
  const Universe& u = universe_;
  const std::uint32_t N = u.size();
  const model::HistorySchema& s = model::history_schema();
  auto A = [&](std::uint32_t t) { return aborted_[t]; };
  // Which values of a key are committed versions: the initial value, and
  // the final writes of committed transactions (values are unique, so a
  // value is one writer's, of one kind).
  clean_.assign(static_cast<std::size_t>(K) * V, kTrue);
  std::vector<BLit> abr_val(static_cast<std::size_t>(K) * V, kFalse), irr_val(abr_val);
  for (std::uint32_t x = 0; x < K && dirty_; ++x)
    for (std::uint32_t v = 1; v < V; ++v) {
      std::vector<BLit> committed, aborted, inter;
      for (std::uint32_t t = 1; t <= n; ++t) {
        committed.push_back(c.and_(write_var(t, x, v), !A(t)));
        aborted.push_back(c.and_(write_var(t, x, v), A(t)));
        inter.push_back(intermediate_var(t, x, v));
      }
      clean_[x * V + v] = c.or_(committed);
      abr_val[x * V + v] = c.or_(aborted);
      irr_val[x * V + v] = c.or_(inter);
    }
  // The base relations see the committed part: committed final writes,
  // reads of committed versions.
  BoolMatrix committed_writes = writes_, clean_reads = reads_;
  if (dirty_) {
    std::vector<std::pair<Index, BLit>> cw, cr, abr, irr;
    for (const auto& [idx, l] : cells.writes) {
      const std::uint32_t t = static_cast<std::uint32_t>(idx / (Index{N} * N)) - u.atom(model::kTxn, 0);
      cw.emplace_back(idx, c.and_(l, !A(t)));
    }
    for (const auto& [idx, l] : cells.reads) {
      const std::uint32_t x = static_cast<std::uint32_t>(idx / N % N) - u.atom(model::kObj, 0);
      const std::uint32_t v = static_cast<std::uint32_t>(idx % N) - u.atom(model::kVal, 0);
      cr.emplace_back(idx, c.and_(l, clean_[x * V + v]));
      if (v == 0) continue;
      abr.emplace_back(idx, c.and_(l, abr_val[x * V + v]));
      irr.emplace_back(idx, c.and_(l, irr_val[x * V + v]));
    }
    committed_writes = make_matrix(c, 3, std::move(cw));
    clean_reads = make_matrix(c, 3, std::move(cr));
    BoolMatrix abr_m = make_matrix(c, 3, std::move(abr)), irr_m = make_matrix(c, 3, std::move(irr));
    std::vector<BLit> any_abr, any_irr;
    for (const auto& cell : abr_m.cells) any_abr.push_back(cell.second);
    for (const auto& cell : irr_m.cells) any_irr.push_back(cell.second);
    some_abr_ = c.or_(any_abr);
    some_irr_ = c.or_(any_irr);
    bindings_.bind(s.abr, std::move(abr_m));
    bindings_.bind(s.irr, std::move(irr_m));
  } else {
    bindings_.bind(s.abr, constant_matrix(N, 3, {}));
    bindings_.bind(s.irr, constant_matrix(N, 3, {}));
  }
  return {committed_writes, clean_reads};
}

void HistorySpace::aborted_constraints(Circuit& c, std::vector<BLit>& k) const {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values;
  auto A = [&](std::uint32_t t) { return aborted_[t]; };
  auto R = [&](std::uint32_t t, std::uint32_t x, std::uint32_t v) { return read_var(t, x, v); };
  // Aborted transactions: writes only, in no session; an intermediate write
  // is a committed transaction's, followed by its final write of the key.
  for (std::uint32_t t = 1; t <= n && dirty_; ++t) {
    for (std::uint32_t x = 0; x < K; ++x) {
      std::vector<BLit> is, ws;
      for (std::uint32_t v = 1; v < V; ++v) {
        k.push_back(c.implies(A(t), !R(t, x, v)));
        is.push_back(intermediate_var(t, x, v));
        ws.push_back(write_var(t, x, v));
      }
      k.push_back(c.implies(A(t), !R(t, x, 0)));
      k.push_back(c.at_most_one(is));
      k.push_back(c.implies(c.or_(is), c.and_(!A(t), c.or_(ws))));
    }
    for (std::uint32_t j = 1; j <= n; ++j)
      if (j != t) k.push_back(c.implies(A(t), !so_var(std::min(t, j), std::max(t, j))));
  }
}

}  // namespace iso::cegis
