// Prints histories in the papers' notation (printer.hpp), grouped by
// session, and the one-line form the one-line reader reads back.

#include "engine/history/printer.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace iso {

std::string format_op(const History& h, const Op& op) {
  switch (op.kind) {
    case OpKind::Read: {
      if (op.list == kNoList)
        return fmt::format("r({},{})", h.key_text(op.key), h.value_text(op.value));
      std::string list;
      for (ValueId v : h.lists()[op.list]) list += (list.empty() ? "" : " ") + h.value_text(v);
      return fmt::format("r({},[{}])", h.key_text(op.key), list);
    }
    case OpKind::Write:
      if (h.is_delete(op.value)) return fmt::format("d({})", h.key_text(op.key));
      return fmt::format("w({},{})", h.key_text(op.key), h.value_text(op.value));
    case OpKind::PredicateRead: {
      const PredicateRead& pr = h.predicate_reads()[op.predicate];
      std::string out = fmt::format("pr({}: {{", pr.predicate);
      bool first = true;
      for (const auto& [k, v] : pr.result) {
        if (!first) out += ", ";
        first = false;
        out += fmt::format("{}={}", h.key_text(k), h.value_text(v));
      }
      out += "})";
      return out;
    }
    case OpKind::PredicateWrite: {
      const std::string& pred = h.predicate_reads()[op.predicate].predicate;
      if (h.is_delete(op.value)) return fmt::format("pd({})", pred);
      return fmt::format("pw({}: {})", pred, h.value_text(op.value));
    }
  }
  return "?";
}

std::string format_txn(const History& h, TxnId t) {
  const Transaction& txn = h.txn(t);
  std::string out = h.txn_name(t) + ":";
  for (const Op& op : txn.ops) {
    out += ' ';
    out += format_op(h, op);
  }
  return out;
}

std::string transaction_notes(const Transaction& txn) {
  std::vector<std::string> notes;
  if (txn.status == TxnStatus::Aborted) notes.emplace_back("aborted");
  if (txn.status == TxnStatus::Unknown) notes.emplace_back("status unknown");
  // "begin 10" or, where the begin is known to have returned by 15,
  // "begin 10..15" (10..10: at 10 exactly); "commit 30" or "commit 25..30".
  if (txn.begin) notes.push_back(txn.begin_end ? fmt::format("begin {}..{}", *txn.begin, *txn.begin_end)
                                               : fmt::format("begin {}", *txn.begin));
  if (txn.commit) notes.push_back(txn.commit_start ? fmt::format("commit {}..{}", *txn.commit_start, *txn.commit)
                                                   : fmt::format("commit {}", *txn.commit));
  // The database's own timestamps, physical.logical (Chronos's HLC).
  if (txn.start_ts) notes.push_back(fmt::format("sts {}.{}", txn.start_ts->physical, txn.start_ts->logical));
  if (txn.commit_ts) notes.push_back(fmt::format("cts {}.{}", txn.commit_ts->physical, txn.commit_ts->logical));
  if (notes.empty()) return {};
  return fmt::format("[{}]", fmt::join(notes, ", "));
}

std::string format_history(const History& h) {
  std::string out;
  std::vector<std::string> init;
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    if (h.has_explicit_init(k)) {
      init.push_back(fmt::format("{}={}", h.key_text(k), h.value_text(h.init_value(k))));
    }
  }
  if (!init.empty()) out += fmt::format("init: {}\n", fmt::join(init, " "));

  const auto& sessions = h.sessions();
  std::size_t width = 0;
  for (std::size_t s = 0; s < sessions.size(); ++s) {
    width = std::max(width, fmt::format("session {}:", s + 1).size());
  }
  width += 2;
  for (std::size_t s = 0; s < sessions.size(); ++s) {
    std::string label = fmt::format("session {}:", s + 1);
    label.resize(width, ' ');
    if (sessions[s].empty()) {
      out += label + "(empty)\n";
      continue;
    }
    bool first = true;
    for (TxnId t : sessions[s]) {
      out += first ? label : std::string(width, ' ');
      first = false;
      out += format_txn(h, t);
      if (std::string notes = transaction_notes(h.txn(t)); !notes.empty()) out += "  " + notes;
      out += '\n';
    }
  }
  return out;
}

std::string history_one_line(const History& h, bool times) {
  std::string out;
  for (const auto& session : h.sessions()) {
    if (session.empty()) continue;
    std::string s;
    for (TxnId t : session) {
      const Transaction& txn = h.txn(t);
      const std::string notes = times                              ? transaction_notes(txn)
                                : txn.status == TxnStatus::Aborted ? "[aborted]"
                                : txn.status == TxnStatus::Unknown ? "[status unknown]"
                                                                   : "";
      s += (s.empty() ? "" : "; ") + format_txn(h, t) + (notes.empty() ? "" : " " + notes);
    }
    out += (out.empty() ? "" : " | ") + s;
  }
  return out;
}

}  // namespace iso
