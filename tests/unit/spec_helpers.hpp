// Loading spec text in the unit tests: the error it gives, checked to be one
// line and to start at the expected file:line.
#pragma once

#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <string>

#include "lua/spec_library.hpp"

namespace iso::test {

// What `f` writes to the file descriptor `fd` (1: stdout, 2: stderr).
template <class F>
std::string captured(int fd, F f) {
  std::FILE* tmp = std::tmpfile();
  REQUIRE(tmp);
  std::fflush(nullptr);
  const int saved = dup(fd);
  dup2(fileno(tmp), fd);
  f();
  std::fflush(nullptr);
  dup2(saved, fd);
  close(saved);
  std::rewind(tmp);
  std::string out;
  for (int c; (c = std::fgetc(tmp)) != EOF;) out += static_cast<char>(c);
  std::fclose(tmp);
  return out;
}

// Loads `text` as `name` into `lib` and returns the error message, or ""
// when it loaded.
inline std::string load_into(lua::SpecLibrary& lib, const std::string& text,
                             const std::string& name = "user.lua") {
  try {
    lib.load_string(text, name);
  } catch (const lua::SpecError& e) {
    std::string msg = e.what();
    CHECK(msg.find('\n') == std::string::npos);  // one line
    return msg;
  }
  return "";
}

// Loads `text` as "user.lua" into a fresh library: the error, or "".
inline std::string load_error(const std::string& text, lua::Limits limits = {}) {
  lua::SpecLibrary lib(limits);
  return load_into(lib, text);
}

// Checks that `text` fails to load with a message starting with `at`
// ("user.lua:3:") and containing `what`.
inline void check_error(const std::string& text, const std::string& at, const std::string& what,
                        lua::Limits limits = {}) {
  const std::string m = load_error(text, limits);
  INFO(m);
  CHECK(m.rfind(at, 0) == 0);
  CHECK(m.find(what) != std::string::npos);
}

// Limits small enough that a runaway spec stops at once.
inline lua::Limits small_limits() {
  lua::Limits limits;
  limits.instructions = 5'000'000;
  return limits;
}

}  // namespace iso::test
