// A fast JSON scanner that feeds the streaming readers (json_reader.hpp) the
// events nlohmann's SAX parser would, on the inputs it accepts.
//
// Contract. scan(text, sax) delivers to `sax` (any class with nlohmann's SAX
// member functions: null, boolean, number_integer, number_unsigned,
// number_float, string, key, start_object, end_object, start_array,
// end_array) the events of a prefix of the text, and returns how many:
//  - when the whole text is one JSON value (RFC 8259, a UTF-8 byte order mark
//    skipped, whitespace around it), every event nlohmann::json::sax_parse
//    delivers, in order, with the same arguments (a float's value aside:
//    number_float gets its spelling, the number is not computed), and
//    `complete` is set;
//  - otherwise, at the first byte it does not accept, it stops with
//    `complete` unset; every event delivered before then is one nlohmann
//    delivers too, in the same place. The caller then lets nlohmann's parser
//    read the text again, skipping that many events (skip_events below):
//    nlohmann says what the syntax error is and where, in its own words.
// It never accepts what nlohmann refuses (strings are checked as nlohmann
// checks them: UTF-8 well-formed, no control characters, escapes and
// surrogate pairs; numbers by the JSON grammar, integers beyond 64 bits
// handed over as floats, as nlohmann does), and it may refuse, to leave to
// nlohmann, what nlohmann accepts: a float whose value overflows (nlohmann
// refuses it, with its message), an empty text. fuzz/fuzz_json_scan.cpp
// compares the two on random input.
//
// Nesting is not bounded here (the stack is on the heap); the readers bound
// it (Reader::push).
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace iso::jsonin {

namespace scan_detail {

// Bytes a string may hold as they are: not '"', '\\', a control character
// or a byte of a multi-byte UTF-8 sequence.
struct PlainBytes {
  bool plain[256] = {};
  constexpr PlainBytes() {
    for (int c = 0x20; c < 0x80; ++c) plain[c] = c != '"' && c != '\\';
  }
};
inline constexpr PlainBytes kPlain{};

inline bool space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
inline bool digit(char c) { return c >= '0' && c <= '9'; }

inline int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

inline void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The scanner proper: a loop over a stack of open objects and arrays.
template <class Sax>
class Scanner {
 public:
  Scanner(std::string_view text, Sax& sax)
      : p_(text.data()), end_(text.data() + text.size()), sax_(sax) {}

  bool run() {
    if (end_ - p_ >= 3 && p_[0] == '\xEF' && p_[1] == '\xBB' && p_[2] == '\xBF') p_ += 3;
    bool need_value = true;
    for (;;) {
      if (need_value) {
        skip_space();
        if (p_ == end_) return false;
        if (*p_ == '{') {
          ++p_;
          event(sax_.start_object(static_cast<std::size_t>(-1)));
          skip_space();
          if (p_ != end_ && *p_ == '}') {
            ++p_;
            event(sax_.end_object());
          } else {
            stack_.push_back(true);
            if (!key()) return false;
            continue;
          }
        } else if (*p_ == '[') {
          ++p_;
          event(sax_.start_array(static_cast<std::size_t>(-1)));
          skip_space();
          if (p_ != end_ && *p_ == ']') {
            ++p_;
            event(sax_.end_array());
          } else {
            stack_.push_back(false);
            continue;
          }
        } else if (!scalar()) {
          return false;
        }
        need_value = false;
      }
      skip_space();
      if (stack_.empty()) return p_ == end_;
      if (p_ == end_) return false;
      const char c = *p_++;
      if (c == ',') {
        if (stack_.back() && !key()) return false;
        need_value = true;
      } else if (stack_.back() ? c == '}' : c == ']') {
        event(stack_.back() ? sax_.end_object() : sax_.end_array());
        stack_.pop_back();
      } else {
        return false;
      }
    }
  }

  std::size_t events() const { return events_; }

 private:
  void event(bool) { ++events_; }

  void skip_space() {
    while (p_ != end_ && space(*p_)) ++p_;
  }

  // A member's key and its ':'.
  bool key() {
    skip_space();
    if (p_ == end_ || *p_ != '"' || !string()) return false;
    event(sax_.key(buf_));
    skip_space();
    if (p_ == end_ || *p_ != ':') return false;
    ++p_;
    return true;
  }

  bool scalar() {
    switch (*p_) {
      case '"':
        if (!string()) return false;
        event(sax_.string(buf_));
        return true;
      case 't': return literal("true") && (event(sax_.boolean(true)), true);
      case 'f': return literal("false") && (event(sax_.boolean(false)), true);
      case 'n': return literal("null") && (event(sax_.null()), true);
      default: return number();
    }
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() ||
        std::string_view(p_, word.size()) != word)
      return false;
    p_ += word.size();
    return true;
  }

  // A string at p_ (its '"'), decoded into buf_.
  bool string() {
    ++p_;
    const char* start = p_;
    while (p_ != end_ && kPlain.plain[static_cast<unsigned char>(*p_)]) ++p_;
    buf_.assign(start, p_);
    for (;;) {
      if (p_ == end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c == '\\') {
        if (!escape()) return false;
      } else if (c >= 0x80) {
        if (!utf8()) return false;
      } else if (kPlain.plain[c]) {
        buf_ += static_cast<char>(c);
        ++p_;
      } else {
        return false;  // a control character
      }
    }
  }

  // A multi-byte UTF-8 sequence, well formed as nlohmann requires.
  bool utf8() {
    const auto b = [&](std::ptrdiff_t i) { return static_cast<unsigned char>(p_[i]); };
    const auto in = [](unsigned char x, unsigned lo, unsigned hi) { return x >= lo && x <= hi; };
    const unsigned char c = b(0);
    std::ptrdiff_t n = 0;
    unsigned lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (in(c, 0xC2, 0xDF)) {
      n = 2;
    } else if (in(c, 0xE0, 0xEF)) {
      n = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (in(c, 0xF0, 0xF4)) {
      n = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (end_ - p_ < n || !in(b(1), lo, hi)) return false;
    for (std::ptrdiff_t i = 2; i < n; ++i)
      if (!in(b(i), 0x80, 0xBF)) return false;
    buf_.append(p_, static_cast<std::size_t>(n));
    p_ += n;
    return true;
  }

  // "\uXXXX" at p_: its four hex digits, or -1.
  long code_unit() {
    if (end_ - p_ < 6 || p_[0] != '\\' || p_[1] != 'u') return -1;
    long v = 0;
    for (int i = 2; i < 6; ++i) {
      const int h = hex(p_[i]);
      if (h < 0) return -1;
      v = v * 16 + h;
    }
    p_ += 6;
    return v;
  }

  bool escape() {
    if (end_ - p_ < 2) return false;
    char out = 0;
    switch (p_[1]) {
      case '"': out = '"'; break;
      case '\\': out = '\\'; break;
      case '/': out = '/'; break;
      case 'b': out = '\b'; break;
      case 'f': out = '\f'; break;
      case 'n': out = '\n'; break;
      case 'r': out = '\r'; break;
      case 't': out = '\t'; break;
      case 'u': {
        const long u = code_unit();
        if (u < 0 || (u >= 0xDC00 && u <= 0xDFFF)) return false;
        if (u >= 0xD800 && u <= 0xDBFF) {
          const long low = code_unit();
          if (low < 0xDC00 || low > 0xDFFF) return false;
          append_utf8(buf_, static_cast<std::uint32_t>(0x10000 + ((u - 0xD800) << 10) +
                                                       (low - 0xDC00)));
        } else {
          append_utf8(buf_, static_cast<std::uint32_t>(u));
        }
        return true;
      }
      default: return false;
    }
    buf_ += out;
    p_ += 2;
    return true;
  }

  // A number by the JSON grammar: integers in 64 bits as nlohmann hands them
  // over, anything else (fractions, exponents, integers beyond 64 bits) as
  // its spelling when it is finite.
  bool number() {
    const char* start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_ || !digit(*p_)) return false;
    std::uint64_t u = 0;
    bool overflow = false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && digit(*p_)) {
        const auto d = static_cast<std::uint64_t>(*p_ - '0');
        overflow = overflow || __builtin_mul_overflow(u, 10u, &u) || __builtin_add_overflow(u, d, &u);
        ++p_;
      }
    }
    bool integer = true;
    if (p_ != end_ && *p_ == '.') {
      integer = false;
      ++p_;
      if (p_ == end_ || !digit(*p_)) return false;
      while (p_ != end_ && digit(*p_)) ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      integer = false;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !digit(*p_)) return false;
      while (p_ != end_ && digit(*p_)) ++p_;
    }
    constexpr std::uint64_t kMinMagnitude = std::uint64_t{1} << 63;
    if (integer && !overflow) {
      if (!negative) {
        event(sax_.number_unsigned(u));
        return true;
      }
      if (u <= kMinMagnitude) {
        event(sax_.number_integer(u == kMinMagnitude ? INT64_MIN : -static_cast<std::int64_t>(u)));
        return true;
      }
    }
    // Left to nlohmann when the value is not finite (it refuses it), and
    // when it is below the smallest double (strtod's ERANGE): rare enough.
    buf_.assign(start, p_);
    errno = 0;
    const double d = std::strtod(buf_.c_str(), nullptr);
    if (errno != 0 || !(d - d == 0)) return false;
    event(sax_.number_float(d, buf_));
    return true;
  }

  const char* p_;
  const char* end_;
  Sax& sax_;
  std::vector<bool> stack_;  // the open objects (true) and arrays (false)
  std::string buf_;
  std::size_t events_ = 0;
};

}  // namespace scan_detail

// The events of the longest prefix the fast scanner reads (see above).
struct ScanResult {
  std::size_t events = 0;
  bool complete = false;
};

template <class Sax>
ScanResult scan(std::string_view text, Sax& sax) {
  scan_detail::Scanner<Sax> s(text, sax);
  const bool complete = s.run();
  return {s.events(), complete};
}

// A SAX handler for nlohmann's parser that drops the first `skip` events and
// hands the rest, and any syntax error, to `to`: nlohmann's parser picking
// up where the fast scanner stopped.
template <class To>
class SkipEvents final : public nlohmann::json_sax<nlohmann::json> {
 public:
  SkipEvents(To& to, std::size_t skip) : to_(to), skip_(skip) {}

  bool null() override { return pass() ? to_.null() : true; }
  bool boolean(bool v) override { return pass() ? to_.boolean(v) : true; }
  bool number_integer(number_integer_t v) override {
    return pass() ? to_.number_integer(v) : true;
  }
  bool number_unsigned(number_unsigned_t v) override {
    return pass() ? to_.number_unsigned(v) : true;
  }
  bool number_float(number_float_t v, const string_t& s) override {
    return pass() ? to_.number_float(v, s) : true;
  }
  bool string(string_t& v) override { return pass() ? to_.string(v) : true; }
  bool binary(binary_t& v) override { return pass() ? to_.binary(v) : true; }
  bool start_object(std::size_t n) override { return pass() ? to_.start_object(n) : true; }
  bool end_object() override { return pass() ? to_.end_object() : true; }
  bool start_array(std::size_t n) override { return pass() ? to_.start_array(n) : true; }
  bool end_array() override { return pass() ? to_.end_array() : true; }
  bool key(string_t& k) override { return pass() ? to_.key(k) : true; }
  bool parse_error(std::size_t at, const std::string& token,
                   const nlohmann::detail::exception& ex) override {
    return to_.parse_error(at, token, ex);
  }

 private:
  bool pass() {
    if (skip_ == 0) return true;
    --skip_;
    return false;
  }

  To& to_;
  std::size_t skip_;
};

// Reads `text` into `sax`: the fast scanner, then nlohmann's parser for what
// it left (a syntax error, or what it leaves to nlohmann). The events are
// exactly nlohmann::json::sax_parse's.
template <class Sax>
void sax_read(std::string_view text, Sax& sax) {
  const ScanResult r = scan(text, sax);
  if (r.complete) return;
  SkipEvents<Sax> rest(sax, r.events);
  nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &rest);
}

}  // namespace iso::jsonin
