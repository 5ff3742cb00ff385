// Reading histories from streams (formats.hpp, read_history_path): named
// pipes and character devices are opened once and read until their end,
// their format is detected from the bytes read, the run's deadline bounds
// the wait for a writer, and folder formats are refused. Standard input is
// tested end to end in tests/cli/reader_tests.cmake.
#include <doctest/doctest.h>

#include "tests/unit/format_helpers.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/history/formats/formats.hpp"
#include "engine/util/budget.hpp"

using namespace iso;
namespace fs = std::filesystem;

namespace {

// A named pipe in a fresh folder, removed with it.
class Fifo {
 public:
  Fifo() {
    std::string tmpl = (fs::temp_directory_path() / "isosynth-fifo-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    dir_ = tmpl;
    path_ = (dir_ / "history").string();
    REQUIRE(::mkfifo(path_.c_str(), 0600) == 0);
  }
  ~Fifo() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  Fifo(const Fifo&) = delete;
  Fifo& operator=(const Fifo&) = delete;
  const std::string& path() const { return path_; }

 private:
  fs::path dir_;
  std::string path_;
};

// Writes `text` into the pipe in pieces, pausing between them, then closes
// it: the reader must wait for the end, not stop at the first pause.
std::thread writer(const std::string& path, std::string text) {
  return std::thread([path, text = std::move(text)] {
    int fd = ::open(path.c_str(), O_WRONLY);
    if (fd < 0) return;
    for (std::size_t at = 0; at < text.size(); at += 7) {
      std::string piece = text.substr(at, 7);
      if (::write(fd, piece.data(), piece.size()) < 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ::close(fd);
  });
}

std::string error_of(const std::string& path, std::optional<Format> format = std::nullopt) {
  return message_of([&] { read_history_path(path, format, {}); });
}

}  // namespace

TEST_CASE("streams: a named pipe is read to its end and its format detected") {
  Fifo fifo;
  const std::string text =
      "w(1,0,0,0)\nw(2,0,0,0)\nr(1,0,1,1)\nw(2,5,1,1)\nr(2,5,2,2)\nr(1,0,2,2)\n";
  std::thread t = writer(fifo.path(), text);
  ReadResult r = read_history_path(fifo.path(), std::nullopt, {});
  t.join();
  CHECK(r.format == Format::Text);
  CHECK(r.explicit_init);
  CHECK(r.history.num_txns() == 3);
  REQUIRE(r.history.txn(2).ops.size() == 2);
  CHECK(r.history.txn(2).ops[1].line == 6);
}

TEST_CASE("streams: the format can be given, errors name the pipe") {
  Fifo fifo;
  std::thread t = writer(fifo.path(), "{\"sessions\": [[{\"id\": \"A\", \"ops\": [[\"q\"]]}]]}");
  CHECK(error_of(fifo.path(), Format::Native) ==
        fifo.path() + ":1:37: sessions[0][0].ops[0]: unknown operation kind \"q\" (expected "
                      "\"r\", \"w\", \"d\", \"pr\", \"pw\" or \"pd\")");
  t.join();
}

TEST_CASE("streams: the deadline bounds the wait for a writer") {
  Fifo fifo;
  // No writer at all: opening must not block, and waiting must end.
  {
    budget::ScopedDeadline deadline(0.2);
    auto start = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(read_history_path(fifo.path(), std::nullopt, {}), TimeoutError);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  }
  // A writer that opens the pipe and stays silent.
  std::thread silent([&] {
    // Non-blocking, retried until the reader has the pipe open, so that this
    // thread cannot hang should the reader have given up first.
    int fd = -1;
    for (int i = 0; i < 200 && fd < 0; ++i) {
      fd = ::open(fifo.path().c_str(), O_WRONLY | O_NONBLOCK);
      if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    if (fd >= 0) ::close(fd);
  });
  {
    budget::ScopedDeadline deadline(0.2);
    CHECK_THROWS_AS(read_history_path(fifo.path(), std::nullopt, {}), TimeoutError);
  }
  silent.join();
}

TEST_CASE("streams: folder formats and undetectable streams are refused") {
  Fifo fifo;
  // Refused before any byte is waited for.
  CHECK(error_of(fifo.path(), Format::Cobra) ==
        fifo.path() + ": the cobra format is a folder of T<n>.log files; it cannot be read from "
                      "a stream");
  CHECK(error_of("-", Format::Viper) ==
        "<stdin>: the viper format is a folder of J<n>.log files; it cannot be read from "
        "standard input");
  // A character device: /dev/null is empty, so its format cannot be told.
  CHECK(error_of("/dev/null").starts_with("/dev/null: cannot tell the format from the first "
                                          "line; use --format"));
  CHECK(error_of("/dev/null", Format::Awdit) == "no error");
}

TEST_CASE("streams: detection from bytes") {
  CHECK(detect_format_bytes("{:type :ok}", "x") == Format::ElleEdn);
  CHECK(detect_format_bytes("[{\"type\": \"ok\"}]", "x") == Format::ElleJson);
  CHECK(detect_format_bytes("{\"sessions\": []}", "x") == Format::Native);
  CHECK(detect_format_bytes("r 1 2\n", "x") == Format::Awdit);
  CHECK(detect_format_bytes(std::string("\0\0\0", 3), "x") == Format::Dbcop);
  CHECK(detect_format_bytes("anything", "h.bincode") == Format::Dbcop);
  CHECK_THROWS_AS(detect_format_bytes("hello", "x"), InputError);
}
