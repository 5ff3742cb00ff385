// The "candidate writers" and "guarded writes" stages of the front end
// (front_end.hpp): who may have written what each read event returned, and
// which of a predicate write's candidates make its guarded write happen.
// An item read's candidates are found in a (key, value) index of the
// members' final writes; an invisible read's (predicate reads and writes)
// among every final write of its key.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "engine/history/front_end.hpp"
#include "engine/history/pair_index.hpp"
#include "engine/history/printer.hpp"
#include "engine/history/real_time_cut.hpp"

namespace iso::front_end {

namespace {

class CandidateSearch {
 public:
  CandidateSearch(const History& h, const AbstractHistory& a, const std::vector<std::uint64_t>& explained,
                  bool real_time_cut)
      : h_(h), a_(a), explained_(explained), predicates_(h) {
    if (real_time_cut) cut_.emplace(h, a);
    // Candidate writers: members whose final write matches (key, value).
    for (TxnId t = 0; t < a.member.size(); ++t) {
      if (!a.member[t]) continue;
      for (const FinalWrite& w : a.abs[t].writes)
        if (w.value != kUnborn) final_writers_.add(pair_key(w.key, w.value), t);
    }
    final_writers_.seal();
    out_.table.reset(a.member.size());
  }

  Candidates run() {
    for (TxnId t : a_.txns) {
      out_.table.begin_row(t);
      const auto& reads = a_.abs[t].reads;
      for (std::uint32_t i = 0; i < reads.size(); ++i) {
        if (reads[i].value == kInvisible) {
          invisible(t, i);
        } else {
          item(t, i);
        }
      }
    }
    return std::move(out_);
  }

 private:
  void item(TxnId t, std::uint32_t i);
  void invisible(TxnId t, std::uint32_t i);
  // Adds an invisible read's candidates `found_` to the table, less those
  // real time excludes (unless it excludes them all), and ends the read.
  // (An item read keeps its candidates: a read of a value one writer wrote
  // is explained as such.)
  void add_found(TxnId t, KeyId k);
  // The final writes of each key, by writer (ascending): the versions an
  // invisible read may have read (T0's unborn one among them). Built at the
  // first invisible read.
  const std::vector<std::pair<TxnId, ValueId>>& key_writers(KeyId k);

  const History& h_;
  const AbstractHistory& a_;
  const std::vector<std::uint64_t>& explained_;
  ParsedPredicates predicates_;
  PairIndex final_writers_;
  std::vector<std::vector<std::pair<TxnId, ValueId>>> key_writers_;
  std::optional<RealTimeCut> cut_;
  std::vector<TxnId> found_;  // the read's candidates before the cut
  Candidates out_;
};

void CandidateSearch::add_found(TxnId t, KeyId k) {
  if (cut_ && found_.size() > 1) {
    const RealTimeCut::Window win = cut_->window(t, k);
    const bool any_left = std::any_of(found_.begin(), found_.end(), [&](TxnId w) { return !win.excludes(w); });
    for (TxnId w : found_)
      if (!any_left || !win.excludes(w)) out_.table.add(w);
  } else {
    for (TxnId w : found_) out_.table.add(w);
  }
  found_.clear();
  out_.table.end_read();
}

void CandidateSearch::item(TxnId t, std::uint32_t i) {
  const ExternalRead& r = a_.abs[t].reads[i];
  const PairKey p = pair_key(r.key, r.value);
  bool found = false;
  const TxnId only = final_writers_.single(p, found);
  if (only != kNoTxn) {
    if (only != t) out_.table.add(only);
  } else if (found) {
    auto [lo, hi] = final_writers_.find(p);
    for (auto it = lo; it != hi; ++it)
      if (it->second != t) out_.table.add(it->second);
  }
  out_.table.end_read();
  if (out_.table[t][i].empty() &&
      !std::binary_search(explained_.begin(), explained_.end(), pair_key(t, r.op)))
    out_.unexplained.push_back(ReadRef{t, i});
}

void CandidateSearch::invisible(TxnId t, std::uint32_t i) {
  const ExternalRead& r = a_.abs[t].reads[i];
  const Op& op = h_.txn(t).ops[r.op];
  const Predicate& pred = *predicates_[op.predicate];
  const Key& key = h_.keys()[r.key];
  if (op.kind == OpKind::PredicateWrite) {
    // A predicate write's read: any version (guarded_write_truths() says
    // which make its write happen).
    for (const auto& [w, v] : key_writers(r.key))
      if (w != t) found_.push_back(w);
    add_found(t, r.key);
    return;
  }
  // A predicate read's: the writers whose version its predicate rejects.
  for (const auto& [w, v] : key_writers(r.key))
    if (w != t && (v == kUnborn || !pred.holds(key, h_.values()[v]))) found_.push_back(w);
  add_found(t, r.key);
  if (out_.table[t][i].empty())
    out_.predicate_mismatches.push_back(UnjustifiedRead{
        t, r.op, ReadAnomaly::PredicateMismatch, kNoTxn, kNoTxn,
        fmt::format("{}: {} leaves out {}, but every version of {} satisfies its predicate",
                    h_.txn_name(t), format_op(h_, op), h_.key_text(r.key), h_.key_text(r.key))});
}

const std::vector<std::pair<TxnId, ValueId>>& CandidateSearch::key_writers(KeyId k) {
  if (key_writers_.empty()) {
    key_writers_.resize(h_.keys().size());
    for (TxnId t : a_.txns)
      for (const FinalWrite& w : a_.abs[t].writes) key_writers_[w.key].emplace_back(t, w.value);
    for (auto& ws : key_writers_) std::sort(ws.begin(), ws.end());
  }
  return key_writers_[k];
}

}  // namespace

Candidates candidate_writers(const History& h, const AbstractHistory& a,
                             const std::vector<std::uint64_t>& explained, bool real_time_cut) {
  return CandidateSearch(h, a, explained, real_time_cut).run();
}

void guarded_write_truths(const History& h, AbstractHistory& a) {
  ParsedPredicates predicates(h);
  for (GuardedWrite& gw : a.guarded) {
    const Predicate& pred = *predicates[h.txn(gw.txn).ops[gw.op].predicate];
    const Key& key = h.keys()[gw.key];
    gw.satisfying.clear();
    for (TxnId w : a.candidates[gw.txn][gw.read]) {
      const auto& writes = a.abs[w].writes;
      const auto fw = std::lower_bound(writes.begin(), writes.end(), gw.key,
                                       [](const FinalWrite& x, KeyId k) { return x.key < k; });
      if (fw->value != kUnborn && pred.holds(key, h.values()[fw->value])) gw.satisfying.push_back(w);
    }
  }
}

void settle_sure_guards(AbstractHistory& a) {
  for (std::uint32_t g = 0; g < a.guarded.size(); ++g) {
    GuardedWrite& gw = a.guarded[g];
    const auto cands = a.candidates[gw.txn][gw.read];
    if (!gw.final || cands.empty() || gw.satisfying.size() != cands.size()) continue;
    auto& writes = a.abs[gw.txn].writes;
    const auto fw = std::lower_bound(writes.begin(), writes.end(), gw.key,
                                     [](const FinalWrite& x, KeyId k) { return x.key < k; });
    if (fw == writes.end() || fw->key != gw.key || fw->guard != g) continue;
    fw->guard = kNoGuard;
    gw.sure = true;
  }
}

}  // namespace iso::front_end
