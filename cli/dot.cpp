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
    out += c;
  }
  return out;
}

std::string history_dot(const History& h, const std::vector<LabelledWitness>& witnesses) {
  AbstractHistory ah = abstract_history(h);
  std::string out = "digraph history {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n";
  for (TxnId t : ah.txns) {
    std::string label = t == kInitTxn ? "T0 (initial values)" : format_txn(h, t);
    out += fmt::format("  {} [label=\"{}\"];\n", h.txn(t).name, dot_escape(label));
  }
  // Session order: consecutive transactions of each session.
  for (const auto& session : h.sessions())
    for (std::size_t i = 1; i < session.size(); ++i)
      out += fmt::format("  {} -> {} [label=\"so\", penwidth=2];\n", h.txn(session[i - 1]).name,
                         h.txn(session[i]).name);
  // Read-from (T0's edges are left out: they would cross everything).
  for (TxnId t : ah.txns) {
    const auto& reads = ah.abs[t].reads;
    for (std::size_t i = 0; i < reads.size(); ++i)
      for (TxnId w : ah.candidates[t][i])
        if (w != kInitTxn)
          out += fmt::format("  {} -> {} [label=\"wr({})\", color=\"#555555\"];\n", h.txn(w).name,
                             h.txn(t).name, dot_escape(h.key_text(reads[i].key)));
  }
  for (std::size_t k = 0; k < witnesses.size(); ++k) {
    const char* color = kColors[k % std::size(kColors)];
    for (const auto& rel : witnesses[k].witness->relations) {
      std::string label = dot_escape(witnesses[k].level + " " + rel.name);
      if (rel.order) {
        for (std::size_t i = 1; i < rel.sequence.size(); ++i)
          if (rel.sequence[i - 1] != kInitTxn)
            out += fmt::format("  {} -> {} [label=\"{}\", style=dashed, color=\"{}\", fontcolor=\"{}\", constraint=false];\n",
                               h.txn(rel.sequence[i - 1]).name, h.txn(rel.sequence[i]).name, label,
                               color, color);
      } else {
        for (const auto& [a, b] : rel.pairs)
          if (a != kInitTxn)
            out += fmt::format("  {} -> {} [label=\"{}\", style=dotted, color=\"{}\", fontcolor=\"{}\", constraint=false];\n",
                               h.txn(a).name, h.txn(b).name, label, color, color);
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
