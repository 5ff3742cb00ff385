// UTF-8 decoding and validation. The readers require it of the text a
// history keeps (keys, string values), as JSON does, so that every history
// read round-trips through the native format (bincode rejects a String that
// is not UTF-8 too); the printer uses it to decide which bytes to escape.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace iso::utf8 {

// The well-formed UTF-8 sequence at s[i]: its length (0 when the bytes
// there do not start one: a bad lead or continuation byte, an overlong
// form, a surrogate, a value past U+10FFFF, or the end of `s` too soon)
// and its code point.
struct Sequence {
  std::size_t length = 0;
  std::uint32_t code_point = 0;
};
inline Sequence sequence_at(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3
                          : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > s.size()) return {};
  std::uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
  for (std::size_t k = 1; k < len; ++k) {
    const auto d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return {};
    cp = (cp << 6) | (d & 0x3Fu);
  }
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
      (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
    return {};
  return {len, cp};
}

// The offset of the first byte of `s` that does not start a well-formed
// UTF-8 sequence, or nullopt when all of `s` is well formed.
inline std::optional<std::size_t> first_invalid(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = sequence_at(s, i).length;
    if (len == 0) return i;
    i += len;
  }
  return std::nullopt;
}

inline bool valid(std::string_view s) { return !first_invalid(s); }

}  // namespace iso::utf8
