// Tests of the binary and log-folder readers: dbcop (FORMATS.md §5) and Cobra
// (§6); Viper's JSON logs are in test_formats_viper.cpp. Real samples are
// checked against counts computed independently of the readers, hand-built
// inputs exercise each decision the readers document, and malformed inputs
// must fail with InputError at the right byte offset.
#include <doctest/doctest.h>

#include "tests/unit/format_helpers.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/history/formats/formats.hpp"
#include "engine/polygraph/checker.hpp"

using namespace iso;

namespace {

const std::string kShared = ISOSYNTH_SHARED_DIR;
const std::string kHist = kShared + "/data/histories/";

// ----------------------------------------------------------------------------
// dbcop

// Counts per sample computed by a separate Python script that decodes the
// bincode layout of FORMATS.md §5 with struct.unpack (u64 '<Q', bools as
// bytes) and counts: sessions, transactions, committed transactions, reads and
// writes kept (success = true events, in committed and aborted transactions),
// and events with success = false inside committed transactions. It also
// confirmed that no file has trailing bytes.
struct DbcopSample {
  const char* dir;
  std::size_t sessions, txns, committed, reads, writes, failed;
};
const DbcopSample kDbcopSamples[] = {
    {"dbcop/dgraph-si-violation", 10, 800, 480, 8038, 7962, 0},
    {"dbcop/postgres-dup-values/BL-1k/hist-00000", 20, 1000, 1000, 3997, 4003, 0},
    {"dbcop/postgres-dup-values/RH-1k/hist-00000", 20, 1000, 1000, 7580, 420, 0},
    {"dbcop/postgres-dup-values/WH-1k/hist-00000", 20, 1000, 1000, 2454, 5546, 0},
    {"dbcop/table2-sample/ser/roachdb_all_writes/12_30_20_720/hist-00010", 12, 360, 274, 3588, 3541, 71},
    {"dbcop/table2-sample/ser/roachdb_all_writes/12_30_20_720/hist-00016", 12, 360, 274, 3550, 3566, 84},
    {"dbcop/table2-sample/ser/roachdb_all_writes/6_30_20_360/hist-00002", 6, 180, 147, 1785, 1790, 25},
    {"dbcop/table2-sample/ser/roachdb_all_writes/6_30_20_360/hist-00018", 6, 180, 144, 1799, 1785, 16},
    {"dbcop/table2-sample/ser/roachdb_all_writes/6_30_20_360/hist-00022", 6, 180, 151, 1787, 1771, 42},
    {"dbcop/table2-sample/ser/roachdb_all_writes/6_30_20_360/hist-00036", 6, 180, 153, 1732, 1842, 26},
    {"dbcop/table2-sample/ser/roachdb_all_writes/6_30_20_360/hist-00076", 6, 180, 152, 1759, 1792, 49},
    {"dbcop/table2-sample/ser/roachdb_all_writes/9_30_20_540/hist-00072", 9, 270, 224, 2716, 2627, 57},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/15_30_20_900/hist-00008", 15, 450, 348, 4370, 4505, 125},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/15_30_20_900/hist-00056", 15, 450, 340, 4505, 4376, 119},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/15_30_20_900/hist-00072", 15, 450, 349, 4504, 4394, 102},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/15_30_20_900/hist-00099", 15, 450, 358, 4417, 4522, 61},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/3_30_20_180/hist-00015", 3, 90, 86, 865, 912, 23},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/3_30_20_180/hist-00040", 3, 90, 83, 921, 867, 12},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_20_20_360/hist-00060", 6, 120, 103, 1162, 1190, 48},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_10_360/hist-00044", 6, 180, 180, 916, 884, 0},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_20_300/hist-00002", 6, 180, 136, 1792, 1764, 44},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_20_360/hist-00050", 6, 180, 153, 1743, 1773, 84},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_20_480/hist-00043", 6, 180, 158, 1796, 1794, 10},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_20_480/hist-00082", 6, 180, 159, 1817, 1769, 14},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_20_540/hist-00009", 6, 180, 160, 1782, 1785, 33},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_20_540/hist-00027", 6, 180, 162, 1772, 1788, 40},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_20_540/hist-00035", 6, 180, 165, 1778, 1816, 6},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_20_540/hist-00038", 6, 180, 161, 1797, 1795, 8},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_20_540/hist-00081", 6, 180, 160, 1785, 1794, 21},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_20_540/hist-00091", 6, 180, 170, 1791, 1757, 52},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_30_360/hist-00017", 6, 180, 129, 2509, 2529, 362},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_40_360/hist-00012", 6, 180, 128, 3027, 3046, 1127},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_40_360/hist-00075", 6, 180, 130, 2994, 3110, 1096},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_30_50_360/hist-00067", 6, 180, 138, 3301, 3190, 2509},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/6_50_20_360/hist-00020", 6, 300, 246, 2935, 2988, 77},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/9_30_20_540/hist-00033", 9, 270, 216, 2662, 2683, 55},
    {"dbcop/table2-sample/ser/roachdb_general_all_writes/9_30_20_540/hist-00057", 9, 270, 221, 2739, 2617, 44},
    {"dbcop/table2-sample/ser/roachdb_general_partition_writes/6_30_10_360/hist-00036", 6, 180, 179, 904, 896, 0},
    {"dbcop/table2-sample/ser/roachdb_general_partition_writes/6_30_20_300/hist-00014", 6, 180, 172, 1805, 1795, 0},
    {"dbcop/table2-sample/ser/roachdb_general_partition_writes/6_30_20_300/hist-00044", 6, 180, 171, 1777, 1823, 0},
    {"dbcop/table2-sample/ser/roachdb_general_partition_writes/6_30_20_480/hist-00038", 6, 180, 176, 1774, 1808, 18},
    {"dbcop/table2-sample/ser/roachdb_general_partition_writes/6_30_40_360/hist-00030", 6, 180, 124, 3601, 3558, 41},
    {"dbcop/table2-sample/ser/roachdb_partition_writes/12_30_20_720/hist-00023", 12, 360, 347, 3661, 3539, 0},
    {"dbcop/table2-sample/ser/roachdb_partition_writes/6_30_20_360/hist-00031", 6, 180, 177, 1779, 1821, 0},
    {"dbcop/table2-sample/si/galera_all_writes/12_30_20_720/hist-00012", 12, 360, 360, 3588, 3600, 12},
    {"dbcop/table2-sample/si/galera_all_writes/15_30_20_900/hist-00017", 15, 450, 450, 4534, 4438, 28},
    {"dbcop/table2-sample/si/galera_all_writes/15_30_20_900/hist-00039", 15, 450, 450, 4572, 4408, 20},
    {"dbcop/table2-sample/si/galera_all_writes/3_30_20_180/hist-00000", 3, 90, 90, 889, 910, 1},
    {"dbcop/table2-sample/si/galera_all_writes/3_30_20_180/hist-00011", 3, 90, 90, 870, 927, 3},
    {"dbcop/table2-sample/si/galera_all_writes/3_30_20_180/hist-00034", 3, 90, 90, 882, 917, 1},
    {"dbcop/table2-sample/si/galera_all_writes/6_30_20_360/hist-00039", 6, 180, 180, 1777, 1819, 4},
    {"dbcop/table2-sample/si/galera_all_writes/6_30_20_360/hist-00041", 6, 180, 180, 1800, 1797, 3},
    {"dbcop/table2-sample/si/galera_all_writes/6_30_20_360/hist-00046", 6, 180, 180, 1837, 1761, 2},
    {"dbcop/table2-sample/si/galera_all_writes/9_30_20_540/hist-00022", 9, 270, 270, 2730, 2663, 7},
    {"dbcop/table2-sample/si/galera_all_writes/9_30_20_540/hist-00035", 9, 270, 270, 2606, 2784, 10},
    {"dbcop/table2-sample/si/galera_partition_writes/12_30_20_720/hist-00048", 12, 360, 360, 3669, 3523, 8},
    {"dbcop/table2-sample/si/galera_partition_writes/15_30_20_900/hist-00015", 15, 450, 450, 4501, 4495, 4},
    {"dbcop/table2-sample/si/galera_partition_writes/15_30_20_900/hist-00017", 15, 450, 450, 4474, 4525, 1},
    {"dbcop/table2-sample/si/galera_partition_writes/15_30_20_900/hist-00038", 15, 450, 450, 4501, 4493, 6},
    {"dbcop/table2-sample/si/galera_partition_writes/3_30_20_180/hist-00014", 3, 90, 90, 912, 887, 1},
    {"dbcop/table2-sample/si/galera_partition_writes/6_30_20_360/hist-00029", 6, 180, 180, 1793, 1805, 2},
    {"dbcop/table2-sample/si/galera_partition_writes/6_30_20_360/hist-00044", 6, 180, 180, 1780, 1820, 0},
    {"dbcop/table2-sample/si/galera_partition_writes/9_30_20_540/hist-00004", 9, 270, 270, 2755, 2643, 2},
    {"dbcop/table2-sample/si/galera_partition_writes/9_30_20_540/hist-00027", 9, 270, 270, 2735, 2661, 4},

};

// Little-endian bincode writer; it records where it put things so that the
// tests know expected error offsets without asking the reader.
struct Bincode {
  std::string b;
  std::size_t u64(std::uint64_t v) {
    std::size_t at = b.size();
    for (int i = 0; i < 8; ++i) b.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    return at;
  }
  std::size_t u8(std::uint8_t v) {
    b.push_back(static_cast<char>(v));
    return b.size() - 1;
  }
  void str(const std::string& s) {
    u64(s.size());
    b += s;
  }
  void header() {
    for (int i = 0; i < 5; ++i) u64(static_cast<std::uint64_t>(i));
    str("TestDB");
    str("2024-01-01T00:00:00Z");
    str("2024-01-01T00:00:01Z");
  }
  std::size_t event(bool write, std::uint64_t var, std::uint64_t value, bool ok) {
    std::size_t at = u8(write);
    u64(var);
    u64(value);
    u8(ok);
    return at;
  }
};

// Session 0: T0.0 committed {w(1,1), w(2,7) failed}; T0.1 aborted {w(3,5)}.
// Session 1: T1.0 committed {r(3,5) (an aborted read), r(1,0) (initial), w(1,2)}.
Bincode small_dbcop() {
  Bincode w;
  w.header();
  w.u64(2);  // sessions
  w.u64(2);  // session 0: transactions
  w.u64(2);
  w.event(true, 1, 1, true);
  w.event(true, 2, 7, false);
  w.u8(1);
  w.u64(1);
  w.event(true, 3, 5, true);
  w.u8(0);
  w.u64(1);  // session 1
  w.u64(3);
  w.event(false, 3, 5, true);
  w.event(false, 1, 0, true);
  w.event(true, 1, 2, true);
  w.u8(1);
  return w;
}

}  // namespace

TEST_CASE("dbcop: every sample loads, as a file and as its folder, with the expected counts") {
  std::size_t seen = 0;
  for (const auto& s : kDbcopSamples) {
    CAPTURE(s.dir);
    std::string dir = kHist + s.dir;
    for (const std::string& path : {dir, dir + "/history.bincode"}) {
      ReadResult r = read_history_path(path, std::nullopt, ReadOptions{});
      const History& h = r.history;
      CHECK(r.format == Format::Dbcop);
      CHECK(h.sessions().size() == s.sessions);
      CHECK(h.num_txns() == s.txns + 1);
      CHECK(count_status(h, TxnStatus::Committed) == s.committed);
      CHECK(count_status(h, TxnStatus::Aborted) == s.txns - s.committed);
      CHECK(count_ops(h, OpKind::Read) == s.reads);
      CHECK(count_ops(h, OpKind::Write) == s.writes);
      CHECK(has_note(r, fmt::format("{} sessions, {} transactions ({} aborted)", s.sessions,
                                    s.txns, s.txns - s.committed)));
      if (s.failed > 0) CHECK(has_note(r, fmt::format("{} operation", s.failed)));
      // Names are T<session>.<index>.
      CHECK(h.txn(h.sessions()[0][0]).name == "T0.0");
      CHECK(h.txn(h.sessions().back().back()).name ==
            fmt::format("T{}.{}", s.sessions - 1, h.sessions().back().size() - 1));
    }
    ++seen;
  }
  // All samples of the folder are in the table.
  std::size_t files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(kHist + "dbcop"))
    files += e.path().filename() == "history.bincode";
  CHECK(files == 64);
  CHECK(seen == files);
}

TEST_CASE("dbcop: the Dgraph sample has 480 committed of 800 transactions (LABELS.md)") {
  ReadResult r = read_history_path(kHist + "dbcop/dgraph-si-violation", Format::Dbcop, {});
  CHECK(r.history.num_txns() == 801);
  CHECK(count_status(r.history, TxnStatus::Committed) == 480);
}

TEST_CASE("dbcop: aborted transactions, failed events and the initial value") {
  Bincode w = small_dbcop();
  ReadResult r = read_dbcop(w.b, "h.bincode", {});
  const History& h = r.history;
  REQUIRE(h.num_txns() == 4);
  REQUIRE(h.sessions().size() == 2);
  const Transaction& t00 = h.txn(*h.find_txn("T0.0"));
  const Transaction& t01 = h.txn(*h.find_txn("T0.1"));
  const Transaction& t10 = h.txn(*h.find_txn("T1.0"));
  CHECK(t00.status == TxnStatus::Committed);
  CHECK(t01.status == TxnStatus::Aborted);
  CHECK(t10.status == TxnStatus::Committed);
  CHECK(t00.session == 0);
  CHECK(t10.session == 1);
  // The failed write of T0.0 is dropped, and said so.
  REQUIRE(t00.ops.size() == 1);
  CHECK(h.key_text(t00.ops[0].key) == "1");
  CHECK(h.keys()[t00.ops[0].key].integer);
  CHECK(int_of(h, t00.ops[0].value) == 1);
  CHECK(has_note(r, "1 operation marked failed inside committed transactions"));
  CHECK(!h.find_key("2"));
  // The aborted transaction keeps its write: T1.0's read of it is visible.
  REQUIRE(t01.ops.size() == 1);
  CHECK(t01.ops[0].kind == OpKind::Write);
  REQUIRE(t10.ops.size() == 3);
  CHECK(t10.ops[0].kind == OpKind::Read);
  CHECK(t10.ops[0].value == t01.ops[0].value);
  // A read of 0 reads the initial value.
  CHECK(t10.ops[1].value == h.init_value(t10.ops[1].key));
  CHECK(int_of(h, h.init_value(t10.ops[1].key)) == 0);
  CHECK(t10.ops[2].kind == OpKind::Write);
}

TEST_CASE("dbcop: every truncation of a valid file is an InputError") {
  Bincode w = small_dbcop();
  for (std::size_t n = 0; n < w.b.size(); ++n) {
    CAPTURE(n);
    std::string e = message_of([&] { read_dbcop(std::string_view(w.b).substr(0, n), "h.bincode", {}); });
    CHECK(e.starts_with("h.bincode: byte "));
  }
}

TEST_CASE("dbcop: malformed inputs name the byte offset") {
  SUBCASE("truncated inside an event") {
    Bincode w;
    w.header();
    w.u64(1);
    w.u64(1);
    w.u64(1);
    std::size_t ev = w.event(true, 9, 9, true);
    // The event count promises 18 bytes; cut the last 5 off.
    w.b.resize(w.b.size() - 5);
    // The count check fails at the event count's own offset (ev - 8).
    CHECK(message_of([&] { read_dbcop(w.b, "h.bincode", {}); })
              .starts_with(fmt::format("h.bincode: byte {}: T0.0 event count 1 exceeds", ev - 8)));
  }
  SUBCASE("truncated in the transaction's success flag") {
    Bincode w;
    w.header();
    w.u64(1);
    w.u64(1);
    w.u64(1);
    w.event(false, 9, 0, true);
    // No success byte: the read of the flag fails at the end.
    CHECK(message_of([&] { read_dbcop(w.b, "h.bincode", {}); }) ==
          fmt::format("h.bincode: byte {}: expected the success flag of T0.0 (1 byte), but the "
                      "input ends after 0 bytes",
                      w.b.size()));
  }
  SUBCASE("a huge session count is refused before allocating") {
    Bincode w;
    w.header();
    std::size_t at = w.u64(std::uint64_t{1} << 60);
    CHECK(message_of([&] { read_dbcop(w.b, "h.bincode", {}); })
              .starts_with(fmt::format("h.bincode: byte {}: session count 1152921504606846976 "
                                       "exceeds",
                                       at)));
  }
  SUBCASE("a huge string length") {
    Bincode w;
    for (int i = 0; i < 5; ++i) w.u64(0);
    w.u64(~std::uint64_t{0});
    CHECK(message_of([&] { read_dbcop(w.b, "h.bincode", {}); })
              .starts_with("h.bincode: byte 40: the database name byte count"));
  }
  SUBCASE("a bool that is neither 0 nor 1") {
    Bincode w;
    w.header();
    w.u64(1);
    w.u64(1);
    w.u64(1);
    std::size_t ev = w.event(true, 1, 1, true);
    w.b[ev + 17] = 2;  // the event's success flag
    w.u8(1);
    CHECK(message_of([&] { read_dbcop(w.b, "h.bincode", {}); }) ==
          fmt::format("h.bincode: byte {}: expected the success flag of event 0 of T0.0 (a "
                      "bool, 0 or 1), found 2",
                      ev + 17));
  }
  SUBCASE("trailing bytes") {
    Bincode w = small_dbcop();
    std::size_t end = w.b.size();
    w.b += "xyz";
    CHECK(message_of([&] { read_dbcop(w.b, "h.bincode", {}); }) ==
          fmt::format("h.bincode: byte {}: expected the end of the history, but 3 more bytes "
                      "follow",
                      end));
  }
  SUBCASE("a value beyond int64 is a value (dbcop's are u64)") {
    Bincode w;
    w.header();
    w.u64(1);
    w.u64(1);
    w.u64(1);
    w.event(true, 1, ~std::uint64_t{0}, true);
    w.u8(1);
    const History h = read_dbcop(w.b, "h.bincode", {}).history;
    CHECK(h.value_text(h.txn(1).ops[0].value) == "18446744073709551615");
  }
  SUBCASE("invalid UTF-8 in the header") {
    Bincode w;
    for (int i = 0; i < 5; ++i) w.u64(0);
    w.str("\xff\xfe");
    CHECK(message_of([&] { read_dbcop(w.b, "h.bincode", {}); }) ==
          "h.bincode: byte 48: expected the database name as UTF-8 text");
  }
}

// ----------------------------------------------------------------------------
// Cobra

namespace {

// Big-endian Cobra log writer that records offsets.
struct CobraLog {
  std::string b;
  std::size_t i64(std::int64_t v) {
    std::size_t at = b.size();
    auto u = static_cast<std::uint64_t>(v);
    for (int i = 7; i >= 0; --i) b.push_back(static_cast<char>((u >> (8 * i)) & 0xff));
    return at;
  }
  std::size_t rec(char tag, std::vector<std::int64_t> fields) {
    std::size_t at = b.size();
    b.push_back(tag);
    for (auto f : fields) i64(f);
    return at;
  }
};

constexpr std::int64_t kInit = 0xbebeebee;
constexpr std::int64_t kNull = 0xdeadbeef;

std::vector<ClientLog> logs_of(std::vector<CobraLog> ls) {
  std::vector<ClientLog> out;
  for (std::size_t i = 0; i < ls.size(); ++i)
    out.push_back(ClientLog{fmt::format("d/T{}.log", i), ls[i].b});
  return out;
}

}  // namespace

// Counts from a separate Python script that decodes the logs with
// struct.unpack('>q...') per FORMATS.md §6: cock-blog has 13 logs, 21
// transactions (all committed), 18 reads, 3 writes, 8 reads whose write id no
// committed 'W' record logged, no reads of 0xbebeebee; cock-G2 has 10 logs,
// 446 transactions, 892 reads (all of 0xbebeebee), 446 writes, 890 keys.
TEST_CASE("cobra: cock-blog loads, 8 of its 18 reads name unlogged writes") {
  ReadResult r = read_history_path(kHist + "cobra/cock-blog", std::nullopt, {});
  const History& h = r.history;
  CHECK(r.format == Format::Cobra);
  CHECK(h.sessions().size() == 13);
  CHECK(h.num_txns() == 22);
  CHECK(count_status(h, TxnStatus::Committed) == 21);
  CHECK(count_ops(h, OpKind::Read) == 18);
  CHECK(count_ops(h, OpKind::Write) == 3);
  CHECK(h.keys().size() == 3);
  CHECK(has_note(r, "8 of 18 reads name writes that no logged committed transaction made"));
  // T0.log: S 0x10000d, W(write 0x186a3, key 0xa6, value 1), C.
  auto t = h.find_txn("T10000d");
  REQUIRE(t);
  CHECK(h.txn(*t).session == 0);
  REQUIRE(h.txn(*t).ops.size() == 1);
  CHECK(h.key_text(h.txn(*t).ops[0].key) == "166");
  CHECK(int_of(h, h.txn(*t).ops[0].value) == 0x186a3);
}

TEST_CASE("cobra: cock-G2 has 446 transactions reading the initial write") {
  ReadResult r = read_history_path(kHist + "cobra/cock-G2", Format::Cobra, {});
  const History& h = r.history;
  CHECK(h.sessions().size() == 10);
  CHECK(h.num_txns() == 447);
  CHECK(count_status(h, TxnStatus::Committed) == 446);
  CHECK(count_ops(h, OpKind::Read) == 892);
  CHECK(count_ops(h, OpKind::Write) == 446);
  CHECK(h.keys().size() == 890);
  std::size_t init_reads = 0;
  for (const Transaction& t : h.txns())
    for (const Op& op : t.ops)
      if (op.kind == OpKind::Read) init_reads += op.value == h.init_value(op.key);
  CHECK(init_reads == 892);
  CHECK(has_note(r, "892 read the initial write"));
}

TEST_CASE("cobra: hand-built logs") {
  CobraLog a, b;
  a.rec('S', {0x10});
  a.rec('W', {1001, 7, 0});
  a.rec('R', {kInit, kInit, 8, 123});  // initial value of key 8
  a.rec('C', {0x10});
  a.rec('S', {0x11});
  a.rec('R', {0x10, 1001, 7, 0});     // read of a logged write
  a.rec('R', {0x99, 5555, 7, 0});     // read of a write nobody logged
  a.rec('R', {0x20, 1001, 7, 0});     // names the wrong writer
  a.rec('R', {kNull, kNull, 9, 0});   // null read: initial value
  a.rec('R', {kInit, 0x23332333, 8, 0});  // GC read: dropped
  a.rec('C', {0x11});
  b.rec('S', {0x30});
  b.rec('W', {2002, 8, 0});
  // b ends inside T30: status unknown.
  ReadResult r = read_cobra(logs_of({a, b}), "d", {});
  const History& h = r.history;
  REQUIRE(h.num_txns() == 4);
  const Transaction& t10 = h.txn(*h.find_txn("T10"));
  const Transaction& t11 = h.txn(*h.find_txn("T11"));
  const Transaction& t30 = h.txn(*h.find_txn("T30"));
  CHECK(t10.status == TxnStatus::Committed);
  CHECK(t30.status == TxnStatus::Unknown);
  CHECK(t30.session == 1);
  REQUIRE(t10.ops.size() == 2);
  CHECK(int_of(h, t10.ops[0].value) == 1001);
  CHECK(t10.ops[1].value == h.init_value(t10.ops[1].key));
  CHECK(int_of(h, h.init_value(t10.ops[1].key)) == kInit);
  REQUIRE(t11.ops.size() == 4);  // the GC read is dropped
  CHECK(t11.ops[0].value == t10.ops[0].value);
  CHECK(int_of(h, t11.ops[1].value) == 5555);  // kept
  CHECK(t11.ops[3].value == h.init_value(t11.ops[3].key));
  // Every key, including one only written, starts at the initial write.
  CHECK(int_of(h, h.init_value(*h.find_key("7"))) == kInit);
  CHECK(has_note(r, "1 of 5 reads name writes that no logged committed transaction made"));
  CHECK(has_note(r, "1 read names a writer transaction or key other than"));
  CHECK(has_note(r, "1 transaction at the end of a log has no commit record"));
  CHECK(has_note(r, "1 garbage-collection read"));
  CHECK(has_note(r, "1 of them null reads"));
}

TEST_CASE("cobra: writes with the universal id are identified by key and value hash") {
  // Cobra's benchmark clients log every write with the id 0xabddefee, and
  // every read names 0xabddefee as writer and write: read-from is by value.
  constexpr std::int64_t kUniversal = 0xabddefee;
  CobraLog a, b;
  a.rec('S', {0x10});
  a.rec('W', {kUniversal, 7, 111});
  a.rec('W', {kUniversal, 8, 222});
  a.rec('C', {0x10});
  a.rec('S', {0x11});
  a.rec('W', {kUniversal, 7, 333});
  a.rec('C', {0x11});
  b.rec('S', {0x20});
  b.rec('R', {kUniversal, kUniversal, 7, 111});  // T10's write of key 7
  b.rec('R', {kUniversal, kUniversal, 8, 999});  // a value nobody wrote
  b.rec('R', {kInit, kInit, 7, 5});              // the initial value
  b.rec('C', {0x20});
  b.rec('S', {0x21});
  b.rec('W', {kUniversal, 8, 222});  // the value T10 wrote, again
  b.rec('C', {0x21});
  ReadResult r = read_cobra(logs_of({a, b}), "d", {});
  const History& h = r.history;
  const Transaction& t10 = h.txn(*h.find_txn("T10"));
  const Transaction& t11 = h.txn(*h.find_txn("T11"));
  const Transaction& t20 = h.txn(*h.find_txn("T20"));
  REQUIRE(t20.ops.size() == 3);
  CHECK(int_of(h, t10.ops[0].value) == 111);
  CHECK(t20.ops[0].value == t10.ops[0].value);   // read-from T10, not T11
  CHECK(t20.ops[0].value != t11.ops[0].value);
  CHECK(int_of(h, t20.ops[1].value) == 999);
  CHECK(t20.ops[2].value == h.init_value(t20.ops[2].key));
  CHECK(has_note(r, "identified by key and value hash"));
  CHECK(has_note(r, "1 of 3 reads name writes that no logged committed transaction made"));
  CHECK(has_note(r, "1 write repeat a key's value hash written earlier"));
  CHECK_FALSE(has_note(r, "names a writer transaction or key other than"));
  // Decided by value: T20 reads T10's x and a value nobody wrote.
  CHECK(poly::check_history(h, {}).verdict == Verdict::Violated);
}

TEST_CASE("cobra: a history mixing universal and unique write ids is refused") {
  constexpr std::int64_t kUniversal = 0xabddefee;
  CobraLog a;
  a.rec('S', {1});
  a.rec('W', {1001, 7, 0});
  a.rec('W', {kUniversal, 8, 5});
  a.rec('C', {1});
  CHECK(message_of([&] { read_cobra(logs_of({a}), "d", {}); }) ==
        "d/T0.log: byte 35: this record identifies a write by its value (universal id 0xabddefee), but d/T0.log at "
        "byte 10 identifies one by a unique write id: a history must use one kind (Cobra's unique write ids, or "
        "the universal id 0xabddefee of its benchmark clients)");
  CobraLog b;
  b.rec('S', {1});
  b.rec('R', {kUniversal, 1001, 7, 0});
  b.rec('C', {1});
  CHECK(message_of([&] { read_cobra(logs_of({b}), "d", {}); }).find("the universal id 0xabddefee must appear as both") !=
        std::string::npos);
}

TEST_CASE("cobra: a read of a write of an unfinished transaction counts as unlogged") {
  CobraLog a, b;
  a.rec('S', {1});
  a.rec('R', {2, 77, 5, 0});
  a.rec('C', {1});
  b.rec('S', {2});
  b.rec('W', {77, 5, 0});
  ReadResult r = read_cobra(logs_of({a, b}), "d", {});
  CHECK(has_note(r, "1 of 1 reads name writes that no logged committed transaction made"));
}

TEST_CASE("cobra: repeated transaction ids and id 0 get unique names") {
  CobraLog a, b;
  a.rec('S', {0});  // "T0" is the initial transaction's name
  a.rec('C', {0});
  a.rec('S', {5});
  a.rec('C', {5});
  b.rec('S', {5});
  b.rec('C', {5});
  b.rec('S', {5});
  b.rec('C', {5});
  ReadResult r = read_cobra(logs_of({a, b}), "d", {});
  const History& h = r.history;
  REQUIRE(h.num_txns() == 5);
  CHECK(h.txn(1).name == "T0@T0");
  CHECK(h.txn(2).name == "T5");
  CHECK(h.txn(3).name == "T5@T1");
  CHECK(h.txn(4).name == "T5@T1#2");
  CHECK(has_note(r, "3 transaction ids repeated"));
}

TEST_CASE("cobra: time-ordered logs carry begin and commit timestamps") {
  CobraLog a;
  a.rec('S', {0x10, 1700000000000});
  a.rec('W', {1, 2, 3});
  a.rec('C', {0x10, 1700000000050});
  a.rec('S', {0x11, 1700000000060});
  a.rec('C', {0x11, 1700000000070});
  ReadResult r = read_cobra(logs_of({a}), "d", {});
  const History& h = r.history;
  REQUIRE(h.num_txns() == 3);
  CHECK(h.txn(1).begin == 1700000000000);
  CHECK(h.txn(1).commit == 1700000000050);
  CHECK(h.txn(2).begin == 1700000000060);
  CHECK(h.txn(1).ops.size() == 1);
  CHECK(has_note(r, "time-ordered"));
  // Plain logs have none.
  ReadResult p = read_history_path(kHist + "cobra/cock-G2", Format::Cobra, {});
  CHECK(!p.history.txn(1).begin);
  CHECK(!has_note(p, "time-ordered"));
}

TEST_CASE("cobra: malformed logs name the file and byte offset") {
  auto err = [](const CobraLog& l) { return message_of([&] { read_cobra(logs_of({l}), "d", {}); }); };
  SUBCASE("unknown tag") {
    CobraLog l;
    l.rec('S', {1});
    std::size_t at = l.rec('X', {});
    CHECK(err(l) == fmt::format("d/T0.log: byte {}: expected a record tag 'S', 'C', 'W' or 'R', "
                                "found byte 0x58",
                                at));
  }
  SUBCASE("truncated read record") {
    CobraLog l;
    l.rec('S', {1});
    std::size_t at = l.rec('R', {1, 2, 3, 4});
    l.b.resize(l.b.size() - 3);
    CHECK(err(l) == fmt::format("d/T0.log: byte {}: expected the value hash of an 'R' record (8 "
                                "bytes), but the input ends after 5 bytes",
                                at + 25));
  }
  SUBCASE("commit of another transaction") {
    CobraLog l;
    l.rec('S', {1});
    std::size_t at = l.rec('C', {2});
    CHECK(err(l) == fmt::format("d/T0.log: byte {}: 'C' record for transaction T2, but the open "
                                "transaction is T1",
                                at + 1));
  }
  SUBCASE("write outside a transaction") {
    CobraLog l;
    l.rec('S', {1});
    l.rec('C', {1});
    std::size_t at = l.rec('W', {1, 2, 3});
    CHECK(err(l) == fmt::format("d/T0.log: byte {}: 'W' record outside a transaction (expected "
                                "'S' first)",
                                at));
  }
  SUBCASE("a start inside a transaction") {
    CobraLog l;
    l.rec('S', {1});
    std::size_t at = l.rec('S', {2});
    CHECK(err(l).starts_with(fmt::format("d/T0.log: byte {}: 'S' record while transaction T1", at)));
  }
  SUBCASE("the reserved initial write id") {
    CobraLog l;
    l.rec('S', {1});
    std::size_t at = l.rec('W', {kInit, 2, 3});
    CHECK(err(l) == fmt::format("d/T0.log: byte {}: write id 0xbebeebee is reserved for the "
                                "initial write",
                                at + 1));
  }
  SUBCASE("half-magic read") {
    CobraLog l;
    l.rec('S', {1});
    std::size_t at = l.rec('R', {kInit, 42, 3, 0});
    CHECK(err(l).starts_with(fmt::format("d/T0.log: byte {}: read names writer Tbebeebee", at + 1)));
  }
  SUBCASE("every truncation of a real log fails cleanly or parses a prefix") {
    // Truncating at a record boundary leaves a valid log; elsewhere it must
    // fail with an offset inside the log.
    CobraLog l;
    l.rec('S', {1});
    l.rec('W', {5, 6, 7});
    l.rec('R', {1, 5, 6, 7});
    l.rec('C', {1});
    for (std::size_t n = 0; n < l.b.size(); ++n) {
      CobraLog cut;
      cut.b = l.b.substr(0, n);
      std::string e = err(cut);
      bool boundary = n == 0 || n == 9 || n == 34 || n == 67;
      CAPTURE(n);
      CHECK((e == "no error") == boundary);
      if (!boundary) CHECK(e.starts_with("d/T0.log: byte "));
    }
  }
}

// ----------------------------------------------------------------------------
// The initial state (--init): auto is each producer's meaning, every mode is
// honoured or refused with the reason, and one note says which was used.

TEST_CASE("init dbcop: 0 everywhere by default, none, explicit refused") {
  Bincode w = small_dbcop();
  ReadResult a = read_dbcop(w.b, "h.bincode", {});
  CHECK(a.initial_state == InitialState::Implicit);
  CHECK(a.history.initial_writes() == InitialWrites::EveryKey);
  CHECK(init_note(a) == "initial state: implicit (--init auto): T0 writes 0 to every variable");
  ReadResult n = read_dbcop(w.b, "h.bincode", ReadOptions{InitMode::None});
  CHECK(n.initial_state == InitialState::None);
  CHECK(t0_keys(n.history) == 0);
  CHECK(message_of([&] { read_dbcop(w.b, "h.bincode", ReadOptions{InitMode::Explicit}); }) ==
        "h.bincode: --init explicit is not supported for dbcop histories: they have no initial "
        "transaction (use auto, implicit or none)");
}

TEST_CASE("init cobra: the initial write by default, none, explicit refused") {
  CobraLog a;
  a.rec('S', {1});
  a.rec('R', {kInit, kInit, 8, 0});
  a.rec('W', {1001, 7, 0});
  a.rec('C', {1});
  ReadResult r = read_cobra(logs_of({a}), "d", {});
  CHECK(r.initial_state == InitialState::Implicit);
  CHECK(t0_keys(r.history) == 2);
  CHECK(init_note(r) ==
        "initial state: implicit (--init auto): T0 is the initial write 0xbebeebee of every key");
  ReadResult n = read_cobra(logs_of({a}), "d", ReadOptions{InitMode::None});
  const History& h = n.history;
  CHECK(n.initial_state == InitialState::None);
  CHECK(t0_keys(h) == 0);
  // The read of the initial write still reads 0xbebeebee, which nobody wrote.
  CHECK(int_of(h, h.txn(1).ops[0].value) == kInit);
  CHECK(message_of([&] { read_cobra(logs_of({a}), "d", ReadOptions{InitMode::Explicit}); }) ==
        "d: --init explicit is not supported for Cobra logs: they do not log the initial "
        "transaction (0xbebeebee) (use auto, implicit or none)");
}

TEST_CASE("source lines: binary formats have none") {
  ReadResult d = read_dbcop(small_dbcop().b, "h.bincode", {});
  for (const Transaction& t : d.history.txns())
    for (const Op& op : t.ops) CHECK(op.line == 0);
}

TEST_CASE("cobra: a commit timestamp before the start timestamp is refused") {
  CobraLog a;
  a.rec('S', {0x10, 1700000000050});
  std::size_t at = a.rec('C', {0x10, 1700000000000});
  CHECK(message_of([&] { read_cobra(logs_of({a}), "d", {}); }) ==
        fmt::format("d/T0.log: byte {}: commit timestamp 1700000000000 of T10 is before its start "
                    "timestamp 1700000000050",
                    at + 9));
}
