#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "engine/history/abstract.hpp"
#include "engine/history/formats/formats.hpp"
#include "engine/history/history.hpp"
#include "engine/history/json_format.hpp"
#include "engine/history/printer.hpp"

using namespace iso;

namespace {

// The error message of reading `text`, or "no error".
std::string err(const std::string& text) {
  try {
    read_native_json(text, "h.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// A text with a backtick marking the offending element; `where` is the
// marker's line:col, counted here independently of the reader.
struct Marked {
  std::string text;
  std::string where;
};

Marked mark(std::string s) {
  auto at = s.find('`');
  REQUIRE(at != std::string::npos);
  s.erase(at, 1);
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < at; ++i) {
    if (s[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {s, fmt::format("{}:{}", line, col)};
}

// Expects reading the marked text to fail at the marker with `rest`
// ("path: message", or just "message").
void expect_error(const std::string& marked, const std::string& rest) {
  Marked m = mark(marked);
  CHECK(err(m.text) == "h.json:" + m.where + ": " + rest);
}

// A document with one transaction whose ops are `ops`.
std::string one_txn(const std::string& ops) {
  return "{\"sessions\": [[{\"id\": \"T1\", \"ops\": [" + ops + "]}]]}";
}

// Everything a history holds, compared field by field (ids included).
void check_same(const History& a, const History& b, bool explicit_init_too) {
  REQUIRE(a.num_txns() == b.num_txns());
  REQUIRE(a.keys().size() == b.keys().size());
  REQUIRE(a.values().size() == b.values().size());
  CHECK(a.sessions() == b.sessions());
  for (KeyId k = 0; k < a.keys().size(); ++k) {
    CHECK(a.keys()[k].text == b.keys()[k].text);
    CHECK(a.keys()[k].integer == b.keys()[k].integer);
    CHECK(a.init_value(k) == b.init_value(k));
    if (explicit_init_too) CHECK(a.has_explicit_init(k) == b.has_explicit_init(k));
  }
  for (ValueId v = 0; v < a.values().size(); ++v) CHECK(a.values()[v] == b.values()[v]);
  for (TxnId t = 0; t < a.num_txns(); ++t) {
    const Transaction& x = a.txn(t);
    const Transaction& y = b.txn(t);
    CHECK(x.name == y.name);
    CHECK(x.session == y.session);
    CHECK(x.position == y.position);
    CHECK(x.status == y.status);
    CHECK(x.begin == y.begin);
    CHECK(x.commit == y.commit);
    CHECK(x.start_ts == y.start_ts);
    CHECK(x.commit_ts == y.commit_ts);
    REQUIRE(x.ops.size() == y.ops.size());
    for (std::size_t i = 0; i < x.ops.size(); ++i) {
      CHECK(x.ops[i].kind == y.ops[i].kind);
      if (x.ops[i].kind == OpKind::PredicateRead) {
        const PredicateRead& p = a.predicate_reads()[x.ops[i].predicate];
        const PredicateRead& q = b.predicate_reads()[y.ops[i].predicate];
        CHECK(p.predicate == q.predicate);
        CHECK(p.result == q.result);
      } else {
        CHECK(x.ops[i].key == y.ops[i].key);
        CHECK(x.ops[i].value == y.ops[i].value);
      }
    }
  }
}

const char* kRich = R"({
  "format": "isosynth-history",
  "version": 1,
  "init": { "z": "start", "x": 0, "7": null },
  "sessions": [
    [ { "id": "T1", "ops": [["r", "x", 0], ["w", "x", 1], ["w", 7, "seven"]] },
      { "id": "T2", "ops": [["r", "y", null]], "status": "aborted" } ],
    [],
    [ { "id": "T3", "ops": [["r", "x", 1], ["w", "y", "1"], ["w", "y", 1]],
        "begin": 100, "commit": 140 },
      { "id": "T4", "ops": [["pr", "[a,z]", [["x", 1], [7, "seven"]]], ["r", 7, "seven"]],
        "status": "unknown" },
      { "id": "T5", "ops": [], "begin": -5 } ]
  ],
  "witnesses": { "SER": { "co": [["T0", "T1"], ["T1", "T3"]] } },
  "scope": [4, 3, 3.5]
})";

}  // namespace

TEST_CASE("json: reads a rich history") {
  History h = read_native_json(kRich, "rich.json");
  REQUIRE(h.num_txns() == 6);
  REQUIRE(h.sessions().size() == 3);
  CHECK(h.sessions()[1].empty());
  TxnId t1 = *h.find_txn("T1"), t2 = *h.find_txn("T2"), t3 = *h.find_txn("T3");
  TxnId t4 = *h.find_txn("T4"), t5 = *h.find_txn("T5");
  CHECK(t1 == 1);
  CHECK(h.txn(t2).status == TxnStatus::Aborted);
  CHECK(h.txn(t2).position == 1);
  CHECK(h.txn(t3).session == 2);
  CHECK(h.txn(t3).begin == 100);
  CHECK(h.txn(t3).commit == 140);
  CHECK(!h.txn(t1).begin);
  CHECK(h.txn(t4).status == TxnStatus::Unknown);
  CHECK(h.txn(t5).ops.empty());
  CHECK(h.txn(t5).begin == -5);

  // Keys in order of first use in the operations, init-only keys after.
  REQUIRE(h.keys().size() == 4);
  CHECK(h.key_text(0) == "x");
  CHECK(h.key_text(1) == "7");
  CHECK(h.keys()[1].integer);
  CHECK(h.key_text(2) == "y");
  CHECK(h.key_text(3) == "z");
  CHECK(!h.keys()[3].integer);
  CHECK(h.value_text(h.init_value(*h.find_key("z"))) == "\"start\"");
  CHECK(h.value_text(h.init_value(*h.find_key("7"))) == "null");
  CHECK(h.value_text(h.init_value(*h.find_key("y"))) == "0");
  CHECK(h.has_explicit_init(*h.find_key("x")));
  CHECK(!h.has_explicit_init(*h.find_key("y")));

  CHECK(format_txn(h, t3) == "T3: r(x,1) w(y,\"1\") w(y,1)");
  CHECK(format_txn(h, t4) == "T4: pr([a,z]: {x=1, 7=\"seven\"}) r(7,\"seven\")");
  CHECK(h.txn(t3).ops[1].value != h.txn(t3).ops[2].value);  // "1" and 1 differ

  AbstractHistory a = abstract_history(h);
  CHECK(a.has_predicate_reads == false);  // T4 (unknown) is not a member
  CHECK(a.unjustified_reads.empty());
}

TEST_CASE("json: writer output") {
  History h;
  KeyId x = h.intern_key("x");
  KeyId k = h.intern_key("10", true);
  h.set_init(k, h.intern_value(Value{std::string("a")}));
  SessionId s = h.add_session();
  TxnId t1 = h.add_txn(s, "T1");
  h.add_read(t1, x, h.intern_value(Value{std::int64_t{0}}));
  h.add_write(t1, k, h.intern_value(Value{}));
  TxnId t2 = h.add_txn(s, "T2", TxnStatus::Aborted);
  h.txn(t2).commit = 9;
  h.add_predicate_read(t2, PredicateRead{"prefix:1", {{k, h.intern_value(Value{})}}});
  CHECK(write_native_json(h).dump() ==
        R"({"format":"isosynth-history","init":{"10":"a","x":0},"sessions":[[)"
        R"({"id":"T1","ops":[["r","x",0],["w",10,null]]},)"
        R"({"commit":9,"id":"T2","ops":[["pr","prefix:1",[[10,null]]]],"status":"aborted"}]],)"
        R"("version":1})");
}

TEST_CASE("json: round trip") {
  History h1 = read_native_json(kRich, "rich.json");
  nlohmann::json j1 = write_native_json(h1);
  History h2 = read_native_json(j1.dump(2), "rich2.json");
  check_same(h1, h2, false);
  nlohmann::json j2 = write_native_json(h2);
  CHECK(j1 == j2);
  History h3 = read_native_json(j2.dump(), "rich3.json");
  check_same(h2, h3, true);
  CHECK(format_history(h2) == format_history(h3));

  // A history built in code, with keys and values in an order no file gives.
  History b;
  KeyId kz = b.intern_key("z");
  KeyId k5 = b.intern_key("5", true);
  b.set_init(kz, b.intern_value(Value{std::int64_t{3}}));
  SessionId s0 = b.add_session();
  SessionId s1 = b.add_session();
  TxnId u = b.add_txn(s1, "U");
  TxnId v = b.add_txn(s0, "V", TxnStatus::Unknown);
  b.add_write(u, k5, b.intern_value(Value{std::string("q\"uote\n")}));
  b.add_read(v, kz, b.intern_value(Value{std::int64_t{3}}));
  b.add_write(v, kz, b.intern_value(Value{std::int64_t{-4}}));
  History c = read_native_json(write_native_json(b).dump(), "b.json");
  CHECK(write_native_json(c) == write_native_json(b));
  CHECK(format_history(read_native_json(write_native_json(c).dump(), "c.json")) ==
        format_history(c));
  CHECK(c.txn(*c.find_txn("U")).session == 1);
  CHECK(c.value_text(c.txn(*c.find_txn("U")).ops[0].value) == "\"q\\\"uote\\n\"");
}

TEST_CASE("json: example histories load and round trip") {
  std::filesystem::path dir = std::filesystem::path(ISOSYNTH_SOURCE_DIR) / "examples/histories";
  if (!std::filesystem::is_directory(dir)) return;
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path().string());
    // Native, except the example in Chronos's format: its transactions
    // come back grouped by session (other ids), the same history, with its
    // database timestamps as the native "sts" and "cts".
    const ReadResult in = read_history_path(entry.path().string(), std::nullopt, ReadOptions{});
    const History& h = in.history;
    History r = read_native_json(write_native_json(h).dump(), "round");
    if (in.format == Format::Native)
      check_same(h, r, false);
    else
      CHECK(format_history(r) == format_history(h));
    ++n;
  }
  CHECK(n > 0);
}

TEST_CASE("json: unknown fields are ignored, BOM accepted") {
  CHECK(err(R"({"sessions": [[{"id": "T1", "ops": [], "note": {"a": [1.5, null]}}]],
               "extra": [[[{"deep": true}]]], "version": 1})") == "no error");
  History h = read_native_json("\xEF\xBB\xBF{\"sessions\": []}", "bom.json");
  CHECK(h.num_txns() == 1);
  // Columns count bytes, the BOM's included.
  CHECK(err("\xEF\xBB\xBF{\"sessions\": 5}") ==
        "h.json:1:17: sessions: sessions must be an array of sessions, got the integer 5");
}

TEST_CASE("json: syntax errors name line and column") {
  // Hand-counted positions.
  CHECK(err("{\"sessions\": [[{\"id\": \"T1\", \"ops\": [[\"r\", \"x\", tru]]}]]}") ==
        "h.json:1:51: syntax error while parsing value - invalid literal; last read: "
        "'\"x\", tru]'");
  CHECK(err("{\"sessions\": [\n  [],\n]}") ==
        "h.json:3:1: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal");
  CHECK(err("") ==
        "h.json:1:1: syntax error while parsing value - unexpected end of input; expected '[', "
        "'{', or a literal");
  CHECK(err("{\"sessions\": [\n") ==
        "h.json:2:1: syntax error while parsing value - unexpected end of input; expected '[', "
        "'{', or a literal");
  CHECK(err("{\"sessions\": []} x") ==
        "h.json:1:18: syntax error while parsing value - invalid literal; last read: "
        "'\"sessions\": []} x'; expected end of input");
  // The quoted text is cut to its end.
  CHECK(err("{\"sessions\": [], \"x\": " + std::string(50, '[') + std::string(50, ']') + "} x") ==
        "h.json:1:125: syntax error while parsing value - invalid literal; last read: '..." +
            std::string(37, ']') + "} x'; expected end of input");
  // A raw newline inside a string is reported on the line of the string.
  CHECK(err("{\"sessions\": [], \"a\": \"b\nc\"}").substr(0, 14) == "h.json:1:25: s");
  // Comments are not JSON.
  CHECK(err("{\"sessions\": [] // c\n}").substr(0, 13) == "h.json:1:17: ");
}

TEST_CASE("json: structural errors name line, column and path") {
  // The example of the documentation, counted by hand.
  const char* doc =
      "{\n"
      "  \"format\": \"isosynth-history\",\n"
      "  \"sessions\": [\n"
      "    [ {\"id\": \"T1\", \"ops\": [[\"w\", \"x\", 1]]},\n"
      "      {\"id\": \"T2\",\n"
      "       \"ops\": [[\"r\", \"x\", 1],\n"
      "               [\"w\", \"y\", 2],\n"
      "               [\"x\", \"k\", 1]]} ]\n"
      "  ]\n"
      "}\n";
  CHECK(err(doc) ==
        "h.json:8:17: sessions[0][1].ops[2]: unknown operation kind \"x\" (expected \"r\", \"w\", "
        "\"d\", \"pr\", \"pw\" or \"pd\")");

  SUBCASE("top level") {
    expect_error("`[1, 2]",
                 "expected an object with a \"sessions\" field at top level, got an array");
    expect_error("\n  `{\"format\": \"isosynth-history\"}", "missing field \"sessions\"");
    expect_error("{\"sessions\": `{}}", "sessions: sessions must be an array of sessions, got an object");
    expect_error("{\"format\": `\"elle\", \"sessions\": []}",
                 "format: unknown format \"elle\" (expected \"isosynth-history\")");
    expect_error("{\"format\": `7, \"sessions\": []}",
                 "format: format must be a string, got the integer 7");
    expect_error("{\"version\": `2, \"sessions\": []}", "version: unsupported version 2 (expected 1)");
    expect_error("{\"version\": `\"1\", \"sessions\": []}",
                 "version: version must be an integer, got the string \"1\"");
    expect_error("{\"sessions\": [], `\"sessions\": []}", "duplicate field \"sessions\"");
    expect_error("{\"sessions\": [`{}]}",
                 "sessions[0]: a session must be an array of transactions, got an object");
    expect_error("{\"sessions\": [[], [`\"T1\"]]}",
                 "sessions[1][0]: a transaction must be an object, got the string \"T1\"");
  }

  SUBCASE("init") {
    expect_error("{\"init\": `[], \"sessions\": []}",
                 "init: init must be an object mapping keys to initial values, got an array");
    expect_error("{\"init\": {\"x\": 0, \"y\": `1.5}, \"sessions\": []}",
                 "init.y: initial value must be an integer, a string or null, got the number 1.5");
    expect_error("{\"init\": {\"x\": 0, `\"x\": 1}, \"sessions\": []}", "init: duplicate key \"x\"");
  }

  SUBCASE("transactions") {
    expect_error("{\"sessions\": [[{\"id\": `5, \"ops\": []}]]}",
                 "sessions[0][0].id: id must be a string, got the integer 5");
    expect_error("{\"sessions\": [[{\"id\": \"T1\", \"ops\": []}, `{\"ops\": []}]]}",
                 "sessions[0][1]: missing field \"id\"");
    expect_error("{\"sessions\": [[`{\"id\": \"T1\"}]]}", "sessions[0][0]: missing field \"ops\"");
    expect_error("{\"sessions\": [[{\"id\": \"T1\", \"ops\": `{}}]]}",
                 "sessions[0][0].ops: ops must be an array of operations, got an object");
    expect_error(
        "{\"sessions\": [\n  [{\"id\": \"T1\", \"ops\": []}],\n  [{\"id\": `\"T1\", \"ops\": []}]]}",
        "sessions[1][0].id: duplicate transaction id \"T1\" (first used at 2:11)");
    expect_error("{\"sessions\": [[{\"id\": `\"T0\", \"ops\": []}]]}",
                 "sessions[0][0].id: transaction id \"T0\" is reserved for the initial transaction");
    expect_error("{\"sessions\": [[{\"id\": `\"\", \"ops\": []}]]}",
                 "sessions[0][0].id: transaction id must not be empty");
    expect_error("{\"sessions\": [[{\"id\": \"T1\", `\"id\": \"T2\", \"ops\": []}]]}",
                 "sessions[0][0]: duplicate field \"id\"");
    expect_error("{\"sessions\": [[{\"id\": \"T1\", \"ops\": [], \"status\": `\"done\"}]]}",
                 "sessions[0][0].status: unknown status \"done\" (expected \"committed\", "
                 "\"aborted\" or \"unknown\")");
    expect_error("{\"sessions\": [[{\"id\": \"T1\", \"ops\": [], \"status\": `true}]]}",
                 "sessions[0][0].status: status must be a string, got true");
    expect_error("{\"sessions\": [[{\"id\": \"T1\", \"ops\": [], \"begin\": `1.5}]]}",
                 "sessions[0][0].begin: begin must be an integer timestamp, got the number 1.5");
    expect_error("{\"sessions\": [[{\"id\": \"T1\", \"ops\": [], \"commit\": `\"5\"}]]}",
                 "sessions[0][0].commit: commit must be an integer timestamp, got the string \"5\"");
    expect_error("{\"sessions\": [[{\"id\": \"T1\", \"ops\": [], \"begin\": 9, \"commit\": `3}]]}",
                 "sessions[0][0].commit: commit timestamp 3 is before begin timestamp 9");
  }

  SUBCASE("operations") {
    expect_error(one_txn("[\"r\", \"x\", 0], `\"r\""),
                 "sessions[0][0].ops[1]: an operation must be an array such as [\"r\", key, "
                 "value], got the string \"r\"");
    expect_error(one_txn("[`\"x\", \"k\", 1]"),
                 "sessions[0][0].ops[0]: unknown operation kind \"x\" (expected \"r\", \"w\", "
                 "\"d\", \"pr\", \"pw\" or \"pd\")");
    expect_error(one_txn("[`1, \"k\", 1]"),
                 "sessions[0][0].ops[0]: operation kind must be the string \"r\", \"w\", "
                 "\"d\", \"pr\", \"pw\" or \"pd\", got the integer 1");
    expect_error(one_txn("`[]"),
                 "sessions[0][0].ops[0]: empty operation (expected [\"r\", key, value], [\"w\", "
                 "key, value] or [\"pr\", predicate, [[key, value], ...]])");
    expect_error(one_txn("`[\"r\", \"x\"]"),
                 "sessions[0][0].ops[0]: operation has 2 elements, expected 3: [\"r\", key, value]");
    expect_error(one_txn("[\"w\", \"x\", 1, `2]"),
                 "sessions[0][0].ops[0]: too many elements in operation (expected [\"r\", key, "
                 "value])");
    expect_error(one_txn("[\"r\", `1.5, 0]"),
                 "sessions[0][0].ops[0]: key must be a string or an integer, got the number 1.5");
    expect_error(one_txn("[\"r\", `null, 0]"),
                 "sessions[0][0].ops[0]: key must be a string or an integer, got null");
    expect_error(one_txn("[\"r\", `[\"x\"], 0]"),
                 "sessions[0][0].ops[0]: key must be a string or an integer, got an array");
    expect_error(one_txn("[\"r\", \"x\", `true]"),
                 "sessions[0][0].ops[0]: value must be an integer, a string or null, got true");
    expect_error(one_txn("[\"w\", \"x\", `2.0]"),
                 "sessions[0][0].ops[0]: value must be an integer, a string or null, got the "
                 "number 2.0");
    expect_error(one_txn("[\"w\", \"x\", `1e3]"),
                 "sessions[0][0].ops[0]: value must be an integer, a string or null, got the "
                 "number 1e3");
    expect_error(one_txn("[\"w\", \"x\", `{}]"),
                 "sessions[0][0].ops[0]: value must be an integer, a string or null, got an "
                 "object");
    // Up to 2^64 - 1 (dbcop's u64 values, written back), not beyond.
    CHECK(err(one_txn("[\"w\", \"x\", 18446744073709551615]")) == "no error");
    expect_error(one_txn("[\"w\", \"x\", `18446744073709551616]"),
                 "sessions[0][0].ops[0]: value must be an integer, a string or null, got the "
                 "integer 18446744073709551616, which is out of range");
    expect_error(one_txn("[\"w\", \"x\", `-99999999999999999999]"),
                 "sessions[0][0].ops[0]: value must be an integer, a string or null, got the "
                 "integer -99999999999999999999, which is out of range");
    CHECK(err(one_txn("[\"w\", \"x\", 9223372036854775807], [\"w\", -3, -9223372036854775808]")) ==
          "no error");
  }

  SUBCASE("predicate reads") {
    expect_error(one_txn("[\"pr\", `\"x\", []]"),
                 "sessions[0][0].ops[0]: predicate \"x\": a key condition is a range [lo,hi] or "
                 "a prefix prefix:abc");
    expect_error(one_txn("[\"pr\", `\"v<null\", []]"),
                 "sessions[0][0].ops[0]: predicate \"v<null\": null compares only with = and !=");
    expect_error(one_txn("[\"d\", \"x\", `1]"),
                 "sessions[0][0].ops[0]: a delete has no value (expected [\"d\", key])");
    expect_error(one_txn("[\"pr\", `3, []]"),
                 "sessions[0][0].ops[0]: predicate must be a string such as \"[lo,hi]\", "
                 "\"prefix:abc\" or \"v<3\", got the integer 3");
    expect_error(one_txn("[\"pr\", \"[a,b]\", `{}]"),
                 "sessions[0][0].ops[0]: predicate result must be an array of [key, value] "
                 "pairs, got an object");
    expect_error(one_txn("`[\"pr\", \"[a,b]\"]"),
                 "sessions[0][0].ops[0]: operation has 2 elements, expected 3: [\"pr\", "
                 "predicate, [[key, value], ...]]");
    expect_error(one_txn("[\"pr\", \"[a,b]\", [], `1]"),
                 "sessions[0][0].ops[0]: too many elements in predicate read (expected [\"pr\", "
                 "predicate, [[key, value], ...]])");
    expect_error(one_txn("[\"pr\", \"[a,b]\", [[\"a\", 1], `\"b\"]]"),
                 "sessions[0][0].ops[0][2][1]: a predicate result entry must be a [key, value] "
                 "pair, got the string \"b\"");
    expect_error(one_txn("[\"pr\", \"[a,b]\", [`[\"a\"]]]"),
                 "sessions[0][0].ops[0][2][0]: a predicate result entry must be a [key, value] "
                 "pair, got 1 element");
    expect_error(one_txn("[\"pr\", \"[a,b]\", [[\"a\", 1, `2]]]"),
                 "sessions[0][0].ops[0][2][0]: too many elements in a predicate result entry "
                 "(expected [key, value])");
    expect_error(one_txn("[\"pr\", \"[a,b]\", [[\"a\", 1], [`\"a\", 2]]]"),
                 "sessions[0][0].ops[0][2][1]: key a appears twice in the predicate result");
    expect_error(one_txn("[\"pr\", \"prefix:a\", [[\"a\", `0.5]]]"),
                 "sessions[0][0].ops[0][2][0]: value must be an integer, a string or null, got "
                 "the number 0.5");
  }
}

TEST_CASE("json: nesting is bounded") {
  // The root object is level 1; the 64th '[' opens level 65.
  std::string deep = "{\"x\": " + std::string(70, '[') + std::string(70, ']') + ", \"sessions\": []}";
  std::string e = err(deep);
  CHECK(e.substr(0, 20) == "h.json:1:70: x[0][0]");
  CHECK(e.find(": nesting deeper than 64 levels") != std::string::npos);
  // 63 nested arrays inside the root are fine.
  CHECK(err("{\"x\": " + std::string(63, '[') + std::string(63, ']') + ", \"sessions\": []}") ==
        "no error");
  // Very deep input fails cleanly instead of exhausting the stack.
  std::string huge = "{\"x\": " + std::string(200000, '[') + std::string(200000, ']') + "}";
  CHECK(err(huge).find("nesting deeper than 64 levels") != std::string::npos);
}

TEST_CASE("json: files") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / fmt::format("isosynth-json-test-{}", ::getpid());
  fs::create_directories(dir);

  fs::path missing = dir / "missing.json";
  try {
    read_native_json_file(missing.string());
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == missing.string() + ": cannot open (No such file or directory)");
  }
  try {
    read_native_json_file(dir.string());
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == dir.string() + ": cannot open (Is a directory)");
  }

  fs::path good = dir / "good.json";
  std::ofstream(good) << "{\"sessions\": [[{\"id\": \"T1\", \"ops\": [[\"w\", \"x\", 1]]}]]}";
  History h = read_native_json_file(good.string());
  CHECK(h.num_txns() == 2);

  fs::path bad = dir / "bad.json";
  std::ofstream(bad) << "{\"sessions\": [[{\"id\": \"T1\",\n  \"ops\": 3}]]}";
  try {
    read_native_json_file(bad.string());
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == bad.string() +
                                       ":2:10: sessions[0][0].ops: ops must be an array of "
                                       "operations, got the integer 3");
  }

  // A sparse file just over the limit is rejected before it is read.
  fs::path big = dir / "big.json";
  std::ofstream(big).close();
  fs::resize_file(big, kMaxNativeJsonBytes + 1);
  try {
    read_native_json_file(big.string());
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == big.string() + ": input is larger than 1073741824 bytes (1 GiB)");
  }
  fs::remove_all(dir);
}

// --- list reads, the initial state, and every reader's histories --------------------

namespace {

// What a history means, spelled by key and value text so that two histories
// interned in different orders compare equal: T0's writes, then every
// transaction with its status, timestamps and operations (list reads with
// their lists).
std::string meaning(const History& h) {
  std::vector<std::string> keys;
  for (KeyId k = 0; k < h.keys().size(); ++k)
    if (h.t0_writes(k))
      keys.push_back(fmt::format("{}{}={}", h.key_text(k), h.keys()[k].integer ? "#" : "",
                                 h.value_text(h.init_value(k))));
  std::sort(keys.begin(), keys.end());
  std::string out = fmt::format("T0 {}:", h.initial_writes() == InitialWrites::EveryKey
                                              ? "every key"
                                              : "explicit only");
  for (const auto& k : keys) out += " " + k;
  out += "\n";
  for (std::size_t s = 0; s < h.sessions().size(); ++s)
    for (TxnId t : h.sessions()[s]) {
      const Transaction& x = h.txn(t);
      out += fmt::format("{} s{}.{} status {} begin {} commit {}:", x.name, s, x.position,
                         static_cast<int>(x.status), x.begin ? std::to_string(*x.begin) : "-",
                         x.commit ? std::to_string(*x.commit) : "-");
      for (const Op& op : x.ops) {
        if (op.kind == OpKind::PredicateRead) {
          const PredicateRead& pr = h.predicate_reads()[op.predicate];
          out += " pr(" + pr.predicate;
          for (const auto& [k, v] : pr.result) out += " " + h.key_text(k) + "=" + h.value_text(v);
          out += ")";
          continue;
        }
        out += fmt::format(" {}({},{}", op.kind == OpKind::Write ? 'w' : 'r', h.key_text(op.key),
                           h.value_text(op.value));
        if (op.list != kNoList) {
          out += ",[";
          for (ValueId v : h.lists()[op.list]) out += h.value_text(v) + " ";
          out += "]";
        }
        out += ")";
      }
      out += "\n";
    }
  return out;
}

History round_trip(const History& h) {
  return read_native_json(write_native_json(h).dump(), "round.json");
}

}  // namespace

TEST_CASE("json: list reads") {
  const std::string text = R"({"sessions": [[{"id": "A", "ops": [
    ["w", "x", 1], ["r", "x", [1]], ["r", "y", []], ["r", "z", [3, "s", null]]]}]],
    "init": {"y": 7}})";
  History h = read_native_json(text, "h.json");
  const Transaction& a = h.txn(1);
  REQUIRE(a.ops.size() == 4);
  CHECK(a.ops[0].list == kNoList);
  REQUIRE(a.ops[1].list != kNoList);
  CHECK(h.value_text(a.ops[1].value) == "1");   // the last element
  CHECK(h.value_text(a.ops[2].value) == "7");   // the empty list: y's initial value
  CHECK(h.lists()[a.ops[2].list].empty());
  CHECK(h.value_text(a.ops[3].value) == "null");
  CHECK(h.lists()[a.ops[3].list].size() == 3);
  CHECK(write_native_json(h)["sessions"][0][0]["ops"][3].dump() == R"(["r","z",[3,"s",null]])");
  CHECK(meaning(round_trip(h)) == meaning(h));
  // The empty list under an initial state that does not write the key reads
  // a version nobody installed: null, like Elle's nil.
  History n = read_native_json(R"({"initial_state": "explicit-only", "sessions": [[
    {"id": "A", "ops": [["r", "q", []]]}]]})",
                               "h.json");
  CHECK(n.value_text(n.txn(1).ops[0].value) == "null");

  expect_error(one_txn(R"(["r", "x", [1, `1.5]])"),
               "sessions[0][0].ops[0][2][1]: a list element must be an integer, a string or null "
               "(expected [\"r\", key, [v1, v2, ...]]), got the number 1.5");
  expect_error(one_txn(R"(["r", "x", [`[1]]])"),
               "sessions[0][0].ops[0][2][0]: a list element must be an integer, a string or null "
               "(expected [\"r\", key, [v1, v2, ...]]), got an array");
  expect_error(one_txn(R"(["w", "x", `[1]])"),
               "sessions[0][0].ops[0]: value must be an integer, a string or null, got an array");
  expect_error(one_txn(R"(["r", "x", [1], `2])"),
               "sessions[0][0].ops[0]: too many elements in operation (expected [\"r\", key, "
               "value])");
}

TEST_CASE("json: the history of every reader round-trips with the same meaning") {
  const std::string data = std::string(ISOSYNTH_SHARED_DIR) + "/data/histories/";
  if (!std::filesystem::is_directory(data)) return;
  struct Case {
    const char* path;
    InitMode init;
  };
  for (const Case& c : {
           Case{"elle/paper-example.edn", InitMode::Auto},          // list reads
           Case{"elle-cli/rw-register.json", InitMode::None},       // no initial state
           Case{"awdit-test/none/hb-cycle.txt", InitMode::Auto},    // none
           Case{"awdit-test/causal/long-fork.txt", InitMode::Explicit},
           Case{"polysi-text/isovista-postgres-ser-bug.txt", InitMode::Auto},  // explicit
           Case{"polysi-text/galera-si-violation.txt", InitMode::Auto},
           Case{"dbcop/dgraph-si-violation", InitMode::Auto},       // aborted transactions
           Case{"cobra/cock-blog", InitMode::None},
           Case{"viper-json/postgres-1000", InitMode::Auto},        // timestamps, inferred init
       }) {
    CAPTURE(c.path);
    ReadResult r = read_history_path(data + c.path, std::nullopt, ReadOptions{c.init});
    History back = round_trip(r.history);
    CHECK(meaning(back) == meaning(r.history));
    CHECK(write_native_json(back) == write_native_json(r.history));
  }
  // IsoPredict's logged initial transaction, and an unfinished Elle
  // transaction with timestamps.
  for (const ReadResult& r :
       {read_isopredict("WRITE KEY[x] Txn(0, 0)\nREAD KEY[x] Txn(1, 0) From(0, 0)\n", "i", {}),
        read_elle_edn("{:type :invoke, :f :txn, :value [[:append 1 2]], :process 0, :time 5}\n"
                      "{:type :ok, :f :txn, :value [[:r 1 [2]]], :process 1, :time 9}\n",
                      "e", {})}) {
    CHECK(meaning(round_trip(r.history)) == meaning(r.history));
  }
}

TEST_CASE("json: an integer key is written as an integer only in its own spelling") {
  History h;
  SessionId s = h.add_session();
  TxnId t = h.add_txn(s, "A");
  h.add_write(t, h.intern_key("007", true), h.intern_value(Value{std::int64_t{1}}));
  h.add_write(t, h.intern_key("7", true), h.intern_value(Value{std::int64_t{2}}));
  nlohmann::json j = write_native_json(h);
  CHECK(j["sessions"][0][0]["ops"].dump() == R"([["w","007",1],["w",7,2]])");
  // "007" comes back as a string key: the same key, since keys are their text.
  CHECK(write_native_json(round_trip(h)) == j);
}
