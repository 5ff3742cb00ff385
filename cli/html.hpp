// Self-contained HTML pages (no script, no network access): the escaping
// and the frame every page shares, with its style sheet inline.
#pragma once

#include <string>

namespace iso::cli {

std::string html_escape(const std::string& s);

// "<!DOCTYPE html> ... <body><h1>title</h1>"; `title` is plain text.
std::string html_begin(const std::string& title);
// "</body></html>".
std::string html_end();

// Writes `page` as DIR/index.html, creating DIR; throws std::runtime_error
// naming the folder when it cannot.
void write_html_page(const std::string& dir, const std::string& page);

}  // namespace iso::cli
