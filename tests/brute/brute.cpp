#include "tests/brute/brute.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <numeric>
#include <stdexcept>

#include "tests/brute/literal.hpp"
#include "tests/brute/model.hpp"

namespace iso::brute {
namespace {

using namespace detail;

bool viper(Level l) {
  return l == Level::ViperAdyaSI || l == Level::ViperGSI || l == Level::ViperStrongSessionSI ||
         l == Level::ViperStrongSI;
}
bool timestamps(Level l) { return l == Level::CeroneTimestampSI || l == Level::CeroneTimestampSER; }
// GSI's real time: commits in rt_cc order, nothing seen that committed after the begin.
bool gsi_time(Level l) { return viper(l) && l != Level::ViperAdyaSI; }

// Cerone axioms a level adds to EXT and SESSION.
bool transvis(Level l) { return l == Level::CeroneCC || l == Level::CeronePSI; }
bool prefix(Level l) {
  return l == Level::CeronePC || l == Level::CeroneSI || l == Level::CeroneTimestampSI || viper(l);
}
bool noconflict(Level l) {
  return l == Level::CeroneUA || l == Level::CeronePSI || l == Level::CeroneSI ||
         l == Level::CeroneTimestampSI || viper(l);
}

Model model_for(const AbstractHistory& h, const LevelInfo& info, const Options& options,
                const std::vector<bool>& truths = {}) {
  // Adya's PL levels have no session order; PL-1 sets aside the register
  // reads of aborted and intermediate writes.
  // Viper's Adya SI and GSI are session-free too.
  const bool session_free = info.framework == Framework::Adya || info.level == Level::ViperAdyaSI ||
                            info.level == Level::ViperGSI;
  return build_model(h, options.ignore_sessions || session_free, info.level == Level::AdyaPL1,
                     truths);
}

// The first result of `f` over the models of every assignment of truths to
// the predicate writes' evaluations (model.hpp, build_model): a history
// with predicate writes is allowed when one of its completions is.
template <class F>
auto over_completions(const AbstractHistory& h, const LevelInfo& info, const Options& options, F f)
    -> decltype(f(std::declval<const Model&>())) {
  const std::size_t slots = predicate_write_slots(h).size();
  if (slots > 16)
    throw std::length_error(
        fmt::format("brute force completes at most 16 predicate-write evaluations, got {}", slots));
  decltype(f(std::declval<const Model&>())) result{};
  for (std::uint32_t mask = 0; mask < (1u << slots); ++mask) {
    std::vector<bool> truths(slots);
    for (std::size_t i = 0; i < slots; ++i) truths[i] = (mask >> i) & 1u;
    result = f(model_for(h, info, options, truths));
    if (result) return result;
  }
  return result;
}

// ---------------------------------------------------------------------------
// Search over commit orders (biswas, dbcop, plume) and over a total order containing
// ww ∪ wr (adya). The order grows one transaction at a time; when t3 is
// placed, its wr sources are chosen among the placed candidates (wr ⊆ co)
// (each read event its own writer) and every axiom instance whose reader is
// t3 is checked. Every instance of every axiom here (RC's and Plume's
// read-order patterns' included: their writers are read by t3 or precede it
// in its session) has its premise implying that t1 and t2 (and t4) precede
// t3 in co, so checking at t3's placement is exactly the full check. List
// reads are checked at the reader's placement too: the versions they
// compare with depend only on the writers placed before.
//
// Adya: whenever ww ∪ wr is acyclic some total order O contains it, and then
// ww(x) is O restricted to the writers of x. So enumerating O (wr ⊆ O, ww
// read off O) covers every witness of PL-2 and stronger; for PL-2.99 and
// PL-3 the rw edges into placed writers are the SER axiom's instances, and
// for PL-CS a G-cursor(x) needs t1 to read x from some u and write x after
// another writer t2 that follows u: all placed when t1 is. PL-1 does not
// order wr, so its reads are chosen once O is complete, and PL-SI's cycles
// of (ww ∪ wr) ; rw? are checked on the complete witness only.

class CommitOrderSearch {
 public:
  CommitOrderSearch(const Model& m, const LevelInfo& info)
      : m_(m), level_(info.level), adya_(info.framework == Framework::Adya),
        defer_reads_(info.level == Level::AdyaPL1), pos_(m.n, -1), wr_(m.n),
        wr_pred_(m.n, 0), hb_pred_(m.n, 0) {
    for (int t = 0; t < m.n; ++t) wr_[t].assign(m.reads[t].size(), -1);
  }

  bool run() {
    place(0);
    return dfs();
  }

  const std::vector<int>& order() const { return order_; }
  const std::vector<std::vector<int>>& wr() const { return wr_; }

 private:
  void place(int t) {
    pos_[t] = static_cast<int>(order_.size());
    order_.push_back(t);
    placed_ |= bit(t);
  }
  void unplace(int t) {
    pos_[t] = -1;
    order_.pop_back();
    placed_ &= ~bit(t);
  }

  bool dfs() {
    if (placed_ == m_.all) return complete();
    for (int t = 1; t < m_.n; ++t) {
      if (has(placed_, t) || (m_.so_pred[t] & ~placed_) != 0) continue;
      // Strict serializability: co ⊇ rt, so t's real-time predecessors first.
      if (level_ == Level::BiswasStrictSER && (m_.rt_pred[t] & ~placed_) != 0) continue;
      place(t);
      if (choose(t, 0)) return true;  // the state holds the witness
      unplace(t);
    }
    return false;
  }

  // The checks left to the complete witness, and the literal re-check.
  bool complete() {
    if (defer_reads_ && !choose_anywhere()) return false;
    if (adya_) {
      const std::vector<std::vector<int>> ww = per_key(m_, order_);
      for (const DirtyListRead& r : m_.dirty_lists)
        if (!prefix_of_versions(m_, r.key, ww[r.key], r.list)) return false;
      const bool ok = AdyaLiteral(m_, level_, ww, wr_).holds();
      if (level_ == Level::AdyaPLSI || (level_ == Level::AdyaPL299 && m_.has_predicates)) return ok;
      if (!ok) throw std::logic_error("brute: incremental and literal Adya checks disagree");
      return true;
    }
    // This pattern depends on the whole read-from choice, not on the order.
    if (level_ == Level::PlumeRA &&
        BiswasLiteral(m_, level_, pos_, wr_).inconsistent_commit_order()) {
      return false;
    }
    if (!BiswasLiteral(m_, level_, pos_, wr_).holds()) {
      throw std::logic_error("brute: incremental and literal commit-order checks disagree");
    }
    return true;
  }

  // PL-1: each read from any writer whose version it returned, in the
  // complete order; G0 depends on ww alone.
  bool choose_anywhere() {
    for (int t = 1; t < m_.n; ++t) {
      for (std::size_t i = 0; i < m_.reads[t].size(); ++i) {
        const Read& r = m_.reads[t][i];
        const auto it = std::find_if(r.cands.begin(), r.cands.end(),
                                     [&](int c) { return may_read(m_, r, c, order_); });
        if (it == r.cands.end()) return false;
        wr_[t][i] = *it;
      }
    }
    return true;
  }

  bool choose(int t, std::size_t i) {
    if (defer_reads_) return check_at(t) && dfs();
    if (i == m_.reads[t].size()) {
      Mask wp = 0;
      for (int s : wr_[t]) wp |= bit(s);
      wr_pred_[t] = wp;
      return check_at(t) && dfs();
    }
    const Read& r = m_.reads[t][i];
    for (int c : r.cands) {
      if (!has(placed_, c) || !may_read(m_, r, c, order_)) continue;
      wr_[t][i] = c;
      if (choose(t, i + 1)) return true;
    }
    wr_[t][i] = -1;
    return false;
  }

  bool before(int a, int b) const { return pos_[a] < pos_[b]; }

  bool check_at(int t3) {
    // t3 is last in order_: the writers before it are all placed.
    for (const InternalListRead& r : m_.internal_lists[t3]) {
      if (!internal_read_ok(m_, t3, r, order_)) return false;
    }
    if (adya_) {
      if (level_ == Level::AdyaPLCS) return cursor_at(t3);
      // PL-2.99 with predicate reads allows some cycles through rw edges
      // (G2 but not G2-item): checked on the complete witness.
      if (level_ == Level::AdyaPL299 && m_.has_predicates) return true;
      return level_ == Level::AdyaPL299 || level_ == Level::AdyaPL3 ? axiom_at(t3) : true;
    }
    const Mask direct = m_.so_pred[t3] | wr_pred_[t3];
    Mask hb = direct;
    for (int p = 0; p < m_.n; ++p) {
      if (has(direct, p)) hb |= hb_pred_[p];
    }
    hb_pred_[t3] = hb;
    if (level_ == Level::PlumeTapRA || level_ == Level::PlumeTapCC ||
        level_ == Level::PlumeRA) {
      return patterns_at(t3, hb);
    }
    if (level_ == Level::BiswasRC) return rc_at(t3);
    if (level_ == Level::DbcopRR || level_ == Level::PlumeNoNonRepeatableRead) {
      return repeatable_at(t3);
    }
    if (level_ == Level::PlumeNoNonMonotonicRead) return monotonic_at(t3);
    if (level_ == Level::PlumeNoFracturedRead) return unfractured_at(t3);
    return axiom_at(t3);
  }

  // dbcop's RR and Plume's TAP-j: every read event of a key in t3 reads from
  // one writer.
  bool repeatable_at(int t3) const {
    const auto& rs = m_.reads[t3];
    for (std::size_t a = 0; a < rs.size(); ++a) {
      for (std::size_t b = 0; b < a; ++b) {
        if (rs[a].key == rs[b].key && wr_[t3][a] != wr_[t3][b]) return false;
      }
    }
    return true;
  }

  // Plume's TAP-h/i: a read event α of x from t1 after a read event β of
  // another key from t2 ≠ t1, t2 writing x, needs t2 before t1 (RC without
  // the same-key case).
  bool monotonic_at(int t3) const { return earlier_writers_precede(t3, /*other_keys_only=*/true); }

  // Plume's TAP-k/l: a read event α of x from t1, and another writer t2 of x
  // that precedes t3 in its session or that a later read event of another
  // key reads from, needs t2 before t1. Both kinds of t2 are placed.
  bool unfractured_at(int t3) const {
    const auto& rs = m_.reads[t3];
    for (std::size_t a = 0; a < rs.size(); ++a) {
      const int x = rs[a].key;
      const int t1 = wr_[t3][a];
      Mask seen = m_.so_pred[t3];
      for (std::size_t b = 0; b < rs.size(); ++b) {
        if (rs[b].key != x && rs[b].op > rs[a].op) seen |= bit(wr_[t3][b]);
      }
      const Mask t2s = seen & m_.writers[x] & ~bit(t1);
      for (int t2 = 0; t2 < m_.n; ++t2) {
        if (has(t2s, t2) && !before(t2, t1)) return false;
      }
    }
    return true;
  }

  // RC: a read event α of x from t1 after a read event β (of any key) from
  // t2, t2 ≠ t1 writing x, needs t2 before t1.
  bool rc_at(int t3) const { return earlier_writers_precede(t3, /*other_keys_only=*/false); }

  // RC's rule, or with `other_keys_only` TAP-h/i's (β of another key).
  bool earlier_writers_precede(int t3, bool other_keys_only) const {
    const auto& rs = m_.reads[t3];
    for (std::size_t a = 0; a < rs.size(); ++a) {
      const int t1 = wr_[t3][a];
      for (std::size_t b = 0; b < rs.size(); ++b) {
        const int t2 = wr_[t3][b];
        if (other_keys_only && rs[b].key == rs[a].key) continue;
        if (rs[b].op < rs[a].op && t2 != t1 && m_.W(t2, rs[a].key) && !before(t2, t1)) return false;
      }
    }
    return true;
  }

  // PL-CS: t1 (= t3, the last placed) reads x from u and writes x, and a
  // writer t2 of x lies between u and t1 in ww(x): G-cursor(x).
  bool cursor_at(int t1) const {
    const auto& rs = m_.reads[t1];
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const int x = rs[i].key;
      if (!m_.W(t1, x)) continue;
      const int u = wr_[t1][i];
      for (int t2 = 0; t2 < m_.n; ++t2) {
        if (t2 != t1 && t2 != u && has(m_.writers[x] & placed_, t2) && before(u, t2)) {
          return false;
        }
      }
    }
    return true;
  }

  bool patterns_at(int t3, Mask hb) const {
    const auto& rs = m_.reads[t3];
    // k, l: t3 reads x from t1 and y ≠ x from t2, t2 also writes x.
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const int t1 = wr_[t3][i];
      for (std::size_t j = 0; j < rs.size(); ++j) {
        if (rs[i].key == rs[j].key) continue;
        const int t2 = wr_[t3][j];
        if (t1 == t2 || !has(m_.writers[rs[i].key], t2)) continue;
        if (has(hb_pred_[t2], t1)) return false;  // k
        if (before(t1, t2)) return false;          // l
      }
    }
    return every_other_writer(t3, [&](int, int t1, int t2) {
      if (level_ == Level::PlumeTapCC && has(hb, t2)) {
        if (has(hb_pred_[t2], t1)) return false;  // m
        if (before(t1, t2)) return false;          // n
      }
      // fails to see an so-predecessor
      return !(level_ == Level::PlumeRA && has(m_.so_pred[t3], t2) && has(hb_pred_[t2], t1));
    });
  }

  // Does ok(x, t1, t2) hold for every read event of t3, of x from t1, and
  // every other placed writer t2 of x?
  template <class F>
  bool every_other_writer(int t3, F ok) const {
    const auto& rs = m_.reads[t3];
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const int x = rs[i].key;
      const int t1 = wr_[t3][i];
      const Mask t2s = m_.writers[x] & placed_ & ~bit(t3) & ~bit(t1);
      for (int t2 = 0; t2 < m_.n; ++t2) {
        if (has(t2s, t2) && !ok(x, t1, t2)) return false;
      }
    }
    return true;
  }

  // Ax(C, D), Conflict for SI; Adya's PL-2.99 and PL-3 are the SER axiom:
  // an rw edge from t3 to a writer placed before it closes a cycle.
  bool axiom_at(int t3) const {
    const Mask direct = m_.so_pred[t3] | wr_pred_[t3];
    const Mask hb = hb_pred_[t3];
    const Mask others = placed_ & ~bit(t3);
    int max_direct = 0;
    for (int p = 0; p < m_.n; ++p) {
      if (has(direct, p)) max_direct = std::max(max_direct, pos_[p]);
    }
    // Latest position of a writer t4 != t3 of a key that t3 writes.
    int conflict_bound = -1;
    if (level_ == Level::BiswasSI) {
      for (int y : m_.wkeys[t3]) {
        for (int t4 = 0; t4 < m_.n; ++t4) {
          if (has(m_.writers[y] & others, t4)) {
            conflict_bound = std::max(conflict_bound, pos_[t4]);
          }
        }
      }
    }
    const bool t3_update = has(m_.update, t3);
    return every_other_writer(t3, [&](int, int t1, int t2) {
      bool c = false;
      switch (level_) {
        case Level::BiswasRA: c = has(direct, t2); break;
        case Level::BiswasCC: c = has(hb, t2); break;
        case Level::BiswasPC:
        case Level::BiswasSI: c = pos_[t2] <= max_direct; break;
        case Level::BiswasSER:
        case Level::BiswasStrictSER:
        case Level::AdyaPL299:
        case Level::AdyaPL3: c = true; break;
        case Level::BiswasUpdateSer: c = t3_update; break;
        default: break;
      }
      if (level_ == Level::BiswasSI && pos_[t2] <= conflict_bound) c = true;
      return !c || before(t2, t1);
    });
  }

  const Model& m_;
  Level level_;
  bool adya_;
  bool defer_reads_;
  std::vector<int> order_;
  std::vector<int> pos_;
  Mask placed_ = 0;
  std::vector<std::vector<int>> wr_;
  std::vector<Mask> wr_pred_;
  std::vector<Mask> hb_pred_;
};

// ---------------------------------------------------------------------------
// Search over (ar, vis) (cerone). ar grows one transaction at a time; when t
// is placed, vis⁻¹(t) is chosen among the placed transactions, which fixes
// every vis edge into t. Each axiom instance is checked as soon as the edges
// it mentions are fixed: EXT, SESSION, PREFIX, NOCONFLICT, TOTALVIS and LU
// only involve vis⁻¹(t) and ar; TRANSVIS involves vis⁻¹(t) and vis⁻¹(b) for
// the b visible to t. Without TRANSVIS the choice of vis⁻¹(t) does not
// constrain later transactions, so one valid choice per node suffices. List
// reads compare with versions of writers placed before t.

class ArVisSearch {
 public:
  ArVisSearch(const Model& m, Level level)
      : m_(m), level_(level), pos_(m.n, -1), vis_pred_(m.n, 0) {}

  bool run() {
    place(0);
    return dfs();
  }

  const std::vector<int>& order() const { return order_; }
  const std::vector<Mask>& vis_pred() const { return vis_pred_; }

 private:
  void place(int t) {
    pos_[t] = static_cast<int>(order_.size());
    order_.push_back(t);
    placed_ |= bit(t);
  }
  void unplace(int t) {
    pos_[t] = -1;
    order_.pop_back();
    placed_ &= ~bit(t);
    vis_pred_[t] = 0;
  }

  bool dfs() {
    if (placed_ == m_.all) {
      if (!CeroneLiteral(m_, level_, pos_, vis_pred_).holds()) {
        throw std::logic_error(
            "brute: incremental and literal visibility checks disagree");
      }
      return true;
    }
    for (int t = 1; t < m_.n; ++t) {
      if (has(placed_, t) || (m_.so_pred[t] & ~placed_) != 0) continue;
      // ar contains the real-time commit order (GSI) or the commit timestamps' order.
      if (gsi_time(level_) && (m_.rtcc_pred[t] & ~placed_) != 0) continue;
      if (timestamps(level_) && (m_.ts_ar_pred[t] & ~placed_) != 0) continue;
      const Mask before = placed_;
      place(t);
      // On success the state holds the witness.
      if (internal_reads_ok(t) && choose_vis(t, before)) return true;
      unplace(t);
    }
    return false;
  }

  bool internal_reads_ok(int t) const {
    return std::all_of(m_.internal_lists[t].begin(), m_.internal_lists[t].end(),
                       [&](const InternalListRead& r) {
                         return internal_read_ok(m_, t, r, order_);
                       });
  }

  // The most recent (in ar) transaction of `set`, or -1.
  int latest(Mask set) const {
    for (int i = static_cast<int>(order_.size()) - 1; i >= 0; --i) {
      if (has(set, order_[i])) return order_[i];
    }
    return -1;
  }

  bool choose_vis(int t, Mask before) {
    Mask forced = bit(0) | m_.so_pred[t];  // {t0} x T⁺ and SESSION
    if (noconflict(level_)) {
      for (int x : m_.wkeys[t]) forced |= m_.writers[x] & before;
    }
    if (level_ == Level::CeroneSER || level_ == Level::CeroneTimestampSER) forced |= before;
    if (level_ == Level::ViperStrongSI) forced |= m_.rt_pred[t];
    // The timestamps fix vis⁻¹(t); GSI's real time forbids some of it.
    if (timestamps(level_)) {
      if (forced != (forced & m_.ts_vis_pred[t])) return false;
      forced = m_.ts_vis_pred[t];
    }
    const Mask forbidden = gsi_time(level_) ? m_.rtbc_succ[t] : 0;
    if ((forced & forbidden) != 0) return false;
    if (level_ == Level::CeroneUpdateSer && has(m_.update, t)) {
      forced |= (m_.update | bit(0)) & before;
    }
    if (level_ == Level::CeroneNLU) {
      for (int x : m_.wkeys[t]) {
        const int last = latest(m_.writers[x] & before);
        if (last >= 0) forced |= bit(last);
      }
    }
    if ((forced & ~before) != 0) return false;
    const Mask free = timestamps(level_) ? 0 : before & ~forced & ~forbidden;
    for (Mask s = free;; s = (s - 1) & free) {
      const Mask v = forced | s;
      if (valid(t, v)) {
        vis_pred_[t] = v;
        if (dfs()) return true;
        if (!transvis(level_)) return false;
      }
      if (s == 0) break;
    }
    return false;
  }

  bool valid(int t, Mask v) const {
    if (prefix(level_)) {
      // ar ; vis ⊆ vis: vis⁻¹(t) is a prefix of ar.
      Mask p = 0;
      const int k = std::popcount(v);
      for (int i = 0; i < k; ++i) p |= bit(order_[i]);
      if (p != v) return false;
    }
    if (transvis(level_)) {
      for (int b = 0; b < m_.n; ++b) {
        if (has(v, b) && (vis_pred_[b] & ~v) != 0) return false;
      }
    }
    for (const Read& r : m_.reads[t]) {
      const int src = latest(m_.writers[r.key] & v);
      if (src < 0 || !may_read(m_, r, src, order_)) return false;
    }
    return true;
  }

  const Model& m_;
  Level level_;
  std::vector<int> order_;
  std::vector<int> pos_;
  Mask placed_ = 0;
  std::vector<Mask> vis_pred_;
};

// ---------------------------------------------------------------------------
// Witnesses in TxnIds.

Witness make_witness(const Model& m, const std::vector<int>& order) {
  const History& h = *m.ah->history;
  Witness w;
  for (int t : order) w.order.push_back(m.ids[t]);
  for (TxnId id : m.ids) {
    if (h.txn(id).status == TxnStatus::Unknown) w.committed.push_back(id);
  }
  return w;
}

void set_wr(const Model& m, const std::vector<std::vector<int>>& src, Witness& w) {
  w.wr.assign(m.ah->history->num_txns(), {});
  for (int t = 0; t < m.n; ++t) {
    for (std::size_t i = 0; i < src[t].size(); ++i) {
      const Read& r = m.reads[t][i];
      w.wr[m.ids[t]].push_back(ReadFrom{static_cast<KeyId>(r.key), m.ids[src[t][i]], r.op});
    }
  }
}

std::optional<Witness> search(const Model& m, const LevelInfo& info) {
  if (!m.consistent) return std::nullopt;
  if (info.framework == Framework::Cerone) {
    ArVisSearch s(m, info.level);
    if (!s.run()) return std::nullopt;
    Witness w = make_witness(m, s.order());
    for (int b : s.order()) {
      for (int a : s.order()) {
        if (has(s.vis_pred()[b], a)) w.vis.emplace_back(m.ids[a], m.ids[b]);
      }
    }
    return w;
  }
  CommitOrderSearch s(m, info);
  if (!s.run()) return std::nullopt;
  Witness w = make_witness(m, s.order());
  set_wr(m, s.wr(), w);
  if (info.framework == Framework::Adya) {
    for (const auto& seq : per_key(m, s.order())) {
      w.ww.emplace_back();
      for (int t : seq) w.ww.back().push_back(m.ids[t]);
    }
  }
  return w;
}

// ---------------------------------------------------------------------------
// Naive enumeration of complete witnesses.

// Calls f on every choice of one candidate writer per read event until f
// returns true.
bool any_wr(const Model& m, const std::function<bool(const std::vector<std::vector<int>>&)>& f) {
  std::vector<std::pair<int, int>> slots;  // (t, read index)
  std::vector<std::vector<int>> wr(m.n);
  for (int t = 0; t < m.n; ++t) {
    wr[t].assign(m.reads[t].size(), 0);
    for (std::size_t i = 0; i < m.reads[t].size(); ++i) {
      slots.emplace_back(t, static_cast<int>(i));
    }
  }
  std::vector<std::size_t> digit(slots.size(), 0);
  while (true) {
    for (std::size_t s = 0; s < slots.size(); ++s) {
      const auto [t, i] = slots[s];
      wr[t][i] = m.reads[t][i].cands[digit[s]];
    }
    if (f(wr)) return true;
    std::size_t s = 0;
    for (; s < slots.size(); ++s) {
      const auto [t, i] = slots[s];
      if (++digit[s] < m.reads[t][i].cands.size()) break;
      digit[s] = 0;
    }
    if (s == slots.size()) return false;
  }
}

// Calls f on every version order of every key (T0 first where it writes)
// until f returns true.
bool any_ww(const Model& m, const std::function<bool(const std::vector<std::vector<int>>&)>& f) {
  std::vector<std::vector<int>> ww(m.nkeys);
  for (int x = 0; x < m.nkeys; ++x) {
    for (int t = 0; t < m.n; ++t) {
      if (m.W(t, x)) ww[x].push_back(t);  // ascending: T0 first
    }
  }
  std::function<bool(int)> from = [&](int x) {
    if (x == m.nkeys) return f(ww);
    const auto first = ww[x].begin() + (m.W(0, x) ? 1 : 0);
    do {
      if (from(x + 1)) return true;
    } while (std::next_permutation(first, ww[x].end()));
    return false;
  };
  return from(0);
}

bool naive(const Model& m, const LevelInfo& info) {
  if (!m.consistent) return false;
  if (info.framework == Framework::Adya) {
    return any_ww(m, [&](const std::vector<std::vector<int>>& ww) {
      return any_wr(m, [&](const std::vector<std::vector<int>>& wr) {
        return AdyaLiteral(m, info.level, ww, wr).holds();
      });
    });
  }
  std::vector<int> perm(m.n);
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<int> pos(m.n);
  do {
    for (int i = 0; i < m.n; ++i) pos[perm[i]] = i;
    if (info.framework == Framework::Cerone) {
      std::vector<std::pair<int, int>> pairs;  // (a, b), a before b, both in T⁺
      for (int i = 1; i < m.n; ++i) {
        for (int j = i + 1; j < m.n; ++j) pairs.emplace_back(perm[i], perm[j]);
      }
      if (pairs.size() > 40) throw std::length_error("brute: history too large");
      std::vector<Mask> vis(m.n, 0);
      for (Mask sel = 0; sel < bit(static_cast<int>(pairs.size())); ++sel) {
        std::fill(vis.begin(), vis.end(), 0);
        for (int t = 1; t < m.n; ++t) vis[t] |= bit(0);
        for (std::size_t p = 0; p < pairs.size(); ++p) {
          if (has(sel, static_cast<int>(p))) {
            vis[pairs[p].second] |= bit(pairs[p].first);
          }
        }
        if (CeroneLiteral(m, info.level, pos, vis).holds()) return true;
      }
    } else if (any_wr(m, [&](const std::vector<std::vector<int>>& wr) {
                 return BiswasLiteral(m, info.level, pos, wr).holds();
               })) {
      return true;
    }
  } while (std::next_permutation(perm.begin() + 1, perm.end()));
  return false;
}

const std::vector<std::string>& names_of(bool adya) {
  static const std::array<std::vector<std::string>, 2> names = [] {
    std::array<std::vector<std::string>, 2> v;
    for (const auto& info : level_table()) {
      if (info.real_time) continue;
      v[info.framework == Framework::Adya ? 1 : 0].emplace_back(info.name);
    }
    return v;
  }();
  return names[adya ? 1 : 0];
}

// ---------------------------------------------------------------------------
// Checking a given witness: translate it to local ids, fill in what it may
// leave out, and evaluate the definitions literally.

// One line saying what is wrong with a witness, or nothing.
using Problem = std::optional<std::string>;

// The name of a transaction a witness mentions, which may not exist.
std::string txn_name(const Model& m, TxnId id) {
  const History& h = *m.ah->history;
  return id < h.num_txns() ? h.txn(id).name : fmt::format("transaction #{}", id);
}

// pos[t] from an order of member TxnIds.
Problem positions(const Model& m, const std::vector<TxnId>& order, std::vector<int>& pos) {
  pos.assign(m.n, -1);
  int next = 0;
  for (TxnId id : order) {
    const int t = id < m.local.size() ? m.local[id] : -1;
    if (t < 0) return fmt::format("the order holds {}, not a member", txn_name(m, id));
    if (pos[t] >= 0) return fmt::format("{} appears twice in the order", m.name(t));
    pos[t] = next++;
  }
  for (int t = 0; t < m.n; ++t) {
    if (pos[t] < 0) return fmt::format("{} is missing from the order", m.name(t));
  }
  return std::nullopt;
}

// src[t][i] from the witness's wr, for the read events it gives (matched by
// key and operation); -1 elsewhere.
Problem given_wr(const Model& m, const Witness& w, std::vector<std::vector<int>>& src) {
  src.assign(m.n, {});
  for (int t = 0; t < m.n; ++t) src[t].assign(m.reads[t].size(), -1);
  for (TxnId id = 0; id < w.wr.size(); ++id) {
    for (const ReadFrom& rf : w.wr[id]) {
      const int t = id < m.local.size() ? m.local[id] : -1;
      if (t < 0) return fmt::format("wr gives a read of {}, not a member", txn_name(m, id));
      if (rf.key >= static_cast<KeyId>(m.nkeys)) {
        return fmt::format("wr gives a read of {} of a key that does not exist", m.name(t));
      }
      const std::string key = m.ah->history->key_text(rf.key);
      const auto& events = m.reads_of[t][rf.key];
      const auto it = std::find_if(events.begin(), events.end(),
                                   [&](int e) { return m.reads[t][e].op == rf.op; });
      if (it == events.end()) {
        return fmt::format("{} has no read event of {} at operation {}", m.name(t), key,
                           rf.op + 1);
      }
      const int i = *it;
      if (src[t][i] >= 0) {
        return fmt::format("wr gives {}'s read of {} at operation {} twice", m.name(t), key,
                           rf.op + 1);
      }
      const int s = rf.writer < m.local.size() ? m.local[rf.writer] : -1;
      if (s < 0) {
        return fmt::format("{} reads {} from a transaction that is not a member", m.name(t), key);
      }
      src[t][i] = s;
    }
  }
  return std::nullopt;
}

// Reads the witness leaves out: a read with one candidate reads it; a list
// read reads the writer that installs its list in the version order seq_of.
template <class SeqOf>
Problem fill_wr(const Model& m, SeqOf seq_of, std::vector<std::vector<int>>& src) {
  for (int t = 1; t < m.n; ++t) {
    for (std::size_t i = 0; i < m.reads[t].size(); ++i) {
      if (src[t][i] >= 0) continue;
      const Read& r = m.reads[t][i];
      if (r.list) {
        const auto it = std::find_if(r.cands.begin(), r.cands.end(),
                                     [&](int c) { return may_read(m, r, c, seq_of(r.key)); });
        if (it == r.cands.end()) {
          return fmt::format("no writer installs {}'s read of {} {}", m.name(t), m.key(r.key),
                             m.list_text(*r.list));
        }
        src[t][i] = *it;
      } else if (r.cands.size() == 1) {
        src[t][i] = r.cands.front();
      } else {
        return fmt::format("wr does not say which of {} writers {}'s read of {} reads",
                           r.cands.size(), m.name(t), m.key(r.key));
      }
    }
  }
  return std::nullopt;
}

// ww[x] in local ids; a key with at most one writer may be left out.
Problem given_ww(const Model& m, const Witness& w, std::vector<std::vector<int>>& ww) {
  ww.assign(m.nkeys, {});
  for (int x = 0; x < m.nkeys; ++x) {
    if (static_cast<std::size_t>(x) >= w.ww.size() || w.ww[x].empty()) {
      if (std::popcount(m.writers[x]) > 1) return fmt::format("no version order of {}", m.key(x));
      for (int t = 0; t < m.n; ++t) {
        if (m.W(t, x)) ww[x].push_back(t);
      }
      continue;
    }
    for (TxnId id : w.ww[x]) {
      const int t = id < m.local.size() ? m.local[id] : -1;
      if (t < 0) return fmt::format("ww({}) holds a transaction that is not a member", m.key(x));
      ww[x].push_back(t);
    }
  }
  return std::nullopt;
}

// Why `w` does not satisfy the level on the members of m, or nothing.
Problem witness_problem(const Model& m, const LevelInfo& info, const Witness& w) {
  if (!m.consistent) return m.inconsistency;
  std::string why;
  std::vector<int> pos;
  std::vector<std::vector<int>> src;
  if (info.framework == Framework::Adya) {
    std::vector<std::vector<int>> ww;
    if (auto p = given_ww(m, w, ww)) return p;
    if (auto p = given_wr(m, w, src)) return p;
    if (auto p = fill_wr(m, [&](int x) { return std::span<const int>(ww[x]); }, src)) return p;
    if (!AdyaLiteral(m, info.level, ww, src).holds(&why)) return why;
    return std::nullopt;
  }
  if (auto p = positions(m, w.order, pos)) return p;
  std::vector<int> order(m.n);
  for (int t = 0; t < m.n; ++t) order[pos[t]] = t;
  if (info.framework == Framework::Cerone) {
    std::vector<Mask> vis(m.n, 0);
    for (const auto& [a, b] : w.vis) {
      const int la = a < m.local.size() ? m.local[a] : -1;
      const int lb = b < m.local.size() ? m.local[b] : -1;
      if (la < 0 || lb < 0) return std::string("vis relates a transaction that is not a member");
      vis[lb] |= bit(la);
    }
    if (!CeroneLiteral(m, info.level, pos, vis).holds(&why)) return why;
    return std::nullopt;
  }
  if (auto p = given_wr(m, w, src)) return p;
  if (auto p = fill_wr(m, [&](int) { return std::span<const int>(order); }, src)) return p;
  if (!BiswasLiteral(m, info.level, pos, src).holds(&why)) return why;
  return std::nullopt;
}

}  // namespace

const std::vector<std::string>& levels() { return names_of(false); }

const std::vector<std::string>& adya_levels() { return names_of(true); }

std::optional<Witness> find_witness(const AbstractHistory& h, std::string_view level,
                                    const Options& options) {
  const LevelInfo& info = lookup(level);
  return over_completions(h, info, options, [&](const Model& m) { return search(m, info); });
}

bool allows(const AbstractHistory& h, std::string_view level, const Options& options) {
  return find_witness(h, level, options).has_value();
}

bool allows_naive(const AbstractHistory& h, std::string_view level, const Options& options) {
  const LevelInfo& info = lookup(level);
  return over_completions(h, info, options, [&](const Model& m) { return naive(m, info); });
}

std::string format_witness(const AbstractHistory& h, const Witness& w) {
  const History& hist = *h.history;
  std::string out = "order:";
  for (TxnId t : w.order) out += " " + hist.txn(t).name;
  if (!w.vis.empty()) {
    out += "; vis:";
    for (const auto& [a, b] : w.vis) {
      out += fmt::format(" {}->{}", hist.txn(a).name, hist.txn(b).name);
    }
  }
  bool first = true;
  for (TxnId t = 0; t < w.wr.size(); ++t) {
    for (const ReadFrom& rf : w.wr[t]) {
      out += first ? "; wr:" : "";
      first = false;
      out += fmt::format(" {}.{}@{}<-{}", hist.txn(t).name, hist.key_text(rf.key), rf.op + 1,
                         hist.txn(rf.writer).name);
    }
  }
  for (KeyId k = 0; k < w.ww.size(); ++k) {
    if (w.ww[k].size() < 2) continue;
    out += fmt::format("; ww({}):", hist.key_text(k));
    for (TxnId t : w.ww[k]) out += " " + hist.txn(t).name;
  }
  if (!w.committed.empty()) {
    out += "; committed:";
    for (TxnId t : w.committed) out += " " + hist.txn(t).name;
  }
  return out;
}

std::optional<Witness> find_witness_some_commit(const History& h, std::string_view level,
                                                const Options& options) {
  std::vector<TxnId> unknown;
  for (TxnId t = 1; t < h.num_txns(); ++t)
    if (h.txn(t).status == TxnStatus::Unknown) unknown.push_back(t);
  for (std::uint32_t mask = 0; mask < (1u << unknown.size()); ++mask) {
    std::vector<bool> member = committed_members(h);
    for (std::size_t i = 0; i < unknown.size(); ++i) member[unknown[i]] = (mask >> i) & 1u;
    if (auto w = find_witness(abstract_history(h, member), level, options)) return w;
  }
  return std::nullopt;
}

bool allows_some_commit(const History& h, std::string_view level, const Options& options) {
  return find_witness_some_commit(h, level, options).has_value();
}

WitnessCheck check_witness(const History& h, std::string_view level, const Witness& w,
                           const Options& options) {
  const LevelInfo& info = lookup(level);
  auto bad = [&](const std::string& why) {
    return WitnessCheck{false, fmt::format("{}: {}", level, why)};
  };
  std::vector<bool> member = committed_members(h);
  for (TxnId t : w.committed) {
    if (t == kInitTxn || t >= h.num_txns()) return bad("committed names no transaction");
    if (h.txn(t).status == TxnStatus::Aborted) {
      return bad(fmt::format("{} aborted and cannot have committed", h.txn(t).name));
    }
    member[t] = true;
  }
  const AbstractHistory ah = abstract_history(h, member);
  if (auto p = witness_problem(model_for(ah, info, options), info, w)) return bad(*p);
  return WitnessCheck{true, {}};
}

}  // namespace iso::brute
