#include "engine/decide/framework_witness.hpp"

#include <algorithm>

#include "engine/model/schema.hpp"

namespace iso {

namespace {

using Tuple = std::vector<std::uint32_t>;

// Every pair (a, b) with a before b in `order`.
std::vector<Tuple> order_pairs(const std::vector<TxnId>& order) {
  std::vector<Tuple> out;
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t j = i + 1; j < order.size(); ++j) out.push_back({order[i], order[j]});
  return out;
}

// Visibility of a snapshot-isolation schedule: u is visible to t when u
// committed before t began; T0 is visible to everyone.
std::vector<Tuple> snapshot_visibility(const GraphExecution& e) {
  std::vector<Tuple> out;
  std::vector<TxnId> committed{kInitTxn};
  for (TxnId t : e.commit_order)
    if (t != kInitTxn) out.push_back({kInitTxn, t});
  for (const ScheduleEvent& ev : e.schedule) {
    if (ev.commit) {
      committed.push_back(ev.txn);
      continue;
    }
    for (TxnId u : committed)
      if (u != kInitTxn) out.push_back({u, ev.txn});
  }
  return out;
}

bool writes(const History& h, TxnId t, KeyId k) {
  if (t == kInitTxn) return h.t0_writes(k);
  for (const Op& op : h.txn(t).ops)
    if (op.kind == OpKind::Write && op.key == k) return true;
  return false;
}

}  // namespace

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
  if (decls.size() == 1 && is_txn_order(decls[0])) {
    w.relations.push_back({decls[0].name, txn_txn, true, e.commit_order, order_pairs(e.commit_order)});
    return w;
  }
  if (decls.size() == 2 && (is_txn_order(decls[0]) != is_txn_order(decls[1]))) {
    const WitnessDecl& ar = is_txn_order(decls[0]) ? decls[0] : decls[1];
    const WitnessDecl& vis = is_txn_order(decls[0]) ? decls[1] : decls[0];
    if (vis.order || vis.rel->type != txn_txn) return std::nullopt;
    std::vector<Tuple> visible;
    if (e.level == poly::GraphLevel::Ser) {
      visible = order_pairs(e.commit_order);
    } else if (e.level == poly::GraphLevel::Si) {
      visible = snapshot_visibility(e);
    } else {
      return std::nullopt;
    }
    for (const WitnessDecl& d : decls) {
      if (&d == &ar)
        w.relations.push_back({d.name, txn_txn, true, e.commit_order, order_pairs(e.commit_order)});
      else
        w.relations.push_back({d.name, txn_txn, false, {}, visible});
    }
    std::sort(w.relations.back().tuples.begin(), w.relations.back().tuples.end());
    return w;
  }
  if (decls.size() == 1 && !decls[0].order && decls[0].rel->type == obj_txn_txn) {
    std::vector<Tuple> tuples;
    for (KeyId k = 0; k < h.keys().size(); ++k) {
      std::vector<TxnId> writers;
      for (TxnId t : e.commit_order)
        if (writes(h, t, k)) writers.push_back(t);
      for (std::size_t i = 0; i < writers.size(); ++i)
        for (std::size_t j = i + 1; j < writers.size(); ++j) tuples.push_back({k, writers[i], writers[j]});
    }
    w.relations.push_back({decls[0].name, obj_txn_txn, false, {}, std::move(tuples)});
    return w;
  }
  return std::nullopt;
}

}  // namespace iso
