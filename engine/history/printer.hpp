// Prints histories in the papers' notation: "T1: r(x,0) w(x,1)", grouped by
// session.
#pragma once

#include <string>

#include "engine/history/history.hpp"

namespace iso {

std::string format_op(const History& h, const Op& op);      // "r(x,0)"
std::string format_txn(const History& h, TxnId t);           // "T1: r(x,0) w(x,1)"
// What else is known of a transaction, or "": "[aborted, begin 10, commit 20]".
std::string transaction_notes(const Transaction& txn);
// Whole history, one line per transaction, sessions labelled:
//   session 1:  T1: r(x,0) w(x,1)
//               T2: r(y,0)
//   session 2:  T3: r(x,0) w(y,1)
// Aborted / unknown transactions are marked, and explicit initial values are
// listed first as "init: x=0 y=0".
std::string format_history(const History& h);
// A history on one line, the notation engine/history/one_line.hpp reads
// back: sessions separated by " | ", transactions of a session by "; "
// ("T1: w(x,1) | T2: r(x,1); T3: r(x,0)"), each with its notes (aborted,
// timestamps); with `times` false, the aborted and unknown marks only (a
// recorded run, whose client times differ at every run).
std::string history_one_line(const History& h, bool times = true);

}  // namespace iso
