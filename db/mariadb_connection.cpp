// The MariaDB client (MariaDB Connector/C; MySQL and servers speaking its
// protocol too). Levels read uncommitted, read committed, repeatable read
// and serializable, InnoDB. The statement timeout is two server settings:
// innodb_lock_wait_timeout (whole seconds) for lock waits, after which
// InnoDB rolls back only the statement, and max_statement_time for the
// rest. Strings go to the server as hexadecimal literals: no escaping, no
// character set, every byte kept; keys are VARBINARY, compared by bytes.
#include <mysql.h>

#include <cmath>
#include <mutex>

#include <fmt/format.h>

#include "db/c_handle.hpp"
#include "db/clients.hpp"
#include "db/sql_connection.hpp"

namespace iso::db::detail {

namespace {


// Error numbers (MariaDB's own, more telling than their SQLSTATEs, which
// lump the lock wait timeout with every other HY000).
constexpr unsigned kDeadlock = 1213;         // InnoDB rolled the transaction back
constexpr unsigned kLockWaitTimeout = 1205;  // InnoDB rolled back the statement only
constexpr unsigned kRecordChanged = 1020;    // innodb_snapshot_isolation: a repeatable read write conflict
constexpr unsigned kStatementTimeout = 1969;  // max_statement_time
constexpr unsigned kMysqlStatementTimeout = 3024;  // MySQL's max_execution_time
constexpr unsigned kServerGone = 2006, kServerLost = 2013;

class MariadbConnection final : public SqlConnection {
 public:
  MariadbConnection(std::string url, const MysqlTarget& t, double timeout)
      : SqlConnection(std::move(url), Dialect::MariaDB, "isosynth_kv") {
    // Not thread-safe the first time: once, before any connection.
    static std::once_flag init;
    std::call_once(init, [] { mysql_library_init(0, nullptr, nullptr); });
    conn_.reset(mysql_init(nullptr));
    if (!conn_) fail(this->url(), "connect", "out of memory");
    const unsigned connect_timeout = 10;
    mysql_optionsv(conn_.get(), MYSQL_OPT_CONNECT_TIMEOUT, &connect_timeout);
    mysql_optionsv(conn_.get(), MYSQL_SET_CHARSET_NAME, "utf8mb4");
    // A socket, or localhost without one (the default socket), or TCP.
    const char* socket = t.socket.empty() ? nullptr : t.socket.c_str();
    const char* host = socket ? "localhost" : t.host.c_str();
    // Found rows, not changed rows: an UPDATE that writes the value a row
    // already has still matched it.
    if (!mysql_real_connect(conn_.get(), host, t.user.c_str(), t.has_password ? t.password.c_str() : nullptr,
                            t.database.c_str(), t.port, socket, CLIENT_FOUND_ROWS))
      fail(this->url(), "connect", mysql_error(conn_.get()));
    // The server's configuration may change what the statements mean
    // (PIPES_AS_CONCAT, NO_BACKSLASH_ESCAPES, ...): a mode of our own.
    must("SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'", "connect");
    must(fmt::format("SET SESSION innodb_lock_wait_timeout = {}", std::max(1.0, std::ceil(timeout))), "connect");
    const auto version = must("SELECT VERSION()", "connect").at(0).at(0).value_or("?");
    if (version.find("MariaDB") != std::string::npos) {
      product_ = "MariaDB " + version.substr(0, version.find('-'));  // "10.11.19-MariaDB-0+deb12u1"
      must(fmt::format("SET SESSION max_statement_time = {}", timeout), "connect");
    } else {
      product_ = "MySQL " + version.substr(0, version.find('-'));
      must(fmt::format("SET SESSION max_execution_time = {}", timeout_ms(timeout)), "connect");
    }
  }

  std::string product() const override { return product_; }
  std::vector<ProductLevel> levels() const override {
    return {ProductLevel::ReadUncommitted, ProductLevel::ReadCommitted, ProductLevel::RepeatableRead,
            ProductLevel::Serializable};
  }

 private:
  std::vector<std::string> create_table_sql() const override {
    return {"CREATE TABLE IF NOT EXISTS isosynth_kv (`key` VARBINARY(1024) NOT NULL PRIMARY KEY, "
            "`ikey` BIGINT NULL, `value` BIGINT NULL, `list` LONGTEXT NOT NULL DEFAULT '') ENGINE=InnoDB"};
  }
  std::string columns_sql() const override {
    return "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND "
           "TABLE_NAME = 'isosynth_kv' ORDER BY ORDINAL_POSITION";
  }
  std::vector<std::string> begin_sql(ProductLevel level) const override {
    // START TRANSACTION without WITH CONSISTENT SNAPSHOT: the first
    // statement takes it.
    return {"SET TRANSACTION ISOLATION LEVEL " + level_name(level), "START TRANSACTION"};
  }
  long long matched() const override { return matched_; }

  Status run(const std::string& sql, const std::vector<SqlParam>&, Table* rows, std::string_view step) override {
    // Strings and integers are literals in `sql` (sql_param's MariaDB
    // dialect): there are no parameters.
    if (mysql_real_query(conn_.get(), sql.data(), sql.size()) != 0) return error(step);
    CHandle<MYSQL_RES, mysql_free_result> res(mysql_store_result(conn_.get()));
    if (!res) {
      if (mysql_field_count(conn_.get()) != 0) return error(step);
      matched_ = static_cast<long long>(mysql_affected_rows(conn_.get()));
      return {};
    }
    const unsigned columns = mysql_num_fields(res.get());
    while (MYSQL_ROW row = mysql_fetch_row(res.get())) {
      const unsigned long* lengths = mysql_fetch_lengths(res.get());
      if (!rows) continue;
      auto& out = rows->emplace_back();
      for (unsigned c = 0; c < columns; ++c) {
        if (row[c])
          out.emplace_back(std::string(row[c], lengths[c]));
        else
          out.emplace_back();
      }
    }
    matched_ = static_cast<long long>(mysql_num_rows(res.get()));
    return {};
  }

  Status error(std::string_view step) {
    const unsigned code = mysql_errno(conn_.get());
    const std::string message =
        fmt::format("{} (SQLSTATE {})", one_line(mysql_error(conn_.get())), mysql_sqlstate(conn_.get()));
    if (code == kServerGone || code == kServerLost) fail(url(), step, "connection lost: " + message);
    // InnoDB rolls back the whole transaction on a deadlock only; after
    // the others the transaction is still open: end it, as the interface
    // says.
    if (code != kDeadlock) mysql_real_query(conn_.get(), "ROLLBACK", 8);
    const std::string number = fmt::format("{}", code);
    if (code == kDeadlock || code == kLockWaitTimeout || code == kRecordChanged)
      return Status{Status::Kind::Aborted, number, message};
    if (code == kStatementTimeout || code == kMysqlStatementTimeout)
      return Status{Status::Kind::Timeout, number, message};
    fail(url(), step, fmt::format("error {}: {}", number, message));
  }

  CHandle<MYSQL, mysql_close> conn_;
  std::string product_;
  long long matched_ = 0;
};

}  // namespace

std::unique_ptr<Connection> open_mariadb(const std::string& url, const MysqlTarget& target,
                                         double statement_timeout) {
  return std::make_unique<MariadbConnection>(url, target, statement_timeout);
}

}  // namespace iso::db::detail
