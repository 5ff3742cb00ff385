// Why no witness exists, for a level the generic oracle rejects: the
// instances of its formula that no witness satisfies together.
//
// A level's constraint (Level::constraint: its orders total, the
// framework's well-formedness, the level's axiom) is a conjunction, and most
// of its conjuncts are universally quantified. With the history fixed, a
// conjunct ∀x ∈ D: φ whose domain D does not depend on the witness is the
// conjunction of its instances φ[x := a], one per a ∈ D, and so on down
// through ∧, ⇒ with a premise the history decides, ∀ and ¬∃. Each instance
// that the history does not already make true is a constraint on the
// witness alone: "co(T2, T1)", "vis(T1, T3) or ...". The violation is then a
// set of instances that together have no witness; the solver's final
// conflict under one selector per instance gives one, and deletion makes it
// minimal: without any one of its instances some witness satisfies the
// rest. Read in order, each instance may force a witness cell outright or
// once the cells before it are set; when the forced edges of a total order
// (co, ar) close a cycle, it is given too.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/history/history.hpp"
#include "engine/level/level.hpp"
#include "engine/verdict/anomaly.hpp"

namespace iso {

// One instance of a conjunct of a level's constraint.
struct FailingInstance {
  // Which conjunct: "co is a strict total order", "biswas well-formedness",
  // "biswas.PC axiom".
  std::string of;
  // The quantified variables above the instance, outermost first, each with
  // the transaction, key, value or read it is bound to; a tuple of a subset
  // has no variable name ("", "(T0, T1)").
  std::vector<std::pair<std::string, std::string>> at;
  // The instance as written in the spec (variables by name), shortened.
  std::string formula;
  // The instance is ¬formula (an instance of ¬∃: the level forbids what
  // `formula` says).
  bool forbids = false;
  // What it asks of the witness on this history, when that is a literal or
  // a clause of witness cells ("co(T2, T1)", "co(T1, T2) or co(T3, T2)");
  // empty otherwise. "nothing": the history alone falsifies it.
  std::string needs;
  // What it needs once the cells the instances before it force are set,
  // when that is simpler ("not co(T1, T2)"); "nothing: ..." when they
  // already contradict it.
  std::string given;
  // An acyclicity instance: a cycle its relation has once the witness cells
  // the other instances force one by one are set, whatever the rest are
  // (with needs "nothing": a cycle of the history alone).
  std::vector<TxnId> cycle;
  // The same cycle as dependencies of the history, typed with Adya's edge
  // kinds (wr, ww, rw, so, rt), when each of its edges is one once the
  // forced witness cells are set (the relation is a union of dependency
  // relations); empty otherwise. Per edge, `forced_by` is the instance that
  // forces the version order it rests on (a ww edge, or the overwrite of
  // an rw edge), empty when the history alone gives it; `item` whether an
  // rw edge is an item anti-dependency (a predicate one otherwise).
  std::vector<DepEdge> dependencies;
  std::vector<std::string> forced_by;
  std::vector<bool> item;

  // The bindings as printed: "x := x, t1 := T0, (T0, T1)".
  std::string at_text() const;
};

struct FailingInstances {
  std::vector<FailingInstance> instances;
  // When the instances force edges of an order on transactions that close a
  // cycle: the order's name and the cycle, first transaction repeated last.
  std::string order;
  std::vector<TxnId> cycle;
  // That cycle as dependencies of the history (so, wr, ...), when each of
  // its edges is one; empty otherwise.
  std::vector<DepEdge> dependencies;
};

// Precondition: the generic oracle finds no witness for `level` on `h`
// (its members all committed: no choice of commits is left). Returns a
// minimal set of instances, or nullopt when the constraint unrolls into
// more than `max_instances` instances or the solver gives no answer.
// Throws TimeoutError when the run's deadline passes.
std::optional<FailingInstances> failing_instances(const AbstractHistory& h, const Level& level,
                                                  std::size_t max_instances = 20000);

// The first failing instance whose cycle is made of dependencies, as an
// anomaly named by its cycle (poly::cycle_anomaly: G0, G1c, G-single,
// G2-item, lost update, write skew, ...), each edge told by the operations
// it rests on (poly::edge_fact) and the instance that forces its version
// order; the description says which anti-dependencies are item ones (Adya's
// G2-item is a cycle with one) and which predicate ones. `h` is the history
// the instances were found on. nullopt when no instance has such a cycle.
std::optional<Anomaly> dependency_cycle(const History& h, const FailingInstances& f);

// The instances as text, one per line, as `check` prints them under a
// violation: each with what it needs of the witness, the cycles the forced
// cells close. `witness` names the framework's witness relations ("co",
// "ar and vis").
std::string failing_text(const History& h, const std::string& witness, const FailingInstances& f);

}  // namespace iso
