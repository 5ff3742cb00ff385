// The PostgreSQL client (libpq). Levels read committed, repeatable read
// (snapshot isolation) and serializable (SSI); PostgreSQL runs read
// uncommitted as read committed, so it is not offered. The statement
// timeout is the server's statement_timeout, which counts lock waits. The
// table is kv in a schema of its own, isosynth, with the "C" collation so
// keys compare by bytes.
#include <libpq-fe.h>

#include <fmt/format.h>

#include "db/c_handle.hpp"
#include "db/clients.hpp"
#include "db/sql_connection.hpp"

namespace iso::db::detail {

namespace {

using Result = CHandle<PGresult, PQclear>;

class PostgresConnection final : public SqlConnection {
 public:
  PostgresConnection(std::string url, const std::string& uri, double timeout)
      : SqlConnection(std::move(url), Dialect::Postgres, "isosynth.kv") {
    // connect_timeout first: the URI's own, expanded from dbname after it,
    // takes precedence.
    const char* keys[] = {"connect_timeout", "dbname", nullptr};
    const char* values[] = {"10", uri.c_str(), nullptr};
    conn_.reset(PQconnectdbParams(keys, values, 1));
    if (!conn_) fail(this->url(), "connect", "out of memory");
    if (PQstatus(conn_.get()) != CONNECTION_OK) fail(this->url(), "connect", PQerrorMessage(conn_.get()));
    // CREATE ... IF NOT EXISTS and ROLLBACK outside a transaction speak
    // in notices and warnings; nobody reads them.
    PQsetNoticeProcessor(conn_.get(), [](void*, const char*) {}, nullptr);
    must(fmt::format("SET statement_timeout = {}", timeout_ms(timeout)), "connect");
    const auto version = must("SHOW server_version", "connect");
    const std::string v = version.at(0).at(0).value_or("?");
    product_ = "PostgreSQL " + v.substr(0, v.find(' '));  // "15.18 (Debian 15.18-0+deb12u1)"
  }

  std::string product() const override { return product_; }
  std::vector<ProductLevel> levels() const override {
    return {ProductLevel::ReadCommitted, ProductLevel::RepeatableRead, ProductLevel::Serializable};
  }

 private:
  std::vector<std::string> create_table_sql() const override {
    return {"CREATE SCHEMA IF NOT EXISTS isosynth",
            "CREATE TABLE IF NOT EXISTS isosynth.kv (\"key\" text COLLATE \"C\" PRIMARY KEY, ikey bigint, "
            "\"value\" bigint, list text NOT NULL DEFAULT '')"};
  }
  std::string columns_sql() const override {
    return "SELECT column_name FROM information_schema.columns WHERE table_schema = 'isosynth' AND "
           "table_name = 'kv' ORDER BY ordinal_position";
  }
  std::vector<std::string> begin_sql(ProductLevel level) const override {
    return {"BEGIN ISOLATION LEVEL " + level_name(level)};
  }
  long long matched() const override { return matched_; }
  // PostgreSQL allows 65,535 parameters in a statement; an INSERT row takes 3.
  std::size_t insert_batch() const override { return 10000; }

  Status run(const std::string& sql, const std::vector<SqlParam>& params, Table* rows,
             std::string_view step) override {
    std::vector<std::string> texts;
    texts.reserve(params.size());
    for (const auto& p : params) {
      if (const auto* s = std::get_if<std::string>(&p)) {
        if (s->find('\0') != std::string::npos) fail(url(), step, "PostgreSQL text cannot hold a NUL byte");
        texts.push_back(*s);
      } else {
        texts.push_back(fmt::format("{}", std::get<std::int64_t>(p)));
      }
    }
    std::vector<const char*> values;
    for (const auto& t : texts) values.push_back(t.c_str());
    Result res(PQexecParams(conn_.get(), sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                            nullptr, nullptr, 0));
    const auto status = PQresultStatus(res.get());
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
      const char* tuples = PQcmdTuples(res.get());
      matched_ = *tuples ? std::stoll(tuples) : 0;
      if (rows) {
        for (int r = 0; r < PQntuples(res.get()); ++r) {
          auto& row = rows->emplace_back();
          for (int c = 0; c < PQnfields(res.get()); ++c) {
            if (PQgetisnull(res.get(), r, c))
              row.emplace_back();
            else
              row.emplace_back(std::string(PQgetvalue(res.get(), r, c),
                                           static_cast<std::size_t>(PQgetlength(res.get(), r, c))));
          }
        }
      }
      return {};
    }
    return error(res.get(), step);
  }

  // 40001 serialization failure, 40P01 deadlock, 55P03 lock not
  // available: the transaction lost a conflict (Aborted). 57014 query
  // canceled: the statement timeout (Timeout). Either way the transaction
  // is rolled back here; PostgreSQL leaves it open but refusing
  // statements.
  Status error(const PGresult* res, std::string_view step) {
    const char* state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
    const char* primary = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
    const std::string message = one_line(primary ? primary : PQerrorMessage(conn_.get()));
    if (PQstatus(conn_.get()) != CONNECTION_OK) fail(url(), step, "connection lost: " + message);
    const std::string sqlstate = state ? state : "";
    Result(PQexec(conn_.get(), "ROLLBACK"));
    if (sqlstate == "40001" || sqlstate == "40P01" || sqlstate == "55P03")
      return Status{Status::Kind::Aborted, sqlstate, message};
    if (sqlstate == "57014") return Status{Status::Kind::Timeout, sqlstate, message};
    fail(url(), step, sqlstate.empty() ? message : fmt::format("{} (SQLSTATE {})", message, sqlstate));
  }

  CHandle<PGconn, PQfinish> conn_;
  std::string product_;
  long long matched_ = 0;
};

}  // namespace

std::unique_ptr<Connection> open_postgres(const std::string& url, const std::string& uri, double statement_timeout) {
  return std::make_unique<PostgresConnection>(url, uri, statement_timeout);
}

}  // namespace iso::db::detail
