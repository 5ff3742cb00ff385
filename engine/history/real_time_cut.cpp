// RealTimeCut (real_time_cut.hpp): the per-key tables of sure writers and
// each read's time window.
#include "engine/history/real_time_cut.hpp"

#include <algorithm>

namespace iso::front_end {

RealTimeCut::RealTimeCut(const History& h, const AbstractHistory& a)
    : h_(h), times_(h.num_txns()), sure_(h.keys().size()) {
  using Event = History::Event;
  for (TxnId t : a.txns) {
    if (t == kInitTxn) continue;
    Times x{h.earliest(t, Event::Begin), h.latest(t, Event::Commit)};
    // An interval that ends before it begins orders nothing here (it would
    // let a transaction overwrite itself).
    if (x.begin && x.commit && *x.begin > *x.commit) x = {};
    times_[t] = x;
    if (!x.commit || h.txn(t).status != TxnStatus::Committed) continue;
    for (const FinalWrite& w : a.abs[t].writes)
      if (w.guard == kNoGuard) sure_[w.key].push_back({*x.commit, x.begin});
  }
  for (auto& ws : sure_) {
    std::sort(ws.begin(), ws.end(), [](const SureWriter& x, const SureWriter& y) { return x.commit < y.commit; });
    // Each entry's begin becomes the largest over its prefix.
    std::optional<std::int64_t> most;
    for (SureWriter& w : ws) {
      if (w.begin && (!most || *w.begin > *most)) most = w.begin;
      w.begin = most;
    }
  }
}

RealTimeCut::Window RealTimeCut::window(TxnId reader, KeyId k) const {
  Window win;
  win.cut_ = this;
  const Times& r = times_[reader];
  win.active_ = reader != kInitTxn && (r.begin || r.commit);
  if (!win.active_) return win;
  win.reader_commit_ = r.commit;
  if (!r.begin) return win;
  const auto& ws = sure_[k];
  const std::int64_t skew = h_.clock_skew();
  // The sure writers that committed before the reader began: a prefix.
  const auto end = std::partition_point(ws.begin(), ws.end(), [&](const SureWriter& w) {
    return History::skew_before(w.commit, *r.begin, skew);
  });
  if (end == ws.begin()) return win;
  win.t0_overwritten_ = true;
  win.m_ = std::prev(end)->begin;
  return win;
}

bool RealTimeCut::Window::excludes(TxnId w) const {
  if (!active_) return false;
  if (w == kInitTxn) return t0_overwritten_;
  const Times& x = cut_->times_[w];
  const std::int64_t skew = cut_->h_.clock_skew();
  if (reader_commit_ && x.begin && History::skew_before(*reader_commit_, *x.begin, skew)) return true;  // (a)
  return m_ && x.commit && History::skew_before(*x.commit, *m_, skew);                                // (b)
}

}  // namespace iso::front_end
