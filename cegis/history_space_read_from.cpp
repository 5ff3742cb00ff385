// The history space's read-from as a choice (SpaceOptions::duplicates;
// cegis/history_space.hpp): with repeated values a read's writer does not
// follow from its value, so the space lists its read events with their
// candidate writers (build_read_events), and each execution binds rf and
// wrx to a choice of its own: fresh (an allow level's witness), pinned by a
// candidate's witness (a lemma), and read back from a model (chosen_reads).
#include "cegis/history_space.hpp"

#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

void HistorySpace::build_read_events(Circuit& c) {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values;
  // Transaction form: one event per (t, x), t's external read of x.
  for (std::uint32_t t = 1; t <= n && slots_ == 0; ++t)
    for (std::uint32_t x = 0; x < K; ++x) {
      ReadEvent e{t, x, kFalse, std::vector<BLit>(K, kFalse), std::vector<BLit>(n + 1, kFalse)};
      std::vector<BLit> any;
      for (std::uint32_t v = 0; v < V; ++v) any.push_back(read_var(t, x, v));
      e.used = c.or_(any);
      e.key[x] = kTrue;
      e.from[0] = read_var(t, x, 0);
      for (std::uint32_t w = 1; w <= n; ++w) {
        if (w == t) continue;
        std::vector<BLit> same;
        for (std::uint32_t v = 0; v < V; ++v) same.push_back(c.and_(write_var(w, x, v), read_var(t, x, v)));
        e.from[w] = c.or_(same);
      }
      events_.push_back(std::move(e));
    }
  // Operation form: one event per read slot.
  for (std::uint32_t t = 1; t <= n && slots_ > 0; ++t)
    for (std::uint32_t i = 0; i < slots_; ++i) {
      ReadEvent e{t, i, kFalse, std::vector<BLit>(K, kFalse), std::vector<BLit>(n + 1, kFalse)};
      std::vector<BLit> all, initial;
      for (std::uint32_t x = 0; x < K; ++x) {
        std::vector<BLit> of_key;
        for (std::uint32_t v = 0; v < V; ++v) of_key.push_back(slot_var(t, i, x, v));
        all.insert(all.end(), of_key.begin(), of_key.end());
        e.key[x] = c.or_(of_key);
        initial.push_back(slot_var(t, i, x, 0));
      }
      e.used = c.or_(all);
      e.from[0] = c.or_(initial);
      for (std::uint32_t w = 1; w <= n; ++w) {
        if (w == t) continue;
        std::vector<BLit> same;
        for (std::uint32_t x = 0; x < K; ++x)
          for (std::uint32_t v = 0; v < V; ++v) same.push_back(c.and_(slot_var(t, i, x, v), write_var(w, x, v)));
        e.from[w] = c.or_(same);
      }
      events_.push_back(std::move(e));
    }
}

void HistorySpace::bind_read_from(Circuit& c, Bindings& b, const std::vector<std::vector<BLit>>& choice) const {
  const std::uint32_t n = scope_.txns, K = scope_.objects;
  const Universe& u = universe_;
  const std::uint32_t N = u.size();
  const model::HistorySchema& s = model::history_schema();
  std::vector<std::pair<Index, BLit>> rf, wrx;
  for (std::size_t e = 0; e < events_.size(); ++e) {
    const ReadEvent& ev = events_[e];
    for (std::uint32_t w = 0; w <= n; ++w) {
      const BLit l = choice[e][w];
      if (l == kFalse) continue;
      if (slots_ > 0)
        rf.emplace_back(Index{u.atom(model::kTxn, w)} * N + u.atom(model::kRead, (ev.txn - 1) * slots_ + ev.slot), l);
      // wrx(w, x, t) = ∃α. rf(w, α) ∧ rkey(α, x) ∧ rtxn(α, t): make_matrix
      // ORs the events of t that read x.
      for (std::uint32_t x = 0; x < K; ++x)
        if (ev.key[x] != kFalse)
          wrx.emplace_back(tuple_index(N, {u.atom(model::kTxn, w), u.atom(model::kObj, x), u.atom(model::kTxn, ev.txn)}),
                           c.and_(l, ev.key[x]));
    }
  }
  if (slots_ > 0) b.bind(s.rf, make_matrix(c, 2, std::move(rf)));
  b.bind(s.iwrx, make_matrix(c, 3, wrx));  // no predicate reads: every read an item read
  b.bind(s.wrx, make_matrix(c, 3, std::move(wrx)));
}

BLit HistorySpace::fresh_read_from(Circuit& c, Bindings& b, bool lower_only) const {
  if (!duplicates_) return kTrue;
  std::vector<std::vector<BLit>> choice;
  std::vector<BLit> wf;
  for (const ReadEvent& ev : events_) {
    // A choice is a fresh variable and the legality of the writer, so only
    // "exactly one" remains to say.
    std::vector<BLit> row(ev.from.size(), kFalse);
    for (std::uint32_t w = 0; w < ev.from.size(); ++w)
      if (ev.from[w] != kFalse && (!lower_only || w < ev.txn)) row[w] = c.and_(c.input(), ev.from[w]);
    wf.push_back(c.implies(ev.used, c.or_(row)));
    wf.push_back(c.at_most_one(row));
    choice.push_back(std::move(row));
  }
  bind_read_from(c, b, choice);
  return c.and_(wf);
}

BLit HistorySpace::pinned_read_from(Circuit& c, Bindings& b, const std::vector<poly::ChosenRead>& pinned) const {
  if (!duplicates_) return kTrue;
  const std::uint32_t K = scope_.objects;
  // The pinned writer of each event, if any. A decoded candidate's read op
  // is its slot (reads come first, slots in program order) in the operation
  // form; in the transaction form a read event is (reader, key).
  std::vector<std::uint32_t> pin(events_.size(), UINT32_MAX);
  for (const poly::ChosenRead& r : pinned) {
    if (r.reader < 1 || r.reader > scope_.txns) continue;
    const std::size_t e = slots_ > 0 ? (r.reader - 1) * std::size_t{slots_} + r.op : (r.reader - 1) * std::size_t{K} + r.key;
    if (e < events_.size() && (slots_ == 0 || r.op < slots_)) pin[e] = r.writer;
  }
  std::vector<std::vector<BLit>> choice;
  std::vector<BLit> legal;
  for (std::size_t e = 0; e < events_.size(); ++e) {
    const ReadEvent& ev = events_[e];
    std::vector<BLit> row(ev.from.size(), kFalse);
    if (pin[e] != UINT32_MAX) {
      // The candidate's choice, legal only where that writer writes what the
      // event reads here.
      const BLit writes = pin[e] < ev.from.size() ? ev.from[pin[e]] : kFalse;
      if (writes != kFalse) row[pin[e]] = writes;
      legal.push_back(c.implies(ev.used, writes));
    } else {
      // The lowest-indexed writer of what it reads: always legal, as every
      // read has a writer (no thin air).
      BLit lower = kFalse;
      for (std::uint32_t w = 0; w < ev.from.size(); ++w) {
        row[w] = c.and_(ev.from[w], !lower);
        lower = c.or_(lower, ev.from[w]);
      }
    }
    choice.push_back(std::move(row));
  }
  bind_read_from(c, b, choice);
  return c.and_(legal);
}

std::vector<poly::ChosenRead> HistorySpace::chosen_reads(const Circuit& c, const std::vector<bool>& inputs,
                                                         const Bindings& b) const {
  std::vector<poly::ChosenRead> out;
  if (!duplicates_) return out;
  const std::uint32_t K = scope_.objects, V = scope_.values;
  const Universe& u = universe_;
  const std::uint32_t N = u.size();
  const model::HistorySchema& s = model::history_schema();
  auto val = [&](BLit l) { return c.eval(l, inputs); };
  const BoolMatrix& wrx = *b.find(*s.wrx);
  const BoolMatrix* rf = slots_ > 0 ? b.find(*s.rf) : nullptr;
  for (const ReadEvent& ev : events_) {
    if (!val(ev.used)) continue;
    std::uint32_t candidates = 0;
    for (BLit l : ev.from) candidates += val(l) ? 1 : 0;
    if (candidates < 2) continue;
    std::uint32_t key = 0;
    while (key < K && !val(ev.key[key])) ++key;
    // The read's operation in the decoded history: its slot, or (transaction
    // form, reads added in key order) the number of keys before it t reads.
    std::uint32_t op = ev.slot;
    if (slots_ == 0) {
      op = 0;
      for (std::uint32_t x = 0; x < ev.slot; ++x)
        for (std::uint32_t v = 0; v < V; ++v) op += val(read_var(ev.txn, x, v)) ? 1 : 0;
    }
    for (std::uint32_t w = 0; w < ev.from.size(); ++w) {
      const Atom W = u.atom(model::kTxn, w);
      const BLit chosen = rf ? rf->at(Index{W} * N + u.atom(model::kRead, (ev.txn - 1) * slots_ + ev.slot))
                             : wrx.at(tuple_index(N, {W, u.atom(model::kObj, key), u.atom(model::kTxn, ev.txn)}));
      if (val(chosen)) out.push_back({w, ev.txn, op, key});
    }
  }
  return out;
}

}  // namespace iso::cegis
