#include <libpq-fe.h>
#include <mysql.h>
#include <sqlite3.h>

#include <memory>
#include <stdexcept>
#include <vector>

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

namespace {
using Mysql = std::unique_ptr<MYSQL, void (*)(MYSQL*)>;
Mysql mariadb_root(const std::string& socket) {
  Mysql conn(mysql_init(nullptr), mysql_close);
  if (!mysql_real_connect(conn.get(), nullptr, "root", nullptr, "isosynth", 0, socket.c_str(), 0))
    throw std::runtime_error(mysql_error(conn.get()));
  return conn;
}
}  // namespace

void mariadb_exec(const std::string& socket, const std::string& sql) {
  const Mysql conn = mariadb_root(socket);
  if (mysql_query(conn.get(), sql.c_str()) != 0) throw std::runtime_error(mysql_error(conn.get()));
}

void mariadb_kill_others(const std::string& socket) {
  const Mysql conn = mariadb_root(socket);
  if (mysql_query(conn.get(), "SELECT ID FROM information_schema.PROCESSLIST WHERE DB = 'isosynth' AND "
                              "ID <> CONNECTION_ID()") != 0)
    throw std::runtime_error(mysql_error(conn.get()));
  std::unique_ptr<MYSQL_RES, void (*)(MYSQL_RES*)> res(mysql_store_result(conn.get()), mysql_free_result);
  std::vector<std::string> ids;
  while (MYSQL_ROW row = mysql_fetch_row(res.get())) ids.emplace_back(row[0]);
  for (const auto& id : ids)
    if (mysql_query(conn.get(), ("KILL CONNECTION " + id).c_str()) != 0)
      throw std::runtime_error(mysql_error(conn.get()));
}

}  // namespace iso::db::test
