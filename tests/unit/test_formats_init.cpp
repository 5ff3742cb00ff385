// The initial state each text reader uses (--init auto|implicit|explicit|none,
// formats.hpp): what auto means for each producer, the modes a format
// refuses and why, and that every reader says what it used. The binary and
// folder formats are covered in test_formats_binary.cpp.
#include <doctest/doctest.h>

#include "tests/unit/format_helpers.hpp"

#include <functional>
#include <string>
#include <vector>

#include "engine/history/formats/formats.hpp"

using namespace iso;

namespace {

const std::string kData = std::string(ISOSYNTH_SHARED_DIR) + "/data/histories/";

using Reader = std::function<ReadResult(std::string_view, const std::string&,
                                        const ReadOptions&)>;

ReadResult read(const Reader& reader, const std::string& text, InitMode init) {
  return reader(text, "h", ReadOptions{init});
}

std::string error_of(const Reader& reader, const std::string& text, InitMode init) {
  return message_of([&] { read(reader, text, init); });
}

// Keys T0 writes, as "key=value" in key order.
std::vector<std::string> t0_writes(const History& h) {
  std::vector<std::string> out;
  for (KeyId k = 0; k < h.keys().size(); ++k)
    if (h.t0_writes(k)) out.push_back(h.key_text(k) + "=" + h.value_text(h.init_value(k)));
  return out;
}

std::vector<std::string> names(const History& h) {
  std::vector<std::string> out;
  for (TxnId t = 1; t < h.num_txns(); ++t) out.push_back(h.txn(t).name);
  return out;
}

// The value of op `i` of transaction `name`.
std::string value_of(const History& h, const std::string& name, std::size_t i) {
  auto t = h.find_txn(name);
  REQUIRE_MESSAGE(t.has_value(), name);
  REQUIRE(i < h.txn(*t).ops.size());
  return h.value_text(h.txn(*t).ops[i].value);
}

}  // namespace

TEST_CASE("init modes: names") {
  CHECK(init_mode_names() == std::vector<std::string_view>{"auto", "implicit", "explicit", "none"});
  for (auto name : init_mode_names()) CHECK(init_mode_name(*parse_init_mode(name)) == name);
  CHECK(!parse_init_mode("explicit-only"));
  CHECK(initial_state_name(InitialState::None) == "none");
}

// --- AWDIT (FORMATS.md §4) ----------------------------------------------------

TEST_CASE("init awdit: no implicit initial state, hb-cycle's first transaction is ordinary") {
  // LABELS.md: AWDIT's initial reads are explicit, and the transaction that
  // writes them sits in an ordinary session.
  ReadResult r = read_history_path(kData + "awdit-test/none/hb-cycle.txt", std::nullopt, {});
  const History& h = r.history;
  CHECK(r.initial_state == InitialState::None);
  CHECK(!r.explicit_init);
  CHECK(h.initial_writes() == InitialWrites::ExplicitOnly);
  CHECK(t0_writes(h).empty());
  CHECK(names(h) == std::vector<std::string>{"T0.0", "T0.1", "T1.0", "T1.1"});
  CHECK(init_note(r) ==
        "initial state: none (--init auto): AWDIT histories have no implicit initial state: T0 "
        "writes no key, and a first transaction that writes the initial values is an ordinary "
        "one");
  // --init none is the same reading.
  ReadResult n = read_history_path(kData + "awdit-test/none/hb-cycle.txt", std::nullopt,
                                   ReadOptions{InitMode::None});
  CHECK(names(n.history) == names(h));
  CHECK(n.initial_state == InitialState::None);
  // Its first transaction reads: it cannot be the initial state.
  CHECK(error_of(read_awdit, "r 1 1\n-----\nw 0 0\n", InitMode::Explicit) ==
        "h:1:1: --init explicit: the first transaction T0.0 cannot be the initial state because "
        "it reads");
}

TEST_CASE("init awdit: explicit takes the first transaction as T0, implicit adds T0") {
  const std::string text = "w 0 0\nw 1 5\n=====\nr 0 0\nr 1 5\n-----\nr 2 0\n";
  ReadResult e = read(read_awdit, text, InitMode::Explicit);
  CHECK(e.explicit_init);
  CHECK(e.initial_state == InitialState::Explicit);
  CHECK(t0_writes(e.history) == std::vector<std::string>{"0=0", "1=5"});  // not key 2
  CHECK(names(e.history) == std::vector<std::string>{"T1.0", "T1.1"});

  ReadResult i = read(read_awdit, text, InitMode::Implicit);
  CHECK(!i.explicit_init);
  CHECK(i.initial_state == InitialState::Implicit);
  CHECK(i.history.initial_writes() == InitialWrites::EveryKey);
  CHECK(t0_writes(i.history) == std::vector<std::string>{"0=0", "1=0", "2=0"});
  CHECK(names(i.history) == std::vector<std::string>{"T0.0", "T1.0", "T1.1"});
  CHECK(init_note(i) == "initial state: implicit (--init implicit): T0 writes 0 to every key");

  ReadResult a = read(read_awdit, text, InitMode::Auto);
  CHECK(t0_writes(a.history).empty());
  CHECK(names(a.history) == names(i.history));
}

// --- text r/w (FORMATS.md §3) ---------------------------------------------------

TEST_CASE("init text: auto takes a first transaction of zeros as T0, none and explicit") {
  const std::string zeros = "w(1,0,0,0)\nw(2,0,0,0)\nr(1,0,1,1)\nr(3,0,1,1)\n";
  ReadResult a = read(read_text_rw, zeros, InitMode::Auto);
  CHECK(a.explicit_init);
  CHECK(a.initial_state == InitialState::Explicit);
  CHECK(t0_writes(a.history) == std::vector<std::string>{"1=0", "2=0"});  // not key 3
  CHECK(names(a.history) == std::vector<std::string>{"T1.1"});

  ReadResult n = read(read_text_rw, zeros, InitMode::None);
  CHECK(!n.explicit_init);
  CHECK(n.initial_state == InitialState::None);
  CHECK(t0_writes(n.history).empty());
  CHECK(names(n.history) == std::vector<std::string>{"T0.0", "T1.1"});
  CHECK(init_note(n) == "initial state: none (--init none): T0 writes no key: a read of a value "
                        "no transaction wrote is a thin-air read");

  // Explicit takes a first transaction that writes other values too.
  ReadResult e = read(read_text_rw, "w(1,7,0,0)\nr(1,7,1,1)\n", InitMode::Explicit);
  CHECK(e.explicit_init);
  CHECK(t0_writes(e.history) == std::vector<std::string>{"1=7"});
  CHECK(init_note(e) == "initial state: explicit (--init explicit): the first transaction T0.0 "
                        "is T0; T0 writes only its keys");
}

// --- native JSON (FORMATS.md §1) ---------------------------------------------------

TEST_CASE("init native: auto and implicit read init plus 0, none only init, explicit") {
  const std::string text = R"({"init": {"x": 5}, "sessions": [
    [{"id": "A", "ops": [["w", "x", 0], ["w", "y", 0]]},
     {"id": "B", "ops": [["r", "x", 5], ["r", "z", 0]]}]]})";
  ReadResult a = read(read_native, text, InitMode::Auto);
  CHECK(a.initial_state == InitialState::Implicit);
  CHECK(t0_writes(a.history) == std::vector<std::string>{"x=5", "y=0", "z=0"});
  CHECK(a.notes.empty());  // the file says it all
  ReadResult i = read(read_native, text, InitMode::Implicit);
  CHECK(t0_writes(i.history) == t0_writes(a.history));
  CHECK(init_note(i) == "initial state: implicit (--init implicit): T0 writes the value \"init\" "
                        "gives (1 key), or 0, to every key");

  ReadResult n = read(read_native, text, InitMode::None);
  CHECK(n.initial_state == InitialState::None);
  CHECK(t0_writes(n.history) == std::vector<std::string>{"x=5"});
  CHECK(names(n.history) == std::vector<std::string>{"A", "B"});

  ReadResult e = read(read_native, text, InitMode::Explicit);
  CHECK(e.explicit_init);
  CHECK(e.initial_state == InitialState::Explicit);
  // A's writes and init's; a write of A wins over init.
  CHECK(t0_writes(e.history) == std::vector<std::string>{"x=0", "y=0"});
  CHECK(names(e.history) == std::vector<std::string>{"B"});
  CHECK(init_note(e) == "initial state: explicit (--init explicit): the first transaction is T0; "
                        "T0 writes its 2 writes and the 1 key \"init\" gives");
}

TEST_CASE("init native: explicit refuses a first transaction that reads or did not commit") {
  CHECK(error_of(read_native,
                 "{\"sessions\": [[{\"id\": \"A\", \"ops\": [[\"w\", \"x\", 0],\n"
                 "  [\"r\", \"y\", 0]]}]]}",
                 InitMode::Explicit) ==
        "h:2:3: sessions[0][0].ops[1]: --init explicit: the first transaction \"A\" cannot be "
        "the initial state because it reads");
  CHECK(error_of(read_native,
                 "{\"sessions\": [[{\"id\": \"A\", \"status\": \"aborted\", \"ops\": []}]]}",
                 InitMode::Explicit) ==
        "h:1:16: sessions[0][0]: --init explicit: the first transaction \"A\" cannot be the "
        "initial state because it is aborted");
}

TEST_CASE("init native: the file's initial_state") {
  const std::string text = R"({"initial_state": "explicit-only", "init": {"x": 1},
    "sessions": [[{"id": "A", "ops": [["r", "x", 1], ["r", "y", 0]]}]]})";
  ReadResult a = read(read_native, text, InitMode::Auto);
  CHECK(a.initial_state == InitialState::Explicit);
  CHECK(a.history.initial_writes() == InitialWrites::ExplicitOnly);
  CHECK(t0_writes(a.history) == std::vector<std::string>{"x=1"});
  CHECK(init_note(a) == "initial state: explicit (--init auto): \"initial_state\": "
                        "\"explicit-only\": T0 writes only the 1 key \"init\" gives");
  // --init implicit overrides the file.
  ReadResult i = read(read_native, text, InitMode::Implicit);
  CHECK(t0_writes(i.history) == std::vector<std::string>{"x=1", "y=0"});
  // Without init, explicit-only is no initial state.
  ReadResult n = read(read_native,
                      R"({"initial_state": "explicit-only", "sessions": [[{"id": "A",
                         "ops": [["r", "y", 0]]}]]})",
                      InitMode::Auto);
  CHECK(n.initial_state == InitialState::None);
  CHECK(t0_writes(n.history).empty());
  CHECK(error_of(read_native, "{\"initial_state\": \"all\", \"sessions\": []}", InitMode::Auto) ==
        "h:1:19: initial_state: initial_state must be \"every-key\" or \"explicit-only\", got "
        "the string \"all\"");
}

// --- Elle (FORMATS.md §2) -------------------------------------------------------

TEST_CASE("init elle: nil everywhere by default, none, explicit refused") {
  const std::string text =
      "{:type :invoke, :f :txn, :value [[:r :x nil] [:append :y 1]], :process 0}\n"
      "{:type :ok, :f :txn, :value [[:r :x nil] [:append :y 1]], :process 0}\n";
  ReadResult a = read(read_elle_edn, text, InitMode::Auto);
  CHECK(a.initial_state == InitialState::Implicit);
  CHECK(t0_writes(a.history) == std::vector<std::string>{"x=null", "y=null"});
  CHECK(init_note(a) ==
        "initial state: implicit (--init auto): T0 writes nil (the empty list) to every key");
  ReadResult n = read(read_elle_edn, text, InitMode::None);
  CHECK(n.initial_state == InitialState::None);
  CHECK(t0_writes(n.history).empty());
  CHECK(error_of(read_elle_edn, text, InitMode::Explicit) ==
        "h: --init explicit is not supported for Elle histories: they have no initial "
        "transaction (use auto, implicit or none)");
  CHECK(error_of(read_elle_json, "[]", InitMode::Explicit).starts_with("h: --init explicit"));
}

// --- IsoPredict (FORMATS.md §8) -------------------------------------------------------

TEST_CASE("init isopredict: a logged Txn(0,0) is T0") {
  const std::string text =
      "WRITE KEY[x] Txn(0, 0)\n"
      "WRITE KEY[y] Txn(0, 0)\n"
      "READ KEY[x] Txn(1, 0) From(0, 0)\n"
      "READ KEY[z] Txn(1, 0) From(0, 0)\n"
      "WRITE KEY[x] Txn(1, 0)\n"
      "READ KEY[x] Txn(2, 0) From(1, 0)\n";
  ReadResult a = read(read_isopredict, text, InitMode::Auto);
  const History& h = a.history;
  CHECK(a.explicit_init);
  CHECK(a.initial_state == InitialState::Explicit);
  CHECK(t0_writes(h) == std::vector<std::string>{"x=0", "y=0"});
  CHECK(names(h) == std::vector<std::string>{"T1.0", "T2.0"});
  CHECK(value_of(h, "T1.0", 0) == "0");  // x from T0
  CHECK(value_of(h, "T1.0", 1) == "1");  // z: T0 does not write it, a value nobody wrote
  CHECK(value_of(h, "T1.0", 2) == "1");  // the first write of x
  CHECK(value_of(h, "T2.0", 0) == "1");
  CHECK(init_note(a) == "initial state: explicit (--init auto): the trace logs the initial "
                        "transaction Txn(0, 0) (line 1): it is T0 and writes only its 2 keys");
  ReadResult e = read(read_isopredict, text, InitMode::Explicit);
  CHECK(t0_writes(e.history) == t0_writes(h));

  // Implicit and none read Txn(0, 0) as an ordinary transaction T0.0.
  ReadResult i = read(read_isopredict, text, InitMode::Implicit);
  CHECK(!i.explicit_init);
  CHECK(names(i.history) == std::vector<std::string>{"T0.0", "T1.0", "T2.0"});
  CHECK(value_of(i.history, "T1.0", 0) == value_of(i.history, "T0.0", 0));  // x from T0.0
  CHECK(value_of(i.history, "T1.0", 1) == "0");                             // z from T0
  CHECK(t0_writes(i.history).size() == 3);
  ReadResult n = read(read_isopredict, text, InitMode::None);
  CHECK(n.initial_state == InitialState::None);
  CHECK(t0_writes(n.history).empty());
  CHECK(names(n.history) == names(i.history));

  // Txn(0, 0)'s writes may come after a read from it.
  ReadResult late = read(read_isopredict,
                         "READ KEY[x] Txn(1, 0) From(0, 0)\n"
                         "WRITE KEY[x] Txn(0, 0)\n",
                         InitMode::Auto);
  CHECK(late.explicit_init);
  CHECK(value_of(late.history, "T1.0", 0) == "0");  // T0's x, not a value nobody wrote
}

TEST_CASE("init isopredict: without Txn(0,0), refusals") {
  const std::string text = "READ KEY[x] Txn(1, 0) From(0, 0)\n";
  ReadResult a = read(read_isopredict, text, InitMode::Auto);
  CHECK(a.initial_state == InitialState::Implicit);
  CHECK(!a.explicit_init);
  CHECK(t0_writes(a.history) == std::vector<std::string>{"x=0"});
  CHECK(error_of(read_isopredict, text, InitMode::Explicit) ==
        "h: --init explicit: the trace logs no initial transaction Txn(0, 0) (use auto, "
        "implicit or none)");
  // The initial state cannot read.
  const std::string reads =
      "WRITE KEY[x] Txn(0, 0)\nREAD KEY[y] Txn(0, 0) From(1, 0)\nWRITE KEY[y] Txn(1, 0)\n";
  CHECK(error_of(read_isopredict, reads, InitMode::Auto) ==
        "h:2:1: the initial transaction Txn(0, 0) reads, so it cannot be the initial state "
        "(--init implicit or none reads it as an ordinary transaction)");
  CHECK(error_of(read_isopredict, reads, InitMode::Implicit) == "no error");
}

// --- source lines ------------------------------------------------------------------------

namespace {

std::vector<std::uint32_t> lines_of(const History& h) {
  std::vector<std::uint32_t> out;
  for (TxnId t = 1; t < h.num_txns(); ++t)
    for (const Op& op : h.txn(t).ops) out.push_back(op.line);
  return out;
}

}  // namespace

TEST_CASE("source lines: every text reader sets Op::line") {
  using L = std::vector<std::uint32_t>;
  CHECK(lines_of(read(read_text_rw, "w(1,1,0,0)\n\nr(1,1,1,1)\nw(2,2,1,1)\n", InitMode::Auto)
                     .history) == L{1, 3, 4});
  CHECK(lines_of(read(read_awdit, "w 0 0\n-----\nr 0 0\n\nw 1 1\n", InitMode::Auto).history) ==
        L{1, 3, 5});
  CHECK(lines_of(read(read_isopredict,
                      "WRITE KEY[x] Txn(1, 0)\nREAD KEY[x] Txn(2, 0) From(1, 0)\n",
                      InitMode::Auto)
                     .history) == L{1, 2});
  // Elle: the line of the completion a micro-operation comes from; an
  // invocation that never completed keeps its own.
  CHECK(lines_of(read(read_elle_edn,
                      "{:type :invoke, :f :txn, :value [[:w :x 1] [:r :y nil]], :process 0}\n"
                      "{:type :invoke, :f :txn, :value [[:w :y 2]], :process 1}\n"
                      "{:type :ok, :f :txn, :value [[:w :x 1] [:r :y nil]], :process 0}\n",
                      InitMode::Auto)
                     .history) == L{3, 3, 2});
  // Native JSON: the line of the operation's array.
  CHECK(lines_of(read(read_native,
                      "{\"sessions\": [[{\"id\": \"A\", \"ops\": [\n"
                      "  [\"w\", \"x\", 1],\n"
                      "  [\"r\", \"x\",\n"
                      "   [1, 2]], [\"pr\", \"prefix:\", []]]}]]}",
                      InitMode::Auto)
                     .history) == L{2, 3, 4});
}

TEST_CASE("init native: the id of the transaction taken as T0 stays taken") {
  CHECK(error_of(read_native,
                 "{\"sessions\": [[{\"id\": \"A\", \"ops\": []}, {\"id\": \"A\", \"ops\": []}]]}",
                 InitMode::Explicit) ==
        "h:1:47: sessions[0][1].id: duplicate transaction id \"A\" (first used at 1:23)");
}
