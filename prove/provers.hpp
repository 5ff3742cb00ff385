// The first-order provers a claim is sent to: z3 and cvc5, two independent
// implementations of SMT-LIB 2 (Debian packages), each run as a child
// process on a script file, with a time limit and a memory limit.
#pragma once

#include <string>
#include <vector>

namespace iso::prove {

struct Prover {
  std::string name;     // "z3"
  std::string program;  // looked up in PATH
  // Configurations tried in turn until one answers unsat or sat, each with
  // the time limit or its own cap, whichever is less.
  struct Configuration {
    std::vector<std::string> flags;  // before the file; "{ms}" and "{s}" the limit
    double cap = 1e9;                // seconds
  };
  std::vector<Configuration> configurations;
};

// cvc5 and z3, as docs/proofs.md re-runs them.
const std::vector<Prover>& provers();

struct ProverRun {
  std::string prover;
  // "unsat" (the claim is proved), "sat" (its negation has a model: not
  // proved), "unknown", "timeout", or "error: ..." (not found, crashed).
  std::string answer;
  double seconds = 0;
  // With "sat" from a configuration that prints it (--dump-models): the
  // model of the negation, as the prover printed it after its answer.
  std::string model;
};

// Runs `p` on the script `file`, each configuration in turn until one
// answers unsat or sat, each for at most `seconds` (then killed) and 4 GB of
// memory. Never throws for what the prover does.
ProverRun run_prover(const Prover& p, const std::string& file, double seconds);

}  // namespace iso::prove
