// A concrete history as a relational instance: the universe (T0 and the member
// transactions, the keys, the values, the members' external read events) and
// the base relations of the schema as constants. When written values repeat,
// rf is left variable between the certain and the candidate writers, with a
// constraint choosing exactly one writer per read event, as in a
// hyper-polygraph's WR constraints; wrx is rf projected on transactions.
// The reads the abstract history set aside (aborted and intermediate reads
// a level permits) bind abr and irr.
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
  // Read atoms -> (reader, index into its AbstractTxn::reads), index = atom
  // minus the sort's first atom.
  std::vector<std::pair<TxnId, std::uint32_t>> read_of_atom;
  logic::Bindings bindings;                // the schema's base relations
  logic::BLit wellformed = logic::kTrue;   // exactly one writer per read event
};

// The history must have no INT violation and no unjustified read (callers
// decide those first). `c` receives the variables of read-from choices.
ConcreteInstance concrete_instance(const AbstractHistory& h, logic::Circuit& c);

// Every tuple of a type over the universe: the upper bound of a witness.
std::vector<std::vector<logic::Atom>> all_tuples(const logic::Universe& u, const logic::Type& t);

}  // namespace iso::model
