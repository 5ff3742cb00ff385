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

// Whether a code point must not reach a terminal, a page or a picture as it
// is, because it is invisible or changes how the text around it shows:
// control characters (C0, DEL, C1), the line and paragraph separators, and
// the format characters (Unicode category Cf), among them the bidirectional
// controls that reorder a line (U+202E shows "abc\u202Edef" as "abcfed"),
// zero-width characters and the byte-order mark.
inline bool hidden(std::uint32_t cp) {
  if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return true;
  switch (cp) {
    case 0x00AD: case 0x061C: case 0x06DD: case 0x070F: case 0x08E2: case 0x180E:
    case 0xFEFF: case 0x110BD: case 0x110CD: case 0xE0001:
      return true;
    default: break;
  }
  return (cp >= 0x0600 && cp <= 0x0605) || (cp >= 0x0890 && cp <= 0x0891) ||
         (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
         (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x206F) ||
         (cp >= 0xFFF9 && cp <= 0xFFFB) || (cp >= 0x13430 && cp <= 0x1343F) ||
         (cp >= 0x1BCA0 && cp <= 0x1BCA3) || (cp >= 0x1D173 && cp <= 0x1D17A) ||
         (cp >= 0xE0020 && cp <= 0xE007F);
}

}  // namespace iso::utf8
