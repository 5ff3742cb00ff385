#include "engine/history/formats/json_sax.hpp"

#include <algorithm>

#include "engine/history/history.hpp"

namespace iso::jsonsax {

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

}  // namespace iso::jsonsax
