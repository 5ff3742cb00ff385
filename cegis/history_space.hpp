// The space of histories a synthesis problem searches (DESIGN.md §6.1): for a
// scope of n transactions, k objects and m values (the initial value counted,
// as in Isolde), boolean variables for
//   W[t][x][v]  t's final write of x is v (at most one v; v ≠ the initial value)
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
// T0 writes the initial value of every key and precedes everything. Written
// values are unique per key. Every read returns a value another transaction
// wrote (T0 for the initial value): no thin-air reads. When index ordered,
// that transaction has a lower index: read-from follows index order.
//
// The operation form places a transaction's reads before its writes. No
// level can tell the difference: a read after the transaction's own write of
// the key is no read event (it returns that write, INT), and a write's
// position is not part of the schema (only final writes are), so every
// interleaving of the same reads and writes gives the same relations.
// tests/unit/test_synth_operations.cpp checks completeness against
// histories enumerated with every interleaving.
//
// Symmetry breaking, each step sound on its own and together (rename the
// transactions along a witness order, then the values of each key, then the
// keys):
//   - so ∪ wr goes from lower to higher index (index ordered: when some allow
//     level's order contains so ∪ wr, as Biswas–Enea's co and Cerone's ar
//     do; otherwise so alone, renaming along a linear extension of so: a
//     session-free level such as Adya's may allow a history whose so ∪ wr
//     has a cycle, and PL-1 one whose wr has);
//   - the written values of each key are 1, 2, ... in the order of their
//     writers' indices;
//   - keys are numbered in the order of their first use;
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
};

class HistorySpace {
 public:
  HistorySpace(const Scope& scope, const SpaceOptions& opt, logic::Circuit& c);

  const Scope& scope() const { return scope_; }
  // The operation form: read events in program order (sort Read).
  bool operations() const { return slots_ > 0; }
  // Read slots per transaction in the operation form.
  std::uint32_t read_slots() const { return slots_; }
  const logic::Universe& universe() const { return universe_; }
  // The schema's base relations bound to this space's variables.
  const logic::Bindings& bindings() const { return bindings_; }
  // Well-formedness of the space and the symmetry breaking.
  logic::BLit constraints() const { return constraints_; }
  // Txn atoms in index order: T0 < T1 < ... < Tn, the fixed commit order.
  logic::BoolMatrix index_order() const;

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

  logic::Atom txn_atom(std::uint32_t t) const { return t; }

 private:
  logic::Index idx3(std::uint32_t t, std::uint32_t x, std::uint32_t v) const;
  // Read slots (operation form): the relations over read events.
  void build_read_slots(logic::Circuit& c, std::vector<logic::BLit>& constraints);

  Scope scope_;
  bool index_ordered_ = true;
  std::uint32_t slots_ = 0;
  // slot_[((t - 1) * slots_ + i) * k * m + x * m + v]
  std::vector<logic::BLit> slot_;
  logic::Universe universe_;
  logic::Bindings bindings_;
  logic::BoolMatrix reads_, writes_, so_;
  logic::BLit constraints_ = logic::kTrue;
};

// Key names: x, y, z, then k3, k4, ...
std::string key_name(std::uint32_t k);

}  // namespace iso::cegis
