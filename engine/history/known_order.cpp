// The "known orders" stage of the front end (known_order.hpp,
// analyse_list_reads()): the list reads of each key, checked one by one
// (check_read, own_appends_end), then against each other (analyse_key: every
// list a prefix of the longest), and the longest one's runs of appends read
// off as the key's chain of writers (chain_of).
#include "engine/history/known_order.hpp"

#include <algorithm>
#include <deque>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "engine/history/printer.hpp"
#include "engine/util/budget.hpp"

namespace iso {

namespace {

constexpr TxnId kAmbiguous = UINT32_MAX - 1;

std::uint64_t key_value(KeyId k, ValueId v) { return (std::uint64_t{k} << 32) | v; }

struct ListRead {
  TxnId txn;
  std::uint32_t op;
  const std::vector<ValueId>* list;
};

class Analysis {
 public:
  Analysis(const History& h, const std::vector<bool>& member, bool unknown_committed,
           ListReadPermits permits)
      : h_(h), member_(member), unknown_committed_(unknown_committed), permits_(permits) {}
  ListReadAnalysis run();

 private:
  // Every append of v to k, as its transaction (repeated when one
  // transaction appended v twice), in TxnId order.
  const std::vector<TxnId>& appenders(KeyId k, ValueId v) const {
    static const std::vector<TxnId> none;
    auto it = appenders_.find(key_value(k, v));
    return it == appenders_.end() ? none : it->second;
  }
  // The single transaction that appended v to k, kAmbiguous when several
  // did, kNoTxn when none did.
  TxnId appender(KeyId k, ValueId v) const {
    const auto& a = appenders(k, v);
    if (a.empty()) return kNoTxn;
    return std::all_of(a.begin(), a.end(), [&](TxnId t) { return t == a.front(); }) ? a.front()
                                                                                   : kAmbiguous;
  }
  std::string values_text(const std::vector<ValueId>& vs) const {
    std::string out;
    for (ValueId v : vs) out += (out.empty() ? "" : " ") + h_.value_text(v);
    return out;
  }
  // w's appends to k in program order, those before operation `before` only.
  std::vector<ValueId> appends_of(TxnId w, KeyId k,
                                  std::uint32_t before = UINT32_MAX) const;
  std::string read_text(const ListRead& r) const {
    return fmt::format("{}: {}", h_.txn_name(r.txn), format_op(h_, h_.txn(r.txn).ops[r.op]));
  }
  // Is t's list read a fact (its reader committed, or counts as committed)?
  bool certain(TxnId t) const {
    return h_.txn(t).status == TxnStatus::Committed || unknown_committed_;
  }
  // The first anomaly of one read on its own, if any.
  std::optional<UnjustifiedRead> check_read(const ListRead& r);
  // The reader's own earlier appends must end the list (INT, as Elle
  // checks it). False (and the violation recorded) when they do not.
  bool own_appends_end(const ListRead& r, KeyId k);
  // The writers of r's list in order, each one's appends contiguous and
  // complete; false (and the anomaly recorded) when they are not.
  bool chain_of(const ListRead& r, KeyId k, KnownOrder& order);
  void analyse_key(KeyId k, std::vector<ListRead>& reads);
  UnjustifiedRead anomaly(const ListRead& r, ReadAnomaly kind, TxnId writer,
                          std::string message) const {
    UnjustifiedRead u;
    u.txn = r.txn;
    u.op = r.op;
    u.kind = kind;
    u.writer = writer;
    u.message = std::move(message);
    return u;
  }

  const History& h_;
  const std::vector<bool>& member_;
  const bool unknown_committed_;
  const ListReadPermits permits_;
  std::unordered_map<std::uint64_t, std::vector<TxnId>> appenders_;
  // The lists without their dirty elements (permits_.aborted), where
  // ListRead::list points.
  std::deque<std::vector<ValueId>> clean_lists_;
  ListReadAnalysis out_;
};

std::vector<ValueId> Analysis::appends_of(TxnId w, KeyId k, std::uint32_t before) const {
  std::vector<ValueId> out;
  const auto& ops = h_.txn(w).ops;
  for (std::uint32_t i = 0; i < ops.size() && i < before; ++i)
    if (ops[i].kind == OpKind::Write && ops[i].key == k) out.push_back(ops[i].value);
  return out;
}

std::optional<UnjustifiedRead> Analysis::check_read(const ListRead& r) {
  const KeyId k = h_.txn(r.txn).ops[r.op].key;
  const auto& list = *r.list;
  // Duplicates: an element more often than it was appended.
  std::unordered_map<ValueId, std::size_t> seen;
  for (ValueId v : list) {
    budget::poll();
    if (++seen[v] > std::max<std::size_t>(1, appenders(k, v).size()))
      return anomaly(r, ReadAnomaly::DuplicateElements, kNoTxn,
                     fmt::format("{} holds {} more than once (duplicate elements)", read_text(r),
                                 h_.value_text(v)));
  }
  // Each element: who appended it.
  for (ValueId v : list) {
    const TxnId w = appender(k, v);
    if (w == kAmbiguous) continue;
    if (w == kNoTxn)
      return anomaly(r, ReadAnomaly::ThinAir, kNoTxn,
                     fmt::format("{} holds {}, which no transaction appended (a garbage read)",
                                 read_text(r), h_.value_text(v)));
    const Transaction& wt = h_.txn(w);
    if (w == r.txn) {
      const auto before = appends_of(w, k, r.op);
      if (std::find(before.begin(), before.end(), v) == before.end())
        return anomaly(r, ReadAnomaly::FutureRead, w,
                       fmt::format("{} holds {}, which it appends only later (a future read)",
                                   read_text(r), h_.value_text(v)));
      continue;
    }
    if (wt.status == TxnStatus::Aborted)
      return anomaly(r, ReadAnomaly::Aborted, w,
                     fmt::format("{} holds {}, appended by aborted {} (G1a)", read_text(r),
                                 h_.value_text(v), wt.name));
    if (!member_[w])
      return wt.status == TxnStatus::Unknown
                 ? anomaly(r, ReadAnomaly::UnknownStatus, w,
                           fmt::format("{} holds {}, appended by {}, whose commit status is "
                                       "unknown",
                                       read_text(r), h_.value_text(v), wt.name))
                 : anomaly(r, ReadAnomaly::NotMember, w,
                           fmt::format("{} holds {}, appended by {}, which is not among the "
                                       "transactions considered",
                                       read_text(r), h_.value_text(v), wt.name));
  }
  if (list.empty()) return std::nullopt;
  // The last run: the list ends in a prefix of its writer's appends; all of
  // them, or it read an intermediate version (G1b).
  const TxnId w = appender(k, list.back());
  if (w == kAmbiguous || w == r.txn) return std::nullopt;
  std::size_t start = list.size();
  while (start > 0 && appender(k, list[start - 1]) == w) --start;
  // w's appends on both sides of another's: chain_of() names the write cycle.
  for (std::size_t i = 0; i < start; ++i)
    if (appender(k, list[i]) == w) return std::nullopt;
  const std::vector<ValueId> run(list.begin() + static_cast<std::ptrdiff_t>(start), list.end());
  const std::vector<ValueId> all = appends_of(w, k);
  if (run.size() > all.size() || !std::equal(run.begin(), run.end(), all.begin()))
    return anomaly(r, ReadAnomaly::IncompatibleOrder, w,
                   fmt::format("{} ends with {}'s appends {} but {} appended {} in that order "
                               "(incompatible order)",
                               read_text(r), h_.txn_name(w), values_text(run), h_.txn_name(w),
                               values_text(all)));
  if (run.size() < all.size() && !permits_.intermediate)
    return anomaly(r, ReadAnomaly::Intermediate, w,
                   fmt::format("{} reads an intermediate version of {}: {} appended {} after {} "
                               "(G1b)",
                               read_text(r), h_.txn_name(w), h_.txn_name(w),
                               h_.value_text(all[run.size()]), h_.value_text(run.back())));
  return std::nullopt;
}

bool Analysis::own_appends_end(const ListRead& r, KeyId k) {
  const auto own = appends_of(r.txn, k, r.op);
  const auto& list = *r.list;
  if (own.empty() ||
      (own.size() <= list.size() && std::equal(own.rbegin(), own.rend(), list.rbegin())))
    return true;
  // Ending with the first j < all of the transaction's own appends, the read
  // returns an own version that a later own append overwrote: Plume's
  // not-my-last-write in list terms.
  bool earlier = false;
  for (std::size_t j = 1; j < own.size() && !earlier; ++j)
    earlier = j <= list.size() &&
              std::equal(own.begin(), own.begin() + static_cast<std::ptrdiff_t>(j),
                         list.end() - static_cast<std::ptrdiff_t>(j));
  out_.int_violations.push_back(IntViolation{
      r.txn, r.op,
      fmt::format("{} does not end with its own earlier appends {}", read_text(r),
                  values_text(own)),
      IntViolation::Kind::OwnAppends,
      earlier ? IntViolation::Pattern::NotMyLastWrite : IntViolation::Pattern::NotMyOwnWrite});
  return false;
}

bool Analysis::chain_of(const ListRead& r, KeyId k, KnownOrder& order) {
  const auto& list = *r.list;
  order.key = k;
  order.reader = r.txn;
  order.op = r.op;
  // The runs of one writer's elements: [start, end) and the writer.
  struct Run {
    std::size_t start, end;
    TxnId writer;
  };
  std::vector<Run> runs;
  for (std::size_t i = 0; i < list.size();) {
    budget::poll();
    const TxnId w = appender(k, list[i]);
    std::size_t j = i + 1;
    while (j < list.size() && appender(k, list[j]) == w) ++j;
    runs.push_back(Run{i, j, w});
    i = j;
  }
  // One writer's appends on both sides of another's: a write cycle.
  std::unordered_map<TxnId, std::size_t> first_run;
  for (std::size_t q = 0; q < runs.size(); ++q) {
    const TxnId w = runs[q].writer;
    if (w == kAmbiguous) continue;
    auto [it, fresh] = first_run.emplace(w, q);
    if (fresh) continue;
    TxnId between = kNoTxn;
    for (std::size_t p = it->second + 1; p < q && between == kNoTxn; ++p)
      if (runs[p].writer != kAmbiguous) between = runs[p].writer;
    if (between == kNoTxn) continue;  // only ambiguous elements between: no cycle shown
    out_.anomalies.push_back(anomaly(
        r, ReadAnomaly::InterleavedAppends, w,
        fmt::format("{} shows {}'s appends to {} before and after {}'s: {} -ww({})-> {} "
                    "-ww({})-> {} (G0)",
                    read_text(r), h_.txn_name(w), h_.key_text(k), h_.txn_name(between),
                    h_.txn_name(w), h_.key_text(k), h_.txn_name(between), h_.key_text(k),
                    h_.txn_name(w))));
    return false;
  }
  std::unordered_set<TxnId> unordered;
  std::size_t ambiguous = 0;
  for (const Run& run : runs) {
    const TxnId w = run.writer;
    if (w == kAmbiguous) {
      for (std::size_t e = run.start; e < run.end; ++e) {
        ++ambiguous;
        for (TxnId a : appenders(k, list[e]))
          if (member_[a] && unordered.insert(a).second) order.unordered.push_back(a);
      }
      continue;
    }
    // A run before the last holds all of its writer's appends, in order.
    const auto first = list.begin() + static_cast<std::ptrdiff_t>(run.start);
    const auto last = list.begin() + static_cast<std::ptrdiff_t>(run.end);
    if (run.end < list.size() && w != r.txn) {
      const auto all = appends_of(w, k);
      if (all.size() != run.end - run.start || !std::equal(all.begin(), all.end(), first)) {
        out_.anomalies.push_back(anomaly(
            r, ReadAnomaly::IncompatibleOrder, w,
            fmt::format("{} holds {}'s appends {} but {} appended {} (incompatible order)",
                        read_text(r), h_.txn_name(w),
                        values_text(std::vector<ValueId>(first, last)), h_.txn_name(w),
                        values_text(all))));
        return false;
      }
    }
    if (order.chain.empty() || order.chain.back() != w) order.chain.push_back(w);
  }
  if (ambiguous > 0)
    out_.notes.push_back(fmt::format(
        "{}: {} element{} of {}'s read were appended by more than one transaction; the "
        "version order around them is not used",
        h_.key_text(k), ambiguous, ambiguous == 1 ? "" : "s", h_.txn_name(r.txn)));
  return true;
}

void Analysis::analyse_key(KeyId k, std::vector<ListRead>& reads) {
  // The reads of committed transactions: facts.
  std::vector<ListRead> clean, maybe;
  for (const ListRead& r : reads) {
    if (!own_appends_end(r, k)) continue;
    if (auto a = check_read(r)) {
      out_.anomalies.push_back(std::move(*a));
      continue;
    }
    (certain(r.txn) ? clean : maybe).push_back(r);
  }
  // Every list must be a prefix of the longest (Elle: sorted by length, each
  // a prefix of the next).
  std::stable_sort(clean.begin(), clean.end(), [](const ListRead& a, const ListRead& b) {
    return a.list->size() < b.list->size();
  });
  for (std::size_t i = 0; i + 1 < clean.size(); ++i) {
    const auto& a = *clean[i].list;
    const auto& b = *clean[i + 1].list;
    if (std::equal(a.begin(), a.end(), b.begin())) continue;
    UnjustifiedRead u = anomaly(clean[i + 1], ReadAnomaly::IncompatibleOrder, kNoTxn,
                                fmt::format("{} and {} are not prefixes of one order of {} "
                                            "(incompatible order)",
                                            read_text(clean[i]), read_text(clean[i + 1]),
                                            h_.key_text(k)));
    u.other_txn = clean[i].txn;
    out_.anomalies.push_back(std::move(u));
    return;
  }
  const std::vector<ValueId> none;
  const auto& longest = clean.empty() ? none : *clean.back().list;
  if (!clean.empty()) {
    KnownOrder order;
    if (!chain_of(clean.back(), k, order)) return;
    for (TxnId w : order.chain)
      if (h_.txn(w).status == TxnStatus::Unknown) out_.forced_commits.push_back(w);
    if (!order.chain.empty()) out_.orders.push_back(std::move(order));
  }
  // The reads of unknown-status transactions: facts if they committed. One
  // that disagrees with the committed reads proves its reader did not; one
  // that goes further reveals more of the order, if its reader committed.
  for (const ListRead& r : maybe) {
    const auto& list = *r.list;
    const std::size_t n = std::min(list.size(), longest.size());
    if (!std::equal(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(n), longest.begin())) {
      UnjustifiedRead u =
          anomaly(r, ReadAnomaly::IncompatibleOrder, kNoTxn,
                  fmt::format("{} and {} are not prefixes of one order of {} (incompatible "
                              "order)",
                              read_text(clean.back()), read_text(r), h_.key_text(k)));
      u.other_txn = clean.back().txn;
      out_.anomalies.push_back(std::move(u));
      continue;
    }
    if (list.size() <= longest.size()) continue;
    KnownOrder order;
    if (!chain_of(r, k, order)) continue;
    order.condition = r.txn;
    for (TxnId w : order.chain)
      if (w != r.txn && h_.txn(w).status == TxnStatus::Unknown)
        out_.commit_implications.emplace_back(r.txn, w);
    out_.orders.push_back(std::move(order));
  }
}

ListReadAnalysis Analysis::run() {
  const std::size_t keys = h_.keys().size();
  std::vector<std::vector<ListRead>> reads(keys);
  for (TxnId t = 1; t < h_.num_txns(); ++t) {
    if (t >= member_.size() || !member_[t]) continue;
    const auto& ops = h_.txn(t).ops;
    for (std::uint32_t i = 0; i < ops.size(); ++i)
      if (ops[i].list != kNoList) reads[ops[i].key].push_back(ListRead{t, i, &h_.lists()[ops[i].list]});
  }
  for (TxnId t = 1; t < h_.num_txns(); ++t)
    for (const Op& op : h_.txn(t).ops)
      if (op.kind == OpKind::Write && !reads[op.key].empty())
        appenders_[key_value(op.key, op.value)].push_back(t);
  if (permits_.aborted) {
    // A dirty element: every transaction that appended it did not commit
    // (aborted, or of unknown status and not a member in this choice).
    auto dirty = [&](KeyId k, ValueId v) {
      const auto& ws = appenders(k, v);
      return !ws.empty() && std::all_of(ws.begin(), ws.end(), [&](TxnId w) {
               return !member_[w] && h_.txn(w).status != TxnStatus::Committed;
             });
    };
    for (KeyId k = 0; k < keys; ++k)
      for (ListRead& r : reads[k]) {
        if (std::none_of(r.list->begin(), r.list->end(), [&](ValueId v) { return dirty(k, v); }))
          continue;
        auto& kept = clean_lists_.emplace_back();
        std::vector<ValueId> left_out;
        for (ValueId v : *r.list)
          (dirty(k, v) ? left_out : kept).push_back(v);
        out_.notes.push_back(fmt::format(
            "{} holds {} appended by transactions that did not commit (G1a), which the level "
            "permits: the list without {} reveals the version order of {}",
            read_text(r), values_text(left_out), left_out.size() == 1 ? "it" : "them",
            h_.key_text(k)));
        r.list = &kept;
      }
  }
  for (KeyId k = 0; k < keys; ++k)
    if (!reads[k].empty()) analyse_key(k, reads[k]);
  for (KnownOrder& o : out_.orders) {
    o.placed = o.chain;
    o.placed.insert(o.placed.end(), o.unordered.begin(), o.unordered.end());
    std::sort(o.placed.begin(), o.placed.end());
  }
  std::sort(out_.forced_commits.begin(), out_.forced_commits.end());
  out_.forced_commits.erase(std::unique(out_.forced_commits.begin(), out_.forced_commits.end()),
                            out_.forced_commits.end());
  return std::move(out_);
}

}  // namespace

ListReadAnalysis analyse_list_reads(const History& h, const std::vector<bool>& member,
                                    bool unknown_committed, ListReadPermits permits) {
  if (!h.has_list_reads()) return {};
  return Analysis(h, member, unknown_committed, permits).run();
}

}  // namespace iso
