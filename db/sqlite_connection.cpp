// The SQLite client: embedded, one file shared by every connection. WAL
// journal mode, so readers do not block the writer; busy_timeout set to the
// statement timeout, so a write that waits for another connection's write
// lock blocks as a server's lock wait does. SQLite has one level of its
// own, serializable: one writer at a time, and a transaction whose snapshot
// is older than the last commit cannot write (SQLITE_BUSY_SNAPSHOT).
#include <sqlite3.h>

#include <algorithm>

#include <fmt/format.h>

#include "db/c_handle.hpp"
#include "db/clients.hpp"
#include "db/sql_connection.hpp"

namespace iso::db::detail {

namespace {

using StmtPtr = CHandle<sqlite3_stmt, sqlite3_finalize>;

// The extended result codes a waiting or conflicting transaction gets,
// by name (SQLite has no function that names them).
std::string code_name(int code) {
  switch (code) {
    case SQLITE_BUSY: return "SQLITE_BUSY";
    case SQLITE_BUSY_RECOVERY: return "SQLITE_BUSY_RECOVERY";
    case SQLITE_BUSY_SNAPSHOT: return "SQLITE_BUSY_SNAPSHOT";
#ifdef SQLITE_BUSY_TIMEOUT
    case SQLITE_BUSY_TIMEOUT: return "SQLITE_BUSY_TIMEOUT";
#endif
    case SQLITE_LOCKED: return "SQLITE_LOCKED";
    case SQLITE_LOCKED_SHAREDCACHE: return "SQLITE_LOCKED_SHAREDCACHE";
    default: return fmt::format("SQLITE_{}", code);
  }
}

bool conflict(int code) { return (code & 0xff) == SQLITE_BUSY || (code & 0xff) == SQLITE_LOCKED; }

class SqliteConnection final : public SqlConnection {
 public:
  SqliteConnection(std::string url, const std::string& file, double timeout)
      : SqlConnection(std::move(url), Dialect::Sqlite, "isosynth_kv") {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(file.c_str(), &raw,
                                   SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
    db_.reset(raw);
    if (rc != SQLITE_OK) fail(this->url(), "connect", raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc));
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, static_cast<int>(std::min<long long>(timeout_ms(timeout), 1LL << 30)));
    must("PRAGMA journal_mode=WAL", "connect");
    must("PRAGMA synchronous=NORMAL", "connect");
    const auto version = must("SELECT sqlite_version()", "connect");
    product_ = "SQLite " + version.at(0).at(0).value_or("?");
  }

  std::string product() const override { return product_; }
  std::vector<ProductLevel> levels() const override { return {ProductLevel::Serializable}; }

 private:
  std::vector<std::string> create_table_sql() const override {
    return {"CREATE TABLE IF NOT EXISTS isosynth_kv (\"key\" TEXT PRIMARY KEY, ikey INTEGER, \"value\" INTEGER, "
            "list TEXT NOT NULL DEFAULT '')"};
  }
  std::string columns_sql() const override {
    return "SELECT name FROM pragma_table_info('isosynth_kv') ORDER BY cid";
  }
  // Deferred: the snapshot is taken by the first statement.
  std::vector<std::string> begin_sql(ProductLevel) const override { return {"BEGIN"}; }
  bool in_transaction() const override { return sqlite3_get_autocommit(db_.get()) == 0; }
  long long matched() const override { return sqlite3_changes(db_.get()); }
  // SQLite allows 32,766 parameters in a statement; an INSERT row takes 3.
  std::size_t insert_batch() const override { return 5000; }

  // A busy or locked database after the busy timeout is Aborted, the
  // transaction rolled back (SQLite keeps it open after a busy statement;
  // the interface says it is over).
  Status run(const std::string& sql, const std::vector<SqlParam>& params, Table* rows,
             std::string_view step) override {
    sqlite3_stmt* raw = nullptr;
    int rc = sqlite3_prepare_v2(db_.get(), sql.c_str(), static_cast<int>(sql.size()), &raw, nullptr);
    StmtPtr stmt(raw);
    if (rc != SQLITE_OK) return error(rc, step);
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int n = static_cast<int>(i + 1);
      if (const auto* s = std::get_if<std::string>(&params[i]))
        rc = sqlite3_bind_text(raw, n, s->data(), static_cast<int>(s->size()), SQLITE_TRANSIENT);
      else
        rc = sqlite3_bind_int64(raw, n, std::get<std::int64_t>(params[i]));
      if (rc != SQLITE_OK) return error(rc, step);
    }
    while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
      if (!rows) continue;
      auto& row = rows->emplace_back();
      for (int c = 0; c < sqlite3_column_count(raw); ++c) {
        if (sqlite3_column_type(raw, c) == SQLITE_NULL) {
          row.emplace_back();
        } else {
          const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(raw, c));
          row.emplace_back(std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(raw, c))));
        }
      }
    }
    if (rc != SQLITE_DONE) return error(rc, step);
    return {};
  }

  Status error(int rc, std::string_view step) {
    const int code = sqlite3_extended_errcode(db_.get());
    const std::string message = one_line(sqlite3_errmsg(db_.get()));
    sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);  // none open: not an error
    if (!conflict(rc) && !conflict(code)) fail(url(), step, message);
    return Status{Status::Kind::Aborted, code_name(code), message};
  }

  CHandle<sqlite3, sqlite3_close_v2> db_;
  std::string product_;
};

}  // namespace

std::unique_ptr<Connection> open_sqlite(const std::string& url, const std::string& file, double statement_timeout) {
  return std::make_unique<SqliteConnection>(url, file, statement_timeout);
}

}  // namespace iso::db::detail
