// Random small histories for cross-checking the oracles against the brute
// force. Deterministic for a given generator state.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "engine/history/history.hpp"

namespace iso::brute {

struct RandomHistoryOptions {
  int min_txns = 2;  // T0 not counted
  int max_txns = 5;
  int max_keys = 3;
  int max_sessions = 3;
  int min_ops = 1;  // per transaction
  int max_ops = 4;
  // Every write a fresh value; otherwise values come from 0..value_range-1,
  // so the same value can be written twice and the initial 0 rewritten.
  bool unique_values = true;
  int value_range = 3;
  bool blind_writes = true;   // a write of a key the transaction did not read
  double read_ratio = 0.5;    // chance that an operation is a read
  // How external reads choose their values. A transaction reads, with
  // probability `snapshot`, from a random snapshot: a random set of earlier
  // transactions (in T1, T2, ... order) including its session predecessors,
  // each read returning the latest write of the key in the snapshot (or the
  // initial value). Otherwise each read independently returns what a serial
  // execution in transaction order would (`read_latest`), a value written by
  // a random earlier transaction (`read_earlier`), or by any transaction.
  double snapshot = 0.5;
  double read_latest = 0.4;
  double read_earlier = 0.4;
  // Chance that the history has one external read of a value nobody wrote,
  // and one internal read that ignores the transaction's own earlier op.
  double thin_air = 0.05;
  double int_violation = 0.05;
  // Operation-level reads, each off by default (no random draws are spent
  // on an option left at 0, so histories stay what they were without it).
  // `reread`: chance that a read re-reads a key the transaction has read and
  // not written; its value is drawn by the same policy as a first read (a
  // snapshot returns the same value again; independent reads may return a
  // different committed value: a non-repeatable read). Without it a re-read
  // repeats the earlier read.
  double reread = 0;
  // `read_own_write`: chance that a read reads a key the transaction has
  // written; it returns the transaction's last write of it, or, with
  // probability `int_violation` (per such read), something else: one of its
  // earlier writes of the key, another transaction's write, or the initial
  // value.
  double read_own_write = 0;
  // Statuses, drawn per transaction: aborted, or of unknown status (as
  // randomize_status() does, but before the reads choose their values).
  double aborted = 0;
  double unknown = 0;
  // `dirty`: chance that a first read or re-read returns a value written by
  // an aborted transaction (any of its writes) or a non-final write of
  // another transaction, when the history has one.
  double dirty = 0;
};

History random_history(std::mt19937_64& rng, const RandomHistoryOptions& opt = {});

// Random small list-append histories (Elle): transactions of appends (fresh
// values per key) and list reads, whose lists come from a simulated
// execution, with optional injected anomalies. Transactions T1, T2, ...
// execute in that order (sessions follow it); a transaction sees the appends
// of the earlier transactions that are applied (committed, or aborted or of
// unknown status with their appends made visible) and its own appends.
struct RandomListOptions {
  int min_txns = 2;  // T0 not counted
  int max_txns = 5;
  int max_keys = 2;
  int max_sessions = 3;
  int min_ops = 1;  // per transaction
  int max_ops = 4;
  double read_ratio = 0.5;    // chance that an operation is a read
  bool blind_appends = true;  // else t reads a key before its first append to it
  // What reads see, chosen once per history: with probability `serial`
  // every earlier applied transaction; with probability `snapshot` a random
  // set of them per transaction (its session predecessors included), in
  // transaction order; otherwise, for each transaction and key
  // independently, a random prefix of the serial list (stale reads).
  double serial = 0.2;
  double snapshot = 0.4;
  // Per transaction: aborted, or of unknown status; such a transaction's
  // appends are visible to later reads with probability `visible`.
  double aborted = 0.1;
  double unknown = 0.1;
  double visible = 0.5;
  // Per history, each at most once: one read gets an element nobody
  // appended (garbage), repeats one of its elements (duplicate), has two of
  // its elements swapped (an order incompatible with other reads), or stops
  // between two appends of one other transaction to the key (intermediate).
  double garbage = 0.05;
  double duplicate = 0.05;
  double swap = 0.05;
  double intermediate = 0.1;
  // Chance that T0 initialises only some keys (InitialWrites::ExplicitOnly,
  // each key with probability 1/2).
  double explicit_init = 0.0;
};

History random_list_history(std::mt19937_64& rng, const RandomListOptions& opt = {});

// Predicate reads added to a history (LEVELS.md, "Predicates").
struct RandomPredicateOptions {
  // The predicates drawn from, as parse_predicate() reads them.
  std::vector<std::string> shapes = {"[x,y]", "[y,z]", "v=1", "v!=0", "v<2", "[x,z] && v>0", "prefix:x"};
  // Each key's membership in a result is wrong (a key left out that
  // matches, or one returned that does not) one time in `wrong`; 0: never.
  unsigned wrong = 8;
};

// Adds a predicate read at the end of about half the transactions, over a
// shape of `opt`, returning what a serial execution in transaction order
// (of the committed transactions before it, and its own writes) would, up
// to the wrong memberships `opt` asks for: so that many histories stay
// serializable.
void add_predicate_reads(std::mt19937_64& rng, History& h, const RandomPredicateOptions& opt = {});

// Adds up to `most` predicate writes (UPDATE ... SET v = c WHERE θ, or a
// DELETE ... WHERE θ) at random places in random transactions, each over a
// key range or a value condition.
void add_predicate_writes(std::mt19937_64& rng, History& h, int most);

// Marks each transaction aborted with probability `aborted` and of unknown
// status with probability `unknown` (draws one number per transaction).
void randomize_status(std::mt19937_64& rng, History& h, double aborted = 0.1,
                      double unknown = 0.1);

}  // namespace iso::brute
