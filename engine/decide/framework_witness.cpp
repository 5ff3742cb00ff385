// A graph checker's commit order (and SI schedule) turned into the witness
// relations a framework declares (framework_witness.hpp).
#include "engine/decide/framework_witness.hpp"

#include <algorithm>
#include <unordered_map>

#include "engine/history/abstract.hpp"
#include "engine/model/schema.hpp"
#include "engine/verdict/graph_level.hpp"

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
    if (e.level == GraphLevel::Ser) {
      visible = Form::Order;  // every earlier transaction
    } else if (e.level == GraphLevel::Si) {
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
    // Each key's writers in commit order, in one pass over the operations:
    // item writes, and the predicate writes' writes that happened. With
    // predicates T0 writes every key (an unborn version where the initial
    // state does not: engine/history/abstract.hpp).
    std::vector<std::vector<TxnId>> writers(h.keys().size());
    std::unordered_map<TxnId, std::vector<KeyId>> predicate_writes;
    for (const auto& [t, k] : e.predicate_writes) predicate_writes[t].push_back(k);
    auto add = [&](TxnId t, KeyId k) {
      if (writers[k].empty() || writers[k].back() != t) writers[k].push_back(t);
    };
    for (TxnId t : e.commit_order) {
      if (t == kInitTxn) {
        for (KeyId k = 0; k < h.keys().size(); ++k)
          if (h.t0_writes(k) || t0_writes_unborn(h)) writers[k].push_back(kInitTxn);
        continue;
      }
      std::vector<KeyId> keys;
      for (const Op& op : h.txn(t).ops)
        if (op.kind == OpKind::Write) keys.push_back(op.key);
      if (auto it = predicate_writes.find(t); it != predicate_writes.end())
        keys.insert(keys.end(), it->second.begin(), it->second.end());
      std::sort(keys.begin(), keys.end());
      for (KeyId k : keys) add(t, k);
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
