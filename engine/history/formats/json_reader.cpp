// The JSON reading base (json_reader.hpp): token offsets, positions, depth
// checks, nlohmann's messages and the values as messages show them.
#include "engine/history/formats/json_reader.hpp"

#include <algorithm>

#include "engine/history/history.hpp"

namespace iso::jsonin {

namespace {

// nlohmann's syntax errors quote the text read since the last token began
// ("last read: '...'"), which after a long run of brackets can be long: keep
// its end only.
std::string shorten_last_read(std::string msg) {
  constexpr std::string_view kLastRead = "last read: '";
  constexpr std::size_t kKeep = 40;
  auto start = msg.find(kLastRead);
  if (start == std::string::npos) return msg;
  start += kLastRead.size();
  auto end = msg.rfind("'; ");
  if (end == std::string::npos || end < start) end = msg.rfind('\'');
  if (end == std::string::npos || end < start || end - start <= kKeep) return msg;
  std::size_t cut = end - kKeep;
  // Do not start inside a UTF-8 sequence or a "<U+000A>" escape.
  while (cut < end && (static_cast<unsigned char>(msg[cut]) & 0xC0) == 0x80) ++cut;
  auto open = msg.rfind('<', cut);
  if (open != std::string::npos && open >= start && msg.find('>', open) >= cut) cut = open;
  return msg.substr(0, start) + "..." + msg.substr(cut);
}

}  // namespace

std::size_t token_offset(std::string_view text, std::size_t n) {
  return TokenScanner(text).offset(n);
}

std::string position(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return fmt::format("{}:{}", line, offset - line_start + 1);
}

std::optional<std::size_t> nesting_beyond(std::string_view s, std::size_t max_depth) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

std::string parser_message(std::string msg, LastRead last_read) {
  if (msg.starts_with("[json.exception."))
    if (auto close = msg.find("] "); close != std::string::npos) msg.erase(0, close + 2);
  if (msg.starts_with("parse error"))
    if (auto colon = msg.find(": "); colon != std::string::npos) msg.erase(0, colon + 2);
  switch (last_read) {
    case LastRead::Drop:
      if (auto last = msg.find("; last read"); last != std::string::npos) msg.erase(last);
      return msg;
    case LastRead::Shorten: return shorten_last_read(std::move(msg));
    case LastRead::Keep: {
      constexpr std::size_t kMax = 160;
      if (msg.size() > kMax) msg = msg.substr(0, kMax) + "...";
      return msg;
    }
  }
  return msg;
}

std::string shown(const JValue& v) {
  switch (v.type) {
    case JValue::Type::Object: return "an object";
    case JValue::Type::Array: return "an array";
    case JValue::Type::Null: return "null";
    case JValue::Type::Bool: return v.b ? "true" : "false";
    case JValue::Type::Negative: return fmt::format("{}", v.negative);
    case JValue::Type::Unsigned: return fmt::format("{}", v.u);
    case JValue::Type::Float: return v.s;
    case JValue::Type::String:
      return v.s.size() <= 40 ? "the string " + quote_string(v.s)
                              : "the string " + quote_string(v.s.substr(0, 37)) + "...";
  }
  return "a value";
}

}  // namespace iso::jsonin
