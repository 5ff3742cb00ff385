// Raw JSON parser throughput on one file, three ways, each event counted and
// every number and string touched: nlohmann's SAX parser, the readers' fast
// scanner (engine/history/formats/json_scan.hpp) and simdjson's On-Demand API
// walking the same values (libsimdjson-dev; not a dependency of the build):
//   g++ -std=c++20 -O2 -I. bench/readers/parsers.cpp -o parsers -lsimdjson
//   ./parsers history.json
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <simdjson.h>
#include "engine/history/formats/json_scan.hpp"

struct Count : nlohmann::json_sax<nlohmann::json> {
  std::size_t n = 0, sum = 0;
  bool null() override { ++n; return true; }
  bool boolean(bool) override { ++n; return true; }
  bool number_integer(number_integer_t v) override { ++n; sum += v; return true; }
  bool number_unsigned(number_unsigned_t v) override { ++n; sum += v; return true; }
  bool number_float(number_float_t, const string_t&) override { ++n; return true; }
  bool string(string_t& s) override { ++n; sum += s.size(); return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { ++n; return true; }
  bool end_object() override { ++n; return true; }
  bool start_array(std::size_t) override { ++n; return true; }
  bool end_array() override { ++n; return true; }
  bool key(string_t& s) override { ++n; sum += s.size(); return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

using namespace simdjson;
static void walk(ondemand::value v, Count& c) {
  switch (v.type()) {
    case ondemand::json_type::object: c.n++; for (auto f : v.get_object()) { std::string_view k = f.unescaped_key(); c.sum += k.size(); c.n++; walk(f.value(), c);} c.n++; break;
    case ondemand::json_type::array: c.n++; for (auto e : v.get_array()) walk(e.value(), c); c.n++; break;
    case ondemand::json_type::number: { c.n++; ondemand::number_type t = v.get_number_type(); if (t == ondemand::number_type::signed_integer) c.sum += int64_t(v.get_int64()); else if (t == ondemand::number_type::unsigned_integer) c.sum += uint64_t(v.get_uint64()); else (void)double(v.get_double()); break; }
    case ondemand::json_type::string: { c.n++; std::string_view s = v.get_string(); c.sum += s.size(); break; }
    case ondemand::json_type::boolean: c.n++; (void)bool(v.get_bool()); break;
    case ondemand::json_type::null: c.n++; (void)v.is_null(); break;
  }
}

int main(int argc, char** argv) {
  std::ifstream in(argv[1], std::ios::binary); std::stringstream ss; ss << in.rdbuf(); std::string text = ss.str();
  double mb = text.size() / 1e6;
  for (int rep = 0; rep < 3; ++rep) {
    { Count c; auto t0 = std::chrono::steady_clock::now(); nlohmann::json::sax_parse(text.data(), text.data()+text.size(), &c);
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now()-t0).count(); printf("nlohmann-sax %.1f MB/s (%zu events %zu)\n", mb/s, c.n, c.sum); }
    { Count c; auto t0 = std::chrono::steady_clock::now(); auto r = iso::jsonin::scan(text, c);
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now()-t0).count(); printf("fast-scan    %.1f MB/s (%zu events %zu complete %d)\n", mb/s, c.n, c.sum, r.complete); }
    { Count c; auto t0 = std::chrono::steady_clock::now(); padded_string ps(text); ondemand::parser p; auto doc = p.iterate(ps); walk(doc.get_value(), c);
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now()-t0).count(); printf("simdjson-od  %.1f MB/s (%zu events %zu) incl. padded copy\n", mb/s, c.n, c.sum); }
  }
}
