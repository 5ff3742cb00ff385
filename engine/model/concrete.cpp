// concrete_instance() (concrete.hpp): the universe from the abstract
// history's members, keys, values and read events, then the schema's base
// relations bound one group at a time (InstanceBuilder: writes and session
// order, read events, known orders, time orders, set-aside reads,
// read-from, read values), the circuit's gates made in a fixed order.
#include "engine/model/concrete.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <span>

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

namespace {

using Tuples = std::vector<std::vector<Atom>>;

// The universe: T0 and the members (in AbstractHistory::txns order), the
// keys, the values (and the unborn version when T0 writes one), and the
// members' read events, named "T3.2" for the read at operation 2 of T3
// (counted from 1). Sets read_of_atom.
Universe make_universe(const AbstractHistory& h, std::vector<std::pair<TxnId, std::uint32_t>>& read_of_atom) {
  const History& hist = *h.history;
  std::vector<std::string> txn_names, key_names, value_names, read_names;
  for (TxnId t : h.txns) {
    txn_names.push_back(hist.txn(t).name);
    for (std::uint32_t i = 0; i < h.abs[t].reads.size(); ++i) {
      read_names.push_back(fmt::format("{}.{}", hist.txn(t).name, h.abs[t].reads[i].op + 1));
      read_of_atom.emplace_back(t, i);
    }
  }
  for (KeyId k = 0; k < hist.keys().size(); ++k) key_names.push_back(hist.key_text(k));
  for (ValueId v = 0; v < hist.values().size(); ++v) value_names.push_back(hist.value_text(v));
  // With predicate reads, T0's version of a key the initial state does not
  // write is the unborn one (abstract.hpp, kUnborn): a value of its own.
  const auto& t0 = h.abs[kInitTxn].writes;
  if (std::any_of(t0.begin(), t0.end(), [](const FinalWrite& w) { return w.value == kUnborn; }))
    value_names.push_back("(unborn)");
  return Universe({txn_names, key_names, value_names, read_names});
}

// Binds the schema's relations one group at a time; each method's comment
// says which relations it binds.
class InstanceBuilder {
 public:
  InstanceBuilder(const AbstractHistory& h, Circuit& c, ConcreteInstance& inst)
      : h_(h), hist_(*h.history), c_(c), inst_(inst), u_(inst.universe), s_(history_schema()),
        n_(u_.size()), first_read_(u_.first(kRead)) {
    inst_.txn_of_atom = h.txns;
    inst_.atom_of_txn.assign(hist_.num_txns(), UINT32_MAX);
    for (std::uint32_t i = 0; i < h.txns.size(); ++i) inst_.atom_of_txn[h.txns[i]] = u_.atom(kTxn, i);
    // A predicate write's guarded write of a key (abstract.hpp, GuardedWrite)
    // is in `writes` exactly when its truth, a free input, holds.
    guard_.resize(h.guarded.size());
    for (BLit& g : guard_) g = c.input();
  }
  void bind_writes_and_session_order();
  void bind_read_events();
  void bind_known_orders();
  void bind_time_orders();
  void bind_set_aside();
  void bind_read_from();
  void bind_read_values();
  void finish();

 private:
  Atom T(TxnId t) const { return inst_.atom_of_txn[t]; }
  Atom K(KeyId k) const { return u_.atom(kObj, k); }
  Atom V(ValueId v) const {
    return u_.atom(kVal, v == kUnborn ? static_cast<std::uint32_t>(hist_.values().size()) : v);
  }
  Atom R(std::uint32_t i) const { return first_read_ + i; }  // the i-th read event
  const ExternalRead& read(std::uint32_t i) const {
    const auto [t, j] = inst_.read_of_atom[i];
    return h_.abs[t].reads[j];
  }
  std::span<const TxnId> candidates(std::uint32_t i) const {
    const auto [t, j] = inst_.read_of_atom[i];
    return h_.candidates[t][j];
  }
  void bind_order(const RelationPtr& r, History::Event ea, History::Event eb);
  void bind_guard_truths();

  const AbstractHistory& h_;
  const History& hist_;
  Circuit& c_;
  ConcreteInstance& inst_;
  const Universe& u_;
  const HistorySchema& s_;
  const std::uint32_t n_;
  const Atom first_read_;
  std::vector<BLit> guard_;
  // Built by bind_read_from(), bound by finish() (bind_read_values reads
  // rf): the circuit's gates are made in the order they always were.
  std::optional<BoolMatrix> rf_;
  std::vector<BLit> wf_;
  std::vector<std::pair<Index, BLit>> wrx_, iwrx_;
};

// writes (a guarded write under its truth), so (the closed session order:
// session_order.hpp), t0.
void InstanceBuilder::bind_writes_and_session_order() {
  std::vector<std::pair<Index, BLit>> write_cells;
  Tuples so;
  for (TxnId t : h_.txns) {
    for (const auto& w : h_.abs[t].writes)
      write_cells.emplace_back(tuple_index(n_, {T(t), K(w.key), V(w.value)}),
                               w.guard == kNoGuard ? kTrue : guard_[w.guard]);
    for (TxnId b : h_.so.after(t)) so.push_back({T(t), T(b)});
  }
  inst_.bindings.bind(s_.writes, make_matrix(c_, 3, std::move(write_cells)));
  inst_.bindings.bind(s_.so, constant_matrix(n_, 2, so));
  inst_.bindings.bind(s_.t0, constant_matrix(n_, 1, {{T(kInitTxn)}}));
}

// rtxn, rkey, po: each read event's transaction and key, and program order
// among the read events of one transaction (its read atoms are contiguous;
// the read events of one predicate read or write are one operation's: none
// precedes another).
void InstanceBuilder::bind_read_events() {
  Tuples rtxn, rkey, po;
  for (std::uint32_t i = 0; i < inst_.read_of_atom.size(); ++i) {
    const TxnId t = inst_.read_of_atom[i].first;
    const ExternalRead& r = read(i);
    rtxn.push_back({R(i), T(t)});
    rkey.push_back({R(i), K(r.key)});
    for (std::uint32_t e = i; e-- > 0 && inst_.read_of_atom[e].first == t;) {
      const ExternalRead& other = read(e);
      if (other.op < r.op) po.push_back({R(e), R(i)});
      else if (other.op > r.op) po.push_back({R(i), R(e)});
    }
  }
  inst_.bindings.bind(s_.rtxn, constant_matrix(n_, 2, rtxn));
  inst_.bindings.bind(s_.rkey, constant_matrix(n_, 2, rkey));
  inst_.bindings.bind(s_.po, constant_matrix(n_, 2, po));
}

// vo: known version orders, transitively closed: each writer of a chain
// precedes the later ones and every other writer of the key.
void InstanceBuilder::bind_known_orders() {
  Tuples vo;
  for (const KnownOrder& ko : h_.known_orders) {
    if (ko.condition != kNoTxn && !h_.member[ko.condition]) continue;
    std::vector<TxnId> after(ko.chain.begin(), ko.chain.end());
    for (TxnId t : h_.txns)
      if (t != kInitTxn && h_.writes(t, ko.key) && !ko.places(t)) after.push_back(t);
    for (std::size_t i = 0; i < ko.chain.size(); ++i)
      for (std::size_t j = i + 1; j < after.size(); ++j)
        vo.push_back({K(ko.key), T(ko.chain[i]), T(after[j])});
  }
  inst_.bindings.bind(s_.vo, constant_matrix(n_, 3, vo));
}

void InstanceBuilder::bind_order(const RelationPtr& r, History::Event ea, History::Event eb) {
  Tuples tuples;
  for (TxnId a : h_.txns)
    for (TxnId b : h_.txns)
      if (hist_.time_before(a, ea, b, eb)) tuples.push_back({T(a), T(b)});
  inst_.bindings.bind(r, constant_matrix(n_, 2, tuples));
}

// The time orders between members (the front end's real-time and timestamp
// orders, functions of the History: docs/design.md §4.1): rt, rt_cc, rt_bc
// from the clients' timestamps (History::time_before); ts_vis and ts_ar from
// the database's (Chronos). A member without them is in none (decide()
// refuses such histories for the levels that mention ts_vis and ts_ar).
void InstanceBuilder::bind_time_orders() {
  using Event = History::Event;
  bind_order(s_.rt, Event::Commit, Event::Begin);
  bind_order(s_.rt_cc, Event::Commit, Event::Commit);
  bind_order(s_.rt_bc, Event::Begin, Event::Commit);
  Tuples ts_vis, ts_ar;
  for (TxnId a : h_.txns)
    for (TxnId b : h_.txns) {
      if (ts_visible(hist_, a, b)) ts_vis.push_back({T(a), T(b)});
      if (ts_commit_before(hist_, a, b)) ts_ar.push_back({T(a), T(b)});
    }
  inst_.bindings.bind(s_.ts_vis, constant_matrix(n_, 2, ts_vis));
  inst_.bindings.bind(s_.ts_ar, constant_matrix(n_, 2, ts_ar));
}

// abr, irr: the aborted and intermediate reads the options set aside (a
// level that permits them): a read of a write that never became a committed
// version (a write of unknown status counts as aborted in this choice of
// members).
void InstanceBuilder::bind_set_aside() {
  Tuples abr, irr;
  for (const UnjustifiedRead& r : h_.set_aside) {
    if (r.txn >= inst_.atom_of_txn.size() || inst_.atom_of_txn[r.txn] == UINT32_MAX) continue;
    const Op& op = hist_.txn(r.txn).ops[r.op];
    (r.kind == ReadAnomaly::Intermediate ? irr : abr).push_back({T(r.txn), K(op.key), V(op.value)});
  }
  inst_.bindings.bind(s_.abr, constant_matrix(n_, 3, abr));
  inst_.bindings.bind(s_.irr, constant_matrix(n_, 3, irr));
}

// rf, wrx, iwrx and the wellformedness constraint: exactly one writer for
// each read with several candidates (certain for a read with one); wrx is
// rf projected on transactions, iwrx its item reads'; a guarded write is
// read only if it happened.
void InstanceBuilder::bind_read_from() {
  Tuples rf_certain, rf_upper;
  for (std::uint32_t i = 0; i < inst_.read_of_atom.size(); ++i) {
    const auto cands = candidates(i);
    if (cands.size() == 1) rf_certain.push_back({T(cands[0]), R(i)});
    for (TxnId w : cands) rf_upper.push_back({T(w), R(i)});
  }
  rf_ = variable_matrix(c_, n_, 2, rf_certain, rf_upper);
  for (std::uint32_t i = 0; i < inst_.read_of_atom.size(); ++i) {
    const TxnId t = inst_.read_of_atom[i].first;
    const ExternalRead& r = read(i);
    const auto cands = candidates(i);
    std::vector<BLit> lits;
    for (TxnId w : cands) {
      lits.push_back(rf_->at(tuple_index(n_, {T(w), R(i)})));
      wrx_.emplace_back(tuple_index(n_, {T(w), K(r.key), T(t)}), lits.back());
      if (item_read(r)) iwrx_.emplace_back(tuple_index(n_, {T(w), K(r.key), T(t)}), lits.back());
    }
    for (std::size_t q = 0; q < cands.size(); ++q)
      if (const std::uint32_t g = h_.guard_of(cands[q], r.key); g != kNoGuard)
        wf_.push_back(c_.implies(lits[q], guard_[g]));
    if (cands.size() < 2) continue;
    wf_.push_back(c_.or_(lits));
    wf_.push_back(c_.at_most_one(lits));
  }
  bind_guard_truths();
}

// A guarded write happens exactly when its predicate write's read of the
// key saw a version that satisfies the predicate (Vbox's truth
// constraints); a later read of the key in the transaction may say which.
void InstanceBuilder::bind_guard_truths() {
  std::map<std::pair<TxnId, std::uint32_t>, std::uint32_t> atom_of_read;
  for (std::uint32_t i = 0; i < inst_.read_of_atom.size(); ++i) atom_of_read[inst_.read_of_atom[i]] = i;
  for (std::uint32_t g = 0; g < h_.guarded.size(); ++g) {
    const GuardedWrite& gw = h_.guarded[g];
    const std::uint32_t e = atom_of_read.at({gw.txn, gw.read});
    for (TxnId w : h_.candidates[gw.txn][gw.read]) {
      const bool holds = std::binary_search(gw.satisfying.begin(), gw.satisfying.end(), w);
      wf_.push_back(c_.implies(rf_->at(tuple_index(n_, {T(w), R(e)})), holds ? guard_[g] : !guard_[g]));
    }
  }
  for (const auto& [g, happened] : h_.forced_guards) wf_.push_back(happened ? guard_[g] : !guard_[g]);
}

// reads and rval: constant for the reads that returned a value; for an
// invisible one, the value of the writer it reads from.
void InstanceBuilder::bind_read_values() {
  std::map<Index, std::vector<BLit>> read_cells, rval_cells;
  for (std::uint32_t i = 0; i < inst_.read_of_atom.size(); ++i) {
    const ExternalRead& r = read(i);
    if (r.value == kInvisible) continue;
    read_cells[tuple_index(n_, {T(inst_.read_of_atom[i].first), K(r.key), V(r.value)})].push_back(kTrue);
    rval_cells[tuple_index(n_, {R(i), V(r.value)})].push_back(kTrue);
  }
  for (std::uint32_t i = 0; i < inst_.read_of_atom.size(); ++i) {
    const TxnId t = inst_.read_of_atom[i].first;
    const ExternalRead& r = read(i);
    if (r.value != kInvisible) continue;
    for (TxnId w : candidates(i)) {
      const auto fw = std::find_if(h_.abs[w].writes.begin(), h_.abs[w].writes.end(),
                                   [&](const FinalWrite& x) { return x.key == r.key; });
      const BLit chosen = rf_->at(tuple_index(n_, {T(w), R(i)}));
      read_cells[tuple_index(n_, {T(t), K(r.key), V(fw->value)})].push_back(chosen);
      rval_cells[tuple_index(n_, {R(i), V(fw->value)})].push_back(chosen);
    }
  }
  auto cells_of = [&](std::map<Index, std::vector<BLit>>& m) {
    std::vector<std::pair<Index, BLit>> cells;
    for (auto& [idx, lits] : m) cells.emplace_back(idx, c_.or_(lits));
    return cells;
  };
  inst_.bindings.bind(s_.reads, make_matrix(c_, 3, cells_of(read_cells)));
  inst_.bindings.bind(s_.rval, make_matrix(c_, 2, cells_of(rval_cells)));
}

// rf, wrx, iwrx and the wellformedness constraint bind_read_from() built.
void InstanceBuilder::finish() {
  inst_.bindings.bind(s_.rf, std::move(*rf_));
  inst_.bindings.bind(s_.wrx, make_matrix(c_, 3, std::move(wrx_)));
  inst_.bindings.bind(s_.iwrx, make_matrix(c_, 3, std::move(iwrx_)));
  inst_.wellformed = c_.and_(wf_);
}

}  // namespace

ConcreteInstance concrete_instance(const AbstractHistory& h, Circuit& c) {
  std::vector<std::pair<TxnId, std::uint32_t>> read_of_atom;
  Universe universe = make_universe(h, read_of_atom);
  ConcreteInstance inst{std::move(universe), {}, {}, std::move(read_of_atom), {}, kTrue};
  InstanceBuilder b(h, c, inst);
  b.bind_writes_and_session_order();
  b.bind_read_events();
  b.bind_known_orders();
  b.bind_time_orders();
  b.bind_set_aside();
  b.bind_read_from();
  b.bind_read_values();
  b.finish();
  return inst;
}

}  // namespace iso::model
