#include "engine/decide/framework_witness.hpp"


#include "engine/model/schema.hpp"

namespace iso {


std::optional<Witness> framework_witness(const History& h, const Framework& fw,
                                         const GraphExecution& e) {
  using model::kObj;
  using model::kTxn;
  const logic::Type txn_txn{kTxn, kTxn}, obj_txn_txn{kObj, kTxn, kTxn};
  Witness w;
  w.chosen_reads = e.chosen_reads;
  w.committed_unknown = e.committed_unknown;
  w.schedule = e.schedule;
  const auto& decls = fw.witness;
  auto is_txn_order = [&](const WitnessDecl& d) { return d.order && d.rel->type == txn_txn; };
  using Form = WitnessRelation::Form;
  auto order = [&](const WitnessDecl& d) {
    return WitnessRelation{d.name, txn_txn, true, Form::Order, e.commit_order, {}, {}};
  };
  if (decls.size() == 1 && is_txn_order(decls[0])) {
    w.relations.push_back(order(decls[0]));
    return w;
  }
  if (decls.size() == 2 && (is_txn_order(decls[0]) != is_txn_order(decls[1]))) {
    const WitnessDecl& ar = is_txn_order(decls[0]) ? decls[0] : decls[1];
    const WitnessDecl& vis = is_txn_order(decls[0]) ? decls[1] : decls[0];
    if (vis.order || vis.rel->type != txn_txn) return std::nullopt;
    Form visible;
    if (e.level == poly::GraphLevel::Ser) {
      visible = Form::Order;  // every earlier transaction
    } else if (e.level == poly::GraphLevel::Si) {
      visible = Form::Snapshots;
    } else {
      return std::nullopt;
    }
    for (const WitnessDecl& d : decls) {
      if (&d == &ar)
        w.relations.push_back(order(d));
      else
        w.relations.push_back(WitnessRelation{d.name, txn_txn, false, visible,
                                              visible == Form::Order ? e.commit_order
                                                                     : std::vector<TxnId>{},
                                              {}, {}});
    }
    return w;
  }
  if (decls.size() == 1 && !decls[0].order && decls[0].rel->type == obj_txn_txn) {
    // Each key's writers in commit order, in one pass over the operations.
    std::vector<std::vector<TxnId>> writers(h.keys().size());
    for (TxnId t : e.commit_order) {
      if (t == kInitTxn) {
        for (KeyId k = 0; k < h.keys().size(); ++k)
          if (h.t0_writes(k)) writers[k].push_back(kInitTxn);
        continue;
      }
      for (const Op& op : h.txn(t).ops)
        if (op.kind == OpKind::Write && (writers[op.key].empty() || writers[op.key].back() != t))
          writers[op.key].push_back(t);
    }
    WitnessRelation ww{decls[0].name, obj_txn_txn, false, Form::PerKey, {}, {}, {}};
    for (KeyId k = 0; k < h.keys().size(); ++k)
      if (!writers[k].empty()) ww.per_key.emplace_back(k, std::move(writers[k]));
    w.relations.push_back(std::move(ww));
    return w;
  }
  return std::nullopt;
}

}  // namespace iso
