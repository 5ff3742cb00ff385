// UTF-8 validation for the readers: text a history keeps (keys, string
// values) must be UTF-8, as JSON requires, so that every history read
// round-trips through the native format; bincode rejects a String that is
// not UTF-8 too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace iso::utf8 {

// The offset of the first byte of `s` that does not start a well-formed
// UTF-8 sequence (overlong forms, surrogates and values past U+10FFFF
// included), or nullopt when all of `s` is well formed.
inline std::optional<std::size_t> first_invalid(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3
                                   : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) return i;
    std::uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (std::size_t k = 1; k < len; ++k) {
      auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (d & 0x3Fu);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
      return i;
    i += len;
  }
  return std::nullopt;
}

inline bool valid(std::string_view s) { return !first_invalid(s); }

}  // namespace iso::utf8
