// A history run on a database by a schedule (runner.hpp), the sessions on
// threads of their own, what happened recorded.
#include "db/runner.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "db/session_thread.hpp"
#include "engine/history/predicate.hpp"
#include "engine/history/printer.hpp"

namespace iso::db {

namespace {

using Clock = std::chrono::steady_clock;

std::optional<std::int64_t> as_integer(const History& h, ValueId v) {
  const Value& x = h.values()[v];
  if (const auto* i = std::get_if<std::int64_t>(&x)) return *i;
  return std::nullopt;
}

// The keys read as lists: every write to them is an append.
std::vector<bool> list_keys(const History& h) {
  std::vector<bool> out(h.keys().size(), false);
  for (const Transaction& t : h.txns())
    for (const Op& op : t.ops)
      if (op.kind == OpKind::Read && op.list != kNoList) out[op.key] = true;
  return out;
}

// One operation as it ran: what it returned.
struct RanOp {
  std::uint32_t source = 0;  // index into the input transaction's ops
  std::optional<std::int64_t> value;  // register read
  std::vector<std::int64_t> elements;  // list read
  Rows rows;                           // predicate read
};

// A transaction as it ran, written by its session's thread only.
struct RanTxn {
  bool begun = false;
  std::vector<RanOp> ops;
  std::optional<std::int64_t> begin, commit;
  TxnOutcome outcome;
};

}  // namespace

bool RunRecord::any_blocked() const {
  return std::any_of(steps.begin(), steps.end(), [](const StepOutcome& s) { return s.blocked; });
}

bool RunRecord::any_aborted_by_database() const {
  return std::any_of(txns.begin(), txns.end(), [](const TxnOutcome& t) { return t.aborted_by_database; });
}

std::optional<std::string> unsupported(const History& h) {
  const std::vector<bool> lists = list_keys(h);
  for (TxnId t = 1; t < h.num_txns(); ++t)
    for (const Op& op : h.txn(t).ops) {
      const std::string where = fmt::format("{}'s {}", h.txn_name(t), format_op(h, op));
      if ((op.kind == OpKind::Write || op.kind == OpKind::PredicateWrite) && h.is_delete(op.value))
        return where + ": deletes are not run (isosynth keeps one row per key)";
      if (op.kind == OpKind::Read && op.list != kNoList) {
        for (ValueId v : h.lists()[op.list])
          if (!as_integer(h, v)) return where + ": list elements must be integers";
        continue;
      }
      if (op.kind == OpKind::Write && lists[op.key] && !as_integer(h, op.value))
        return where + ": list elements must be integers";
      if (op.kind == OpKind::PredicateRead) {
        for (const auto& [k, v] : h.predicate_reads()[op.predicate].result)
          if (!as_integer(h, v) && !std::holds_alternative<std::monostate>(h.values()[v]))
            return where + ": values must be integers or null";
        continue;
      }
      if (!as_integer(h, op.value) && !std::holds_alternative<std::monostate>(h.values()[op.value]))
        return where + ": values must be integers or null (the table holds integers)";
    }
  for (KeyId k = 0; k < h.keys().size(); ++k) {
    const ValueId v = h.init_value(k);
    if (!as_integer(h, v) && !std::holds_alternative<std::monostate>(h.values()[v]))
      return fmt::format("the initial value of {} must be an integer or null", h.key_text(k));
  }
  return std::nullopt;
}

namespace {

// The state the runner keeps while it posts steps: sessions, their threads,
// and the steps waiting behind a blocked statement.
class Runner {
 public:
  Runner(const std::string& url, const History& h, const Schedule& s, const RunOptions& opt)
      : url_(url), h_(h), s_(s), opt_(opt), lists_(list_keys(h)), ran_(h.num_txns()),
        outcomes_(s.steps.size()), blocked_(s.steps.size(), false), released_(s.steps.size(), -1),
        session_of_(h.num_txns(), 0), start_(Clock::now()) {
    for (TxnId t = 1; t < h.num_txns(); ++t) session_of_[t] = h.txn(t).session;
  }

  RunRecord run() {
    reset_table();
    for (std::size_t i = 0; i < h_.sessions().size(); ++i)
      threads_.push_back(std::make_unique<SessionThread>(connect(url_, opt_.statement_timeout)));
    backlog_.resize(threads_.size());
    busy_.assign(threads_.size(), -1);
    for (std::size_t i = 0; i < s_.steps.size(); ++i) {
      poll();
      const SessionId sess = session_of_[s_.steps[i].txn];
      if (busy_[sess] >= 0 || !backlog_[sess].empty())
        backlog_[sess].push_back(i);
      else
        submit(i);
    }
    drain();
    for (auto& t : threads_)
      if (auto e = t->error()) std::rethrow_exception(e);
    threads_.clear();  // joins
    return record();
  }

 private:
  std::int64_t micros() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start_).count();
  }

  void reset_table() {
    std::vector<KeyRow> rows;
    for (KeyId k = 0; k < h_.keys().size(); ++k) {
      KeyRow r{h_.keys()[k].text, h_.keys()[k].integer, std::nullopt};
      if (h_.t0_writes(k)) r.initial = as_integer(h_, h_.init_value(k));
      rows.push_back(std::move(r));
    }
    connect(url_, opt_.statement_timeout)->reset_table(rows);
  }

  // Posts step i on its session's thread and waits blocked_after for it.
  void submit(std::size_t i) {
    const SessionId sess = session_of_[s_.steps[i].txn];
    threads_[sess]->post([this, i](Connection& c) { execute(c, i); });
    if (!threads_[sess]->wait_idle(std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(opt_.blocked_after)))) {
      blocked_[i] = true;
      busy_[sess] = static_cast<std::int64_t>(i);
    } else {
      last_finished_ = static_cast<std::int64_t>(i);
    }
  }

  // Sessions whose blocked statement has returned go on with the steps
  // waiting behind it.
  void poll() {
    for (std::size_t sess = 0; sess < threads_.size(); ++sess) {
      if (busy_[sess] < 0 || !threads_[sess]->idle()) continue;
      released_[static_cast<std::size_t>(busy_[sess])] = last_finished_;
      last_finished_ = busy_[sess];
      busy_[sess] = -1;
      while (busy_[sess] < 0 && !backlog_[sess].empty()) {
        const std::size_t next = backlog_[sess].front();
        backlog_[sess].pop_front();
        submit(next);
      }
    }
  }

  // After the last step: wait for the blocked sessions, each statement being
  // bounded by the statement timeout (and a deadlock by the database).
  void drain() {
    const auto limit = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(4 * opt_.statement_timeout + 10));
    for (;;) {
      poll();
      const bool waiting = std::any_of(busy_.begin(), busy_.end(), [](std::int64_t b) { return b >= 0; });
      if (!waiting) return;
      if (Clock::now() > limit) {
        for (std::size_t sess = 0; sess < busy_.size(); ++sess)
          if (busy_[sess] >= 0)
            throw DbError(fmt::format("{}: step {} did not return within the statement timeout", redact_url(url_),
                                      step_name(static_cast<std::size_t>(busy_[sess]))));
      }
      for (std::size_t sess = 0; sess < busy_.size(); ++sess)
        if (busy_[sess] >= 0 && threads_[sess]->wait_idle(std::chrono::milliseconds(20))) break;
    }
  }

  std::string step_name(std::size_t i) const {
    const Step& st = s_.steps[i];
    const std::string t = h_.txn_name(st.txn);
    if (st.kind == Step::Kind::Commit) return t + ".commit";
    if (st.kind == Step::Kind::Abort) return t + ".abort";
    return t + "." + format_op(h_, h_.txn(st.txn).ops[st.op]);
  }

  // On the session's thread: one step. Touches only ran_[step's txn] and
  // outcomes_[i], which no other thread touches until the session is idle.
  void execute(Connection& c, std::size_t i) {
    const Step& st = s_.steps[i];
    RanTxn& txn = ran_[st.txn];
    StepOutcome& out = outcomes_[i];
    if (txn.outcome.aborted_by_database) return;  // skipped
    out.run = true;
    const auto t0 = Clock::now();
    if (!txn.begun) {
      txn.begun = true;
      txn.begin = micros();
      out.status = c.begin(opt_.level);
    }
    if (out.status.ok()) out.status = statement(c, st, txn);
    out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!out.status.ok()) {
      txn.outcome.aborted_by_database = true;
      txn.outcome.status = TxnStatus::Aborted;
      txn.outcome.status_detail = out.status;
      c.abort();
    }
  }

  Status statement(Connection& c, const Step& st, RanTxn& txn) {
    if (st.kind == Step::Kind::Commit) {
      Status s = c.commit();
      if (s.ok()) {
        txn.commit = micros();
        txn.outcome.status = TxnStatus::Committed;
      }
      return s;
    }
    if (st.kind == Step::Kind::Abort) {
      txn.outcome.status = TxnStatus::Aborted;
      return c.abort();
    }
    const Op& op = h_.txn(st.txn).ops[st.op];
    RanOp ran{st.op, std::nullopt, {}, {}};
    Status s;
    const std::string* key = op.kind == OpKind::Read || op.kind == OpKind::Write ? &h_.keys()[op.key].text : nullptr;
    switch (op.kind) {
      case OpKind::Read:
        s = op.list != kNoList ? c.read_list(*key, ran.elements) : c.read(*key, ran.value);
        break;
      case OpKind::Write:
        s = lists_[op.key] ? c.append(*key, *as_integer(h_, op.value)) : c.write(*key, as_integer(h_, op.value));
        break;
      case OpKind::PredicateRead:
        s = c.predicate_read(*parse_predicate(h_.predicate_reads()[op.predicate].predicate), ran.rows);
        break;
      case OpKind::PredicateWrite:
        s = c.predicate_write(*parse_predicate(h_.predicate_reads()[op.predicate].predicate),
                              as_integer(h_, op.value));
        break;
    }
    if (s.ok()) txn.ops.push_back(std::move(ran));
    return s;
  }

  ValueId intern(History& r, std::optional<std::int64_t> v) const {
    return v ? r.intern_value(Value{*v}) : r.intern_value(Value{});
  }

  // The recorded history, from what each session's thread wrote.
  RunRecord record() {
    RunRecord out{h_.without_transactions(), std::move(outcomes_), {}, {}};
    History& r = out.recorded;
    out.txns.resize(h_.num_txns());
    out.source_ops.resize(h_.num_txns());
    for (const auto& session : h_.sessions()) {
      const SessionId rs = r.add_session();
      for (TxnId t : session) {
        RanTxn& ran = ran_[t];
        const Transaction& in = h_.txn(t);
        // A transaction never begun (its session's earlier one failed to
        // return) did not run: recorded as aborted, with no operations.
        const TxnStatus status = ran.begun ? ran.outcome.status : TxnStatus::Aborted;
        const TxnId rt = r.add_txn(rs, in.name, status);
        r.txn(rt).begin = ran.begin;
        r.txn(rt).commit = ran.commit;
        out.txns[t] = ran.outcome;
        out.txns[t].status = status;
        for (const RanOp& op : ran.ops) {
          const Op& src = in.ops[op.source];
          out.source_ops[t].push_back(op.source);
          switch (src.kind) {
            case OpKind::Read:
              if (src.list != kNoList) {
                std::vector<ValueId> elements;
                for (std::int64_t e : op.elements) elements.push_back(r.intern_value(Value{e}));
                r.add_list_read(rt, src.key, std::move(elements), r.init_value(src.key), src.line);
              } else {
                r.add_read(rt, src.key, intern(r, op.value), src.line);
              }
              break;
            case OpKind::Write:
              r.add_write(rt, src.key, src.value, src.line);
              break;
            case OpKind::PredicateRead: {
              PredicateRead pr{h_.predicate_reads()[src.predicate].predicate, {}};
              for (const auto& [key, value] : op.rows) {
                const auto k = r.find_key(key);
                if (!k) throw DbError(fmt::format("{}: a predicate read returned a key the history does not have: {}",
                                                  redact_url(url_), display_text(key)));
                pr.result.emplace_back(*k, intern(r, value));
              }
              r.add_predicate_read(rt, std::move(pr), src.line);
              break;
            }
            case OpKind::PredicateWrite:
              r.add_predicate_write(rt, h_.predicate_reads()[src.predicate].predicate, src.value, src.line);
              break;
          }
        }
      }
    }
    for (std::size_t i = 0; i < out.steps.size(); ++i) {
      out.steps[i].blocked = blocked_[i];
      out.steps[i].released_after = released_[i];
    }
    return out;
  }

  const std::string& url_;
  const History& h_;
  const Schedule& s_;
  const RunOptions& opt_;
  std::vector<bool> lists_;
  std::vector<RanTxn> ran_;
  std::vector<StepOutcome> outcomes_;
  std::vector<bool> blocked_;
  std::vector<std::int64_t> released_;
  std::vector<SessionId> session_of_;
  Clock::time_point start_;
  std::vector<std::unique_ptr<SessionThread>> threads_;  // after what their work touches: destroyed first
  std::vector<std::deque<std::size_t>> backlog_;
  std::vector<std::int64_t> busy_;  // per session: the blocked step, or -1
  std::int64_t last_finished_ = -1;  // the step that last returned, for what released a blocked one
};

}  // namespace

RunRecord run_schedule(const std::string& url, const History& h, const Schedule& s, const RunOptions& opt) {
  return Runner(url, h, s, opt).run();
}

namespace {

// An operation as compared: its printed form, with a predicate read's rows
// in key order (the database returns them so; a history may list them in
// any order).
std::string comparable(const History& h, const Op& op) {
  if (op.kind != OpKind::PredicateRead) return format_op(h, op);
  std::vector<std::string> rows;
  for (const auto& [k, v] : h.predicate_reads()[op.predicate].result)
    rows.push_back(h.keys()[k].text + "=" + h.value_text(v));
  std::sort(rows.begin(), rows.end());
  return fmt::format("pr({}: {{{}}})", h.predicate_reads()[op.predicate].predicate, fmt::join(rows, ", "));
}

}  // namespace

std::vector<std::string> differences(const History& intended, const RunRecord& run) {
  std::vector<std::string> out;
  const History& r = run.recorded;
  for (TxnId t = 1; t < intended.num_txns(); ++t) {
    const Transaction& in = intended.txn(t);
    const Transaction& got = r.txn(t);
    std::vector<bool> ran(in.ops.size(), false);
    for (std::size_t i = 0; i < got.ops.size(); ++i) {
      const std::uint32_t src = run.source_ops[t][i];
      ran[src] = true;
      const Op& a = in.ops[src];
      const Op& b = got.ops[i];
      if (comparable(intended, a) != comparable(r, b)) out.push_back(fmt::format("{}: {}, not {}", intended.txn_name(t), format_op(r, b), format_op(intended, a)));
    }
    for (std::size_t i = 0; i < in.ops.size(); ++i)
      if (!ran[i]) out.push_back(fmt::format("{}: {} did not run", intended.txn_name(t), format_op(intended, in.ops[i])));
    if (got.status != in.status && !(in.status == TxnStatus::Unknown && got.status == TxnStatus::Committed))
      out.push_back(fmt::format("{}: {}", intended.txn_name(t),
                                got.status == TxnStatus::Aborted ? "aborted" : "committed"));
  }
  return out;
}

}  // namespace iso::db
