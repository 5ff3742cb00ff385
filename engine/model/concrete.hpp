// A concrete history as a relational instance: the universe (T0 and the member
// transactions, the keys, the values) and the base relations of the schema as
// constants. When written values repeat, wrx is left variable between the
// certain and the candidate read-from edges, with a constraint choosing exactly
// one writer per external read, as in a hyper-polygraph's WR constraints.
#pragma once

#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/logic/circuit.hpp"
#include "engine/logic/translator.hpp"
#include "engine/logic/universe.hpp"

namespace iso::model {

struct ConcreteInstance {
  logic::Universe universe;
  std::vector<TxnId> txn_of_atom;          // Txn atoms -> TxnId (index = atom)
  std::vector<logic::Atom> atom_of_txn;    // TxnId -> Txn atom (UINT32_MAX if not a member)
  logic::Bindings bindings;                // the schema's base relations
  logic::BLit wellformed = logic::kTrue;   // exactly one writer per external read
};

// The history must have no INT violation and no unjustified read (callers
// decide those first). `c` receives the variables of read-from choices.
ConcreteInstance concrete_instance(const AbstractHistory& h, logic::Circuit& c);

// Every tuple of a type over the universe: the upper bound of a witness.
std::vector<std::vector<logic::Atom>> all_tuples(const logic::Universe& u, const logic::Type& t);

}  // namespace iso::model
