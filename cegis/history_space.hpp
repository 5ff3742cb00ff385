// The space of histories a synthesis problem searches (DESIGN.md §6.1): for a
// scope of n transactions, k objects and m values (the initial value counted,
// as in Isolde), boolean variables for
//   W[t][x][v]  t's final write of x is v (at most one v; v ≠ the initial value
//               unless values may repeat)
//   so[i][j]    session order, i < j: a disjoint union of chains
// and, for the reads, one of two forms:
//   - transactions (the default): R[t][x][v], t's external read of x returns
//     v (at most one v per key);
//   - operations (a fourth scope number P, or a level written over read
//     events): each transaction has read slots i = 0, 1, ... in program
//     order, S[t][i][x][v] "t's i-th read reads x and returns v" (at most one
//     (x, v) per slot, used slots a prefix), so a key may be read several
//     times with different values. The slots are the atoms of the sort Read;
//     the sort's extent is the used slots. With P, reads and written keys
//     together are at most P per transaction; without, up to 2k reads.
// T0 writes the initial value of every key and precedes everything. Every
// read returns a value another transaction wrote (T0 for the initial value):
// no thin-air reads. When index ordered, some such transaction has a lower
// index (for a read of a committed version; dirty reads, below, may read
// any other transaction).
//
// Written values are unique per key by default: read-from (rf, and wrx, its
// projection) is then a function of the values, bound once here. With
// SpaceOptions::duplicates, several transactions may write the same value to
// a key, the initial value included (ABA), and read-from is a choice: the
// space binds neither rf nor wrx, and each execution (an allow level's
// witness, a deny lemma) gets its own from fresh_read_from() or
// pinned_read_from(), with exactly one writer per read event, as a checked
// history's concrete instance has (engine/model/concrete.hpp). The
// transaction form has no Read atoms and needs none: its read events are the
// pairs (t, x), and only wrx is chosen (a level that mentions rf is over read
// events and implies the operation form).
//
// The operation form places a transaction's reads before its writes. No
// level can tell the difference: a read after the transaction's own write of
// the key is no read event (it returns that write, INT), and a write's
// position is not part of the schema (only final writes are), so every
// interleaving of the same reads and writes gives the same relations.
// tests/unit/test_synth_operations.cpp checks completeness against
// histories enumerated with every interleaving (test_synth_duplicates.cpp
// with repeated values).
//
// Dirty reads (SpaceOptions::dirty_reads) add, per transaction, A[t] "t
// aborts" and, per committed transaction and key, I[t][x][v] "t writes x = v
// and later its final value of x" (at most one intermediate write per key,
// which is all a read can tell apart: any second one is read like the first).
// Written values stay unique per key over final, intermediate and aborted
// writes. A read may return an aborted write (G1a) or another transaction's
// intermediate write (G1b), of any index: such a read carries no dependency.
// The base relations are those of the committed part, as a checked history's
// concrete instance has them (engine/model/concrete.hpp): the sort Txn's
// extent is the committed transactions, writes holds committed final writes
// only, and a dirty read is no read event (not in reads, wrx, rf, nor the
// sort Read) but a tuple of abr or irr (engine/model/schema.hpp). An aborted
// transaction has writes only (what it read is no part of any level's view),
// no session, and comes before the committed transactions (T1, ... are the
// aborted ones: an aborted transaction is outside every level's view, so
// where it stands changes no verdict). Whether a level sees dirty reads at all is the
// synthesizer's business (cegis/search.cpp): one that does not permit
// them (Level::permits) is violated by them, as decide() has it.
//
// List-append keys (SpaceOptions::lists; Elle's list-append, the known
// version orders of LEVELS.md): every key is a list, a write appends its
// value (an element unique to the key, as above), and a read returns the
// whole list. Per key, L[x][a][b] "a's append to x precedes b's" is a strict
// total order of the transactions (read only on x's appenders), and a read
// of x returning v, the element of w (v = 0: the empty list, T0's version),
// returns the appends up to w's in that order: the reads of a key are
// prefixes of one list, and the reader's own append is not in what it read
// (its read comes first). Read-from is the reader of the last element, as
// for registers, and the known version order is what the lists show
// (engine/history/known_order.hpp): each appender in the longest list
// returned precedes every later appender of the key. This space leaves out
// what no level allows (garbage, duplicate and incompatible-order reads, and
// reads of aborted or intermediate appends) and reads after the reader's own
// append; it is where a history exhibits G0, the write cycle that only
// revealed version orders can force.
//
// Real time (SpaceOptions::real_time; LEVELS.md, "Real time"): every
// transaction has a begin and a commit event, and E[X][Y] "event X happened
// before event Y" is a strict weak order of the 2n events (ties allowed,
// which a clock can show, and which neither order of the two events
// replaces), each begin not after its commit, a session's transactions one
// after another (so ⊆ rt: a client runs its transactions in turn). The
// real-time orders are read off it: rt(a, b) = E[C_a][B_b], rt_cc(a, b) =
// E[C_a][C_b], rt_bc(a, b) = E[B_a][C_b], T0 before everything; decode()
// numbers the events by that order, so that the checked history's
// timestamps give the same relations with no clock skew.
//
// Predicate reads (SpaceOptions::predicates; LEVELS.md, "Predicates"): Q[t]
// "t's reads are one predicate read over every key, v != 0", a bound of one
// per transaction. It reads every key (an external read of each): a key
// whose version has a non-initial value is returned with it, one with the
// initial value 0 (T0's, the only writer of 0) is left out, read
// invisibly. To every level it is the transaction's reads, except that
// iwrx, the item read-from (Adya's item read-dependencies), leaves out the
// keys it left out (a key it returns is an item read as well). The predicate names no key, so renaming keys or values
// keeps the space, as the symmetry breaking below needs.
//
// Symmetry breaking, each step sound on its own and together (rename the
// transactions along a witness order, then the values of each key, then the
// keys):
//   - so ∪ wr goes from lower to higher index (index ordered: when some allow
//     level's order contains so ∪ wr, as Biswas–Enea's co and Cerone's ar
//     do; otherwise so alone, renaming along a linear extension of so: a
//     session-free level such as Adya's may allow a history whose so ∪ wr
//     has a cycle, and PL-1 one whose wr has). With repeated values, wr is
//     that of the execution whose order is proved to contain it: every read
//     has a lower-indexed writer of its value, and that execution reads from
//     lower indices only;
//   - the written values of each key are 1, 2, ... in the order of their
//     writers' indices; with repeated values, in the order of their first
//     occurrence: scanning the writers of x in index order, a value v > 1
//     appears only after v - 1 (renaming the non-initial values of one key
//     injectively changes no relation; 0 stays T0's);
//   - keys are numbered in the order of their first use (unless
//     SpaceOptions::key_order is off: the synthesizer then assumes it, or
//     breaks the key symmetry by a deny level's violation instead,
//     keys_canonical in cegis/key_symmetry.hpp);
//   - empty transactions (no reads, no writes) come last and are in no
//     session with others. An empty transaction is invisible to every shipped
//     level, so a history with e of them stands for the same history with
//     n - e transactions: the scope means "at most n".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/history/history.hpp"
#include "engine/logic/circuit.hpp"
#include "engine/logic/translator.hpp"
#include "engine/logic/universe.hpp"
#include "engine/polygraph/dependency.hpp"

namespace iso::cegis {

struct Scope {
  std::uint32_t txns = 4;     // besides T0
  std::uint32_t objects = 3;
  std::uint32_t values = 3;   // the initial value included
  std::uint32_t ops = 0;      // operations per transaction; 0: no bound (transaction form)
  std::string text() const;   // "4,3,3" or "4,3,3,4"
};

// Parses "T,O,V" or "T,O,V,P" (each at least 1). Throws
// std::invalid_argument with a message naming what is wrong.
Scope parse_scope(const std::string& text);

struct SpaceOptions {
  bool blind_writes = true;  // false: every written key is read first (Isolde's space)
  bool operations = false;   // the operation form (also implied by scope.ops > 0)
  bool sessions = true;      // false: every transaction in its own session
  // Reads return writes of lower-indexed transactions (so ∪ wr increasing).
  // Sound only when every solution has so ∪ wr acyclic: the synthesizer sets
  // it when an allow level's order provably contains so ∪ wr.
  bool index_ordered = true;
  // Written values may repeat (several writers of one value of a key, the
  // initial value included), and read-from is a choice per execution.
  bool duplicates = false;
  // Dirty reads (Adya's G1a, G1b): transactions may abort, a committed
  // transaction may write a key twice (its first value an intermediate
  // write), and a read may return an aborted or an intermediate write.
  // Not with duplicates (a read's writer must follow from its value).
  bool dirty_reads = false;
  // Keys numbered in the order of their first use (symmetry breaking). Off:
  // HistorySpace::key_order() is left out of the constraints, for the
  // synthesizer to assume it or break the key symmetry another way.
  bool key_order = true;
  // Every key a list: writes append, reads return the whole list, and the
  // lists reveal version orders (above). Only in the transaction form, with
  // unique values and without dirty reads.
  bool lists = false;
  // Begin and commit events in a weak order, and the real-time orders read
  // off them (above).
  bool real_time = false;
  // Predicate reads (above). Only in the transaction form, with unique
  // values, without lists and dirty reads.
  bool predicates = false;

  // The options as text, for caches of proofs over the space.
  std::string text() const;
};

class HistorySpace {
 public:
  HistorySpace(const Scope& scope, const SpaceOptions& opt, logic::Circuit& c);

  const Scope& scope() const { return scope_; }
  // The operation form: read events in program order (sort Read).
  bool operations() const { return slots_ > 0; }
  const logic::Universe& universe() const { return universe_; }
  bool duplicates() const { return duplicates_; }
  // The schema's base relations bound to this space's variables; with
  // duplicates, all but rf and wrx (see fresh_read_from).
  const logic::Bindings& bindings() const { return bindings_; }
  // With duplicates: binds rf (operation form) and wrx in `b` to a fresh
  // read-from choice, rf(w, α) only where w ≠ txn(α) writes what α reads
  // (T0 the initial value), and returns its well-formedness (exactly one
  // writer per read event). `lower_only`: writers of lower index only (the
  // execution whose order, fixed to the index order, provably contains wr).
  // Without duplicates read-from is already bound: leaves `b` and returns true.
  logic::BLit fresh_read_from(logic::Circuit& c, logic::Bindings& b, bool lower_only) const;
  // With duplicates: binds rf and wrx in `b` to a read-from fixed by the
  // choices `pinned` of a candidate's witness (a read event named as in the
  // decoded candidate: reader, op, key) and, for every other read event, to
  // the lowest-indexed writer of what it reads. Returns its legality: each
  // pinned writer writes what its read event reads (in another history of
  // the space it may not). Without duplicates: leaves `b`, returns true.
  logic::BLit pinned_read_from(logic::Circuit& c, logic::Bindings& b,
                               const std::vector<poly::ChosenRead>& pinned) const;
  // The read-from `b` (bound by fresh_read_from) chooses in a model, for the
  // read events of the decoded history with several candidate writers.
  std::vector<poly::ChosenRead> chosen_reads(const logic::Circuit& c, const std::vector<bool>& inputs,
                                             const logic::Bindings& b) const;
  // Well-formedness of the space and the symmetry breaking.
  logic::BLit constraints() const { return constraints_; }
  // Keys numbered in the order of their first use: part of constraints()
  // unless SpaceOptions::key_order is off.
  logic::BLit key_order() const { return key_order_; }
  // Txn atoms in index order: T0 < T1 < ... < Tn, the fixed commit order
  // (with dirty reads, over the committed transactions: the sort's extent).
  const logic::BoolMatrix& index_order() const { return index_order_; }
  bool dirty_reads() const { return dirty_; }
  bool lists() const { return lists_; }
  // With lists: a's append to x precedes b's (a ≠ b, both 1..n).
  logic::BLit list_order_var(std::uint32_t x, std::uint32_t a, std::uint32_t b) const;
  // With dirty reads: a literal that holds iff the history has an aborted
  // read (abr non-empty), an intermediate read (irr non-empty); kFalse
  // without.
  logic::BLit some_aborted_read() const { return some_abr_; }
  logic::BLit some_intermediate_read() const { return some_irr_; }
  // t aborts (kFalse without dirty reads, and for T0).
  logic::BLit aborted_var(std::uint32_t t) const { return aborted_[t]; }
  // t's intermediate write of x is v (kFalse without dirty reads).
  logic::BLit intermediate_var(std::uint32_t t, std::uint32_t x, std::uint32_t v) const;

  // The history of a model (values of the circuit's inputs). Transaction i is
  // named "Ti" and has TxnId i; empty transactions are kept (each alone in its
  // session) so that TxnIds and atoms coincide; keys are x, y, z, ... and
  // values the integers 0..m-1, interned in that order.
  History decode(const logic::Circuit& c, const std::vector<bool>& inputs) const;

  // Literals of the history variables, for minimization and blocking.
  // read_var is "some read event of t reads x and returns v" in either form.
  logic::BLit read_var(std::uint32_t t, std::uint32_t x, std::uint32_t v) const;
  logic::BLit slot_var(std::uint32_t t, std::uint32_t i, std::uint32_t x, std::uint32_t v) const;
  logic::BLit write_var(std::uint32_t t, std::uint32_t x, std::uint32_t v) const;
  logic::BLit so_var(std::uint32_t i, std::uint32_t j) const;
  // t's reads are a predicate read (kFalse without predicates).
  logic::BLit predicate_var(std::uint32_t t) const { return predicate_.empty() ? logic::kFalse : predicate_[t]; }

  logic::Atom txn_atom(std::uint32_t t) const { return t; }

 private:
  logic::Index idx3(std::uint32_t t, std::uint32_t x, std::uint32_t v) const;

  // The constructor's steps, in the order it takes them (history_space.cpp).
  // Each "make" step adds the inputs of one kind of history; each
  // "constraints" step appends to `constraints` what makes them a history
  // of the space; each "bind" step binds schema relations in bindings_.
  //
  // Refuses combinations of options the space does not search (throws
  // std::invalid_argument); sets dirty_ and lists_.
  void check_options(const SpaceOptions& opt);
  // With predicate reads: P[t] "t's reads are a predicate read".
  void make_predicate_variables(logic::Circuit& c, const SpaceOptions& opt);
  // With dirty reads: A[t] and I[t][x][v]; kFalse otherwise
  // (history_space_dirty.cpp).
  void make_dirty_variables(logic::Circuit& c);
  // In the operation form: S[t][i][x][v] (history_space_operations.cpp).
  void make_slot_variables(logic::Circuit& c);
  // The cells of reads and final writes, R[t][x][v] (in the operation form,
  // the slots' disjunction) and W[t][x][v]; sets reads_, writes_ and so_
  // (history_space_registers.cpp).
  struct BaseCells {
    std::vector<std::pair<logic::Index, logic::BLit>> reads, writes;
  };
  BaseCells make_register_variables(logic::Circuit& c, const SpaceOptions& opt);
  // The committed part the base relations see (committed final writes,
  // reads of committed versions: `cells` themselves without dirty reads);
  // sets clean_, some_abr_, some_irr_ and binds abr and irr.
  struct CommittedPart {
    logic::BoolMatrix committed_writes, clean_reads;
  };
  CommittedPart bind_dirty_reads(logic::Circuit& c, const BaseCells& cells);
  // index_order_, over the committed transactions.
  void make_index_order(logic::Circuit& c);
  // One value per read and final write of a key, predicate reads of every
  // key, no blind writes unless allowed, unique written values, and every
  // read a write's (no thin air).
  void register_constraints(logic::Circuit& c, const SpaceOptions& opt, std::vector<logic::BLit>& constraints) const;
  // Aborted transactions write only and have no session; an intermediate
  // write comes before a committed final write of the key.
  void aborted_constraints(logic::Circuit& c, std::vector<logic::BLit>& constraints) const;
  // Session order: transitive, a disjoint union of chains.
  void session_constraints(logic::Circuit& c, std::vector<logic::BLit>& constraints) const;
  // Symmetry breaking (history_space_symmetry.cpp): written values in order
  // of their writers; then keys by first use (sets key_order_), empty
  // transactions last and aborted ones first.
  void value_order(logic::Circuit& c, std::vector<logic::BLit>& constraints) const;
  void key_and_empty_order(logic::Circuit& c, const SpaceOptions& opt, std::vector<logic::BLit>& constraints);
  // Binds reads, writes (the committed part), the sort Txn's extent with
  // dirty reads, so, t0, and vo without lists.
  void bind_base_relations(logic::Circuit& c, const CommittedPart& part);
  // Without repeated values: wrx and iwrx as functions of the values.
  void bind_value_read_from(logic::Circuit& c);
  // Read slots (operation form): the relations over read events.
  void build_read_slots(logic::Circuit& c, std::vector<logic::BLit>& constraints);
  // A read event (with duplicates): t's read of key x (transaction form) or
  // t's read slot i (operation form).
  struct ReadEvent {
    std::uint32_t txn;
    std::uint32_t slot;            // the key (transaction form) or the slot
    logic::BLit used;              // the event exists
    std::vector<logic::BLit> key;  // key[x]: it reads x
    // from[w], w = 0..n: w's final write of the key is the value it returns
    // (false for w = txn: reads come before the transaction's own writes).
    std::vector<logic::BLit> from;
  };
  void build_read_events(logic::Circuit& c);
  // With lists: the order variables, the prefix rule, and vo.
  void build_lists(logic::Circuit& c, std::vector<logic::BLit>& constraints);
  // With real time: the event order, its rules, and rt, rt_cc, rt_bc.
  void build_real_time(logic::Circuit& c, std::vector<logic::BLit>& constraints);
  // Event X (2(t-1) is t's begin, 2(t-1)+1 its commit) before event Y.
  logic::BLit event_before(std::uint32_t x, std::uint32_t y) const;
  // Binds rf and wrx in `b` to choice[e][w] (event e reads from w).
  void bind_read_from(logic::Circuit& c, logic::Bindings& b,
                      const std::vector<std::vector<logic::BLit>>& choice) const;
  // The list of key x ending with element v in a model (decode, with lists).
  std::vector<ValueId> decoded_list(const logic::Circuit& c, const std::vector<bool>& inputs, std::uint32_t x,
                                    std::uint32_t v) const;

  Scope scope_;
  bool index_ordered_ = true;
  bool duplicates_ = false;
  std::vector<ReadEvent> events_;  // with duplicates
  std::uint32_t slots_ = 0;
  // slot_[((t - 1) * slots_ + i) * k * m + x * m + v]
  std::vector<logic::BLit> slot_;
  logic::Universe universe_;
  logic::Bindings bindings_;
  logic::BoolMatrix reads_, writes_, so_;
  logic::BLit constraints_ = logic::kTrue;
  logic::BoolMatrix index_order_;
  bool dirty_ = false;
  std::vector<logic::BLit> aborted_;       // [t], t = 0..n
  std::vector<logic::BLit> intermediate_;  // [(t * k + x) * m + v]
  // clean_[x * m + v]: a read of x returning v is a read of a committed
  // version (v = 0, or a committed transaction's final write).
  std::vector<logic::BLit> clean_;
  logic::BLit some_abr_ = logic::kFalse, some_irr_ = logic::kFalse;
  logic::BLit key_order_ = logic::kTrue;
  bool lists_ = false;
  std::vector<logic::BLit> list_order_;  // [(x * (n + 1) + a) * (n + 1) + b]
  bool real_time_ = false;
  std::vector<logic::BLit> event_before_;  // [x * 2n + y]
  std::vector<logic::BLit> predicate_;     // [t], t = 0..n; empty without predicates
};

// Key names: x, y, z, then k3, k4, ...
std::string key_name(std::uint32_t k);

}  // namespace iso::cegis
