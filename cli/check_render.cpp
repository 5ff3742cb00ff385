// The graph checker's anomalies rendered (check_render.hpp): text, JSON and
// DOT of a cycle with its typed, keyed edges.
#include "cli/check_render.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

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

namespace {

std::string indented(const std::string& text, std::string_view by) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::size_t stop = end == std::string::npos ? text.size() : end + 1;
    out += by;
    out.append(text, at, stop - at);
    at = stop;
  }
  return out;
}

// How a class's count is counted, for people.
std::string count_text(const poly::AnomalyClass& c) {
  switch (c.source) {
    case poly::AnomalyClass::Source::Reads:
      return fmt::format("{} {}", c.count, c.count == 1 ? "read" : "reads");
    case poly::AnomalyClass::Source::Certain:
      return fmt::format("{} {} of the certain graph", c.count, c.count == 1 ? "component" : "components");
    case poly::AnomalyClass::Source::Checker: break;
  }
  return "1, the checker's answer (not a cycle of the certain graph)";
}

// A file name's part: letters, digits, '.', '_' and '-' kept, others '-'.
std::string file_part(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '-';
  return out;
}

}  // namespace

std::string classes_text(const History& h, const std::vector<poly::AnomalyClass>& classes, std::size_t limit) {
  std::string counts;
  for (const auto& c : classes) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", c.name, c.count);
  std::string out = fmt::format("  all anomalies: {} {} ({})\n", classes.size(),
                                classes.size() == 1 ? "class" : "classes", counts);
  for (const auto& c : classes) {
    out += fmt::format("  {}: {}{}\n", c.name, count_text(c),
                       c.incomplete ? " or more (the search gave up in some component)" : "");
    if (c.count > c.instances.size() && c.instances.size() == limit)
      out += fmt::format("    the first {} shown (--limit)\n", limit);
    for (std::size_t i = 0; i < c.instances.size(); ++i) {
      out += fmt::format("    #{} {}\n", i + 1, anomaly_title(c.instances[i]));
      out += indented(anomaly_text(h, c.instances[i]), "    ");
    }
  }
  return out;
}

nlohmann::json classes_json(const History& h, const std::vector<poly::AnomalyClass>& classes, std::size_t limit) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& c : classes) {
    nlohmann::json instances = nlohmann::json::array();
    for (const auto& a : c.instances) instances.push_back(anomaly_json(h, a));
    list.push_back({{"name", c.name},
                    {"source", std::string(poly::source_name(c.source))},
                    {"count", c.count},
                    {"incomplete", c.incomplete},
                    {"instances", std::move(instances)}});
  }
  return {{"limit", limit}, {"classes", std::move(list)}};
}

std::vector<std::string> write_class_pictures(const std::string& dir, bool svg, const History& h,
                                              const std::string& level,
                                              const std::vector<poly::AnomalyClass>& classes) {
  std::vector<std::string> written;
  if (std::filesystem::exists(dir) && !std::filesystem::is_directory(dir))
    throw std::invalid_argument(fmt::format("{}: with --all, --dot and --svg name a folder for the pictures, and this is a file", dir));
  std::filesystem::create_directories(dir);
  for (const auto& c : classes)
    for (std::size_t i = 0; i < c.instances.size(); ++i) {
      const Anomaly& a = c.instances[i];
      const std::string title = fmt::format("{}: {} #{} ({})", level, c.name, i + 1, a.name);
      // A cycle is drawn as check draws one (cut to its neighbourhood on a
      // large history, with the legend); a read anomaly by its transactions.
      const std::string picture = a.cycle.empty() ? anomaly_dot(h, a, title) : violation_dot(h, level, a, title);
      const auto path = std::filesystem::path(dir) /
                        fmt::format("{}-{}-{}.{}", file_part(level), file_part(c.name), i + 1, svg ? "svg" : "dot");
      if (svg)
        write_svg(path.string(), picture);
      else
        write_text_file(path.string(), picture);
      written.push_back(path.string());
    }
  return written;
}

}  // namespace iso::cli
