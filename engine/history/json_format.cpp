// The native JSON history writer (FORMATS.md §1): a History as the JSON
// object read_native_json (formats/native.cpp) reads back with the same
// meaning. Keys that spell their integer are written as integers, values as
// integers, strings or null, deletes as ["d", key] and ["pd", predicate].
#include "engine/history/json_format.hpp"

#include <charconv>
#include <string>
#include <utility>

namespace iso {

namespace {

using nlohmann::json;

json key_json(const History& h, KeyId k) {
  const Key& key = h.keys()[k];
  if (key.integer) {
    std::int64_t v = 0;
    const char* end = key.text.data() + key.text.size();
    auto [p, ec] = std::from_chars(key.text.data(), end, v);
    // Only the integer's own spelling: "007" read back as 7 would be
    // another key.
    if (ec == std::errc{} && p == end && std::to_string(v) == key.text) return v;
  }
  return key.text;
}

// One operation as the reader reads it back.
json op_json(const History& h, const Op& op) {
  switch (op.kind) {
    case OpKind::Read: {
      if (op.list == kNoList) return json::array({"r", key_json(h, op.key), value_json(h, op.value)});
      json list = json::array();
      for (ValueId v : h.lists()[op.list]) list.push_back(value_json(h, v));
      return json::array({"r", key_json(h, op.key), std::move(list)});
    }
    case OpKind::Write:
      if (h.is_delete(op.value)) return json::array({"d", key_json(h, op.key)});
      return json::array({"w", key_json(h, op.key), value_json(h, op.value)});
    case OpKind::PredicateRead: {
      const PredicateRead& pr = h.predicate_reads()[op.predicate];
      json result = json::array();
      for (const auto& [k, v] : pr.result)
        result.push_back(json::array({key_json(h, k), value_json(h, v)}));
      return json::array({"pr", pr.predicate, std::move(result)});
    }
    case OpKind::PredicateWrite: {
      const std::string& pred = h.predicate_reads()[op.predicate].predicate;
      if (h.is_delete(op.value)) return json::array({"pd", pred});
      return json::array({"pw", pred, value_json(h, op.value)});
    }
  }
  return json();
}

// A transaction: its id, operations, status when not committed, and the
// timestamps it has.
json txn_json(const History& h, const Transaction& txn) {
  json ops = json::array();
  for (const Op& op : txn.ops) ops.push_back(op_json(h, op));
  json tx = json::object();
  tx["id"] = txn.name;
  tx["ops"] = std::move(ops);
  if (txn.status == TxnStatus::Aborted) tx["status"] = "aborted";
  if (txn.status == TxnStatus::Unknown) tx["status"] = "unknown";
  if (txn.begin) tx["begin"] = *txn.begin;
  if (txn.commit) tx["commit"] = *txn.commit;
  if (txn.begin_end) tx["begin_end"] = *txn.begin_end;
  if (txn.commit_start) tx["commit_start"] = *txn.commit_start;
  if (txn.start_ts) tx["sts"] = json::array({txn.start_ts->physical, txn.start_ts->logical});
  if (txn.commit_ts) tx["cts"] = json::array({txn.commit_ts->physical, txn.commit_ts->logical});
  return tx;
}

}  // namespace

// (Never a delete's tombstone in a file: no read returns it, and a delete is
// written as ["d", key].)
nlohmann::json value_json(const History& h, ValueId v) {
  const Value& val = h.values()[v];
  if (std::holds_alternative<std::monostate>(val) || std::holds_alternative<Deleted>(val)) return nullptr;
  if (const auto* i = std::get_if<std::int64_t>(&val)) return *i;
  if (const auto* u = std::get_if<BigUnsigned>(&val)) return u->value;
  return std::get<std::string>(val);
}

nlohmann::json write_native_json(const History& h) {
  json out = json::object();
  out["format"] = "isosynth-history";
  out["version"] = 1;
  // Which keys T0 writes: every key (the default), or only those of "init".
  const bool explicit_only = h.initial_writes() == InitialWrites::ExplicitOnly;
  if (explicit_only) out["initial_state"] = "explicit-only";
  json init = json::object();
  for (KeyId k = 0; k < h.keys().size(); ++k)
    if (h.t0_writes(k)) init[h.keys()[k].text] = value_json(h, h.init_value(k));
  out["init"] = std::move(init);
  json sessions = json::array();
  for (const auto& session : h.sessions()) {
    json txns = json::array();
    for (TxnId t : session) txns.push_back(txn_json(h, h.txn(t)));
    sessions.push_back(std::move(txns));
  }
  out["sessions"] = std::move(sessions);
  return out;
}

}  // namespace iso
