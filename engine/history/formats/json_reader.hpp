// The JSON reading base every JSON history reader stands on (the native
// format, dbcop's JSON, Chronos's, Viper's logs): positions, paths, typed
// checks and nlohmann's syntax errors, in one place.
//
// Inputs: JSON text already in memory and the name of its source. Output of
// every failure: InputError "SOURCE:LINE:COL: PATH: message", LINE and COL
// 1-based (columns in bytes), PATH the JSON path of the offending element
// ("sessions[0][1].ops[2]", "[0].ops[2].k"; absent at top level).
//
// nlohmann's parser reports no positions for values. A reader numbers its
// values by token (TokenScanner numbers them the same way) and turns a token
// number into a byte offset, then "LINE:COL", on error paths only, over a
// prefix the parser has already accepted; the lines of the tokens it keeps
// (each operation's) come from one TokenScanner pass over the text.
//
// Two ways of reading, one set of positions:
//  - Reader<Ctx>, over the fast scanner of json_scan.hpp, which delivers
//    nlohmann's SAX events and leaves syntax errors to nlohmann's parser
//    (sax_parse), so that messages are nlohmann's: events become
//    JValues numbered by token; a stack of frames (the objects and arrays
//    open, each with its reader's context Ctx) gives the path. Streaming:
//    the native format, dbcop's JSON and Chronos's, whose files are large.
//    Nesting is bounded (kMaxDepth) so that deep input is refused with a
//    message;
//  - the DOM helpers (token_count, element_token, member_token), for a small
//    value parsed whole into nlohmann::ordered_json (Viper's one line per
//    transaction): the token of an element is counted in the DOM.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/history/formats/json_scan.hpp"
#include "engine/history/history.hpp"  // quote_string
#include "engine/history/input_error.hpp"

namespace iso::jsonin {

// Objects and arrays nested deeper than this are refused.
inline constexpr std::size_t kMaxDepth = 64;

// --- positions ----------------------------------------------------------------

// Finds tokens of a JSON text in increasing order, each in time linear in the
// bytes skipped, keeping the line it is on. A token is '{', '}', '[', ']', a
// string (a key too) or a scalar; ',' and ':' separate. The parser's events
// stand for exactly these tokens, in text order, so the count is right on any
// prefix the parser accepted.
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
        if (c == '\n') new_line();
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
          if (s_[pos_] == '\n') new_line();  // not valid JSON, but counted right
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
  // The 1-based column (in bytes) of token n, after line(n) or offset(n).
  std::size_t column(std::size_t n) { return offset(n) - line_start_ + 1; }

 private:
  void new_line() {
    ++line_;
    line_start_ = pos_ + 1;
  }

  static bool delimiter(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':' ||
           c == '[' || c == ']' || c == '{' || c == '}' || c == '"';
  }

  std::string_view s_;
  std::size_t pos_ = 0, count_ = 0, line_ = 1;
  std::size_t line_start_ = 0;  // offset of the first byte of line_
};

// The byte offset of token n (0-based) of `text` (TokenScanner's numbering).
std::size_t token_offset(std::string_view text, std::size_t n);

// "LINE:COL" (1-based, columns in bytes) of a byte offset of `text`.
std::string position(std::string_view text, std::size_t offset);

// The offset of the first '[' or '{' (outside strings) nested deeper than
// `max_depth`, if any: for refusing deep input before a recursive parse.
std::optional<std::size_t> nesting_beyond(std::string_view text, std::size_t max_depth);

// --- nlohmann's syntax errors ------------------------------------------------

// What each reader keeps of the text nlohmann quotes ("; last read: '...'").
enum class LastRead {
  Drop,     // nothing (dbcop's JSON, Chronos's)
  Shorten,  // its last 40 bytes (the native format)
  Keep,     // all of it, the whole message capped at 160 bytes (Viper's lines)
};

// nlohmann's message without its "[json.exception...] parse error at line
// L, column C: " prefix (the reader gives the position in its own form).
std::string parser_message(std::string what, LastRead last_read);

// --- values -------------------------------------------------------------------

// One SAX event: a scalar, or the start of an object or array.
struct JValue {
  enum class Type : std::uint8_t { Object, Array, Null, Bool, Negative, Unsigned, Float, String };
  JValue(Type t, std::size_t token) : type(t), tok(token) {}
  Type type;
  std::size_t tok;    // token number (TokenScanner's)
  bool b = false;
  std::int64_t negative = 0;
  std::uint64_t u = 0;
  std::string s;      // a string, or a number's spelling that fits no integer
};

// A value as the readers of other checkers' formats show it: "an object",
// "null", "-1", "1.5", "the string \"abc\"" (long strings cut).
std::string shown(const JValue& v);

// An object or array.
inline bool compound(const JValue& v) {
  return v.type == JValue::Type::Object || v.type == JValue::Type::Array;
}

// The value as a signed 64-bit integer, when it is an integer in that range.
inline std::optional<std::int64_t> int64_of(const JValue& v) {
  if (v.type == JValue::Type::Negative) return v.negative;
  if (v.type == JValue::Type::Unsigned && v.u <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(v.u);
  return std::nullopt;
}

// A number too large for 64 bits (nlohmann hands it over as a float): its
// spelling has digits only.
inline bool integer_beyond_64_bits(const JValue& v) {
  return v.type == JValue::Type::Float && v.s.find_first_of(".eE") == std::string::npos;
}

// --- the streaming reader -------------------------------------------------------

// An object or array being read.
template <class Ctx>
struct Frame {
  Frame(Ctx c, bool obj, std::size_t token) : ctx(c), object(obj), start(token) {}
  Ctx ctx;
  bool object;
  std::size_t start;      // token of '{' or '['
  std::size_t count = 0;  // arrays: elements so far
  std::string key;        // objects: the current key
  unsigned seen = 0;      // objects: the known fields seen, as the reader's bits
};

// The reader of one format derives from Reader<its contexts> and overrides
// on(), on_key() and on_end(); parse() runs it over the text.
template <class Ctx>
class Reader : public nlohmann::json_sax<nlohmann::json> {
 public:
  Reader(std::string_view text, const std::string& source, LastRead last_read = LastRead::Drop)
      : text_(text), source_(source), last_read_(last_read) {}

  // Parses the whole text (trailing text is a syntax error): the fast
  // scanner (json_scan.hpp), nlohmann's parser for what it leaves.
  void parse() { sax_read(text_, *this); }

  bool null() final { return value(JValue(JValue::Type::Null, tok_++)); }
  bool boolean(bool v) final {
    JValue j{JValue::Type::Bool, tok_++};
    j.b = v;
    return value(std::move(j));
  }
  bool number_integer(number_integer_t v) final {
    if (v >= 0) return number_unsigned(static_cast<number_unsigned_t>(v));
    JValue j{JValue::Type::Negative, tok_++};
    j.negative = v;
    return value(std::move(j));
  }
  bool number_unsigned(number_unsigned_t v) final {
    JValue j{JValue::Type::Unsigned, tok_++};
    j.u = v;
    return value(std::move(j));
  }
  bool number_float(number_float_t, const string_t& raw) final {
    JValue j{JValue::Type::Float, tok_++};
    j.s = raw;
    return value(std::move(j));
  }
  bool string(string_t& v) final {
    JValue j{JValue::Type::String, tok_++};
    j.s = std::move(v);
    return value(std::move(j));
  }
  bool binary(binary_t&) final {
    fail(tok_, "unexpected binary value");
    return false;  // not reached (GCC does not see fail's [[noreturn]] in a template)
  }
  bool start_object(std::size_t) final { return value(JValue(JValue::Type::Object, tok_++)); }
  bool start_array(std::size_t) final { return value(JValue(JValue::Type::Array, tok_++)); }
  bool end_object() final { return end(); }
  bool end_array() final { return end(); }
  bool key(string_t& k) final {
    const std::size_t tok = tok_++;
    frames_.back().key = std::move(k);
    on_key(tok);
    return true;
  }
  bool parse_error(std::size_t at, const std::string&,
                   const nlohmann::detail::exception& ex) final {
    // `at` counts the bytes read, the offending one included.
    fail_offset(at == 0 ? 0 : at - 1, parser_message(ex.what(), last_read_));
    return false;  // not reached
  }

 protected:
  // A scalar, or the start of an object or array (which the reader push()es
  // to read its contents, or not, to refuse it). frames_.back(), when there
  // is one, holds it: its key, or its count, which already counts it.
  virtual void on(JValue v) = 0;
  // The key of a member of frames_.back() (now its `key`), at token `tok`.
  virtual void on_key(std::size_t tok) = 0;
  // The end of the object or array `f`, already off frames_.
  virtual void on_end(Frame<Ctx>& f) = 0;
  // A value as this reader's messages show it.
  virtual std::string describe(const JValue& v) const { return shown(v); }

  // "LINE:COL" of a byte offset, or of a token.
  std::string position(std::size_t offset) const { return jsonin::position(text_, offset); }
  std::string token_position(std::size_t tok) const {
    return position(token_offset(text_, tok));
  }

  // The JSON path of the element in the current slot of the first `depth`
  // frames: path(frames_.size()) names the current element,
  // path(frames_.size() - 1) its object or array.
  std::string path(std::size_t depth) const {
    std::string p;
    for (std::size_t i = 0; i < depth && i < frames_.size(); ++i) {
      const Frame<Ctx>& f = frames_[i];
      if (f.object) {
        if (!p.empty()) p += '.';
        p += f.key;
      } else if (f.count > 0) {
        p += fmt::format("[{}]", f.count - 1);
      }
    }
    return p;
  }

  [[noreturn]] void fail_offset(std::size_t offset, std::string_view msg) const {
    throw InputError(fmt::format("{}:{}: {}", source_, position(offset), msg));
  }

  // At token `tok`, naming `where` (a path; none when empty).
  [[noreturn]] void fail_at(std::size_t tok, std::string_view where, std::string_view msg) const {
    fail_offset(token_offset(text_, tok),
                where.empty() ? std::string(msg) : fmt::format("{}: {}", where, msg));
  }

  // At token `tok`, naming the JSON path of the current element (and then
  // `more`).
  [[noreturn]] void fail(std::size_t tok, std::string_view msg, std::string_view more = {}) const {
    fail_at(tok, path(frames_.size()) + std::string(more), msg);
  }

  // Fails at `v` unless it has type `t`: "MUST_BE, got <v described>".
  void expect(const JValue& v, JValue::Type t, std::string_view must_be) const {
    if (v.type != t) fail(v.tok, fmt::format("{}, got {}", must_be, describe(v)));
  }

  // Marks a known field of frames_.back() (its current key) seen, failing at
  // its key's token `tok` when it was already.
  void once(unsigned bit, std::size_t tok) {
    Frame<Ctx>& f = frames_.back();
    if (f.seen & bit) fail(tok, fmt::format("duplicate field {}", quote_string(f.key)));
    f.seen |= bit;
  }

  // At the end of `f` (off frames_ already): fails at its start unless its
  // known field `bit` was seen, "missing field FIELD".
  void require(const Frame<Ctx>& f, unsigned bit, std::string_view field) const {
    if (!(f.seen & bit)) fail(f.start, fmt::format("missing field {}", field));
  }

  void push(Ctx ctx, const JValue& v) {
    if (frames_.size() >= kMaxDepth)
      fail(v.tok, fmt::format("nesting deeper than {} levels", kMaxDepth));
    frames_.emplace_back(ctx, v.type == JValue::Type::Object, v.tok);
  }

  std::string_view text_;
  const std::string& source_;
  std::size_t tok_ = 0;  // the next token's number
  std::vector<Frame<Ctx>> frames_;

 private:
  bool value(JValue v) {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().count;
    on(std::move(v));
    return true;
  }
  bool end() {
    ++tok_;
    Frame<Ctx> f = std::move(frames_.back());
    frames_.pop_back();
    on_end(f);
    return true;
  }

  LastRead last_read_;
};

// --- a value parsed whole ------------------------------------------------------
// Token numbers inside a DOM whose objects keep their members in text order
// (nlohmann::ordered_json); the value's depth is bounded by the caller
// (nesting_beyond) since these recurse.

// The number of tokens of a value.
template <class Json>
std::size_t token_count(const Json& j) {
  std::size_t n = 1;
  if (j.is_array()) {
    ++n;
    for (const auto& e : j) n += token_count(e);
  } else if (j.is_object()) {
    ++n;
    for (const auto& [k, v] : j.items()) n += 1 + token_count(v);
  }
  return n;
}

// The token of element i of the array whose '[' is token `at`.
template <class Json>
std::size_t element_token(const Json& arr, std::size_t at, std::size_t i) {
  std::size_t t = at + 1;
  for (std::size_t k = 0; k < i && k < arr.size(); ++k) t += token_count(arr[k]);
  return t;
}

// The token of the value of member `key` of the object whose '{' is token
// `at` (`at` itself when there is none).
template <class Json>
std::size_t member_token(const Json& obj, std::size_t at, const std::string& key) {
  std::size_t t = at + 1;
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    ++t;  // the key
    if (it.key() == key) return t;
    t += token_count(it.value());
  }
  return at;
}

}  // namespace iso::jsonin
