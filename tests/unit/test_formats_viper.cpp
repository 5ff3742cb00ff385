// Tests of the Viper reader (FORMATS.md §7: a folder of J<n>.log JSON
// lines, one per transaction): the postgres-1000 sample against counts
// computed independently of the reader, hand-made lines for each decision
// the reader documents, its initial states, and malformed lines failing with
// InputError at line:column and JSON path.
#include <doctest/doctest.h>

#include "tests/unit/format_helpers.hpp"
#include "tests/unit/shared_data.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"

using namespace iso;

namespace {

const std::string kHist = std::string(ISOSYNTH_SHARED_DIR) + "/data/histories/";

}  // namespace

namespace {

std::vector<ClientLog> viper_logs(std::vector<std::string> texts) {
  std::vector<ClientLog> out;
  for (std::size_t i = 0; i < texts.size(); ++i)
    out.push_back(ClientLog{fmt::format("v/J{}.log", i + 1), texts[i]});
  return out;
}

std::string viper_err(const std::string& text) {
  return message_of([&] { read_viper(viper_logs({text}), "v", {}); });
}

}  // namespace

// Counts from a separate Python script (json.loads per line): 24 logs, 962
// lines (one transaction each), 3976 reads and 3720 writes, 5389 keys; 3300
// reads return a value no logged write to the key produced, over 2758 keys,
// with at most one such value per key.
TEST_CASE("viper: postgres-1000 loads, and the preloaded initial values are inferred") {
  ReadResult r = read_history_path(kHist + "viper-json/postgres-1000", std::nullopt, {});
  const History& h = r.history;
  CHECK(r.format == Format::Viper);
  CHECK(h.sessions().size() == 24);
  CHECK(h.num_txns() == 963);
  CHECK(count_status(h, TxnStatus::Committed) == 962);
  CHECK(count_ops(h, OpKind::Read) == 3976);
  CHECK(count_ops(h, OpKind::Write) == 3720);
  CHECK(h.keys().size() == 5389);
  CHECK(has_note(r, "initial values inferred for 2758 keys: 3300 of 3976 reads"));
  // J24.log line 2 reads key 3848 = 1050689658935092220, a value no logged
  // transaction writes: the key's preloaded value.
  auto t = h.find_txn("J24.2");
  REQUIRE(t);
  const Op& op = h.txn(*t).ops[0];
  CHECK(h.key_text(op.key) == "3848");
  CHECK(int_of(h, op.value) == 1050689658935092220);
  CHECK(h.init_value(op.key) == op.value);
  // Line 1 of J24.log writes key 9696.
  const Transaction& t1 = h.txn(*h.find_txn("J24.1"));
  CHECK(t1.ops[0].kind == OpKind::Write);
  CHECK(h.key_text(t1.ops[0].key) == "9696");
  CHECK(int_of(h, t1.ops[0].value) == 2046010677777358256);
}

TEST_CASE("viper: hand-made lines with a range, timestamps and an ambiguous key") {
  std::string j1 =
      "{\"preBeginTS\": 10, \"postBeginTS\": 11, \"preCommitTS\": 20, \"postCommitTS\": 21, "
      "\"value\": [[\"w\", 1, 100, true], [\"r\", 2, 555, false]]}\n"
      "\n"
      "{\"value\": [[\"range\", 1, 5, [{\"id\": 1, \"sk\": 1, \"val\": 100}, [3, 300]], "
      "[{\"id\": 2, \"sk\": 2, \"val\": 9}]]]}\n";
  std::string j2 =
      "{\"value\": [[\"r\", 4, 7, false], [\"r\", 4, 8, false], [\"r\", \"s\", null, true]]}";
  ReadResult r = read_viper(viper_logs({j1, j2}), "v", {});
  const History& h = r.history;
  REQUIRE(h.num_txns() == 4);
  const Transaction& a = h.txn(*h.find_txn("J1.1"));
  const Transaction& b = h.txn(*h.find_txn("J1.3"));  // line 2 is blank
  const Transaction& c = h.txn(*h.find_txn("J2.1"));
  CHECK(a.begin == 10);
  CHECK(a.commit == 21);
  CHECK(!b.begin);
  REQUIRE(b.ops.size() == 1);
  REQUIRE(b.ops[0].kind == OpKind::PredicateRead);
  const PredicateRead& pr = h.predicate_reads()[b.ops[0].predicate];
  CHECK(pr.predicate == "[1,5]");
  REQUIRE(pr.result.size() == 2);
  CHECK(h.key_text(pr.result[0].first) == "1");
  CHECK(int_of(h, pr.result[0].second) == 100);
  CHECK(h.key_text(pr.result[1].first) == "3");
  CHECK(int_of(h, pr.result[1].second) == 300);
  // Key 2 is read once with a value nobody wrote: its initial value. Key 3
  // likewise through the range. Key 4 has two such values: left at 0.
  CHECK(int_of(h, h.init_value(*h.find_key("2"))) == 555);
  CHECK(int_of(h, h.init_value(*h.find_key("3"))) == 300);
  CHECK(int_of(h, h.init_value(*h.find_key("4"))) == 0);
  CHECK(!h.has_explicit_init(*h.find_key("4")));
  // A string key and a null value.
  CHECK(!h.keys()[c.ops[2].key].integer);
  CHECK(std::holds_alternative<std::monostate>(h.values()[c.ops[2].value]));
  CHECK(has_note(r, "1 key reads two or more values"));
  CHECK(has_note(r, "1 range read taken as predicate reads (1 dead rows"));
  CHECK(has_note(r, "1 read flagged dead"));
}

TEST_CASE("viper: an isInitial line is the initial state unless --init implicit or none") {
  std::string j =
      "{\"value\": [[\"range\", \"nil\", \"nil\", [{\"id\": 1, \"sk\": 1, \"val\": 42}], []]], "
      "\"isInitial\": true}\n"
      "{\"value\": [[\"r\", 1, 42, false]]}\n";
  ReadResult r = read_viper(viper_logs({j}), "v", {});
  CHECK(r.explicit_init);
  CHECK(r.history.num_txns() == 2);
  CHECK(int_of(r.history, r.history.init_value(*r.history.find_key("1"))) == 42);
  ReadOptions implicit;
  implicit.init = InitMode::Implicit;
  ReadResult s = read_viper(viper_logs({j}), "v", implicit);
  CHECK(!s.explicit_init);
  REQUIRE(s.history.num_txns() == 3);
  const PredicateRead& pr = s.history.predicate_reads()[s.history.txn(1).ops[0].predicate];
  CHECK(pr.predicate == "[-9223372036854775808,9223372036854775807]");
}

TEST_CASE("viper: malformed lines name the file, line and column") {
  // Columns are counted by hand (1-based bytes).
  CHECK(viper_err("{\"value\": []}\n{\"value\": [[\"r\", 1, 2, false]]\n")
 ==
        "v/J1.log:2:31: syntax error while parsing object - unexpected end of input; expected "
        "'}'");  // just past the 30 bytes of line 2
  CHECK(viper_err("{\"value\": [[\"x\", 1, 2, false]]}") ==
        "v/J1.log:1:13: value[0]: unknown operation the string \"x\" (expected \"r\", \"w\" or "
        "\"range\")");
  CHECK(viper_err("\n\n{\"value\": [[\"r\", 1, 2, false], [\"w\", 1.5, 2, true]]}") ==
        "v/J1.log:3:38: expected a key (an integer in the 64-bit signed range, or a string), "
        "found the number 1.5");
  CHECK(viper_err("{\"a\": [1, [2]], \"value\": [[\"r\", 1, true]]}") ==
        "v/J1.log:1:36: expected a value (an integer in the 64-bit signed range, a string or "
        "null), found true");
  CHECK(viper_err("{\"value\": 3}") ==
        "v/J1.log:1:11: value: expected the list of operations, found the number 3");
  CHECK(viper_err("[1]") == "v/J1.log:1:1: expected a transaction {\"value\": [...]}, found an array");
  CHECK(viper_err("{\"values\": []}") ==
        "v/J1.log:1:1: expected a transaction {\"value\": [...]}: no \"value\" field");
  CHECK(viper_err("{\"value\": [[\"r\", 1]]}") ==
        "v/J1.log:1:12: value[0]: expected [\"r\", key, value, flag], found 2 elements");
  CHECK(viper_err("{\"preBeginTS\": \"x\", \"value\": []}") ==
        "v/J1.log:1:16: preBeginTS: expected an integer timestamp, found the string \"x\"");
  CHECK(viper_err("{\"preBeginTS\": 5, \"postCommitTS\": 4, \"value\": []}") ==
        "v/J1.log:1:35: postCommitTS 4 is before preBeginTS 5");
  CHECK(viper_err("{\"value\": [[\"range\", 1, 2, [7], []]]}") ==
        "v/J1.log:1:29: value[0][3][0]: expected a row {\"id\": key, \"val\": value} or [key, "
        "value], found the number 7");
  CHECK(viper_err("{\"value\": [[\"r\", 1, 18446744073709551615, false]]}")
            .starts_with("v/J1.log:1:21: expected a value"));
  CHECK(viper_err("{\"value\": [[\"r\", 1, 1e999, false]]}") ==
        "v/J1.log:1:21: number overflow parsing '1e999'");
  std::string deep = "{\"value\": " + std::string(40, '[') + std::string(40, ']') + "}";
  CHECK(viper_err(deep) == "v/J1.log:1:42: nesting deeper than 32 levels");
}

TEST_CASE("init viper: an isInitial line is explicit, inference only for the implicit state") {
  const std::string initial =
      "{\"value\": [[\"w\", 1, 42, true]], \"isInitial\": true}\n"
      "{\"value\": [[\"r\", 1, 42, false], [\"r\", 2, 9, false]]}\n";
  ReadResult a = read_viper(viper_logs({initial}), "v", {});
  CHECK(a.explicit_init);
  CHECK(a.initial_state == InitialState::Explicit);
  CHECK(a.history.initial_writes() == InitialWrites::ExplicitOnly);
  CHECK(t0_keys(a.history) == 1);  // key 2 has no initial version: its read is thin air
  CHECK(init_note(a) ==
        "initial state: explicit (--init auto): 1 \"isInitial\" line is T0, which writes only 1 "
        "key");
  ReadResult e = read_viper(viper_logs({initial}), "v", ReadOptions{InitMode::Explicit});
  CHECK(t0_keys(e.history) == 1);

  // Implicit: the line is a transaction, and the values no logged
  // transaction wrote are inferred as preloaded (key 2 read 9), said how often.
  ReadResult i = read_viper(viper_logs({initial}), "v", ReadOptions{InitMode::Implicit});
  CHECK(!i.explicit_init);
  CHECK(i.history.num_txns() == 3);
  CHECK(t0_keys(i.history) == 2);
  CHECK(int_of(i.history, i.history.init_value(*i.history.find_key("2"))) == 9);
  CHECK(init_note(i) == "initial state: implicit (--init implicit): T0 writes every key: the "
                        "inferred preloaded value for 1 key, 0 for the others");
  CHECK(has_note(i, "initial values inferred for 1 key: 1 of 2 reads"));

  ReadResult n = read_viper(viper_logs({initial}), "v", ReadOptions{InitMode::None});
  CHECK(n.initial_state == InitialState::None);
  CHECK(n.history.num_txns() == 3);
  CHECK(t0_keys(n.history) == 0);
  CHECK(!has_note(n, "inferred"));

  // No isInitial line: auto is the implicit state with inference; explicit
  // has nothing to take.
  const std::string plain = "{\"value\": [[\"r\", 2, 9, false]]}\n";
  ReadResult p = read_viper(viper_logs({plain}), "v", {});
  CHECK(p.initial_state == InitialState::Implicit);
  CHECK(int_of(p.history, p.history.init_value(*p.history.find_key("2"))) == 9);
  CHECK(message_of([&] { read_viper(viper_logs({plain}), "v", ReadOptions{InitMode::Explicit}); }) ==
        "v: --init explicit: no line of the logs has \"isInitial\": true, so there is no initial "
        "transaction (use auto, implicit or none)");
}

TEST_CASE("source lines: Viper has the log's line") {
  ReadResult v = read_viper(viper_logs({"\n{\"value\": [[\"w\", 1, 2, true]]}\n"}), "v", {});
  REQUIRE(v.history.txn(1).ops.size() == 1);
  CHECK(v.history.txn(1).ops[0].line == 2);
}

TEST_CASE("viper: a range read's live rows name each key once") {
  CHECK(viper_err("{\"value\": [[\"range\", 1, 5, [[1, 100], [2, 7], [1, 300]], []]]}") ==
        "v/J1.log:1:48: value[0][3][2]: key 1 appears twice in the live rows");
}
