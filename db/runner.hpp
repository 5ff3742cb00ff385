// Runs a history on a real database by a schedule (db/schedule.hpp), one
// connection per session, and records what really happened: the values
// each read returned, which transactions committed, which the database
// aborted (with its SQLSTATE), which statements waited on a lock.
//
// Each session's statements run on its own thread (db/session_thread.hpp).
// The runner posts the schedule's steps in order and waits `blocked_after`
// for each; a statement still running then is blocked on a lock, and the
// runner goes on with the other sessions. The blocked session's later steps
// wait behind it and run, in order, once it returns. A transaction the
// database aborted skips its remaining steps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/connection.hpp"
#include "db/schedule.hpp"
#include "engine/history/history.hpp"

namespace iso::db {

struct RunOptions {
  ProductLevel level = ProductLevel::Serializable;
  double statement_timeout = 5;  // seconds, for every statement (lock waits included)
  double blocked_after = 0.25;   // seconds: a statement not returned by then is blocked
};

struct StepOutcome {
  bool run = false;      // false: skipped, its transaction had been aborted by the database
  bool blocked = false;  // had not returned after blocked_after
  double seconds = 0;    // how long the statement took
  // The schedule step of another session that was the last to finish before
  // a blocked statement was seen to return (what released it, as far as
  // the client can tell); -1 when none or not blocked.
  std::int64_t released_after = -1;
  Status status;  // not Ok: the database ended the transaction at this step
};

struct TxnOutcome {
  TxnStatus status = TxnStatus::Committed;  // as it ended on the database
  bool aborted_by_database = false;         // Aborted or Timeout status, not the history's own abort
  Status status_detail;                     // why, when aborted by the database
};

struct RunRecord {
  // What happened, as a history: the input's sessions, transactions (same
  // names, same TxnIds), keys and initial values; each transaction's
  // operations as far as they ran, with the values the database returned;
  // client begin and commit times in microseconds from the run's start.
  History recorded;
  std::vector<StepOutcome> steps;  // per schedule step
  std::vector<TxnOutcome> txns;    // per TxnId of the input (T0 included, unused)
  // Per TxnId: the index in the input transaction's ops of each recorded
  // operation (the schedule may run them in another order).
  std::vector<std::vector<std::uint32_t>> source_ops;
  bool any_blocked() const;
  bool any_aborted_by_database() const;
};

// Why `run_schedule` cannot run `h`, or nullopt: values that are not
// integers or null (the table holds integers), deletes (isosynth never
// deletes rows), list elements that are not integers.
std::optional<std::string> unsupported(const History& h);

// Resets the table to the history's keys and initial values, runs the
// schedule at opt.level and records it. Throws DbError (one line naming the
// database and the step) when the database fails, not when it aborts a
// transaction. Precondition: unsupported(h) is nullopt; `s` covers h.
RunRecord run_schedule(const std::string& url, const History& h, const Schedule& s, const RunOptions& opt);

// The reads of `recorded` that differ from the same reads of `intended`
// (the same transaction's same operation), as "T2.r(x): 0, not 1", and the
// operations that did not run; empty when every read returned what the
// history says and every transaction ended as it says.
std::vector<std::string> differences(const History& intended, const RunRecord& run);

}  // namespace iso::db
