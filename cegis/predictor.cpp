#include "cegis/predictor.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "engine/logic/cnf.hpp"
#include "engine/logic/translator.hpp"
#include "engine/model/concrete.hpp"
#include "engine/model/schema.hpp"
#include "engine/sat/solver.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/timing.hpp"

namespace iso::cegis {

using namespace logic;

namespace {

// The trace as the space sees it: sessions of transactions, each read's
// observed writer, each transaction's last write of each key.
struct Trace {
  const History& h;
  // A read operation: (transaction, operation); `event` when it is a read
  // event (not after the transaction's own write of the key).
  struct ReadOp {
    TxnId txn;
    std::uint32_t op;
    std::size_t session, index;  // where its transaction is
    bool event;
    TxnId observed;
    std::vector<TxnId> writers;  // what it may read from when free (observed included)
  };
  std::vector<ReadOp> reads;                       // in session, then program order
  std::vector<std::vector<std::size_t>> by_session;  // indices into reads
  std::vector<std::pair<std::size_t, std::size_t>> place;  // txn -> (session, index)

  explicit Trace(const History& hist) : h(hist), place(hist.num_txns(), {SIZE_MAX, 0}) {
    // A version's value names its writer: a read changed to another writer
    // shows it by its value.
    std::map<std::pair<KeyId, ValueId>, TxnId> writer_of_version;
    for (KeyId k = 0; k < h.keys().size(); ++k)
      if (h.t0_writes(k)) writer_of_version[{k, h.init_value(k)}] = kInitTxn;
    for (TxnId t = 1; t < h.num_txns(); ++t)
      for (KeyId k : written_keys(t)) {
        const auto [it, fresh] = writer_of_version.try_emplace({k, version(t, k)}, t);
        if (!fresh)
          throw std::invalid_argument(fmt::format(
              "{} and {} both leave {} = {}: prediction needs the versions of a key to have distinct values",
              h.txn_name(it->second), h.txn_name(t), h.key_text(k), h.value_text(version(t, k))));
      }
    const auto& sessions = h.sessions();
    by_session.resize(sessions.size());
    for (std::size_t s = 0; s < sessions.size(); ++s)
      for (std::size_t j = 0; j < sessions[s].size(); ++j) {
        const TxnId t = sessions[s][j];
        place[t] = {s, j};
        if (h.txn(t).status != TxnStatus::Committed)
          throw std::invalid_argument("prediction reads committed transactions only");
        const auto& ops = h.txn(t).ops;
        for (std::uint32_t i = 0; i < ops.size(); ++i) {
          const Op& op = ops[i];
          if (op.kind == OpKind::PredicateRead || op.kind == OpKind::PredicateWrite || op.list != kNoList)
            throw std::invalid_argument("prediction reads item reads and writes only");
          if (op.kind != OpKind::Read) continue;
          ReadOp r{t, i, s, j, true, kInitTxn, {}};
          for (std::uint32_t q = 0; q < i && r.event; ++q)
            r.event = !(ops[q].kind == OpKind::Write && ops[q].key == op.key);
          if (!r.event) {
            r.observed = t;
            r.writers = {t};
          } else {
            r.observed = writer_of(t, op);
            if (h.t0_writes(op.key)) r.writers.push_back(kInitTxn);
            for (TxnId w = 1; w < h.num_txns(); ++w)
              if (w != t && last_write(w, op.key)) r.writers.push_back(w);
          }
          by_session[s].push_back(reads.size());
          reads.push_back(std::move(r));
        }
      }
  }
  std::vector<KeyId> written_keys(TxnId t) const {
    std::vector<KeyId> out;
    for (const Op& op : h.txn(t).ops)
      if (op.kind == OpKind::Write && std::find(out.begin(), out.end(), op.key) == out.end()) out.push_back(op.key);
    return out;
  }
  std::optional<std::uint32_t> last_write(TxnId t, KeyId k) const {
    const auto& ops = h.txn(t).ops;
    for (std::uint32_t i = static_cast<std::uint32_t>(ops.size()); i-- > 0;)
      if (ops[i].kind == OpKind::Write && ops[i].key == k) return i;
    return std::nullopt;
  }
  ValueId version(TxnId w, KeyId k) const {
    return w == kInitTxn ? h.init_value(k) : h.txn(w).ops[*last_write(w, k)].value;
  }
  TxnId writer_of(TxnId t, const Op& r) const {
    for (TxnId w = 1; w < h.num_txns(); ++w)
      if (w != t && last_write(w, r.key) && version(w, r.key) == r.value) return w;
    if (h.t0_writes(r.key) && h.init_value(r.key) == r.value) return kInitTxn;
    throw std::invalid_argument(fmt::format("{} reads {}, which no transaction's last write of the key has",
                                            h.txn_name(t), h.value_text(r.value)));
  }
};

// The space: boundaries, free reads' writers, and the schema's relations.
class PredictionSpace {
 public:
  PredictionSpace(const Trace& tr, PredictMode mode, Circuit& c);

  const Universe& universe() const { return universe_; }
  const Bindings& bindings() const { return bindings_; }
  BLit constraints() const { return constraints_; }
  History decode(const Circuit& c, const std::vector<bool>& inputs, std::vector<ChangedRead>& changed) const;
  // "The read at operation `op` of t reads from w".
  BLit reads_from(TxnId t, std::uint32_t op, TxnId w) const;

 private:
  BLit kept(std::size_t s, std::size_t j, std::uint32_t i) const;  // op i of the j-th transaction of session s
  BLit kept_version(TxnId w, KeyId k) const;

  const Trace& tr_;
  PredictMode mode_;
  Circuit& c_;
  Universe universe_;
  Bindings bindings_;
  BLit constraints_ = kTrue;
  std::vector<std::vector<BLit>> boundary_;  // per session: [0] none, [1 + b] its b-th read
  std::vector<std::vector<BLit>> reads_from_;  // per read: per writer of Trace::ReadOp::writers
};

Universe make_universe(const Trace& tr) {
  const History& h = tr.h;
  std::vector<std::string> txns, keys, values, events;
  for (TxnId t = 0; t < h.num_txns(); ++t) txns.push_back(h.txn_name(t));
  for (KeyId k = 0; k < h.keys().size(); ++k) keys.push_back(h.key_text(k));
  for (ValueId v = 0; v < h.values().size(); ++v) values.push_back(h.value_text(v));
  for (const auto& r : tr.reads)
    if (r.event) events.push_back(fmt::format("{}.{}", h.txn_name(r.txn), r.op + 1));
  return Universe({txns, keys, values, events});
}

PredictionSpace::PredictionSpace(const Trace& tr, PredictMode mode, Circuit& c)
    : tr_(tr), mode_(mode), c_(c), universe_(make_universe(tr)) {
  const History& h = tr.h;
  const Universe& u = universe_;
  const std::uint32_t N = u.size();
  const auto T = [&](TxnId t) { return u.atom(model::kTxn, t); };
  const auto K = [&](KeyId k) { return u.atom(model::kObj, k); };
  const auto V = [&](ValueId v) { return u.atom(model::kVal, v); };
  std::vector<BLit> k;
  // One boundary per session.
  boundary_.resize(tr.by_session.size());
  for (std::size_t s = 0; s < boundary_.size(); ++s) {
    for (std::size_t b = 0; b <= tr.by_session[s].size(); ++b) boundary_[s].push_back(c.input());
    k.push_back(c.or_(boundary_[s]));
    k.push_back(c.at_most_one(boundary_[s]));
  }
  // Each read's writer: a choice when the boundary frees it, else the
  // observed one; kept reads read kept versions.
  reads_from_.resize(tr.reads.size());
  std::vector<std::pair<Index, BLit>> extent, rtxn, rkey, rval, po, rf, wrx;
  std::map<Index, std::vector<BLit>> read_cells, rval_cells, wrx_cells;
  std::uint32_t event = 0;
  std::vector<Atom> event_atom(tr.reads.size(), 0);
  for (std::size_t r = 0; r < tr.reads.size(); ++r) {
    const auto& rd = tr.reads[r];
    const auto& sess = tr.by_session[rd.session];
    const std::size_t pos = static_cast<std::size_t>(std::find(sess.begin(), sess.end(), r) - sess.begin());
    BLit free = kFalse;
    if (mode == PredictMode::Strict) {
      free = boundary_[rd.session][1 + pos];
    } else {
      std::vector<BLit> same_txn;
      for (std::size_t b = 0; b < sess.size(); ++b)
        if (tr.reads[sess[b]].index == rd.index) same_txn.push_back(boundary_[rd.session][1 + b]);
      free = c.or_(same_txn);
    }
    const BLit here = kept(rd.session, rd.index, rd.op);
    const KeyId key = h.txn(rd.txn).ops[rd.op].key;
    std::vector<BLit> choice;
    for (TxnId w : rd.writers) {
      const BLit pick = c.input();
      choice.push_back(pick);
      // Not free: the observed writer.
      if (w != rd.observed) k.push_back(c.implies(pick, free));
      const BLit reads_w = c.and_(here, pick);
      reads_from_[r].push_back(reads_w);
      if (rd.event && w != rd.txn) k.push_back(c.implies(reads_w, kept_version(w, key)));
    }
    k.push_back(c.or_(choice));
    k.push_back(c.at_most_one(choice));
    if (!rd.event) continue;
    const Atom a = u.atom(model::kRead, event++);
    event_atom[r] = a;
    extent.emplace_back(a, here);
    rtxn.emplace_back(tuple_index(N, {a, T(rd.txn)}), kTrue);
    rkey.emplace_back(tuple_index(N, {a, K(key)}), kTrue);
    for (std::size_t q = 0; q < rd.writers.size(); ++q) {
      const TxnId w = rd.writers[q];
      const BLit l = reads_from_[r][q];
      rf.emplace_back(tuple_index(N, {T(w), a}), l);
      wrx_cells[tuple_index(N, {T(w), K(key), T(rd.txn)})].push_back(l);
      rval_cells[tuple_index(N, {a, V(tr.version(w, key))})].push_back(l);
      read_cells[tuple_index(N, {T(rd.txn), K(key), V(tr.version(w, key))})].push_back(l);
    }
  }
  // Program order between the read events of one transaction.
  for (std::size_t r1 = 0; r1 < tr.reads.size(); ++r1)
    for (std::size_t r2 = 0; r2 < tr.reads.size(); ++r2) {
      const auto &a = tr.reads[r1], &b = tr.reads[r2];
      if (a.event && b.event && a.txn == b.txn && a.op < b.op)
        po.emplace_back(tuple_index(N, {event_atom[r1], event_atom[r2]}), kTrue);
    }
  // Final writes: a transaction's last kept write of each key.
  std::map<Index, std::vector<BLit>> write_cells;
  for (KeyId x = 0; x < h.keys().size(); ++x)
    if (h.t0_writes(x)) write_cells[tuple_index(N, {T(kInitTxn), K(x), V(h.init_value(x))})].push_back(kTrue);
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const auto [s, j] = tr.place[t];
    const auto& ops = h.txn(t).ops;
    for (std::uint32_t i = 0; i < ops.size(); ++i) {
      if (ops[i].kind != OpKind::Write) continue;
      std::optional<std::uint32_t> next;
      for (std::uint32_t q = i + 1; q < ops.size() && !next; ++q)
        if (ops[q].kind == OpKind::Write && ops[q].key == ops[i].key) next = q;
      const BLit final = next ? c.and_(kept(s, j, i), !kept(s, j, *next)) : kept(s, j, i);
      write_cells[tuple_index(N, {T(t), K(ops[i].key), V(ops[i].value)})].push_back(final);
    }
  }
  auto cells = [&](std::map<Index, std::vector<BLit>>& m) {
    std::vector<std::pair<Index, BLit>> out;
    for (auto& [idx, lits] : m) out.emplace_back(idx, c.or_(lits));
    return out;
  };
  // Session order (constant: a dropped transaction stays, empty).
  std::vector<std::vector<Atom>> so;
  for (const auto& session : h.sessions())
    for (std::size_t a = 0; a < session.size(); ++a) {
      so.push_back({T(kInitTxn), T(session[a])});
      for (std::size_t b = a + 1; b < session.size(); ++b) so.push_back({T(session[a]), T(session[b])});
    }
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
  constraints_ = c.and_(k);
}

BLit PredictionSpace::kept(std::size_t s, std::size_t j, std::uint32_t i) const {
  std::vector<BLit> any{boundary_[s][0]};
  const auto& sess = tr_.by_session[s];
  for (std::size_t b = 0; b < sess.size(); ++b) {
    const auto& r = tr_.reads[sess[b]];
    const bool keeps = mode_ == PredictMode::Strict ? (j < r.index || (j == r.index && i <= r.op)) : j <= r.index;
    if (keeps) any.push_back(boundary_[s][1 + b]);
  }
  return c_.or_(any);
}

BLit PredictionSpace::reads_from(TxnId t, std::uint32_t op, TxnId w) const {
  for (std::size_t r = 0; r < tr_.reads.size(); ++r)
    if (tr_.reads[r].txn == t && tr_.reads[r].op == op)
      for (std::size_t q = 0; q < tr_.reads[r].writers.size(); ++q)
        if (tr_.reads[r].writers[q] == w) return reads_from_[r][q];
  return kFalse;
}

BLit PredictionSpace::kept_version(TxnId w, KeyId k) const {
  if (w == kInitTxn) return kTrue;
  const auto [s, j] = tr_.place[w];
  return kept(s, j, *tr_.last_write(w, k));
}

History PredictionSpace::decode(const Circuit& c, const std::vector<bool>& inputs,
                                std::vector<ChangedRead>& changed) const {
  const History& h = tr_.h;
  auto val = [&](BLit l) { return c.eval(l, inputs); };
  History p = h.without_transactions();
  // Transactions in TxnId order, as the observed history has them.
  std::vector<SessionId> sid;
  for (std::size_t s = 0; s < h.sessions().size(); ++s) sid.push_back(p.add_session());
  std::map<std::pair<TxnId, std::uint32_t>, std::size_t> read_at;
  for (std::size_t r = 0; r < tr_.reads.size(); ++r) read_at[{tr_.reads[r].txn, tr_.reads[r].op}] = r;
  for (TxnId t = 1; t < h.num_txns(); ++t) {
    const auto [s, j] = tr_.place[t];
    const TxnId id = p.add_txn(sid[s], h.txn(t).name, TxnStatus::Committed);
    const auto& ops = h.txn(t).ops;
    for (std::uint32_t i = 0; i < ops.size(); ++i) {
      if (!val(kept(s, j, i))) break;
      if (ops[i].kind == OpKind::Write) {
        p.add_write(id, ops[i].key, ops[i].value);
        continue;
      }
      const std::size_t r = read_at.at({t, i});
      const auto& rd = tr_.reads[r];
      TxnId w = rd.observed;
      for (std::size_t q = 0; q < rd.writers.size(); ++q)
        if (val(reads_from_[r][q])) w = rd.writers[q];
      if (w != rd.observed) changed.push_back(ChangedRead{t, i, rd.observed, w});
      p.add_read(id, ops[i].key, w == t ? ops[i].value : tr_.version(w, ops[i].key));
    }
  }
  return p;
}

}  // namespace

PredictResult predict(const History& observed, const lua::Level& under, const lua::Level& ser,
                      PredictMode mode, double timeout_seconds, std::size_t limit) {
  const auto start = Clock::now();
  PredictResult result;
  for (const lua::Level* l : {&under, &ser})
    if (l->uses_real_time() || l->uses_db_timestamps())
      throw std::invalid_argument(fmt::format("{} reads time, which a trace has none of", l->name));
  budget::ScopedDeadline deadline(timeout_seconds);
  try {
    const Trace trace(observed);
    // The observed run first: a run the level does not allow is no run of a
    // store that provides it; one serializability forbids is the answer.
    DecideOptions first;
    first.explain = false;
    result.observed_under = decide(observed, under, first).verdict;
    result.observed_ser = decide(observed, ser, first).verdict;
    if (result.observed_under == Verdict::Unknown || result.observed_ser == Verdict::Unknown) throw TimeoutError();
    if (result.observed_under == Verdict::Violated) {
      result.seconds = seconds_since(start);
      return result;
    }
    if (result.observed_ser == Verdict::Violated) {
      result.outcome = Outcome::Found;
      result.runs.push_back(PredictedRun{observed, {}});
      result.seconds = seconds_since(start);
      return result;
    }
    Circuit c;
    sat::Solver solver;
    CnfEncoder cnf(c, solver);
    PredictionSpace space(trace, mode, c);
    const Universe& u = space.universe();
    cnf.assert_true(space.constraints());
    // The weak level's witness: free relations, its constraint asserted.
    Bindings allow = space.bindings();
    for (const auto& w : under.framework->witness)
      allow.bind(w.rel, variable_matrix(c, u.size(), static_cast<std::uint32_t>(w.rel->type.size()), {},
                                        model::all_tuples(u, w.rel->type)));
    {
      Translator t(u, c, allow);
      cnf.assert_true(t.formula(under.constraint()));
    }
    DecideOptions opt;
    opt.explain = false;
    while (true) {
      budget::poll();
      const sat::Result r = solver.solve();
      if (r == sat::Result::Unknown) throw TimeoutError();
      if (r == sat::Result::Unsat) break;
      ++result.candidates;
      std::vector<ChangedRead> changed;
      History candidate = space.decode(c, cnf.input_values(), changed);
      const Decision d = decide(candidate, ser, opt);
      if (d.verdict == Verdict::Unknown) throw TimeoutError();
      if (d.verdict == Verdict::Violated) {
        result.outcome = Outcome::Found;
        // The next prediction changes other reads than these.
        std::vector<BLit> same;
        for (const ChangedRead& ch : changed) same.push_back(space.reads_from(ch.reader, ch.op, ch.writer));
        result.runs.push_back(PredictedRun{std::move(candidate), std::move(changed)});
        if (result.runs.size() >= std::max<std::size_t>(1, limit)) break;
        cnf.assert_true(!c.and_(same));
        continue;
      }
      if (!d.witness) throw std::logic_error("predict: serializability allowed a candidate without a witness");
      // Every candidate this witness explains is serializable.
      Bindings b = space.bindings();
      for (std::size_t i = 0; i < ser.framework->witness.size(); ++i) {
        const auto& rel = d.witness->relations[i];
        std::vector<std::vector<Atom>> tuples;
        for (const auto& tuple : tuples_of(*d.witness, rel)) {
          std::vector<Atom> atoms(tuple.size());
          for (std::size_t col = 0; col < tuple.size(); ++col) atoms[col] = u.atom(rel.type[col], tuple[col]);
          tuples.push_back(std::move(atoms));
        }
        b.bind(ser.framework->witness[i].rel, constant_matrix(u.size(), static_cast<std::uint32_t>(rel.type.size()), tuples));
      }
      Translator t(u, c, b);
      cnf.assert_true(!t.formula(ser.constraint()));
      ++result.lemmas;
    }
  } catch (const TimeoutError&) {
    // The predictions found so far stand; without one, the time ran out.
    if (result.runs.empty()) result.outcome = Outcome::Timeout;
  }
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace iso::cegis
