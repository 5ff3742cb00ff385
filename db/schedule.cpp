// The schedule search (schedule.hpp): a depth-first search over the
// interleavings of the sessions' statements, each read checked against its
// read model as soon as it is placed, with the states already known to lead
// nowhere remembered, so that interleavings that differ only in the order of
// steps that do not interact are searched once.
#include "db/schedule.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "db/schedule_state.hpp"

namespace iso::db {

const char* model_name(ReadModel m) {
  switch (m) {
    case ReadModel::Snapshot: return "snapshot";
    case ReadModel::Committed: return "committed";
    case ReadModel::Uncommitted: return "uncommitted";
  }
  return "?";
}

namespace {

// One pass of the search: a read model, and what it may do beyond program
// order with blocked writes.
struct Pass {
  ReadModel model = ReadModel::Snapshot;
  bool reorder = false;
  bool dirty = false;
};

// A set of 128-bit state fingerprints (Execution::fingerprint()), open
// addressing: the dead states of one pass. 128 bits make a false "already
// dead" (which would lose schedules) as unlikely as a random collision.
class FingerprintSet {
 public:
  using Print = Execution::Fingerprint;
  bool contains(Print p) const {
    p = occupied(p);
    if (slots_.empty()) return false;
    for (std::size_t i = index(p);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i] == p) return true;
      if (slots_[i] == kEmpty) return false;
    }
  }
  void insert(Print p) {
    p = occupied(p);
    if ((size_ + 1) * 2 > slots_.size()) grow();
    for (std::size_t i = index(p);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i] == p) return;
      if (slots_[i] == kEmpty) {
        slots_[i] = p;
        ++size_;
        return;
      }
    }
  }

 private:
  static constexpr Print kEmpty{0, 0};
  static Print occupied(Print p) { return p == kEmpty ? Print{0, 1} : p; }  // never the empty slot
  std::size_t index(Print p) const { return static_cast<std::size_t>(p.first) & (slots_.size() - 1); }
  void grow() {
    std::vector<Print> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, kEmpty);
    size_ = 0;
    for (const Print& p : old)
      if (p != kEmpty) insert(p);
  }
  std::vector<Print> slots_;
  std::size_t size_ = 0;
};

// The schedules found so far, by their steps: the index of each in the
// result.
using Seen = std::map<std::vector<std::pair<TxnId, std::uint64_t>>, std::size_t>;

// The search of one pass. The schedules it finds are appended to `out`
// (unless `seen` has their steps already: an earlier pass found them).
class Search {
 public:
  // `nodes`: the nodes searched so far, in all passes; this pass stops
  // when they reach `limit`.
  Search(const History& h, const Pass& pass, const ScheduleOptions& opt, std::uint64_t& nodes,
         std::uint64_t limit, std::vector<Schedule>& out, Seen& seen)
      : h_(h), pass_(pass), opt_(opt), nodes_(nodes), limit_(limit), out_(out), seen_(seen), ex_(h, pass.model) {
    const std::size_t n = h.num_txns();
    done_.resize(n);
    ndone_.assign(n, 0);
    for (TxnId t = 1; t < n; ++t) done_[t].assign(h.txn(t).ops.size(), 0);
    cur_.assign(h.sessions().size(), 0);
    last_session_ = kNoSession;
    first_ = out.size();
    // Real time: the transactions each must begin after (a recorded
    // history's timestamps; none without them).
    rt_before_.resize(n);
    for (TxnId t = 1; t < n; ++t)
      for (TxnId u = 1; u < n; ++u)
        if (h.real_time_before(u, t)) rt_before_[t].push_back(u);
  }

  // False when the node budget ran out.
  bool run() {
    dfs();
    return !exhausted_;
  }

 private:
  // What a placed step changed, to undo it.
  struct Undo {
    Step step;
    bool began = false;
    bool dirty = false;
    bool reordered = false;
    SessionId previous_session = kNoSession;
    std::vector<KeyId> written;  // keys whose versions got one more, in order
  };

  bool stop() const {
    return exhausted_ || out_.size() >= opt_.max_schedules || out_.size() - first_ >= opt_.max_per_pass;
  }

  // May t begin now? Every transaction that committed before it began, in
  // real time, has ended.
  bool may_begin(TxnId t) const {
    for (TxnId u : rt_before_[t]) {
      const Phase p = ex_.phase(u);
      if (p == Phase::Waiting || p == Phase::Running) return false;
    }
    return true;
  }

  // Is op i of t's next under the pass's order? In program order, the
  // first not done; reordered, an op whose earlier conflicting ops (same
  // key, or either a predicate operation) are all done.
  bool available(TxnId t, std::uint32_t i) const {
    if (done_[t][i]) return false;
    if (!pass_.reorder) return i == ndone_[t];
    const auto& ops = h_.txn(t).ops;
    for (std::uint32_t j = 0; j < i; ++j)
      if (!done_[t][j] && ex_.conflict(ops[j], ops[i])) return false;
    return true;
  }

  // Places op i of t; nullopt (nothing changed) when its read would not
  // return what the history says or a write is blocked.
  std::optional<Undo> place_op(TxnId t, std::uint32_t i) {
    Undo u;
    u.step = Step{t, Step::Kind::Op, i};
    if (ex_.phase(t) == Phase::Waiting) {
      if (!may_begin(t)) return std::nullopt;
      ex_.begin(t);
      u.began = true;
      // Under Snapshot every read of t is fixed now (its snapshot and its
      // own earlier writes): a transaction none of whose orders can read
      // what it read is not started.
      if (pass_.model == ReadModel::Snapshot && !ex_.snapshot_reads_hold(t)) {
        ex_.unbegin(t);
        return std::nullopt;
      }
    }
    const Op& op = h_.txn(t).ops[i];
    bool ok = true;
    if (op.kind == OpKind::Read || op.kind == OpKind::PredicateRead) {
      ok = ex_.read_holds(t, op);
    } else {
      const std::vector<KeyId> keys = ex_.written_keys(t, op);
      for (KeyId k : keys)
        if (ex_.blocked(t, k)) u.dirty = true;
      if (u.dirty && !pass_.dirty) ok = false;
      if (ok)
        for (KeyId k : keys) ex_.write(t, k, op.value);
      u.written = keys;
      if (ok && op.kind == OpKind::Write && ex_.read_lost_after_write(t, op.key, done_)) {
        ex_.unwrite(op.key);
        ok = false;
      }
    }
    if (!ok) {
      if (u.began) ex_.unbegin(t);
      return std::nullopt;
    }
    u.reordered = i != first_not_done(t);
    done_[t][i] = 1;
    ++ndone_[t];
    ex_.toggle_done(t, i);
    return u;
  }

  std::uint32_t first_not_done(TxnId t) const {
    std::uint32_t i = 0;
    while (i < done_[t].size() && done_[t][i]) ++i;
    return i;
  }

  void place_end(TxnId t, Undo& u) {
    const bool commit = h_.txn(t).status != TxnStatus::Aborted;
    u.step = Step{t, commit ? Step::Kind::Commit : Step::Kind::Abort, 0};
    if (ex_.phase(t) == Phase::Waiting) {  // a transaction without operations
      ex_.begin(t);
      u.began = true;
    }
    ex_.end(t, commit);
    ++cur_[h_.txn(t).session];
  }

  void undo(const Undo& u) {
    const TxnId t = u.step.txn;
    if (u.step.kind == Step::Kind::Op) {
      done_[t][u.step.op] = 0;
      --ndone_[t];
      ex_.toggle_done(t, u.step.op);
      for (auto it = u.written.rbegin(); it != u.written.rend(); ++it) ex_.unwrite(*it);
    } else {
      --cur_[h_.txn(t).session];
      ex_.unend(t);
    }
    if (u.began) ex_.unbegin(t);
  }

  // The sessions in the order their next steps are tried: the one that ran
  // the last step, then those in a transaction, then those about to begin
  // one (each group from the last session on), so that a transaction runs
  // to its end before another starts where the reads allow.
  std::vector<SessionId> session_order() const {
    const auto ns = static_cast<SessionId>(h_.sessions().size());
    std::vector<SessionId> order;
    const SessionId from = last_session_ == kNoSession ? 0 : last_session_;
    if (last_session_ != kNoSession && cur_[last_session_] < h_.sessions()[last_session_].size())
      order.push_back(last_session_);
    for (int running = 1; running >= 0; --running)
      for (SessionId d = 0; d < ns; ++d) {
        const SessionId s = (from + d) % ns;
        if (s == last_session_ || cur_[s] >= h_.sessions()[s].size()) continue;
        const bool in_txn = ex_.phase(h_.sessions()[s][cur_[s]]) == Phase::Running;
        if (in_txn == (running == 1)) order.push_back(s);
      }
    return order;
  }

  bool all_ended() const {
    for (SessionId s = 0; s < h_.sessions().size(); ++s)
      if (cur_[s] < h_.sessions()[s].size()) return false;
    return true;
  }

  // Records the schedule on the path; true (a schedule exists below) even
  // when an earlier pass found the same steps.
  void record() {
    std::vector<std::pair<TxnId, std::uint64_t>> key;
    key.reserve(path_.size());
    for (const Step& s : path_)
      key.emplace_back(s.txn, (static_cast<std::uint64_t>(s.kind) << 32) | s.op);
    // Steps an earlier pass found: they realize the history under this
    // pass's model too.
    if (const auto it = seen_.find(key); it != seen_.end()) {
      auto& models = out_[it->second].models;
      if (std::find(models.begin(), models.end(), pass_.model) == models.end()) models.push_back(pass_.model);
      return;
    }
    seen_.emplace(std::move(key), out_.size());
    Schedule sc;
    sc.steps = path_;
    sc.model = pass_.model;
    sc.models = {pass_.model};
    sc.reordered = reordered_ > 0;
    sc.dirty_writes = dirty_ > 0;
    out_.push_back(std::move(sc));
  }

  // Does some schedule complete the path? Remembers the states from which
  // none does (searched to the end, not cut by the budget).
  bool dfs() {
    if (nodes_ >= limit_) {
      exhausted_ = true;
      return false;
    }
    ++nodes_;
    if (all_ended()) {
      record();
      return true;
    }
    const auto print = ex_.fingerprint();
    if (dead_.contains(print)) return false;
    bool found = false;
    for (SessionId s : session_order()) {
      const TxnId t = h_.sessions()[s][cur_[s]];
      const auto nops = static_cast<std::uint32_t>(h_.txn(t).ops.size());
      if (ndone_[t] == nops) {
        if (ex_.phase(t) == Phase::Waiting && !may_begin(t)) continue;  // an empty transaction
        Undo u;
        place_end(t, u);
        if (u.step.kind == Step::Kind::Commit && ex_.read_lost_after_commit(t, done_)) undo(u);
        else found |= descend(u, s);
      } else {
        for (std::uint32_t i = 0; i < nops && !stop(); ++i) {
          if (!available(t, i)) continue;
          std::optional<Undo> u = place_op(t, i);
          if (u) found |= descend(*u, s);
          if (!pass_.reorder) break;
        }
      }
      if (stop()) return found;
    }
    if (!found) dead_.insert(print);
    return found;
  }

  bool descend(Undo& u, SessionId s) {
    u.previous_session = last_session_;
    last_session_ = s;
    path_.push_back(u.step);
    dirty_ += u.dirty;
    reordered_ += u.reordered;
    const bool found = dfs();
    dirty_ -= u.dirty;
    reordered_ -= u.reordered;
    path_.pop_back();
    last_session_ = u.previous_session;
    undo(u);
    return found;
  }

  const History& h_;
  Pass pass_;
  const ScheduleOptions& opt_;
  std::uint64_t& nodes_;
  std::uint64_t limit_;
  std::vector<Schedule>& out_;
  Seen& seen_;
  Execution ex_;
  std::vector<std::vector<char>> done_;  // per transaction, per op
  std::vector<std::uint32_t> ndone_;
  std::vector<std::uint32_t> cur_;  // per session: its first transaction not ended
  SessionId last_session_;
  std::vector<Step> path_;
  int dirty_ = 0, reordered_ = 0;
  bool exhausted_ = false;
  std::size_t first_ = 0;  // out_'s size when this pass began
  std::vector<std::vector<TxnId>> rt_before_;
  FingerprintSet dead_;
};

// Can reordering change anything: has some transaction two operations
// that may swap?
bool has_swappable_ops(const Execution& ex, const History& h) {
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const auto& ops = h.txn(t).ops;
    for (std::size_t i = 0; i < ops.size(); ++i)
      for (std::size_t j = i + 1; j < ops.size(); ++j)
        if (!ex.conflict(ops[i], ops[j])) return true;
  }
  return false;
}

}  // namespace

ScheduleSearch find_schedules(const History& h, const ScheduleOptions& opt) {
  ScheduleSearch result;
  if (opt.max_schedules == 0) return result;
  const Execution facts(h, ReadModel::Snapshot);
  // A read of a value that no write of its key produces and that is not
  // the initial one: no interleaving returns it.
  if (!facts.values_written(h)) return result;
  Seen seen;
  const bool swappable = has_swappable_ops(facts, h);
  std::vector<Pass> passes;
  for (const bool dirty : {false, true})
    for (const bool reorder : {false, true}) {
      if (dirty && !reorder) continue;  // the third pass reorders too
      if (reorder && !dirty && !swappable) continue;  // the same as the first
      for (ReadModel m : {ReadModel::Snapshot, ReadModel::Committed, ReadModel::Uncommitted})
        passes.push_back(Pass{m, reorder, dirty});
    }
  // Each pass gets an equal share of the nodes the earlier ones left, so
  // that one pass that cannot be searched to its end (often Snapshot's,
  // when the history is far from snapshot isolation) does not leave the
  // later ones, which may find a schedule at once, nothing.
  std::uint64_t nodes = 0;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const std::uint64_t share = (opt.max_nodes - nodes) / (passes.size() - i);
    Search search(h, passes[i], opt, nodes, nodes + share, result.schedules, seen);
    if (!search.run()) result.complete = false;
    if (result.schedules.size() >= opt.max_schedules) break;
  }
  return result;
}

std::vector<std::vector<std::string>> expected_reads(const History& h, const Schedule& s) {
  Execution ex(h, s.model);
  std::vector<std::vector<std::string>> out;
  out.reserve(s.steps.size());
  for (const Step& step : s.steps) {
    const TxnId t = step.txn;
    if (ex.phase(t) == Phase::Waiting) ex.begin(t);
    out.emplace_back();
    if (step.kind != Step::Kind::Op) {
      ex.end(t, step.kind == Step::Kind::Commit);
      continue;
    }
    const Op& op = h.txn(t).ops.at(step.op);
    if (op.kind == OpKind::Read && op.list == kNoList) {
      if (const auto v = ex.value(t, op.key)) out.back().push_back(h.value_text(*v));
    } else if (op.kind == OpKind::Read) {
      if (const auto list = ex.list(t, op.key))
        for (ValueId v : *list) out.back().push_back(h.value_text(v));
    } else if (op.kind == OpKind::PredicateRead) {
      for (const auto& [k, v] : ex.predicate_result(t, op.predicate))
        out.back().push_back(fmt::format("{}={}", h.key_text(k), h.value_text(v)));
    } else {
      for (KeyId k : ex.written_keys(t, op)) ex.write(t, k, op.value);
    }
  }
  return out;
}

std::string schedule_text(const History& h, const Schedule& s) {
  std::string out;
  for (const Step& step : s.steps) {
    if (!out.empty()) out += ' ';
    out += h.txn_name(step.txn);
    out += '.';
    if (step.kind == Step::Kind::Commit) {
      out += "commit";
      continue;
    }
    if (step.kind == Step::Kind::Abort) {
      out += "abort";
      continue;
    }
    const Op& op = h.txn(step.txn).ops.at(step.op);
    switch (op.kind) {
      case OpKind::Read: out += fmt::format("r({})", h.key_text(op.key)); break;
      case OpKind::Write:
        out += fmt::format("{}({})", h.is_delete(op.value) ? "d" : "w", h.key_text(op.key));
        break;
      case OpKind::PredicateRead:
        out += fmt::format("pr({})", h.predicate_reads()[op.predicate].predicate);
        break;
      case OpKind::PredicateWrite:
        out += fmt::format("{}({})", h.is_delete(op.value) ? "pd" : "pw",
                           h.predicate_reads()[op.predicate].predicate);
        break;
    }
  }
  return out;
}

}  // namespace iso::db
