// The text-based readers of other checkers' formats: Elle (EDN and JSON),
// text r/w(k,v,s,t), AWDIT and IsoPredict (FORMATS.md §2-§4, §8).
//
// Expected counts of the samples were computed independently of the readers
// with small Python scripts over the files (noted at each check).
#include <doctest/doctest.h>

#include "tests/unit/format_helpers.hpp"

#include "tests/unit/history_helpers.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/history/printer.hpp"

using namespace iso;

namespace {


const std::string kData = std::string(ISOSYNTH_SHARED_DIR) + "/data/histories/";

ReadResult load(const std::string& rel, std::optional<Format> format = std::nullopt,
                InitMode init = InitMode::Auto) {
  return read_history_path(kData + rel, format, ReadOptions{init});
}

std::size_t count_sessions(const History& h) {
  std::size_t n = 0;
  for (const auto& s : h.sessions()) n += s.empty() ? 0 : 1;
  return n;
}

// Everything a reader produces, spelled out, to compare two histories.
std::string describe(const History& h) {
  std::string out;
  for (KeyId k = 0; k < h.keys().size(); ++k)
    out += fmt::format("key {}{} init {}\n", h.key_text(k), h.keys()[k].integer ? "#" : "",
                       h.value_text(h.init_value(k)));
  for (const auto& s : h.sessions()) {
    out += "session\n";
    for (TxnId t : s) {
      const Transaction& x = h.txn(t);
      out += fmt::format(" {} status {} begin {} commit {}:", x.name, static_cast<int>(x.status),
                         x.begin ? std::to_string(*x.begin) : "-",
                         x.commit ? std::to_string(*x.commit) : "-");
      for (const Op& op : x.ops)
        out += fmt::format(" {}({},{})", op.kind == OpKind::Write ? 'w' : 'r',
                           h.key_text(op.key), h.value_text(op.value));
      out += "\n";
    }
  }
  for (const auto& [k, chain] : list_reads(h)) {
    out += "chain " + h.key_text(k) + ":";
    for (ValueId v : chain) out += " " + h.value_text(v);
    out += "\n";
  }
  return out;
}

// The message of reading `text` with `reader`, or "no error".
using Reader = std::function<ReadResult(std::string_view, const std::string&,
                                        const ReadOptions&)>;
std::string error_of(const Reader& reader, const std::string& text,
                     InitMode init = InitMode::Auto) {
  return message_of([&] { reader(text, "h", ReadOptions{init}); });
}

// Expects an InputError at `where` ("LINE:COL") whose message contains `part`.
void expect_error(const Reader& reader, const std::string& text, const std::string& where,
                  const std::string& part, InitMode init = InitMode::Auto) {
  std::string msg = error_of(reader, text, init);
  INFO("input: " << text);
  INFO("message: " << msg);
  CHECK(msg.starts_with("h:" + where + ": "));
  CHECK(msg.find(part) != std::string::npos);
}

const Transaction& by_name(const History& h, const std::string& name) {
  auto t = h.find_txn(name);
  REQUIRE_MESSAGE(t.has_value(), name);
  return h.txn(*t);
}

}  // namespace

// --- text r/w(k,v,s,t) -------------------------------------------------------

TEST_CASE("format text: PolySI/IsoVista samples load with their counts") {
  // Counts: awk over "(s,t)" groups of consecutive lines (uniq), distinct s.
  struct Case {
    const char* file;
    std::size_t txns, sessions;
    bool explicit_init;
  };
  for (const Case& c : {
           Case{"galera-si-violation.txt", 7, 2, false},          // starts with session 1
           Case{"yugabyte-si-violation.txt", 20, 2, false},       // T0.0 reads
           Case{"isovista-dgraph-si-bug.txt", 481, 11, false},    // T0.0 writes 1s, then 0s
           Case{"isovista-postgres-ser-bug.txt", 20, 20, true},   // 21 groups, T0.0 = init
           Case{"isovista-yugabyte-tcc-bug.txt", 20, 2, true},    // 21 groups, T0.0 = init
       }) {
    INFO(c.file);
    ReadResult r = load(std::string("polysi-text/") + c.file);
    CHECK(r.format == Format::Text);
    CHECK(r.history.num_txns() - 1 == c.txns);
    CHECK(count_sessions(r.history) == c.sessions);
    CHECK(r.explicit_init == c.explicit_init);
  }
}

TEST_CASE("format text: explicit initial state of the PostgreSQL bug") {
  ReadResult r = load("polysi-text/isovista-postgres-ser-bug.txt");
  REQUIRE(r.explicit_init);
  const History& h = r.history;
  CHECK(!h.find_txn("T0.0").has_value());
  CHECK(h.find_txn("T1.1").has_value());
  CHECK(h.keys().size() == 10);
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    CHECK(h.has_explicit_init(k));
    CHECK(h.value_text(h.init_value(k)) == "0");
  }
  CHECK(has_note(r, "initial state: explicit (--init auto): the first transaction T0.0 only "
                    "writes 0 to 10 keys: it is T0; T0 writes only its keys"));
  CHECK(r.initial_state == InitialState::Explicit);
  CHECK(h.initial_writes() == InitialWrites::ExplicitOnly);
  // The first line's transaction holds ten writes of 0; no other transaction
  // of the file writes 0.
  for (TxnId t = 1; t < h.num_txns(); ++t)
    for (const Op& op : h.txn(t).ops)
      if (op.kind == OpKind::Write) CHECK(h.value_text(op.value) != "0");

  ReadResult imp = load("polysi-text/isovista-postgres-ser-bug.txt", Format::Text,
                        InitMode::Implicit);
  CHECK(!imp.explicit_init);
  CHECK(imp.history.num_txns() - 1 == 21);
  CHECK(count_sessions(imp.history) == 21);
  CHECK(by_name(imp.history, "T0.0").ops.size() == 10);
  CHECK(!imp.history.has_explicit_init(0));
  CHECK(imp.initial_state == InitialState::Implicit);
  CHECK(imp.history.initial_writes() == InitialWrites::EveryKey);
  CHECK(imp.notes == std::vector<std::string>{
                         "initial state: implicit (--init implicit): T0 writes 0 to every key"});
}

TEST_CASE("format text: galera is not explicit, --init explicit on it") {
  ReadResult r = load("polysi-text/galera-si-violation.txt");
  CHECK(!r.explicit_init);
  CHECK(r.notes == std::vector<std::string>{
                       "initial state: implicit (--init auto): T0 writes 0 to every key; no "
                       "transaction is T0: the first line is transaction 1 of session 1, not "
                       "transaction 0 of session 0"});
  CHECK(by_name(r.history, "T2.8").ops.size() == 2);
  // --init explicit needs an initial transaction: refused, at the first line.
  CHECK(error_of(read_text_rw, "w(1,1,1,1)\n", InitMode::Explicit) ==
        "h:1:1: --init explicit: the first line is transaction 1 of session 1, not "
        "transaction 0 of session 0, so the file has no initial transaction");
  // dgraph's T0.0 writes 1 to 1000 keys: Auto keeps it as a transaction,
  // Explicit takes its values as the initial state.
  ReadResult d = load("polysi-text/isovista-dgraph-si-bug.txt");
  CHECK(!d.explicit_init);
  CHECK(has_note(d, "the first transaction T0.0 writes 1 to key 1 (line 1)"));
  ReadResult de = load("polysi-text/isovista-dgraph-si-bug.txt", Format::Text,
                       InitMode::Explicit);
  CHECK(de.explicit_init);
  CHECK(de.history.num_txns() - 1 == 480);
  auto k1 = de.history.find_key("1");
  REQUIRE(k1);
  CHECK(de.history.value_text(de.history.init_value(*k1)) == "1");
}

TEST_CASE("format text: grouping, aborted writes and names") {
  std::string text =
      "w(1,0,0,0)\n"
      "w(2,0,0,0)\n"
      "r(1,0,1,3)\r\n"
      "w(1,5,1,3)\n"
      "\n"
      "w(2,7,1,-1)\n"
      "r(2,7,1,-1)\n"
      "w(1,9,2,4)\n"
      "w(1,8,1,-1)\n"
      "r( 1 , 5 , 2 , 5 )\n"
      "r(2,7,1,6)";
  ReadResult r = read_text_rw(text, "h", {});
  const History& h = r.history;
  CHECK(r.explicit_init);
  CHECK(h.num_txns() - 1 == 6);
  CHECK(by_name(h, "T1.3").ops.size() == 2);
  const Transaction& a1 = by_name(h, "T1.abort1");
  CHECK(a1.status == TxnStatus::Aborted);
  REQUIRE(a1.ops.size() == 1);  // the read of the aborted group is ignored
  CHECK(a1.ops[0].kind == OpKind::Write);
  CHECK(by_name(h, "T1.abort2").status == TxnStatus::Aborted);
  CHECK(by_name(h, "T2.5").ops.size() == 1);
  CHECK(by_name(h, "T1.6").status == TxnStatus::Committed);
  // Session 1 in program order: T1.3, T1.abort1, T1.abort2, T1.6.
  REQUIRE(h.sessions().size() == 2);
  std::vector<std::string> names;
  for (TxnId t : h.sessions()[0]) names.push_back(h.txn(t).name);
  CHECK(names == std::vector<std::string>{"T1.3", "T1.abort1", "T1.abort2", "T1.6"});
  CHECK(has_note(r, "2 aborted transactions"));
}

TEST_CASE("format text: malformed inputs") {
  Reader rd = read_text_rw;
  expect_error(rd, "w(1,0,0,0)\nx(1,2,3,4)\n", "2:1", "expected an operation");
  expect_error(rd, "w(1 0,0,0)\n", "1:5", "expected ',' after the key");
  expect_error(rd, "w(1,0,0,0)\nw(-1,0,0,0)\n", "2:3", "non-negative integer as the key");
  expect_error(rd, "w(1,99999999999999999999,0,0)\n", "1:5", "out of range");
  expect_error(rd, "w(1,0,0,0\n", "1:10", "expected ')'");
  expect_error(rd, "w(1,0,0,0) x\n", "1:12", "unexpected text after the operation");
  expect_error(rd, "w(1,0,0,0)\nw(1,0,0,-2)\n", "2:9", "expected");
  expect_error(rd, "w(1,0,1,5)\nw(1,0,1,4)\n", "2:1", "transaction numbers must increase");
  // A transaction resuming after another of its session.
  expect_error(rd, "w(1,0,1,5)\nw(1,0,1,6)\nw(1,0,1,5)\n", "3:1", "comes after transaction 6");
  // --init explicit on a first transaction that reads.
  expect_error(rd, "w(1,0,0,0)\nr(2,0,0,0)\nw(1,1,1,1)\n", "2:1", "cannot be the initial state",
               InitMode::Explicit);
  CHECK(error_of(rd, "w(1,0,0,0)\nr(2,0,0,0)\n", InitMode::Auto) == "no error");
}

// --- AWDIT ---------------------------------------------------------------------

TEST_CASE("format awdit: every test file loads with its counts") {
  // Counts: Python split on '=====' / '-----', non-empty groups; a file is
  // explicit when its first transaction only writes 0 to distinct keys; when
  // it is, session 0 disappears if it held only that transaction.
  // AWDIT has no implicit initial state: every transaction of the file is
  // one of the history, and T0 writes nothing. `zeros`: the first transaction
  // only writes 0 (AWDIT's explicit initial reads), so --init explicit takes
  // it as T0.
  struct Case {
    const char* file;
    std::size_t txns, sessions;
    bool zeros;
  };
  std::vector<Case> cases = {
      {"causal/fully-ser.txt", 4, 3, false},
      {"causal/generated/l100e1000sqrt.txt", 278, 33, false},
      {"causal/generated/l20e200sqrt.txt", 69, 16, false},
      {"causal/generated/l50e1000sqrt.txt", 263, 33, false},
      {"causal/long-fork.txt", 5, 3, true},
      {"causal/lost-update.txt", 3, 3, true},
      {"none/hb-cycle.txt", 4, 2, false},
      {"read-atomic/biswas-enea.txt", 4, 3, false},
      {"read-atomic/generated/l100e1000sqrt.txt", 235, 33, false},
      {"read-atomic/generated/l10e100sqrt.txt", 33, 11, false},
      {"read-atomic/generated/l4e10sqrt.txt", 5, 5, false},
      {"read-atomic/generated/l5e20sqrt.txt", 9, 6, false},
      {"read-atomic/generated/l6e30sqrt.txt", 14, 7, false},
      {"read-atomic/test-ra.txt", 8, 5, true},
      {"read-committed/biswas-enea.txt", 4, 4, false},
      {"read-committed/generated/l100e1000sqrt.txt", 242, 33, false},
      {"read-committed/generated/l10e100sqrt.txt", 35, 11, false},
      {"read-committed/generated/l4e10sqrt.txt", 8, 4, false},
      {"read-committed/generated/l5e20sqrt.txt", 10, 6, false},
      {"read-committed/generated/l6e30sqrt.txt", 14, 7, false},
      {"read-committed/non-repeatable-read.txt", 3, 3, true},
      {"read-committed/test-rc.txt", 8, 5, true},
  };
  // Every file of the folder is covered.
  std::size_t files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(kData + "awdit-test"))
    files += e.is_regular_file() ? 1 : 0;
  CHECK(files == cases.size());
  for (const Case& c : cases) {
    INFO(c.file);
    ReadResult r = load(std::string("awdit-test/") + c.file);
    CHECK(r.format == Format::Awdit);
    CHECK(r.history.num_txns() - 1 == c.txns);
    CHECK(count_sessions(r.history) == c.sessions);
    CHECK(!r.explicit_init);
    CHECK(r.initial_state == InitialState::None);
    CHECK(r.history.initial_writes() == InitialWrites::ExplicitOnly);
    const Transaction& first = r.history.txn(r.history.sessions()[0][0]);
    bool zeros = true;
    for (const Op& op : first.ops)
      zeros = zeros && op.kind == OpKind::Write && r.history.value_text(op.value) == "0";
    CHECK(zeros == c.zeros);
  }
}

TEST_CASE("format awdit: long fork, initial state and names") {
  ReadResult r = load("awdit-test/causal/long-fork.txt", Format::Awdit, InitMode::Explicit);
  REQUIRE(r.explicit_init);
  CHECK(has_note(r, "initial state: explicit (--init explicit): the first transaction T0.0 is "
                    "T0; T0 writes only its keys"));
  const History& h = r.history;
  CHECK(!h.find_txn("T0.0").has_value());
  const Transaction& t = by_name(h, "T1.1");  // r 0 1, r 1 0
  REQUIRE(t.ops.size() == 2);
  CHECK(t.ops[0].kind == OpKind::Read);
  CHECK(h.key_text(t.ops[0].key) == "0");
  CHECK(h.value_text(t.ops[0].value) == "1");
  CHECK(by_name(h, "T2.0").session == by_name(h, "T2.1").session);
  CHECK(by_name(h, "T1.0").session != by_name(h, "T2.0").session);

  ReadResult imp = load("awdit-test/causal/long-fork.txt", Format::Awdit, InitMode::Implicit);
  CHECK(!imp.explicit_init);
  CHECK(imp.history.num_txns() - 1 == 5);
  CHECK(by_name(imp.history, "T0.0").ops.size() == 2);

  // fully-ser's first transaction writes 1: ordinary in Auto, an error-free
  // initial state when forced.
  ReadResult fs = load("awdit-test/causal/fully-ser.txt");
  CHECK(!fs.explicit_init);
  ReadResult fse = load("awdit-test/causal/fully-ser.txt", Format::Awdit, InitMode::Explicit);
  CHECK(fse.explicit_init);
  CHECK(fse.history.value_text(fse.history.init_value(*fse.history.find_key("1"))) == "1");
}

TEST_CASE("format awdit: malformed inputs") {
  Reader rd = read_awdit;
  expect_error(rd, "w 0 0\n=====\nx 1 2\n", "3:1", "expected an operation");
  expect_error(rd, "w 0 0\nr 1\n", "2:4", "expected a blank after the key");
  expect_error(rd, "w 0 0\nr 1 -2\n", "2:5", "non-negative integer as the value");
  expect_error(rd, "w 0 0\nr 1 2 3\n", "2:7", "unexpected text after the value");
  expect_error(rd, "w 0 0\nr 1 99999999999999999999\n", "2:5", "out of range");
  expect_error(rd, "w 0 0\nread 1 2\n", "2:2", "expected a blank");
  CHECK(error_of(rd, "=====\n-----\nw 0 0\n-----\n") == "no error");
}

// --- Elle ----------------------------------------------------------------------

TEST_CASE("format elle: samples load, EDN and JSON spellings give the same history") {
  // Counts: Python over ":type" per line (all :ok here), processes by ":process".
  ReadResult rw = load("elle-cli/rw-register.edn");
  CHECK(rw.format == Format::ElleEdn);
  CHECK(rw.history.num_txns() - 1 == 3);
  CHECK(count_sessions(rw.history) == 1);
  ReadResult rwj = load("elle-cli/rw-register.json");
  CHECK(rwj.format == Format::ElleJson);
  CHECK(describe(rw.history) == describe(rwj.history));

  ReadResult pe = load("elle-cli/paper-example.edn");
  ReadResult pj = load("elle-cli/paper-example.json");
  CHECK(pe.history.num_txns() - 1 == 4);
  CHECK(describe(pe.history) == describe(pj.history));
  // The original (no :process) reads as one process: the same history.
  ReadResult po = load("elle/paper-example.edn");
  CHECK(describe(po.history) == describe(pe.history));
  CHECK(has_note(po, "8 operations have no :process"));

  ReadResult gh = load("elle-cli/list-append-gh-30.edn");
  CHECK(gh.history.num_txns() - 1 == 5);
  CHECK(count_sessions(gh.history) == 3);

  ReadResult si = load("elle/si-without-g-single.edn");
  CHECK(si.history.num_txns() - 1 == 4);
  CHECK(count_sessions(si.history) == 4);
  CHECK(si.history.find_txn("T41").has_value());
  // Real time is the order of events: the begin is the invocation's
  // position, which the file's dense :index gives.
  CHECK(by_name(si.history, "T41").begin == 6);  // the seventh operation (:index 40)
  CHECK(by_name(si.history, "T41").commit == 7);
}

TEST_CASE("format elle: rw-register reads, names and the nil initial value") {
  ReadResult r = load("elle-cli/rw-register.edn");
  const History& h = r.history;
  auto x = h.find_key("x");
  REQUIRE(x);
  CHECK(!h.keys()[*x].integer);
  CHECK(h.value_text(h.init_value(*x)) == "null");
  const Transaction& t4 = by_name(h, "T4");  // [:r :x 3]
  REQUIRE(t4.ops.size() == 1);
  CHECK(t4.ops[0].kind == OpKind::Read);
  CHECK(h.value_text(t4.ops[0].value) == "3");
  CHECK(by_name(h, "T2").ops[0].kind == OpKind::Write);
}

TEST_CASE("format elle: the closed-predicate workload (:init, :insert, :delete, :rp)") {
  const std::string text =
      "{:type :invoke, :f :init, :value {:x 1, :y 2}, :process 0, :index 0}\n"
      "{:type :ok, :f :init, :value {:x 1, :y 2}, :process 0, :index 1}\n"
      "{:type :invoke, :f :txn, :value [[:rp [:mod 2 0] nil] [:r :z nil]], :process 1, :index 2}\n"
      "{:type :invoke, :f :txn, :value [[:insert :z 4] [:w :x 3]], :process 2, :index 3}\n"
      "{:type :ok, :f :txn, :value [[:insert :z 4] [:w :x 3]], :process 2, :index 4}\n"
      "{:type :ok, :f :txn, :value [[:rp [:mod 2 0] {:y 2}] [:r :x 3]], :process 1, :index 5}\n"
      "{:type :invoke, :f :txn, :value [[:delete :y] [:rp :true nil]], :process 0, :index 6}\n"
      "{:type :ok, :f :txn, :value [[:delete :y] [:rp [:= 3] {:x 3}] [:r :y nil]], :process 0, :index 7}\n";
  const ReadResult r = read_elle_edn(text, "h", {});
  const History& h = r.history;
  CHECK(r.initial_state == InitialState::Explicit);
  // T0 writes x and y only; z is unborn until T4 inserts it.
  CHECK(h.t0_writes(*h.find_key("x")));
  CHECK_FALSE(h.t0_writes(*h.find_key("z")));
  CHECK(h.value_text(h.init_value(*h.find_key("y"))) == "2");
  CHECK(format_txn(h, *h.find_txn("T5")) == "T5: pr(v%2=0: {y=2}) r(x,3)");
  // A delete, a predicate read with [:= 3], and a read of nil after the
  // delete: a predicate read of y alone that returned nothing.
  CHECK(format_txn(h, *h.find_txn("T7")) == "T7: d(y) pr(v=3: {x=3}) pr([y,y]: {})");
  // The phantom: T5's predicate read missed T4's insert of z but T5 read
  // T4's x. Serializable it is not; Adya's PL-2.99 allows it.
  CHECK(decide(h, library().level("biswas.SER")).verdict == Verdict::Violated);
  CHECK(decide(h, library().level("adya.PL-2.99")).verdict == Verdict::Allowed);
  // --init implicit and none contradict the :init operation.
  Reader edn = read_elle_edn;
  expect_error(edn, text, "2:1", "its :init operation gives the initial state", InitMode::Implicit);
  expect_error(edn, "{:type :ok, :value [[:rp [:mod 0 1] nil]]}\n", "1:32", "modulus of [:mod m r] must be positive");
  expect_error(edn, "{:type :ok, :value [[:rp [:like 1] nil]]}\n", "1:26", "unknown predicate");
  expect_error(edn, "{:type :ok, :value [[:rp :true [1 2]]]}\n", "1:32", "expected a map of keys to values");
  expect_error(edn, "{:type :ok, :value [[:delete 1 2]]}\n", "1:21", "a delete names its key alone");
  expect_error(edn, "{:type :ok, :value [[:rp :true {:z 3, :z 4}]]}\n", "1:39", "key \"z\" appears twice");
  expect_error(edn, "{:type :ok, :f :init, :value {:x 1}}\n{:type :ok, :f :init, :value {:x 2}}\n{:type :ok, :value []}\n",
               "2:1", "a second :init operation");
}

TEST_CASE("format elle: list-append reads and version chains") {
  ReadResult r = load("elle-cli/paper-example.edn");
  const History& h = r.history;
  const Transaction& t5 = by_name(h, "T5");
  // [:append 256 4] [:r 255 [2 3 4 5 8]] [:r 256 [1 2 4]] [:r 253 [1 3 4]]
  REQUIRE(t5.ops.size() == 4);
  CHECK(t5.ops[0].kind == OpKind::Write);
  CHECK(h.key_text(t5.ops[1].key) == "255");
  CHECK(h.keys()[t5.ops[1].key].integer);
  CHECK(h.value_text(t5.ops[1].value) == "8");
  CHECK(h.value_text(t5.ops[2].value) == "4");
  std::string chains;
  for (const auto& [k, chain] : list_reads(h)) {
    chains += h.key_text(k) + ":";
    for (ValueId v : chain) chains += " " + h.value_text(v);
    chains += ";";
  }
  CHECK(chains == "253: 1 3 4;255: 2 3 4 5 8;256: 1 2 4;253: 1 3 4;253: 1 3 4;255: 2 3 4 5;");
  // [:r 2 []] is a read of the initial value nil.
  ReadResult gh = load("elle-cli/list-append-gh-30.edn");
  const Transaction& t8 = by_name(gh.history, "T8");
  CHECK(gh.history.value_text(t8.ops[0].value) == "null");
}

TEST_CASE("format elle: :fail, :info and unfinished invocations") {
  std::string edn =
      "; a comment\n"
      "[{:type :invoke, :f :txn, :process 0, :time 10, :index 1, :value [[:w :x 1] [:r :y nil]]}\n"
      " {:type :invoke, :f :txn, :process 1, :index 2, :value [[:append 5 1]]}\n"
      " {:type :fail, :f :txn, :process 0, :time 20, :index 3, :value [[:w :x 1] [:r :y 2]]}\n"
      " {:type :info, :f :txn, :process 1, :index 4, :value [[:append 5 1]]}\n"
      " {:type :invoke, :f :txn, :process 0, :time 30, :index 5, :value [[:r :y nil]]}\n"
      " {:type :info, :f :start, :process :nemesis, :index 6}\n"
      " {:type :ok, :f :txn, :process 0, :time 40, :index 7, :value [[:r :y \"s\"]]}\n"
      " {:type :invoke, :f :txn, :process 2, :index 8, :value [[:w :z 3]]}\n"
      " {:type :invoke, :f :txn, :process 3, :index 9, :value [[:r :z nil]]}\n"
      " {:type :fail, :f :txn, :process 3, :index 10, :value [[:r :z nil]]}]\n";
  ReadResult r = read_elle_edn(edn, "h", {});
  const History& h = r.history;
  const Transaction& f = by_name(h, "T3");
  CHECK(f.status == TxnStatus::Aborted);
  REQUIRE(f.ops.size() == 1);  // only the write is kept
  CHECK(f.ops[0].kind == OpKind::Write);
  // Real time is the order of events, not :time: positions from 0.
  CHECK(f.begin == 0);
  CHECK(!f.commit.has_value());
  CHECK(by_name(h, "T4").status == TxnStatus::Unknown);
  const Transaction& ok = by_name(h, "T7");
  CHECK(ok.status == TxnStatus::Committed);
  CHECK(ok.begin == 4);
  CHECK(ok.commit == 6);
  CHECK(!by_name(h, "T4").commit.has_value());  // indeterminate: nothing follows it
  CHECK(by_name(h, "T4").begin == 1);
  CHECK(h.value_text(ok.ops[0].value) == "\"s\"");
  CHECK(f.session == ok.session);
  CHECK(h.sessions()[f.session] == std::vector<TxnId>{*h.find_txn("T3"), *h.find_txn("T7")});
  const Transaction& never = by_name(h, "T8");  // named after its invocation
  CHECK(never.status == TxnStatus::Unknown);
  CHECK(never.ops.size() == 1);
  CHECK(!h.find_txn("T10").has_value());  // a failed read-only transaction is left out
  CHECK(h.num_txns() - 1 == 4);
  CHECK(count_status(h, TxnStatus::Unknown) == 2);
  CHECK(has_note(r, "1 operations with an :f other than :txn"));
  CHECK(has_note(r, "1 invocations never completed"));
  for (KeyId k = 0; k < h.keys().size(); ++k) CHECK(h.value_text(h.init_value(k)) == "null");
}

TEST_CASE("format elle: the huge history") {
  // Counts: Python pairing of invocations and completions per :process over
  // the 20,602 lines: 3036 :ok, 5406 :fail with an append, 109 :info with an
  // append, 1703 failed/indeterminate read-only transactions, 171 processes
  // with a transaction kept.
  ReadResult r = load("elle/huge-scc.edn");
  const History& h = r.history;
  CHECK(count_status(h, TxnStatus::Committed) == 3036);
  CHECK(count_status(h, TxnStatus::Aborted) == 5406);
  CHECK(count_status(h, TxnStatus::Unknown) == 109);
  CHECK(h.num_txns() - 1 == 3036 + 5406 + 109);
  CHECK(count_sessions(h) == 171);
  CHECK(has_note(r, "1703 failed or indeterminate"));
  const Transaction& t2 = by_name(h, "T2");  // the completion of :index 0
  // Real time is the order of events: positions, the dense :index of the
  // invocation and of the completion (not :time).
  CHECK(t2.begin == 0);
  CHECK(t2.commit == 2);
}

TEST_CASE("format elle: malformed inputs") {
  Reader edn = read_elle_edn;
  Reader json = read_elle_json;
  expect_error(edn, "{:type :invoke, :value [[:w 1 2]]}\n{:type :ok :value [[:w 1 2]]",
               "2:29", "expected '}' to close the '{' at line 2, column 1");
  expect_error(edn, "{:type :invoke, :value [[:w 1 2]]]\n", "1:34", "expected '}'");
  expect_error(edn, "{:type :ok, :value [[:x 1 2]]}\n", "1:22", "unknown micro-operation");
  expect_error(edn, "{:type :okay, :value []}\n", "1:8", "unknown :type");
  expect_error(edn, "{:type :ok, :value [[:w 1]]}\n", "1:21", "[f key value]");
  expect_error(edn, "{:type :ok, :index -1, :value []}\n", "1:20", "non-negative");
  expect_error(edn, "{:type :ok, :index 99999999999999999999, :value []}\n", "1:20",
               "out of range");
  expect_error(edn, "{:type :ok, :index 1 :value []}\n{:type :ok, :index 1 :value []}\n",
               "2:20", ":index 1 is used twice");
  expect_error(edn, "{:type :invoke, :process 1, :value []}\n{:type :invoke, :process 1, :value []}",
               "2:1", "has not completed");
  expect_error(edn, "[" + std::string(100, '[') + "]", "1:66", "nested deeper than 64");
  expect_error(edn, "{:type :ok, :value [[:w 1 \"abc]]}", "1:34", "unexpected end of input");
  expect_error(edn, "{:type :ok :value}", "1:18", "expected a value for the last key");
  expect_error(edn, "[{:type :ok, :value []}", "1:24", "expected ']' to close the '['");
  expect_error(edn, "(:type)", "1:2", "expected an operation map");
  expect_error(json, "[{\"type\" \"ok\"}]", "1:10", "expected ':' after the object key");
  expect_error(json, "[{\"type\":\"ok\",\"value\":[[\"w\",\"x\",nil]]}]", "1:33", "JSON value");
  expect_error(json, "[{\"type\":\"ok\",\"value\":[[\"r\",\"x\",1]]}] x", "1:39",
               "unexpected text after the closing ']'");
  // Tolerated EDN: sets, tags, discards, chars, floats and symbols elsewhere.
  CHECK(error_of(edn, "#_[:bad] {:type :ok, :f :txn, :value [[:w :x 1]], :x #{1 2}, :t #inst "
                      "\"2020\", :c \\a, :l 1.5, :s foo/bar}") == "no error");
}

// --- IsoPredict -----------------------------------------------------------------

TEST_CASE("format isopredict: reads from named transactions") {
  // IsoPredict's microbenchmark simple_causal_2s4t.txt, plus set operations.
  std::string text =
      "WRITE KEY[x] Txn(1, 0)\n"
      "WRITE KEY[x] Txn(1, 1)\n"
      "WRITE KEY[y] Txn(1, 1)\n"
      "WRITE KEY[y] Txn(2, 0)\n"
      "READ KEY[x] Txn(2, 0) From(1, 0)\n"
      "READ KEY[y] Txn(1, 2) From(2, 0)\n"
      "READ KEY[z] Txn(1, 2) From(0, 0)\n"
      "INSERT[7] to Set[s] Txn(2, 1)\n"
      "CONTAINS[7] in Set[s] From(2, 1) Txn(2, 1)\n"
      "DELETE[7] from Set[s] Txn(3, 0)\n"
      "DELETE KEY[8] From Set(s) Txn(3, 0)\n"
      "READ KEY[x] Txn(3, 1) From(2, 0)\n";
  ReadResult r = read_isopredict(text, "h", {});
  const History& h = r.history;
  CHECK(r.format == Format::IsoPredict);
  CHECK(h.num_txns() - 1 == 7);
  CHECK(count_sessions(h) == 3);
  const Transaction& t20 = by_name(h, "T2.0");
  // x: the first write (by T1.0) writes 1, the second (T1.1) 2.
  CHECK(h.value_text(t20.ops[1].value) == "1");
  const Transaction& t12 = by_name(h, "T1.2");
  CHECK(h.value_text(t12.ops[0].value) == "2");  // y: T1.1 wrote 1, T2.0 wrote 2
  CHECK(h.value_text(t12.ops[1].value) == "0");  // the initial state
  const Transaction& t21 = by_name(h, "T2.1");
  CHECK(h.key_text(t21.ops[0].key) == "Set(s:7)");
  CHECK(t21.ops[1].value == t21.ops[0].value);  // reads its own insert
  // T2.0 never writes x: a value nobody wrote.
  const Transaction& t31 = by_name(h, "T3.1");
  CHECK(h.value_text(t31.ops[0].value) == "3");
  CHECK(has_note(r, "1 read names a transaction that never writes the key"));
}

TEST_CASE("format isopredict: malformed inputs") {
  Reader rd = read_isopredict;
  expect_error(rd, "WRITE KEY[x] Txn(1, 0)\nUPDATE KEY[x] Txn(1, 0)\n", "2:1",
               "expected an event");
  expect_error(rd, "WRITE KEY[x Txn(1, 0)\n", "1:11", "expected ']'");
  expect_error(rd, "WRITE KEY[x] Txn(1 0)\n", "1:20", "expected ',' after the session");
  expect_error(rd, "READ KEY[x] Txn(1, 0)\n", "1:22", "expected 'From('");
  expect_error(rd, "WRITE KEY[x] Txn(0, 1)\n", "1:1",
               "Txn(0, 1): session 0 is the initial state and has only transaction 0");
  expect_error(rd, "READ KEY[x] Txn(1, 0) From(0, 3)\n", "1:23", "From(0, 3)");
  expect_error(rd, "WRITE KEY[x] Txn(1, 2)\nWRITE KEY[x] Txn(1, 1)\n", "2:1",
               "must increase");
  expect_error(rd, "READ KEY[x] Txn(1, 0) From(1, 0)\n", "1:23", "from itself before");
  expect_error(rd, "WRITE KEY[x] Txn(1, 99999999999)\n", "1:21", "out of range");
}

// --- Elle: inputs that are not what isosynth checks -------------------------------

TEST_CASE("format elle: histories without :txn operations are refused, naming the workload") {
  Reader edn = read_elle_edn;
  Reader json = read_elle_json;
  // Jepsen's bank test.
  CHECK(error_of(edn,
                 "{:type :invoke, :f :transfer, :value {:from 1, :to 2, :amount 5}, :process 0}\n"
                 "{:type :ok, :f :transfer, :value {:from 1, :to 2, :amount 5}, :process 0}\n"
                 "{:type :invoke, :f :read, :value nil, :process 1}\n"
                 "{:type :ok, :f :read, :value {1 10, 2 20}, :process 1}\n") ==
        "h:1:1: no :txn operations: this is a Jepsen bank workload's history (:f :transfer, "
        ":read), not a transactional one; isosynth checks rw-register and list-append "
        "histories (:f :txn)");
  // A set: :add of elements, :read of a collection.
  CHECK(error_of(edn,
                 "{:type :invoke, :f :add, :value 1, :process 0}\n"
                 "{:type :ok, :f :add, :value 1, :process 0}\n"
                 "{:type :invoke, :f :read, :value nil, :process 0}\n"
                 "{:type :ok, :f :read, :value #{1}, :process 0}\n")
            .find("a Jepsen set workload's history (:f :add, :read)") != std::string::npos);
  // A counter: :read returns a number.
  CHECK(error_of(json,
                 "[{\"type\":\"invoke\",\"f\":\"add\",\"value\":1,\"process\":0},"
                 "{\"type\":\"ok\",\"f\":\"add\",\"value\":1,\"process\":0},"
                 "{\"type\":\"ok\",\"f\":\"read\",\"value\":1,\"process\":1}]")
            .find("a Jepsen counter workload's history (\"f\" \"add\", \"read\")") !=
        std::string::npos);
  CHECK(error_of(edn, "{:type :invoke, :f :cas, :value [1 2], :process 0}\n")
            .find("a Jepsen cas-register workload's history") != std::string::npos);
  CHECK(error_of(edn, "{:type :invoke, :f :enqueue, :value 1, :process 0}\n")
            .find("a Jepsen queue workload's history") != std::string::npos);
  CHECK(error_of(edn, "{:type :invoke, :f :frob, :value 1, :process 0}\n")
            .find("this is a Jepsen workload's history (:f :frob)") != std::string::npos);
  CHECK(error_of(edn, "; nothing\n") == "h: no operations");
  // Some :txn operations: the others are ignored, and said so.
  ReadResult mixed = read_elle_edn(
      "{:type :invoke, :f :start, :process :nemesis}\n"
      "{:type :ok, :f :txn, :value [[:w :x 1]], :process 0}\n",
      "h", {});
  CHECK(has_note(mixed, "1 operations with an :f other than :txn are not transactions"));
}

TEST_CASE("format elle: keys and values are compared as Elle compares them") {
  Reader edn = read_elle_edn;
  Reader json = read_elle_json;
  auto ok = [](const std::string& value) {
    return "{:type :ok, :f :txn, :value " + value + ", :process 0}\n";
  };
  // Vector, map and float keys and values: one per class of equal values.
  ReadResult r = read_elle_edn(ok("[[:w [1 2] 1.5] [:w {:b 2, :a 1} 2M] [:w #{2 1} {:k [1 2.0]}]]") +
                                   ok("[[:r (1 2) 1.50] [:r {:a 1 :b 2} 2M] [:r #{1 2} {:k (1 2.00)}]]") +
                                   ok("[[:r [1 2.0] 15e-1] [:w 7 -0.0] [:r 7 0.0] [:w 8 \\a] [:w 9 true]]"),
                               "h", {});
  const History& h = r.history;
  REQUIRE(h.num_txns() == 4);
  const Transaction& t1 = h.txn(1);
  const Transaction& t2 = h.txn(2);
  const Transaction& t3 = h.txn(3);
  CHECK(h.keys().size() == 7);  // [1 2], {:a 1, :b 2}, #{1 2}, [1 2.0], 7, 8, 9
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(t1.ops[i].key == t2.ops[i].key);      // a list is the vector, a map or set in any order
    CHECK(t1.ops[i].value == t2.ops[i].value);  // 1.5 = 1.50, {:k [1 2.0]} = {:k (1 2.00)}
  }
  CHECK(t3.ops[0].key != t1.ops[0].key);        // [1 2.0] is not [1 2]: 2 is not 2.0
  CHECK(t3.ops[0].value == t1.ops[0].value);    // 15e-1 is 1.5
  CHECK(t3.ops[1].value == t3.ops[2].value);    // -0.0 = 0.0
  CHECK(h.value_text(t1.ops[0].value) == "\"1.5\"");
  CHECK(h.key_text(t1.ops[1].key) == "\"{:a 1, :b 2}\"");
  CHECK(has_note(r, "compared by equality, as Elle compares them"));
  CHECK(error_of(json, "[{\"type\":\"ok\",\"value\":[[\"w\",[1],0.5]]}]") == "no error");
  // What equality cannot decide, or what would be taken for another value.
  expect_error(edn, ok("[[:w 1 ##NaN]]"), "1:36", "a value holding ##NaN is not supported");
  expect_error(edn, ok("[[:w [1 ##NaN] 1]]"), "1:34", "a key holding ##NaN is not supported");
  expect_error(edn, ok("[[:w \"[1 2]\" 1] [:w [1 2] 1]]"), "1:49",
               "this key and the key on line 1, column 34 are both spelled \"[1 2]\"");
  expect_error(edn, ok("[[:w 1 1.5] [:w 1 \"1.5\"]]"), "1:47",
               "this value and the value on line 1, column 36 are both spelled \"1.5\"");
  expect_error(edn, ok("[[:w 1 1/2]]"), "1:36", "ratio 1/2: ratios are not supported");
  expect_error(edn, ok("[[:w 1 123456789012345678901234N]]"), "1:36",
               "integer 123456789012345678901234N is out of range: integers beyond 64 bits "
               "are not supported");
  expect_error(edn,
               "{:type :invoke, :f :txn, :process 1, :value [[:w 1 1]]}\n"
               "{:type :invoke, :f :txn, :process 1, :value [[:w 1 2]]}\n",
               "2:1",
               "overlapping invocations in one process are not supported: process 1 invokes "
               "again while its invocation on line 1 has not completed (Jepsen refuses this "
               "too");
  // Big integers that fit, and Jepsen's history records, are read.
  ReadResult big = read_elle_edn(
      "#jepsen.history.Op{:index 0, :time 1, :type :invoke, :process 0, :f :txn, "
      ":value [[:w 1 12N]]}\n"
      "#jepsen.history.Op{:index 1, :time 2, :type :ok, :process 0, :f :txn, "
      ":value [[:w 1 12N]]}\n",
      "h", {});
  REQUIRE(big.history.num_txns() == 2);
  CHECK(big.history.value_text(big.history.txn(1).ops[0].value) == "12");
  CHECK(big.history.txn(1).name == "T1");
}

TEST_CASE("format elle, isopredict: text that is not UTF-8 is refused") {
  // Keys and values must be UTF-8 to be written as JSON (the native format).
  expect_error(read_elle_edn, "{:type :ok, :f :txn, :value [[:w :\xff 1]]}\n", "1:35",
               "expected UTF-8 text, found bytes that are not");
  expect_error(read_elle_edn, "{:type :ok, :f :txn, :value [[:w 1 \"a\xc3\"]]}\n", "1:36",
               "the string is not UTF-8 text (byte 2 of its text)");
  expect_error(read_elle_json, "[{\"type\":\"ok\",\"value\":[[\"w\",\"\xed\xa0\x80\",1]]}]",
               "1:29", "the string is not UTF-8 text (byte 1 of its text)");
  expect_error(read_isopredict, "WRITE KEY[ab\xfe] Txn(1, 0)\n", "1:13",
               "the key is not UTF-8 text");
  CHECK(error_of(read_isopredict, "WRITE KEY[\xc3\xa9] Txn(1, 0)\n") == "no error");
}

TEST_CASE("format elle: real time is the order of events, whatever :time says") {
  // Elle's real-time order: a completion before an invocation in the
  // history. :time is not read, not even when it runs backwards.
  ReadResult r = read_elle_edn(
      "{:type :invoke, :f :txn, :value [[:w 1 1]], :process 0, :time 50}\n"
      "{:type :ok, :f :txn, :value [[:w 1 1]], :process 0, :time 40}\n"
      "{:type :invoke, :f :txn, :value [[:r 1 nil]], :process 1, :time 10}\n"
      "{:type :invoke, :f :txn, :value [[:r 1 nil]], :process 2}\n"
      "{:type :ok, :f :txn, :value [[:r 1 1]], :process 1, :time 0.5}\n"
      "{:type :ok, :f :txn, :value [[:r 1 1]], :process 2}\n",
      "h", {});
  const History& h = r.history;
  const TxnId t1 = *h.find_txn("L2"), t2 = *h.find_txn("L5"), t3 = *h.find_txn("L6");
  CHECK(h.txn(t1).begin == 0);
  CHECK(h.txn(t1).commit == 1);
  CHECK(h.real_time_before(t1, t2));
  CHECK(h.real_time_before(t1, t3));
  CHECK_FALSE(h.real_time_before(t2, t3));  // overlapping
  CHECK_FALSE(h.real_time_before(t3, t2));
  CHECK(has_note(r, "real time is the order of events in the history"));
}
