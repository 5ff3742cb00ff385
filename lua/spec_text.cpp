#include "lua/spec_text.hpp"

#include <fmt/format.h>

#include "engine/util/utf8.hpp"

namespace iso::lua {

bool unprintable(std::uint32_t c) {
  struct Range {
    std::uint32_t first, last;
  };
  // Cc, Cf, Zl and Zp (Unicode 15).
  static constexpr Range kRanges[] = {
      {0x0000, 0x001F},   {0x007F, 0x009F},   {0x00AD, 0x00AD},   {0x0600, 0x0605},
      {0x061C, 0x061C},   {0x06DD, 0x06DD},   {0x070F, 0x070F},   {0x0890, 0x0891},
      {0x08E2, 0x08E2},   {0x180E, 0x180E},   {0x200B, 0x200F},   {0x2028, 0x202E},
      {0x2060, 0x2064},   {0x2066, 0x206F},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},
      {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3},
      {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F}};
  for (const Range& r : kRanges)
    if (c >= r.first && c <= r.last) return true;
  return false;
}

std::optional<std::string> bad_name_char(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const utf8::Sequence seq = utf8::sequence_at(s, i);
    if (seq.length == 0) return fmt::format("byte 0x{:02X}", static_cast<unsigned char>(s[i]));
    if (unprintable(seq.code_point)) return fmt::format("U+{:04X}", seq.code_point);
    i += seq.length;
  }
  return std::nullopt;
}

std::string escape_line(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const utf8::Sequence seq = utf8::sequence_at(s, i);
    if (seq.length == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    const std::uint32_t c = seq.code_point;
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (unprintable(c) && c != '\t')
      out += c < 0x100 ? fmt::format("\\x{:02x}", c) : fmt::format("\\u{{{:04x}}}", c);
    else out.append(s.substr(i, seq.length));
    i += seq.length;
  }
  return out;
}

}  // namespace iso::lua
