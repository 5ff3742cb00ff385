#include "cli/check_render.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cli/dot.hpp"
#include "engine/history/printer.hpp"

namespace iso::cli {

namespace {

// The operations of a transaction, shortened for long ones.
std::string ops_text(const History& h, TxnId t, std::size_t max_ops = 12) {
  if (t == kInitTxn) return "(initial values)";
  const auto& ops = h.txn(t).ops;
  std::string out;
  for (std::size_t i = 0; i < ops.size() && i < max_ops; ++i)
    out += (i ? " " : "") + format_op(h, ops[i]);
  if (ops.size() > max_ops) out += fmt::format(" ... ({} operations)", ops.size());
  return out;
}

std::string first_read(const History& h, TxnId t, KeyId k) {
  for (const Op& op : h.txn(t).ops)
    if (op.kind == OpKind::Read && op.key == k) return h.value_text(op.value);
  return "?";
}

std::string last_write(const History& h, TxnId t, KeyId k) {
  if (t == kInitTxn) return h.value_text(h.init_value(k));
  std::string v = "?";
  for (const Op& op : h.txn(t).ops)
    if (op.kind == OpKind::Write && op.key == k) v = h.value_text(op.value);
  return v;
}

std::string edge_label(const History& h, const poly::DepEdge& e) {
  if (e.type == poly::Dep::SO) return "so";
  return fmt::format("{}({})", poly::dep_name(e.type), h.key_text(e.key));
}

// Why the edge is there, in terms of the operations.
std::string edge_reason(const History& h, const poly::DepEdge& e) {
  const std::string a = h.txn_name(e.from);
  const std::string b = h.txn_name(e.to);
  std::string x = e.type == poly::Dep::SO ? "" : h.key_text(e.key);
  switch (e.type) {
    case poly::Dep::SO:
      return fmt::format("{} precedes {} in the same session", a, b);
    case poly::Dep::WR:
      return fmt::format("{} reads {} = {} written by {}", b, x, first_read(h, e.to, e.key), a);
    case poly::Dep::WW:
      return fmt::format("{} overwrites {}'s {} = {} with {}", b, a, x, last_write(h, e.from, e.key),
                         last_write(h, e.to, e.key));
    case poly::Dep::RW:
      return fmt::format("{} reads {} = {}, a version that {} overwrites with {}", a, x,
                         first_read(h, e.from, e.key), b, last_write(h, e.to, e.key));
  }
  return "";
}

std::vector<TxnId> cycle_txns(const poly::Anomaly& a) {
  std::vector<TxnId> out;
  for (const auto& e : a.cycle)
    if (std::find(out.begin(), out.end(), e.from) == out.end()) out.push_back(e.from);
  if (a.cycle.empty())
    for (TxnId t : a.txns)
      if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  return out;
}

}  // namespace

std::string anomaly_text(const History& h, const poly::Anomaly& a) {
  std::string out;
  if (a.cycle.empty()) {
    out += fmt::format("  {}\n", a.description);
  } else {
    out += fmt::format("  cycle: {}\n", a.description);
    for (const auto& e : a.cycle)
      out += fmt::format("    {} -{}-> {}: {}\n", h.txn_name(e.from), edge_label(h, e),
                         h.txn_name(e.to), edge_reason(h, e));
  }
  out += "  transactions:\n";
  for (TxnId t : cycle_txns(a)) {
    const Transaction& txn = h.txn(t);
    std::string where = t == kInitTxn ? "" : fmt::format(" (session {}, #{})", txn.session + 1,
                                                          txn.position + 1);
    out += fmt::format("    {}{}: {}\n", h.txn_name(t), where, ops_text(h, t));
  }
  return out;
}

nlohmann::json anomaly_json(const History& h, const poly::Anomaly& a) {
  nlohmann::json cycle = nlohmann::json::array();
  for (const auto& e : a.cycle) {
    nlohmann::json j{{"from", h.txn(e.from).name}, {"to", h.txn(e.to).name},
                     {"type", std::string(poly::dep_name(e.type))}};
    if (e.type != poly::Dep::SO) j["key"] = h.key_text(e.key);
    j["reason"] = edge_reason(h, e);
    cycle.push_back(std::move(j));
  }
  nlohmann::json txns = nlohmann::json::array();
  for (TxnId t : cycle_txns(a)) {
    nlohmann::json ops = nlohmann::json::array();
    if (t != kInitTxn)
      for (const Op& op : h.txn(t).ops) ops.push_back(format_op(h, op));
    txns.push_back({{"id", h.txn(t).name}, {"ops", ops}});
  }
  return {{"name", a.name}, {"description", a.description}, {"cycle", cycle},
          {"transactions", txns}};
}

std::string anomaly_dot(const History& h, const poly::Anomaly& a, const std::string& title) {
  std::string out = fmt::format(
      "digraph anomaly {{\n  label=\"{}\";\n  labelloc=t;\n  node [shape=box, fontname=\"monospace\"];\n",
      dot_escape(title));
  for (TxnId t : cycle_txns(a))
    out += fmt::format("  \"{}\" [label=\"{}\\n{}\"];\n", dot_escape(h.txn_name(t)),
                       dot_escape(h.txn_name(t)), dot_escape(ops_text(h, t, 8)));
  for (const auto& e : a.cycle) {
    const char* color = e.type == poly::Dep::RW   ? "#d62728"
                        : e.type == poly::Dep::WW ? "#1f77b4"
                        : e.type == poly::Dep::WR ? "#2ca02c"
                                                  : "#555555";
    out += fmt::format("  \"{}\" -> \"{}\" [label=\"{}\", color=\"{}\", fontcolor=\"{}\"{}];\n",
                       dot_escape(h.txn_name(e.from)), dot_escape(h.txn_name(e.to)),
                       dot_escape(edge_label(h, e)), color, color,
                       e.type == poly::Dep::RW ? ", style=dashed" : "");
  }
  out += "}\n";
  return out;
}

}  // namespace iso::cli
