// Schedules: the interleaving of a history's statements under which a
// database would return exactly the history's reads. `isosynth run` executes
// a history on a real database by one (db/runner.hpp); this file finds them.
//
// A schedule is a sequence of steps, each one statement of one session: an
// operation of a transaction, or its end (COMMIT, or ROLLBACK for an aborted
// transaction). A session's transactions run one after the other, in session
// order; a transaction's first step is its BEGIN too, and takes its snapshot
// (as PostgreSQL, MariaDB and SQLite take it at the first statement).
//
// What a read returns at its step is fixed by a read model, one per kind of
// implementation:
//   Snapshot     the transaction's own latest write of the key, else the
//                latest write committed before the transaction's first step
//                (snapshot isolation, repeatable read in PostgreSQL);
//   Committed    its own latest write, else the latest write committed
//                before this step (read committed);
//   Uncommitted  its own latest write, else the latest write of the key by
//                any transaction not rolled back, committed or not (read
//                uncommitted; dirty reads).
// "Latest" is in schedule order. A list read returns the elements appended,
// in schedule order, by the writes the model shows (for Snapshot and
// Committed: those of transactions committed before the snapshot or the
// step, and its own). A predicate read returns every key whose value, as the
// model shows it, satisfies the predicate; a predicate write writes every
// such key. ROLLBACK removes the transaction's writes.
//
// A schedule realizes a history under a model when every read returns what
// the history says it returned. The search tries, in order:
//   1. each model (Snapshot, Committed, Uncommitted) with the operations in
//      program order and no write to a key that another unfinished
//      transaction has written (every product blocks such a write);
//   2. the same with the operations of a transaction reordered where the
//      history cannot tell: operations on different keys may swap, those on
//      one key (and predicate operations, with everything) keep their order;
//   3. the same with writes over unfinished writes allowed (dirty writes).
// and returns the first schedules found, each distinct, best first. A
// transaction the history says began after another committed, in real
// time (History::real_time_before: a stale read's example), begins after
// that one's end in every schedule. Within
// one pass, among schedules, it prefers running a transaction to its end
// (fewest switches between sessions first, in DFS order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/history/history.hpp"

namespace iso::db {

enum class ReadModel : std::uint8_t { Snapshot, Committed, Uncommitted };
// "snapshot", "committed", "uncommitted".
const char* model_name(ReadModel m);

struct Step {
  enum class Kind : std::uint8_t { Op, Commit, Abort };
  TxnId txn = 0;
  Kind kind = Kind::Op;
  std::uint32_t op = 0;  // Op: index into the transaction's ops
};

struct Schedule {
  std::vector<Step> steps;  // every operation of every transaction but T0, each once, and each end
  ReadModel model = ReadModel::Snapshot;  // the model of the pass that found it first
  // Every model whose pass found these steps: the schedule realizes the
  // history under each (`model` first).
  std::vector<ReadModel> models;
  bool reordered = false;     // some transaction's operations are not in program order
  bool dirty_writes = false;  // some write lands on a key an unfinished transaction wrote
};

struct ScheduleOptions {
  std::size_t max_schedules = 4;      // distinct schedules to return
  // At most this many from each pass, so that the later passes' read
  // models are among those returned too (a database at read uncommitted
  // is best tried with a schedule of that model first).
  std::size_t max_per_pass = SIZE_MAX;
  std::uint64_t max_nodes = 2000000;  // search steps in all, for bounded time
};

struct ScheduleSearch {
  std::vector<Schedule> schedules;  // best first; empty: none found
  // The search covered every interleaving: an empty result means that no
  // schedule realizes the history under any model ("no schedule realizes
  // this history"). False: the node budget ran out first.
  bool complete = true;
};

// Preconditions: reads return integers or null, no deletes (a tombstone has
// no row to read: the caller refuses such histories first). Transactions of
// unknown status are treated as committed.
ScheduleSearch find_schedules(const History& h, const ScheduleOptions& opt = {});

// What each Op step's read returns under the schedule's model, in schedule
// order (for a step that is no read: empty), as the history spells values:
// a register read one value, a list read its elements, a predicate read
// "key=value" per key returned. For the runner, which compares them with
// what the database returned, and for tests.
std::vector<std::vector<std::string>> expected_reads(const History& h, const Schedule& s);

// One line: "T1.r(x) T2.r(y) T1.w(y) T1.commit ..." (names as History prints).
std::string schedule_text(const History& h, const Schedule& s);

}  // namespace iso::db
