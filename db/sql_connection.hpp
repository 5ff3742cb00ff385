// What the three clients have in common: the statements. Each database
// runs the same SQL on isosynth's table (a key, its integer, its register,
// its list), in its own dialect; a client says how it runs one statement,
// how it begins a transaction at a level, and how it creates and describes
// its table.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/connection.hpp"
#include "db/sql_where.hpp"

namespace iso::db::detail {

class SqlConnection : public Connection {
 public:
  std::string url() const override { return url_; }
  void reset_table(const std::vector<KeyRow>& rows) override;
  Status begin(ProductLevel level) override;
  Status read(const std::string& key, std::optional<std::int64_t>& value) override;
  Status write(const std::string& key, std::optional<std::int64_t> value) override;
  Status append(const std::string& key, std::int64_t element) override;
  Status read_list(const std::string& key, std::vector<std::int64_t>& elements) override;
  Status predicate_read(const Predicate& p, Rows& rows) override;
  Status predicate_write(const Predicate& p, std::optional<std::int64_t> value) override;
  Status commit() override;
  Status abort() override;

 protected:
  // A result's rows, each column as text (nullopt: NULL).
  using Table = std::vector<std::vector<std::optional<std::string>>>;

  SqlConnection(std::string url, Dialect dialect, std::string table)
      : url_(std::move(url)), dialect_(dialect), table_(std::move(table)) {}

  // Runs one statement with its parameters (sql_param's placeholders),
  // collecting its rows when `rows` is given. A conflict (serialization
  // failure, deadlock, lock wait timeout) is Aborted and a statement
  // timeout Timeout, the transaction rolled back in both cases; any other
  // failure a DbError naming `step`.
  virtual Status run(const std::string& sql, const std::vector<SqlParam>& params, Table* rows,
                     std::string_view step) = 0;
  // The rows the last statement matched (an UPDATE's, found or changed).
  virtual long long matched() const = 0;
  // CREATE TABLE IF NOT EXISTS (and whatever it needs first), one
  // statement each.
  virtual std::vector<std::string> create_table_sql() const = 0;
  // A query of the table's column names, in their order.
  virtual std::string columns_sql() const = 0;
  // The statements that start a transaction at `level`.
  virtual std::vector<std::string> begin_sql(ProductLevel level) const = 0;
  // Whether a transaction is open (false: ROLLBACK would be an error, as
  // in SQLite after it ended one).
  virtual bool in_transaction() const { return true; }
  // How many rows one INSERT carries at most.
  virtual std::size_t insert_batch() const { return 500; }

  // Runs a statement that must succeed (setup: no conflict is expected).
  Table must(const std::string& sql, std::string_view step);
  // A column name, quoted.
  std::string col(const char* name) const;
  const std::string& table() const { return table_; }

 private:
  Status one_row(Status s, std::string_view step);
  // SELECT one column of the key's row (a DbError when there is none).
  Status select_column(const char* column, const std::string& key, std::optional<std::string>& out,
                       std::string_view step);
  std::optional<std::int64_t> integer(const std::optional<std::string>& text, std::string_view step) const;

  std::string url_;
  Dialect dialect_;
  std::string table_;
};

}  // namespace iso::db::detail
