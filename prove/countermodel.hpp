// A model of a goal's negation, as cvc5 prints it (--dump-models), read
// back as a history: where a proof attempt meets a false claim, the history
// that shows it, beyond the scope the search covered. Only a history
// decide() then finds allowed by A and violated by B is a counterexample
// to A => B (implication.hpp); a model may refute only the witness map, or
// rest on a closure's stand-in that is no closure.
#pragma once

#include <optional>
#include <string>

#include "engine/history/history.hpp"

namespace iso::prove {

struct ModelHistory {
  std::optional<History> history;
  std::string why_not;  // when there is none: what in the model a history cannot be
};

// Reads `model` (cvc5's output: "sat" then "(define-fun NAME ((ARGS U) ...)
// Bool BODY)" per symbol over the atoms "(as @U_k U)"), a model of a script
// of smt_problem.hpp, into the history it describes: its transactions,
// keys, sessions (session order must be chains), external reads (the read
// events in program order, where the model has them) and final writes,
// read-from. Each write gets a value of its own (T0's: 0) and each read the
// value of the writer read-from names, so read-from is what the model says
// whatever values it chose. With `session_free`, every transaction is its
// own session. Models with aborted or intermediate reads, or known version
// orders, are not read (why_not).
ModelHistory model_history(const std::string& model, bool session_free);

}  // namespace iso::prove
