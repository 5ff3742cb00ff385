// Shared pieces of the line-oriented text readers (text r/w, AWDIT,
// IsoPredict): splitting into numbered lines, a cursor over one line that
// reports errors as "SOURCE:LINE:COL: message", bounded integer parsing, and
// the decision whether a file's first transaction is the initial state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/history/formats/formats.hpp"

namespace iso::textin {

// [[noreturn]] helper: throws InputError "SOURCE:LINE:COL: message".
[[noreturn]] void fail(const std::string& source, std::size_t line, std::size_t col,
                       std::string_view message);

// Splits a text into lines ("\n" or "\r\n"); the last line may lack "\n".
// Lines are numbered from 1.
class Lines {
 public:
  explicit Lines(std::string_view text) : rest_(text) {}
  // The next line without its terminator; false at the end of the text.
  bool next(std::string_view& line);
  std::size_t number() const { return number_; }  // of the line last returned

 private:
  std::string_view rest_;
  std::size_t number_ = 0;
  bool done_ = false;
};

// A cursor over one line. Columns are 1-based byte offsets.
class Cursor {
 public:
  Cursor(const std::string& source, std::string_view line, std::size_t number)
      : source_(source), line_(line), number_(number) {}

  std::size_t col() const { return pos_ + 1; }
  bool at_end() const { return pos_ >= line_.size(); }
  char peek() const { return at_end() ? '\0' : line_[pos_]; }
  void skip_spaces();  // blanks and tabs
  // Consumes `word` when the line continues with it.
  bool eat(std::string_view word);
  // Consumes `word` or fails with "expected `what`".
  void expect(std::string_view word, std::string_view what);
  // A decimal integer in [0, max]; fails naming `what` ("the key") when the
  // text at the cursor is not one or is out of range.
  std::uint64_t unsigned_int(std::string_view what, std::uint64_t max);
  // The rest of the line must be blank; `after` names what came last.
  void expect_end(std::string_view after);
  [[noreturn]] void fail(std::string_view message) const { fail_at(col(), message); }
  [[noreturn]] void fail_at(std::size_t col, std::string_view message) const {
    textin::fail(source_, number_, col, message);
  }
  std::string_view rest() const { return line_.substr(pos_); }
  void advance(std::size_t n) { pos_ += n; }

 private:
  const std::string& source_;
  std::string_view line_;
  std::size_t number_;
  std::size_t pos_ = 0;
};

// True when the line holds only blanks.
bool blank(std::string_view line);

// parse(line, number) for every non-blank line, in order.
template <class Parse>
auto parse_lines(std::string_view text, Parse parse) {
  std::vector<decltype(parse(std::string_view{}, std::size_t{}))> out;
  Lines lines(text);
  std::string_view line;
  while (lines.next(line))
    if (!blank(line)) out.push_back(parse(line, lines.number()));
  return out;
}

// --- explicit initial state (FORMATS.md, common conventions) ---------------

// One operation of the transaction that may be the initial state.
struct InitOp {
  bool write = false;
  std::uint64_t key = 0;
  std::int64_t value = 0;
  std::size_t line = 0, column = 0;
};

// Whether the candidate transaction `name` (the file's first) is taken as
// the initial state T0, and why, for the initial-state note.
struct InitDecision {
  bool take = false;
  std::string why;
};

// Explicit: taken as T0 unless it reads (then InputError at the read: an
// initial state cannot read). Auto: taken exactly when it only writes, to
// pairwise distinct keys, each the value 0 (the IsoVista convention).
// Implicit and None: never.
InitDecision decide_explicit_init(const std::vector<InitOp>& ops, std::string_view name,
                                  InitMode mode, const std::string& source);

}  // namespace iso::textin
