// The reader of Chronos/Aion JSON (chronos.cpp, FORMATS.md §9): the two
// samples of ../shared/data/histories/chronos read with the database's
// timestamps and Chronos's sessions; detection; integers spelled as strings;
// key-value and list-append operations; the initial state (--init, and the
// initial value Chronos's --initial_value gives); and one-line errors with
// their position for malformed input.
#include <doctest/doctest.h>

#include "tests/unit/format_helpers.hpp"
#include "tests/unit/shared_data.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/history/abstract.hpp"
#include "engine/history/formats/formats.hpp"

using namespace iso;

namespace {

const std::string kDir = std::string(ISOSYNTH_SHARED_DIR) + "/data/histories/chronos/";
const std::string kKv = kDir + "format-kv.json";
const std::string kList = kDir + "format-list.json";

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ReadResult chronos(const std::string& text, InitMode init = InitMode::Auto,
                   std::optional<std::int64_t> initial_value = std::nullopt) {
  ReadOptions o{init};
  o.initial_value = initial_value;
  return read_chronos(text, "h", o);
}

// What reading `text` says: the error message, or "ok".
std::string message(const std::string& text, InitMode init = InitMode::Auto) {
  const std::string m = message_of([&] { chronos(text, init); });
  return m == "no error" ? "ok" : m;
}

// The operations of a history in order, as text: "a@s: w(1,10) r(2,null) | ...",
// a list read as r(k,[e1 e2]).
std::string ops(const History& h) {
  std::string out;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const Transaction& x = h.txn(t);
    out += fmt::format("{}{}@{}:", out.empty() ? "" : " | ", x.name, x.session);
    for (const Op& op : x.ops) {
      std::string value = h.value_text(op.value);
      if (op.list != kNoList) {
        std::vector<std::string> elements;
        for (ValueId v : h.lists()[op.list]) elements.push_back(h.value_text(v));
        value = fmt::format("[{}]->{}", fmt::join(elements, " "), value);
      }
      out += fmt::format(" {}({},{})", op.kind == OpKind::Write ? "w" : "r", h.key_text(op.key),
                         value);
    }
  }
  return out;
}

std::size_t thin_air_reads(const History& h) {
  const AbstractHistory a = abstract_history(h);
  return static_cast<std::size_t>(
      std::count_if(a.unjustified_reads.begin(), a.unjustified_reads.end(),
                    [](const UnjustifiedRead& r) { return r.kind == ReadAnomaly::ThinAir; }));
}

// A transaction of the given fields and operations.
std::string txn(const std::string& tid, const std::string& ops_json, std::int64_t sts = 1,
                std::int64_t cts = 2, const std::string& sid = "1") {
  return fmt::format(R"({{"tid": {}, "sid": {}, "sts": {{"p": {}, "l": 0}}, )"
                     R"("cts": {{"p": {}, "l": 0}}, "ops": [{}]}})",
                     tid, sid, sts, cts, ops_json);
}

struct Case {
  std::string text;
  std::string message;
};

}  // namespace

TEST_CASE("chronos: the two samples read, with the database's timestamps and 50 sessions") {
  require_shared(kKv);
  for (const std::string& path : {kKv, kList}) {
    CAPTURE(path);
    ReadResult r = read_history_path(path, std::nullopt, {});
    CHECK(r.format == Format::Chronos);
    CHECK(r.initial_state == InitialState::Implicit);
    const History& h = r.history;
    CHECK(h.num_txns() == 1001);
    CHECK(h.sessions().size() == 50);
    for (TxnId t = 1; t < h.num_txns(); ++t) {
      const Transaction& x = h.txn(t);
      CHECK(x.status == TxnStatus::Committed);
      REQUIRE(x.start_ts);
      REQUIRE(x.commit_ts);
      CHECK(*x.start_ts <= *x.commit_ts);
      CHECK(!x.begin);
      CHECK(!x.commit);
      for (const Op& op : x.ops) CHECK(op.line > 0);
    }
    // Sessions in order of first appearance, each in file order.
    CHECK(h.txn(1).session == 0);
    for (const auto& s : h.sessions()) CHECK(std::is_sorted(s.begin(), s.end()));
    CHECK(count_notes(r, "sts and cts are the database's own start and commit timestamps") == 1);
  }
  ReadResult kv = read_history_path(kKv, std::nullopt, {});
  const History& h = kv.history;
  CHECK(h.txn(1).name == "50");
  CHECK(*h.txn(1).start_ts == DbTimestamp{320316484, 0});
  CHECK(*h.txn(1).commit_ts == DbTimestamp{320316486, 0});
  CHECK(h.txn(1).ops[0].line == 8);
  CHECK(!h.has_list_reads());
  CHECK(count_notes(kv, "Chronos JSON history, key-value: 1000 transactions, 50 sessions, 999 "
                        "keys") == 1);
  CHECK(init_note(kv) == "initial state: implicit (--init auto): T0 writes null to every key "
                         "(Chronos's default initial value; --initial-value gives another)");

  ReadResult list = read_history_path(kList, std::nullopt, {});
  CHECK(list.history.txn(1).name == "0");
  CHECK(list.history.has_list_reads());
  CHECK(count_notes(list, "Chronos JSON history, list-append: 1000 transactions, 50 sessions, "
                          "983 keys") == 1);
  CHECK(init_note(list) == "initial state: implicit (--init auto): T0 writes null to every key "
                           "(Chronos's default initial value; --initial-value gives another); "
                           "a read of the empty list reads it");
}

TEST_CASE("chronos: detected from the first bytes, and named chronos") {
  require_shared(kKv);
  CHECK(detect_format(kKv) == Format::Chronos);
  CHECK(detect_format(kList) == Format::Chronos);
  CHECK(detect_format_bytes(bytes_of(kKv), "input") == Format::Chronos);
  CHECK(detect_format_bytes("[{\"ops\": [], \"tid\": 1}]", "in") == Format::Chronos);
  CHECK(detect_format_bytes("[\n  {\n    \"tid\": \"a\", \"sid\": 3, \"sts\": {\"p\": 1}", "in") ==
        Format::Chronos);
  // The other JSON formats keep their detection.
  CHECK(detect_format_bytes("[{\"type\": \"ok\"}]", "in") == Format::ElleJson);
  CHECK(detect_format_bytes("[{\"type\": \"ok\", \"f\": \"txn\", \"value\": [[\"r\", 1, null]]}]",
                            "in") == Format::ElleJson);
  CHECK(detect_format_bytes("[[{\"events\": [[\"w\", 0, 1]], \"committed\": true}]]", "in") ==
        Format::DbcopJson);
  CHECK(detect_format_bytes("{\"format\": \"isosynth-history\", \"sessions\": []}", "in") ==
        Format::Native);
  CHECK(format_name(Format::Chronos) == "chronos");
  CHECK(parse_format_name("chronos") == Format::Chronos);
  const auto names = format_names();
  CHECK(std::find(names.begin(), names.end(), "chronos") != names.end());
}

TEST_CASE("chronos: key-value operations, ids, sessions, and integers spelled as strings") {
  ReadResult r = chronos("[" + txn("1", R"({"t": "w", "k": 1, "v": 10}, {"t": "R", "k": 2})") +
                         ",\n" +
                         txn("\"b\"",
                             R"({"t": "READ", "k": "1", "v": "10"}, )"
                             R"({"t": "Write", "k": -2, "v": null})",
                             3, 4, "\"x\"") +
                         ",\n" + txn("3", R"({"t": "r", "k": 1, "v": -5})", 5, 6, "\"1\"") +
                         "]");
  const History& h = r.history;
  // sid 1 and "1" are one session, as Chronos reads both as strings.
  CHECK(ops(h) == "1@0: w(1,10) r(2,null) | b@1: r(1,10) w(-2,null) | 3@0: r(1,-5)");
  CHECK(h.sessions().size() == 2);
  CHECK(h.keys()[0].integer);
  CHECK(h.txn(1).ops[0].line == 1);
  CHECK(h.txn(2).ops[0].line == 2);

  // "p" and "l" as strings of decimal digits, as the key-value sample spells "p".
  ReadResult s = chronos(R"([{"tid": 7, "sid": 1, "sts": {"p": "320316484", "l": "0"},
      "cts": {"p": "320316486", "l": 3}, "ops": []}])");
  CHECK(*s.history.txn(1).start_ts == DbTimestamp{320316484, 0});
  CHECK(*s.history.txn(1).commit_ts == DbTimestamp{320316486, 3});
  // Unknown fields are ignored; Aion's rtts is counted and ignored.
  ReadResult aion = chronos("[" + txn("1", "") + ",\n" +
                            R"({"tid": 2, "sid": 1, "rtts": 1700000000000, "x": {"y": [1]},
      "sts": {"p": 3, "l": 0, "z": 1}, "cts": {"p": 3, "l": 1}, "ops": []}])");
  CHECK(aion.history.num_txns() == 3);
  CHECK(count_notes(aion, "1 transaction carries Aion's real-time timestamp \"rtts\": ignored") ==
        1);
  CHECK(!aion.history.txn(2).begin);
  // An empty history.
  ReadResult empty = chronos(" [ ] ");
  CHECK(empty.history.num_txns() == 1);
  CHECK(count_notes(empty, "Chronos JSON history, key-value: 0 transactions, 0 sessions, 0 keys") ==
        1);
}

TEST_CASE("chronos: list reads become list reads, appends writes") {
  const std::string text =
      "[" + txn("1", R"({"t": "a", "k": 1, "v": 1}, {"t": "r", "k": 2, "v": []})") + ",\n" +
      txn("2",
          R"({"t": "r", "k": 1, "v": [1]}, {"t": "Append", "k": 1, "v": 2}, )"
          R"({"t": "r", "k": 1, "v": [1, "2"]}, {"t": "r", "k": 3}, )"
          R"({"t": "read", "k": 4, "v": null})",
          3, 4) +
      "]";
  ReadResult r = chronos(text);
  CHECK(ops(r.history) == "1@0: w(1,1) r(2,[]->null) | 2@0: r(1,[1]->1) w(1,2) r(1,[1 2]->2) "
                          "r(3,[]->null) r(4,[]->null)");
  // With an initial value, the empty list reads it.
  ReadResult zero = chronos(text, InitMode::Auto, 0);
  CHECK(ops(zero.history) == "1@0: w(1,1) r(2,[]->0) | 2@0: r(1,[1]->1) w(1,2) r(1,[1 2]->2) "
                             "r(3,[]->0) r(4,[]->0)");
  CHECK(thin_air_reads(zero.history) == 0);
  // With no initial state, the empty list reads null, which no append writes.
  ReadResult none = chronos(text, InitMode::None, 0);
  CHECK(ops(none.history) == "1@0: w(1,1) r(2,[]->null) | 2@0: r(1,[1]->1) w(1,2) "
                             "r(1,[1 2]->2) r(3,[]->null) r(4,[]->null)");
  CHECK(thin_air_reads(none.history) == 3);
  CHECK(init_note(none) == "initial state: none (--init none): T0 writes no key: a read of the "
                           "empty list is a thin-air read");
  // A read of null before any operation tells the data model is a read of
  // the initial value once the file turns out list-append.
  ReadResult late = chronos("[" + txn("1", R"({"t": "r", "k": 1})") + ",\n" +
                                txn("2", R"({"t": "a", "k": 1, "v": 5})") + "]",
                            InitMode::Auto, 7);
  CHECK(ops(late.history) == "1@0: r(1,7) | 2@0: w(1,5)");
  CHECK(thin_air_reads(late.history) == 0);
}

TEST_CASE("chronos: the initial state, --init and the initial value") {
  // Chronos's initial value is null unless --initial_value gives one.
  const std::string text = "[" + txn("1", R"({"t": "r", "k": 1, "v": 0}, {"t": "r", "k": 2})") +
                           "]";
  ReadResult null_init = chronos(text);
  CHECK(null_init.history.initial_writes() == InitialWrites::EveryKey);
  CHECK(null_init.history.value_text(null_init.history.init_value(0)) == "null");
  CHECK(thin_air_reads(null_init.history) == 1);  // r(1,0)
  ReadResult zero = chronos(text, InitMode::Implicit, 0);
  CHECK(zero.history.value_text(zero.history.init_value(0)) == "0");
  CHECK(thin_air_reads(zero.history) == 1);  // r(2,null)
  CHECK(init_note(zero) == "initial state: implicit (--init implicit): T0 writes 0 to every key "
                           "(--initial-value)");

  ReadResult none = chronos(text, InitMode::None);
  CHECK(none.initial_state == InitialState::None);
  CHECK(none.history.initial_writes() == InitialWrites::ExplicitOnly);
  CHECK(thin_air_reads(none.history) == 2);
  CHECK(init_note(none) == "initial state: none (--init none): T0 writes no key: a read of a "
                           "value no transaction wrote, such as null, is a thin-air read");

  CHECK(message(text, InitMode::Explicit) ==
        "h: --init explicit is not supported for Chronos JSON: the file has no initial "
        "transaction (use auto, implicit or none)");

  require_shared(kKv);
  // The key-value sample reads 0 from keys nobody wrote: Chronos's quick
  // start gives --initial_value 0. With it, no read is thin-air.
  ReadOptions o;
  o.initial_value = 0;
  ReadResult kv0 = read_history_path(kKv, std::nullopt, o);
  CHECK(thin_air_reads(kv0.history) == 0);
  CHECK(thin_air_reads(read_history_path(kKv, std::nullopt, {}).history) > 0);
  CHECK(thin_air_reads(read_history_path(kKv, std::nullopt, ReadOptions{InitMode::None}).history) >
        0);
  // The list sample's empty lists read T0's null.
  CHECK(thin_air_reads(read_history_path(kList, std::nullopt, {}).history) == 0);
}

TEST_CASE("chronos: --initial-value is refused for other formats") {
  const std::filesystem::path dir = std::filesystem::path(ISOSYNTH_SHARED_DIR) / "data" /
                                    "histories" / "dbcop-tests" / "dbcop-json";
  require_shared(dir);
  std::string path;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (path.empty() || e.path().string() < path) path = e.path().string();
  ReadOptions o;
  o.initial_value = 0;
  CHECK(message_of([&] { read_history_path(path, std::nullopt, o); }) ==
        path + ": --initial-value applies to Chronos JSON only (dbcop-json histories say their "
               "own initial value)");
  CHECK(message_of([&] { read_history_path(kKv, Format::Native, o); })
              .ends_with("--initial-value applies to Chronos JSON only (native histories say "
                         "their own initial value)"));
}

TEST_CASE("chronos: malformed input gives one line with its position and path") {
  const std::string ok_ts = R"("sts": {"p": 1, "l": 0}, "cts": {"p": 2, "l": 0})";
  // A transaction with these timestamps.
  auto clocks = [](const std::string& sts, const std::string& cts) {
    return fmt::format(R"([{{"tid": 1, "sid": 1, "sts": {}, "cts": {}, "ops": []}}])", sts, cts);
  };
  // A transaction with these operations.
  auto with_ops = [](const std::string& ops_json) { return "[" + txn("1", ops_json) + "]"; };
  const std::string p1 = R"({"p": 1, "l": 0})";
  const std::vector<Case> cases = {
      {"",
       "h:1:1: syntax error while parsing value - unexpected end of input; expected '[', '{', or "
       "a literal"},
      {"[] x",
       "h:1:4: syntax error while parsing value - invalid literal"},
      {"{}",
       "h:1:1: expected an array of transactions, got an object"},
      {"[1]",
       "h:1:2: [0]: a transaction must be an object {\"tid\": ..., \"sid\": ..., \"sts\": ..., "
       "\"cts\": ..., \"ops\": [...]}, got 1"},
      {"[{\"sid\": 1, " + ok_ts + ", \"ops\": []}]",
       "h:1:2: [0]: missing field \"tid\" (the transaction id)"},
      {"[{\"tid\": 1, " + ok_ts + ", \"ops\": []}]",
       "h:1:2: [0]: missing field \"sid\" (the session id)"},
      {R"([{"tid": 1, "sid": 1, "cts": {"p": 2, "l": 0}, "ops": []}])",
       "h:1:2: [0]: missing field \"sts\" (the start timestamp)"},
      {R"([{"tid": 1, "sid": 1, "sts": {"p": 2, "l": 0}, "ops": []}])",
       "h:1:2: [0]: missing field \"cts\" (the commit timestamp)"},
      {"[{\"tid\": 1, \"sid\": 1, " + ok_ts + "}]",
       "h:1:2: [0]: missing field \"ops\" (the operations)"},
      {"[{\"tid\": 1, \"tid\": 2, \"sid\": 1, " + ok_ts + ", \"ops\": []}]",
       "h:1:13: [0].tid: duplicate field \"tid\""},
      {"[" + txn("1", "", 5, 4) + "]",
       "h:1:2: [0]: transaction 1: its start timestamp sts {\"p\": 5, \"l\": 0} is after its "
       "commit timestamp cts {\"p\": 4, \"l\": 0}"},
      {R"([{"tid": "a b", "sid": 1, "sts": {"p": 5, "l": 2}, "cts": {"p": 5, "l": 1},
           "ops": []}])",
       "h:1:2: [0]: transaction \"a b\": its start timestamp sts {\"p\": 5, \"l\": 2} is after "
       "its commit timestamp cts {\"p\": 5, \"l\": 1}"},
      {"[" + txn("1", "") + ",\n" + txn("\"1\"", "") + "]",
       "h:2:9: [1].tid: duplicate tid \"1\" (first used at 1:10)"},
      {"[" + txn("\"\"", "") + "]",
       "h:1:10: [0].tid: tid must not be empty"},
      {"[" + txn("\"T0\"", "") + "]",
       "h:1:10: [0].tid: tid \"T0\" is reserved for the initial transaction"},
      {"[" + txn("1.5", "") + "]",
       "h:1:10: [0].tid: tid must be an integer or a string, got 1.5"},
      {"[" + txn("1", "", 1, 2, "null") + "]",
       "h:1:20: [0].sid: sid must be an integer or a string, got null"},
      {clocks("5", p1),
       "h:1:30: [0].sts: sts must be a hybrid logical clock {\"p\": ..., \"l\": ...}, got 5"},
      {clocks(R"({"l": 0})", p1),
       "h:1:30: [0].sts: missing field \"p\" (the physical part)"},
      {clocks(R"({"p": 1})", p1),
       "h:1:30: [0].sts: missing field \"l\" (the logical part)"},
      {clocks(R"({"p": -1, "l": 0})", p1),
       "h:1:36: [0].sts.p: p must be a non-negative integer, got -1"},
      {clocks(R"({"p": "12a", "l": 0})", p1),
       "h:1:36: [0].sts.p: p must be a non-negative integer, got the string \"12a\" (a string "
       "must spell an integer in decimal digits)"},
      {clocks(R"({"p": "-3", "l": 0})", p1),
       "h:1:36: [0].sts.p: p must be a non-negative integer, got the string \"-3\""},
      {clocks(R"({"p": 1.5, "l": 0})", p1),
       "h:1:36: [0].sts.p: p must be a non-negative integer, got 1.5"},
      {clocks(p1, R"({"p": 99999999999999999999, "l": 0})"),
       "h:1:61: [0].cts.p: p 99999999999999999999 is out of the 64-bit signed range this checker "
       "supports"},
      {clocks(p1, R"({"p": "9223372036854775808", "l": 0})"),
       "h:1:61: [0].cts.p: p \"9223372036854775808\" is out of the 64-bit signed range this "
       "checker supports"},
      {clocks(p1, R"({"p": 2, "l": 0, "l": 1})"),
       "h:1:72: [0].cts.l: duplicate field \"l\""},
      {"[{\"tid\": 1, \"sid\": 1, " + ok_ts + ", \"ops\": {}}]",
       "h:1:80: [0].ops: ops must be an array of operations, got an object"},
      {with_ops("5"),
       "h:1:81: [0].ops[0]: an operation must be an object {\"t\": ..., \"k\": ..., \"v\": ...}, "
       "got 5"},
      {with_ops(R"({"k": 1, "v": 1})"),
       "h:1:81: [0].ops[0]: missing field \"t\" (the operation type)"},
      {with_ops(R"({"t": "w", "v": 1})"),
       "h:1:81: [0].ops[0]: missing field \"k\" (the key)"},
      {with_ops(R"({"t": "x", "k": 1, "v": 1})"),
       "h:1:87: [0].ops[0].t: unknown operation type \"x\" (expected \"w\" or \"write\", \"r\" "
       "or \"read\", \"a\" or \"append\")"},
      {with_ops(R"({"t": 1, "k": 1, "v": 1})"),
       "h:1:87: [0].ops[0].t: the operation type t must be a string (\"w\", \"r\", \"a\", ...), "
       "got 1"},
      {with_ops(R"({"t": "w", "k": 1.5, "v": 1})"),
       "h:1:97: [0].ops[0].k: the key k must be an integer, got 1.5"},
      {with_ops(R"({"t": "w", "k": "x", "v": 1})"),
       "h:1:97: [0].ops[0].k: the key k must be an integer, got the string \"x\" (a string must "
       "spell an integer in decimal digits)"},
      {with_ops(R"({"t": "w", "k": 1, "v": true})"),
       "h:1:105: [0].ops[0].v: v must be an integer, a list of integers or null, got true"},
      {with_ops(R"({"t": "w", "k": 1, "v": "abc"})"),
       "h:1:105: [0].ops[0].v: v must be an integer, a list of integers or null, got the string "
       "\"abc\" (a string must spell an integer in decimal digits)"},
      {with_ops(R"({"t": "w", "k": 1, "v": [1]})"),
       "h:1:105: [0].ops[0].v: a write's v must be an integer or null, got a list"},
      {with_ops(R"({"t": "a", "k": 1})"),
       "h:1:81: [0].ops[0]: missing field \"v\" (the appended element)"},
      {with_ops(R"({"t": "a", "k": 1, "v": null})"),
       "h:1:105: [0].ops[0].v: an append's v must be an integer, got null"},
      {with_ops(R"({"t": "r", "k": 1, "v": [1, null]})"),
       "h:1:109: [0].ops[0].v[1]: a list element must be an integer, got null"},
      {with_ops(R"({"t": "r", "k": 1, "v": [[1]]})"),
       "h:1:106: [0].ops[0].v[0]: a list element must be an integer, got an array"},
      {with_ops(R"({"t": "w", "k": 1, "v": 1, "v": 2})"),
       "h:1:108: [0].ops[0].v: duplicate field \"v\""},
      {"[" + txn("1", R"({"t": "w", "k": 1, "v": 1})") + ",\n" +
           txn("2", R"({"t": "r", "k": 1, "v": [1]})") + "]",
       "h:2:80: [1].ops[0]: a list read in a key-value history (the operation at 1:81 is a "
       "write); a Chronos history is all key-value or all list-append"},
      {"[" + txn("1", R"({"t": "a", "k": 1, "v": 1})") + ",\n" +
           txn("2", R"({"t": "r", "k": 2, "v": 1})") + "]",
       "h:2:80: [1].ops[0]: a read of an integer in a list-append history (the operation at 1:81 "
       "is an append); a Chronos history is all key-value or all list-append"},
      {with_ops(R"({"t": "r", "k": 1, "v": [1]}, {"t": "w", "k": 2, "v": 1})"),
       "h:1:111: [0].ops[1]: a write in a list-append history (the operation at 1:81 is a list "
       "read); a Chronos history is all key-value or all list-append"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const std::string m = message(c.text);
    CHECK(m == c.message);
  }
  // Deep nesting is refused before it costs anything.
  std::string deep = "[{\"x\": " + std::string(100, '[');
  CHECK(message(deep).starts_with("h:1:"));
  CHECK(message(deep).find("nesting deeper than 64 levels") != std::string::npos);
}

TEST_CASE("chronos: every prefix of a small history reads or fails in one line") {
  const std::string text = "[" +
                           txn("1", R"({"t": "w", "k": 1, "v": 10}, {"t": "r", "k": 2})") +
                           ",\n" + txn("\"b\"", R"({"t": "r", "k": 1, "v": "10"})", 3, 4) + "]";
  for (std::size_t n = 0; n <= text.size(); ++n) {
    std::string m = message(text.substr(0, n));
    if (m == "ok") continue;
    CAPTURE(n);
    CHECK(m.starts_with("h:"));
    CHECK(m.find('\n') == std::string::npos);
  }
}

// The fast scanner stops where nlohmann's parser has the last word: a syntax
// error after many events, a float that overflows, a bad escape or UTF-8
// byte, trailing text; an error of the reader's before a syntax error still
// comes first. Each message is nlohmann's, at the same position, as before.
TEST_CASE("chronos: what the fast scanner leaves to nlohmann's parser reads as nlohmann reads it") {
  const std::string t = R"({"tid": 1, "sid": 1, "sts": {"p": 1, "l": 0}, "cts": {"p": 2, "l": 0}, "ops": [)";
  const std::vector<Case> cases = {
      {"[" + t + R"({"t": "w", "k": 1, "v": 1e999}]}])",
       "h:1:109: number overflow parsing '1e999'"},
      {"[" + t + R"({"t": "w", "k": 1, "v": 1}]},)" + "\n " + t +
           R"({"t": "w", "k": 2, "v": 3 4}]}])",
       "h:2:10: [1].tid: duplicate tid \"1\" (first used at 1:10)"},
      {"[" + t + R"({"t": "w\ud800x", "k": 1, "v": 1}]}])",
       "h:1:95: syntax error while parsing value - invalid string: surrogate U+D800..U+DBFF "
       "must be followed by U+DC00..U+DFFF"},
      {"[" + t + R"({"t": "w", "k": 1, "v": 1}]}] ])",
       "h:1:111: syntax error while parsing value - unexpected ']'; expected end of input"},
      {"[" + t + R"({"t": "w", "k": 1, "v": 123456789012345678901234}]}])",
       "h:1:105: [0].ops[0].v: v 123456789012345678901234 is out of the 64-bit signed range "
       "this checker supports"},
      {"[" + t + R"({"t": "w", "k": 1, "v": 1.5e-400}]}])",
       "h:1:105: [0].ops[0].v: v must be an integer, a list of integers or null, got 1.5e-400"},
      {"[" + t + "{\"t\": \"\xc3\x28\", \"k\": 1, \"v\": 1}]}]",
       "h:1:89: syntax error while parsing value - invalid string: ill-formed UTF-8 byte"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    CHECK(message(c.text) == c.message);
  }
}
