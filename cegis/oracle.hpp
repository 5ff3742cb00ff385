// The checking oracle: is a concrete history allowed by a level? It looks for
// a witness (a commit order, or visibility and arbitration, plus a read-from
// choice when written values repeat) that satisfies the framework's axioms and
// the level, by translating the level's formula with the history as constants
// into a fresh SAT instance. In CEGIS this is the verifier of a candidate.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/history/history.hpp"
#include "lua/spec_library.hpp"

namespace iso::cegis {

enum class Verdict { Allowed, Denied, Unknown };

struct WitnessRelation {
  std::string name;                               // "co", "vis", "ar"
  bool order = false;
  std::vector<TxnId> sequence;                    // order: first to last
  std::vector<std::pair<TxnId, TxnId>> pairs;     // the relation's pairs
};

// The sequence of a strict total order given by its pairs, over `txns`.
std::vector<TxnId> order_sequence(const std::vector<std::pair<TxnId, TxnId>>& pairs,
                                  const std::vector<TxnId>& txns);

struct Witness {
  std::vector<WitnessRelation> relations;         // in the framework's order
  // Read-from, for reads with several candidate writers: (writer, key, reader).
  std::vector<std::tuple<TxnId, KeyId, TxnId>> chosen_reads;
  // Transactions of unknown status taken as committed.
  std::vector<TxnId> committed_unknown;
};

struct CheckStats {
  double translate_seconds = 0;
  double solve_seconds = 0;
  std::uint64_t gates = 0;
  std::uint64_t sat_vars = 0;
  std::uint64_t sat_clauses = 0;
  std::uint64_t solver_calls = 0;
};

struct CheckResult {
  Verdict verdict = Verdict::Unknown;
  std::string reason;                 // why denied (INT, unjustified read, no witness)
  std::optional<Witness> witness;     // when allowed
  CheckStats stats;
};

struct CheckOptions {
  double timeout_seconds = 0;                 // 0: none; per solver call
  std::uint32_t max_unknown_transactions = 10;
};

// Raised for histories the oracle cannot decide as asked (e.g. too many
// transactions of unknown status, predicate reads).
class OracleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

CheckResult check(const History& h, const lua::Level& level, const CheckOptions& opt = {});

// Witness relations pinned to given pairs of transactions (by name), e.g. a
// commit order fixed to the index order: the search is then for the rest.
using FixedRelations = std::vector<std::pair<std::string, std::vector<std::pair<TxnId, TxnId>>>>;

// One fixed set of member transactions.
CheckResult check_members(const AbstractHistory& h, const lua::Level& level,
                          const CheckOptions& opt = {}, const FixedRelations& fixed = {});

}  // namespace iso::cegis
