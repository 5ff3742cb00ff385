// The three clients against real databases: SQLite in a file of each
// test's own, PostgreSQL and MariaDB as the CTest fixture started them
// (scripts/databases). Every check runs on every database that can show it.
#include <algorithm>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <thread>

#include "db/connection.hpp"
#include "engine/history/predicate.hpp"
#include "tests/db/db_helpers.hpp"

namespace iso::db::test {
namespace {

using namespace std::chrono_literals;
using Kind = Status::Kind;

// A row set with integer keys, text keys sorting around them, a NULL
// register and negative values: the cases where a translation of a
// predicate to SQL goes wrong (integers compared as text, NULL compared
// as a value, a truncated remainder).
const std::vector<KeyRow> kRows = {
    {"1", true, 7},      {"2", true, -4},  {"10", true, 10}, {"-3", true, std::nullopt}, {"007", true, 3},
    {"a", false, 1},     {"ab", false, 2}, {"abc", false, std::nullopt}, {"b", false, -7}, {"10a", false, 5},
    {"A", false, 100},   {"a b", false, 0}};

std::unique_ptr<Connection> open(const std::string& url, double timeout = 10) { return connect(url, timeout); }

void require_ok(const Status& s) { REQUIRE_MESSAGE(s.ok(), s.sqlstate, " ", s.message); }

std::optional<std::int64_t> read_value(Connection& c, const std::string& key) {
  std::optional<std::int64_t> v;
  require_ok(c.read(key, v));
  return v;
}

ProductLevel weakest(const Connection& c) { return c.levels().front(); }

// What the predicate selects of `rows` (each key's register as given), by
// Predicate::holds, in byte order of the keys.
Rows expected(const Predicate& p, const std::map<std::string, std::optional<std::int64_t>>& rows) {
  Rows out;
  for (const auto& [key, value] : rows) {
    const Key k{key, false};
    const Value v = value ? Value{*value} : Value{std::monostate{}};
    if (p.holds(k, v)) out.emplace_back(key, value);
  }
  return out;
}

std::map<std::string, std::optional<std::int64_t>> as_map(const std::vector<KeyRow>& rows) {
  std::map<std::string, std::optional<std::int64_t>> m;
  for (const auto& r : rows) m[r.key] = r.initial;
  return m;
}

void check_reset_and_read(const std::string& url) {
  auto c = open(url);
  c->reset_table(kRows);
  require_ok(c->begin(weakest(*c)));
  for (const auto& r : kRows) CHECK_MESSAGE(read_value(*c, r.key) == r.initial, r.key);
  std::vector<std::int64_t> list{99};
  require_ok(c->read_list("a", list));
  CHECK(list.empty());
  require_ok(c->commit());
  // A second reset leaves exactly the new rows.
  c->reset_table({{"x", false, 5}});
  require_ok(c->begin(weakest(*c)));
  Rows all;
  require_ok(c->predicate_read(Predicate{}, all));
  CHECK(all == Rows{{"x", 5}});
  require_ok(c->commit());
  std::optional<std::int64_t> v;
  require_ok(c->begin(weakest(*c)));
  CHECK_THROWS_AS((void)c->read("a", v), DbError);  // gone: a missing row is an error
  (void)c->abort();
}

void check_write_and_append(const std::string& url) {
  auto c = open(url);
  c->reset_table({{"x", false, 0}, {"y", false, std::nullopt}});
  require_ok(c->begin(weakest(*c)));
  require_ok(c->write("x", 41));
  CHECK(read_value(*c, "x") == 41);
  require_ok(c->write("y", 3));
  require_ok(c->write("x", std::nullopt));
  require_ok(c->append("y", 1));
  require_ok(c->append("y", -2));
  require_ok(c->commit());
  auto d = open(url);
  require_ok(d->begin(weakest(*d)));
  CHECK(read_value(*d, "x") == std::nullopt);
  CHECK(read_value(*d, "y") == 3);
  std::vector<std::int64_t> list;
  require_ok(d->read_list("y", list));
  CHECK(list == std::vector<std::int64_t>{1, -2});
  require_ok(d->append("y", 30));
  require_ok(d->read_list("y", list));
  CHECK(list == std::vector<std::int64_t>{1, -2, 30});
  require_ok(d->abort());
  require_ok(d->begin(weakest(*d)));
  require_ok(d->read_list("y", list));
  CHECK(list == std::vector<std::int64_t>{1, -2});  // the aborted append is gone
  CHECK_THROWS_AS((void)d->write("nope", 1), DbError);
  (void)d->abort();
}

void check_predicates(const std::string& url) {
  auto c = open(url);
  c->reset_table(kRows);
  const auto rows = as_map(kRows);
  const char* texts[] = {"true", "[1,10]", "[-3,2]", "[2,b]", "[a,ab]", "[10,a]", "[A,a]", "prefix:a", "prefix:1",
                         "prefix:", "v>0", "v<=2", "v=7", "v!=7", "v=null", "v!=null", "v%3=2", "v%4=0",
                         "v=\"x\"", "v!=\"x\"", "v<\"x\"", "[1,10] && v<=5", "prefix:a && v>=1",
                         "[a,b] && v!=2", "[-5,5] && v%2=1", "[1,2]", "[5,1]", "[b,a]", "[-3,-3]",
                         "[-9223372036854775808,9223372036854775807]", "v%9223372036854775807=7",
                         "v>=-9223372036854775808", "v<-4", "[007,7]", "prefix:10"};
  require_ok(c->begin(weakest(*c)));
  Rows got;
  for (const char* text : texts) {
    const auto p = parse_predicate(text);
    REQUIRE(p);
    require_ok(c->predicate_read(*p, got));
    CHECK_MESSAGE(got == expected(*p, rows), std::string(text));
  }
  // Integer keys compare as integers, the others by bytes: [1,2] holds
  // 10a ("1" <= "10a" <= "2") and not 10.
  require_ok(c->predicate_read(*parse_predicate("[1,2]"), got));
  CHECK(got == Rows{{"1", 7}, {"10a", 5}, {"2", -4}});
  // Predicate::covers over the same rows: a key condition alone selects
  // exactly the keys it covers.
  const auto range = parse_predicate("[2,b]");
  require_ok(c->predicate_read(*range, got));
  std::size_t covered = 0;
  for (const auto& r : kRows) covered += range->covers(Key{r.key, false}) ? 1 : 0;
  CHECK(got.size() == covered);
  // 2, 10 and 007 as integers from 2; A, a, ab, abc, a b and b by bytes up
  // to b; not 1 or -3 (below 2 as integers) nor 10a ("10a" < "2" by bytes).
  CHECK(covered == 9);
  require_ok(c->commit());

  // A predicate write changes exactly the rows the predicate selects.
  require_ok(c->begin(weakest(*c)));
  const auto w = parse_predicate("prefix:a && v>=1");
  require_ok(c->predicate_write(*w, 50));
  require_ok(c->commit());
  auto after = rows;
  for (auto& [key, value] : after)
    if (w->holds(Key{key, false}, value ? Value{*value} : Value{std::monostate{}})) value = 50;
  require_ok(c->begin(weakest(*c)));
  require_ok(c->predicate_read(Predicate{}, got));
  CHECK(got == expected(Predicate{}, after));
  require_ok(c->predicate_write(*parse_predicate("v=null"), 8));
  CHECK(read_value(*c, "abc") == 8);
  CHECK(read_value(*c, "-3") == 8);
  require_ok(c->commit());
}

void check_levels(const std::string& url, const std::vector<ProductLevel>& offered,
                  std::optional<ProductLevel> refused) {
  auto c = open(url);
  CHECK(c->levels() == offered);
  c->reset_table({{"x", false, 0}});
  for (const auto l : offered) {
    require_ok(c->begin(l));
    CHECK(read_value(*c, "x") == 0);
    require_ok(c->commit());
  }
  if (refused) {
    try {
      (void)c->begin(*refused);
      FAIL("begin at an unoffered level");
    } catch (const DbError& e) {
      CHECK(std::string(e.what()).find(level_name(*refused)) != std::string::npos);
    }
  }
}

// A write to a row another transaction wrote and has not committed waits
// for it, and goes on when it commits.
void check_blocking(const std::string& url, ProductLevel level) {
  auto a = open(url), b = open(url);
  a->reset_table({{"x", false, 0}, {"y", false, 0}});
  require_ok(a->begin(level));
  require_ok(a->write("x", 1));
  require_ok(b->begin(level));
  auto blocked = std::async(std::launch::async, [&] { return b->write("x", 2); });
  CHECK(blocked.wait_for(300ms) == std::future_status::timeout);
  require_ok(a->commit());
  REQUIRE(blocked.wait_for(10s) == std::future_status::ready);
  require_ok(blocked.get());
  require_ok(b->commit());
  require_ok(a->begin(level));
  CHECK(read_value(*a, "x") == 2);
  require_ok(a->commit());
}

// A write blocked longer than the statement timeout ends (Timeout, or
// Aborted for a lock wait timeout), the transaction is over, and the next
// begin works.
void check_timeout(const std::string& url, ProductLevel level, std::vector<Kind> kinds) {
  auto a = open(url), b = open(url, 1.0);
  a->reset_table({{"x", false, 0}});
  require_ok(a->begin(level));
  require_ok(a->write("x", 1));
  require_ok(b->begin(level));
  const auto start = std::chrono::steady_clock::now();
  const Status s = b->write("x", 2);
  const auto waited = std::chrono::steady_clock::now() - start;
  CHECK(std::find(kinds.begin(), kinds.end(), s.kind) != kinds.end());
  CHECK_FALSE(s.message.empty());
  CHECK(waited >= 900ms);
  CHECK(waited < 8s);
  require_ok(b->abort());
  require_ok(a->commit());
  require_ok(b->begin(level));
  CHECK(read_value(*b, "x") == 1);
  require_ok(b->write("x", 3));
  require_ok(b->commit());
}

void check_unusual_keys(const std::string& url) {
  const std::vector<std::string> keys = {"it's", "\"q\"", "back\\slash", "semi;colon'); DROP TABLE x; --",
                                         "ünï cødé €😀", "%_*?", "' OR '1'='1", "a\tb", "a"};
  std::vector<KeyRow> rows;
  for (std::size_t i = 0; i < keys.size(); ++i) rows.push_back({keys[i], false, static_cast<std::int64_t>(i)});
  auto c = open(url);
  c->reset_table(rows);
  require_ok(c->begin(weakest(*c)));
  for (std::size_t i = 0; i < keys.size(); ++i) {
    CHECK(read_value(*c, keys[i]) == static_cast<std::int64_t>(i));
    require_ok(c->write(keys[i], static_cast<std::int64_t>(100 + i)));
    require_ok(c->append(keys[i], static_cast<std::int64_t>(i)));
  }
  require_ok(c->commit());
  require_ok(c->begin(weakest(*c)));
  Rows all;
  require_ok(c->predicate_read(Predicate{}, all));
  REQUIRE(all.size() == keys.size());
  auto sorted = keys;
  std::sort(sorted.begin(), sorted.end());  // bytewise: the table's key order
  for (std::size_t i = 0; i < sorted.size(); ++i) CHECK(all[i].first == sorted[i]);
  for (const auto& k : {std::string("semi;colon'"), std::string("ünï"), std::string("%")}) {
    Predicate p;
    p.keys = Predicate::Keys::Prefix;
    p.prefix = k;
    Rows got;
    require_ok(c->predicate_read(p, got));
    REQUIRE_MESSAGE(got.size() == 1, k);
    CHECK(got[0].first.substr(0, k.size()) == k);
  }
  require_ok(c->commit());
}

// reset_table refuses a table of its name with other columns, naming it.
void check_other_columns(const std::string& url, const std::string& table) {
  auto c = open(url);
  try {
    c->reset_table({{"x", false, 0}});
    FAIL("reset a table with other columns");
  } catch (const DbError& e) {
    const std::string what = e.what();
    CHECK(what.find(table) != std::string::npos);
    CHECK(what.find("other columns") != std::string::npos);
    CHECK(what.find('\n') == std::string::npos);
  }
}

// A connection the server ended mid-transaction: the next statement is a
// DbError naming the step, one line.
void check_connection_lost(const std::string& url, const std::function<void()>& end_connections) {
  auto c = open(url);
  c->reset_table({{"x", false, 0}});
  require_ok(c->begin(weakest(*c)));
  CHECK(read_value(*c, "x") == 0);
  end_connections();
  std::optional<std::int64_t> v;
  try {
    (void)c->read("x", v);
    FAIL("read on a connection the server ended");
  } catch (const DbError& e) {
    const std::string what = e.what();
    CHECK(what.find("read x") != std::string::npos);
    CHECK(what.find('\n') == std::string::npos);
  }
}

// One line, naming the redacted URL and the step, never a password.
void check_one_line_error(const std::string& url, const std::string& secret = "") {
  try {
    (void)connect(url, 5);
    FAIL("connected to ", url);
  } catch (const DbError& e) {
    const std::string what = e.what();
    CHECK(what.find('\n') == std::string::npos);
    CHECK(what.find("connect") != std::string::npos);
    CHECK(what.find(redact_url(url)) == 0);
    if (!secret.empty()) CHECK(what.find(secret) == std::string::npos);
  }
}

}  // namespace

// --- URLs, levels, errors without a server ---------------------------------

TEST_CASE("db.url: redaction drops the password") {
  CHECK(redact_url("mysql://u:secret@localhost/db?socket=/s") == "mysql://u@localhost/db?socket=/s");
  CHECK(redact_url("postgresql://u:pw@h:5/db?password=x&host=/d") == "postgresql://u@h:5/db?host=/d");
  CHECK(redact_url("postgresql:///db?host=/d&user=u") == "postgresql:///db?host=/d&user=u");
  CHECK(redact_url("sqlite:/tmp/a:b@c") == "sqlite:/tmp/a:b@c");
}

TEST_CASE("db.url: level names") {
  for (const auto l : {ProductLevel::ReadUncommitted, ProductLevel::ReadCommitted, ProductLevel::RepeatableRead,
                       ProductLevel::Serializable})
    CHECK(parse_level(level_name(l)) == l);
  CHECK(parse_level("repeatable-read") == ProductLevel::RepeatableRead);
  CHECK(parse_level("RC") == ProductLevel::ReadCommitted);
  CHECK_FALSE(parse_level("snapshot"));
}

TEST_CASE("db.url: malformed and unknown URLs are one-line errors") {
  check_one_line_error("oracle://x/y");
  check_one_line_error("mysql://root@localhost");
  check_one_line_error("mysql://@localhost/db");
  check_one_line_error("mysql://root:pw%zz@localhost/db", "pw");
  check_one_line_error("mysql://root%-1@localhost/db");
  CHECK_THROWS_WITH_AS((void)connect("mysql://root%-1@localhost/db", 1), doctest::Contains("malformed URL"), DbError);
  CHECK_THROWS_WITH_AS((void)connect("mysql://root@localhost/db?socket=/a%2", 1), doctest::Contains("malformed URL"),
                       DbError);
  check_one_line_error("mysql://root@localhost:99999/db");
  check_one_line_error("mysql://root@localhost/db?sslmode=on");
  check_one_line_error("sqlite:");
  check_one_line_error("sqlite:/nonexistent-dir/x/y.db");
}

// --- SQLite -----------------------------------------------------------------

TEST_CASE("db.sqlite: reset and read") {
  SqliteFile f("reset");
  check_reset_and_read(f.url());
  CHECK(open(f.url())->product().rfind("SQLite 3.", 0) == 0);
}
TEST_CASE("db.sqlite: write and append") {
  SqliteFile f("write");
  check_write_and_append(f.url());
}
TEST_CASE("db.sqlite: predicates") {
  SqliteFile f("pred");
  check_predicates(f.url());
}
TEST_CASE("db.sqlite: levels") {
  SqliteFile f("levels");
  check_levels(f.url(), {ProductLevel::Serializable}, ProductLevel::ReadCommitted);
}
TEST_CASE("db.sqlite: a write waits for another's write lock") {
  SqliteFile f("block");
  check_blocking(f.url(), ProductLevel::Serializable);
}
TEST_CASE("db.sqlite: a busy timeout aborts") {
  SqliteFile f("timeout");
  check_timeout(f.url(), ProductLevel::Serializable, {Kind::Aborted});
}
TEST_CASE("db.sqlite: a write on a stale snapshot aborts") {
  SqliteFile f("snapshot");
  auto a = open(f.url()), b = open(f.url());
  a->reset_table({{"x", false, 0}});
  require_ok(a->begin(ProductLevel::Serializable));
  CHECK(read_value(*a, "x") == 0);  // a's snapshot
  require_ok(b->begin(ProductLevel::Serializable));
  require_ok(b->write("x", 1));
  require_ok(b->commit());
  const Status s = a->write("x", 2);
  CHECK(s.kind == Kind::Aborted);
  CHECK(s.sqlstate == "SQLITE_BUSY_SNAPSHOT");
  require_ok(a->abort());
  require_ok(a->begin(ProductLevel::Serializable));
  CHECK(read_value(*a, "x") == 1);
  require_ok(a->commit());
}
TEST_CASE("db.sqlite: a table of that name with other columns is refused") {
  SqliteFile f("columns");
  sqlite_exec(f.path(), "CREATE TABLE isosynth_kv (k TEXT, v INTEGER)");
  check_other_columns(f.url(), "isosynth_kv");
}
TEST_CASE("db.sqlite: keys with quotes and unicode round-trip") {
  SqliteFile f("keys");
  check_unusual_keys(f.url());
}

}  // namespace iso::db::test

// --- PostgreSQL ---------------------------------------------------------------

namespace iso::db::test {
namespace {

std::string pg() { return server_url("ISOSYNTH_PG_URL"); }

// The same URL with another parameter value, e.g. another database.
std::string with(std::string url, const std::string& from, const std::string& to) {
  const auto at = url.find(from);
  REQUIRE(at != std::string::npos);
  return url.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("db.postgres: reset and read") {
  check_reset_and_read(pg());
  CHECK(open(pg())->product().rfind("PostgreSQL 15.", 0) == 0);
}
TEST_CASE("db.postgres: write and append") { check_write_and_append(pg()); }
TEST_CASE("db.postgres: predicates") { check_predicates(pg()); }
TEST_CASE("db.postgres: levels") {
  check_levels(pg(), {ProductLevel::ReadCommitted, ProductLevel::RepeatableRead, ProductLevel::Serializable},
               ProductLevel::ReadUncommitted);
}
TEST_CASE("db.postgres: a write waits for another's uncommitted write") {
  check_blocking(pg(), ProductLevel::ReadCommitted);
}
TEST_CASE("db.postgres: the statement timeout ends a lock wait") {
  check_timeout(pg(), ProductLevel::ReadCommitted, {Kind::Timeout});
}
TEST_CASE("db.postgres: repeatable read aborts a concurrent update") {
  auto a = open(pg()), b = open(pg());
  a->reset_table({{"x", false, 0}});
  require_ok(a->begin(ProductLevel::RepeatableRead));
  require_ok(b->begin(ProductLevel::RepeatableRead));
  CHECK(read_value(*a, "x") == 0);
  CHECK(read_value(*b, "x") == 0);  // b's snapshot
  require_ok(a->write("x", 1));
  require_ok(a->commit());
  const Status s = b->write("x", 2);
  CHECK(s.kind == Kind::Aborted);
  CHECK(s.sqlstate == "40001");
  require_ok(b->abort());
  require_ok(b->begin(ProductLevel::RepeatableRead));
  CHECK(read_value(*b, "x") == 1);
  require_ok(b->commit());
}
TEST_CASE("db.postgres: write skew commits at repeatable read and aborts at serializable") {
  for (const auto level : {ProductLevel::RepeatableRead, ProductLevel::Serializable}) {
    CAPTURE(level_name(level));
    auto a = open(pg()), b = open(pg());
    a->reset_table({{"x", false, 0}, {"y", false, 0}});
    require_ok(a->begin(level));
    require_ok(b->begin(level));
    CHECK(read_value(*a, "x") == 0);
    CHECK(read_value(*a, "y") == 0);
    CHECK(read_value(*b, "x") == 0);
    CHECK(read_value(*b, "y") == 0);
    int aborted = 0;
    auto step = [&](Connection& c, auto&& f) {
      if (aborted) return;
      const Status s = f(c);
      if (!s.ok()) {
        CHECK(s.kind == Kind::Aborted);
        CHECK(s.sqlstate == "40001");
        ++aborted;
      }
    };
    step(*a, [](Connection& c) { return c.write("x", 1); });
    step(*b, [](Connection& c) { return c.write("y", 1); });
    step(*a, [](Connection& c) { return c.commit(); });
    step(*b, [](Connection& c) { return c.commit(); });
    CHECK(aborted == (level == ProductLevel::Serializable ? 1 : 0));
    (void)a->abort();
    (void)b->abort();
  }
}
TEST_CASE("db.postgres: a table of that name with other columns is refused") {
  postgres_exec(pg(), "DROP TABLE IF EXISTS isosynth.kv; CREATE SCHEMA IF NOT EXISTS isosynth; "
                      "CREATE TABLE isosynth.kv (k text, v int)");
  check_other_columns(pg(), "isosynth.kv");
  postgres_exec(pg(), "DROP TABLE isosynth.kv");
  auto c = open(pg());
  c->reset_table({{"x", false, 0}});  // made again, as isosynth makes it
}
TEST_CASE("db.postgres: an unreachable server or database is a one-line error") {
  check_one_line_error("postgresql:///isosynth?host=/nonexistent-isosynth&user=postgres");
  check_one_line_error(with(pg(), "///isosynth", "///no_such_database"));
  check_one_line_error("postgresql://postgres:secret@/isosynth?host=/nonexistent-isosynth", "secret");
  check_one_line_error("postgresql://[::1");
}
TEST_CASE("db.postgres: a connection the server ends is a one-line error") {
  check_connection_lost(pg(), [] {
    postgres_exec(pg(), "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'isosynth' "
                        "AND pid <> pg_backend_pid()");
  });
}
TEST_CASE("db.postgres: keys with quotes and unicode round-trip") { check_unusual_keys(pg()); }

}  // namespace iso::db::test

// --- MariaDB ----------------------------------------------------------------

namespace iso::db::test {
namespace {

std::string my() { return server_url("ISOSYNTH_MYSQL_URL"); }
std::string my_socket() {
  const std::string url = my();
  const auto at = url.find("socket=");
  REQUIRE(at != std::string::npos);
  return url.substr(at + 7);
}

}  // namespace

TEST_CASE("db.mariadb: reset and read") {
  check_reset_and_read(my());
  CHECK(open(my())->product().rfind("MariaDB 10.11.", 0) == 0);
}
TEST_CASE("db.mariadb: write and append") { check_write_and_append(my()); }
TEST_CASE("db.mariadb: predicates") { check_predicates(my()); }
TEST_CASE("db.mariadb: levels") {
  check_levels(my(), {ProductLevel::ReadUncommitted, ProductLevel::ReadCommitted, ProductLevel::RepeatableRead,
                      ProductLevel::Serializable},
               std::nullopt);
}
TEST_CASE("db.mariadb: a write waits for another's uncommitted write") {
  check_blocking(my(), ProductLevel::ReadCommitted);
}
TEST_CASE("db.mariadb: the statement timeout ends a lock wait") {
  check_timeout(my(), ProductLevel::ReadCommitted, {Kind::Timeout, Kind::Aborted});
}
TEST_CASE("db.mariadb: a deadlock aborts one transaction") {
  auto a = open(my()), b = open(my());
  a->reset_table({{"x", false, 0}, {"y", false, 0}});
  require_ok(a->begin(ProductLevel::RepeatableRead));
  require_ok(b->begin(ProductLevel::RepeatableRead));
  require_ok(a->write("x", 1));
  require_ok(b->write("y", 2));
  auto blocked = std::async(std::launch::async, [&] { return b->write("x", 2); });
  CHECK(blocked.wait_for(300ms) == std::future_status::timeout);
  const Status sa = a->write("y", 1);  // the cycle: one of the two is the victim
  REQUIRE(blocked.wait_for(10s) == std::future_status::ready);
  const Status sb = blocked.get();
  CHECK(sa.ok() != sb.ok());
  const Status& victim = sa.ok() ? sb : sa;
  CHECK(victim.kind == Kind::Aborted);
  CHECK(victim.sqlstate == "1213");
  CHECK(victim.message.find("40001") != std::string::npos);
  Connection& winner = sa.ok() ? *a : *b;
  require_ok(winner.commit());
  require_ok((sa.ok() ? *b : *a).abort());
}
TEST_CASE("db.mariadb: repeatable read loses an update") {
  // InnoDB's repeatable read writes over a concurrent committed write
  // (innodb_snapshot_isolation is off by default in 10.11).
  auto a = open(my()), b = open(my());
  a->reset_table({{"x", false, 0}});
  require_ok(a->begin(ProductLevel::RepeatableRead));
  require_ok(b->begin(ProductLevel::RepeatableRead));
  CHECK(read_value(*a, "x") == 0);
  CHECK(read_value(*b, "x") == 0);
  require_ok(a->write("x", 1));
  require_ok(a->commit());
  require_ok(b->write("x", 2));
  require_ok(b->commit());
}
TEST_CASE("db.mariadb: a table of that name with other columns is refused") {
  mariadb_exec(my_socket(), "DROP TABLE IF EXISTS isosynth_kv");
  mariadb_exec(my_socket(), "CREATE TABLE isosynth_kv (k TEXT, v INT)");
  check_other_columns(my(), "isosynth_kv");
  mariadb_exec(my_socket(), "DROP TABLE isosynth_kv");
  auto c = open(my());
  c->reset_table({{"x", false, 0}});
}
TEST_CASE("db.mariadb: a wrong password is a one-line error") {
  const std::string right = with(my(), "//root@", "//isosynth:isosynth@");
  CHECK(open(right)->product().rfind("MariaDB", 0) == 0);  // the user exists: only the password is wrong
  check_one_line_error(with(my(), "//root@", "//isosynth:wr0ng-pw@"), "wr0ng-pw");
}
TEST_CASE("db.mariadb: an unreachable server is a one-line error") {
  check_one_line_error("mysql://root@localhost/isosynth?socket=/nonexistent-isosynth/mysql.sock");
  check_one_line_error(with(my(), "/isosynth?", "/no_such_database?"));
}
TEST_CASE("db.mariadb: percent-escapes in the URL") {
  const std::string url = with(my(), "//root@", "//is%6Fsynth:is%6fsynth@");
  CHECK(open(url)->url().find("is%6fsynth@") == std::string::npos);
}
TEST_CASE("db.mariadb: a connection the server ends is a one-line error") {
  check_connection_lost(my(), [] { mariadb_kill_others(my_socket()); });
}
TEST_CASE("db.mariadb: keys with quotes and unicode round-trip") { check_unusual_keys(my()); }

}  // namespace iso::db::test
