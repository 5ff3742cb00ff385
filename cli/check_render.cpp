// The graph checker's anomalies rendered (check_render.hpp): text, JSON and
// DOT of a cycle with its typed, keyed edges.
#include "cli/check_render.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cli/dot.hpp"
#include "cli/json_fields.hpp"
#include "engine/history/printer.hpp"
#include "engine/polygraph/explain.hpp"

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


// What an edge of the cycle rests on: the explanation the checker gave, or
// what the operations say.
std::string edge_why(const History& h, const Anomaly& a, std::size_t i) {
  return i < a.why.size() ? a.why[i] : poly::edge_fact(h, a.cycle[i]);
}

std::vector<TxnId> anomaly_txns(const Anomaly& a) {
  std::vector<TxnId> out;
  auto add = [&](TxnId t) {
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  };
  for (const auto& e : a.cycle) add(e.from);
  for (const auto& e : a.context) {
    add(e.from);
    add(e.to);
  }
  for (TxnId t : a.txns) add(t);
  return out;
}

}  // namespace

std::string edge_label(const History& h, const DepEdge& e) {
  if (!keyed(e.type)) return std::string(edge_type_name(e));
  return fmt::format("{}({})", dep_name(e.type), h.key_text(e.key));
}

std::string anomaly_title(const Anomaly& a) {
  std::string others;
  for (const OtherName& o : a.also_known_as) {
    std::string one = o.code.empty() ? o.tool : fmt::format("{} {}", o.tool, o.code);
    // Spelled out only when it says more than the name already shown.
    if (o.name != a.name) one += ": " + o.name;
    others += (others.empty() ? "" : "; ") + one;
  }
  return others.empty() ? a.name : fmt::format("{} ({})", a.name, others);
}

std::string anomaly_text(const History& h, const Anomaly& a) {
  std::string out;
  if (a.cycle.empty()) {
    out += fmt::format("  {}\n", a.description);
  } else {
    const std::string cycle = poly::format_cycle(h, a.cycle);
    if (a.description != cycle) out += fmt::format("  {}\n", a.description);
    out += fmt::format("  cycle: {}\n", cycle);
    for (std::size_t i = 0; i < a.cycle.size(); ++i) {
      const auto& e = a.cycle[i];
      out += fmt::format("    {} -{}-> {}: {}\n", h.txn_name(e.from), edge_label(h, e),
                         h.txn_name(e.to), edge_why(h, a, i));
    }
  }
  out += "  transactions:\n";
  for (TxnId t : anomaly_txns(a)) {
    const Transaction& txn = h.txn(t);
    std::string where = t == kInitTxn ? "" : fmt::format(" (session {}, #{})", txn.session + 1,
                                                          txn.position + 1);
    out += fmt::format("    {}{}: {}\n", h.txn_name(t), where, ops_text(h, t));
  }
  return out;
}

nlohmann::json anomaly_json(const History& h, const Anomaly& a) {
  nlohmann::json cycle = nlohmann::json::array();
  for (std::size_t i = 0; i < a.cycle.size(); ++i) {
    nlohmann::json j = edge_json(h, a.cycle[i]);
    j["why"] = edge_why(h, a, i);
    cycle.push_back(std::move(j));
  }
  nlohmann::json context = nlohmann::json::array();
  for (const auto& e : a.context) context.push_back(edge_json(h, e));
  nlohmann::json txns = nlohmann::json::array();
  for (TxnId t : anomaly_txns(a)) txns.push_back(transaction_json(h, t));
  nlohmann::json j{{"name", a.name}, {"description", a.description}, {"cycle", cycle},
                   {"transactions", txns}};
  if (!a.also_known_as.empty()) {
    nlohmann::json others = nlohmann::json::array();
    for (const OtherName& o : a.also_known_as)
      others.push_back({{"tool", o.tool}, {"code", o.code}, {"name", o.name}});
    j["also_known_as"] = others;
  }
  if (!context.empty()) j["context"] = context;
  return j;
}

std::string anomaly_dot(const History& h, const Anomaly& a, const std::string& title) {
  std::string out = fmt::format(
      "digraph anomaly {{\n  label=\"{}\";\n  labelloc=t;\n  node [shape=box, fontname=\"monospace\"];\n",
      dot_escape(title));
  auto node = [&](TxnId t) { return fmt::format("\"{}\"", dot_escape(h.txn_name(t))); };
  for (TxnId t : anomaly_txns(a))
    out += fmt::format("  {} [label=\"{}\\n{}\"];\n", node(t), dot_escape(h.txn_name(t)),
                       dot_escape(ops_text(h, t, 8)));
  for (const auto& e : a.cycle) {
    const char* color = e.type == Dep::RW   ? "#d62728"
                        : e.type == Dep::WW ? "#1f77b4"
                        : e.type == Dep::WR ? "#2ca02c"
                                                  : "#555555";
    out += fmt::format("  {} -> {} [label=\"{}\", color=\"{}\", fontcolor=\"{}\", penwidth=2{}];\n",
                       node(e.from), node(e.to), dot_escape(edge_label(h, e)), color, color,
                       e.type == Dep::RW ? ", style=dashed" : "");
  }
  // The reads that force the cycle, off it: thin and grey.
  for (const auto& e : a.context)
    out += fmt::format("  {} -> {} [label=\"{}\", color=\"#999999\", fontcolor=\"#999999\", "
                       "style=dotted, constraint=false];\n",
                       node(e.from), node(e.to), dot_escape(edge_label(h, e)));
  out += "}\n";
  return out;
}

}  // namespace iso::cli
