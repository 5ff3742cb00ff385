#include "tests/brute/brute.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <numeric>
#include <stdexcept>

namespace iso::brute {
namespace {

using Mask = std::uint64_t;
constexpr int kMaxMembers = 63;

constexpr Mask bit(int i) { return Mask{1} << i; }
constexpr bool has(Mask m, int i) { return (m >> i) & 1U; }

enum class Framework : std::uint8_t { Biswas, Cerone, Plume };

enum class Level : std::uint8_t {
  BiswasRA, BiswasCC, BiswasPC, BiswasSI, BiswasSER, BiswasUpdateSer,
  CeroneRA, CeroneCC, CeroneUA, CeronePSI, CeronePC, CeroneSI, CeroneSER,
  CeroneUpdateSer, CeroneNLU,
  PlumeTapRA, PlumeTapCC, PlumeRA,
};

struct LevelInfo {
  std::string_view name;
  Level level;
  Framework framework;
};

constexpr std::array<LevelInfo, 18> kLevels{{
    {"biswas.RA", Level::BiswasRA, Framework::Biswas},
    {"biswas.CC", Level::BiswasCC, Framework::Biswas},
    {"biswas.PC", Level::BiswasPC, Framework::Biswas},
    {"biswas.SI", Level::BiswasSI, Framework::Biswas},
    {"biswas.SER", Level::BiswasSER, Framework::Biswas},
    {"biswas.UpdateSer", Level::BiswasUpdateSer, Framework::Biswas},
    {"cerone.RA", Level::CeroneRA, Framework::Cerone},
    {"cerone.CC", Level::CeroneCC, Framework::Cerone},
    {"cerone.UA", Level::CeroneUA, Framework::Cerone},
    {"cerone.PSI", Level::CeronePSI, Framework::Cerone},
    {"cerone.PC", Level::CeronePC, Framework::Cerone},
    {"cerone.SI", Level::CeroneSI, Framework::Cerone},
    {"cerone.SER", Level::CeroneSER, Framework::Cerone},
    {"cerone.UpdateSer", Level::CeroneUpdateSer, Framework::Cerone},
    {"cerone.NLU", Level::CeroneNLU, Framework::Cerone},
    {"plume.TapRA", Level::PlumeTapRA, Framework::Plume},
    {"plume.TapCC", Level::PlumeTapCC, Framework::Plume},
    {"plume.RA", Level::PlumeRA, Framework::Plume},
}};

const LevelInfo& lookup(std::string_view name) {
  for (const auto& info : kLevels) {
    if (info.name == name) return info;
  }
  throw std::invalid_argument(fmt::format("unknown isolation level '{}'", name));
}

// Cerone axioms a level adds to EXT and SESSION.
bool transvis(Level l) { return l == Level::CeroneCC || l == Level::CeronePSI; }
bool prefix(Level l) { return l == Level::CeronePC || l == Level::CeroneSI; }
bool noconflict(Level l) {
  return l == Level::CeroneUA || l == Level::CeronePSI || l == Level::CeroneSI;
}

// ---------------------------------------------------------------------------
// The history in local form: members renumbered 0..n-1 with T0 as 0.

struct Read {
  int key;
  ValueId value;
  std::vector<int> cands;  // local ids of the candidate writers
};

struct Model {
  const AbstractHistory* ah = nullptr;
  bool consistent = true;  // no INT violation, no unjustified read
  int n = 0;
  int nkeys = 0;
  std::vector<TxnId> ids;                          // local -> TxnId
  std::vector<std::vector<std::optional<ValueId>>> w;  // [t][x] final write
  std::vector<std::vector<int>> wkeys;             // [t] keys t writes
  std::vector<std::vector<Read>> reads;            // [t] external reads
  std::vector<std::vector<int>> read_of;           // [t][x] index in reads or -1
  std::vector<Mask> so_pred;                       // [t] so-predecessors
  std::vector<Mask> writers;                       // [x] Wr(x)
  Mask update = 0;                                 // U
  Mask all = 0;                                    // T

  bool W(int t, int x) const { return w[t][x].has_value(); }
  bool R(int t, int x) const { return read_of[t][x] >= 0; }
  bool so(int a, int b) const { return has(so_pred[b], a); }
};

Model build_model(const AbstractHistory& ah) {
  Model m;
  m.ah = &ah;
  if (!ah.int_violations.empty() || !ah.unjustified_reads.empty()) {
    m.consistent = false;  // denied by every level; nothing else is needed
    return m;
  }
  const History& h = *ah.history;
  if (ah.txns.size() > static_cast<std::size_t>(kMaxMembers)) {
    throw std::length_error(fmt::format(
        "brute force supports at most {} transactions, got {}", kMaxMembers,
        ah.txns.size()));
  }
  m.ids = ah.txns;
  if (m.ids.empty() || m.ids.front() != kInitTxn) {
    m.ids.erase(std::remove(m.ids.begin(), m.ids.end(), kInitTxn), m.ids.end());
    m.ids.insert(m.ids.begin(), kInitTxn);
  }
  m.n = static_cast<int>(m.ids.size());
  m.nkeys = static_cast<int>(h.keys().size());
  std::vector<int> local(h.num_txns(), -1);
  for (int i = 0; i < m.n; ++i) local[m.ids[i]] = i;

  m.w.assign(m.n, std::vector<std::optional<ValueId>>(m.nkeys));
  m.wkeys.assign(m.n, {});
  m.reads.assign(m.n, {});
  m.read_of.assign(m.n, std::vector<int>(m.nkeys, -1));
  m.so_pred.assign(m.n, 0);
  m.writers.assign(m.nkeys, 0);
  m.all = m.n == 64 ? ~Mask{0} : bit(m.n) - 1;

  // T0 writes the initial value of every key.
  for (int x = 0; x < m.nkeys; ++x) {
    m.w[0][x] = h.init_value(static_cast<KeyId>(x));
  }
  for (int t = 1; t < m.n; ++t) {
    const TxnId id = m.ids[t];
    for (const FinalWrite& fw : ah.abs[id].writes) m.w[t][fw.key] = fw.value;
    const auto& rs = ah.abs[id].reads;
    for (std::size_t i = 0; i < rs.size(); ++i) {
      Read r{static_cast<int>(rs[i].key), rs[i].value, {}};
      if (id < ah.candidates.size() && i < ah.candidates[id].size()) {
        for (TxnId c : ah.candidates[id][i]) {
          if (c < local.size() && local[c] >= 0 && local[c] != t) {
            r.cands.push_back(local[c]);
          }
        }
      }
      if (r.cands.empty()) m.consistent = false;
      m.read_of[t][r.key] = static_cast<int>(m.reads[t].size());
      m.reads[t].push_back(std::move(r));
    }
  }
  for (int t = 0; t < m.n; ++t) {
    for (int x = 0; x < m.nkeys; ++x) {
      if (m.W(t, x)) {
        m.wkeys[t].push_back(x);
        m.writers[x] |= bit(t);
        m.update |= bit(t);
      }
    }
  }
  for (int a = 0; a < m.n; ++a) {
    const TxnId id = m.ids[a];
    if (id >= ah.so.size()) continue;
    for (TxnId b : ah.so[id]) {
      if (b < local.size() && local[b] >= 0 && local[b] != a) {
        m.so_pred[local[b]] |= bit(a);
      }
    }
  }
  for (int t = 1; t < m.n; ++t) m.so_pred[t] |= bit(0);  // t0 before everyone
  // `so` may be given as its transitive reduction; close it.
  for (int k = 0; k < m.n; ++k) {
    for (int i = 0; i < m.n; ++i) {
      if (has(m.so_pred[i], k)) m.so_pred[i] |= m.so_pred[k];
    }
  }
  return m;
}

// ---------------------------------------------------------------------------
// Literal evaluation of the definitions on one complete witness. Relations
// are n x n boolean matrices; quantifiers are loops over T and K.

using Rel = std::vector<std::vector<char>>;

Rel empty_rel(int n) { return Rel(n, std::vector<char>(n, 0)); }

Rel closure(Rel r) {
  const int n = static_cast<int>(r.size());
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < n; ++i) {
      if (!r[i][k]) continue;
      for (int j = 0; j < n; ++j) {
        if (r[k][j]) r[i][j] = 1;
      }
    }
  }
  return r;
}

// wr as a choice: wrsrc[t][i] is the writer of m.reads[t][i].
struct BiswasLiteral {
  const Model& m;
  Level level;
  const std::vector<int>& pos;
  const std::vector<std::vector<int>>& wrsrc;
  Rel SO, WR, HB;

  BiswasLiteral(const Model& model, Level l, const std::vector<int>& p,
                const std::vector<std::vector<int>>& src)
      : m(model), level(l), pos(p), wrsrc(src) {
    const int n = m.n;
    SO = empty_rel(n);
    WR = empty_rel(n);
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) SO[a][b] = m.so(a, b) ? 1 : 0;
    }
    for (int t = 0; t < n; ++t) {
      for (int s : wrsrc[t]) WR[s][t] = 1;
    }
    Rel u = SO;
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) u[a][b] = (SO[a][b] || WR[a][b]) ? 1 : 0;
    }
    HB = closure(std::move(u));
  }

  bool co(int a, int b) const { return pos[a] < pos[b]; }
  // wr(t1, x, t3)
  bool wr(int t1, int x, int t3) const {
    const int i = m.read_of[t3][x];
    return i >= 0 && wrsrc[t3][i] == t1;
  }
  bool U(int t) const { return has(m.update, t); }

  bool well_formed() const {
    if (pos[0] != 0) return false;
    for (int a = 0; a < m.n; ++a) {
      for (int b = 0; b < m.n; ++b) {
        if ((SO[a][b] || WR[a][b]) && !co(a, b)) return false;
      }
    }
    return true;
  }

  bool in_D(int x, int t1, int t2, int t3) const {
    switch (level) {
      case Level::BiswasRA:
      case Level::BiswasCC:
        return m.R(t3, x) && t3 != t1 && t3 != t2;
      case Level::BiswasPC:
      case Level::BiswasSI:
        return m.R(t3, x);
      case Level::BiswasSER:
        return true;
      case Level::BiswasUpdateSer:
        return U(t3);
      default:
        return false;
    }
  }

  bool C(int t2, int t3) const {
    switch (level) {
      case Level::BiswasRA:
        return SO[t2][t3] || WR[t2][t3];
      case Level::BiswasCC:
        return HB[t2][t3];
      case Level::BiswasPC:
      case Level::BiswasSI:
        for (int u = 0; u < m.n; ++u) {
          if ((u == t2 || co(t2, u)) && (SO[u][t3] || WR[u][t3])) return true;
        }
        return false;
      case Level::BiswasSER:
      case Level::BiswasUpdateSer:
        return co(t2, t3);
      default:
        return false;
    }
  }

  // Ax(C, D)
  bool axiom() const {
    for (int x = 0; x < m.nkeys; ++x) {
      for (int t1 = 0; t1 < m.n; ++t1) {
        if (!m.W(t1, x)) continue;
        for (int t2 = 0; t2 < m.n; ++t2) {
          if (!m.W(t2, x) || t1 == t2) continue;
          for (int t3 = 0; t3 < m.n; ++t3) {
            if (!in_D(x, t1, t2, t3)) continue;
            if (wr(t1, x, t3) && C(t2, t3) && !co(t2, t1)) return false;
          }
        }
      }
    }
    return true;
  }

  bool conflict() const {
    for (int x = 0; x < m.nkeys; ++x) {
      for (int y = 0; y < m.nkeys; ++y) {
        for (int t1 = 0; t1 < m.n; ++t1) {
          if (!m.W(t1, x)) continue;
          for (int t2 = 0; t2 < m.n; ++t2) {
            if (!m.W(t2, x) || t1 == t2) continue;
            for (int t3 = 0; t3 < m.n; ++t3) {
              if (!m.W(t3, y) || !wr(t1, x, t3)) continue;
              for (int t4 = 0; t4 < m.n; ++t4) {
                if (!m.W(t4, y)) continue;
                if ((t2 == t4 || co(t2, t4)) && co(t4, t3) && !co(t2, t1)) {
                  return false;
                }
              }
            }
          }
        }
      }
    }
    return true;
  }

  // Plume's patterns; each returns true when the pattern occurs.
  bool pattern_kl(bool use_co) const {
    for (int x = 0; x < m.nkeys; ++x) {
      for (int y = 0; y < m.nkeys; ++y) {
        if (x == y) continue;
        for (int t1 = 0; t1 < m.n; ++t1) {
          if (!m.W(t1, x)) continue;
          for (int t2 = 0; t2 < m.n; ++t2) {
            if (!m.W(t2, x) || t1 == t2) continue;
            const bool ord = use_co ? co(t1, t2) : HB[t1][t2] != 0;
            if (!ord) continue;
            for (int t3 = 0; t3 < m.n; ++t3) {
              if (m.R(t3, x) && wr(t1, x, t3) && wr(t2, y, t3)) return true;
            }
          }
        }
      }
    }
    return false;
  }
  bool pattern_mn(bool use_co) const {
    for (int x = 0; x < m.nkeys; ++x) {
      for (int t1 = 0; t1 < m.n; ++t1) {
        if (!m.W(t1, x)) continue;
        for (int t2 = 0; t2 < m.n; ++t2) {
          if (!m.W(t2, x) || t1 == t2) continue;
          const bool ord = use_co ? co(t1, t2) : HB[t1][t2] != 0;
          if (!ord) continue;
          for (int t3 = 0; t3 < m.n; ++t3) {
            if (!m.R(t3, x) || t3 == t1 || t3 == t2) continue;
            if (wr(t1, x, t3) && HB[t2][t3]) return true;
          }
        }
      }
    }
    return false;
  }
  bool fails_to_see_so_predecessor() const {
    for (int x = 0; x < m.nkeys; ++x) {
      for (int t1 = 0; t1 < m.n; ++t1) {
        if (!m.W(t1, x)) continue;
        for (int t2 = 0; t2 < m.n; ++t2) {
          if (!m.W(t2, x) || t1 == t2) continue;
          for (int t3 = 0; t3 < m.n; ++t3) {
            if (!m.R(t3, x)) continue;
            if (SO[t2][t3] && wr(t1, x, t3) && HB[t1][t2]) return true;
          }
        }
      }
    }
    return false;
  }

  // Isolde's inconsistent-commit-order pattern (history only): two
  // session-ordered pairs t1 -so-> t2 and t3 -so-> t4 whose readers each read
  // x from the other pair's writer.
  bool inconsistent_commit_order() const {
    for (int x = 0; x < m.nkeys; ++x)
      for (int t1 = 0; t1 < m.n; ++t1) {
        if (!m.W(t1, x)) continue;
        for (int t2 = 0; t2 < m.n; ++t2) {
          if (!m.R(t2, x) || !SO[t1][t2]) continue;
          for (int t3 = 0; t3 < m.n; ++t3) {
            if (!m.W(t3, x) || !wr(t3, x, t2) || SO[t3][t2]) continue;
            for (int t4 = 0; t4 < m.n; ++t4)
              if (m.R(t4, x) && SO[t3][t4] && !SO[t1][t4] && wr(t1, x, t4)) return true;
          }
        }
      }
    return false;
  }

  bool holds() const {
    if (!well_formed()) return false;
    switch (level) {
      case Level::BiswasRA:
      case Level::BiswasCC:
      case Level::BiswasPC:
      case Level::BiswasSER:
      case Level::BiswasUpdateSer:
        return axiom();
      case Level::BiswasSI:
        return axiom() && conflict();
      case Level::PlumeTapRA:
        return !pattern_kl(false) && !pattern_kl(true);
      case Level::PlumeTapCC:
        return !pattern_kl(false) && !pattern_kl(true) && !pattern_mn(false) &&
               !pattern_mn(true);
      case Level::PlumeRA:
        return !pattern_kl(false) && !pattern_kl(true) &&
               !fails_to_see_so_predecessor() && !inconsistent_commit_order();
      default:
        return false;
    }
  }
};

struct CeroneLiteral {
  const Model& m;
  Level level;
  const std::vector<int>& pos;
  const std::vector<Mask>& vis_pred;  // a in vis_pred[b] iff (a, b) in vis

  bool ar(int a, int b) const { return pos[a] < pos[b]; }
  bool vis(int a, int b) const { return has(vis_pred[b], a); }

  bool well_formed() const {
    if (pos[0] != 0) return false;
    for (int a = 0; a < m.n; ++a) {
      for (int b = 0; b < m.n; ++b) {
        if (vis(a, b) && !ar(a, b)) return false;
      }
    }
    for (int t = 1; t < m.n; ++t) {
      if (!vis(0, t)) return false;
    }
    return true;
  }

  bool ext() const {
    for (int t = 1; t < m.n; ++t) {
      for (const Read& r : m.reads[t]) {
        int best = -1;
        for (int s = 0; s < m.n; ++s) {
          if (vis(s, t) && m.W(s, r.key) && (best < 0 || ar(best, s))) best = s;
        }
        if (best < 0 || *m.w[best][r.key] != r.value) return false;
      }
    }
    return true;
  }

  bool session() const {
    for (int a = 0; a < m.n; ++a) {
      for (int b = 0; b < m.n; ++b) {
        if (m.so(a, b) && !vis(a, b)) return false;
      }
    }
    return true;
  }

  // r ; vis ⊆ vis: TRANSVIS with r = vis, PREFIX with r = ar.
  template <class R>
  bool composed_with_vis_within_vis(R r) const {
    for (int a = 0; a < m.n; ++a) {
      for (int b = 0; b < m.n; ++b) {
        if (!r(a, b)) continue;
        for (int c = 0; c < m.n; ++c) {
          if (vis(b, c) && !vis(a, c)) return false;
        }
      }
    }
    return true;
  }
  bool transvis_ok() const {
    return composed_with_vis_within_vis([this](int a, int b) { return vis(a, b); });
  }
  bool prefix_ok() const {
    return composed_with_vis_within_vis([this](int a, int b) { return ar(a, b); });
  }

  bool noconflict_ok() const {
    for (int x = 0; x < m.nkeys; ++x) {
      for (int t = 0; t < m.n; ++t) {
        for (int s = 0; s < m.n; ++s) {
          if (t == s || !m.W(t, x) || !m.W(s, x)) continue;
          if (!vis(t, s) && !vis(s, t)) return false;
        }
      }
    }
    return true;
  }

  // TOTALVIS over the transactions in `among`.
  bool totalvis_ok(Mask among) const {
    for (int t = 0; t < m.n; ++t) {
      for (int s = 0; s < m.n; ++s) {
        if (t == s || !has(among, t) || !has(among, s)) continue;
        if (!vis(t, s) && !vis(s, t)) return false;
      }
    }
    return true;
  }

  bool lost_update() const {
    for (int t = 1; t < m.n; ++t) {
      for (int x = 0; x < m.nkeys; ++x) {
        if (!m.W(t, x)) continue;
        int best = -1;
        for (int s = 0; s < m.n; ++s) {
          if (ar(s, t) && m.W(s, x) && (best < 0 || ar(best, s))) best = s;
        }
        if (best < 0 || !vis(best, t)) return true;
      }
    }
    return false;
  }

  bool holds() const {
    if (!well_formed() || !ext() || !session()) return false;
    switch (level) {
      case Level::CeroneRA:
        return true;
      case Level::CeroneCC:
        return transvis_ok();
      case Level::CeroneUA:
        return noconflict_ok();
      case Level::CeronePSI:
        return transvis_ok() && noconflict_ok();
      case Level::CeronePC:
        return prefix_ok();
      case Level::CeroneSI:
        return prefix_ok() && noconflict_ok();
      case Level::CeroneSER:
        return totalvis_ok(m.all);
      case Level::CeroneUpdateSer:
        return totalvis_ok(m.update | bit(0));
      case Level::CeroneNLU:
        return !lost_update();
      default:
        return false;
    }
  }
};

// ---------------------------------------------------------------------------
// Search over commit orders (biswas, plume). The order grows one transaction
// at a time; when t3 is placed, its wr sources are chosen among the placed
// candidates (wr ⊆ co) and every axiom instance whose reader is t3 is
// checked. Every instance of every axiom here has its premise implying that
// t1 and t2 (and t4) precede t3 in co, so checking at t3's placement is
// exactly the full check.

class CommitOrderSearch {
 public:
  CommitOrderSearch(const Model& m, Level level)
      : m_(m), level_(level), pos_(m.n, -1), wr_(m.n), wr_pred_(m.n, 0),
        hb_pred_(m.n, 0) {
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
    if (placed_ == m_.all) {
      // The one pattern the incremental checks leave to the complete witness:
      // it depends on the whole read-from choice, not on the order.
      if (level_ == Level::PlumeRA &&
          BiswasLiteral(m_, level_, pos_, wr_).inconsistent_commit_order()) {
        return false;
      }
      if (!BiswasLiteral(m_, level_, pos_, wr_).holds()) {
        throw std::logic_error(
            "brute: incremental and literal commit-order checks disagree");
      }
      return true;
    }
    for (int t = 1; t < m_.n; ++t) {
      if (has(placed_, t) || (m_.so_pred[t] & ~placed_) != 0) continue;
      place(t);
      const bool found = choose(t, 0);
      unplace(t);
      if (found) return true;
    }
    return false;
  }

  bool choose(int t, std::size_t i) {
    if (i == m_.reads[t].size()) {
      Mask wp = 0;
      for (int s : wr_[t]) wp |= bit(s);
      wr_pred_[t] = wp;
      return check_at(t) && dfs();
    }
    for (int c : m_.reads[t][i].cands) {
      if (!has(placed_, c) || c == t) continue;
      wr_[t][i] = c;
      if (choose(t, i + 1)) return true;
    }
    wr_[t][i] = -1;
    return false;
  }

  bool before(int a, int b) const { return pos_[a] < pos_[b]; }

  bool check_at(int t3) {
    const Mask direct = m_.so_pred[t3] | wr_pred_[t3];
    Mask hb = direct;
    for (int p = 0; p < m_.n; ++p) {
      if (has(direct, p)) hb |= hb_pred_[p];
    }
    hb_pred_[t3] = hb;
    const Mask others = placed_ & ~bit(t3);
    const auto& rs = m_.reads[t3];

    if (level_ == Level::PlumeTapRA || level_ == Level::PlumeTapCC ||
        level_ == Level::PlumeRA) {
      // k, l: t3 reads x from t1 and y from t2, t2 also writes x.
      for (std::size_t i = 0; i < rs.size(); ++i) {
        const int t1 = wr_[t3][i];
        for (std::size_t j = 0; j < rs.size(); ++j) {
          if (i == j) continue;
          const int t2 = wr_[t3][j];
          if (t1 == t2 || !has(m_.writers[rs[i].key], t2)) continue;
          if (has(hb_pred_[t2], t1)) return false;  // k
          if (before(t1, t2)) return false;          // l
        }
      }
      for (std::size_t i = 0; i < rs.size(); ++i) {
        const int x = rs[i].key;
        const int t1 = wr_[t3][i];
        const Mask t2s = m_.writers[x] & others & ~bit(t1);
        for (int t2 = 0; t2 < m_.n; ++t2) {
          if (!has(t2s, t2)) continue;
          if (level_ == Level::PlumeTapCC && has(hb, t2)) {
            if (has(hb_pred_[t2], t1)) return false;  // m
            if (before(t1, t2)) return false;          // n
          }
          if (level_ == Level::PlumeRA && has(m_.so_pred[t3], t2) &&
              has(hb_pred_[t2], t1)) {
            return false;  // fails to see an so-predecessor
          }
        }
      }
      return true;
    }

    // biswas: Ax(C, D), and Conflict for SI.
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
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const int x = rs[i].key;
      const int t1 = wr_[t3][i];
      const Mask t2s = m_.writers[x] & others & ~bit(t1);
      for (int t2 = 0; t2 < m_.n; ++t2) {
        if (!has(t2s, t2)) continue;
        bool c = false;
        switch (level_) {
          case Level::BiswasRA: c = has(direct, t2); break;
          case Level::BiswasCC: c = has(hb, t2); break;
          case Level::BiswasPC:
          case Level::BiswasSI: c = pos_[t2] <= max_direct; break;
          case Level::BiswasSER: c = true; break;
          case Level::BiswasUpdateSer: c = t3_update; break;
          default: break;
        }
        if (level_ == Level::BiswasSI && pos_[t2] <= conflict_bound) c = true;
        if (c && !before(t2, t1)) return false;
      }
    }
    return true;
  }

  const Model& m_;
  Level level_;
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
// constrain later transactions, so one valid choice per node suffices.

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
      if (!CeroneLiteral{m_, level_, pos_, vis_pred_}.holds()) {
        throw std::logic_error(
            "brute: incremental and literal visibility checks disagree");
      }
      return true;
    }
    for (int t = 1; t < m_.n; ++t) {
      if (has(placed_, t) || (m_.so_pred[t] & ~placed_) != 0) continue;
      const Mask before = placed_;
      place(t);
      const bool found = choose_vis(t, before);
      unplace(t);
      if (found) return true;
    }
    return false;
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
    if (level_ == Level::CeroneSER) forced |= before;
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
    const Mask free = before & ~forced;
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
      if (src < 0 || *m_.w[src][r.key] != r.value) return false;
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

Witness make_witness(const Model& m, const std::vector<int>& order) {
  Witness w;
  for (int t : order) w.order.push_back(m.ids[t]);
  return w;
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
  CommitOrderSearch s(m, info.level);
  if (!s.run()) return std::nullopt;
  Witness w = make_witness(m, s.order());
  w.wr.assign(m.ah->history->num_txns(), {});
  for (int t = 0; t < m.n; ++t) {
    for (int src : s.wr()[t]) w.wr[m.ids[t]].push_back(m.ids[src]);
  }
  return w;
}

// ---------------------------------------------------------------------------
// Naive enumeration of complete witnesses.

bool naive(const Model& m, const LevelInfo& info) {
  if (!m.consistent) return false;
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
        if (CeroneLiteral{m, info.level, pos, vis}.holds()) return true;
      }
    } else {
      // Every choice of one candidate writer per external read.
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
        if (BiswasLiteral(m, info.level, pos, wr).holds()) return true;
        std::size_t s = 0;
        for (; s < slots.size(); ++s) {
          const auto [t, i] = slots[s];
          if (++digit[s] < m.reads[t][i].cands.size()) break;
          digit[s] = 0;
        }
        if (s == slots.size()) break;
      }
    }
  } while (std::next_permutation(perm.begin() + 1, perm.end()));
  return false;
}

}  // namespace

const std::vector<std::string>& levels() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& info : kLevels) v.emplace_back(info.name);
    return v;
  }();
  return names;
}

std::optional<Witness> find_witness(const AbstractHistory& h,
                                    std::string_view level) {
  const LevelInfo& info = lookup(level);
  const Model m = build_model(h);
  return search(m, info);
}

bool allows(const AbstractHistory& h, std::string_view level) {
  return find_witness(h, level).has_value();
}

bool allows_naive(const AbstractHistory& h, std::string_view level) {
  const LevelInfo& info = lookup(level);
  const Model m = build_model(h);
  return naive(m, info);
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
    for (std::size_t i = 0; i < w.wr[t].size(); ++i) {
      out += first ? "; wr:" : "";
      first = false;
      out += fmt::format(" {}.{}<-{}", hist.txn(t).name,
                         hist.key_text(h.abs[t].reads[i].key),
                         hist.txn(w.wr[t][i]).name);
    }
  }
  return out;
}

bool allows_some_commit(const History& h, std::string_view level) {
  std::vector<TxnId> unknown;
  for (TxnId t = 1; t < h.num_txns(); ++t)
    if (h.txn(t).status == TxnStatus::Unknown) unknown.push_back(t);
  for (std::uint32_t mask = 0; mask < (1u << unknown.size()); ++mask) {
    std::vector<bool> member = committed_members(h);
    for (std::size_t i = 0; i < unknown.size(); ++i) member[unknown[i]] = (mask >> i) & 1u;
    if (allows(abstract_history(h, member), level)) return true;
  }
  return false;
}

}  // namespace iso::brute
