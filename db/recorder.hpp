// Recording a workload (db/workload.hpp) on a real database: K sessions, one
// thread and one connection each, run their transactions one after another
// at a product level, and what the database returned becomes a native
// History: the values read, commits and aborts, and for every transaction
// the client's begin time (BEGIN sent) and commit time (COMMIT, or
// ROLLBACK, returned), in microseconds of one steady clock from the start
// of the run.
//
// Transaction i of the plan runs in session i mod K. A transaction the
// database aborts (serialization failure, deadlock) or whose statement
// times out is recorded as aborted with the operations it executed, and its
// SQLSTATE counted; it is not retried. A DbError (lost connection, server
// gone) stops every session and is thrown again from record(): no history
// comes out of a run that failed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/connection.hpp"
#include "db/workload.hpp"
#include "engine/history/history.hpp"

namespace iso::db {

struct RecordOptions {
  std::size_t sessions = 4;
  ProductLevel level = ProductLevel::Serializable;
  WorkloadKind kind = WorkloadKind::RwRegister;
  std::size_t keys = 10;  // the table's rows: keys "0" .. "keys-1", register 0, list empty
  // Called about once a second from the calling thread while sessions run,
  // with the transactions finished so far (committed or aborted) and how
  // many of them aborted.
  std::function<void(std::size_t done, std::size_t aborted)> progress;
};

struct Recording {
  History history;
  std::string product;  // Connection::product()
  std::string url;      // without password
  std::size_t committed = 0, aborted = 0;
  // Aborts by SQLSTATE ("40001", "40P01"; "timeout" for a statement
  // timeout without one).
  std::map<std::string, std::size_t> aborts;
  double seconds = 0;  // from the first BEGIN to the last transaction's end
};

// Opens one connection (the caller's connect(), or a test's store).
using Connector = std::function<std::unique_ptr<Connection>()>;

// Opens the sessions' connections, resets the table (on the first), runs
// `plan` and returns the recording. Throws DbError (a one-line message
// naming the database and the step) when the database fails, refuses the
// level, or is lost; iso::TimeoutError when the run's deadline
// (engine/util/budget.hpp, of the calling thread) passes first.
Recording record(const Connector& connect, const std::vector<PlannedTxn>& plan, const RecordOptions& o);

}  // namespace iso::db
