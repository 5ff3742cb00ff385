#include <libpq-fe.h>
#include <mysql.h>
#include <sqlite3.h>

#include <memory>
#include <stdexcept>

#include "tests/db/db_helpers.hpp"

namespace iso::db::test {

void sqlite_exec(const std::string& file, const std::string& sql) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open(file.c_str(), &raw);
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close);
  char* error = nullptr;
  if (rc != SQLITE_OK || sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string what = error ? error : sqlite3_errmsg(raw);
    sqlite3_free(error);
    throw std::runtime_error(what);
  }
}

void postgres_exec(const std::string& conninfo, const std::string& sql) {
  std::unique_ptr<PGconn, void (*)(PGconn*)> conn(PQconnectdb(conninfo.c_str()), PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK) throw std::runtime_error(PQerrorMessage(conn.get()));
  PQsetNoticeProcessor(conn.get(), [](void*, const char*) {}, nullptr);
  std::unique_ptr<PGresult, void (*)(PGresult*)> res(PQexec(conn.get(), sql.c_str()), PQclear);
  const auto status = PQresultStatus(res.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) throw std::runtime_error(PQerrorMessage(conn.get()));
}

void mariadb_exec(const std::string& socket, const std::string& sql) {
  std::unique_ptr<MYSQL, void (*)(MYSQL*)> conn(mysql_init(nullptr), mysql_close);
  if (!mysql_real_connect(conn.get(), nullptr, "root", nullptr, "isosynth", 0, socket.c_str(), 0) ||
      mysql_query(conn.get(), sql.c_str()) != 0)
    throw std::runtime_error(mysql_error(conn.get()));
}

}  // namespace iso::db::test
