// Internal to the brute force: the level table, and the history in local form
// (members renumbered 0..n-1, T0 as 0) with the facts every evaluator needs.
//
// Reads are read events, decided here from the operations, not from the
// engine's abstract history: every read of x by t that no write of x by t
// precedes is a read event of its own (re-reads included), with its own
// choice of writer among the members whose final write of x has the value
// read. R(t, x) says t has a read event of x; wr(t1, x, t3) holds when some
// read event of x in t3 reads from t1. A register read after t's own write
// of x must return t's last write (INT); a read no member's final write
// explains has no witness, except that for Adya's PL-1 a register read of an
// aborted transaction's write (G1a) or of another transaction's non-final
// write (G1b) is set aside: it is no read event and carries no dependency.
//
// List-append reads (Elle) are decided here from the operations themselves,
// not from the engine's analysis of lists, which is what the brute force
// cross-checks. In a witness every key x has a version order (Biswas–Enea:
// co restricted to the writers of x; Cerone: ar restricted to them; Adya:
// ww(x)), T0 first when T0 writes x. The version writer u installs is
// concat(A_v(x) for the writers v up to u in that order), A_v(x) being v's
// appends to x in program order; T0's version is the empty list. A list read
// of x by t reads the version of some writer (a read event: each one, a
// re-read included, reads the version of its own chosen writer), or, after
// t's own appends, the versions before t followed by those appends.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/history/history.hpp"

namespace iso::brute::detail {

using Mask = std::uint64_t;
inline constexpr int kMaxMembers = 63;

constexpr Mask bit(int i) { return Mask{1} << i; }
constexpr bool has(Mask m, int i) { return (m >> i) & 1U; }

// dbcop's repeatable read is a commit-order level: Framework::Biswas.
enum class Framework : std::uint8_t { Biswas, Cerone, Plume, Adya };

enum class Level : std::uint8_t {
  BiswasRC, BiswasRA, BiswasCC, BiswasPC, BiswasSI, BiswasSER, BiswasStrictSER, BiswasUpdateSer,
  DbcopRR,
  CeroneRA, CeroneCC, CeroneUA, CeronePSI, CeronePC, CeroneSI, CeroneSER,
  CeroneUpdateSer, CeroneNLU, CeroneTimestampSI, CeroneTimestampSER,
  ViperAdyaSI, ViperGSI, ViperStrongSessionSI, ViperStrongSI,
  PlumeTapRA, PlumeTapCC, PlumeRA,
  PlumeNoNonRepeatableRead, PlumeNoNonMonotonicRead, PlumeNoFracturedRead,
  AdyaPL1, AdyaPL2, AdyaPLCS, AdyaPL299, AdyaPLSI, AdyaPL3,
};

struct LevelInfo {
  std::string_view name;
  Level level;
  Framework framework;
  // Reads the history's timestamps (real time, or the database's), or
  // belongs with levels that do (viper.AdyaSI): not in levels(), whose lists
  // the synthesis tests walk, and synthesis has no time yet.
  bool real_time = false;
};

// Every level, with its aliases (adya.SI, adya.SER).
std::span<const LevelInfo> level_table();
// Throws std::invalid_argument for an unknown name.
const LevelInfo& lookup(std::string_view name);

using List = std::vector<ValueId>;

// A read event: a read of `key` by t that no write of the key by t
// precedes. A transaction has one per such read, re-reads included.
struct Read {
  int key = 0;
  ValueId value = 0;       // the value returned (a list read: its last element)
  std::uint32_t op = 0;    // its index in Transaction::ops
  std::vector<int> cands;  // local ids of the writers it may read from
  // The list returned, for a list read; then only a writer that installs it
  // may be read.
  const List* list = nullptr;
  // A predicate read's read of a key it left out, or a predicate write's
  // read of the key: its anti-dependencies are predicate ones, which Adya's
  // G2-item does not count. A key a predicate read returned is an item
  // read (false here).
  bool predicate = false;
};

// Adya's PL-1: a list read of a state no committed version explains, a
// dirty one (it holds an element only transactions that did not commit
// appended, or it has no writer whose version it is: it ends inside a
// writer's appends). It is no read event; its list without the dirty
// elements must be a prefix of the concatenation of the writers' appends in
// the version order (the state it read, later rolled back or completed).
struct DirtyListRead {
  int key = 0;
  List list;          // without the dirty elements
  std::string text;   // "T3: r(x,[1 2])", for messages
};

// A list read after the transaction's own append to the key.
struct InternalListRead {
  int key = 0;
  const List* list = nullptr;
  std::size_t own = 0;  // how many of t's appends to the key precede it
  // PL-1: the list without its dirty elements (DirtyListRead), when it
  // had some; what the versions before t must then give.
  std::optional<List> clean;
  const List& read() const { return clean ? *clean : *list; }
};

struct Model {
  const AbstractHistory* ah = nullptr;
  // false: an INT violation or a read no witness can justify; every level
  // denies, and `inconsistency` says why in one line.
  bool consistent = true;
  std::string inconsistency;
  bool has_lists = false;  // some member reads a list
  bool has_predicates = false;  // some read event is a predicate read only
  int n = 0;
  int nkeys = 0;
  std::vector<TxnId> ids;                              // local -> TxnId
  std::vector<int> local;                              // TxnId -> local or -1
  std::vector<std::vector<std::optional<ValueId>>> w;  // [t][x] final write
  std::vector<std::vector<int>> wkeys;                 // [t] keys t writes
  std::vector<std::vector<List>> appends;              // [t][x] A_t(x)
  // [t] read events, by key, then in program order.
  std::vector<std::vector<Read>> reads;
  std::vector<std::vector<std::vector<int>>> reads_of;  // [t][x] indices in reads[t]
  std::vector<std::vector<InternalListRead>> internal_lists;  // [t]
  std::vector<DirtyListRead> dirty_lists;              // PL-1 only
  std::vector<Mask> so_pred;                           // [t] so-predecessors
  // [t] real-time predecessors (History::time_before), T0 included: those
  // that committed before t began (rt), before t committed (rt_cc); and the
  // transactions that committed after t began (rt_bc successors).
  std::vector<Mask> rt_pred, rtcc_pred, rtbc_succ;
  // [t] the database's timestamps (Chronos): ts_vis and ts_ar predecessors.
  std::vector<Mask> ts_vis_pred, ts_ar_pred;
  std::vector<Mask> writers;                           // [x] Wr(x)
  Mask update = 0;                                     // U
  Mask all = 0;                                        // T

  bool W(int t, int x) const { return w[t][x].has_value(); }
  bool R(int t, int x) const { return !reads_of[t][x].empty(); }
  bool so(int a, int b) const { return has(so_pred[b], a); }
  const std::string& name(int t) const;
  std::string key(int x) const;
  std::string list_text(const List& l) const;  // "[1 2]"
  std::string op_text(TxnId t, std::uint32_t op) const;  // "T1: r(x,[1 2])"
};

// `ignore_sessions`: every transaction in its own session (T0 still first).
// `set_aside_dirty`: register reads of aborted or intermediate writes are
// set aside rather than make the history inconsistent (Adya's PL-1), and
// list reads of such states become dirty_lists. An
// aborted transaction here is one that did not commit: a non-member whose
// status is not Committed (of unknown status and not taken as committed).
//
// A predicate write reads every key its predicate covers and writes the
// keys whose version satisfies it. `truths` says, for each (member, its
// predicate write, covered key) in the order predicate_write_slots() lists
// them, whether the version it read satisfied the predicate: then it reads a
// version that does and writes the key; else one that does not, and writes
// nothing. After the transaction's own write of the key, that version is
// the one evaluated (an assignment that contradicts it is inconsistent).
Model build_model(const AbstractHistory& ah, bool ignore_sessions, bool set_aside_dirty = false,
                  const std::vector<bool>& truths = {});

// The (transaction, operation, key) of every predicate write's evaluation of
// a covered key, members in ah.txns order, operations in program order, keys
// ascending.
struct PredicateWriteSlot {
  TxnId txn;
  std::uint32_t op;
  KeyId key;
};
std::vector<PredicateWriteSlot> predicate_write_slots(const AbstractHistory& ah);

// Does the version `w` installs equal `list`? `seq`: transactions in the
// version order of x (non-writers of x are skipped); w must be in it.
bool installs(const Model& m, int x, std::span<const int> seq, int w, const List& list);

// Is `list` a prefix of the concatenation of the appends to x of the
// writers of x in `seq` (version order)?
bool prefix_of_versions(const Model& m, int x, std::span<const int> seq, const List& list);

// Does t's list read `r` return the versions before t followed by t's own
// appends? `before`: the transactions before t in the version order of r.key
// (non-writers skipped).
bool internal_read_ok(const Model& m, int t, const InternalListRead& r,
                      std::span<const int> before);

// The transactions of `order` that write x, for each key x.
std::vector<std::vector<int>> per_key(const Model& m, std::span<const int> order);

}  // namespace iso::brute::detail
