// The statements the three clients share (sql_connection.hpp), in each
// dialect.
#include "db/sql_connection.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "db/clients.hpp"

namespace iso::db::detail {

namespace {
constexpr const char* kColumns[] = {"key", "ikey", "value", "list"};
}

std::string SqlConnection::col(const char* name) const {
  return dialect_ == Dialect::MariaDB ? fmt::format("`{}`", name) : fmt::format("\"{}\"", name);
}

SqlConnection::Table SqlConnection::must(const std::string& sql, std::string_view step) {
  Table rows;
  const Status s = run(sql, {}, &rows, step);
  if (!s.ok()) fail(url_, step, s.message);
  return rows;
}

std::optional<std::int64_t> SqlConnection::integer(const std::optional<std::string>& text,
                                                   std::string_view step) const {
  if (!text) return std::nullopt;
  const auto v = spelled_integer(*text);
  if (!v) fail(url_, step, fmt::format("not an integer: '{}'", *text));
  return v;
}

void SqlConnection::reset_table(const std::vector<KeyRow>& rows) {
  const std::string step = "create table " + table_;
  for (const auto& sql : create_table_sql()) must(sql, step);
  std::vector<std::string> names;
  for (const auto& r : must(columns_sql(), step)) names.push_back(r.at(0).value_or(""));
  if (names != std::vector<std::string>(std::begin(kColumns), std::end(kColumns)))
    fail(url_, step,
         fmt::format("table {} exists with other columns ({}); isosynth needs key, ikey, value, list", table_,
                     fmt::join(names, ", ")));
  const std::string reset = "reset table " + table_;
  for (const auto& sql : begin_sql(levels().back())) must(sql, reset);
  must("DELETE FROM " + table_, reset);
  for (std::size_t start = 0; start < rows.size(); start += insert_batch()) {
    std::vector<SqlParam> params;
    std::string sql = fmt::format("INSERT INTO {} ({}, {}, {}, {}) VALUES ", table_, col("key"), col("ikey"),
                                  col("value"), col("list"));
    for (std::size_t i = start; i < std::min(rows.size(), start + insert_batch()); ++i) {
      const std::string k = sql_param(dialect_, rows[i].key, params);
      const std::string ik = sql_value(dialect_, spelled_integer(rows[i].key), params);
      const std::string v = sql_value(dialect_, rows[i].initial, params);
      sql += fmt::format("{}({}, {}, {}, '')", i == start ? "" : ", ", k, ik, v);
    }
    const Status s = run(sql, params, nullptr, reset);
    if (!s.ok()) fail(url_, reset, s.message);
  }
  must("COMMIT", reset);
}

Status SqlConnection::begin(ProductLevel level) {
  const auto offered = levels();
  if (std::find(offered.begin(), offered.end(), level) == offered.end()) {
    std::vector<std::string> names;
    for (const auto l : offered) names.push_back(level_name(l));
    fail(url_, "begin", fmt::format("{} is not a level this database offers ({})", level_name(level),
                                    fmt::join(names, ", ")));
  }
  for (const auto& sql : begin_sql(level))
    if (Status s = run(sql, {}, nullptr, "begin"); !s.ok()) return s;
  return {};
}

Status SqlConnection::select_column(const char* column, const std::string& key, std::optional<std::string>& out,
                                    std::string_view step) {
  std::vector<SqlParam> params;
  const std::string sql = fmt::format("SELECT {} FROM {} WHERE {} = {}", col(column), table_, col("key"),
                                      sql_param(dialect_, key, params));
  Table rows;
  Status s = run(sql, params, &rows, step);
  if (!s.ok()) return s;
  if (rows.empty()) fail(url_, step, "no such row");
  out = rows[0].at(0);
  return s;
}

Status SqlConnection::read(const std::string& key, std::optional<std::int64_t>& value) {
  const std::string step = "read " + key;
  std::optional<std::string> text;
  Status s = select_column("value", key, text, step);
  if (s.ok()) value = integer(text, step);
  return s;
}

Status SqlConnection::one_row(Status s, std::string_view step) {
  if (s.ok() && matched() != 1) fail(url_, step, "no such row");
  return s;
}

Status SqlConnection::write(const std::string& key, std::optional<std::int64_t> value) {
  std::vector<SqlParam> params;
  const std::string v = sql_value(dialect_, value, params);
  const std::string sql =
      fmt::format("UPDATE {} SET {} = {} WHERE {} = {}", table_, col("value"), v, col("key"),
                  sql_param(dialect_, key, params));
  const std::string step = "write " + key;
  return one_row(run(sql, params, nullptr, step), step);
}

Status SqlConnection::append(const std::string& key, std::int64_t element) {
  std::vector<SqlParam> params;
  const std::string e = fmt::format("{}", element);
  const std::string first = sql_param(dialect_, e, params);
  const std::string next = sql_param(dialect_, "," + e, params);
  // MariaDB's || is OR: CONCAT there.
  const std::string joined = dialect_ == Dialect::MariaDB ? fmt::format("CONCAT({}, {})", col("list"), next)
                                                          : fmt::format("{} || {}", col("list"), next);
  const std::string sql = fmt::format("UPDATE {0} SET {1} = CASE WHEN {1} = '' THEN {2} ELSE {3} END WHERE {4} = {5}",
                                      table_, col("list"), first, joined, col("key"), sql_param(dialect_, key, params));
  const std::string step = "append " + key;
  return one_row(run(sql, params, nullptr, step), step);
}

Status SqlConnection::read_list(const std::string& key, std::vector<std::int64_t>& elements) {
  std::optional<std::string> text;
  Status s = select_column("list", key, text, "read list " + key);
  if (s.ok()) elements = parse_list(url_, key, text.value_or(""));
  return s;
}

Status SqlConnection::predicate_read(const Predicate& p, Rows& out) {
  const std::string step = "predicate read " + p.text();
  std::vector<SqlParam> params;
  const std::string where = sql_where(p, dialect_, params);
  const std::string sql = fmt::format("SELECT {0}, {1} FROM {2} WHERE {3} ORDER BY {0}", col("key"), col("value"),
                                      table_, where);
  Table rows;
  Status s = run(sql, params, &rows, step);
  if (!s.ok()) return s;
  out.clear();
  for (const auto& r : rows) out.emplace_back(r.at(0).value_or(""), integer(r.at(1), step));
  return s;
}

Status SqlConnection::predicate_write(const Predicate& p, std::optional<std::int64_t> value) {
  std::vector<SqlParam> params;
  const std::string v = sql_value(dialect_, value, params);
  const std::string sql =
      fmt::format("UPDATE {} SET {} = {} WHERE {}", table_, col("value"), v, sql_where(p, dialect_, params));
  return run(sql, params, nullptr, "predicate write " + p.text());
}

Status SqlConnection::commit() { return run("COMMIT", {}, nullptr, "commit"); }

Status SqlConnection::abort() {
  // After an abort the database made there is nothing to roll back: the
  // servers say so with a warning at most.
  if (in_transaction()) (void)run("ROLLBACK", {}, nullptr, "rollback");
  return {};
}

}  // namespace iso::db::detail
