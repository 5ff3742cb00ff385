#include "engine/history/predicate.hpp"

#include <charconv>
#include <cstdint>

#include <fmt/format.h>

namespace iso {

namespace {

std::optional<std::int64_t> integer(std::string_view s) {
  std::int64_t v = 0;
  if (s.empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// a <= b for key texts: as integers when both are, else by bytes.
bool key_le(std::string_view a, std::string_view b) {
  const auto x = integer(a), y = integer(b);
  if (x && y) return *x <= *y;
  return a <= b;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::string_view cmp_text(Predicate::Cmp c) {
  switch (c) {
    case Predicate::Cmp::Eq: return "=";
    case Predicate::Cmp::Ne: return "!=";
    case Predicate::Cmp::Lt: return "<";
    case Predicate::Cmp::Le: return "<=";
    case Predicate::Cmp::Gt: return ">";
    case Predicate::Cmp::Ge: return ">=";
    case Predicate::Cmp::None: break;
  }
  return "";
}

bool fail(std::string* error, std::string why) {
  if (error) *error = std::move(why);
  return false;
}

bool parse_keys(std::string_view s, Predicate& p, std::string* error) {
  if (s.substr(0, 7) == "prefix:") {
    p.keys = Predicate::Keys::Prefix;
    p.prefix = std::string(s.substr(7));
    return true;
  }
  const auto comma = s.find(',');
  if (s.size() < 3 || s.front() != '[' || s.back() != ']' || comma == std::string_view::npos)
    return fail(error, "a key condition is a range [lo,hi] or a prefix prefix:abc");
  p.keys = Predicate::Keys::Range;
  p.lo = std::string(trim(s.substr(1, comma - 1)));
  p.hi = std::string(trim(s.substr(comma + 1, s.size() - comma - 2)));
  if (p.lo.empty() || p.hi.empty()) return fail(error, "a key range needs both bounds: [lo,hi]");
  return true;
}

bool parse_value(std::string_view s, Predicate& p, std::string* error) {
  if (s.empty() || s.front() != 'v')
    return fail(error, "a value condition is v=c, v!=c, v<c, v<=c, v>c or v>=c");
  s.remove_prefix(1);
  static constexpr std::pair<std::string_view, Predicate::Cmp> kOps[] = {
      {"!=", Predicate::Cmp::Ne}, {"<=", Predicate::Cmp::Le}, {">=", Predicate::Cmp::Ge},
      {"=", Predicate::Cmp::Eq},  {"<", Predicate::Cmp::Lt},  {">", Predicate::Cmp::Gt}};
  for (const auto& [text, cmp] : kOps) {
    if (s.substr(0, text.size()) != text) continue;
    p.cmp = cmp;
    const std::string_view c = trim(s.substr(text.size()));
    if (c == "null") {
      if (cmp != Predicate::Cmp::Eq && cmp != Predicate::Cmp::Ne)
        return fail(error, "null compares only with = and !=");
      p.constant = Value{std::monostate{}};
    } else if (c.size() >= 2 && c.front() == '"' && c.back() == '"') {
      p.constant = Value{std::string(c.substr(1, c.size() - 2))};
    } else if (auto i = integer(c)) {
      p.constant = Value{*i};
    } else {
      return fail(error, "the constant of a value condition is an integer, a string in double "
                         "quotes, or null");
    }
    return true;
  }
  return fail(error, "a value condition is v=c, v!=c, v<c, v<=c, v>c or v>=c");
}

}  // namespace

bool Predicate::covers(const Key& key) const {
  switch (keys) {
    case Keys::All: return true;
    case Keys::Prefix: return key.text.substr(0, prefix.size()) == prefix;
    case Keys::Range: return key_le(lo, key.text) && key_le(key.text, hi);
  }
  return false;
}

bool Predicate::holds(const Key& key, const Value& value) const {
  if (!covers(key)) return false;
  if (cmp == Cmp::None) return true;
  if (cmp == Cmp::Eq) return value == constant;
  if (cmp == Cmp::Ne) return value != constant;
  // Order comparisons: values of the constant's type only.
  if (value.index() != constant.index() || std::holds_alternative<std::monostate>(value)) return false;
  const int c = value < constant ? -1 : constant < value ? 1 : 0;
  switch (cmp) {
    case Cmp::Lt: return c < 0;
    case Cmp::Le: return c <= 0;
    case Cmp::Gt: return c > 0;
    case Cmp::Ge: return c >= 0;
    default: return false;
  }
}

std::string Predicate::text() const {
  std::string keys_text;
  if (keys == Keys::Range) keys_text = fmt::format("[{},{}]", lo, hi);
  if (keys == Keys::Prefix) keys_text = "prefix:" + prefix;
  if (cmp == Cmp::None) return keys_text;
  std::string c;
  if (std::holds_alternative<std::monostate>(constant)) c = "null";
  else if (const auto* i = std::get_if<std::int64_t>(&constant)) c = fmt::format("{}", *i);
  else c = fmt::format("\"{}\"", std::get<std::string>(constant));
  const std::string value_text = fmt::format("v{}{}", cmp_text(cmp), c);
  return keys_text.empty() ? value_text : keys_text + " && " + value_text;
}

std::optional<Predicate> parse_predicate(std::string_view text, std::string* error) {
  Predicate p;
  text = trim(text);
  const auto amp = text.find("&&");
  if (amp != std::string_view::npos) {
    if (!parse_keys(trim(text.substr(0, amp)), p, error) || !parse_value(trim(text.substr(amp + 2)), p, error))
      return std::nullopt;
    return p;
  }
  if (!text.empty() && text.front() == 'v') {
    if (!parse_value(text, p, error)) return std::nullopt;
    return p;
  }
  if (!parse_keys(text, p, error)) return std::nullopt;
  return p;
}

}  // namespace iso
