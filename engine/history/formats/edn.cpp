// The EDN reader and its JSON subset (edn.hpp): a bounded recursive-descent
// parser over bytes in memory, reporting errors as "SOURCE:LINE:COL: message".
#include "engine/history/formats/edn.hpp"

#include <limits>

#include <fmt/format.h>

#include "engine/util/utf8.hpp"
#include "engine/history/input_error.hpp"

namespace iso::edn {
namespace {

constexpr std::uint32_t kMaxPos = std::numeric_limits<std::uint32_t>::max();

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == ',';
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// How a character appears in a message: 'x', or its byte value.
std::string show(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02x}", static_cast<unsigned>(u));
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

std::string out_of_range(std::string_view tok) {
  return fmt::format("integer {} is out of range: integers beyond 64 bits are not supported",
                     tok);
}

}  // namespace

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::Nil: return "nil";
    case Kind::Bool: return "a boolean";
    case Kind::Integer: return "an integer";
    case Kind::Float: return "a floating-point number";
    case Kind::String: return "a string";
    case Kind::Keyword: return "a keyword";
    case Kind::Symbol: return "a symbol";
    case Kind::Char: return "a character";
    case Kind::Vector: return "a vector";
    case Kind::List: return "a list";
    case Kind::Map: return "a map";
    case Kind::Set: return "a set";
  }
  return "a value";
}

const Node* Node::get(std::string_view name) const {
  if (kind != Kind::Map) return nullptr;
  for (std::size_t i = 0; i + 1 < items.size(); i += 2)
    if (items[i].is_name() && items[i].text == name) return &items[i + 1];
  return nullptr;
}

void Reader::fail(std::uint32_t line, std::uint32_t col, std::string_view message) const {
  throw InputError(fmt::format("{}:{}:{}: {}", source_, line, col, message));
}

void Reader::skip_char() {
  if (pos_ >= text_.size()) return;
  if (text_[pos_] == '\n') {
    if (line_ < kMaxPos) ++line_;
    col_ = 1;
  } else if (col_ < kMaxPos) {
    ++col_;
  }
  ++pos_;
}

bool Reader::delimiter(char c) const {
  switch (c) {
    case '(': case ')': case '[': case ']': case '{': case '}': case '"': case ';':
      return true;
    case ':':
      return dialect_ == Dialect::Json;  // EDN symbols and keywords may hold ':'
    default:
      return is_space(c);
  }
}

void Reader::skip(std::size_t depth) {
  // A UTF-8 byte order mark at the very start.
  if (pos_ == 0 && text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (is_space(c)) {
      skip_char();
    } else if (c == ';' && dialect_ == Dialect::Edn) {
      while (pos_ < text_.size() && text_[pos_] != '\n') skip_char();
    } else if (c == '#' && dialect_ == Dialect::Edn && pos_ + 1 < text_.size() &&
               text_[pos_ + 1] == '_') {
      // #_ discards the next value.
      skip_char();
      skip_char();
      (void)parse(depth + 1);
    } else {
      break;
    }
  }
}

bool Reader::more() {
  skip(0);
  return pos_ < text_.size();
}

Node Reader::value() { return parse(0); }

std::string_view Reader::token() {
  std::size_t start = pos_;
  std::uint32_t line = line_, col = col_;
  while (pos_ < text_.size() && !delimiter(text_[pos_])) {
    if (pos_ - start >= kMaxTokenBytes)
      fail_here(fmt::format("token longer than {} bytes", kMaxTokenBytes));
    skip_char();
  }
  std::string_view tok = text_.substr(start, pos_ - start);
  // Names become keys and values, which must be UTF-8 like all JSON text.
  if (!utf8::valid(tok)) fail(line, col, "expected UTF-8 text, found bytes that are not");
  return tok;
}

void Reader::number(Node& n, std::string_view tok) {
  std::string_view digits = tok;
  bool negative = false;
  if (digits.front() == '+' || digits.front() == '-') {
    negative = digits.front() == '-';
    digits.remove_prefix(1);
  }
  if (dialect_ == Dialect::Edn && digits.ends_with('N')) digits.remove_suffix(1);
  if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos) {
    // Accumulate negatively so that INT64_MIN fits.
    std::int64_t v = 0;
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    for (char c : digits) {
      int d = c - '0';
      if (v < (kMin + d) / 10) fail(n.line, n.col, out_of_range(tok));
      v = v * 10 - d;
    }
    if (!negative) {
      if (v == kMin) fail(n.line, n.col, out_of_range(tok));
      v = -v;
    }
    n.kind = Kind::Integer;
    n.integer = v;
    return;
  }
  if (dialect_ == Dialect::Edn && tok.find('/') != std::string_view::npos)
    fail(n.line, n.col, fmt::format("ratio {}: ratios are not supported", tok));
  // A floating-point number: digits with '.', an exponent, or EDN's M suffix.
  std::string_view body = tok;
  const bool big_decimal = dialect_ == Dialect::Edn && body.ends_with('M');  // 2M, 2.5M
  if (big_decimal) body.remove_suffix(1);
  if (body.empty() || body.find_first_not_of("0123456789.eE+-") != std::string_view::npos ||
      (!big_decimal && body.find_first_of(".eE") == std::string_view::npos))
    fail(n.line, n.col, fmt::format("malformed number '{}'", tok));
  n.kind = Kind::Float;
  n.text = std::string(tok);
}

std::string Reader::string_literal() {
  std::uint32_t line = line_, col = col_;
  skip_char();  // the opening quote
  std::string out;
  auto hex4 = [&]() -> std::uint32_t {
    std::uint32_t cp = 0;
    for (int i = 0; i < 4; ++i) {
      char c = peek();
      std::uint32_t d = 0;
      if (c >= '0' && c <= '9') d = static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') d = static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') d = static_cast<std::uint32_t>(c - 'A' + 10);
      else fail_here("expected four hexadecimal digits after '\\u'");
      cp = cp * 16 + d;
      skip_char();
    }
    return cp;
  };
  while (true) {
    if (pos_ >= text_.size())
      fail_here(fmt::format("unexpected end of input in the string that starts at line {}, "
                            "column {} (expected '\"')",
                            line, col));
    if (out.size() >= kMaxTokenBytes)
      fail(line, col, fmt::format("string longer than {} bytes", kMaxTokenBytes));
    char c = text_[pos_];
    if (c == '"') {
      skip_char();
      if (auto bad = utf8::first_invalid(out))
        fail(line, col, fmt::format("the string is not UTF-8 text (byte {} of its text)",
                                    *bad + 1));
      return out;
    }
    if (c != '\\') {
      out.push_back(c);
      skip_char();
      continue;
    }
    skip_char();
    char e = peek();
    skip_char();
    switch (e) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case 'r': out.push_back('\r'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case '"': out.push_back('"'); break;
      case '\\': out.push_back('\\'); break;
      case '/': out.push_back('/'); break;
      case 'u': {
        std::uint32_t cp = hex4();
        if (cp >= 0xd800 && cp < 0xdc00 && text_.substr(pos_).starts_with("\\u")) {
          // A surrogate pair (JSON's spelling of code points above U+FFFF).
          skip_char();
          skip_char();
          std::uint32_t low = hex4();
          cp = (low >= 0xdc00 && low < 0xe000) ? 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00)
                                                : 0xfffd;
        } else if (cp >= 0xd800 && cp < 0xe000) {
          cp = 0xfffd;
        }
        append_utf8(out, cp);
        break;
      }
      default:
        fail(line_, col_ > 1 ? col_ - 1 : col_,
             fmt::format("unknown escape '\\{}' in a string", e == '\0' ? '0' : e));
    }
  }
}

void Reader::collection(Node& n, char close, std::size_t depth) {
  char open = text_[pos_];
  skip_char();
  bool json_map = dialect_ == Dialect::Json && n.kind == Kind::Map;
  while (true) {
    skip(depth + 1);
    if (pos_ >= text_.size())
      fail_here(fmt::format("unexpected end of input: expected '{}' to close the '{}' at line "
                            "{}, column {}",
                            close, open, n.line, n.col));
    char c = text_[pos_];
    if (c == close) {
      if (n.kind == Kind::Map && n.items.size() % 2 != 0)
        fail_here(fmt::format("expected a value for the last key of the map before '{}'", close));
      skip_char();
      return;
    }
    if (c == ')' || c == ']' || c == '}')
      fail_here(fmt::format("expected '{}' to close the '{}' at line {}, column {}, found '{}'",
                            close, open, n.line, n.col, c));
    bool key = n.kind == Kind::Map && n.items.size() % 2 == 0;
    n.items.push_back(parse(depth + 1));
    if (json_map && key) {
      if (n.items.back().kind != Kind::String)
        fail(n.items.back().line, n.items.back().col, "expected a string as an object key");
      skip(depth + 1);
      if (peek() != ':') fail_here("expected ':' after the object key");
      skip_char();
    }
  }
}

Node Reader::parse(std::size_t depth) {
  if (depth >= kMaxDepth) fail_here(fmt::format("values nested deeper than {}", kMaxDepth));
  skip(depth);
  Node n;
  n.line = line_;
  n.col = col_;
  if (pos_ >= text_.size()) fail_here("unexpected end of input: expected a value");
  char c = text_[pos_];
  bool edn = dialect_ == Dialect::Edn;
  switch (c) {
    case '{':
      n.kind = Kind::Map;
      collection(n, '}', depth);
      return n;
    case '[':
      n.kind = Kind::Vector;
      collection(n, ']', depth);
      return n;
    case '"':
      n.kind = Kind::String;
      n.text = string_literal();
      return n;
    case ')':
    case ']':
    case '}':
      fail_here(fmt::format("unexpected '{}' with no open bracket to close", c));
    default: break;
  }
  if (edn && c == '(') {
    n.kind = Kind::List;
    collection(n, ')', depth);
    return n;
  }
  if (edn && c == ':') {
    skip_char();
    std::string_view name = token();
    if (name.empty()) fail(n.line, n.col, "expected a keyword name after ':'");
    n.kind = Kind::Keyword;
    n.text = std::string(name);
    return n;
  }
  if (edn && c == '\\') {
    skip_char();
    std::string_view name = token();
    if (name.empty()) {
      if (pos_ >= text_.size()) fail(n.line, n.col, "expected a character after '\\'");
      name = text_.substr(pos_, 1);
      skip_char();
    }
    n.kind = Kind::Char;
    n.text = std::string(name);
    return n;
  }
  if (edn && c == '#') {
    char next = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
    if (next == '{') {
      skip_char();
      n.kind = Kind::Set;
      collection(n, '}', depth);
      return n;
    }
    if (next == '#') {  // ##Inf, ##-Inf, ##NaN
      skip_char();
      skip_char();
      std::string_view name = token();
      if (name != "Inf" && name != "-Inf" && name != "NaN")
        fail(n.line, n.col, "expected ##Inf, ##-Inf or ##NaN");
      n.kind = Kind::Float;
      n.text = "##" + std::string(name);
      return n;
    }
    if (next != '\0' && !delimiter(next) && !is_digit(next)) {
      // A tagged value #tag v (#inst "...", #jepsen.history.Op{...}): the
      // value stands for itself.
      skip_char();
      (void)token();
      Node inner = parse(depth + 1);
      return inner;
    }
    fail_here(fmt::format("unexpected {} after '#'", next == '\0' ? "end of input" : show(next)));
  }
  std::string_view tok = token();
  if (tok.empty()) fail_here(fmt::format("unexpected {}: expected a value", show(c)));
  bool numeric = is_digit(tok[0]) ||
                 ((tok[0] == '-' || tok[0] == '+') && tok.size() > 1 && is_digit(tok[1]));
  if (numeric) {
    number(n, tok);
    return n;
  }
  if (tok == (edn ? "nil" : "null")) return n;  // Kind::Nil
  if (tok == "true" || tok == "false") {
    n.kind = Kind::Bool;
    n.boolean = tok == "true";
    return n;
  }
  if (!edn)
    fail(n.line, n.col, fmt::format("unexpected '{}': expected a JSON value", tok.substr(0, 40)));
  n.kind = Kind::Symbol;
  n.text = std::string(tok);
  return n;
}

}  // namespace iso::edn
