// Predicates of predicate reads (predicate.hpp): parsing their spelling,
// evaluating them on a key's version, printing them.

#include "engine/history/predicate.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include <fmt/format.h>

namespace iso {

std::optional<std::int64_t> spelled_integer(std::string_view s) {
  std::int64_t v = 0;
  if (s.empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

namespace {

// a <= b for key texts: as integers when both are, else by bytes.
bool key_le(std::string_view a, std::string_view b) {
  const auto x = spelled_integer(a), y = spelled_integer(b);
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
    case Predicate::Cmp::Mod:
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
    return fail(error, "a value condition is v=c, v!=c, v<c, v<=c, v>c, v>=c or v%m=r");
  s.remove_prefix(1);
  if (!s.empty() && s.front() == '%') {
    const auto eq = s.find('=');
    const auto m = eq == std::string_view::npos ? std::nullopt : spelled_integer(trim(s.substr(1, eq - 1)));
    const auto r = eq == std::string_view::npos ? std::nullopt : spelled_integer(trim(s.substr(eq + 1)));
    if (!m || !r || *m <= 0)
      return fail(error, "a remainder condition is v%m=r, with integers m > 0 and r");
    p.cmp = Predicate::Cmp::Mod;
    p.modulus = *m;
    p.constant = Value{*r};
    return true;
  }
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
    } else if (auto i = spelled_integer(c)) {
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
  if (!covers(key) || std::holds_alternative<Deleted>(value)) return false;  // a dead version
  if (cmp == Cmp::None) return true;
  if (cmp == Cmp::Eq) return value == constant;
  if (const auto* u = std::get_if<BigUnsigned>(&value)) {
    // Above every std::int64_t (history.hpp): compared as the number it is.
    if (cmp == Cmp::Mod)
      return Value{static_cast<std::int64_t>(u->value % static_cast<std::uint64_t>(modulus))} == constant;
    if (cmp == Cmp::Ne) return value != constant;
    if (!std::holds_alternative<std::int64_t>(constant)) return false;
    return cmp == Cmp::Gt || cmp == Cmp::Ge;
  }
  if (cmp == Cmp::Mod) {
    const auto* i = std::get_if<std::int64_t>(&value);
    if (!i) return false;
    std::int64_t r = *i % modulus;  // floored: in 0..modulus-1
    if (r < 0) r += modulus;
    return Value{r} == constant;
  }
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
  if (cmp == Cmp::None) return keys_text.empty() ? "true" : keys_text;
  if (cmp == Cmp::Mod) {
    const std::string value_text = fmt::format("v%{}={}", modulus, std::get<std::int64_t>(constant));
    return keys_text.empty() ? value_text : keys_text + " && " + value_text;
  }
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
  if (text == "true") return p;  // every key, any live version
  if (!text.empty() && text.front() == 'v') {
    if (!parse_value(text, p, error)) return std::nullopt;
    return p;
  }
  if (!parse_keys(text, p, error)) return std::nullopt;
  return p;
}

KeyIndex::KeyIndex(const History& h) : h_(&h) {
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    all_.push_back(k);
    if (auto v = spelled_integer(h.keys()[k].text)) integers_.emplace_back(*v, k);
    else texts_.push_back(k);
  }
  auto by_bytes = [&](KeyId a, KeyId b) { return h.keys()[a].text < h.keys()[b].text; };
  std::sort(integers_.begin(), integers_.end());
  std::sort(texts_.begin(), texts_.end(), by_bytes);
  std::sort(all_.begin(), all_.end(), by_bytes);
}

std::vector<KeyId> KeyIndex::covered(const Predicate& p) const {
  std::vector<KeyId> out;
  const auto& keys = h_->keys();
  // The keys of `sorted` (by bytes) from `lo` up to and including `hi`.
  auto bytes_between = [&](const std::vector<KeyId>& sorted, std::string_view lo, std::optional<std::string_view> hi,
                           bool prefix) {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), lo,
                               [&](KeyId k, std::string_view b) { return keys[k].text < b; });
    for (; it != sorted.end(); ++it) {
      const std::string_view t = keys[*it].text;
      if (prefix ? t.substr(0, lo.size()) != lo : t > *hi) break;
      out.push_back(*it);
    }
  };
  switch (p.keys) {
    case Predicate::Keys::All:
      for (KeyId k = 0; k < keys.size(); ++k) out.push_back(k);
      return out;
    case Predicate::Keys::Prefix:
      bytes_between(all_, p.prefix, std::nullopt, true);
      break;
    case Predicate::Keys::Range: {
      const auto lo = spelled_integer(p.lo), hi = spelled_integer(p.hi);
      if (lo && hi) {
        // Integer keys by value; the others by bytes (key_le).
        auto it = std::lower_bound(integers_.begin(), integers_.end(), std::pair{*lo, KeyId{0}});
        for (; it != integers_.end() && it->first <= *hi; ++it) out.push_back(it->second);
        bytes_between(texts_, p.lo, std::string_view(p.hi), false);
      } else {
        // A bound that is no integer compares with every key by bytes.
        for (KeyId k = 0; k < keys.size(); ++k)
          if (p.covers(keys[k])) out.push_back(k);
      }
      break;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace iso
