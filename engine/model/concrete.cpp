#include "engine/model/concrete.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "engine/model/schema.hpp"
#include "engine/util/budget.hpp"

namespace iso::model {

using namespace logic;

std::vector<std::vector<Atom>> all_tuples(const Universe& u, const Type& t) {
  std::vector<std::vector<Atom>> out{{}};
  for (SortId s : t) {
    std::vector<std::vector<Atom>> next;
    Atom first = s == kAnySort ? 0 : u.first(s);
    std::uint32_t count = s == kAnySort ? u.size() : u.count(s);
    for (const auto& prefix : out)
      for (std::uint32_t i = 0; i < count; ++i) {
        budget::poll();  // a relation of high arity has many tuples
        auto tuple = prefix;
        tuple.push_back(first + i);
        next.push_back(std::move(tuple));
      }
    out = std::move(next);
  }
  return out;
}

ConcreteInstance concrete_instance(const AbstractHistory& h, Circuit& c) {
  const History& hist = *h.history;
  std::vector<std::string> txn_names, key_names, value_names, read_names;
  std::vector<std::pair<TxnId, std::uint32_t>> read_of_atom;
  for (TxnId t : h.txns) {
    txn_names.push_back(hist.txn(t).name);
    for (std::uint32_t i = 0; i < h.abs[t].reads.size(); ++i) {
      // "T3.2": the read at operation 2 of T3 (counted from 1).
      read_names.push_back(fmt::format("{}.{}", hist.txn(t).name, h.abs[t].reads[i].op + 1));
      read_of_atom.emplace_back(t, i);
    }
  }
  for (KeyId k = 0; k < hist.keys().size(); ++k) key_names.push_back(hist.key_text(k));
  for (ValueId v = 0; v < hist.values().size(); ++v) value_names.push_back(hist.value_text(v));
  // With predicate reads, T0's version of a key the initial state does not
  // write is the unborn one (abstract.hpp, kUnborn): a value of its own.
  bool unborn = false;
  for (const FinalWrite& w : h.abs[kInitTxn].writes) unborn = unborn || w.value == kUnborn;
  if (unborn) value_names.push_back("(unborn)");

  ConcreteInstance inst{Universe({txn_names, key_names, value_names, read_names}),
                        {}, {}, std::move(read_of_atom), {}, kTrue};
  const Universe& u = inst.universe;
  const std::uint32_t n = u.size();
  inst.txn_of_atom = h.txns;
  inst.atom_of_txn.assign(hist.num_txns(), UINT32_MAX);
  for (std::uint32_t i = 0; i < h.txns.size(); ++i) inst.atom_of_txn[h.txns[i]] = u.atom(kTxn, i);
  auto T = [&](TxnId t) { return inst.atom_of_txn[t]; };
  auto K = [&](KeyId k) { return u.atom(kObj, k); };
  auto V = [&](ValueId v) {
    return u.atom(kVal, v == kUnborn ? static_cast<std::uint32_t>(hist.values().size()) : v);
  };

  const HistorySchema& s = history_schema();
  std::vector<std::vector<Atom>> reads, so, rtxn, rkey, rval, po, rf_certain, rf_upper;
  Atom first_read = u.first(kRead);
  // A predicate write's guarded write of a key (abstract.hpp, GuardedWrite)
  // is in `writes` exactly when its truth, a free input, holds.
  std::vector<BLit> guard(h.guarded.size());
  for (BLit& g : guard) g = c.input();
  std::vector<std::pair<Index, BLit>> write_cells;
  for (TxnId t : h.txns) {
    for (const auto& w : h.abs[t].writes)
      write_cells.emplace_back(tuple_index(n, {T(t), K(w.key), V(w.value)}),
                               w.guard == kNoGuard ? kTrue : guard[w.guard]);
    for (TxnId b : h.so[t]) so.push_back({T(t), T(b)});
  }
  for (std::uint32_t i = 0; i < inst.read_of_atom.size(); ++i) {
    const auto [t, j] = inst.read_of_atom[i];
    const ExternalRead& r = h.abs[t].reads[j];
    const Atom a = first_read + i;
    // An invisible predicate read returns the value of whichever candidate
    // it reads from: bound with the read-from below.
    if (r.value != kInvisible) {
      reads.push_back({T(t), K(r.key), V(r.value)});
      rval.push_back({a, V(r.value)});
    }
    rtxn.push_back({a, T(t)});
    rkey.push_back({a, K(r.key)});
    const auto& cands = h.candidates[t][j];
    if (cands.size() == 1) rf_certain.push_back({T(cands[0]), a});
    for (TxnId w : cands) rf_upper.push_back({T(w), a});
    // Program order: the earlier reads of the same transaction. Its read
    // atoms are contiguous. The read events of one predicate read (or
    // write) are one operation's: none precedes another.
    for (std::uint32_t e = i; e-- > 0 && inst.read_of_atom[e].first == t;) {
      const ExternalRead& other = h.abs[t].reads[inst.read_of_atom[e].second];
      if (other.op < r.op) po.push_back({first_read + e, a});
      else if (other.op > r.op) po.push_back({a, first_read + e});
    }
  }
  inst.bindings.bind(s.writes, make_matrix(c, 3, std::move(write_cells)));
  inst.bindings.bind(s.so, constant_matrix(n, 2, so));
  inst.bindings.bind(s.t0, constant_matrix(n, 1, {{T(kInitTxn)}}));
  inst.bindings.bind(s.rtxn, constant_matrix(n, 2, rtxn));
  inst.bindings.bind(s.rkey, constant_matrix(n, 2, rkey));
  inst.bindings.bind(s.po, constant_matrix(n, 2, po));
  // Known version orders, transitively closed: each writer of a chain
  // precedes the later ones and every other writer of the key.
  std::vector<std::vector<Atom>> vo;
  for (const KnownOrder& ko : h.known_orders) {
    if (ko.condition != kNoTxn && !h.member[ko.condition]) continue;
    std::vector<TxnId> after(ko.chain.begin(), ko.chain.end());
    for (TxnId t : h.txns)
      if (t != kInitTxn && h.writes(t, ko.key) && !ko.places(t)) after.push_back(t);
    for (std::size_t i = 0; i < ko.chain.size(); ++i)
      for (std::size_t j = i + 1; j < after.size(); ++j)
        vo.push_back({K(ko.key), T(ko.chain[i]), T(after[j])});
  }
  inst.bindings.bind(s.vo, constant_matrix(n, 3, vo));
  // Real-time orders between members, from the history's timestamps.
  using Event = History::Event;
  auto bind_time = [&](const RelationPtr& r, Event ea, Event eb) {
    std::vector<std::vector<Atom>> tuples;
    for (TxnId a : h.txns)
      for (TxnId b : h.txns)
        if (h.history->time_before(a, ea, b, eb)) tuples.push_back({T(a), T(b)});
    inst.bindings.bind(r, constant_matrix(n, 2, tuples));
  };
  bind_time(s.rt, Event::Commit, Event::Begin);
  bind_time(s.rt_cc, Event::Commit, Event::Commit);
  bind_time(s.rt_bc, Event::Begin, Event::Commit);
  // The database's timestamps (Chronos): its snapshots and commit order.
  // A member without them is in neither (decide() refuses such histories
  // for the levels that mention these).
  std::vector<std::vector<Atom>> ts_vis, ts_ar;
  for (TxnId a : h.txns)
    for (TxnId b : h.txns) {
      if (ts_visible(hist, a, b)) ts_vis.push_back({T(a), T(b)});
      if (ts_commit_before(hist, a, b)) ts_ar.push_back({T(a), T(b)});
    }
  inst.bindings.bind(s.ts_vis, constant_matrix(n, 2, ts_vis));
  inst.bindings.bind(s.ts_ar, constant_matrix(n, 2, ts_ar));
  // Aborted and intermediate reads the options set aside (a level that
  // permits them): a read of a write that never became a committed version
  // (a write of unknown status counts as aborted in this choice of members).
  std::vector<std::vector<Atom>> abr, irr;
  for (const UnjustifiedRead& r : h.set_aside) {
    if (r.txn >= inst.atom_of_txn.size() || inst.atom_of_txn[r.txn] == UINT32_MAX) continue;
    const Op& op = hist.txn(r.txn).ops[r.op];
    std::vector<Atom> tuple{T(r.txn), K(op.key), V(op.value)};
    (r.kind == ReadAnomaly::Intermediate ? irr : abr).push_back(std::move(tuple));
  }
  inst.bindings.bind(s.abr, constant_matrix(n, 3, abr));
  inst.bindings.bind(s.irr, constant_matrix(n, 3, irr));
  // Read-from per read event: exactly one writer for each read with several
  // candidates; wrx is its projection on transactions.
  BoolMatrix rf = variable_matrix(c, n, 2, rf_certain, rf_upper);
  std::vector<BLit> wf;
  std::vector<std::pair<Index, BLit>> wrx, iwrx;
  for (std::uint32_t i = 0; i < inst.read_of_atom.size(); ++i) {
    const auto [t, j] = inst.read_of_atom[i];
    const KeyId key = h.abs[t].reads[j].key;
    const auto& cands = h.candidates[t][j];
    std::vector<BLit> lits;
    for (TxnId w : cands) {
      lits.push_back(rf.at(tuple_index(n, {T(w), first_read + i})));
      wrx.emplace_back(tuple_index(n, {T(w), K(key), T(t)}), lits.back());
      if (item_read(h.abs[t].reads[j]))
        iwrx.emplace_back(tuple_index(n, {T(w), K(key), T(t)}), lits.back());
    }
    // A guarded write is read only if it happened.
    for (std::size_t q = 0; q < cands.size(); ++q)
      if (const std::uint32_t g = h.guard_of(cands[q], key); g != kNoGuard)
        wf.push_back(c.implies(lits[q], guard[g]));
    if (cands.size() < 2) continue;
    wf.push_back(c.or_(lits));
    wf.push_back(c.at_most_one(lits));
  }
  // A guarded write happens exactly when its predicate write's read of the
  // key saw a version that satisfies the predicate (Vbox's truth
  // constraints); a later read of the key in the transaction may say which.
  std::map<std::pair<TxnId, std::uint32_t>, std::uint32_t> atom_of_read;
  for (std::uint32_t i = 0; i < inst.read_of_atom.size(); ++i) atom_of_read[inst.read_of_atom[i]] = i;
  for (std::uint32_t g = 0; g < h.guarded.size(); ++g) {
    const GuardedWrite& gw = h.guarded[g];
    const std::uint32_t e = atom_of_read.at({gw.txn, gw.read});
    for (TxnId w : h.candidates[gw.txn][gw.read]) {
      const bool holds = std::binary_search(gw.satisfying.begin(), gw.satisfying.end(), w);
      wf.push_back(c.implies(rf.at(tuple_index(n, {T(w), first_read + e})), holds ? guard[g] : !guard[g]));
    }
  }
  for (const auto& [g, happened] : h.forced_guards) wf.push_back(happened ? guard[g] : !guard[g]);
  // reads and rval: constant for the reads that returned a value; for an
  // invisible one, the value of the writer it reads from.
  std::map<Index, std::vector<BLit>> read_cells, rval_cells;
  for (const auto& tuple : reads) read_cells[tuple_index(n, tuple)].push_back(kTrue);
  for (const auto& tuple : rval) rval_cells[tuple_index(n, tuple)].push_back(kTrue);
  for (std::uint32_t i = 0; i < inst.read_of_atom.size(); ++i) {
    const auto [t, j] = inst.read_of_atom[i];
    const ExternalRead& r = h.abs[t].reads[j];
    if (r.value != kInvisible) continue;
    for (TxnId w : h.candidates[t][j]) {
      const auto fw = std::find_if(h.abs[w].writes.begin(), h.abs[w].writes.end(),
                                   [&](const FinalWrite& x) { return x.key == r.key; });
      const BLit chosen = rf.at(tuple_index(n, {T(w), first_read + i}));
      read_cells[tuple_index(n, {T(t), K(r.key), V(fw->value)})].push_back(chosen);
      rval_cells[tuple_index(n, {first_read + i, V(fw->value)})].push_back(chosen);
    }
  }
  auto cells_of = [&](std::map<Index, std::vector<BLit>>& m) {
    std::vector<std::pair<Index, BLit>> cells;
    for (auto& [idx, lits] : m) cells.emplace_back(idx, c.or_(lits));
    return cells;
  };
  inst.bindings.bind(s.reads, make_matrix(c, 3, cells_of(read_cells)));
  inst.bindings.bind(s.rval, make_matrix(c, 2, cells_of(rval_cells)));
  inst.bindings.bind(s.rf, std::move(rf));
  inst.bindings.bind(s.wrx, make_matrix(c, 3, std::move(wrx)));
  inst.bindings.bind(s.iwrx, make_matrix(c, 3, std::move(iwrx)));
  inst.wellformed = c.and_(wf);
  return inst;
}

}  // namespace iso::model
