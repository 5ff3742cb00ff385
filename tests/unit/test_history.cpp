#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/history/abstract.hpp"
#include "engine/history/history.hpp"
#include "engine/history/printer.hpp"

using namespace iso;

namespace {

std::vector<TxnId> as_vector(std::span<const TxnId> c) { return {c.begin(), c.end()}; }

// A small builder: ops written as ("r", "x", 1).
struct Builder {
  History h;
  TxnId txn(SessionId s, const std::string& name, TxnStatus st = TxnStatus::Committed) {
    while (h.sessions().size() <= s) h.add_session();
    return h.add_txn(s, name, st);
  }
  void r(TxnId t, const std::string& k, std::int64_t v) {
    h.add_read(t, h.intern_key(k), h.intern_value(Value{v}));
  }
  void w(TxnId t, const std::string& k, std::int64_t v) {
    h.add_write(t, h.intern_key(k), h.intern_value(Value{v}));
  }
};

std::vector<TxnId> ids(std::initializer_list<TxnId> l) { return l; }

}  // namespace

TEST_CASE("history: T0 and interning") {
  History h;
  REQUIRE(h.num_txns() == 1);
  CHECK(h.txn(kInitTxn).name == "T0");
  CHECK(h.txn(kInitTxn).session == kNoSession);
  CHECK(h.txn(kInitTxn).status == TxnStatus::Committed);
  CHECK(h.find_txn("T0") == kInitTxn);

  ValueId zero = h.intern_value(Value{std::int64_t{0}});
  CHECK(zero == 0);  // interned by the constructor
  ValueId one = h.intern_value(Value{std::int64_t{1}});
  ValueId one_s = h.intern_value(Value{std::string("1")});
  ValueId null = h.intern_value(Value{});
  CHECK(one != one_s);
  CHECK(one != null);
  CHECK(one_s != null);
  CHECK(h.intern_value(Value{std::int64_t{1}}) == one);
  CHECK(h.intern_value(Value{std::string("1")}) == one_s);
  CHECK(h.intern_value(Value{}) == null);
  CHECK(h.values().size() == 4);
  CHECK(h.value_text(one) == "1");
  CHECK(h.value_text(one_s) == "\"1\"");
  CHECK(h.value_text(null) == "null");
  CHECK(h.value_text(h.intern_value(Value{std::int64_t{-7}})) == "-7");
  CHECK(h.value_text(h.intern_value(Value{std::string("a\"b")})) == "\"a\\\"b\"");

  KeyId x = h.intern_key("x");
  KeyId k1 = h.intern_key("1", true);
  CHECK(h.intern_key("x") == x);
  CHECK(h.intern_key("1", false) == k1);  // same text, same key
  CHECK(h.keys()[k1].integer);
  CHECK(!h.keys()[x].integer);
  CHECK(h.find_key("x") == x);
  CHECK(!h.find_key("y"));
  CHECK(h.key_text(x) == "x");

  CHECK(h.init_value(x) == zero);
  CHECK(!h.has_explicit_init(x));
  h.set_init(x, one);
  CHECK(h.init_value(x) == one);
  CHECK(h.has_explicit_init(x));

  SessionId s0 = h.add_session();
  SessionId s1 = h.add_session();
  TxnId a = h.add_txn(s1, "A");
  TxnId b = h.add_txn(s0, "B", TxnStatus::Aborted);
  TxnId c = h.add_txn(s1, "C", TxnStatus::Unknown);
  CHECK(a == 1);
  CHECK(b == 2);
  CHECK(c == 3);
  CHECK(h.txn(c).position == 1);
  CHECK(h.txn(c).session == s1);
  CHECK(h.txn(b).status == TxnStatus::Aborted);
  CHECK(h.sessions()[s1] == ids({a, c}));
  CHECK(h.find_txn("C") == c);
  CHECK(!h.find_txn("D"));
}

TEST_CASE("abstract: external reads and final writes") {
  Builder b;
  TxnId t1 = b.txn(0, "T1");
  b.r(t1, "x", 0);
  b.w(t1, "x", 1);
  b.r(t1, "x", 1);
  b.w(t1, "x", 2);
  b.w(t1, "y", 3);
  b.r(t1, "z", 0);
  AbstractHistory a = abstract_history(b.h);
  CHECK(a.int_violations.empty());
  CHECK(a.unjustified_reads.empty());
  KeyId x = *b.h.find_key("x"), y = *b.h.find_key("y"), z = *b.h.find_key("z");
  REQUIRE(a.abs[t1].reads.size() == 2);
  CHECK(a.abs[t1].reads[0].key == x);
  CHECK(a.abs[t1].reads[0].op == 0);
  CHECK(a.abs[t1].reads[1].key == z);
  CHECK(a.abs[t1].reads[1].op == 5);
  REQUIRE(a.abs[t1].writes.size() == 2);
  CHECK(a.abs[t1].writes[0].key == x);
  CHECK(b.h.value_text(a.abs[t1].writes[0].value) == "2");
  CHECK(a.abs[t1].writes[0].op == 3);
  CHECK(a.abs[t1].writes[1].key == y);
  CHECK(a.writes(t1, x));
  CHECK(!a.writes(t1, z));
  // T0 writes the initial value of every key.
  REQUIRE(a.abs[kInitTxn].writes.size() == 3);
  CHECK(a.writes(kInitTxn, z));
  CHECK(a.abs[kInitTxn].writes[1].value == b.h.init_value(y));
}

TEST_CASE("abstract: a write-first key gives no external read") {
  Builder b;
  TxnId t1 = b.txn(0, "T1");
  b.w(t1, "x", 1);
  b.r(t1, "x", 1);
  AbstractHistory a = abstract_history(b.h);
  CHECK(a.abs[t1].reads.empty());
  CHECK(a.int_violations.empty());
}

TEST_CASE("abstract: INT violations") {
  SUBCASE("own write") {
    Builder b;
    TxnId t1 = b.txn(0, "T1");
    b.w(t1, "x", 1);
    b.r(t1, "x", 2);
    AbstractHistory a = abstract_history(b.h);
    REQUIRE(a.int_violations.size() == 1);
    CHECK(a.int_violations[0].txn == t1);
    CHECK(a.int_violations[0].op == 1);
    CHECK(a.int_violations[0].message ==
          "T1: r(x,2) does not return its own earlier write w(x,1)");
    CHECK(a.int_violations[0].kind == IntViolation::Kind::OwnWrite);
    CHECK(a.int_violations[0].pattern == IntViolation::Pattern::NotMyOwnWrite);
  }
  SUBCASE("last own write, not the first") {
    Builder b;
    TxnId t1 = b.txn(0, "T1");
    b.w(t1, "x", 1);
    b.w(t1, "x", 2);
    b.r(t1, "x", 1);
    AbstractHistory a = abstract_history(b.h);
    REQUIRE(a.int_violations.size() == 1);
    CHECK(a.int_violations[0].message ==
          "T1: r(x,1) returns its own overwritten write w(x,1), not its last write w(x,2)");
    CHECK(a.int_violations[0].pattern == IntViolation::Pattern::NotMyLastWrite);
  }
  SUBCASE("another transaction's write after its own") {
    Builder b;
    TxnId t1 = b.txn(0, "T1");
    b.w(t1, "x", 1);
    TxnId t2 = b.txn(1, "T2");
    b.w(t2, "x", 2);
    b.r(t2, "x", 1);
    AbstractHistory a = abstract_history(b.h);
    REQUIRE(a.int_violations.size() == 1);
    CHECK(a.int_violations[0].txn == t2);
    CHECK(a.int_violations[0].pattern == IntViolation::Pattern::NotMyOwnWrite);
    CHECK(plume_pattern(a.int_violations[0].pattern).code == "TAP-d");
  }
  SUBCASE("a non-repeatable read is two read events, not an INT violation") {
    Builder b;
    TxnId t0 = b.txn(0, "T9");
    b.w(t0, "x", 1);
    TxnId t1 = b.txn(1, "T1");
    b.r(t1, "x", 0);
    b.r(t1, "y", 0);
    b.r(t1, "x", 1);
    b.w(t1, "x", 2);
    b.r(t1, "x", 2);  // after its own write: not an event
    AbstractHistory a = abstract_history(b.h);
    CHECK(a.int_violations.empty());
    // By key, then in program order.
    REQUIRE(a.abs[t1].reads.size() == 3);
    CHECK(a.abs[t1].reads[0].op == 0);
    CHECK(a.abs[t1].reads[1].op == 2);
    CHECK(a.abs[t1].reads[2].op == 1);
    REQUIRE(a.candidates[t1].size() == 3);
    CHECK(as_vector(a.candidates[t1][0]) == std::vector<TxnId>{kInitTxn});
    CHECK(as_vector(a.candidates[t1][1]) == std::vector<TxnId>{t0});
  }
  SUBCASE("a list read after the transaction's own append: one violation, in list terms") {
    Builder b;
    TxnId t1 = b.txn(0, "T1");
    b.w(t1, "x", 1);  // an append of 1
    const KeyId x = b.h.intern_key("x");
    b.h.add_list_read(t1, x, {b.h.intern_value(Value{std::int64_t{2}})}, b.h.init_value(x));
    AbstractHistory a = abstract_history(b.h);
    REQUIRE(a.int_violations.size() == 1);
    CHECK(a.int_violations[0].kind == IntViolation::Kind::OwnAppends);
    CHECK(a.int_violations[0].pattern == IntViolation::Pattern::NotMyOwnWrite);
  }
  SUBCASE("a list read that ends inside the transaction's own appends") {
    Builder b;
    TxnId t1 = b.txn(0, "T1");
    b.w(t1, "x", 1);  // appends of 1, then 2
    b.w(t1, "x", 2);
    const KeyId x = b.h.intern_key("x");
    b.h.add_list_read(t1, x, {b.h.intern_value(Value{std::int64_t{1}})}, b.h.init_value(x));
    AbstractHistory a = abstract_history(b.h);
    REQUIRE(a.int_violations.size() == 1);
    CHECK(a.int_violations[0].kind == IntViolation::Kind::OwnAppends);
    CHECK(a.int_violations[0].pattern == IntViolation::Pattern::NotMyLastWrite);
    CHECK(plume_pattern(a.int_violations[0].pattern).name == "not-my-last-write");
  }
  SUBCASE("a repeated read of the same value is fine") {
    Builder b;
    TxnId t1 = b.txn(0, "T1");
    b.r(t1, "x", 0);
    b.r(t1, "x", 0);
    AbstractHistory a = abstract_history(b.h);
    CHECK(a.int_violations.empty());
  }
  SUBCASE("aborted transactions are not checked") {
    Builder b;
    TxnId t1 = b.txn(0, "T1", TxnStatus::Aborted);
    b.w(t1, "x", 1);
    b.r(t1, "x", 2);
    AbstractHistory a = abstract_history(b.h);
    CHECK(a.int_violations.empty());
    CHECK(a.abs[t1].writes.empty());
  }
}

TEST_CASE("abstract: candidate writers with duplicate values") {
  Builder b;
  TxnId t1 = b.txn(0, "T1");
  b.w(t1, "x", 1);
  TxnId t2 = b.txn(1, "T2");
  b.w(t2, "x", 1);
  b.w(t2, "x", 2);  // final write is 2: not a candidate for x=1
  TxnId t3 = b.txn(2, "T3");
  b.w(t3, "x", 1);
  b.w(t3, "y", 0);  // writes the initial value of y again
  TxnId t4 = b.txn(3, "T4");
  b.r(t4, "x", 1);
  b.r(t4, "y", 0);
  b.r(t4, "x", 1);
  b.w(t4, "x", 1);  // the reader itself is never a candidate
  AbstractHistory a = abstract_history(b.h);
  CHECK(a.int_violations.empty());
  CHECK(a.unjustified_reads.empty());
  // Three read events: x twice (each its own choice), then y.
  REQUIRE(a.candidates[t4].size() == 3);
  CHECK(as_vector(a.candidates[t4][0]) == ids({t1, t3}));
  CHECK(as_vector(a.candidates[t4][1]) == ids({t1, t3}));
  CHECK(as_vector(a.candidates[t4][2]) == ids({kInitTxn, t3}));
  CHECK(!a.unique_values());

  Builder u;
  TxnId w = u.txn(0, "T1");
  u.w(w, "x", 1);
  TxnId r = u.txn(1, "T2");
  u.r(r, "x", 1);
  u.r(r, "y", 0);
  AbstractHistory ua = abstract_history(u.h);
  CHECK(as_vector(ua.candidates[r][0]) == ids({w}));
  CHECK(as_vector(ua.candidates[r][1]) == ids({kInitTxn}));
  CHECK(ua.unique_values());
}

TEST_CASE("abstract: candidates follow explicit initial values") {
  Builder b;
  KeyId x = b.h.intern_key("x");
  b.h.set_init(x, b.h.intern_value(Value{std::int64_t{5}}));
  TxnId t1 = b.txn(0, "T1");
  b.r(t1, "x", 5);
  TxnId t2 = b.txn(0, "T2");
  b.r(t2, "x", 0);
  AbstractHistory a = abstract_history(b.h);
  CHECK(as_vector(a.candidates[t1][0]) == ids({kInitTxn}));
  CHECK(a.candidates[t2][0].empty());
  REQUIRE(a.unjustified_reads.size() == 1);
  CHECK(a.unjustified_reads[0].message == "T2: r(x,0) reads a value no committed transaction wrote");
}

TEST_CASE("abstract: unjustified reads") {
  SUBCASE("thin air") {
    Builder b;
    TxnId t1 = b.txn(0, "T1");
    b.w(t1, "x", 1);
    TxnId t2 = b.txn(1, "T2");
    b.r(t2, "x", 5);
    AbstractHistory a = abstract_history(b.h);
    REQUIRE(a.unjustified_reads.size() == 1);
    CHECK(a.unjustified_reads[0].txn == t2);
    CHECK(a.unjustified_reads[0].op == 0);
    CHECK(a.unjustified_reads[0].message ==
          "T2: r(x,5) reads a value no committed transaction wrote");
    CHECK(a.candidates[t2][0].empty());
  }
  SUBCASE("aborted write (G1a)") {
    Builder b;
    TxnId t2 = b.txn(0, "T2");
    b.r(t2, "y", 0);
    b.r(t2, "x", 5);
    TxnId t3 = b.txn(1, "T3", TxnStatus::Aborted);
    b.w(t3, "x", 5);
    AbstractHistory a = abstract_history(b.h);
    REQUIRE(a.unjustified_reads.size() == 1);
    CHECK(a.unjustified_reads[0].op == 1);
    CHECK(a.unjustified_reads[0].message == "T2: r(x,5) reads the write of aborted T3 (G1a)");
  }
  SUBCASE("intermediate write (G1b)") {
    Builder b;
    TxnId t3 = b.txn(0, "T3");
    b.w(t3, "x", 5);
    b.w(t3, "x", 6);
    TxnId t2 = b.txn(1, "T2");
    b.r(t2, "x", 5);
    AbstractHistory a = abstract_history(b.h);
    REQUIRE(a.unjustified_reads.size() == 1);
    CHECK(a.unjustified_reads[0].txn == t2);
    CHECK(a.unjustified_reads[0].message == "T2: r(x,5) reads an intermediate write of T3 (G1b)");
  }
  SUBCASE("unknown status excluded") {
    Builder b;
    TxnId t3 = b.txn(0, "T3", TxnStatus::Unknown);
    b.w(t3, "x", 5);
    TxnId t2 = b.txn(1, "T2");
    b.r(t2, "x", 5);
    AbstractHistory a = abstract_history(b.h);
    REQUIRE(a.unjustified_reads.size() == 1);
    CHECK(a.unjustified_reads[0].message ==
          "T2: r(x,5) reads the write of T3, whose commit status is unknown");
    // As a member, the unknown transaction justifies the read.
    std::vector<bool> m = committed_members(b.h);
    m[t3] = true;
    AbstractHistory a2 = abstract_history(b.h, m);
    CHECK(a2.unjustified_reads.empty());
    CHECK(as_vector(a2.candidates[t2][0]) == ids({t3}));
  }
  SUBCASE("own later write") {
    Builder b;
    TxnId t1 = b.txn(0, "T1");
    b.r(t1, "x", 1);
    b.w(t1, "x", 1);
    AbstractHistory a = abstract_history(b.h);
    REQUIRE(a.unjustified_reads.size() == 1);
    CHECK(a.unjustified_reads[0].message == "T1: r(x,1) reads its own later write w(x,1)");
  }
}

TEST_CASE("abstract: members and session order") {
  Builder b;
  TxnId a1 = b.txn(0, "A1");
  TxnId b1 = b.txn(1, "B1");
  TxnId a2 = b.txn(0, "A2", TxnStatus::Aborted);
  TxnId a3 = b.txn(0, "A3");
  TxnId b2 = b.txn(1, "B2", TxnStatus::Unknown);
  TxnId a4 = b.txn(0, "A4");
  TxnId b3 = b.txn(1, "B3");

  std::vector<bool> m = committed_members(b.h);
  CHECK(m == std::vector<bool>{true, true, true, false, true, false, true, true});

  AbstractHistory a = abstract_history(b.h);
  CHECK(a.txns == ids({kInitTxn, a1, a3, a4, b1, b3}));
  // The closed relation: T0 before every other member (in member order),
  // then each member before the later members of its session.
  auto after = [&](const AbstractHistory& x, TxnId t) {
    const auto s = x.so.after(t);
    return std::vector<TxnId>(s.begin(), s.end());
  };
  CHECK(after(a, kInitTxn) == ids({a1, a3, a4, b1, b3}));
  CHECK(after(a, a1) == ids({a3, a4}));  // skips aborted A2, transitive
  CHECK(after(a, a3) == ids({a4}));
  CHECK(after(a, a4).empty());
  CHECK(after(a, b1) == ids({b3}));  // skips unknown B2
  CHECK(after(a, a2).empty());
  CHECK(after(a, b2).empty());
  CHECK(a.so.before(kInitTxn, b3));
  CHECK(a.so.before(a1, a4));
  CHECK_FALSE(a.so.before(a4, a1));
  CHECK_FALSE(a.so.before(a1, b3));  // another session
  CHECK_FALSE(a.so.before(a1, a2));  // not a member
  CHECK_FALSE(a.so.before(a1, kInitTxn));
  CHECK(a.so.next(a1) == a3);  // the immediate successor
  CHECK(a.so.next(a4) == kNoTxn);
  CHECK(a.so.next(a2) == kNoTxn);
  CHECK(a.so.next(kInitTxn) == kNoTxn);

  // T0 is always a member, even if the caller leaves it out.
  std::vector<bool> none(b.h.num_txns(), false);
  none[b3] = true;
  AbstractHistory c = abstract_history(b.h, none);
  CHECK(c.member[kInitTxn]);
  CHECK(c.txns == ids({kInitTxn, b3}));
  CHECK(after(c, kInitTxn) == ids({b3}));
}

TEST_CASE("abstract: predicate reads are flagged, not turned into reads") {
  Builder b;
  TxnId t1 = b.txn(0, "T1");
  KeyId x = b.h.intern_key("x");
  b.h.add_predicate_read(t1, PredicateRead{"[a,z]", {{x, b.h.intern_value(Value{std::int64_t{7}})}}});
  b.r(t1, "x", 0);
  AbstractHistory a = abstract_history(b.h);
  CHECK(a.has_predicate_reads);
  REQUIRE(a.abs[t1].reads.size() == 1);
  CHECK(a.abs[t1].reads[0].op == 1);
  CHECK(a.int_violations.empty());
  CHECK(a.unjustified_reads.empty());
  CHECK(!abstract_history(Builder{}.h).has_predicate_reads);
}

TEST_CASE("printer: paper notation") {
  Builder b;
  KeyId y = b.h.intern_key("y");
  b.h.set_init(y, b.h.intern_value(Value{std::int64_t{0}}));
  TxnId t1 = b.txn(0, "T1");
  b.r(t1, "x", 0);
  b.w(t1, "x", 1);
  TxnId t2 = b.txn(0, "T2", TxnStatus::Aborted);
  b.h.add_read(t2, y, b.h.intern_value(Value{std::string("s")}));
  b.h.add_write(t2, y, b.h.intern_value(Value{}));
  TxnId t3 = b.txn(1, "T3");
  b.h.txn(t3).begin = 100;
  b.h.txn(t3).commit = 140;
  b.h.add_predicate_read(
      t3, PredicateRead{"prefix:x", {{*b.h.find_key("x"), b.h.intern_value(Value{std::int64_t{1}})}}});

  CHECK(format_op(b.h, b.h.txn(t1).ops[0]) == "r(x,0)");
  CHECK(format_txn(b.h, t1) == "T1: r(x,0) w(x,1)");
  CHECK(format_txn(b.h, t2) == "T2: r(y,\"s\") w(y,null)");
  CHECK(format_txn(b.h, t3) == "T3: pr(prefix:x: {x=1})");
  CHECK(format_history(b.h) ==
        "init: y=0\n"
        "session 1:  T1: r(x,0) w(x,1)\n"
        "            T2: r(y,\"s\") w(y,null)  [aborted]\n"
        "session 2:  T3: pr(prefix:x: {x=1})  [begin 100, commit 140]\n");
}

TEST_CASE("printing: names keep valid UTF-8 and escape everything else") {
  CHECK(display_text("T1") == "T1");
  CHECK(display_text("caf\xc3\xa9") == "caf\xc3\xa9");            // é, valid: kept
  CHECK(display_text("T1\nx") == "\"T1\\nx\"");                     // a forged line: escaped
  CHECK(display_text("a\xc2\x85") == "\"a\\u0085\"");                // C1 NEL: escaped
  CHECK(display_text("a\xe2\x80\xa8") == "\"a\\u2028\"");            // U+2028: escaped
  // Format characters show as what they are: U+202E would reverse the rest
  // of the line, U+200B is invisible, U+FEFF is a byte-order mark, U+E0041 a tag.
  CHECK(display_text("T1\xe2\x80\xaex") == "\"T1\\u202ex\"");
  CHECK(display_text("a\xe2\x80\x8b") == "\"a\\u200b\"");
  CHECK(display_text("\xef\xbb\xbf") == "\"\\ufeff\"");
  CHECK(display_text("a\xf3\xa0\x81\x81") == "\"a\\U000e0041\"");
  CHECK(display_text("\xe2\x80\x94") == "\xe2\x80\x94");                 // an em dash is visible: kept
  // Free text keeps its spaces and quotes, and escapes the same characters.
  CHECK(escape_text("a doc\nbiswas.SER: allowed\x1b[2J \"q\" \xe2\x80\xae!") ==
        "a doc\\nbiswas.SER: allowed\\u001b[2J \"q\" \\u202e!");
  // Bytes that start no UTF-8 sequence, however they continue.
  CHECK(display_text("a\xf8\x80\x80") == "\"a\\xf8\\x80\\x80\"");
  CHECK(display_text("a\xff\xbf\xbf") == "\"a\\xff\\xbf\\xbf\"");
  CHECK(display_text("a\xc0\xaf") == "\"a\\xc0\\xaf\"");            // overlong '/'
  CHECK(display_text("a\xed\xa0\x80") == "\"a\\xed\\xa0\\x80\"");   // a surrogate
}

TEST_CASE("candidate table: rows in any order, reads removed by their index") {
  CandidateTable c;
  c.reset(4);
  c.begin_row(2);  // T2: reads with candidates {0, 1}, {}, {3}
  c.add(0);
  c.add(1);
  c.end_read();
  c.end_read();
  c.add(3);
  c.end_read();
  c.begin_row(1);  // T1: one read, candidate {2}
  c.add(2);
  c.end_read();
  REQUIRE(c[2].size() == 3);
  CHECK(as_vector(c[2][0]) == std::vector<TxnId>{0, 1});
  CHECK(c[2][1].empty());
  CHECK(as_vector(c[2][2]) == std::vector<TxnId>{3});
  CHECK(as_vector(c[1][0]) == std::vector<TxnId>{2});
  CHECK(c[0].empty());
  CHECK(c[3].empty());
  CHECK_FALSE(c.unique());
  c.remove({{2, 0}, {1, 0}});
  REQUIRE(c[2].size() == 2);
  CHECK(c[2][0].empty());
  CHECK(as_vector(c[2][1]) == std::vector<TxnId>{3});
  CHECK(c[1].empty());
  CHECK(c.unique());
}
