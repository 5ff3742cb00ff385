// The HTML escaping, ids, page frame and page writing of html.hpp.
#include "cli/html.hpp"

#include <cctype>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "cli/dot.hpp"
#include "engine/history/history.hpp"

namespace iso::cli {

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : escape_text(s, /*keep_lines=*/true)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string html_id(const std::string& name) {
  std::string out;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '-' || c == '.')
      out.push_back(c);
    else
      out += fmt::format("_{:02X}", static_cast<unsigned>(u));
  }
  return out.empty() ? "_" : out;
}

std::string html_begin(const std::string& title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n<style>\n"
      "body {{ font-family: sans-serif; max-width: 70em; margin: 2em auto; padding: 0 1em; }}\n"
      "table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #bbb; padding: 0.3em 0.6em; }}\n"
      "th {{ background: #f0f0f0; }} td.implies, td.allowed {{ color: #2a7a2a; }}\n"
      "td.not-implied, td.forbidden {{ color: #b22222; }} td a {{ color: inherit; }}\n"
      "pre {{ background: #f7f7f7; padding: 0.6em; white-space: pre-wrap; }} svg {{ max-width: 100%; height: auto; }}\n"
      "</style>\n</head>\n<body>\n<h1>{0}</h1>\n",
      html_escape(title));
}

std::string html_end() { return "</body>\n</html>\n"; }

void write_html_page(const std::string& dir, const std::string& page) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: cannot create the folder: {}", dir, ec.message()));
  write_text_file((std::filesystem::path(dir) / "index.html").string(), page);
}

}  // namespace iso::cli
