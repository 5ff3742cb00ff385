// predicate_write_gap() (abstract.hpp): what the abstraction of predicate
// writes does not model, found by one pass over each transaction that has a
// predicate write, keeping which keys a predicate write guards (wrote only
// if its predicate held) and which the transaction wrote for certain.
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "engine/history/abstract.hpp"
#include "engine/history/front_end.hpp"
#include "engine/history/printer.hpp"

namespace iso {

namespace {

class GapSearch {
 public:
  explicit GapSearch(const History& h) : h_(h), index_(h), predicates_(h) {}
  // The first operation of t that depends on a guarded write's truth in a
  // way not modelled, said as predicate_write_gap() says it.
  std::optional<std::string> in_transaction(TxnId t);

 private:
  std::vector<KeyId> covered(std::uint32_t p) {
    const auto& pred = predicates_[p];
    return pred ? index_.covered(*pred) : std::vector<KeyId>{};
  }
  // Whether anything other than the predicate write (pw_txn, pw_op) may
  // have left (k, v): the initial state, an item write, or another
  // predicate write of v that covers k.
  bool written_elsewhere(TxnId pw_txn, std::uint32_t pw_op, KeyId k, ValueId v);

  const History& h_;
  const KeyIndex index_;
  front_end::ParsedPredicates predicates_;
  // Indexed at the first question: (key, value) of every item write, and
  // the predicate writes by value.
  std::optional<std::unordered_set<std::uint64_t>> item_writes_;
  std::unordered_map<ValueId, std::vector<std::pair<TxnId, std::uint32_t>>> pws_of_value_;
};

bool GapSearch::written_elsewhere(TxnId pw_txn, std::uint32_t pw_op, KeyId k, ValueId v) {
  if (h_.t0_writes(k) && h_.init_value(k) == v) return true;
  if (!item_writes_) {
    item_writes_.emplace();
    for (TxnId u = 1; u < h_.num_txns(); ++u)
      for (std::uint32_t j = 0; j < h_.txn(u).ops.size(); ++j) {
        const Op& op = h_.txn(u).ops[j];
        if (op.kind == OpKind::Write) item_writes_->insert(std::uint64_t{op.key} << 32 | op.value);
        if (op.kind == OpKind::PredicateWrite) pws_of_value_[op.value].emplace_back(u, j);
      }
  }
  if (item_writes_->count(std::uint64_t{k} << 32 | v)) return true;
  for (const auto& [u, j] : pws_of_value_[v]) {
    if (u == pw_txn && j == pw_op) continue;
    const auto keys = covered(h_.txn(u).ops[j].predicate);
    if (std::binary_search(keys.begin(), keys.end(), k)) return true;
  }
  return false;
}

std::optional<std::string> GapSearch::in_transaction(TxnId t) {
  const Transaction& txn = h_.txn(t);
  std::unordered_map<KeyId, std::uint32_t> guarded;  // key -> the predicate write guarding it
  std::unordered_set<KeyId> written;                  // a certain write of the transaction
  for (std::uint32_t i = 0; i < txn.ops.size(); ++i) {
    const Op& op = txn.ops[i];
    switch (op.kind) {
      case OpKind::Write:
        guarded.erase(op.key);
        written.insert(op.key);
        break;
      case OpKind::Read: {
        // Its value says whether the predicate write changed the key,
        // unless another write of the key left that value too.
        auto g = guarded.find(op.key);
        if (g == guarded.end()) break;
        const Op& pw = txn.ops[g->second];
        if (op.value == pw.value && written_elsewhere(t, g->second, op.key, op.value))
          return fmt::format("{}: {} returns the value {} wrote, which another write of the key "
                             "left too: whether it changed {} is ambiguous",
                             h_.txn_name(t), format_op(h_, op), format_op(h_, pw), h_.key_text(op.key));
        break;
      }
      case OpKind::PredicateRead:
      case OpKind::PredicateWrite:
        for (const KeyId k : covered(op.predicate)) {
          if (auto g = guarded.find(k); g != guarded.end())
            return fmt::format("{}: {} reads {} after {} in the same transaction, and depends on "
                               "whether that changed it, which is not modelled",
                               h_.txn_name(t), format_op(h_, op), h_.key_text(k),
                               format_op(h_, txn.ops[g->second]));
          if (op.kind == OpKind::PredicateWrite && !written.count(k)) guarded.emplace(k, i);
        }
        break;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> predicate_write_gap(const History& h) {
  if (!h.has_predicate_writes()) return std::nullopt;
  GapSearch search(h);
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const auto& ops = h.txn(t).ops;
    if (std::none_of(ops.begin(), ops.end(), [](const Op& op) { return op.kind == OpKind::PredicateWrite; }))
      continue;
    if (auto gap = search.in_transaction(t)) return gap;
  }
  return std::nullopt;
}

}  // namespace iso
