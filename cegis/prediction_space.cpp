// The space of runs a prediction searches: the observed trace read once
// (ObservedTrace), its boundaries and free writers as circuit inputs, and
// the schema's relations over them (cegis/prediction_space.hpp).
#include "cegis/prediction_space.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "engine/history/printer.hpp"
#include "engine/history/session_order.hpp"
#include "engine/model/concrete.hpp"
#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

ObservedTrace::ObservedTrace(const History& hist)
    : h(hist), place(hist.num_txns(), {SIZE_MAX, 0}), read_range_(hist.num_txns(), {0, 0}) {
  writers_.resize(h.keys().size());
  // "T2's w(x,5)": an operation as a message names it.
  auto op_text = [&](TxnId t, const Op& op) { return fmt::format("{}'s {}", h.txn_name(t), format_op(h, op)); };
  // A version's value names its writer: a read changed to another writer
  // shows it by its value.
  std::map<std::pair<KeyId, ValueId>, TxnId> writer_of_version;
  for (KeyId k = 0; k < h.keys().size(); ++k)
    if (h.t0_writes(k)) {
      writer_of_version[{k, h.init_value(k)}] = kInitTxn;
      writers_[k].push_back(kInitTxn);
    }
  for (TxnId t = 1; t < h.num_txns(); ++t)
    for (const Op& op : h.txn(t).ops) {
      if (op.kind != OpKind::Write || *first_write(t, op.key) != static_cast<std::uint32_t>(&op - h.txn(t).ops.data()))
        continue;
      writers_[op.key].push_back(t);
      const auto [it, fresh] = writer_of_version.try_emplace({op.key, version(t, op.key)}, t);
      if (!fresh)
        throw TraceError(
            fmt::format("{} and {} both leave {} = {}: prediction needs the versions of a key to have distinct values",
                        h.txn_name(it->second), h.txn_name(t), h.key_text(op.key), h.value_text(version(t, op.key))),
            h.txn(t).ops[*last_write(t, op.key)].line);
    }
  const auto& sessions = h.sessions();
  by_session.resize(sessions.size());
  for (std::size_t s = 0; s < sessions.size(); ++s)
    for (std::size_t j = 0; j < sessions[s].size(); ++j) {
      const TxnId t = sessions[s][j];
      place[t] = {s, j};
      const auto& ops = h.txn(t).ops;
      if (h.txn(t).status != TxnStatus::Committed)
        throw TraceError(
            fmt::format("{} is not committed: prediction reads committed transactions only", h.txn_name(t)),
            ops.empty() ? 0 : ops.front().line);
      read_range_[t] = {reads.size(), reads.size()};
      for (std::uint32_t i = 0; i < ops.size(); ++i) {
        const Op& op = ops[i];
        if (op.kind == OpKind::PredicateRead || op.kind == OpKind::PredicateWrite || op.list != kNoList)
          throw TraceError(fmt::format("{}: prediction reads item reads and writes only", op_text(t, op)), op.line);
        if (op.kind != OpKind::Read) continue;
        Read r{t, i, s, j, op.key, true, kInitTxn};
        std::optional<std::uint32_t> own;  // t's last write of the key before the read
        for (std::uint32_t q = 0; q < i; ++q)
          if (ops[q].kind == OpKind::Write && ops[q].key == op.key) own = q;
        r.event = !own;
        if (own) {
          // Its writer is its own transaction, which a prediction keeps.
          if (ops[*own].value != op.value)
            throw TraceError(fmt::format("{} follows {}: prediction needs a read after its transaction's own write "
                                         "of the key to return that write",
                                         op_text(t, op), format_op(h, ops[*own])),
                             op.line);
          r.observed = t;
        } else {
          const auto it = writer_of_version.find({op.key, op.value});
          if (it == writer_of_version.end() || it->second == t)
            throw TraceError(fmt::format("{}: no other transaction's last write of {} (nor the initial state) leaves "
                                         "{} = {}: prediction needs every read to have a writer",
                                         op_text(t, op), h.key_text(op.key), h.key_text(op.key),
                                         h.value_text(op.value)),
                             op.line);
          r.observed = it->second;
        }
        by_session[s].push_back(reads.size());
        reads.push_back(std::move(r));
      }
      read_range_[t].second = reads.size();
    }
}

std::optional<std::size_t> ObservedTrace::writer_index(KeyId k, TxnId w) const {
  const auto& ws = writers_[k];
  const auto it = std::lower_bound(ws.begin(), ws.end(), w);
  if (it == ws.end() || *it != w) return std::nullopt;
  return static_cast<std::size_t>(it - ws.begin());
}

std::size_t ObservedTrace::read_at(TxnId t, std::uint32_t op) const {
  for (std::size_t r = read_range_[t].first; r < read_range_[t].second; ++r)
    if (reads[r].op == op) return r;
  throw std::logic_error("predict: no read at that operation");
}

std::optional<std::uint32_t> ObservedTrace::first_write(TxnId t, KeyId k) const {
  const auto& ops = h.txn(t).ops;
  for (std::uint32_t i = 0; i < ops.size(); ++i)
    if (ops[i].kind == OpKind::Write && ops[i].key == k) return i;
  return std::nullopt;
}

std::optional<std::uint32_t> ObservedTrace::last_write(TxnId t, KeyId k) const {
  const auto& ops = h.txn(t).ops;
  for (std::uint32_t i = static_cast<std::uint32_t>(ops.size()); i-- > 0;)
    if (ops[i].kind == OpKind::Write && ops[i].key == k) return i;
  return std::nullopt;
}

ValueId ObservedTrace::version(TxnId w, KeyId k) const {
  return w == kInitTxn ? h.init_value(k) : h.txn(w).ops[*last_write(w, k)].value;
}

namespace {

Universe make_universe(const ObservedTrace& tr) {
  const History& h = tr.h;
  std::vector<std::string> txns, keys, values, events;
  for (TxnId t = 0; t < h.num_txns(); ++t) txns.push_back(h.txn_name(t));
  for (KeyId k = 0; k < h.keys().size(); ++k) keys.push_back(h.key_text(k));
  for (ValueId v = 0; v < h.values().size(); ++v) values.push_back(h.value_text(v));
  for (const auto& r : tr.reads)
    if (r.event) events.push_back(fmt::format("{}.{}", h.txn_name(r.txn), r.op + 1));
  return Universe({txns, keys, values, events});
}

}  // namespace

PredictionSpace::PredictionSpace(const ObservedTrace& tr, PredictMode mode, Circuit& c, bool relations)
    : tr_(tr), mode_(mode), c_(c), universe_(make_universe(tr)) {
  std::vector<BLit> k;
  make_boundaries(k);
  // Which reads the boundary frees: itself (strict), or its transaction's
  // reads (relaxed: the boundary is the transaction's first read).
  free_.assign(tr.reads.size(), kFalse);
  for (std::size_t s = 0; s < tr.by_session.size(); ++s) {
    const auto& sess = tr.by_session[s];
    for (std::size_t pos = 0, lo = 0; pos < sess.size(); ++pos) {
      if (pos > 0 && !frees(tr.reads[sess[pos - 1]], tr.reads[sess[pos]])) lo = pos;
      free_[sess[pos]] = boundary_at(s, lo);
    }
  }
  // The choices: one group per session, key and occurrence of the key in a
  // transaction's read events.
  std::map<std::tuple<std::size_t, KeyId, std::size_t>, std::size_t> group_at;
  group_of_.assign(tr.reads.size(), SIZE_MAX);
  std::vector<std::vector<std::size_t>> members;
  for (std::size_t r = 0; r < tr.reads.size(); ++r) {
    const auto& rd = tr.reads[r];
    if (!rd.event) continue;
    std::size_t nth = 0;
    for (std::size_t q = r; q-- > 0 && tr.reads[q].txn == rd.txn;)
      nth += tr.reads[q].event && tr.reads[q].key == rd.key;
    const auto [it, fresh] = group_at.try_emplace({rd.session, rd.key, nth}, groups_.size());
    if (fresh) {
      Group g;
      const auto& ws = tr.writers_of(rd.key);
      for (std::size_t q = 0; q < ws.size(); ++q) g.pick.push_back(c.input());
      // In session order (transaction ids need not follow it).
      std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::size_t>> in_order;
      for (std::size_t q = 0; q < ws.size(); ++q)
        if (ws[q] != kInitTxn) in_order.push_back({tr.place[ws[q]], q});
      std::sort(in_order.begin(), in_order.end());
      g.first.assign(tr.by_session.size(), {kFalse});
      for (const auto& [at, q] : in_order) {
        auto& f = g.first[at.first];
        f.push_back(c.or_(f.back(), g.pick[q]));
      }
      groups_.push_back(std::move(g));
      members.emplace_back();
    }
    group_of_[r] = it->second;
    members[it->second].push_back(r);
  }
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    const auto& pick = groups_[g].pick;
    const KeyId x = tr.reads[members[g][0]].key;
    const auto& ws = tr.writers_of(x);
    k.push_back(c.at_most_one(pick));
    // A free member picks a writer (a clause per member, local to its
    // boundary place), never its own transaction (a read event does not
    // read its own transaction's write).
    // (Strict: one clause for the group.)
    const BLit some = c.or_(pick);
    std::vector<BLit> any_free;
    for (std::size_t r : members[g]) {
      if (mode == PredictMode::Relaxed) k.push_back(c.implies(free_[r], some));
      any_free.push_back(free_[r]);
      if (const auto own = tr.writer_index(x, tr.reads[r].txn)) k.push_back(c.implies(free_[r], !pick[*own]));
    }
    if (mode == PredictMode::Strict) k.push_back(c.implies(c.or_(any_free), some));
    // A version read is written by a complete transaction.
    for (std::size_t q = 0; q < ws.size(); ++q)
      if (ws[q] != kInitTxn) k.push_back(c.implies(pick[q], complete(ws[q])));
  }
  // A read that is not free reads its observed version, whose transaction
  // is complete.
  for (std::size_t r = 0; r < tr.reads.size(); ++r) {
    const auto& rd = tr.reads[r];
    if (rd.event && rd.observed != kInitTxn)
      k.push_back(c.implies(c.and_(kept(rd.txn, rd.op), !free_[r]), complete(rd.observed)));
  }
  constraints_ = c.and_(k);
  if (relations) bind_relations();
}

// One boundary per session. from_[s][p]: "the boundary is the session's
// p-th read or a later one, or its end" (p = n: the end).
// Relaxed: in the order encoding, an input per place a boundary can be
// (false by default: every session to its end), a binary clause between
// neighbours; only a transaction's first read is a place (its other reads
// free the same reads and keep the same operations) and the others share
// the next place's literal. "Kept" and "complete" are one literal each, and
// a clause the solver learns over boundaries names the places it rests on,
// not a session's every read (a one-hot boundary made them as long as the
// session: 3,000 literals at 10,000 transactions).
// Strict: one-hot, an input per read and one for the end, from_ a chain of
// ORs over it (measured faster here: a strict boundary frees one read, and
// the search is led by its choice of that read).
void PredictionSpace::make_boundaries(std::vector<BLit>& k) {
  from_.resize(tr_.by_session.size());
  onehot_.resize(tr_.by_session.size());
  later_.resize(tr_.by_session.size());
  for (std::size_t s = 0; s < from_.size(); ++s) {
    const auto& sess = tr_.by_session[s];
    const std::size_t n = sess.size();
    from_[s].assign(n + 1, kTrue);
    if (mode_ == PredictMode::Strict) {
      auto& one = onehot_[s];
      for (std::size_t b = 0; b <= n; ++b) one.push_back(c_.input());
      k.push_back(c_.or_(one));
      k.push_back(c_.at_most_one(one));
      auto& later = later_[s];  // [b]: the boundary is read b or a later one
      later.assign(n + 1, kFalse);
      for (std::size_t b = n; b-- > 0;) later[b] = c_.or_(one[1 + b], later[b + 1]);
      continue;
    }
    from_[s][n] = !c_.input();
    for (std::size_t p = n; p-- > 1;) {
      if (tr_.reads[sess[p]].txn == tr_.reads[sess[p - 1]].txn) {
        from_[s][p] = from_[s][p + 1];
        continue;
      }
      from_[s][p] = !c_.input();
      k.push_back(c_.implies(from_[s][p + 1], from_[s][p]));
    }
  }
}

bool PredictionSpace::keeps(const ObservedTrace::Read& b, std::size_t j, std::uint32_t i) const {
  return mode_ == PredictMode::Strict ? (j < b.index || (j == b.index && i <= b.op)) : j <= b.index;
}

std::size_t PredictionSpace::first_keeping(std::size_t s, std::size_t j, std::uint32_t i) const {
  const auto& sess = tr_.by_session[s];
  const auto it = std::partition_point(sess.begin(), sess.end(),
                                       [&](std::size_t r) { return !keeps(tr_.reads[r], j, i); });
  return static_cast<std::size_t>(it - sess.begin());
}

BLit PredictionSpace::kept_at(std::size_t s, std::size_t j, std::uint32_t i) const {
  return from(s, first_keeping(s, j, i));
}

BLit PredictionSpace::from(std::size_t s, std::size_t p) const {
  // Strict: made when asked, from the one-hot boundary's chain.
  return mode_ == PredictMode::Strict ? c_.or_(onehot_[s][0], later_[s][p]) : from_[s][p];
}

BLit PredictionSpace::boundary_at(std::size_t s, std::size_t p) const {
  const auto& f = from_[s];
  if (mode_ == PredictMode::Strict) return p + 1 == f.size() ? onehot_[s][0] : onehot_[s][1 + p];
  return p + 1 == f.size() ? f[p] : c_.and_(f[p], !f[p + 1]);
}

BLit PredictionSpace::kept(TxnId t, std::uint32_t i) const {
  if (t == kInitTxn) return kTrue;
  const auto [s, j] = tr_.place[t];
  return kept_at(s, j, i);
}

BLit PredictionSpace::complete(TxnId t) const {
  if (t == kInitTxn) return kTrue;
  const auto [s, j] = tr_.place[t];
  const auto& sess = tr_.by_session[s];
  const auto after = std::partition_point(sess.begin(), sess.end(), [&](std::size_t r) { return tr_.reads[r].index <= j; });
  return from(s, static_cast<std::size_t>(after - sess.begin()));
}

BLit PredictionSpace::writes(TxnId t, KeyId k) const {
  if (t == kInitTxn) return tr_.h.t0_writes(k) ? kTrue : kFalse;
  const auto i = tr_.first_write(t, k);
  return i ? kept(t, *i) : kFalse;
}

bool PredictionSpace::frees(const ObservedTrace::Read& b, const ObservedTrace::Read& r) const {
  return mode_ == PredictMode::Strict ? (b.txn == r.txn && b.op == r.op) : b.txn == r.txn;
}

BLit PredictionSpace::picks(std::size_t r, TxnId w) const {
  const auto q = tr_.writer_index(tr_.reads[r].key, w);
  return q ? groups_[group_of_[r]].pick[*q] : kFalse;
}

BLit PredictionSpace::reads_from(std::size_t r, TxnId w) const {
  const auto& rd = tr_.reads[r];
  const BLit here = kept(rd.txn, rd.op);
  if (!rd.event) return w == rd.txn ? here : kFalse;
  if (w == rd.txn) return kFalse;
  if (w == rd.observed) return c_.and_(here, c_.or_(!free_[r], picks(r, w)));
  return c_.and_(here, c_.and_(free_[r], picks(r, w)));
}

BLit PredictionSpace::takes_among_first(std::size_t r, std::size_t s, std::size_t count) const {
  if (!tr_.reads[r].event) return kFalse;
  const auto& f = groups_[group_of_[r]].first[s];
  return c_.and_(free_[r], f[std::min(count, f.size() - 1)]);
}

BLit PredictionSpace::takes_initial(std::size_t r) const {
  if (!tr_.reads[r].event) return kFalse;
  return c_.and_(free_[r], picks(r, kInitTxn));
}

BLit PredictionSpace::changed(std::size_t r) const {
  const auto& rd = tr_.reads[r];
  if (!rd.event) return kFalse;
  return c_.and_(kept(rd.txn, rd.op), c_.and_(free_[r], !picks(r, rd.observed)));
}

void PredictionSpace::bind_relations() {
  const ObservedTrace& tr = tr_;
  Circuit& c = c_;
  const History& h = tr.h;
  const Universe& u = universe_;
  const std::uint32_t N = u.size();
  const auto T = [&](TxnId t) { return u.atom(model::kTxn, t); };
  const auto K = [&](KeyId k) { return u.atom(model::kObj, k); };
  const auto V = [&](ValueId v) { return u.atom(model::kVal, v); };
  std::vector<std::pair<Index, BLit>> extent, rtxn, rkey, po, rf;
  std::map<Index, std::vector<BLit>> read_cells, rval_cells, wrx_cells;
  std::uint32_t event = 0;
  std::vector<Atom> event_atom(tr.reads.size(), 0);
  for (std::size_t r = 0; r < tr.reads.size(); ++r) {
    const auto& rd = tr.reads[r];
    if (!rd.event) continue;
    const Atom a = u.atom(model::kRead, event++);
    event_atom[r] = a;
    extent.emplace_back(a, kept(rd.txn, rd.op));
    rtxn.emplace_back(tuple_index(N, {a, T(rd.txn)}), kTrue);
    rkey.emplace_back(tuple_index(N, {a, K(rd.key)}), kTrue);
    for (const TxnId w : tr.writers_of(rd.key)) {
      if (w == rd.txn) continue;
      const BLit l = reads_from(r, w);
      rf.emplace_back(tuple_index(N, {T(w), a}), l);
      wrx_cells[tuple_index(N, {T(w), K(rd.key), T(rd.txn)})].push_back(l);
      rval_cells[tuple_index(N, {a, V(tr.version(w, rd.key))})].push_back(l);
      read_cells[tuple_index(N, {T(rd.txn), K(rd.key), V(tr.version(w, rd.key))})].push_back(l);
    }
  }
  // Program order between the read events of one transaction.
  for (std::size_t r1 = 0; r1 < tr.reads.size(); ++r1)
    for (std::size_t r2 = r1 + 1; r2 < tr.reads.size() && tr.reads[r2].txn == tr.reads[r1].txn; ++r2)
      if (tr.reads[r1].event && tr.reads[r2].event)
        po.emplace_back(tuple_index(N, {event_atom[r1], event_atom[r2]}), kTrue);
  // Final writes: a transaction's last kept write of each key.
  std::map<Index, std::vector<BLit>> write_cells;
  for (KeyId x = 0; x < h.keys().size(); ++x)
    if (h.t0_writes(x)) write_cells[tuple_index(N, {T(kInitTxn), K(x), V(h.init_value(x))})].push_back(kTrue);
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const auto& ops = h.txn(t).ops;
    for (std::uint32_t i = 0; i < ops.size(); ++i) {
      if (ops[i].kind != OpKind::Write) continue;
      std::optional<std::uint32_t> next;
      for (std::uint32_t q = i + 1; q < ops.size() && !next; ++q)
        if (ops[q].kind == OpKind::Write && ops[q].key == ops[i].key) next = q;
      const BLit final = next ? c.and_(kept(t, i), !kept(t, *next)) : kept(t, i);
      write_cells[tuple_index(N, {T(t), K(ops[i].key), V(ops[i].value)})].push_back(final);
    }
  }
  auto cells = [&](std::map<Index, std::vector<BLit>>& m) {
    std::vector<std::pair<Index, BLit>> out;
    for (auto& [idx, lits] : m) out.emplace_back(idx, c.or_(lits));
    return out;
  };
  // Session order (constant: a dropped transaction stays, empty), the
  // front end's relation over every transaction of the trace.
  std::vector<TxnId> every{kInitTxn};
  for (const auto& session : h.sessions()) every.insert(every.end(), session.begin(), session.end());
  const SessionOrder order(h, every);
  std::vector<std::vector<Atom>> so;
  for (TxnId a : every)
    for (TxnId b : order.after(a)) so.push_back({T(a), T(b)});
  const model::HistorySchema& sc = model::history_schema();
  bindings_.bind(sc.reads, make_matrix(c, 3, cells(read_cells)));
  bindings_.bind(sc.writes, make_matrix(c, 3, cells(write_cells)));
  bindings_.bind(sc.so, constant_matrix(N, 2, so));
  const BoolMatrix wrx_m = make_matrix(c, 3, cells(wrx_cells));
  bindings_.bind(sc.wrx, wrx_m);
  bindings_.bind(sc.iwrx, wrx_m);
  bindings_.bind(sc.t0, constant_matrix(N, 1, {{T(kInitTxn)}}));
  for (const auto& rel : {sc.vo, sc.abr, sc.irr}) bindings_.bind(rel, constant_matrix(N, 3, {}));
  for (const auto& rel : {sc.rt, sc.rt_cc, sc.rt_bc, sc.ts_vis, sc.ts_ar}) bindings_.bind(rel, constant_matrix(N, 2, {}));
  bindings_.bind(sc.rtxn, make_matrix(c, 2, std::move(rtxn)));
  bindings_.bind(sc.rkey, make_matrix(c, 2, std::move(rkey)));
  bindings_.bind(sc.rval, make_matrix(c, 2, cells(rval_cells)));
  bindings_.bind(sc.po, make_matrix(c, 2, std::move(po)));
  bindings_.bind(sc.rf, make_matrix(c, 2, std::move(rf)));
  bindings_.bind_extent(model::kRead, make_matrix(c, 1, std::move(extent)));
}

Candidate PredictionSpace::decode(const std::vector<bool>& inputs) const {
  const History& h = tr_.h;
  auto val = [&](BLit l) { return c_.eval(l, inputs); };
  // Each session's boundary read (none: its end).
  std::vector<std::optional<std::size_t>> boundary(from_.size());
  for (std::size_t s = 0; s < from_.size(); ++s)
    for (std::size_t p = 0; p + 1 < from_[s].size(); ++p)
      if (val(boundary_at(s, p))) boundary[s] = tr_.by_session[s][p];
  Candidate out{h.without_transactions(), {}, std::vector<TxnId>(tr_.reads.size(), kNoTxn)};
  History& p = out.history;
  std::vector<SessionId> sid;
  for (std::size_t s = 0; s < h.sessions().size(); ++s) sid.push_back(p.add_session());
  // Transactions in TxnId order, as the observed history has them.
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const auto [s, j] = tr_.place[t];
    const TxnId id = p.add_txn(sid[s], h.txn(t).name, TxnStatus::Committed);
    const auto& ops = h.txn(t).ops;
    for (std::uint32_t i = 0; i < ops.size(); ++i) {
      if (boundary[s] && !keeps(tr_.reads[*boundary[s]], j, i)) break;
      if (ops[i].kind == OpKind::Write) {
        p.add_write(id, ops[i].key, ops[i].value);
        continue;
      }
      const std::size_t r = tr_.read_at(t, i);
      const auto& rd = tr_.reads[r];
      TxnId w = rd.observed;
      if (rd.event && boundary[s] && frees(tr_.reads[*boundary[s]], rd)) {
        const auto& ws = tr_.writers_of(rd.key);
        const auto& pick = groups_[group_of_[r]].pick;
        for (std::size_t q = 0; q < pick.size(); ++q)
          if (val(pick[q])) w = ws[q];
      }
      out.chosen[r] = w;
      if (w != rd.observed) out.changed.push_back(ChangedRead{t, i, rd.observed, w});
      p.add_read(id, ops[i].key, w == t ? ops[i].value : tr_.version(w, ops[i].key));
    }
  }
  return out;
}

}  // namespace iso::cegis
