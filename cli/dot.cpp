#include "cli/dot.hpp"

#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/history/abstract.hpp"
#include "engine/history/printer.hpp"

namespace iso::cli {

namespace {

const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};

}  // namespace

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (static_cast<unsigned char>(c) < 0x20) continue;  // display_text escaped these already
    out += c;
  }
  return out;
}

std::string history_dot(const History& h, const std::vector<LabelledWitness>& witnesses) {
  AbstractHistory ah = abstract_history(h);
  // A node id: the transaction's printed name, quoted.
  auto node = [&](TxnId t) { return fmt::format("\"{}\"", dot_escape(h.txn_name(t))); };
  std::string out = "digraph history {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n";
  for (TxnId t : ah.txns) {
    std::string label = t == kInitTxn ? "T0 (initial values)" : format_txn(h, t);
    out += fmt::format("  {} [label=\"{}\"];\n", node(t), dot_escape(label));
  }
  // Session order: consecutive transactions of each session.
  for (const auto& session : h.sessions())
    for (std::size_t i = 1; i < session.size(); ++i)
      out += fmt::format("  {} -> {} [label=\"so\", penwidth=2];\n", node(session[i - 1]),
                         node(session[i]));
  // Read-from (T0's edges are left out: they would cross everything).
  for (TxnId t : ah.txns) {
    const auto& reads = ah.abs[t].reads;
    for (std::size_t i = 0; i < reads.size(); ++i)
      for (TxnId w : ah.candidates[t][i])
        if (w != kInitTxn)
          out += fmt::format("  {} -> {} [label=\"wr({})\", color=\"#555555\"];\n", node(w),
                             node(t), dot_escape(h.key_text(reads[i].key)));
  }
  for (std::size_t k = 0; k < witnesses.size(); ++k) {
    const char* color = kColors[k % std::size(kColors)];
    for (const auto& rel : witnesses[k].witness->relations) {
      std::string label = dot_escape(witnesses[k].level + " " + rel.name);
      if (rel.order) {
        for (std::size_t i = 1; i < rel.sequence.size(); ++i)
          if (rel.sequence[i - 1] != kInitTxn)
            out += fmt::format("  {} -> {} [label=\"{}\", style=dashed, color=\"{}\", fontcolor=\"{}\", constraint=false];\n",
                               node(rel.sequence[i - 1]), node(rel.sequence[i]), label, color, color);
      } else if (rel.type.size() == 2) {
        for (const auto& t : tuples_of(*witnesses[k].witness, rel))
          if (t[0] != kInitTxn)
            out += fmt::format("  {} -> {} [label=\"{}\", style=dotted, color=\"{}\", fontcolor=\"{}\", constraint=false];\n",
                               node(t[0]), node(t[1]), label, color, color);
      }
    }
  }
  out += "}\n";
  return out;
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write the file", path));
  out << text;
  if (!out) throw std::runtime_error(fmt::format("{}: write error", path));
}

}  // namespace iso::cli
