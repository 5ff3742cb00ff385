// A workload recorded on a database (recorder.hpp): one thread and
// connection per session, the results gathered into a History.
#include "db/recorder.hpp"

#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "engine/util/budget.hpp"

namespace iso::db {

namespace {

using Clock = std::chrono::steady_clock;

// One operation as the database answered it.
struct DoneOp {
  const PlannedOp* plan = nullptr;
  std::optional<std::int64_t> value;  // Read
  std::vector<std::int64_t> list;     // ReadList
  Rows rows;                          // PredicateRead
};

// One transaction as it ran: the operations that executed, in order.
struct DoneTxn {
  std::size_t index = 0;  // in the plan
  std::vector<DoneOp> ops;
  bool committed = false;
  std::int64_t begin = 0, end = 0;  // microseconds from the run's origin
};

// What the sessions share: when to stop, how far they are, the first
// failure. Everything else a session keeps to itself until it has ended.
struct Shared {
  Clock::time_point origin;
  std::atomic<bool> stop{false};
  std::atomic<std::size_t> done{0}, aborted{0}, finished_sessions{0};
  std::mutex mutex;
  std::exception_ptr failure;  // the first DbError (or other exception) of any session

  std::int64_t now() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - origin).count();
  }
  void fail(std::exception_ptr e) {
    std::lock_guard lock(mutex);
    if (!failure) failure = std::move(e);
    stop = true;
  }
};

// The abort's name in the counts: its SQLSTATE, "timeout" for a statement
// timeout.
std::string abort_reason(const Status& s) {
  if (s.kind == Status::Kind::Timeout) return "timeout";
  return s.sqlstate.empty() ? "aborted" : s.sqlstate;
}

class Session {
 public:
  Session(std::unique_ptr<Connection> c, std::size_t index, const std::vector<PlannedTxn>& plan,
          const RecordOptions& o, const std::vector<std::string>& names, Shared& shared)
      : conn_(std::move(c)), index_(index), plan_(plan), o_(o), names_(names), shared_(shared) {}

  // The session's transactions: plan[index], plan[index + K], ...
  void run() {
    try {
      for (std::size_t i = index_; i < plan_.size() && !shared_.stop; i += o_.sessions) run_txn(i);
    } catch (...) {
      // Closing the connection now lets the server release this session's
      // locks, so the other sessions end instead of waiting on them.
      conn_.reset();
      shared_.fail(std::current_exception());
    }
    ++shared_.finished_sessions;
  }

  std::vector<DoneTxn>& txns() { return txns_; }
  std::map<std::string, std::size_t>& aborts() { return aborts_; }

 private:
  void run_txn(std::size_t i) {
    DoneTxn t;
    t.index = i;
    t.begin = shared_.now();
    Status st = conn_->begin(o_.level);
    for (const PlannedOp& op : plan_[i].ops) {
      if (!st.ok()) break;
      DoneOp d;
      d.plan = &op;
      const std::string& key = names_[op.key];
      switch (op.kind) {
        case PlannedOp::Kind::Read: st = conn_->read(key, d.value); break;
        case PlannedOp::Kind::Write: st = conn_->write(key, op.value); break;
        case PlannedOp::Kind::Append: st = conn_->append(key, op.value); break;
        case PlannedOp::Kind::ReadList: st = conn_->read_list(key, d.list); break;
        case PlannedOp::Kind::PredicateRead: st = conn_->predicate_read(*op.predicate, d.rows); break;
      }
      if (st.ok()) t.ops.push_back(std::move(d));
    }
    if (st.ok()) st = conn_->commit();
    if (!st.ok()) {
      ++aborts_[abort_reason(st)];
      ++shared_.aborted;
      conn_->abort();  // the transaction is over either way; what it says adds nothing
    }
    t.committed = st.ok();
    t.end = shared_.now();
    txns_.push_back(std::move(t));
    ++shared_.done;
  }

  std::unique_ptr<Connection> conn_;
  std::size_t index_;
  const std::vector<PlannedTxn>& plan_;
  const RecordOptions& o_;
  const std::vector<std::string>& names_;
  Shared& shared_;
  std::vector<DoneTxn> txns_;
  std::map<std::string, std::size_t> aborts_;
};

// The sessions' threads, joined however record() leaves (a timeout, a
// failure): no thread outlives the sessions it runs.
class Threads {
 public:
  explicit Threads(Shared& shared) : shared_(shared) {}
  ~Threads() {
    shared_.stop = true;
    join();
  }
  Threads(const Threads&) = delete;
  Threads& operator=(const Threads&) = delete;
  void start(Session& s) { threads_.emplace_back([&s] { s.run(); }); }
  void join() {
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

 private:
  Shared& shared_;
  std::vector<std::thread> threads_;
};

Value int_value(std::optional<std::int64_t> v) { return v ? Value{*v} : Value{}; }

// The recorded history: keys "0" .. "M-1" first (integers, every one
// written by T0 with 0), then each session's transactions in the order it
// ran them.
History build_history(std::vector<Session>& sessions, std::size_t keys) {
  History h;
  std::vector<KeyId> key_ids(keys);
  for (std::size_t k = 0; k < keys; ++k) key_ids[k] = h.intern_key(key_name(k), true);
  for (Session& s : sessions) {
    const SessionId sid = h.add_session();
    for (const DoneTxn& d : s.txns()) {
      const TxnId t = h.add_txn(sid, "T" + std::to_string(d.index + 1),
                                d.committed ? TxnStatus::Committed : TxnStatus::Aborted);
      h.txn(t).begin = d.begin;
      h.txn(t).commit = d.end;
      for (const DoneOp& op : d.ops) {
        const KeyId k = key_ids[op.plan->key];
        switch (op.plan->kind) {
          case PlannedOp::Kind::Read: h.add_read(t, k, h.intern_value(int_value(op.value))); break;
          case PlannedOp::Kind::Write:
          case PlannedOp::Kind::Append: h.add_write(t, k, h.intern_value(Value{op.plan->value})); break;
          case PlannedOp::Kind::ReadList: {
            std::vector<ValueId> elements;
            elements.reserve(op.list.size());
            for (std::int64_t e : op.list) elements.push_back(h.intern_value(Value{e}));
            h.add_list_read(t, k, std::move(elements), h.init_value(k));
            break;
          }
          case PlannedOp::Kind::PredicateRead: {
            PredicateRead pr;
            pr.predicate = op.plan->predicate->text();
            for (const auto& [key, value] : op.rows)
              pr.result.emplace_back(h.intern_key(key, true), h.intern_value(int_value(value)));
            h.add_predicate_read(t, std::move(pr));
            break;
          }
        }
      }
    }
  }
  return h;
}

}  // namespace

Recording record(const Connector& connect, const std::vector<PlannedTxn>& plan, const RecordOptions& o) {
  if (o.sessions == 0) throw std::invalid_argument("a recording needs at least one session");
  Recording out;
  std::vector<std::string> names(o.keys);
  for (std::size_t k = 0; k < o.keys; ++k) names[k] = key_name(k);

  // Every connection is opened, and the table reset, before any session
  // starts: a database that cannot be reached fails the run before it runs.
  std::vector<std::unique_ptr<Connection>> conns;
  for (std::size_t s = 0; s < o.sessions; ++s) {
    budget::check();
    conns.push_back(connect());
  }
  out.product = conns[0]->product();
  out.url = conns[0]->url();
  std::vector<KeyRow> rows(o.keys);
  for (std::size_t k = 0; k < o.keys; ++k) rows[k] = KeyRow{names[k], true, 0};
  conns[0]->reset_table(rows);

  Shared shared;
  std::vector<Session> sessions;
  sessions.reserve(o.sessions);
  for (std::size_t s = 0; s < o.sessions; ++s) sessions.emplace_back(std::move(conns[s]), s, plan, o, names, shared);
  shared.origin = Clock::now();
  {
    Threads threads(shared);
    for (Session& s : sessions) threads.start(s);
    auto next_beat = shared.origin + std::chrono::seconds(1);
    while (shared.finished_sessions < o.sessions) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (budget::expired()) {
        shared.stop = true;
        threads.join();
        throw TimeoutError();
      }
      if (o.progress && Clock::now() >= next_beat) {
        next_beat += std::chrono::seconds(1);
        o.progress(shared.done, shared.aborted);
      }
    }
    threads.join();
  }
  out.seconds = std::chrono::duration<double>(Clock::now() - shared.origin).count();
  if (shared.failure) std::rethrow_exception(shared.failure);

  for (Session& s : sessions) {
    for (const auto& [reason, n] : s.aborts()) out.aborts[reason] += n;
  }
  out.aborted = shared.aborted;
  out.committed = shared.done - shared.aborted;
  out.history = build_history(sessions, o.keys);
  return out;
}

}  // namespace iso::db
