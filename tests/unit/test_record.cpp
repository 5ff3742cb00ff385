// The workload generator (db/workload.hpp) and the recorder (db/recorder.hpp),
// the recorder on stores in memory that implement db::Connection: a serial
// one (every transaction alone: what it records is serializable), one that
// loses updates (snapshot reads, writes applied at commit unchecked), one
// whose server goes away.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "db/recorder.hpp"
#include "db/workload.hpp"
#include "engine/decide/decide.hpp"
#include "engine/history/json_format.hpp"
#include "engine/util/budget.hpp"
#include "lua/spec_library.hpp"

using namespace iso;
using namespace iso::db;

namespace {

std::size_t count_ops(const std::vector<PlannedTxn>& txns, PlannedOp::Kind kind) {
  std::size_t n = 0;
  for (const auto& t : txns)
    for (const auto& op : t.ops) n += op.kind == kind;
  return n;
}

// Transactions that read a key and then write (or append to) it.
std::size_t read_modify_writes(const std::vector<PlannedTxn>& txns) {
  std::size_t n = 0;
  for (const auto& t : txns) {
    for (std::size_t i = 0; i + 1 < t.ops.size(); ++i) {
      const auto& a = t.ops[i];
      const auto& b = t.ops[i + 1];
      if ((a.kind == PlannedOp::Kind::Read || a.kind == PlannedOp::Kind::ReadList) &&
          (b.kind == PlannedOp::Kind::Write || b.kind == PlannedOp::Kind::Append) && a.key == b.key) {
        ++n;
        break;
      }
    }
  }
  return n;
}

bool same_plan(const std::vector<PlannedTxn>& a, const std::vector<PlannedTxn>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].ops.size() != b[i].ops.size()) return false;
    for (std::size_t j = 0; j < a[i].ops.size(); ++j) {
      const auto& x = a[i].ops[j];
      const auto& y = b[i].ops[j];
      if (x.kind != y.kind || x.key != y.key || x.value != y.value || (x.predicate ? !y.predicate || !(*x.predicate == *y.predicate) : y.predicate != nullptr)) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("workload: one seed, one plan, another seed another plan") {
  WorkloadOptions o;
  o.keys = 8;
  o.seed = 42;
  const auto a = generate_workload(o, 200);
  const auto b = generate_workload(o, 200);
  CHECK(same_plan(a, b));
  o.seed = 43;
  CHECK(!same_plan(a, generate_workload(o, 200)));
}

TEST_CASE("workload: a fixed seed gives the same draws on every platform") {
  // The draws are the generator's own over mt19937_64, whose output the
  // standard fixes: these numbers hold for every compiler and library, and
  // a change of the draws (a recorded seed no longer naming its workload)
  // shows here.
  Random r(1);
  CHECK(r.below(1000) == 528);
  CHECK(r.below(1000) == 462);
  CHECK(r.below(1000) == 930);
  CHECK(r.below(1000) == 246);
  CHECK(r.unit() == 0.35089811378291946);
  WorkloadOptions o;
  o.keys = 5;
  o.seed = 1;
  const auto t = generate_workload(o, 3);
  REQUIRE(t[1].ops.size() == 3);
  CHECK(t[0].ops[0].kind == PlannedOp::Kind::Read);
  CHECK(t[1].ops[0].kind == PlannedOp::Kind::Write);
  CHECK(t[1].ops[0].key == 1);
  CHECK(t[1].ops[1].kind == PlannedOp::Kind::Read);  // a read-modify-write of key 2
  CHECK(t[1].ops[2].kind == PlannedOp::Kind::Write);
  CHECK(t[1].ops[2].key == 2);
  CHECK(t[2].ops[0].key == 3);
  o.kind = WorkloadKind::Predicate;
  const auto p = generate_workload(o, 3);
  CHECK(p[0].ops[0].predicate->text() == "[2,4]");
  CHECK(p[2].ops[0].predicate->text() == "[2,3] && v%2=0");
}

TEST_CASE("workload: every write of a key writes a value no other write of it writes") {
  for (auto kind : {WorkloadKind::RwRegister, WorkloadKind::ListAppend, WorkloadKind::Predicate}) {
    WorkloadOptions o;
    o.kind = kind;
    o.keys = 5;
    o.skew = 1.5;
    o.seed = 7;
    std::set<std::pair<std::size_t, std::int64_t>> seen;
    std::size_t writes = 0;
    for (const auto& t : generate_workload(o, 1000)) {
      for (const auto& op : t.ops) {
        if (op.kind != PlannedOp::Kind::Write && op.kind != PlannedOp::Kind::Append) continue;
        ++writes;
        CHECK(op.value >= 1);  // 0 is the initial value
        CHECK(seen.insert({op.key, op.value}).second);
      }
    }
    CHECK(writes > 300);
  }
}

TEST_CASE("workload: the mix requested") {
  WorkloadOptions o;
  o.keys = 20;
  o.max_ops = 6;
  o.seed = 3;
  SUBCASE("rw-register: reads, writes, read-modify-writes; no lists or predicates") {
    const auto txns = generate_workload(o, 1000);
    for (const auto& t : txns) {
      CHECK(!t.ops.empty());
      CHECK(t.ops.size() <= 6);
    }
    CHECK(count_ops(txns, PlannedOp::Kind::Read) > 500);
    CHECK(count_ops(txns, PlannedOp::Kind::Write) > 500);
    CHECK(count_ops(txns, PlannedOp::Kind::Append) == 0);
    CHECK(count_ops(txns, PlannedOp::Kind::ReadList) == 0);
    CHECK(count_ops(txns, PlannedOp::Kind::PredicateRead) == 0);
    // Read-modify-writes in at least a third of the transactions: lost
    // updates need them often.
    CHECK(read_modify_writes(txns) > 333);
  }
  SUBCASE("list-append: appends and list reads only") {
    o.kind = WorkloadKind::ListAppend;
    const auto txns = generate_workload(o, 1000);
    CHECK(count_ops(txns, PlannedOp::Kind::Append) > 500);
    CHECK(count_ops(txns, PlannedOp::Kind::ReadList) > 500);
    CHECK(count_ops(txns, PlannedOp::Kind::Read) + count_ops(txns, PlannedOp::Kind::Write) == 0);
    CHECK(read_modify_writes(txns) > 333);
  }
  SUBCASE("predicate: registers and predicate reads over integer key ranges, some with a value condition") {
    o.kind = WorkloadKind::Predicate;
    const auto txns = generate_workload(o, 1000);
    CHECK(count_ops(txns, PlannedOp::Kind::Read) > 300);
    CHECK(count_ops(txns, PlannedOp::Kind::Write) > 300);
    std::size_t ranges = 0, conditions = 0;
    for (const auto& t : txns) {
      for (const auto& op : t.ops) {
        if (op.kind != PlannedOp::Kind::PredicateRead) continue;
        ++ranges;
        CHECK(op.predicate->keys == Predicate::Keys::Range);
        const auto lo = std::stoul(op.predicate->lo), hi = std::stoul(op.predicate->hi);
        CHECK(lo <= hi);
        CHECK(hi < 20);
        conditions += op.predicate->cmp == Predicate::Cmp::Mod;
        CHECK(parse_predicate(op.predicate->text()).has_value());
      }
    }
    CHECK(ranges > 300);
    CHECK(conditions > 50);
    CHECK(conditions < ranges);
  }
}

TEST_CASE("workload: skew sends most accesses to the hot keys") {
  KeyChooser uniform(10, 0);
  for (std::size_t k = 0; k < 10; ++k) CHECK(uniform.probability(k) == doctest::Approx(0.1));
  KeyChooser zipf(10, 1);
  CHECK(zipf.probability(0) == doctest::Approx(2 * zipf.probability(1)));
  WorkloadOptions o;
  o.keys = 100;
  o.skew = 2;
  o.seed = 11;
  std::size_t hot = 0, all = 0;
  for (const auto& t : generate_workload(o, 2000)) {
    for (const auto& op : t.ops) {
      ++all;
      hot += op.key < 3;
    }
  }
  // Zipf(2) over 100 keys puts about 83% of the mass on the first three.
  CHECK(hot > all * 3 / 4);
}

namespace {

// A store in memory: one register and one list per key.
struct Store {
  std::mutex mutex;
  std::map<std::string, std::optional<std::int64_t>> value;
  std::map<std::string, std::vector<std::int64_t>> list;
};

// A connection to a Store. Serial: BEGIN takes the store's one lock and
// COMMIT or ROLLBACK releases it, so transactions run one at a time.
// Otherwise (lost updates): reads see the snapshot taken at BEGIN, writes
// are applied at COMMIT whatever committed meanwhile. Every `abort_every`th
// commit fails with 40001; the `fail_at`th BEGIN throws DbError.
class MemoryConnection : public Connection {
 public:
  MemoryConnection(Store& s, bool serial, std::size_t abort_every = 0, std::size_t fail_at = 0)
      : s_(s), serial_(serial), abort_every_(abort_every), fail_at_(fail_at) {}
  std::string product() const override { return "Memory 1"; }
  std::string url() const override { return "memory:"; }
  std::vector<ProductLevel> levels() const override { return {ProductLevel::Serializable}; }
  void reset_table(const std::vector<KeyRow>& rows) override {
    std::lock_guard lock(s_.mutex);
    s_.value.clear();
    s_.list.clear();
    for (const auto& r : rows) s_.value[r.key] = r.initial;
  }
  Status begin(ProductLevel) override {
    if (++begins_ == fail_at_) throw DbError("memory: begin: the server is gone");
    std::unique_lock lock(s_.mutex);
    snapshot_ = s_.value;
    lists_ = s_.list;
    if (serial_) held_ = std::move(lock);  // until COMMIT or ROLLBACK
    writes_.clear();
    appends_.clear();
    return {};
  }
  Status read(const std::string& key, std::optional<std::int64_t>& v) override {
    const auto w = writes_.find(key);
    v = w != writes_.end() ? w->second : snapshot_.at(key);
    if (!serial_) std::this_thread::sleep_for(std::chrono::microseconds(200));  // let others overlap
    return {};
  }
  Status write(const std::string& key, std::optional<std::int64_t> v) override {
    writes_[key] = v;
    return {};
  }
  Status append(const std::string& key, std::int64_t e) override {
    appends_.emplace_back(key, e);
    lists_[key].push_back(e);
    return {};
  }
  Status read_list(const std::string& key, std::vector<std::int64_t>& elements) override {
    elements = lists_[key];
    return {};
  }
  Status predicate_read(const Predicate& p, Rows& rows) override {
    rows.clear();
    for (const auto& [k, v] : snapshot_) {
      const auto w = writes_.find(k);
      const auto now = w != writes_.end() ? w->second : v;
      const Key key{k, true};
      if (p.covers(key) && now && p.holds(key, Value{*now})) rows.emplace_back(k, now);
    }
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return std::stoll(a.first) < std::stoll(b.first); });
    return {};
  }
  Status predicate_write(const Predicate&, std::optional<std::int64_t>) override { return {}; }
  Status commit() override {
    if (abort_every_ && ++commits_ % abort_every_ == 0) return {Status::Kind::Aborted, "40001", "could not serialize"};
    {
      std::unique_lock lock(s_.mutex, std::defer_lock);
      if (!serial_) lock.lock();  // serial: held since BEGIN
      for (const auto& [k, v] : writes_) s_.value[k] = v;
      for (const auto& [k, e] : appends_) s_.list[k].push_back(e);
    }
    return abort();
  }
  Status abort() override {
    if (held_.owns_lock()) held_.unlock();
    writes_.clear();
    appends_.clear();
    return {};
  }

 private:
  Store& s_;
  bool serial_;
  std::size_t abort_every_, fail_at_;
  std::size_t begins_ = 0, commits_ = 0;
  std::unique_lock<std::mutex> held_;
  std::map<std::string, std::optional<std::int64_t>> snapshot_;
  std::map<std::string, std::vector<std::int64_t>> lists_;
  std::map<std::string, std::optional<std::int64_t>> writes_;
  std::vector<std::pair<std::string, std::int64_t>> appends_;
};

Verdict verdict(const History& h, const char* level) {
  static lua::SpecLibrary lib;
  return decide(h, lib.level(level)).verdict;
}

}  // namespace

TEST_CASE("recorder: a serial store's recording is serializable, with every transaction and its times") {
  for (auto kind : {WorkloadKind::RwRegister, WorkloadKind::ListAppend, WorkloadKind::Predicate}) {
    CAPTURE(workload_name(kind));
    Store store;
    WorkloadOptions w;
    w.kind = kind;
    w.keys = 4;
    w.seed = 1;
    const auto plan = generate_workload(w, 300);
    RecordOptions o;
    o.sessions = 3;
    o.kind = kind;
    o.keys = 4;
    std::size_t connections = 0;
    const Recording r = record([&] {
      ++connections;
      return std::make_unique<MemoryConnection>(store, true, 10);
    }, plan, o);
    CHECK(connections == 3);
    CHECK(r.product == "Memory 1");
    const History& h = r.history;
    CHECK(h.num_txns() == 301);
    CHECK(h.sessions().size() == 3);
    CHECK(r.committed + r.aborted == 300);
    CHECK(r.aborted == 30);  // every 10th commit of each session fails
    CHECK(r.aborts.at("40001") == 30);
    std::size_t aborted = 0;
    for (TxnId t = 1; t < h.num_txns(); ++t) {
      const Transaction& x = h.txn(t);
      aborted += x.status == TxnStatus::Aborted;
      REQUIRE(x.begin.has_value());
      REQUIRE(x.commit.has_value());
      CHECK(*x.begin <= *x.commit);
      // Transaction i of the plan runs in session i mod 3, with all its
      // operations (the store aborts only at commit).
      const std::size_t i = std::stoul(x.name.substr(1)) - 1;
      CHECK(x.session == i % 3);
      CHECK(x.ops.size() == plan[i].ops.size());
    }
    CHECK(aborted == 30);
    // Keys are integers, every one written by T0.
    CHECK(h.keys().size() == 4);
    CHECK(h.keys()[0].integer);
    CHECK(verdict(h, "biswas.SER") == Verdict::Allowed);
    // The history survives its native JSON form.
    const History back = read_native_json(write_native_json(h).dump(), "recorded.json");
    CHECK(back.num_txns() == h.num_txns());
    CHECK(verdict(back, "biswas.SER") == Verdict::Allowed);
  }
}

namespace {

// Records `plan` (rw-register over `keys` keys) on `store` in `sessions`
// sessions, each connection a C made from the store and `args`.
template <class C, class... Args>
Recording record_on(Store& store, const std::vector<PlannedTxn>& plan, std::size_t keys, std::size_t sessions,
                    Args... args) {
  RecordOptions o;
  o.sessions = sessions;
  o.keys = keys;
  return record([&] { return std::make_unique<C>(store, args...); }, plan, o);
}

std::vector<PlannedTxn> rw_plan(std::size_t keys, std::uint64_t seed, std::size_t n) {
  WorkloadOptions w;
  w.keys = keys;
  w.seed = seed;
  return generate_workload(w, n);
}

}  // namespace

TEST_CASE("recorder: a store that loses updates is caught") {
  Store store;
  const Recording r = record_on<MemoryConnection>(store, rw_plan(2, 5, 200), 2, 4, false);
  CHECK(r.aborted == 0);
  CHECK(verdict(r.history, "biswas.SI") == Verdict::Violated);
}

TEST_CASE("recorder: a database lost mid-run fails the run, no history") {
  Store store;
  WorkloadOptions w;
  w.seed = 2;
  const auto plan = generate_workload(w, 400);
  RecordOptions o;
  o.sessions = 2;
  std::size_t n = 0;
  const Connector connect = [&] { return std::make_unique<MemoryConnection>(store, true, 0, ++n == 2 ? 50 : 0); };
  CHECK_THROWS_WITH_AS(record(connect, plan, o), "memory: begin: the server is gone", DbError);
}

TEST_CASE("recorder: the run's deadline ends it") {
  Store store;
  WorkloadOptions w;
  const auto plan = generate_workload(w, 200000);
  RecordOptions o;
  o.sessions = 2;
  budget::ScopedDeadline deadline(0.2);
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(record([&] { return std::make_unique<MemoryConnection>(store, false); }, plan, o), TimeoutError);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

namespace {

// A serial store whose every read of key 0 times out, as a statement that
// waited too long on a lock.
class TimingOut : public MemoryConnection {
 public:
  using MemoryConnection::MemoryConnection;
  Status read(const std::string& key, std::optional<std::int64_t>& v) override {
    if (key == "0") return {Status::Kind::Timeout, "57014", "canceling statement due to statement timeout"};
    return MemoryConnection::read(key, v);
  }
};

}  // namespace

TEST_CASE("recorder: a statement timeout aborts its transaction, recorded with the operations before it") {
  Store store;
  const auto plan = rw_plan(3, 9, 200);
  const Recording r = record_on<TimingOut>(store, plan, 3, 2, true);
  std::size_t expected = 0;
  for (const auto& t : plan)
    expected += std::any_of(t.ops.begin(), t.ops.end(),
                            [](const PlannedOp& op) { return op.kind == PlannedOp::Kind::Read && op.key == 0; });
  CHECK(expected > 20);
  CHECK(r.aborted == expected);
  CHECK(r.aborts.at("timeout") == expected);
  const History& h = r.history;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const Transaction& x = h.txn(t);
    const auto& ops = plan[std::stoul(x.name.substr(1)) - 1].ops;
    const auto first = std::find_if(ops.begin(), ops.end(), [](const PlannedOp& op) {
      return op.kind == PlannedOp::Kind::Read && op.key == 0;
    });
    CHECK((x.status == TxnStatus::Aborted) == (first != ops.end()));
    CHECK(x.ops.size() == static_cast<std::size_t>(first - ops.begin()));
  }
  CHECK(verdict(h, "biswas.SER") == Verdict::Allowed);
}
