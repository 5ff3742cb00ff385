// A small, bounded reader of EDN values, and of the JSON subset elle-cli
// writes, into one tree type with positions, so that the Elle reader handles
// both spellings with one code path.
//
// EDN: maps, vectors, lists, sets #{...}, keywords, integers (N suffix;
// beyond 64 bits refused), floats (kept as text; M suffix, ##Inf, ##NaN),
// strings, characters, nil, true/false, symbols, comments ';', commas as
// whitespace, discards #_ and tagged values #tag v (the tag is dropped, so
// #jepsen.history.Op{...} is its map). Ratios (1/2) are refused. JSON
// (Dialect::Json): objects, arrays, strings, numbers, true/false/null; ':'
// separates a key from its value.
//
// Bounds: nesting depth kMaxDepth, strings and other tokens at most
// kMaxTokenBytes; every node is made from at least one input byte, so the
// tree is linear in the input. Errors throw InputError "SOURCE:LINE:COL: ...".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace iso::edn {

inline constexpr std::size_t kMaxDepth = 64;
inline constexpr std::size_t kMaxTokenBytes = std::size_t{1} << 20;

enum class Kind : std::uint8_t {
  Nil, Bool, Integer, Float, String, Keyword, Symbol, Char, Vector, List, Map, Set
};

// "nil", "a vector", ...: for messages.
std::string_view kind_name(Kind k);

struct Node {
  Kind kind = Kind::Nil;
  bool boolean = false;
  std::int64_t integer = 0;
  std::string text;          // String, Keyword (without ':'), Symbol, Char, Float spelling
  std::vector<Node> items;   // Vector, List, Set; Map: key, value, key, value, ...
  std::uint32_t line = 0, col = 0;

  bool is_seq() const { return kind == Kind::Vector || kind == Kind::List; }
  // A name given as a keyword (EDN) or a string (JSON): "type" for :type.
  bool is_name() const { return kind == Kind::Keyword || kind == Kind::String; }
  // The value of map entry `name` (keyword or string key), or nullptr.
  const Node* get(std::string_view name) const;
};

enum class Dialect { Edn, Json };

class Reader {
 public:
  Reader(std::string_view text, const std::string& source, Dialect dialect)
      : text_(text), source_(source), dialect_(dialect) {}

  // Skips blanks and comments (and EDN discards); true when a value or a
  // closing bracket follows.
  bool more();
  // The next character (after more()), '\0' at the end.
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  std::uint32_t line() const { return line_; }
  std::uint32_t col() const { return col_; }
  void skip_char();  // consumes one character, tracking lines
  // Parses the next value.
  Node value();

  [[noreturn]] void fail(std::uint32_t line, std::uint32_t col, std::string_view message) const;
  [[noreturn]] void fail_here(std::string_view message) const { fail(line_, col_, message); }

 private:
  void skip(std::size_t depth);
  Node parse(std::size_t depth);
  void collection(Node& n, char close, std::size_t depth);
  std::string string_literal();
  std::string_view token();  // symbol/number characters up to a delimiter
  void number(Node& n, std::string_view tok);
  bool delimiter(char c) const;

  std::string_view text_;
  const std::string& source_;
  Dialect dialect_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1, col_ = 1;
};

}  // namespace iso::edn
