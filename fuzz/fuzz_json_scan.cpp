// libFuzzer target comparing the fast JSON scanner (json_scan.hpp) with
// nlohmann's SAX parser on the same bytes: the scanner's events must be a
// prefix of nlohmann's (all of them, with no syntax error, when it reads the
// whole text), it must never read to the end a text nlohmann refuses, and
// sax_read (the scanner, then nlohmann for the rest) must deliver exactly
// nlohmann's events and syntax error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/history/formats/json_scan.hpp"

namespace {

// Every event as text, a syntax error as its offset and message.
struct Record final : nlohmann::json_sax<nlohmann::json> {
  std::vector<std::string> events;
  bool put(std::string e) {
    events.push_back(std::move(e));
    return true;
  }
  bool null() override { return put("null"); }
  bool boolean(bool v) override { return put(v ? "true" : "false"); }
  bool number_integer(number_integer_t v) override { return put("i" + std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return put("u" + std::to_string(v)); }
  bool number_float(number_float_t, const string_t& s) override { return put("f" + s); }
  bool string(string_t& s) override { return put("s" + s); }
  bool binary(binary_t&) override { return put("binary"); }
  bool start_object(std::size_t) override { return put("{"); }
  bool end_object() override { return put("}"); }
  bool start_array(std::size_t) override { return put("["); }
  bool end_array() override { return put("]"); }
  bool key(string_t& s) override { return put("k" + s); }
  bool parse_error(std::size_t at, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    put("error " + std::to_string(at) + " " + ex.what());
    return false;
  }
};

void require(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Record theirs;
  nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &theirs);
  const bool refused = !theirs.events.empty() && theirs.events.back().starts_with("error");

  Record ours;
  const iso::jsonin::ScanResult r = iso::jsonin::scan(text, ours);
  require(r.events == ours.events.size());
  require(ours.events.size() <= theirs.events.size());
  for (std::size_t i = 0; i < ours.events.size(); ++i) require(ours.events[i] == theirs.events[i]);
  if (r.complete) require(!refused && ours.events.size() == theirs.events.size());

  Record both;
  iso::jsonin::sax_read(text, both);
  require(both.events == theirs.events);
  return 0;
}
