// One connection to a database, as isosynth drives it: transactions at a
// product isolation level over the rows of one table of its own, each row a
// key with an integer register (`value`) and a list (`list`, for
// list-append). Three clients implement it (db/sqlite_connection.cpp,
// db/postgres_connection.cpp, db/mariadb_connection.cpp); connect() picks one
// by the URL's scheme. Everything above this interface (the schedule runner,
// the workload recorder) is the same for every database.
//
// Calls block: a statement that waits on another session's lock returns
// when the lock is granted, the database aborts the transaction, or the
// statement timeout passes. A caller that must not wait runs the connection
// on a thread of its own (db/session_thread.hpp). One connection is used by
// one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/history/predicate.hpp"

namespace iso::db {

// The isolation levels products name (SQL-92's four). Each client offers
// those its database implements as itself (PostgreSQL has no read
// uncommitted of its own: it runs it as read committed, so it is not offered).
enum class ProductLevel : std::uint8_t { ReadUncommitted, ReadCommitted, RepeatableRead, Serializable };

// "read uncommitted", ... (as SQL spells them, lower case).
std::string level_name(ProductLevel l);
// "read-uncommitted"/"read uncommitted"/"ru", ... ; nullopt when unknown.
std::optional<ProductLevel> parse_level(const std::string& text);

// How a statement ended. Ok; Aborted: the database rolled the transaction
// back (serialization failure, deadlock, lock wait timeout) and said why;
// Timeout: the statement timeout passed (the transaction is then rolled
// back too). After Aborted or Timeout the caller calls abort() before the
// next begin().
struct Status {
  enum class Kind : std::uint8_t { Ok, Aborted, Timeout };
  Kind kind = Kind::Ok;
  std::string sqlstate;  // "40001", "40P01", ...: as the database reported it
  std::string message;   // the database's message, one line
  bool ok() const { return kind == Kind::Ok; }
};

// A failure that ends the run: unreachable server, authentication, a table
// of the same name with other columns, a lost connection, a statement the
// database refused for another reason. what() is one line naming the
// database (its URL without password) and the step ("connect", "create
// table", "read x", ...).
class DbError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A key's row: its name and, for keys spelled as integers, the integer (for
// range predicates, which compare integer keys as integers).
struct KeyRow {
  std::string key;
  bool integer = false;
  std::optional<std::int64_t> initial;  // the register's initial value (nullopt: SQL NULL)
};

// What a predicate read returned: each row's key and register value.
using Rows = std::vector<std::pair<std::string, std::optional<std::int64_t>>>;

class Connection {
 public:
  virtual ~Connection() = default;
  Connection() = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // "PostgreSQL 15.18", "MariaDB 10.11.6", "SQLite 3.40.1": the server's
  // own version string, asked at connect.
  virtual std::string product() const = 0;
  // The URL without its password, for messages.
  virtual std::string url() const = 0;
  // The levels this database offers, weakest first.
  virtual std::vector<ProductLevel> levels() const = 0;

  // Creates isosynth's table if it does not exist (PostgreSQL: table kv in
  // schema isosynth; MariaDB and SQLite: table isosynth_kv), refuses one of
  // that name with other columns (DbError), and resets it to exactly `rows`
  // (list empty), committed. Touches nothing else.
  virtual void reset_table(const std::vector<KeyRow>& rows) = 0;

  // Starts a transaction at `level` (DbError if the database does not
  // offer it). The snapshot, where the level takes one, is taken by the
  // first statement after it, as each product does by default.
  virtual Status begin(ProductLevel level) = 0;
  // SELECT value of one key; `value` is the register (nullopt: NULL; a
  // missing row is a DbError: isosynth never deletes rows).
  virtual Status read(const std::string& key, std::optional<std::int64_t>& value) = 0;
  // UPDATE value of one key.
  virtual Status write(const std::string& key, std::optional<std::int64_t> value) = 0;
  // Appends an element to the key's list (one UPDATE that concatenates).
  virtual Status append(const std::string& key, std::int64_t element) = 0;
  // SELECT the key's list.
  virtual Status read_list(const std::string& key, std::vector<std::int64_t>& elements) = 0;
  // SELECT key, value WHERE the predicate holds, as SQL over the table (a
  // real predicate read: the database sees the condition, not a key list).
  // `rows` in key order.
  virtual Status predicate_read(const Predicate& p, Rows& rows) = 0;
  // UPDATE SET value = v WHERE the predicate holds.
  virtual Status predicate_write(const Predicate& p, std::optional<std::int64_t> value) = 0;
  virtual Status commit() = 0;
  // ROLLBACK; also after an Aborted or Timeout status.
  virtual Status abort() = 0;
};

// Opens a connection. `url`:
//   sqlite:FILE                       SQLite, embedded (FILE created if absent)
//   postgresql://... / postgres://... libpq's URI syntax, e.g.
//                                     postgresql:///DB?host=/socket/dir&user=U
//   mysql://USER[:PASSWORD]@HOST[:PORT]/DB[?socket=/path]   MariaDB / MySQL
//   mariadb://...                     the same
// `statement_timeout`: seconds any one statement may take (lock waits
// included) before it ends with Status::Kind::Timeout. Throws DbError.
std::unique_ptr<Connection> connect(const std::string& url, double statement_timeout);

// The URL without its password (for messages and recorded histories).
std::string redact_url(const std::string& url);

}  // namespace iso::db
