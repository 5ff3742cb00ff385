// What the reader tests share: the message a read throws, the notes a read
// leaves, and counts over the history read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include "engine/history/formats/formats.hpp"
#include "engine/history/input_error.hpp"

namespace iso {

inline std::size_t count_ops(const History& h, OpKind kind) {
  std::size_t n = 0;
  for (const Transaction& t : h.txns())
    for (const Op& op : t.ops) n += op.kind == kind;
  return n;
}

inline std::size_t count_status(const History& h, TxnStatus s) {
  std::size_t n = 0;
  for (TxnId t = 1; t < h.num_txns(); ++t) n += h.txn(t).status == s;
  return n;
}

inline std::int64_t int_of(const History& h, ValueId v) { return std::get<std::int64_t>(h.values()[v]); }

// How many keys the initial transaction writes.
inline std::size_t t0_keys(const History& h) {
  std::size_t n = 0;
  for (KeyId k = 0; k < h.keys().size(); ++k) n += h.t0_writes(k) ? 1 : 0;
  return n;
}

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
