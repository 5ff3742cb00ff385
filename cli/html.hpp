// Self-contained HTML pages (no script, no network access): the escaping
// and the frame every page shares, with its style sheet inline.
#pragma once

#include <string>

namespace iso::cli {

// Text or an attribute value ("..." or '...') from any input: the five
// markup characters as entities, and hidden characters (controls, format
// characters such as U+202E, invalid bytes) shown as escapes, as the text
// output shows them; line breaks and tabs are kept, for <pre>.
std::string html_escape(const std::string& s);

// A fragment identifier (id="...", href="#...") made of letters, digits,
// '-' and '.' only: every other byte as _XX (its hex code), so that distinct
// names give distinct ids and none can leave the attribute.
std::string html_id(const std::string& name);

// "<!DOCTYPE html> ... <body><h1>title</h1>"; `title` is plain text.
std::string html_begin(const std::string& title);
// "</body></html>".
std::string html_end();

// Writes `page` as DIR/index.html, creating DIR; throws std::runtime_error
// naming the folder when it cannot.
void write_html_page(const std::string& dir, const std::string& page);

}  // namespace iso::cli
