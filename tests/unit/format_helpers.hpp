// What the reader tests share: the message a read throws, and the notes a
// read leaves.
#pragma once

#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include "engine/history/formats/formats.hpp"
#include "engine/history/input_error.hpp"

namespace iso {

// The message of the InputError `read()` throws, or "no error".
template <typename F>
std::string message_of(F&& read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// How many of the read's notes contain `part`.
inline std::size_t count_notes(const ReadResult& r, std::string_view part) {
  std::size_t n = 0;
  for (const auto& note : r.notes) n += note.find(part) != std::string::npos ? 1 : 0;
  return n;
}

inline bool has_note(const ReadResult& r, std::string_view part) { return count_notes(r, part) > 0; }

// The one note on the initial state ("initial state: ..."); fails the test
// if there are several.
inline std::string init_note(const ReadResult& r) {
  std::string found;
  for (const auto& n : r.notes)
    if (n.starts_with("initial state: ")) {
      CHECK(found.empty());
      found = n;
    }
  return found;
}

}  // namespace iso
