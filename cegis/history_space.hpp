// The space of histories a synthesis problem searches (DESIGN.md §6.1): for a
// scope of n transactions, k objects and m values (the initial value counted,
// as in Isolde), boolean variables for
//   R[t][x][v]  t's external read of x returns v (at most one v)
//   W[t][x][v]  t's final write of x is v (at most one v; v ≠ the initial value)
//   so[i][j]    session order, i < j: a disjoint union of chains
// with T0 writing the initial value of every key and preceding everything.
// Written values are unique per key. Every read returns a value written by a
// transaction of lower index (T0 for the initial value): no thin-air reads,
// and read-from follows index order.
//
// Symmetry breaking, each step sound on its own and together (rename the
// transactions along a witness order, then the values of each key, then the
// keys):
//   - so ∪ wr goes from lower to higher index;
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
  std::string text() const;   // "4,3,3"
};

// Parses "T,O,V" (each at least 1; values at least 1). Throws
// std::invalid_argument with a message naming what is wrong.
Scope parse_scope(const std::string& text);

struct SpaceOptions {
  bool blind_writes = true;  // false: every written key is read first (Isolde's space)
};

class HistorySpace {
 public:
  HistorySpace(const Scope& scope, const SpaceOptions& opt, logic::Circuit& c);

  const Scope& scope() const { return scope_; }
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
  logic::BLit read_var(std::uint32_t t, std::uint32_t x, std::uint32_t v) const;
  logic::BLit write_var(std::uint32_t t, std::uint32_t x, std::uint32_t v) const;
  logic::BLit so_var(std::uint32_t i, std::uint32_t j) const;

  logic::Atom txn_atom(std::uint32_t t) const { return t; }

 private:
  logic::Index idx3(std::uint32_t t, std::uint32_t x, std::uint32_t v) const;

  Scope scope_;
  logic::Universe universe_;
  logic::Bindings bindings_;
  logic::BoolMatrix reads_, writes_, so_;
  logic::BLit constraints_ = logic::kTrue;
};

// Key names: x, y, z, then k3, k4, ...
std::string key_name(std::uint32_t k);

}  // namespace iso::cegis
