// What the three clients share and connect() needs of them: the one-line
// error, the integer a key is spelled as (the way predicates read it), and
// each client's opening function. Not part of the interface: connection.hpp
// is.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/connection.hpp"

namespace iso::db::detail {

// The database's message on one line: newlines and tabs folded to single
// spaces, trimmed.
std::string one_line(std::string_view message);

// The DbError of a failed step: "URL: STEP: MESSAGE", one line.
[[noreturn]] void fail(const std::string& url, std::string_view step, std::string_view message);

// Seconds as whole milliseconds, at least 1 (a zero timeout would mean
// "none" to every database).
long long timeout_ms(double seconds);

// The list column's text ("1,2,3", "" for none) as its elements; a
// DbError naming the read when it is not such a list.
std::vector<std::int64_t> parse_list(const std::string& url, const std::string& key, const std::string& text);

// `url` is already redacted; it is what url() returns and errors name.
std::unique_ptr<Connection> open_sqlite(const std::string& url, const std::string& file, double statement_timeout);
std::unique_ptr<Connection> open_postgres(const std::string& url, const std::string& conninfo,
                                          double statement_timeout);

// A mysql:// or mariadb:// URL, parsed and percent-decoded.
struct MysqlTarget {
  std::string user, password, host, database, socket;
  unsigned port = 0;  // 0: the default
  bool has_password = false;
};
std::unique_ptr<Connection> open_mariadb(const std::string& url, const MysqlTarget& target,
                                         double statement_timeout);

}  // namespace iso::db::detail
