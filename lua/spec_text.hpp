// Text a spec supplies that isosynth prints: names it declares and what it
// prints. Names are refused when they hold a character that could forge a
// line of output or change how a terminal shows it; print's text is escaped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace iso::lua {

// C0 and C1 controls, DEL, line and paragraph separators and the Unicode
// format characters (category Cf: bidi embeddings, overrides and isolates,
// zero-width characters, the BOM...): characters that do not print as
// themselves.
bool unprintable(std::uint32_t code_point);

// The first character of `s` that a name may not hold (unprintable, or a
// byte that is not valid UTF-8), escaped as the message shows it ("U+000A",
// "byte 0xFF"); nullopt when there is none.
std::optional<std::string> bad_name_char(std::string_view s);

// `s` on one line: backslash, newline and CR as \\ \n \r, other
// unprintable characters but tab as \xNN (below U+0100) or \u{XXXX},
// invalid UTF-8 bytes as \xNN; the rest (tabs included: they forge no
// line) kept.
std::string escape_line(std::string_view s);

}  // namespace iso::lua
