// The SQLite client: embedded, one file shared by every connection. WAL
// journal mode, so readers do not block the writer; busy_timeout set to the
// statement timeout, so a write that waits for another connection's write
// lock blocks as a server's lock wait does. SQLite has one level of its
// own, serializable: one writer at a time, and a transaction whose snapshot
// is older than the last commit cannot write (SQLITE_BUSY_SNAPSHOT).
#include <sqlite3.h>

#include <algorithm>

#include <fmt/format.h>

#include "db/clients.hpp"
#include "db/sql_where.hpp"

namespace iso::db::detail {

namespace {

struct CloseDb {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct Finalize {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using StmtPtr = std::unique_ptr<sqlite3_stmt, Finalize>;

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

constexpr const char* kColumns[] = {"key", "ikey", "value", "list"};

class SqliteConnection final : public Connection {
 public:
  SqliteConnection(std::string url, const std::string& file, double timeout) : url_(std::move(url)) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(file.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                                   nullptr);
    db_.reset(raw);
    if (rc != SQLITE_OK) fail(url_, "connect", raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc));
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, static_cast<int>(std::min<long long>(timeout_ms(timeout), 1LL << 30)));
    exec_or_fail("PRAGMA journal_mode=WAL", "connect");
    exec_or_fail("PRAGMA synchronous=NORMAL", "connect");
    std::vector<std::vector<std::optional<std::string>>> rows;
    if (!run("SELECT sqlite_version()", {}, &rows, "connect").ok() || rows.empty() || !rows[0][0])
      fail(url_, "connect", "no version");
    product_ = "SQLite " + *rows[0][0];
  }

  std::string product() const override { return product_; }
  std::string url() const override { return url_; }
  std::vector<ProductLevel> levels() const override { return {ProductLevel::Serializable}; }

  void reset_table(const std::vector<KeyRow>& rows) override {
    exec_or_fail(
        "CREATE TABLE IF NOT EXISTS isosynth_kv (\"key\" TEXT PRIMARY KEY, ikey INTEGER, \"value\" INTEGER, "
        "list TEXT NOT NULL DEFAULT '')",
        "create table");
    std::vector<std::vector<std::optional<std::string>>> info;
    if (!run("SELECT name FROM pragma_table_info('isosynth_kv') ORDER BY cid", {}, &info, "create table").ok())
      fail(url_, "create table", "the table's columns could not be read");
    std::vector<std::string> names;
    for (const auto& r : info) names.push_back(r[0].value_or(""));
    if (names != std::vector<std::string>(std::begin(kColumns), std::end(kColumns)))
      fail(url_, "create table",
           fmt::format("table isosynth_kv exists with other columns ({}); isosynth needs key, ikey, value, list",
                       fmt::join(names, ", ")));
    exec_or_fail("BEGIN IMMEDIATE", "reset table");
    exec_or_fail("DELETE FROM isosynth_kv", "reset table");
    for (const auto& row : rows) {
      std::vector<SqlParam> params;
      const std::string k = sql_param(Dialect::Sqlite, row.key, params);
      const std::string i = sql_value(Dialect::Sqlite, key_integer(row.key), params);
      const std::string sql = fmt::format("INSERT INTO isosynth_kv (\"key\", ikey, \"value\", list) VALUES ({}, {}, {}, '')",
                                          k, i, sql_value(Dialect::Sqlite, row.initial, params));
      if (const Status s = run(sql, params, nullptr, "reset table"); !s.ok()) fail(url_, "reset table", s.message);
    }
    exec_or_fail("COMMIT", "reset table");
  }

  Status begin(ProductLevel level) override {
    if (level != ProductLevel::Serializable)
      fail(url_, "begin", fmt::format("SQLite offers only serializable, not {}", level_name(level)));
    // Deferred: the snapshot is taken by the first statement.
    return run("BEGIN", {}, nullptr, "begin");
  }

  Status read(const std::string& key, std::optional<std::int64_t>& value) override {
    std::vector<std::vector<std::optional<std::string>>> rows;
    const std::string step = "read " + key;
    Status s = run("SELECT \"value\" FROM isosynth_kv WHERE \"key\" = ?", {key}, &rows, step);
    if (!s.ok()) return s;
    if (rows.empty()) fail(url_, step, "no such row");
    value = rows[0][0] ? std::optional<std::int64_t>(std::stoll(*rows[0][0])) : std::nullopt;
    return s;
  }

  Status write(const std::string& key, std::optional<std::int64_t> value) override {
    std::vector<SqlParam> params;
    std::string sql = "UPDATE isosynth_kv SET \"value\" = " + sql_value(Dialect::Sqlite, value, params);
    sql += " WHERE \"key\" = ?";
    params.emplace_back(key);
    const std::string step = "write " + key;
    return one_row(run(sql, params, nullptr, step), step);
  }

  Status append(const std::string& key, std::int64_t element) override {
    const std::string e = fmt::format("{}", element), step = "append " + key;
    return one_row(run("UPDATE isosynth_kv SET list = CASE WHEN list = '' THEN ? ELSE list || ',' || ? END "
                       "WHERE \"key\" = ?",
                       {e, e, key}, nullptr, step),
                   step);
  }

  Status read_list(const std::string& key, std::vector<std::int64_t>& elements) override {
    std::vector<std::vector<std::optional<std::string>>> rows;
    Status s = run("SELECT list FROM isosynth_kv WHERE \"key\" = ?", {key}, &rows, "read list " + key);
    if (!s.ok()) return s;
    if (rows.empty()) fail(url_, "read list " + key, "no such row");
    elements = parse_list(url_, key, rows[0][0].value_or(""));
    return s;
  }

  Status predicate_read(const Predicate& p, Rows& out) override {
    std::vector<SqlParam> params;
    const std::string sql = "SELECT \"key\", \"value\" FROM isosynth_kv WHERE " + sql_where(p, Dialect::Sqlite, params) +
                            " ORDER BY \"key\"";
    std::vector<std::vector<std::optional<std::string>>> rows;
    Status s = run(sql, params, &rows, "predicate read " + p.text());
    if (!s.ok()) return s;
    out.clear();
    for (auto& r : rows)
      out.emplace_back(r[0].value_or(""), r[1] ? std::optional<std::int64_t>(std::stoll(*r[1])) : std::nullopt);
    return s;
  }

  Status predicate_write(const Predicate& p, std::optional<std::int64_t> value) override {
    std::vector<SqlParam> params;
    std::string sql = "UPDATE isosynth_kv SET \"value\" = " + sql_value(Dialect::Sqlite, value, params);
    sql += " WHERE " + sql_where(p, Dialect::Sqlite, params);
    return run(sql, params, nullptr, "predicate write " + p.text());
  }

  Status commit() override { return run("COMMIT", {}, nullptr, "commit"); }

  Status abort() override {
    exec_quietly("ROLLBACK");  // none open after an abort the database made: not an error
    return {};
  }

 private:
  // Runs one statement to its end, binding `params` to its '?' in order,
  // collecting rows as text (nullopt: NULL) when `rows` is given. A busy or
  // locked database after the busy timeout is Aborted, the transaction
  // rolled back (SQLite keeps it open after a busy statement; the interface
  // says it is over); anything else a DbError naming `step`.
  Status run(const std::string& sql, const std::vector<SqlParam>& params,
             std::vector<std::vector<std::optional<std::string>>>* rows, std::string_view step) {
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
    changes_ = sqlite3_changes(db_.get());
    return {};
  }

  Status error(int rc, std::string_view step) {
    const int code = sqlite3_extended_errcode(db_.get());
    const std::string message = one_line(sqlite3_errmsg(db_.get()));
    exec_quietly("ROLLBACK");
    if (!conflict(rc) && !conflict(code)) fail(url_, step, message);
    return Status{Status::Kind::Aborted, code_name(code), message};
  }

  Status one_row(Status s, const std::string& step) {
    if (s.ok() && changes_ != 1) fail(url_, step, "no such row");
    return s;
  }

  void exec_or_fail(const std::string& sql, std::string_view step) {
    const Status s = run(sql, {}, nullptr, step);
    if (!s.ok()) fail(url_, step, s.message);
  }

  void exec_quietly(const char* sql) { sqlite3_exec(db_.get(), sql, nullptr, nullptr, nullptr); }

  std::unique_ptr<sqlite3, CloseDb> db_;
  std::string url_, product_;
  int changes_ = 0;
};

}  // namespace

std::unique_ptr<Connection> open_sqlite(const std::string& url, const std::string& file, double statement_timeout) {
  return std::make_unique<SqliteConnection>(url, file, statement_timeout);
}

}  // namespace iso::db::detail
