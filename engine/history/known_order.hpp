// Known version orders revealed by list-append reads (LEVELS.md, "Known
// version orders"; Elle's list-append rules, Kingsbury & Alvaro 2020).
//
// A list read of key x that returns [v1 ... vn] reads the version of x that
// vn's append installed, and shows how x got there: it is the state after the
// appends of the transactions w1, ..., wm whose elements it holds, each one's
// appends to x contiguous, complete and in its program order, and of no other
// transaction. So w1 < ... < wm in the version order of x, and wm precedes
// every other writer of x. That order is part of the history, not of a
// witness: every level with a version or commit order must agree with it
// (Adya's ww, Biswas–Enea's co on the writers of x, Cerone's ar).
//
// What no execution can produce is reported as a typed read anomaly:
//  - an element no transaction appended: a garbage (thin-air) read;
//  - an element only an aborted transaction appended: G1a;
//  - an element twice in one read: duplicate elements;
//  - two reads of x neither of which is a prefix of the other, or a list
//    holding a transaction's appends incompletely (except at its end) or out
//    of program order: incompatible order;
//  - a list that ends inside another transaction's appends: G1b;
//  - one transaction's appends on both sides of another's: G0 (a write
//    cycle, as Elle infers it);
//  - a list that does not end with the reader's own earlier appends: INT.
// An element appended by a transaction of unknown status inside a committed
// read proves that it committed. A value appended by several transactions
// is ambiguous: Elle refuses such histories; here the order around those
// elements is not used, and a note says so.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "engine/history/history.hpp"
#include "engine/history/read_anomaly.hpp"

namespace iso {

// What the list reads of one key reveal.
struct KnownOrder {
  KeyId key = 0;
  // The transaction of unknown status whose list read reveals this order:
  // it holds if that transaction committed. kNoTxn: it holds (the reads of
  // committed transactions).
  TxnId condition = kNoTxn;
  // Member writers of the key in version order, each before the next; the
  // last precedes every other member writer of the key except `unordered`.
  std::vector<TxnId> chain;
  // Writers of ambiguous elements (appended by several transactions).
  std::vector<TxnId> unordered;
  // chain and unordered together, sorted: the writers of the key that are
  // not simply after the chain's last (places()).
  std::vector<TxnId> placed;
  // The read whose list shows the whole chain (the longest).
  TxnId reader = 0;
  std::uint32_t op = 0;

  // Is w in the chain or unordered? Every other member writer of the key
  // comes after the chain's last.
  bool places(TxnId w) const { return std::binary_search(placed.begin(), placed.end(), w); }
};

struct ListReadAnalysis {
  // Per key: the order its committed reads reveal, then the longer ones
  // that reads of unknown-status members would reveal if they committed.
  std::vector<KnownOrder> orders;
  // Anomalies of reads: of a committed reader, a violation; of an
  // unknown-status one, a proof that it did not commit.
  std::vector<UnjustifiedRead> anomalies;
  std::vector<IntViolation> int_violations;
  std::vector<TxnId> forced_commits;          // unknown-status members a committed list shows
  // (r, w): if r committed, w did (r's list shows w's append).
  std::vector<std::pair<TxnId, TxnId>> commit_implications;
  std::vector<std::string> notes;
};

// The list reads a level permits (Level::Permits; Adya's PL-1 permits both).
// A list is a state of the key, and its elements of committed transactions
// are still versions in the order it shows, so a permitted read keeps
// constraining the version order:
//  - aborted: an element appended only by a transaction that did not commit
//    (aborted, or of unknown status and not a member) is a dirty element
//    rolled back later, no version; the list without such elements is what
//    it reveals, and is analysed as any list (an element of the aborted
//    transaction is no G1a);
//  - intermediate: a list that ends inside another transaction's appends
//    read its uncommitted state; its writer still follows the list's other
//    writers and precedes every other writer (no G1b).
// So, with both, every list without its dirty elements is a prefix of the
// concatenation of the committed writers' appends in version order.
struct ListReadPermits {
  bool aborted = false;
  bool intermediate = false;
};

// Analyses the list reads of the members (`member`, indexed by TxnId).
// Those of committed transactions are facts; those of unknown-status members
// are facts if they committed, or all facts when `unknown_committed` (a
// fixed choice of which committed). Non-members contribute no versions: an
// element only they appended is an anomaly of the read, or, where
// `permits.aborted`, a dirty element left out.
ListReadAnalysis analyse_list_reads(const History& h, const std::vector<bool>& member,
                                    bool unknown_committed, ListReadPermits permits = {});

}  // namespace iso
