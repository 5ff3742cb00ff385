// What the client tests share: the database under test by its URL, and the
// checks every client must pass, written once.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <string>
#include <thread>

#include <unistd.h>

#include "db/connection.hpp"

namespace iso::db::test {

// The URL of a server the CTest fixture started, from the environment. A
// missing variable fails the test: CI runs against the real servers, never
// skips them.
inline std::string server_url(const char* variable) {
  const char* v = std::getenv(variable);
  REQUIRE_MESSAGE(v != nullptr, std::string(variable), " is not set: run the test under CTest (the databases fixture)");
  return v;
}

// A fresh SQLite file of this test's own, removed with its WAL files at the
// end of the scope.
class SqliteFile {
 public:
  explicit SqliteFile(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("isosynth-db-test-" + name + "-" + std::to_string(::getpid()) + ".sqlite")) {
    remove();
  }
  ~SqliteFile() { remove(); }
  SqliteFile(const SqliteFile&) = delete;
  SqliteFile& operator=(const SqliteFile&) = delete;
  std::string url() const { return "sqlite:" + path_.string(); }
  std::string path() const { return path_.string(); }

 private:
  void remove() const {
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path_.string() + suffix, ec);
  }
  std::filesystem::path path_;
};

// Statements run with each database's own client library, past isosynth's
// interface: to set up what the interface never does (a foreign table of
// isosynth's name). Each throws std::runtime_error on failure.
void sqlite_exec(const std::string& file, const std::string& sql);
void postgres_exec(const std::string& conninfo, const std::string& sql);
void mariadb_exec(const std::string& socket, const std::string& sql);
// Ends every other connection to the database isosynth: a server gone
// mid-run, as its clients see it.
void mariadb_kill_others(const std::string& socket);

}  // namespace iso::db::test
