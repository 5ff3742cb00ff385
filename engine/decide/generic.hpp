// The generic oracle: is a concrete history allowed by a level, by its
// formula alone? The level's constraint is translated with the history as
// constants (engine/model/concrete.hpp) and the witness relations as
// variables (or pinned), into one fresh SAT instance; a model is a witness.
// Decides any level on small histories; decide() uses it for the levels
// without a graph characterization, and to re-check witnesses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/decide/decide.hpp"
#include "engine/history/abstract.hpp"
#include "engine/logic/circuit.hpp"
#include "engine/logic/matrix.hpp"
#include "engine/model/concrete.hpp"

namespace iso::generic {

struct Result {
  Verdict verdict = Verdict::Unknown;
  std::optional<Witness> witness;         // Allowed
  std::optional<Anomaly> anomaly;   // Violated by a read anomaly or INT
  std::string reason;                     // Violated otherwise: "no co satisfies ..."
  std::vector<std::string> notes;         // reads set aside as the level permits
  GenericStats stats;
};

// The abstract view the level is decided on: the reads it permits
// (Level::Permits) set aside.
AbstractOptions abstract_options(const Level& level);

// One fixed set of members as a circuit: the history as constants
// (`inst`), each witness relation of the level's framework a matrix of fresh
// inputs, or of constants when pinned (`witness`, in the framework's order,
// also bound in inst.bindings). Precondition: `h` has no INT violation and
// no unjustified read.
// The most tuples a witness relation the oracle searches may have on a
// history (the product of its columns' sort sizes: Txn^3 on 160
// transactions): each is a circuit input and a SAT variable, made before the
// formula is translated. A level whose relation has more is refused
// (DecideRefused) with the relation and the number named.
inline constexpr std::uint64_t kMaxWitnessTuples = std::uint64_t{1} << 22;

struct Encoding {
  Encoding(const AbstractHistory& h, const Level& level, const PinnedRelations& pinned);
  logic::Circuit circuit;  // before inst, which is built in it
  model::ConcreteInstance inst;
  std::vector<logic::BoolMatrix> witness;
};

// One fixed set of member transactions. `pinned` fixes witness relations.
// `fixed_reads`: read-from choices to force.
Result check_members(const AbstractHistory& a, const Level& level,
                     const PinnedRelations& pinned = {},
                     const std::vector<poly::ChosenRead>& fixed_reads = {});

// Every choice of which unknown-status transactions committed (fewest
// first), at most `max_unknown` of them; allowed if one choice is.
Result check(const History& h, const Level& level, std::uint32_t max_unknown,
             const PinnedRelations& pinned = {});

}  // namespace iso::generic
