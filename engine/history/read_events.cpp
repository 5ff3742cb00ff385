// The "read events" stage of the front end (front_end.hpp, read_events()):
// one pass over each member's operations in program order, keeping per key
// whether the transaction wrote it (and with which operation, and whether
// that write is a predicate write's guarded one). A read not preceded by
// the transaction's own write is a read event; one after it must return
// that write (INT); the last write of each key is the final write.
// Predicate reads and writes, when expanded, become read events (and
// guarded writes) of every key their predicate covers.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "engine/history/front_end.hpp"
#include "engine/history/printer.hpp"
#include "engine/util/budget.hpp"

namespace iso::front_end {

namespace {

// Per-key state while scanning one transaction.
struct KeyState {
  std::uint32_t stamp = 0;     // the scan this state belongs to
  std::uint32_t write_op = 0;  // last write of the key
  bool written = false;
  std::uint32_t guard = kNoGuard;  // the last write is a predicate write's guarded one
};

class TransactionScan {
 public:
  TransactionScan(const History& h, bool expand_predicates)
      : h_(h), expand_(expand_predicates), state_(h.keys().size()),
        predicates_(h) {
    local_.reserve(kShort);
    out_.abs.resize(h.num_txns());
  }
  void scan(TxnId t);
  ReadEvents take() { return std::move(out_); }

 private:
  // A transaction's keys: for a short transaction in a small array searched
  // linearly, for a long one in a table indexed by key (stamped per scan).
  // On large histories with many keys the table costs a cache miss per
  // operation, the array none.
  static constexpr std::size_t kShort = 24;
  // Valid until the next call: `local_` holds at most kShort keys and never
  // reallocates.
  KeyState& state_of(KeyId k);
  std::vector<KeyId> covered(const Predicate& p);
  void read(std::uint32_t i);
  void own_write_mismatch(std::uint32_t i, const KeyState& s);
  void write(std::uint32_t i);
  void predicate_read(std::uint32_t i);
  void predicate_write(std::uint32_t i);
  void finish(std::size_t first_guard);

  const History& h_;
  const bool expand_;
  std::vector<KeyState> state_;
  std::vector<KeyId> touched_;
  std::vector<std::pair<KeyId, KeyState>> local_;
  std::uint32_t stamp_ = 0;
  // Predicate reads, each parsed once; the key index built at the first.
  ParsedPredicates predicates_;
  std::optional<KeyIndex> key_index_;
  // The transaction being scanned.
  TxnId t_ = 0;
  const Transaction* txn_ = nullptr;
  bool short_ = true;
  ReadEvents out_;
};

KeyState& TransactionScan::state_of(KeyId k) {
  if (short_) {
    for (auto& [key, ks] : local_)
      if (key == k) return ks;
    local_.emplace_back(k, KeyState{});
    return local_.back().second;
  }
  KeyState& ks = state_[k];
  if (ks.stamp != stamp_) {
    ks = KeyState{};
    ks.stamp = stamp_;
    touched_.push_back(k);
  }
  return ks;
}

std::vector<KeyId> TransactionScan::covered(const Predicate& p) {
  if (!key_index_) key_index_.emplace(h_);
  return key_index_->covered(p);
}

void TransactionScan::scan(TxnId t) {
  budget::poll();
  t_ = t;
  txn_ = &h_.txn(t);
  const std::size_t first_guard = out_.guarded.size();
  ++stamp_;
  touched_.clear();
  local_.clear();
  short_ = txn_->ops.size() <= kShort;
  for (std::uint32_t i = 0; i < txn_->ops.size(); ++i) {
    switch (txn_->ops[i].kind) {
      case OpKind::PredicateRead:
        out_.has_predicate_reads = true;
        if (expand_) predicate_read(i);
        break;
      case OpKind::PredicateWrite:
        out_.has_predicate_reads = true;
        if (expand_) predicate_write(i);
        break;
      case OpKind::Read: read(i); break;
      case OpKind::Write: write(i); break;
    }
  }
  finish(first_guard);
}

void TransactionScan::read(std::uint32_t i) {
  const Op& op = txn_->ops[i];
  AbstractTxn& at = out_.abs[t_];
  KeyState& s = state_of(op.key);
  if (s.guard != kNoGuard) {
    // After a guarded write of the key: its value says the write happened
    // (INT); another value says it did not, and is what the key held
    // (predicate_write_gap() refuses the ambiguous case).
    const bool happened = op.value == txn_->ops[s.write_op].value;
    out_.forced_guards.emplace_back(s.guard, happened);
    if (!happened) at.reads.push_back(ExternalRead{op.key, op.value, i});
    return;
  }
  // Not preceded by the transaction's own write of the key: an external
  // read event, a re-read included (what it may return is the level's
  // business).
  if (!s.written) {
    at.reads.push_back(ExternalRead{op.key, op.value, i});
    return;
  }
  // A list read after the transaction's own appends must end with them:
  // known_order.cpp checks that, and says it in list terms.
  if (txn_->ops[s.write_op].value != op.value && op.list == kNoList) own_write_mismatch(i, s);
}

// A read after the transaction's own write of the key that returns another
// value. Plume tells a read of the transaction's own overwritten write
// (not-my-last-write) from one of any other value.
void TransactionScan::own_write_mismatch(std::uint32_t i, const KeyState& s) {
  const Op& op = txn_->ops[i];
  const Op& last = txn_->ops[s.write_op];
  std::optional<std::uint32_t> overwritten;
  for (std::uint32_t j = 0; j < s.write_op && !overwritten; ++j) {
    const Op& w = txn_->ops[j];
    if (w.kind == OpKind::Write && w.key == op.key && w.value == op.value) overwritten = j;
  }
  if (overwritten)
    out_.int_violations.push_back(IntViolation{
        t_, i,
        fmt::format("{}: {} returns its own overwritten write {}, not its last write {}",
                    h_.txn_name(t_), format_op(h_, op), format_op(h_, txn_->ops[*overwritten]),
                    format_op(h_, last)),
        IntViolation::Kind::OwnWrite, IntViolation::Pattern::NotMyLastWrite});
  else
    out_.int_violations.push_back(IntViolation{
        t_, i,
        fmt::format("{}: {} does not return its own earlier write {}", h_.txn_name(t_),
                    format_op(h_, op), format_op(h_, last)),
        IntViolation::Kind::OwnWrite, IntViolation::Pattern::NotMyOwnWrite});
}

void TransactionScan::write(std::uint32_t i) {
  KeyState& s = state_of(txn_->ops[i].key);
  if (s.guard != kNoGuard) out_.guarded[s.guard].final = false;  // overwritten
  s.written = true;
  s.write_op = i;
  s.guard = kNoGuard;
}

// A predicate read: a read event of every key its predicate covers that the
// transaction did not write before; what it returned that its predicate
// excludes is reported with the other unjustified reads.
void TransactionScan::predicate_read(std::uint32_t i) {
  const Op& op = txn_->ops[i];
  const PredicateRead& pr = h_.predicate_reads()[op.predicate];
  const auto& pred = predicates_[op.predicate];
  if (!pred) return;  // the readers accept only what parses
  for (const auto& [k, v] : pr.result)
    if (!pred->holds(h_.keys()[k], h_.values()[v]))
      out_.predicate_mismatches.push_back(UnjustifiedRead{
          t_, i, ReadAnomaly::PredicateMismatch, kNoTxn, kNoTxn,
          fmt::format("{}: {} returns {} = {}, which its predicate excludes", h_.txn_name(t_),
                      format_op(h_, op), h_.key_text(k), h_.value_text(v))});
  for (const KeyId k : covered(*pred)) {
    const auto returned = std::find_if(pr.result.begin(), pr.result.end(),
                                       [&](const auto& kv) { return kv.first == k; });
    const bool in_result = returned != pr.result.end();
    const KeyState& s = state_of(k);
    if (!s.written) {
      out_.abs[t_].reads.push_back(ExternalRead{k, in_result ? returned->second : kInvisible, i});
      continue;
    }
    if (s.guard != kNoGuard) continue;  // not modelled: predicate_write_gap()
    // After the transaction's own write: it sees that write (INT).
    const ValueId own = txn_->ops[s.write_op].value;
    const bool ok = in_result ? returned->second == own : !pred->holds(h_.keys()[k], h_.values()[own]);
    if (!ok)
      out_.int_violations.push_back(IntViolation{
          t_, i,
          fmt::format("{}: {} {} its own earlier write {}", h_.txn_name(t_), format_op(h_, op),
                      in_result ? "does not return" : "leaves out", format_op(h_, txn_->ops[s.write_op])),
          IntViolation::Kind::OwnWrite, IntViolation::Pattern::NotMyOwnWrite});
  }
}

// A predicate write reads every key it covers and writes those whose
// version satisfies its predicate. Where the transaction wrote the key
// before, that is its own version (INT), and the write is certain either
// way; otherwise the read is a read event and the write is guarded by its
// truth.
void TransactionScan::predicate_write(std::uint32_t i) {
  const auto& pred = predicates_[txn_->ops[i].predicate];
  if (!pred) return;
  for (const KeyId k : covered(*pred)) {
    KeyState& s = state_of(k);
    if (s.written) {
      if (s.guard != kNoGuard) continue;  // not modelled: predicate_write_gap()
      if (pred->holds(h_.keys()[k], h_.values()[txn_->ops[s.write_op].value])) s.write_op = i;
      continue;
    }
    out_.abs[t_].reads.push_back(ExternalRead{k, kInvisible, i});
    s.written = true;
    s.write_op = i;
    s.guard = static_cast<std::uint32_t>(out_.guarded.size());
    out_.guarded.push_back(GuardedWrite{t_, k, i, 0, {}, true});
  }
}

// The final writes, then reads by key and program order, writes by key.
void TransactionScan::finish(std::size_t first_guard) {
  AbstractTxn& at = out_.abs[t_];
  auto final_write = [&](KeyId k, const KeyState& s) {
    if (s.written) at.writes.push_back(FinalWrite{k, txn_->ops[s.write_op].value, s.write_op, s.guard});
  };
  for (const auto& [k, s] : local_) final_write(k, s);
  for (KeyId k : touched_) final_write(k, state_[k]);
  std::sort(at.reads.begin(), at.reads.end(), [](const ExternalRead& x, const ExternalRead& y) {
    return x.key != y.key ? x.key < y.key : x.op < y.op;
  });
  std::sort(at.writes.begin(), at.writes.end(),
            [](const FinalWrite& x, const FinalWrite& y) { return x.key < y.key; });
  // The guarded writes' read events, where the sort put them.
  for (std::size_t g = first_guard; g < out_.guarded.size(); ++g) locate_read(at, out_.guarded[g]);
}

}  // namespace

ReadEvents read_events(const History& h, const std::vector<TxnId>& txns, bool expand_predicates) {
  TransactionScan scan(h, expand_predicates);
  for (TxnId t : txns)
    if (t != kInitTxn) scan.scan(t);
  return scan.take();
}

void locate_read(const AbstractTxn& at, GuardedWrite& gw) {
  const auto it = std::find_if(at.reads.begin(), at.reads.end(), [&](const ExternalRead& r) {
    return r.key == gw.key && r.op == gw.op;
  });
  gw.read = static_cast<std::uint32_t>(it - at.reads.begin());
}

}  // namespace iso::front_end
