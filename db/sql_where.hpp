// A predicate (engine/history/predicate.hpp) as an SQL condition over
// isosynth's table, with the meaning Predicate::holds gives it on the rows'
// values: the database evaluates the predicate itself, so a predicate read
// is one (with whatever locks or conflicts its level takes on a
// predicate), not a read of a list of keys.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/history/predicate.hpp"

namespace iso::db {

enum class Dialect : std::uint8_t { Sqlite, Postgres, MariaDB };

// A bound parameter: text or a 64-bit integer.
using SqlParam = std::variant<std::string, std::int64_t>;

// The condition, to follow WHERE. Strings and integers are parameters
// (SQLite: '?' in order; PostgreSQL: $n typed, numbered after those already
// in `params`); MariaDB gets them as literals (strings as hexadecimal,
// which needs no escaping and keeps every byte), so `params` stays empty.
std::string sql_where(const Predicate& p, Dialect d, std::vector<SqlParam>& params);

// A parameter's placeholder (or MariaDB literal), appending it to `params`.
std::string sql_param(Dialect d, SqlParam value, std::vector<SqlParam>& params);

// A register's value: NULL, or a parameter as sql_param gives it.
std::string sql_value(Dialect d, std::optional<std::int64_t> value, std::vector<SqlParam>& params);

}  // namespace iso::db
