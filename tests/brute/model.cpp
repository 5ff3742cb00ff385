#include "tests/brute/model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <tuple>

#include "engine/history/predicate.hpp"
#include "engine/history/printer.hpp"

namespace iso::brute::detail {
namespace {

constexpr std::array<LevelInfo, 38> kLevels{{
    {"biswas.RC", Level::BiswasRC, Framework::Biswas},
    {"biswas.RA", Level::BiswasRA, Framework::Biswas},
    {"biswas.CC", Level::BiswasCC, Framework::Biswas},
    {"biswas.PC", Level::BiswasPC, Framework::Biswas},
    {"biswas.SI", Level::BiswasSI, Framework::Biswas},
    {"biswas.SER", Level::BiswasSER, Framework::Biswas},
    {"biswas.StrictSER", Level::BiswasStrictSER, Framework::Biswas, true},
    {"biswas.UpdateSer", Level::BiswasUpdateSer, Framework::Biswas},
    {"dbcop.RR", Level::DbcopRR, Framework::Biswas},
    {"cerone.RA", Level::CeroneRA, Framework::Cerone},
    {"cerone.CC", Level::CeroneCC, Framework::Cerone},
    {"cerone.UA", Level::CeroneUA, Framework::Cerone},
    {"cerone.PSI", Level::CeronePSI, Framework::Cerone},
    {"cerone.PC", Level::CeronePC, Framework::Cerone},
    {"cerone.SI", Level::CeroneSI, Framework::Cerone},
    {"cerone.SER", Level::CeroneSER, Framework::Cerone},
    {"cerone.UpdateSer", Level::CeroneUpdateSer, Framework::Cerone},
    {"cerone.NLU", Level::CeroneNLU, Framework::Cerone},
    {"cerone.TimestampSI", Level::CeroneTimestampSI, Framework::Cerone, true},
    {"cerone.TimestampSER", Level::CeroneTimestampSER, Framework::Cerone, true},
    // Viper's framework has Cerone's witness (vis, ar), without SESSION.
    {"viper.AdyaSI", Level::ViperAdyaSI, Framework::Cerone, true},
    {"viper.GSI", Level::ViperGSI, Framework::Cerone, true},
    {"viper.StrongSessionSI", Level::ViperStrongSessionSI, Framework::Cerone, true},
    {"viper.StrongSI", Level::ViperStrongSI, Framework::Cerone, true},
    {"plume.TapRA", Level::PlumeTapRA, Framework::Plume},
    {"plume.TapCC", Level::PlumeTapCC, Framework::Plume},
    {"plume.RA", Level::PlumeRA, Framework::Plume},
    {"plume.NoNonRepeatableRead", Level::PlumeNoNonRepeatableRead, Framework::Plume},
    {"plume.NoNonMonotonicRead", Level::PlumeNoNonMonotonicRead, Framework::Plume},
    {"plume.NoFracturedRead", Level::PlumeNoFracturedRead, Framework::Plume},
    {"adya.PL-1", Level::AdyaPL1, Framework::Adya},
    {"adya.PL-2", Level::AdyaPL2, Framework::Adya},
    {"adya.PL-CS", Level::AdyaPLCS, Framework::Adya},
    {"adya.PL-2.99", Level::AdyaPL299, Framework::Adya},
    {"adya.PL-SI", Level::AdyaPLSI, Framework::Adya},
    {"adya.SI", Level::AdyaPLSI, Framework::Adya},
    {"adya.PL-3", Level::AdyaPL3, Framework::Adya},
    {"adya.SER", Level::AdyaPL3, Framework::Adya},
}};

Model inconsistent(Model m, std::string why) {
  m.consistent = false;
  m.inconsistency = std::move(why);
  return m;
}

// Consumes `a` from `l` at `at` (a is the next stretch of l) if it fits
// before `limit`.
bool consume(const List& a, const List& l, std::size_t& at, std::size_t limit) {
  if (at + a.size() > limit) return false;
  if (!std::equal(a.begin(), a.end(), l.begin() + static_cast<std::ptrdiff_t>(at))) return false;
  at += a.size();
  return true;
}

}  // namespace

std::span<const LevelInfo> level_table() { return kLevels; }

const LevelInfo& lookup(std::string_view name) {
  for (const auto& info : kLevels) {
    if (info.name == name) return info;
  }
  throw std::invalid_argument(fmt::format("unknown isolation level '{}'", name));
}

const std::string& Model::name(int t) const { return ah->history->txn(ids[t]).name; }

std::string Model::key(int x) const { return ah->history->key_text(static_cast<KeyId>(x)); }

std::string Model::list_text(const List& l) const {
  std::string out = "[";
  for (std::size_t i = 0; i < l.size(); ++i) {
    if (i > 0) out += ' ';
    out += ah->history->value_text(l[i]);
  }
  return out + "]";
}

std::string Model::op_text(TxnId t, std::uint32_t op) const {
  const History& h = *ah->history;
  const Op& o = h.txn(t).ops[op];
  const std::string text =
      o.list == kNoList ? format_op(h, o)
                        : fmt::format("r({},{})", h.key_text(o.key), list_text(h.lists()[o.list]));
  return fmt::format("{}: {}", h.txn(t).name, text);
}

namespace {

// Is t's register read `op` of (x, v), which no member's final write
// explains, a read of an aborted transaction's write (G1a) or of another
// transaction's non-final write (G1b)? Aborted: not a member and not
// committed.
bool dirty_read(const AbstractHistory& ah, TxnId t, const Op& op) {
  const History& h = *ah.history;
  for (TxnId s = 1; s < h.num_txns(); ++s) {
    if (s == t) continue;
    const auto& ops = h.txn(s).ops;
    const bool aborted = !ah.member[s] && h.txn(s).status != TxnStatus::Committed;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].kind != OpKind::Write || ops[i].key != op.key || ops[i].value != op.value) {
        continue;
      }
      const bool final_write = std::none_of(ops.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                            ops.end(), [&](const Op& later) {
                                              return later.kind == OpKind::Write &&
                                                     later.key == op.key;
                                            });
      if (aborted || !final_write) return true;
    }
  }
  return false;
}

}  // namespace

std::vector<PredicateWriteSlot> predicate_write_slots(const AbstractHistory& ah) {
  const History& h = *ah.history;
  std::vector<PredicateWriteSlot> out;
  for (TxnId t : ah.txns) {
    if (t == kInitTxn) continue;
    const auto& ops = h.txn(t).ops;
    for (std::uint32_t i = 0; i < ops.size(); ++i) {
      if (ops[i].kind != OpKind::PredicateWrite) continue;
      const Predicate p = *parse_predicate(h.predicate_reads()[ops[i].predicate].predicate);
      for (KeyId k = 0; k < h.keys().size(); ++k)
        if (p.covers(h.keys()[k])) out.push_back(PredicateWriteSlot{t, i, k});
    }
  }
  return out;
}

Model build_model(const AbstractHistory& ah, bool ignore_sessions, bool set_aside_dirty,
                  const std::vector<bool>& truths) {
  Model m;
  m.ah = &ah;
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
  m.local.assign(h.num_txns(), -1);
  for (int i = 0; i < m.n; ++i) m.local[m.ids[i]] = i;

  m.w.assign(m.n, std::vector<std::optional<ValueId>>(m.nkeys));
  m.wkeys.assign(m.n, {});
  m.appends.assign(m.n, std::vector<List>(m.nkeys));
  m.reads.assign(m.n, {});
  m.reads_of.assign(m.n, std::vector<std::vector<int>>(m.nkeys));
  m.internal_lists.assign(m.n, {});
  m.so_pred.assign(m.n, 0);
  using Event = History::Event;
  m.rt_pred.assign(m.n, 0);
  m.rtcc_pred.assign(m.n, 0);
  m.rtbc_succ.assign(m.n, 0);
  m.ts_vis_pred.assign(m.n, 0);
  m.ts_ar_pred.assign(m.n, 0);
  for (int a = 0; a < m.n; ++a)
    for (int b = 0; b < m.n; ++b) {
      const TxnId ia = m.ids[a], ib = m.ids[b];
      if (h.time_before(ia, Event::Commit, ib, Event::Begin)) m.rt_pred[b] |= bit(a);
      if (h.time_before(ia, Event::Commit, ib, Event::Commit)) m.rtcc_pred[b] |= bit(a);
      if (h.time_before(ia, Event::Begin, ib, Event::Commit)) m.rtbc_succ[a] |= bit(b);
      if (ts_visible(h, ia, ib)) m.ts_vis_pred[b] |= bit(a);
      if (ts_commit_before(h, ia, ib)) m.ts_ar_pred[b] |= bit(a);
    }
  m.writers.assign(m.nkeys, 0);
  m.all = bit(m.n) - 1;

  // T0 writes the initial value of the keys it initialises; its version of
  // a list is the empty list. With predicate reads, a key it does not write
  // has an unborn version (T0's), which no read returns and no predicate
  // holds of.
  for (int x = 0; x < m.nkeys; ++x) {
    if (h.t0_writes(static_cast<KeyId>(x))) m.w[0][x] = h.init_value(static_cast<KeyId>(x));
    else if (!h.predicate_reads().empty()) m.w[0][x] = kUnborn;
  }
  // The truth of each predicate write's evaluation of a key, by slot.
  std::map<std::tuple<TxnId, std::uint32_t, KeyId>, bool> truth;
  {
    const auto slots = predicate_write_slots(ah);
    for (std::size_t i = 0; i < slots.size(); ++i)
      truth[{slots[i].txn, slots[i].op, slots[i].key}] = i < truths.size() && truths[i];
  }
  auto true_at = [&](TxnId t, std::uint32_t i, int x) {
    auto it = truth.find({t, i, static_cast<KeyId>(x)});
    return it != truth.end() && it->second;
  };
  // Writes: final writes and appends in program order (a predicate write's
  // where it is true).
  for (int t = 1; t < m.n; ++t) {
    const auto& ops = h.txn(m.ids[t]).ops;
    for (std::uint32_t i = 0; i < ops.size(); ++i) {
      const Op& op = ops[i];
      if (op.kind == OpKind::PredicateWrite) {
        for (int x = 0; x < m.nkeys; ++x)
          if (true_at(m.ids[t], i, x)) {
            m.w[t][x] = op.value;
            m.appends[t][x].push_back(op.value);
          }
        continue;
      }
      if (op.kind != OpKind::Write) continue;
      m.w[t][op.key] = op.value;
      m.appends[t][op.key].push_back(op.value);
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

  // Reads, in program order. Before t's own write of x, each read of x is a
  // read event; after it, a register read must return t's last write (INT)
  // and a list read is an internal list read.
  for (int t = 1; t < m.n; ++t) {
    const TxnId id = m.ids[t];
    const auto& ops = h.txn(id).ops;
    std::vector<int> last_write(m.nkeys, -1);  // t's last write of x so far
    std::vector<std::size_t> own(m.nkeys, 0);  // t's appends so far
    for (std::uint32_t i = 0; i < ops.size(); ++i) {
      const Op& op = ops[i];
      if (op.kind == OpKind::PredicateRead) {
        // A read event of every key the predicate covers: of the value
        // returned, or, left out, of a version the predicate rejects.
        const PredicateRead& pr = h.predicate_reads()[op.predicate];
        const Predicate p = *parse_predicate(pr.predicate);
        for (int x = 0; x < m.nkeys; ++x) {
          const Key& key = h.keys()[static_cast<KeyId>(x)];
          const auto got = std::find_if(pr.result.begin(), pr.result.end(),
                                        [&](const auto& kv) { return kv.first == static_cast<KeyId>(x); });
          if (got != pr.result.end() && !p.holds(key, h.values()[got->second]))
            return inconsistent(std::move(m), fmt::format("{} returns a value its predicate rejects", m.op_text(id, i)));
          if (!p.covers(key)) continue;
          auto rejects = [&](ValueId v) { return v == kUnborn || !p.holds(key, h.values()[v]); };
          if (own[x] > 0) {
            const ValueId mine = ops[static_cast<std::size_t>(last_write[x])].value;
            const bool ok = got != pr.result.end() ? got->second == mine : rejects(mine);
            if (!ok) return inconsistent(std::move(m), fmt::format("{} misreads its own write", m.op_text(id, i)));
            continue;
          }
          // A key returned is read as an item as well (Adya: a predicate
          // read is followed by item reads of what it returns): its
          // overwrite is an item anti-dependency. A key left out is a
          // predicate read only.
          const bool returned = got != pr.result.end();
          Read r{x, returned ? got->second : kInvisible, i, {}, nullptr, !returned};
          for (int s = 0; s < m.n; ++s) {
            if (s == t || !m.W(s, x)) continue;
            const ValueId v = *m.w[s][x];
            if (got != pr.result.end() ? v == got->second : rejects(v)) r.cands.push_back(s);
          }
          if (r.cands.empty())
            return inconsistent(std::move(m), fmt::format("{} has no version of {} to read", m.op_text(id, i), m.key(x)));
          m.reads[t].push_back(std::move(r));
        }
        continue;
      }
      if (op.kind == OpKind::PredicateWrite) {
        // Per covered key, an evaluation whose truth is given: after the
        // transaction's own write, of that write; else a read event of a
        // version with that truth. True: a write of the key.
        const Predicate p = *parse_predicate(h.predicate_reads()[op.predicate].predicate);
        for (int x = 0; x < m.nkeys; ++x) {
          const Key& key = h.keys()[static_cast<KeyId>(x)];
          if (!p.covers(key)) continue;
          const bool tau = true_at(id, i, x);
          auto satisfies = [&](ValueId v) { return v != kUnborn && p.holds(key, h.values()[v]); };
          if (own[x] > 0) {
            if (satisfies(ops[static_cast<std::size_t>(last_write[x])].value) != tau)
              return inconsistent(std::move(m), fmt::format("{} evaluates its own write of {} otherwise",
                                                            m.op_text(id, i), m.key(x)));
          } else {
            Read r{x, kInvisible, i, {}, nullptr, true};
            for (int s = 0; s < m.n; ++s)
              if (s != t && m.W(s, x) && satisfies(*m.w[s][x]) == tau) r.cands.push_back(s);
            if (r.cands.empty())
              return inconsistent(std::move(m), fmt::format("{} has no version of {} to evaluate",
                                                            m.op_text(id, i), m.key(x)));
            m.reads[t].push_back(std::move(r));
          }
          if (tau) {
            ++own[x];
            last_write[x] = static_cast<int>(i);
          }
        }
        continue;
      }
      const int x = static_cast<int>(op.key);
      const List* list = op.list == kNoList ? nullptr : &h.lists()[op.list];
      if (op.kind == OpKind::Write) {
        ++own[x];
        last_write[x] = static_cast<int>(i);
        continue;
      }
      // PL-1: an element only transactions that did not commit appended
      // is dirty, no version (DirtyListRead).
      auto appended_by = [&](TxnId s, ValueId v) {
        const auto& sops = h.txn(s).ops;
        return std::any_of(sops.begin(), sops.end(), [&](const Op& w) {
          return w.kind == OpKind::Write && w.key == op.key && w.value == v;
        });
      };
      auto dirty = [&](ValueId v) {
        bool by_member = false, by_aborted = false;
        for (TxnId s = 1; s < h.num_txns(); ++s) {
          if (!appended_by(s, v)) continue;
          if (ah.member[s]) by_member = true;
          else if (h.txn(s).status != TxnStatus::Committed) by_aborted = true;
        }
        return by_aborted && !by_member;
      };
      List kept;
      if (list && set_aside_dirty)
        for (ValueId v : *list)
          if (!dirty(v)) kept.push_back(v);
      const bool has_dirty = list && set_aside_dirty && kept.size() != list->size();
      if (own[x] > 0) {
        if (list) {
          m.internal_lists[t].push_back(InternalListRead{x, list, own[x], std::nullopt});
          if (has_dirty) m.internal_lists[t].back().clean = std::move(kept);
        } else if (op.value != ops[static_cast<std::size_t>(last_write[x])].value) {
          return inconsistent(
              std::move(m),
              fmt::format("{} does not return its own earlier write {}", m.op_text(id, i),
                          format_op(h, ops[static_cast<std::size_t>(last_write[x])])));
        }
        continue;
      }
      Read r{x, op.value, i, {}, list, false};
      if (list && set_aside_dirty) {
        // PL-1: a list with a dirty element, or with no writer whose
        // version it is, is a dirty read.
        bool fits = false;
        for (int s = 1; s < m.n && !fits; ++s)
          fits = s != t && m.W(s, x) && !list->empty() && *m.w[s][x] == list->back();
        if (has_dirty || (!list->empty() && !fits)) {
          m.dirty_lists.push_back(DirtyListRead{x, std::move(kept), m.op_text(id, i)});
          m.has_lists = true;
          continue;
        }
      }
      for (int s = 0; s < m.n; ++s) {
        if (s == t || !m.W(s, x)) continue;
        // The version a writer installs ends with its last append (T0's is
        // empty), so only these writers can install a list; the witness's
        // version order decides whether one does.
        const bool fits = !list               ? *m.w[s][x] == op.value
                          : list->empty()     ? s == 0
                                              : s != 0 && *m.w[s][x] == list->back();
        if (fits) r.cands.push_back(s);
      }
      if (r.cands.empty()) {
        // Set aside at PL-1: no read event, no dependency.
        if (set_aside_dirty && !list && dirty_read(ah, id, op)) continue;
        return inconsistent(std::move(m),
                            fmt::format("{} has no writer to read from", m.op_text(id, i)));
      }
      if (list) m.has_lists = true;
      m.reads[t].push_back(std::move(r));
    }
    // By key, then in program order.
    std::stable_sort(m.reads[t].begin(), m.reads[t].end(),
                     [](const Read& a, const Read& b) { return a.key < b.key; });
    for (std::size_t i = 0; i < m.reads[t].size(); ++i) {
      m.reads_of[t][m.reads[t][i].key].push_back(static_cast<int>(i));
    }
    if (!m.internal_lists[t].empty()) m.has_lists = true;
    for (const Read& r : m.reads[t]) m.has_predicates = m.has_predicates || r.predicate;
  }

  if (!ignore_sessions) {
    for (int a = 0; a < m.n; ++a) {
      const TxnId id = m.ids[a];
      for (TxnId b : ah.so.after(id)) {
        if (b < m.local.size() && m.local[b] >= 0 && m.local[b] != a) {
          m.so_pred[m.local[b]] |= bit(a);
        }
      }
    }
  }
  // t0 before everyone; the rest is closed already (session_order.hpp).
  for (int t = 1; t < m.n; ++t) m.so_pred[t] |= bit(0);
  return m;
}

bool installs(const Model& m, int x, std::span<const int> seq, int w, const List& list) {
  std::size_t at = 0;
  for (int v : seq) {
    if (!has(m.writers[x], v)) continue;
    if (!consume(m.appends[v][x], list, at, list.size())) return false;
    if (v == w) return at == list.size();
  }
  return false;
}

bool prefix_of_versions(const Model& m, int x, std::span<const int> seq, const List& list) {
  std::size_t at = 0;
  for (int v : seq) {
    if (at == list.size()) return true;
    if (!has(m.writers[x], v)) continue;
    const List& a = m.appends[v][x];
    const std::size_t n = std::min(a.size(), list.size() - at);
    if (!std::equal(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n),
                    list.begin() + static_cast<std::ptrdiff_t>(at)))
      return false;
    at += n;
  }
  return at == list.size();
}

bool internal_read_ok(const Model& m, int t, const InternalListRead& r,
                      std::span<const int> seq) {
  const List& l = r.read();
  const List& mine = m.appends[t][r.key];
  if (l.size() < r.own) return false;
  const std::size_t theirs = l.size() - r.own;
  if (!std::equal(mine.begin(), mine.begin() + static_cast<std::ptrdiff_t>(r.own),
                  l.begin() + static_cast<std::ptrdiff_t>(theirs))) {
    return false;
  }
  std::size_t at = 0;
  for (int v : seq) {
    if (v == t) return at == theirs;
    if (!has(m.writers[r.key], v)) continue;
    if (!consume(m.appends[v][r.key], l, at, theirs)) return false;
  }
  return false;
}

std::vector<std::vector<int>> per_key(const Model& m, std::span<const int> order) {
  std::vector<std::vector<int>> seq(m.nkeys);
  for (int x = 0; x < m.nkeys; ++x) {
    for (int v : order) {
      if (has(m.writers[x], v)) seq[x].push_back(v);
    }
  }
  return seq;
}

}  // namespace iso::brute::detail
