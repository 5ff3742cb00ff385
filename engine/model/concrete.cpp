#include "engine/model/concrete.hpp"

#include <algorithm>

#include "engine/model/schema.hpp"

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
  std::vector<std::string> txn_names, key_names, value_names;
  for (TxnId t : h.txns) txn_names.push_back(hist.txn(t).name);
  for (KeyId k = 0; k < hist.keys().size(); ++k) key_names.push_back(hist.key_text(k));
  for (ValueId v = 0; v < hist.values().size(); ++v) value_names.push_back(hist.value_text(v));

  ConcreteInstance inst{Universe({txn_names, key_names, value_names}), {}, {}, {}, kTrue};
  const Universe& u = inst.universe;
  const std::uint32_t n = u.size();
  inst.txn_of_atom = h.txns;
  inst.atom_of_txn.assign(hist.num_txns(), UINT32_MAX);
  for (std::uint32_t i = 0; i < h.txns.size(); ++i) inst.atom_of_txn[h.txns[i]] = u.atom(kTxn, i);
  auto T = [&](TxnId t) { return inst.atom_of_txn[t]; };
  auto K = [&](KeyId k) { return u.atom(kObj, k); };
  auto V = [&](ValueId v) { return u.atom(kVal, v); };

  const HistorySchema& s = history_schema();
  std::vector<std::vector<Atom>> reads, writes, so, wr_certain, wr_upper;
  std::vector<BLit> exactly_one;
  for (TxnId t : h.txns) {
    for (const auto& w : h.abs[t].writes) writes.push_back({T(t), K(w.key), V(w.value)});
    const auto& rs = h.abs[t].reads;
    for (std::size_t i = 0; i < rs.size(); ++i) {
      reads.push_back({T(t), K(rs[i].key), V(rs[i].value)});
      const auto& cands = h.candidates[t][i];
      if (cands.size() == 1) wr_certain.push_back({T(cands[0]), K(rs[i].key), T(t)});
      for (TxnId w : cands) wr_upper.push_back({T(w), K(rs[i].key), T(t)});
    }
    for (TxnId b : h.so[t]) so.push_back({T(t), T(b)});
  }
  inst.bindings.bind(s.reads, constant_matrix(n, 3, reads));
  inst.bindings.bind(s.writes, constant_matrix(n, 3, writes));
  inst.bindings.bind(s.so, constant_matrix(n, 2, so));
  inst.bindings.bind(s.t0, constant_matrix(n, 1, {{T(kInitTxn)}}));
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
  BoolMatrix wrx = variable_matrix(c, n, 3, wr_certain, wr_upper);
  // Exactly one writer per external read with several candidates.
  std::vector<BLit> wf;
  for (TxnId t : h.txns) {
    const auto& rs = h.abs[t].reads;
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const auto& cands = h.candidates[t][i];
      if (cands.size() < 2) continue;
      std::vector<BLit> lits;
      for (TxnId w : cands) lits.push_back(wrx.at(tuple_index(n, {T(w), K(rs[i].key), T(t)})));
      wf.push_back(c.or_(lits));
      wf.push_back(c.at_most_one(lits));
    }
  }
  inst.bindings.bind(s.wrx, std::move(wrx));
  inst.wellformed = c.and_(wf);
  return inst;
}

}  // namespace iso::model
