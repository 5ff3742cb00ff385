// connect(): the URL's scheme picks the client; the level names; the
// redaction every message and recorded history uses.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "db/clients.hpp"
#include "db/connection.hpp"

namespace iso::db {

namespace {

using detail::fail;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Percent-decoding of one URL component; nullopt when a % is not followed
// by two hexadecimal digits.
std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    unsigned v = 0;  // unsigned: from_chars would take "%-1"
    const auto [end, ec] = std::from_chars(s.data() + i + 1, s.data() + i + 3, v, 16);
    if (ec != std::errc() || end != s.data() + i + 3) return std::nullopt;
    out += static_cast<char>(v);
    i += 2;
  }
  return out;
}

// mysql://USER[:PASSWORD]@HOST[:PORT]/DB[?socket=/path]
detail::MysqlTarget parse_mysql(const std::string& url, const std::string& shown) {
  const auto bad = [&](std::string_view why) {
    fail(shown, "connect", fmt::format("malformed URL ({}); expected mysql://USER[:PASSWORD]@HOST[:PORT]/DB"
                                       "[?socket=/path]",
                                       why));
  };
  const auto decode = [&](std::string_view s, std::string_view what) {
    auto d = percent_decode(s);
    if (!d) bad(fmt::format("a bad percent escape in the {}", what));
    return *d;
  };
  detail::MysqlTarget t;
  std::string_view rest(url);
  rest.remove_prefix(rest.find("://") + 3);
  std::string_view query;
  if (const auto q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  const auto slash = rest.find('/');
  if (slash == std::string_view::npos) bad("no database");
  std::string_view authority = rest.substr(0, slash);
  t.database = decode(rest.substr(slash + 1), "database");
  if (t.database.empty()) bad("no database");
  if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
    const std::string_view userinfo = authority.substr(0, at);
    authority = authority.substr(at + 1);
    const auto colon = userinfo.find(':');
    t.user = decode(userinfo.substr(0, colon), "user");
    if (colon != std::string_view::npos) {
      t.password = decode(userinfo.substr(colon + 1), "password");
      t.has_password = true;
    }
  }
  if (t.user.empty()) bad("no user");
  if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    const std::string_view port = authority.substr(colon + 1);
    unsigned p = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (port.empty() || ec != std::errc() || end != port.data() + port.size() || p == 0 || p > 65535)
      bad("a bad port");
    t.port = p;
    authority = authority.substr(0, colon);
  }
  t.host = decode(authority, "host");
  if (t.host.empty()) t.host = "localhost";
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view param = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (starts_with(param, "socket=")) {
      t.socket = decode(param.substr(7), "socket");
    } else if (!param.empty()) {
      bad(fmt::format("unknown parameter '{}'", param.substr(0, param.find('='))));
    }
  }
  return t;
}

}  // namespace

// Each product level with the two names parse_level reads it by: SQL's
// (lower case) and a short one.
struct LevelNames {
  ProductLevel level;
  std::string_view sql, short_name;
};
constexpr LevelNames kLevelNames[] = {
    {ProductLevel::ReadUncommitted, "read uncommitted", "ru"},
    {ProductLevel::ReadCommitted, "read committed", "rc"},
    {ProductLevel::RepeatableRead, "repeatable read", "rr"},
    {ProductLevel::Serializable, "serializable", "ser"},
};

std::string level_name(ProductLevel l) {
  for (const LevelNames& n : kLevelNames)
    if (n.level == l) return std::string(n.sql);
  return "?";
}

std::optional<ProductLevel> parse_level(const std::string& text) {
  std::string t;
  for (const char c : text) {
    const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    t += (l == '-' || l == '_') ? ' ' : l;
  }
  for (const LevelNames& n : kLevelNames)
    if (t == n.sql || t == n.short_name) return n.level;
  return std::nullopt;
}

std::string redact_url(const std::string& url) {
  std::string out = url;
  // The password of USER:PASSWORD@ in the authority.
  if (const auto scheme = out.find("://"); scheme != std::string::npos) {
    const auto start = scheme + 3;
    const auto end = std::min(out.find('/', start), out.find('?', start));
    const std::string authority = out.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (const auto at = authority.rfind('@'); at != std::string::npos) {
      if (const auto colon = authority.find(':'); colon != std::string::npos && colon < at)
        out.erase(start + colon, at - colon);
    }
  }
  // password=... among the query parameters (libpq's URIs take one there).
  if (const auto q = out.find('?'); q != std::string::npos) {
    std::string query = out.substr(q + 1), kept;
    for (std::size_t pos = 0; pos <= query.size();) {
      auto amp = query.find('&', pos);
      if (amp == std::string::npos) amp = query.size();
      const std::string param = query.substr(pos, amp - pos);
      if (!starts_with(param, "password=")) kept += (kept.empty() ? "" : "&") + param;
      pos = amp + 1;
    }
    out = out.substr(0, q) + (kept.empty() ? "" : "?" + kept);
  }
  return out;
}

std::unique_ptr<Connection> connect(const std::string& url, double statement_timeout) {
  const std::string shown = redact_url(url);
  if (!(statement_timeout > 0) || !std::isfinite(statement_timeout))
    fail(shown, "connect", "the statement timeout must be a positive number of seconds");
  if (starts_with(url, "sqlite:")) {
    std::string file = url.substr(7);
    if (starts_with(file, "//")) file.erase(0, 2);  // sqlite:///abs/path
    if (file.empty()) fail(shown, "connect", "no file: sqlite:FILE");
    return detail::open_sqlite(shown, file, statement_timeout);
  }
  if (starts_with(url, "postgresql://") || starts_with(url, "postgres://"))
    return detail::open_postgres(shown, url, statement_timeout);
  if (starts_with(url, "mysql://") || starts_with(url, "mariadb://"))
    return detail::open_mariadb(shown, parse_mysql(url, shown), statement_timeout);
  fail(shown, "connect", "unknown database URL; expected sqlite:FILE, postgresql://... or mysql://...");
}

}  // namespace iso::db
