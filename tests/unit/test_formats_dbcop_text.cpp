// The readers of the current dbcop's JSON and .hist text (dbcop_text.cpp):
// every one of dbcop's unit-test histories in ../shared/data/histories/
// dbcop-tests reads, from either format, as the same history as its native
// transcription; dbcop's meaning of reads without a version and of version 0;
// the --init modes; the shapes serde accepts; and one-line errors for
// malformed input.
#include <doctest/doctest.h>

#include "tests/unit/format_helpers.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/decide/decide.hpp"
#include "engine/history/formats/formats.hpp"
#include "lua/spec_library.hpp"

using namespace iso;

namespace {

const std::string kSamples = std::string(ISOSYNTH_SHARED_DIR) + "/data/histories/dbcop-tests/";

std::vector<std::string> sample_names() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(kSamples + "native"))
    names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string op_text(const History& h, const Op& op) {
  const char* kind = op.kind == OpKind::Write ? "w" : op.kind == OpKind::Read ? "r" : "pr";
  return fmt::format("{}({}{},{})", kind, h.key_text(op.key), h.keys()[op.key].integer ? "#" : "",
                     h.value_text(op.value));
}

std::string init_text(const History& h, KeyId k) {
  return h.t0_writes(k) ? h.value_text(h.init_value(k)) : "(not written)";
}

// The first way in which `got` differs from `want`, or "" when both have the
// same sessions (empty ones too), the same transactions in session order
// (name, status), the same operations in program order (kind, key, value),
// and the same initial state (which keys T0 writes, with which values).
std::string difference(const History& got, const History& want) {
  if (got.sessions().size() != want.sessions().size())
    return fmt::format("{} sessions, want {}", got.sessions().size(), want.sessions().size());
  for (std::size_t s = 0; s < want.sessions().size(); ++s) {
    const auto& gs = got.sessions()[s];
    const auto& ws = want.sessions()[s];
    if (gs.size() != ws.size())
      return fmt::format("session {}: {} transactions, want {}", s + 1, gs.size(), ws.size());
    for (std::size_t i = 0; i < ws.size(); ++i) {
      const Transaction& g = got.txn(gs[i]);
      const Transaction& w = want.txn(ws[i]);
      if (g.name != w.name) return fmt::format("transaction {}, want {}", g.name, w.name);
      if (g.status != w.status) return fmt::format("{}: status differs", w.name);
      if (g.ops.size() != w.ops.size())
        return fmt::format("{}: {} operations, want {}", w.name, g.ops.size(), w.ops.size());
      for (std::size_t o = 0; o < w.ops.size(); ++o) {
        std::string a = op_text(got, g.ops[o]), b = op_text(want, w.ops[o]);
        if (a != b) return fmt::format("{} operation {}: {}, want {}", w.name, o, a, b);
      }
    }
  }
  if (got.keys().size() != want.keys().size())
    return fmt::format("{} keys, want {}", got.keys().size(), want.keys().size());
  for (KeyId k = 0; k < want.keys().size(); ++k) {
    auto gk = got.find_key(want.keys()[k].text);
    if (!gk) return fmt::format("no key {}", want.key_text(k));
    if (init_text(got, *gk) != init_text(want, k))
      return fmt::format("key {} starts at {}, want {}", want.key_text(k), init_text(got, *gk),
                         init_text(want, k));
  }
  if (got.initial_writes() != want.initial_writes()) return "T0 writes other keys";
  return "";
}

ReadResult native(const std::string& name) {
  return read_history_path(kSamples + "native/" + name + ".json", Format::Native, {});
}

// What reading `text` in `f` says: the error message, or "ok".
std::string message(Format f, const std::string& text, InitMode init = InitMode::Auto) {
  try {
    ReadOptions o{init};
    if (f == Format::DbcopJson) read_dbcop_json(text, "h", o);
    else read_dbcop_hist(text, "h", o);
  } catch (const InputError& e) {
    return e.what();
  }
  return "ok";
}

ReadResult hist(const std::string& text, InitMode init = InitMode::Auto) {
  return read_dbcop_hist(text, "h", ReadOptions{init});
}
ReadResult json(const std::string& text, InitMode init = InitMode::Auto) {
  return read_dbcop_json(text, "h", ReadOptions{init});
}

// The operations of a history in order, as text: "S1T0: w(x,1) r(y,0) | ...".
std::string ops(const History& h) {
  std::string out;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const Transaction& x = h.txn(t);
    out += fmt::format("{}{}{}:", out.empty() ? "" : " | ", x.name,
                       x.status == TxnStatus::Aborted ? "!" : "");
    for (const Op& op : x.ops) out += " " + op_text(h, op);
  }
  return out;
}

struct Case {
  const char* text;
  const char* message;
};

// Each text read in `f` gives exactly its message.
void expect_messages(Format f, std::initializer_list<Case> cases) {
  for (const Case& c : cases) {
    CAPTURE(c.text);
    CHECK(message(f, c.text) == c.message);
  }
}

}  // namespace

TEST_CASE("dbcop-json and dbcop-hist: the 37 unit-test histories read as their native form") {
  const auto names = sample_names();
  REQUIRE(names.size() == 37);
  for (const auto& name : names) {
    CAPTURE(name);
    History want = native(name).history;
    // dbcop's x==0 reads the write of 0 when there is one, never the initial
    // state: the variable starts at null, which no read of 0 returns.
    if (name == "version_zero_explicit_writer") want.set_init(*want.find_key("x"), want.intern_value(Value{}));

    ReadResult j = read_history_path(kSamples + "dbcop-json/" + name + ".json", std::nullopt, {});
    CHECK(j.format == Format::DbcopJson);
    CHECK(j.initial_state == InitialState::Implicit);
    CHECK(difference(j.history, want) == "");

    ReadResult t = read_history_path(kSamples + "dbcop-hist/" + name + ".hist", std::nullopt, {});
    CHECK(t.format == Format::DbcopHist);
    CHECK(t.initial_state == InitialState::Implicit);
    if (name == "empty_history") {
      // dbcop's parser reads a text without transactions as one empty
      // session (history = session ("---" session)*).
      CHECK(t.history.sessions().size() == 1);
      CHECK(t.history.num_txns() == 1);
      CHECK(want.sessions().empty());
    } else {
      CHECK(difference(t.history, want) == "");
    }
    for (const auto& txn : t.history.txns())
      for (const Op& op : txn.ops) CHECK(op.line > 0);
  }
}

TEST_CASE("dbcop-json and dbcop-hist: detected from their content") {
  for (const auto& name : sample_names()) {
    CAPTURE(name);
    CHECK(detect_format_bytes(bytes_of(kSamples + "dbcop-json/" + name + ".json"), "input") ==
          Format::DbcopJson);
    const std::string text = bytes_of(kSamples + "dbcop-hist/" + name + ".hist");
    if (name == "empty_history") {
      // A blank line says nothing; the extension does.
      CHECK_THROWS_AS(detect_format_bytes(text, "input"), InputError);
      CHECK(detect_format_bytes(text, "empty.hist") == Format::DbcopHist);
    } else {
      CHECK(detect_format_bytes(text, "input") == Format::DbcopHist);
    }
  }
  CHECK(detect_format_bytes("// a comment\n\n  [ x==? y:=1]!\n", "in") == Format::DbcopHist);
  CHECK(detect_format_bytes("---\n[x:=1]\n", "in") == Format::DbcopHist);
  CHECK(detect_format_bytes("{\"params\": {\"id\": 0}, \"data\": []}", "in") ==
        Format::DbcopJson);
  CHECK(detect_format_bytes("[[{\"events\": [[\"w\", 0, 1]], \"committed\": true}]]", "in") ==
        Format::DbcopJson);
  // The other formats keep their detection.
  CHECK(detect_format_bytes("-----\nr 1 2\n", "in") == Format::Awdit);
  CHECK(detect_format_bytes("[{\"type\": \"ok\"}]", "in") == Format::ElleJson);
  CHECK(detect_format_bytes("[{:type :ok}]", "in") == Format::ElleEdn);
  CHECK(format_name(Format::DbcopJson) == "dbcop-json");
  CHECK(parse_format_name("dbcop-hist") == Format::DbcopHist);
}

TEST_CASE("dbcop-hist: names, statuses, lines and sessions") {
  ReadResult r = hist("// session 1\n[x:=1 y:=1] [z==2 z:=3]\n[y:=3]!\n---\n---\n"
                      "// session 3\n[a==1 b:=3][c==?]\n");
  const History& h = r.history;
  CHECK(ops(h) == "S1T0: w(x,1) w(y,1) | S1T1: r(z,2) w(z,3) | S1T2!: w(y,3) | "
                  "S3T0: r(a,1) w(b,3) | S3T1: r(c,0)");
  REQUIRE(h.sessions().size() == 3);
  CHECK(h.sessions()[1].empty());
  CHECK(h.txn(2).ops[1].line == 2);
  CHECK(h.txn(3).ops[0].line == 3);
  CHECK(h.txn(5).ops[0].line == 7);
  CHECK(count_notes(r, "dbcop .hist history: 3 sessions, 5 transactions (1 not committed)") == 1);
  CHECK(count_notes(r, "1 read of the uninitialized variable (x==?)") == 1);
  // A trailing separator starts an empty session, as in dbcop.
  CHECK(hist("[x:=1]\n---\n").history.sessions().size() == 2);
  // Leniencies: no final newline, CRLF, blanks inside brackets, indented comments.
  CHECK(ops(hist("  // c\r\n[ x:=1 ]\r\n[x==1]").history) == "S1T0: w(x,1) | S1T1: r(x,1)");
}

TEST_CASE("dbcop-json: every shape serde accepts reads alike") {
  const std::string tagged = R"([[{"events": [{"Write": {"variable": "x", "version": 1}},
      {"Read": {"variable": "y", "version": null}}], "committed": false}],
      [{"committed": true, "events": [{"Read": {"version": 1, "variable": "x"}}]}]])";
  const std::string compact = R"([[{"events": [["w", "x", 1], ["r", "y", null]],
      "committed": false}], [[[["r", "x", 1]], true]]])";
  const std::string fields = R"([[{"events": [{"Write": ["x", 1]}, {"Read": {"variable": "y"}}],
      "committed": false, "note": [1, {"a": 2}]}], [{"events": [{"Read": ["x", 1]}],
      "committed": true}]])";
  const std::string wrapped = R"({"params": {"id": 3, "n_node": 2}, "info": "generated",
      "start": "2025-01-01T00:00:00Z", "end": "2025-01-01T00:00:01Z", "data": )" + tagged + "}";
  const std::string want = "S1T0!: w(x,1) r(y,0) | S2T0: r(x,1)";
  CHECK(ops(json(tagged).history) == want);
  CHECK(ops(json(compact).history) == want);
  CHECK(ops(json(fields).history) == want);
  ReadResult w = json(wrapped);
  CHECK(ops(w.history) == want);
  CHECK(count_notes(w, "the dbcop CLI's history \"generated\" recorded from "
                       "\"2025-01-01T00:00:00Z\" to \"2025-01-01T00:00:01Z\"") == 1);
  // The CLI's and the WASM API's variables are integers.
  ReadResult ints = json(R"([[{"events": [["w", 0, 1], ["r", 1, 0]], "committed": true}]])");
  CHECK(ops(ints.history) == "S1T0: w(0#,1) r(1#,0)");
}

TEST_CASE("dbcop: a read without a version reads the initial state, a read of 0 the write of 0") {
  // dbcop's get_all_writes: x==? reads the root; x==0 reads x:=0 when a
  // transaction writes it, committed or not, and the root otherwise.
  ReadResult r = hist("[x:=0]!\n---\n[x==0 y==0]\n---\n[x==? y==?]\n");
  const History& h = r.history;
  CHECK(ops(h) == "S1T0!: w(x,0) | S2T0: r(x,0) r(y,0) | S3T0: r(x,null) r(y,0)");
  CHECK(init_text(h, *h.find_key("x")) == "null");
  CHECK(init_text(h, *h.find_key("y")) == "0");
  CHECK(count_notes(r, "1 variable that a transaction writes 0 to start at null") == 1);
  // The same from JSON.
  ReadResult j = json(R"([[{"events": [["w", "x", 0]], "committed": false}],
      [{"events": [["r", "x", 0], ["r", "y", 0]], "committed": true}],
      [{"events": [["r", "x", null], ["r", "y", null]], "committed": true}]])");
  CHECK(difference(j.history, h) == "");
  // --init implicit is dbcop's convention too.
  CHECK(difference(hist("[x:=0]!\n---\n[x==0 y==0]\n---\n[x==? y==?]\n", InitMode::Implicit)
                       .history,
                   h) == "");
  // Two writes of one version: dbcop refuses the history; a note says so.
  ReadResult twice = hist("[x:=1]\n---\n[x:=1]\n");
  CHECK(count_notes(twice, "1 write writes a version that another write gave the same "
                           "variable; dbcop refuses such histories (SameVersionWrite)") == 1);
}

TEST_CASE("dbcop: where a transaction writes 0, dbcop's verdict needs the read of 0 to read it") {
  // S2T0 reads x==0, which dbcop takes from S1T1 (not the root), after S1T0
  // in session order: it must then see S1T0's y:=1, and its y==0 (the root)
  // violates causal consistency. Were x==0 a read of T0's 0 as well, S2T0
  // could read both from T0 and CC would allow the history.
  static lua::SpecLibrary library;
  auto allowed = [](const History& h) {
    return decide(h, library.level("biswas.CC")).verdict == Verdict::Allowed;
  };
  History h = hist("[y:=1] [x:=0]\n---\n[x==0 y==0]\n").history;
  CHECK(!allowed(h));
  h.set_init(*h.find_key("x"), h.intern_value(Value{std::int64_t{0}}));
  CHECK(allowed(h));
}

TEST_CASE("dbcop: --init none and explicit") {
  const std::string text = "[x:=0 y:=0]\n[x==0 x:=1]\n---\n[y==? x==1]\n";
  ReadResult none = hist(text, InitMode::None);
  CHECK(none.initial_state == InitialState::None);
  CHECK(none.history.initial_writes() == InitialWrites::ExplicitOnly);
  CHECK(ops(none.history) ==
        "S1T0: w(x,0) w(y,0) | S1T1: r(x,0) w(x,1) | S2T0: r(y,null) r(x,1)");
  CHECK(count_notes(none, "initial state: none (--init none)") == 1);

  // dbcop's generator writes version 0 of every variable first: T0.
  ReadResult ex = hist(text, InitMode::Explicit);
  CHECK(ex.initial_state == InitialState::Explicit);
  CHECK(ex.explicit_init);
  const History& h = ex.history;
  CHECK(ops(h) == "S1T1: r(x,0) w(x,1) | S2T0: r(y,0) r(x,1)");
  CHECK(init_text(h, *h.find_key("x")) == "0");
  CHECK(init_text(h, *h.find_key("y")) == "0");
  CHECK(count_notes(ex, "the first transaction S1T0 is T0; T0 writes only its 2 variables") == 1);
  // A variable the first transaction does not write has no initial version.
  CHECK(ops(hist("[x:=0]\n[z==?]\n", InitMode::Explicit).history) == "S1T1: r(z,null)");
  // The same from JSON, an empty first session aside.
  ReadResult jx = json(R"([[], [{"events": [["w", "x", 0], ["w", "y", 0]], "committed": true},
      {"events": [["r", "x", 0], ["w", "x", 1]], "committed": true}],
      [{"events": [["r", "y", null], ["r", "x", 1]], "committed": true}]])",
                       InitMode::Explicit);
  CHECK(ops(jx.history) == "S2T1: r(x,0) w(x,1) | S3T0: r(y,0) r(x,1)");

  CHECK(message(Format::DbcopHist, "\n[x:=0 y==0]\n", InitMode::Explicit) ==
        "h:2:7: --init explicit: the first transaction S1T0 cannot be the initial state because "
        "it reads");
  CHECK(message(Format::DbcopHist, "---\n [x:=0]!\n", InitMode::Explicit) ==
        "h:2:2: --init explicit: the first transaction S2T0 cannot be the initial state because "
        "it did not commit");
  CHECK(message(Format::DbcopJson, "[[{\"events\": [[\"w\", \"x\", 0],\n [\"r\", \"x\", 0]], "
                                   "\"committed\": true}]]",
                InitMode::Explicit) ==
        "h:2:2: [0][0].events[1]: --init explicit: the first transaction S1T0 cannot be the "
        "initial state because it reads");
  CHECK(hist("", InitMode::Explicit).initial_state == InitialState::Explicit);
}

TEST_CASE("dbcop-hist: malformed input gives one line with its position") {
  expect_messages(Format::DbcopHist, {
           Case{"[x:=1", "h:1:6: unexpected end of line: expected ']' to close the transaction "
                         "opened at column 1"},
           Case{"[]", "h:1:2: an empty transaction: a transaction holds one event or more"},
           Case{"[x=1]", "h:1:3: expected ':=' (a write), '==' (a read) or '==?' (a read of the "
                         "uninitialized variable) after the variable x"},
           Case{"[x:=1y:=2]", "h:1:6: expected a blank or ']' after the event"},
           Case{"[x:=]", "h:1:5: expected an integer as the version"},
           Case{"[x:=-1]", "h:1:5: expected a non-negative integer as the version"},
           Case{"[x:=18446744073709551616]",
                "h:1:5: the version is out of range (at most 18446744073709551615)"},
           Case{"[\xc3\xa9:=1]", "h:1:2: variable names of other than ASCII letters, digits and "
                                 "'_' are not supported"},
           Case{"[x:=1] // c", "h:1:8: a comment must be on a line of its own"},
           Case{"[x:=1] y", "h:1:8: expected another transaction '[...]' or the end of the line"},
           Case{"[x:=1] !", "h:1:8: expected another transaction '[...]' or the end of the line"},
           Case{"\n x:=1", "h:2:2: expected a transaction '[...]', a session separator '---' "
                           "or a comment '//'"},
           Case{"--- x", "h:1:5: unexpected text after the session separator (a line of dashes)"},
           Case{"[==1]", "h:1:2: expected an event: a variable (letters, digits, '_') and ':=' "
                         "(a write), '==' (a read) or '==?' (a read of the uninitialized "
                         "variable)"},
  });
}

TEST_CASE("dbcop-json: malformed input gives one line with its position and path") {
  expect_messages(Format::DbcopJson, {
           Case{"", "h:1:1: syntax error while parsing value - unexpected end of input; "
                    "expected '[', '{', or a literal"},
           Case{"[[{\"events\": [], \"committed\": true}]] x",
                "h:1:39: syntax error while parsing value - invalid literal"},
           Case{"3", "h:1:1: expected an array of sessions, or an object with \"data\", got 3"},
           Case{"{\"params\": {}}", "h:1:1: missing field \"data\" (the sessions)"},
           Case{"[{}]", "h:1:2: [0]: a session must be an array of transactions, got an object"},
           Case{"[[1]]", "h:1:3: [0][0]: a transaction must be {\"events\": [...], \"committed\": "
                         "true|false}, got 1"},
           Case{"[[{\"events\": []}]]", "h:1:3: [0][0]: missing field \"committed\""},
           Case{"[[{\"committed\": true}]]", "h:1:3: [0][0]: missing field \"events\""},
           Case{"[[{\"events\": [], \"committed\": 1}]]",
                "h:1:31: [0][0].committed: \"committed\" must be true or false, got 1"},
           Case{"[[{\"events\": [], \"events\": [], \"committed\": true}]]",
                "h:1:18: [0][0].events: duplicate field \"events\""},
           Case{"[[[[], true, 1]]]",
                "h:1:14: [0][0][2]: too many elements in a transaction (expected [events, "
                "committed])"},
           Case{"[[[[]]]]", "h:1:3: [0][0]: a transaction array has 2 elements [events, "
                            "committed], not 1"},
           Case{"[[{\"events\": [{}], \"committed\": true}]]",
                "h:1:15: [0][0].events[0]: an empty event (expected {\"Read\": {...}} or "
                "{\"Write\": {...}})"},
           Case{"[[{\"events\": [{\"Delete\": {}}], \"committed\": true}]]",
                "h:1:16: [0][0].events[0].Delete: unknown event \"Delete\" (expected \"Read\" "
                "or \"Write\")"},
           Case{"[[{\"events\": [{\"Read\": {\"variable\": \"x\"}, \"Write\": {}}], "
                "\"committed\": true}]]",
                "h:1:43: [0][0].events[0].Write: an event has one key, \"Read\" or \"Write\""},
           Case{"[[{\"events\": [{\"Write\": {\"variable\": \"x\"}}], \"committed\": true}]]",
                "h:1:25: [0][0].events[0].Write: missing field \"version\""},
           Case{"[[{\"events\": [{\"Write\": {\"variable\": \"x\", \"version\": null}}], "
                "\"committed\": true}]]",
                "h:1:54: [0][0].events[0].Write.version: a write's version must be a "
                "non-negative integer, got null"},
           Case{"[[{\"events\": [[\"r\", \"x\", -1]], \"committed\": true}]]",
                "h:1:26: [0][0].events[0][2]: a read's version must be a non-negative integer "
                "or null, got -1"},
           Case{"[[{\"events\": [[\"r\", \"x\", 1.5]], \"committed\": true}]]",
                "h:1:26: [0][0].events[0][2]: a read's version must be a non-negative integer "
                "or null, got 1.5"},
           Case{"[[{\"events\": [[\"r\", \"x\", 99999999999999999999]], \"committed\": true}]]",
                "h:1:26: [0][0].events[0][2]: version 99999999999999999999 is out of range (at "
                "most 18446744073709551615)"},
           Case{"[[{\"events\": [[\"d\", \"x\", 1]], \"committed\": true}]]",
                "h:1:16: [0][0].events[0][0]: expected the event kind \"r\" or \"w\", got the "
                "string \"d\""},
           Case{"[[{\"events\": [[\"r\", \"x\"]], \"committed\": true}]]",
                "h:1:15: [0][0].events[0]: an event array has 3 elements [\"r\" or \"w\", "
                "variable, version], not 2"},
           Case{"[[{\"events\": [[\"r\", -3, 1]], \"committed\": true}]]",
                "h:1:21: [0][0].events[0][1]: a variable must be a string or a non-negative "
                "integer, got -3"},
           Case{"[[{\"events\": [[\"w\", \"x\", 1],\n [\"r\", 0, 1]], \"committed\": true}]]",
                "h:2:8: [0][0].events[1][1]: variables must be all strings or all integers "
                "(dbcop reads one type), but this one is an integer and the first one, at "
                "1:21, is a string"},
           Case{"[[{\"events\": 5, \"committed\": true}]]",
                "h:1:14: [0][0].events: the events must be an array, got 5"},
           Case{"{\"data\": {}}",
                "h:1:10: data: \"data\" must be an array of sessions, got an object"},
  });
  // Deep nesting is refused before it costs anything.
  std::string deep = "{\"x\": " + std::string(100, '[');
  CHECK(message(Format::DbcopJson, deep).starts_with("h:1:"));
  CHECK(message(Format::DbcopJson, deep).find("nesting deeper than 64 levels") !=
        std::string::npos);
}

TEST_CASE("dbcop-json and dbcop-hist: every prefix of every sample reads or fails in one line") {
  for (const auto& name : sample_names()) {
    for (const auto& [f, path] : {std::pair{Format::DbcopJson, "dbcop-json/" + name + ".json"},
                                  std::pair{Format::DbcopHist, "dbcop-hist/" + name + ".hist"}}) {
      const std::string bytes = bytes_of(kSamples + path);
      for (std::size_t n = 0; n <= bytes.size(); ++n) {
        std::string m = message(f, bytes.substr(0, n));
        if (m == "ok") continue;
        CAPTURE(path);
        CAPTURE(n);
        CHECK(m.starts_with("h:"));
        CHECK(m.find('\n') == std::string::npos);
      }
    }
  }
}
