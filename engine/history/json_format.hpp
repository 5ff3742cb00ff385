// The native JSON history format (FORMATS.md §1): read and write.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/history/history.hpp"
#include "engine/history/input_error.hpp"

namespace iso {

// Inputs larger than this are rejected before parsing.
inline constexpr std::size_t kMaxNativeJsonBytes = std::size_t{1} << 30;  // 1 GiB

// Parses a native JSON history. `source_name` is used in error messages.
// Throws InputError naming the line and column (1-based, columns in bytes) of
// the offending element, and its JSON path when there is one:
//   h.json:7:14: sessions[0][1].ops[2]: unknown operation kind "x" (expected ...)
//   h.json:3:5: syntax error while parsing value - invalid literal; ...
// Errors inside an operation name the operation's path and the position of
// the offending element; a missing field names the position of its object.
// Keys are interned in order of first use in the operations; keys that only
// `init` mentions come after, in byte order of their text. Each operation's
// Op::line is the line of its array. A list read ["r", key, [v1, ...]] is a
// list-append read (History::add_list_read); the empty list reads the key's
// initial version (its init value, or null when T0 does not write the key).
// "initial_state": "explicit-only" makes T0 write only the keys of `init`.
// This is read_native (formats/formats.hpp) with --init auto.
History read_native_json(std::string_view text, const std::string& source_name);

// The byte offset of token n (0-based) of JSON text, where a token is '{',
// '}', '[', ']', a string or a scalar (',' and ':' separate). nlohmann's
// parser reports no positions for values; readers number its events and find
// a position this way, on error paths only, on a prefix the parser accepted.
std::size_t json_token_offset(std::string_view text, std::size_t n);

// Finds tokens of a JSON text (numbered as json_token_offset numbers them)
// in increasing order, each in time linear in the bytes skipped, keeping the
// line it is on: json_token_offset on error paths, and the line of every
// operation of the JSON readers (one pass over the text in all).
class TokenScanner {
 public:
  explicit TokenScanner(std::string_view s) : s_(s) {
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // the parser skips a UTF-8 BOM
  }

  // The offset of token n (0-based; n at least that of the last call), or
  // the text's size when there are fewer tokens.
  std::size_t offset(std::size_t n) {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':') {
        if (c == '\n') ++line_;
        ++pos_;
        continue;
      }
      if (count_ == n) return pos_;
      ++count_;
      if (c == '{' || c == '}' || c == '[' || c == ']') {
        ++pos_;
      } else if (c == '"') {
        ++pos_;
        while (pos_ < s_.size() && s_[pos_] != '"') {
          if (s_[pos_] == '\n') ++line_;  // not valid JSON, but counted right
          pos_ += s_[pos_] == '\\' ? 2 : 1;
        }
        ++pos_;
      } else {
        while (pos_ < s_.size() && !delimiter(s_[pos_])) ++pos_;
      }
    }
    return s_.size();
  }

  // The 1-based line of token n (same order as offset()).
  std::size_t line(std::size_t n) {
    offset(n);
    return line_;
  }

 private:
  static bool delimiter(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':' ||
           c == '[' || c == ']' || c == '{' || c == '}' || c == '"';
  }

  std::string_view s_;
  std::size_t pos_ = 0, count_ = 0, line_ = 1;
};

History read_native_json_file(const std::string& path);

// Serializes a history (format, version, init, sessions, and initial_state
// when T0 writes only some keys) so that read_native_json gives it back with
// the same meaning. Callers may add fields (e.g. "witnesses", "scope") to
// the returned object.
nlohmann::json write_native_json(const History& h);
}  // namespace iso
