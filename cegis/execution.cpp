// Executions of levels over the history space (cegis/execution.hpp).
#include "cegis/execution.hpp"

#include <fmt/format.h>

#include "engine/model/concrete.hpp"
#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

void check_witness_sorts(const lua::Framework& fw) {
  for (const auto& w : fw.witness)
    for (SortId col : w.rel->type)
      if (col != model::kTxn && col != model::kObj && col != model::kVal)
        throw lua::SpecError(fmt::format(
            "{}: framework '{}': synthesis supports witness relations over Txn, Obj and Val "
            "('{}' is {})",
            fw.location, fw.name, w.name, type_name(w.rel->type)));
}

bool is_txn_order(const WitnessDecl& w) {
  return w.order && w.rel->type == Type{model::kTxn, model::kTxn};
}

Execution make_execution(const lua::Framework& fw, const HistorySpace& space, Circuit& c, bool fix_order) {
  check_witness_sorts(fw);
  Execution e{&fw, {}, space.bindings(), kTrue};
  const Universe& u = space.universe();
  bool fixed_one = false;
  for (const auto& w : fw.witness) {
    BoolMatrix m;
    if (fix_order && is_txn_order(w) && !fixed_one) {
      m = space.index_order();
      fixed_one = true;
    } else {
      m = variable_matrix(c, u.size(), static_cast<std::uint32_t>(w.rel->type.size()), {},
                          model::all_tuples(u, w.rel->type));
    }
    e.bindings.bind(w.rel, m);
    e.witness.push_back(std::move(m));
  }
  // With repeated values, the execution chooses its read-from. When its
  // order is the index order, its wf (proved to put so ∪ wr inside that
  // order, order_contains_so_wr) makes that choice go up the index: saying
  // so only spares the solver the proof.
  e.wellformed = space.fresh_read_from(c, e.bindings, fixed_one);
  return e;
}

Witness decode_witness(const Execution& e, const Circuit& c, const std::vector<bool>& inputs,
                       const HistorySpace& space, std::uint32_t n_txns) {
  const Universe& u = space.universe();
  Witness w;
  for (std::size_t i = 0; i < e.framework->witness.size(); ++i) {
    const auto& decl = e.framework->witness[i];
    WitnessRelation rel{decl.name, decl.rel->type, decl.order, WitnessRelation::Form::Tuples, {}, {}, {}};
    for (const auto& [idx, lit] : e.witness[i].cells) {
      if (!c.eval(lit, inputs)) continue;
      std::vector<std::uint32_t> tuple(decl.rel->type.size());
      Index rest = idx;
      bool committed = true;  // aborted transactions are outside the sort Txn
      for (std::size_t col = tuple.size(); col-- > 0;) {
        const Atom a = static_cast<Atom>(rest % u.size());
        rest /= u.size();
        tuple[col] = a - u.first(decl.rel->type[col]);
        if (decl.rel->type[col] == model::kTxn && c.eval(space.aborted_var(tuple[col]), inputs)) committed = false;
      }
      if (committed) rel.tuples.push_back(std::move(tuple));
    }
    if (is_txn_order(decl)) {
      std::vector<TxnId> all;  // the committed transactions (aborted ones are not ordered)
      for (TxnId t = 0; t <= n_txns; ++t)
        if (!c.eval(space.aborted_var(t), inputs)) all.push_back(t);
      rel.sequence = order_sequence(rel.tuples, all);
    }
    w.relations.push_back(std::move(rel));
  }
  return w;
}

BLit unpermitted_read(const HistorySpace& space, const lua::Level& level, Circuit& c) {
  BLit out = kFalse;
  if (!level.permits.aborted_reads) out = c.or_(out, space.some_aborted_read());
  if (!level.permits.intermediate_reads) out = c.or_(out, space.some_intermediate_read());
  return out;
}

}  // namespace iso::cegis
