// What the JSON readers of other checkers' formats share (dbcop's JSON,
// Chronos's): a SAX reader over nlohmann::json's parser (sax_parse) that
// turns its events into values numbered by token, keeps a stack of frames
// (the objects and arrays open, each with its reader's context), and throws
// InputError "SOURCE:LINE:COL: PATH: message" at a token, naming the JSON
// path of the element there ("[0].ops[2].k").
//
// nlohmann's parser reports no positions; a token number becomes a byte
// offset (json_token_offset) on error paths only, and TokenLines gives the
// line of tokens asked for in increasing order in one pass over the text.
// The parser keeps its own stack, not the call stack; the frames are
// bounded (kMaxDepth) so that deep nesting is refused with a message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/history/input_error.hpp"
#include "engine/history/json_format.hpp"

namespace iso::jsonsax {

// Objects and arrays nested deeper than this are refused.
inline constexpr std::size_t kMaxDepth = 64;

// One SAX event: a scalar, or the start of an object or array.
struct JValue {
  enum class Type : std::uint8_t { Object, Array, Null, Bool, Negative, Unsigned, Float, String };
  JValue(Type t, std::size_t token) : type(t), tok(token) {}
  Type type;
  std::size_t tok;    // token number (json_token_offset)
  bool b = false;
  std::int64_t negative = 0;
  std::uint64_t u = 0;
  std::string s;      // a string, or a number's spelling that fits no integer
};

// A value as messages show it: "an object", "null", "-1", "1.5", "the string
// \"abc\"" (long strings cut).
std::string shown(const JValue& v);

// An object or array.
inline bool compound(const JValue& v) {
  return v.type == JValue::Type::Object || v.type == JValue::Type::Array;
}

// "LINE:COL" (1-based, columns in bytes) of a byte offset of `text`.
std::string position(std::string_view text, std::size_t offset);

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
  Reader(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  // Parses the whole text (trailing text is a syntax error).
  void parse() { nlohmann::json::sax_parse(text_.data(), text_.data() + text_.size(), this); }

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
    // nlohmann's message after its "[json.exception...] parse error at ...: "
    // prefix, without the text it quotes ("; last read: ...").
    std::string msg = ex.what();
    if (auto p = msg.find("parse error"); p != std::string::npos)
      if (auto colon = msg.find(": ", p); colon != std::string::npos) msg.erase(0, colon + 2);
    if (auto last = msg.find("; last read"); last != std::string::npos) msg.erase(last);
    fail_offset(at == 0 ? 0 : at - 1, msg);
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

  // "LINE:COL" of a byte offset, or of a token.
  std::string position(std::size_t offset) const { return jsonsax::position(text_, offset); }
  std::string token_position(std::size_t tok) const {
    return position(json_token_offset(text_, tok));
  }

  [[noreturn]] void fail_offset(std::size_t offset, std::string_view msg) const {
    throw InputError(fmt::format("{}:{}: {}", source_, position(offset), msg));
  }

  // At token `tok`, naming the JSON path of the innermost element (and then
  // `more`).
  [[noreturn]] void fail(std::size_t tok, std::string_view msg, std::string_view more = {}) const {
    std::string path;
    for (const Frame<Ctx>& f : frames_) {
      if (f.object && !f.key.empty()) path += (path.empty() ? "" : ".") + f.key;
      if (!f.object && f.count > 0) path += fmt::format("[{}]", f.count - 1);
    }
    path += more;
    fail_offset(json_token_offset(text_, tok),
                path.empty() ? std::string(msg) : fmt::format("{}: {}", path, msg));
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
};

}  // namespace iso::jsonsax
