#include "tests/brute/literal.hpp"

#include <deque>

namespace iso::brute::detail {

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

std::vector<int> find_cycle(const Rel& r) {
  const int n = static_cast<int>(r.size());
  std::vector<int> best;
  // From each node, a breadth-first search for the shortest way back.
  for (int s = 0; s < n; ++s) {
    std::vector<int> parent(n, -1);
    std::deque<int> queue{s};
    std::vector<char> seen(n, 0);
    int last = -1;
    while (!queue.empty() && last < 0) {
      const int a = queue.front();
      queue.pop_front();
      for (int b = 0; b < n; ++b) {
        if (!r[a][b]) continue;
        if (b == s) {
          last = a;
          break;
        }
        if (seen[b]) continue;
        seen[b] = 1;
        parent[b] = a;
        queue.push_back(b);
      }
    }
    if (last < 0) continue;
    std::vector<int> cycle{s};
    for (int v = last; v != s; v = parent[v]) cycle.push_back(v);
    std::reverse(cycle.begin() + 1, cycle.end());
    cycle.push_back(s);
    if (best.empty() || cycle.size() < best.size()) best = std::move(cycle);
  }
  return best;
}

bool may_read(const Model& m, const Read& r, int src, std::span<const int> seq) {
  return std::find(r.cands.begin(), r.cands.end(), src) != r.cands.end() &&
         (r.list == nullptr || installs(m, r.key, seq, src, *r.list));
}

namespace {

std::vector<int> sequence(const std::vector<int>& pos) {
  std::vector<int> order(pos.size());
  for (std::size_t t = 0; t < pos.size(); ++t) {
    order[static_cast<std::size_t>(pos[t])] = static_cast<int>(t);
  }
  return order;
}

std::string names(const Model& m, const std::vector<int>& ts) {
  std::string out;
  for (int t : ts) out += (out.empty() ? "" : " ") + m.name(t);
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------
// Biswas–Enea and Plume.

BiswasLiteral::BiswasLiteral(const Model& model, Level l, const std::vector<int>& p,
                             const std::vector<std::vector<int>>& src)
    : m(model), level(l), pos(p), wrsrc(src), order(sequence(p)) {
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

bool BiswasLiteral::wr(int t1, int x, int t3) const {
  const auto& events = m.reads_of[t3][x];
  return std::any_of(events.begin(), events.end(), [&](int i) { return wrsrc[t3][i] == t1; });
}

bool BiswasLiteral::well_formed(std::string* why) const {
  if (pos[0] != 0) return fail(why, "T0 is not first in co");
  for (int a = 0; a < m.n; ++a) {
    for (int b = 0; b < m.n; ++b) {
      if ((SO[a][b] || WR[a][b]) && !co(a, b)) {
        return fail(why, "co does not contain {}: {}, {}", SO[a][b] ? "so" : "wr", m.name(a),
                    m.name(b));
      }
    }
  }
  return reads_ok(m, [this](int) { return std::span<const int>(order); }, wrsrc, why);
}

bool BiswasLiteral::in_D(int x, int t1, int t2, int t3) const {
  switch (level) {
    case Level::BiswasRA:
    case Level::BiswasCC:
      return m.R(t3, x) && t3 != t1 && t3 != t2;
    case Level::BiswasPC:
    case Level::BiswasSI:
      return m.R(t3, x);
    case Level::BiswasSER:
    case Level::BiswasStrictSER:
      return true;
    case Level::BiswasUpdateSer:
      return has(m.update, t3);
    default:
      return false;
  }
}

bool BiswasLiteral::C(int t2, int t3) const {
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
    case Level::BiswasStrictSER:
    case Level::BiswasUpdateSer:
      return co(t2, t3);
    default:
      return false;
  }
}

// Axioms are "no instance violates", patterns are "some instance occurs";
// both quantify over a key x and two distinct writers t1, t2 of x first.
template <class F>
bool BiswasLiteral::some_write_pair(F f) const {
  for (int x = 0; x < m.nkeys; ++x) {
    for (int t1 = 0; t1 < m.n; ++t1) {
      if (!m.W(t1, x)) continue;
      for (int t2 = 0; t2 < m.n; ++t2) {
        if (m.W(t2, x) && t1 != t2 && f(x, t1, t2)) return true;
      }
    }
  }
  return false;
}

bool BiswasLiteral::axiom(std::string* why) const {
  return !some_write_pair([&](int x, int t1, int t2) {
    for (int t3 = 0; t3 < m.n; ++t3) {
      if (in_D(x, t1, t2, t3) && wr(t1, x, t3) && C(t2, t3) && !co(t2, t1)) {
        fail(why, "axiom fails for {}, {}, {}, {}", m.key(x), m.name(t1), m.name(t2),
             m.name(t3));
        return true;
      }
    }
    return false;
  });
}

bool BiswasLiteral::conflict(std::string* why) const {
  return !some_write_pair([&](int x, int t1, int t2) {
    for (int y = 0; y < m.nkeys; ++y) {
      for (int t3 = 0; t3 < m.n; ++t3) {
        if (!m.W(t3, y) || !wr(t1, x, t3)) continue;
        for (int t4 = 0; t4 < m.n; ++t4) {
          if (m.W(t4, y) && (t2 == t4 || co(t2, t4)) && co(t4, t3) && !co(t2, t1)) {
            fail(why, "Conflict fails for {}, {}, {}, {}, {}, {}", m.key(x), m.key(y),
                 m.name(t1), m.name(t2), m.name(t3), m.name(t4));
            return true;
          }
        }
      }
    }
    return false;
  });
}

bool BiswasLiteral::rc(std::string* why) const {
  for (int t3 = 1; t3 < m.n; ++t3) {
    const auto& rs = m.reads[t3];
    for (std::size_t a = 0; a < rs.size(); ++a) {    // α, of x, reading from t1
      for (std::size_t b = 0; b < rs.size(); ++b) {  // β, before α, reading from t2
        const int x = rs[a].key;
        const int t1 = wrsrc[t3][a];
        const int t2 = wrsrc[t3][b];
        if (rs[b].op < rs[a].op && t1 != t2 && m.W(t1, x) && m.W(t2, x) && !co(t2, t1)) {
          return fail(why, "RC fails for {}, {}, {}, {}'s reads at operations {} and {}",
                      m.key(x), m.name(t1), m.name(t2), m.name(t3), rs[b].op + 1, rs[a].op + 1);
        }
      }
    }
  }
  return true;
}

bool BiswasLiteral::non_repeatable_read(std::string* why) const {
  for (int t = 1; t < m.n; ++t) {
    const auto& rs = m.reads[t];
    for (std::size_t a = 0; a < rs.size(); ++a) {
      for (std::size_t b = 0; b < rs.size(); ++b) {
        if (rs[b].key == rs[a].key && rs[b].op < rs[a].op && wrsrc[t][b] != wrsrc[t][a]) {
          fail(why, "TAP-j occurs: {} reads {} from {} at operation {}, then from {} at {}",
               m.name(t), m.key(rs[a].key), m.name(wrsrc[t][b]), rs[b].op + 1,
               m.name(wrsrc[t][a]), rs[a].op + 1);
          return true;
        }
      }
    }
  }
  return false;
}

bool BiswasLiteral::non_monotonic_read(std::string* why) const {
  for (int t3 = 1; t3 < m.n; ++t3) {
    const auto& rs = m.reads[t3];
    for (std::size_t a = 0; a < rs.size(); ++a) {    // of x, from t1
      for (std::size_t b = 0; b < rs.size(); ++b) {  // of y, from t2, earlier
        const int x = rs[a].key;
        const int t1 = wrsrc[t3][a];
        const int t2 = wrsrc[t3][b];
        if (rs[b].key != x && rs[b].op < rs[a].op && t1 != t2 && m.W(t2, x) && co(t1, t2)) {
          fail(why, "TAP-i occurs for {}, {}, {}, {}'s reads at operations {} and {}", m.key(x),
               m.name(t1), m.name(t2), m.name(t3), rs[b].op + 1, rs[a].op + 1);
          return true;
        }
      }
    }
  }
  return false;
}

bool BiswasLiteral::fractured_read(std::string* why) const {
  for (int t3 = 1; t3 < m.n; ++t3) {
    const auto& rs = m.reads[t3];
    for (std::size_t a = 0; a < rs.size(); ++a) {  // of x, from t1
      const int x = rs[a].key;
      const int t1 = wrsrc[t3][a];
      for (int t2 = 0; t2 < m.n; ++t2) {
        if (t2 == t1 || t2 == t3 || !m.W(t2, x) || !co(t1, t2)) continue;
        bool seen = SO[t2][t3] != 0;
        for (std::size_t b = 0; b < rs.size(); ++b) {  // of y, from t2, later
          seen = seen || (rs[b].key != x && rs[b].op > rs[a].op && wrsrc[t3][b] == t2);
        }
        if (seen) {
          fail(why, "TAP-l occurs for {}, {}, {}, {}'s read at operation {}", m.key(x),
               m.name(t1), m.name(t2), m.name(t3), rs[a].op + 1);
          return true;
        }
      }
    }
  }
  return false;
}

bool BiswasLiteral::pattern_kl(bool use_co, std::string* why) const {
  return some_write_pair([&](int x, int t1, int t2) {
    if (!(use_co ? co(t1, t2) : HB[t1][t2] != 0)) return false;
    for (int y = 0; y < m.nkeys; ++y) {
      for (int t3 = 0; t3 < m.n; ++t3) {
        if (x != y && m.R(t3, x) && wr(t1, x, t3) && wr(t2, y, t3)) {
          fail(why, "pattern {} occurs for {}, {}, {}, {}, {}", use_co ? 'l' : 'k', m.key(x),
               m.key(y), m.name(t1), m.name(t2), m.name(t3));
          return true;
        }
      }
    }
    return false;
  });
}

bool BiswasLiteral::pattern_mn(bool use_co, std::string* why) const {
  return some_write_pair([&](int x, int t1, int t2) {
    if (!(use_co ? co(t1, t2) : HB[t1][t2] != 0)) return false;
    for (int t3 = 0; t3 < m.n; ++t3) {
      if (m.R(t3, x) && t3 != t1 && t3 != t2 && wr(t1, x, t3) && HB[t2][t3]) {
        fail(why, "pattern {} occurs for {}, {}, {}, {}", use_co ? 'n' : 'm', m.key(x),
             m.name(t1), m.name(t2), m.name(t3));
        return true;
      }
    }
    return false;
  });
}

bool BiswasLiteral::fails_to_see_so_predecessor(std::string* why) const {
  return some_write_pair([&](int x, int t1, int t2) {
    for (int t3 = 0; t3 < m.n; ++t3) {
      if (m.R(t3, x) && SO[t2][t3] && wr(t1, x, t3) && HB[t1][t2]) {
        fail(why, "fails-to-see-so-predecessor occurs for {}, {}, {}, {}", m.key(x),
             m.name(t1), m.name(t2), m.name(t3));
        return true;
      }
    }
    return false;
  });
}

bool BiswasLiteral::inconsistent_commit_order(std::string* why) const {
  for (int x = 0; x < m.nkeys; ++x)
    for (int t1 = 0; t1 < m.n; ++t1) {
      if (!m.W(t1, x)) continue;
      for (int t2 = 0; t2 < m.n; ++t2) {
        if (!m.R(t2, x) || !SO[t1][t2]) continue;
        for (int t3 = 0; t3 < m.n; ++t3) {
          if (!m.W(t3, x) || !wr(t3, x, t2) || SO[t3][t2]) continue;
          for (int t4 = 0; t4 < m.n; ++t4)
            if (m.R(t4, x) && SO[t3][t4] && !SO[t1][t4] && wr(t1, x, t4)) {
              fail(why, "inconsistentCommitOrder occurs for {}, {}, {}, {}, {}", m.key(x),
                   m.name(t1), m.name(t2), m.name(t3), m.name(t4));
              return true;
            }
        }
      }
    }
  return false;
}

bool BiswasLiteral::holds(std::string* why) const {
  if (!well_formed(why)) return false;
  switch (level) {
    case Level::BiswasRC:
      return rc(why);
    case Level::BiswasRA:
    case Level::BiswasCC:
    case Level::BiswasPC:
    case Level::BiswasSER:
    case Level::BiswasUpdateSer:
      return axiom(why);
    case Level::BiswasStrictSER:
      for (int a = 0; a < m.n; ++a)
        for (int b = 0; b < m.n; ++b)
          if (has(m.rt_pred[b], a) && !co(a, b))
            return fail(why, "co does not contain rt: {} committed before {} began", m.name(a), m.name(b));
      return axiom(why);
    case Level::BiswasSI:
      return axiom(why) && conflict(why);
    case Level::PlumeTapRA:
      return !pattern_kl(false, why) && !pattern_kl(true, why);
    case Level::PlumeTapCC:
      return !pattern_kl(false, why) && !pattern_kl(true, why) && !pattern_mn(false, why) &&
             !pattern_mn(true, why);
    case Level::PlumeRA:
      return !pattern_kl(false, why) && !pattern_kl(true, why) &&
             !fails_to_see_so_predecessor(why) && !inconsistent_commit_order(why);
    case Level::DbcopRR:
    case Level::PlumeNoNonRepeatableRead:
      return !non_repeatable_read(why);
    case Level::PlumeNoNonMonotonicRead:
      return !non_monotonic_read(why);
    case Level::PlumeNoFracturedRead:
      return !fractured_read(why);
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------
// Cerone et al.

CeroneLiteral::CeroneLiteral(const Model& model, Level l, const std::vector<int>& p,
                             const std::vector<Mask>& vis)
    : m(model), level(l), pos(p), vis_pred(vis), order(sequence(p)) {}

bool CeroneLiteral::well_formed(std::string* why) const {
  if (pos[0] != 0) return fail(why, "T0 is not first in ar");
  for (int a = 0; a < m.n; ++a) {
    for (int b = 0; b < m.n; ++b) {
      if (vis(a, b) && !ar(a, b)) {
        return fail(why, "ar does not contain vis: {}, {}", m.name(a), m.name(b));
      }
    }
  }
  for (int t = 1; t < m.n; ++t) {
    if (!vis(0, t)) return fail(why, "T0 is not visible to {}", m.name(t));
  }
  return true;
}

bool CeroneLiteral::ext(std::string* why) const {
  for (int t = 1; t < m.n; ++t) {
    for (const Read& r : m.reads[t]) {
      int best = -1;
      for (int s = 0; s < m.n; ++s) {
        if (vis(s, t) && m.W(s, r.key) && (best < 0 || ar(best, s))) best = s;
      }
      if (best < 0 || !may_read(m, r, best, order)) {
        return fail(why, "EXT fails for {}'s read of {}", m.name(t), m.key(r.key));
      }
    }
    for (const InternalListRead& r : m.internal_lists[t]) {
      if (!internal_read_ok(m, t, r, order)) {
        return fail(why, "{}'s read of {} {} is not the versions before it and its own appends",
                    m.name(t), m.key(r.key), m.list_text(*r.list));
      }
    }
  }
  return true;
}

bool CeroneLiteral::session(std::string* why) const {
  for (int a = 0; a < m.n; ++a) {
    for (int b = 0; b < m.n; ++b) {
      if (m.so(a, b) && !vis(a, b)) {
        return fail(why, "SESSION fails for {}, {}", m.name(a), m.name(b));
      }
    }
  }
  return true;
}

template <class R>
bool CeroneLiteral::composed_with_vis_within_vis(R r, const char* axiom,
                                                 std::string* why) const {
  for (int a = 0; a < m.n; ++a) {
    for (int b = 0; b < m.n; ++b) {
      if (!r(a, b)) continue;
      for (int c = 0; c < m.n; ++c) {
        if (vis(b, c) && !vis(a, c)) {
          return fail(why, "{} fails for {}, {}, {}", axiom, m.name(a), m.name(b), m.name(c));
        }
      }
    }
  }
  return true;
}

bool CeroneLiteral::noconflict_ok(std::string* why) const {
  for (int x = 0; x < m.nkeys; ++x) {
    for (int t = 0; t < m.n; ++t) {
      for (int s = 0; s < m.n; ++s) {
        if (t == s || !m.W(t, x) || !m.W(s, x)) continue;
        if (!vis(t, s) && !vis(s, t)) {
          return fail(why, "NOCONFLICT fails for {}, {}, {}", m.key(x), m.name(t), m.name(s));
        }
      }
    }
  }
  return true;
}

bool CeroneLiteral::totalvis_ok(Mask among, std::string* why) const {
  for (int t = 0; t < m.n; ++t) {
    for (int s = 0; s < m.n; ++s) {
      if (t == s || !has(among, t) || !has(among, s)) continue;
      if (!vis(t, s) && !vis(s, t)) {
        return fail(why, "TOTALVIS fails for {}, {}", m.name(t), m.name(s));
      }
    }
  }
  return true;
}

bool CeroneLiteral::no_lost_update(std::string* why) const {
  for (int t = 1; t < m.n; ++t) {
    for (int x = 0; x < m.nkeys; ++x) {
      if (!m.W(t, x)) continue;
      int best = -1;
      for (int s = 0; s < m.n; ++s) {
        if (ar(s, t) && m.W(s, x) && (best < 0 || ar(best, s))) best = s;
      }
      // With T0 not writing x, the first writer of x has nothing to lose.
      if (best >= 0 && !vis(best, t)) {
        return fail(why, "lost update of {} by {}: {} is not visible", m.key(x), m.name(t),
                    m.name(best));
      }
    }
  }
  return true;
}

bool CeroneLiteral::holds(std::string* why) const {
  if (!well_formed(why) || !ext(why) || !session(why)) return false;
  const auto transvis = [this](int a, int b) { return vis(a, b); };
  const auto prefix = [this](int a, int b) { return ar(a, b); };
  switch (level) {
    case Level::CeroneRA:
      return true;
    case Level::CeroneCC:
      return composed_with_vis_within_vis(transvis, "TRANSVIS", why);
    case Level::CeroneUA:
      return noconflict_ok(why);
    case Level::CeronePSI:
      return composed_with_vis_within_vis(transvis, "TRANSVIS", why) && noconflict_ok(why);
    case Level::CeronePC:
      return composed_with_vis_within_vis(prefix, "PREFIX", why);
    case Level::CeroneSI:
      return composed_with_vis_within_vis(prefix, "PREFIX", why) && noconflict_ok(why);
    case Level::CeroneSER:
      return totalvis_ok(m.all, why);
    case Level::CeroneUpdateSer:
      return totalvis_ok(m.update | bit(0), why);
    case Level::CeroneNLU:
      return no_lost_update(why);
    case Level::CeroneTimestampSI:
      return timestamps_ok(why) && composed_with_vis_within_vis(prefix, "PREFIX", why) &&
             noconflict_ok(why);
    case Level::CeroneTimestampSER:
      return timestamps_ok(why) && totalvis_ok(m.all, why);
    case Level::ViperAdyaSI:
    case Level::ViperGSI:
    case Level::ViperStrongSessionSI:
    case Level::ViperStrongSI:
      return composed_with_vis_within_vis(prefix, "PREFIX", why) && noconflict_ok(why) &&
             real_time_ok(why);
    default:
      return false;
  }
}

bool CeroneLiteral::timestamps_ok(std::string* why) const {
  for (int a = 0; a < m.n; ++a)
    for (int b = 0; b < m.n; ++b) {
      if (vis(a, b) != has(m.ts_vis_pred[b], a))
        return fail(why, "vis differs from the timestamps' at {}, {}", m.name(a), m.name(b));
      if (has(m.ts_ar_pred[b], a) && !ar(a, b))
        return fail(why, "ar orders {} after {} against their commit timestamps", m.name(a),
                    m.name(b));
    }
  return true;
}

// The SI variants' real-time conditions (specs/viper.lua): GSI's and Strong
// Session SI's rt_cc ⊆ ar and no vis against rt_bc; Strong SI's rt ⊆ vis
// too. Session order is in the model only for the levels that have it.
bool CeroneLiteral::real_time_ok(std::string* why) const {
  if (level == Level::ViperAdyaSI) return true;
  for (int a = 0; a < m.n; ++a)
    for (int b = 0; b < m.n; ++b) {
      if (has(m.rtcc_pred[b], a) && !ar(a, b))
        return fail(why, "{} committed before {} in real time but not in ar", m.name(a), m.name(b));
      if (has(m.rtbc_succ[a], b) && vis(b, a))
        return fail(why, "{} sees {}, which committed after {} began", m.name(a), m.name(b),
                    m.name(a));
      if (level == Level::ViperStrongSI && has(m.rt_pred[b], a) && !vis(a, b))
        return fail(why, "{} committed before {} began but is not in its snapshot", m.name(a),
                    m.name(b));
    }
  return true;
}

// ---------------------------------------------------------------------------
// Adya.

bool AdyaLiteral::well_formed(std::string* why) const {
  if (static_cast<int>(ww_.size()) != m.nkeys) return fail(why, "ww does not give every key");
  for (int x = 0; x < m.nkeys; ++x) {
    Mask seen = 0;
    for (int t : ww_[x]) {
      if (t < 0 || t >= m.n || !has(m.writers[x], t) || has(seen, t)) {
        return fail(why, "ww({}) is not an order of the writers of {}", m.key(x), m.key(x));
      }
      seen |= bit(t);
    }
    if (seen != m.writers[x]) {
      return fail(why, "ww({}) is not an order of the writers of {}", m.key(x), m.key(x));
    }
    if (m.W(0, x) && ww_[x].front() != 0) return fail(why, "T0 is not first in ww({})", m.key(x));
  }
  for (const DirtyListRead& r : m.dirty_lists)
    if (!prefix_of_versions(m, r.key, ww_[r.key], r.list))
      return fail(why, "{}: its list without dirty elements is no prefix of the appends in ww({})",
                  r.text, m.key(r.key));
  return reads_ok(m, [this](int x) { return std::span<const int>(ww_[x]); }, wrsrc, why);
}

bool AdyaLiteral::holds(std::string* why) const {
  if (!well_formed(why)) return false;
  const int n = m.n;
  // ww: every pair in each key's version order; wr: the read-from choices,
  // projected on transactions; rw(x) = {(s, t) | some read event of x in s
  // reads from u, (u, t) in ww(x), s != t}.
  Rel ww = empty_rel(n), wr = empty_rel(n), rw = empty_rel(n), rw_item = empty_rel(n);
  for (int x = 0; x < m.nkeys; ++x) {
    for (std::size_t i = 0; i < ww_[x].size(); ++i) {
      for (std::size_t j = i + 1; j < ww_[x].size(); ++j) ww[ww_[x][i]][ww_[x][j]] = 1;
    }
  }
  for (int s = 1; s < n; ++s) {
    for (std::size_t i = 0; i < m.reads[s].size(); ++i) {
      const int x = m.reads[s][i].key;
      const int u = wrsrc[s][i];
      wr[u][s] = 1;
      const auto& seq = ww_[x];
      for (auto it = std::find(seq.begin(), seq.end(), u); it != seq.end(); ++it) {
        if (*it != u && *it != s) {
          rw[s][*it] = 1;
          if (!m.reads[s][i].predicate) rw_item[s][*it] = 1;
        }
      }
    }
  }
  // The relation whose cycles the level forbids, and the phenomenon's name.
  Rel g = ww;
  const char* phenomenon = "G0";
  if (level != Level::AdyaPL1) {
    phenomenon = "G1c";
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) g[a][b] |= wr[a][b];
    }
  }
  if (level == Level::AdyaPL299 || level == Level::AdyaPL3) {
    phenomenon = level == Level::AdyaPL3 && m.has_predicates ? "G2" : "G2-item";
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) g[a][b] |= rw[a][b];
    }
  }
  if (level == Level::AdyaPL299) {
    // G2-item: a cycle through an item anti-dependency (its other edges of
    // any kind); no G1c is checked below, on ww ∪ wr.
    const Rel c = closure(g);
    for (int s = 0; s < n; ++s)
      for (int t = 0; t < n; ++t)
        if (rw_item[s][t] && (c[t][s] || t == s))
          return fail(why, "G2-item: {} -rw-> {} closes a cycle", m.name(s), m.name(t));
    g = ww;
    phenomenon = "G1c";
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) g[a][b] |= wr[a][b];
  }
  if (level == Level::AdyaPLSI) {
    // (ww ∪ wr) ; rw?  (VeriStrong Thm A.2, without session order)
    phenomenon = "G-SI";
    const Rel d = g;
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) {
        if (!d[a][b]) continue;
        for (int c = 0; c < n; ++c) g[a][c] |= rw[b][c];
      }
    }
  }
  const Rel c = closure(g);
  for (int t = 0; t < n; ++t) {
    if (c[t][t]) return fail(why, "{}: cycle {}", phenomenon, names(m, find_cycle(g)));
  }
  if (level == Level::AdyaPLCS) {
    // G-cursor(x): ∃ t1 ≠ t2: rw(x)(t1, t2) ∧ (t2, t1) ∈ ww(x), with
    // rw(x)(t1, t2) = ∃u. wr(u, x, t1) ∧ (u, t2) ∈ ww(x).
    for (int x = 0; x < m.nkeys; ++x) {
      const auto& seq = ww_[x];
      const auto wwx = [&seq](int a, int b) {
        const auto ia = std::find(seq.begin(), seq.end(), a);
        const auto ib = std::find(seq.begin(), seq.end(), b);
        return ia != seq.end() && ib != seq.end() && ia < ib;
      };
      for (int t1 = 0; t1 < n; ++t1) {
        for (int t2 = 0; t2 < n; ++t2) {
          if (t1 == t2 || !wwx(t2, t1)) continue;
          for (const int i : m.reads_of[t1][x]) {
            const int u = wrsrc[t1][i];
            if (wwx(u, t2)) {
              return fail(why, "G-cursor({}): {} read {} from {}, which {} overwrote before {}",
                          m.key(x), m.name(t1), m.key(x), m.name(u), m.name(t2), m.name(t1));
            }
          }
        }
      }
    }
  }
  return true;
}

}  // namespace iso::brute::detail
