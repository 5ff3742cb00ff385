// Operations, transactions and edges as structured JSON (json_fields.hpp).
#include "cli/json_fields.hpp"

#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"
#include "engine/polygraph/explain.hpp"

namespace iso::cli {

namespace {

using nlohmann::json;

json position_json(std::uint32_t p) { return p == 0 ? json(nullptr) : json(p); }

// kind, key, value and what else the kind has.
void add_kind(const History& h, const Op& op, json& j) {
  switch (op.kind) {
    case OpKind::Read:
      j["kind"] = op.list == kNoList ? "read" : "list-read";
      j["key"] = h.keys()[op.key].text;
      if (op.list == kNoList) {
        j["value"] = value_json(h, op.value);
      } else {
        json list = json::array();
        for (ValueId v : h.lists()[op.list]) list.push_back(value_json(h, v));
        j["value"] = std::move(list);
      }
      return;
    case OpKind::Write:
      j["kind"] = h.is_delete(op.value) ? "delete" : "write";
      j["key"] = h.keys()[op.key].text;
      j["value"] = value_json(h, op.value);
      return;
    case OpKind::PredicateRead: {
      const PredicateRead& pr = h.predicate_reads()[op.predicate];
      j["kind"] = "predicate-read";
      j["key"] = nullptr;
      j["value"] = nullptr;
      j["predicate"] = pr.predicate;
      json result = json::array();
      for (const auto& [k, v] : pr.result) result.push_back({{"key", h.keys()[k].text}, {"value", value_json(h, v)}});
      j["result"] = std::move(result);
      return;
    }
    case OpKind::PredicateWrite:
      j["kind"] = h.is_delete(op.value) ? "predicate-delete" : "predicate-write";
      j["key"] = nullptr;
      j["value"] = value_json(h, op.value);
      j["predicate"] = h.predicate_reads()[op.predicate].predicate;
      return;
  }
}

std::string_view status_word(TxnStatus s) {
  switch (s) {
    case TxnStatus::Committed: return "committed";
    case TxnStatus::Aborted: return "aborted";
    case TxnStatus::Unknown: return "unknown";
  }
  return "unknown";
}

}  // namespace

json operation_json(const History& h, TxnId t, std::uint32_t index) {
  const Op& op = h.txn(t).ops[index];
  json j{{"txn", h.txn(t).name}, {"index", index}};
  add_kind(h, op, j);
  j["line"] = position_json(op.line);
  j["column"] = position_json(op.column);
  j["text"] = format_op(h, op);
  return j;
}

json transaction_json(const History& h, TxnId t) {
  const Transaction& txn = h.txn(t);
  json ops = json::array(), operations = json::array();
  for (std::uint32_t i = 0; i < txn.ops.size(); ++i) {
    ops.push_back(format_op(h, txn.ops[i]));
    operations.push_back(operation_json(h, t, i));
  }
  const bool t0 = t == kInitTxn;
  return json{{"id", txn.name},
              {"session", t0 ? json(nullptr) : json(txn.session)},
              {"position", t0 ? json(nullptr) : json(txn.position)},
              {"status", status_word(txn.status)},
              {"ops", std::move(ops)},
              {"operations", std::move(operations)}};
}

json edge_json(const History& h, const DepEdge& e) {
  json operations = json::array();
  for (const auto& [t, i] : poly::edge_operations(h, e)) operations.push_back(operation_json(h, t, i));
  return json{{"from", h.txn(e.from).name},
              {"to", h.txn(e.to).name},
              {"type", std::string(edge_type_name(e))},
              {"key", keyed(e.type) ? json(h.keys()[e.key].text) : json(nullptr)},
              {"operations", std::move(operations)}};
}

}  // namespace iso::cli
