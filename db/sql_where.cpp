// Predicates as SQL conditions (sql_where.hpp), with the meaning
// Predicate::holds gives them.
#include "db/sql_where.hpp"

#include <fmt/format.h>

#include "db/clients.hpp"

namespace iso::db {

std::string sql_param(Dialect d, SqlParam value, std::vector<SqlParam>& params) {
  if (d == Dialect::MariaDB) {
    if (const auto* i = std::get_if<std::int64_t>(&value)) return fmt::format("{}", *i);
    const auto& s = std::get<std::string>(value);
    if (s.empty()) return "''";
    std::string hex = "X'";
    for (const unsigned char c : s) hex += fmt::format("{:02x}", c);
    return hex + "'";
  }
  const bool text = std::holds_alternative<std::string>(value);
  params.push_back(std::move(value));
  if (d == Dialect::Sqlite) return "?";
  return fmt::format("${}::{}", params.size(), text ? "text" : "bigint");
}

std::string sql_value(Dialect d, std::optional<std::int64_t> value, std::vector<SqlParam>& params) {
  return value ? sql_param(d, *value, params) : "NULL";
}

namespace {

std::string col(Dialect d, const char* name) {
  return d == Dialect::MariaDB ? fmt::format("`{}`", name) : fmt::format("\"{}\"", name);
}

// key >= bound (op ">=") or key <= bound (op "<="), as key_le in
// predicate.cpp: as integers when the bound and the key both are, else
// by bytes.
std::string bound(Dialect d, const std::string& b, const char* op, std::vector<SqlParam>& params) {
  const std::string key = col(d, "key"), ikey = col(d, "ikey");
  if (const auto i = spelled_integer(b)) {
    const std::string ip = sql_param(d, *i, params);
    const std::string sp = sql_param(d, b, params);
    return fmt::format("(({1} IS NOT NULL AND {1} {2} {3}) OR ({1} IS NULL AND {0} {2} {4}))", key, ikey, op, ip,
                       sp);
  }
  return fmt::format("{} {} {}", key, op, sql_param(d, b, params));
}

std::string prefix(Dialect d, const std::string& p, std::vector<SqlParam>& params) {
  if (p.empty()) return "TRUE";
  const std::string key = col(d, "key");
  switch (d) {
    case Dialect::Postgres: return fmt::format("starts_with({}, {})", key, sql_param(d, p, params));
    case Dialect::MariaDB: return fmt::format("LEFT({}, {}) = {}", key, p.size(), sql_param(d, p, params));
    case Dialect::Sqlite:
      // Bytes, not characters: SQLite's substr() and length() count
      // characters of text (and stop at a NUL), bytes of a blob.
      return fmt::format("substr(CAST({} AS BLOB), 1, {}) = CAST({} AS BLOB)", key, p.size(),
                         sql_param(d, p, params));
  }
  return "FALSE";
}

std::string value_condition(const Predicate& p, Dialect d, std::vector<SqlParam>& params) {
  using Cmp = Predicate::Cmp;
  const std::string v = col(d, "value");
  const auto* i = std::get_if<std::int64_t>(&p.constant);
  const bool null = std::holds_alternative<std::monostate>(p.constant);
  switch (p.cmp) {
    case Cmp::None: return "TRUE";
    case Cmp::Eq:
      if (null) return v + " IS NULL";
      // A value of another type than the constant is never equal to it.
      return i ? fmt::format("{} = {}", v, sql_param(d, *i, params)) : "FALSE";
    case Cmp::Ne:
      // holds(): a NULL register differs from every integer.
      if (null) return v + " IS NOT NULL";
      return i ? fmt::format("({0} IS NULL OR {0} <> {1})", v, sql_param(d, *i, params)) : "TRUE";
    case Cmp::Lt:
    case Cmp::Le:
    case Cmp::Gt:
    case Cmp::Ge: {
      // Order comparisons hold only between integers; SQL's NULL
      // comparison is unknown, so a NULL register fails them as holds() says.
      if (!i) return "FALSE";
      const char* op = p.cmp == Cmp::Lt ? "<" : p.cmp == Cmp::Le ? "<=" : p.cmp == Cmp::Gt ? ">" : ">=";
      return fmt::format("{} {} {}", v, op, sql_param(d, *i, params));
    }
    case Cmp::Mod: {
      if (!i || p.modulus <= 0) return "FALSE";
      // Floored remainder; SQL's % truncates. The CASE never overflows,
      // where ((v % m) + m) % m would for m above half the range.
      const std::string m = sql_param(d, p.modulus, params);
      const std::string m2 = sql_param(d, p.modulus, params);
      const std::string m3 = sql_param(d, p.modulus, params);
      const std::string m4 = sql_param(d, p.modulus, params);
      return fmt::format("(CASE WHEN {0} % {1} < 0 THEN {0} % {2} + {3} ELSE {0} % {4} END) = {5}", v, m, m2, m3,
                         m4, sql_param(d, *i, params));
    }
  }
  return "FALSE";
}

}  // namespace

std::string sql_where(const Predicate& p, Dialect d, std::vector<SqlParam>& params) {
  std::string keys = "TRUE";
  if (p.keys == Predicate::Keys::Range) {
    // One after the other: SQLite's '?' are bound in the order they appear.
    const std::string lo = bound(d, p.lo, ">=", params);
    keys = lo + " AND " + bound(d, p.hi, "<=", params);
  } else if (p.keys == Predicate::Keys::Prefix) {
    keys = prefix(d, p.prefix, params);
  }
  return fmt::format("({}) AND ({})", keys, value_condition(p, d, params));
}

}  // namespace iso::db
