// The helpers of db/clients.hpp the three clients share.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "db/clients.hpp"

namespace iso::db::detail {

std::string one_line(std::string_view message) {
  std::string out;
  for (const char c : message) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

void fail(const std::string& url, std::string_view step, std::string_view message) {
  throw DbError(fmt::format("{}: {}: {}", url, one_line(step), one_line(message)));
}

long long timeout_ms(double seconds) {
  return std::max(1LL, static_cast<long long>(std::ceil(seconds * 1000.0)));
}

std::vector<std::int64_t> parse_list(const std::string& url, const std::string& key, const std::string& text) {
  std::vector<std::int64_t> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    const auto v = spelled_integer(std::string_view(text).substr(pos, comma - pos));
    if (!v) fail(url, "read list " + key, fmt::format("not a list of integers: '{}'", text));
    out.push_back(*v);
    pos = comma + 1;
  }
  return out;
}

}  // namespace iso::db::detail
