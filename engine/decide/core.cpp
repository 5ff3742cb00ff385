// The violation core of core.hpp: transactions dropped one at a time while
// the level still rejects what is left.
#include "engine/decide/core.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace iso {

History part_of(const History& h, const std::vector<bool>& keep) {
  History out = h;
  // Writers of each (key, value), to find the reads that only dropped
  // transactions explain.
  std::map<std::pair<KeyId, ValueId>, std::vector<TxnId>> writers;
  for (TxnId t = 1; t < h.num_txns(); ++t)
    for (const Op& op : h.txn(t).ops)
      if (op.kind == OpKind::Write) writers[{op.key, op.value}].push_back(t);
  auto only_dropped = [&](const Op& op) {
    auto it = writers.find({op.key, op.value});
    if (it == writers.end()) return false;  // the initial value, or thin air: kept as it is
    return std::none_of(it->second.begin(), it->second.end(), [&](TxnId w) { return keep[w]; }) &&
           !(op.value == h.init_value(op.key) && h.t0_writes(op.key));
  };
  for (TxnId t = 1; t < out.num_txns(); ++t) {
    auto& ops = out.txn(t).ops;
    if (!keep[t]) {
      ops.clear();
      continue;
    }
    std::erase_if(ops, [&](const Op& op) { return op.kind == OpKind::Read && op.list == kNoList && only_dropped(op); });
  }
  return out;
}

std::optional<std::vector<TxnId>> violation_core(const History& h, const Level& level,
                                                 const DecideOptions& opt, std::size_t max_txns) {
  std::vector<bool> keep(h.num_txns(), false);
  std::size_t busy = 0;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    keep[t] = !h.txn(t).ops.empty();
    busy += keep[t];
  }
  if (busy > max_txns || h.has_list_reads()) return std::nullopt;
  DecideOptions quiet = opt;
  quiet.explain = false;
  quiet.witness = false;
  // Violated, allowed, or no answer (nullopt).
  auto rejects = [&](const std::vector<bool>& k) -> std::optional<bool> {
    const Verdict v = decide(part_of(h, k), level, quiet).verdict;
    if (v == Verdict::Unknown) return std::nullopt;
    return v == Verdict::Violated;
  };
  // Deletion until no transaction can go; a transaction whose removal was
  // refused is tried again after later removals, until a pass removes none.
  bool removed = true;
  while (removed) {
    removed = false;
    for (TxnId t = 1; t < h.num_txns(); ++t) {
      if (!keep[t]) continue;
      keep[t] = false;
      const auto r = rejects(keep);
      if (!r) return std::nullopt;
      if (*r) {
        removed = true;
      } else {
        keep[t] = true;
      }
    }
  }
  std::vector<TxnId> core;
  for (TxnId t = 1; t < h.num_txns(); ++t)
    if (keep[t]) core.push_back(t);
  return core;
}

}  // namespace iso
