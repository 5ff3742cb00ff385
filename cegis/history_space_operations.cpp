// The history space's operation form (a fourth scope number P, or a level
// over read events; cegis/history_space.hpp): per transaction, read slots
// in program order, S[t][i][x][v] "t's i-th read reads x and returns v", the
// atoms of the sort Read, and the relations over read events (rtxn, rkey,
// rval, po, and rf without repeated values), with the bound P on a
// transaction's reads and written keys.
#include "cegis/history_space.hpp"

#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

namespace {

// at_least[j]: at least j + 1 of `lits` hold (a unary counter; the sizes
// here are a few dozen literals).
std::vector<BLit> at_least(Circuit& c, const std::vector<BLit>& lits) {
  std::vector<BLit> count;
  for (BLit l : lits) {
    std::vector<BLit> next(count.size() + 1);
    for (std::size_t j = 0; j < next.size(); ++j) {
      BLit stay = j < count.size() ? count[j] : kFalse;
      BLit step = j == 0 ? l : c.and_(count[j - 1], l);
      next[j] = c.or_(stay, step);
    }
    count = std::move(next);
  }
  return count;
}

}  // namespace

void HistorySpace::make_slot_variables(Circuit& c) {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values;
  for (std::uint32_t t = 1; t <= n; ++t)
    for (std::uint32_t i = 0; i < slots_; ++i)
      for (std::uint32_t x = 0; x < K; ++x)
        for (std::uint32_t v = 0; v < V; ++v) slot_.push_back(c.input());
}

void HistorySpace::build_read_slots(Circuit& c, std::vector<BLit>& k) {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values, S = slots_;
  const Universe& u = universe_;
  const std::uint32_t N = u.size();
  const model::HistorySchema& s = model::history_schema();
  auto T = [&](std::uint32_t t) { return u.atom(model::kTxn, t); };
  auto Rd = [&](std::uint32_t t, std::uint32_t i) { return u.atom(model::kRead, (t - 1) * S + i); };
  std::vector<std::pair<Index, BLit>> extent, rtxn, rkey, rval, po, rf;
  // A slot that reads an aborted or intermediate write is no read event
  // (dirty reads): the relations over read events see the clean slots.
  auto clean_slot = [&](std::uint32_t t, std::uint32_t i, std::uint32_t x, std::uint32_t v) {
    return dirty_ ? c.and_(slot_var(t, i, x, v), clean_[x * V + v]) : slot_var(t, i, x, v);
  };
  for (std::uint32_t t = 1; t <= n; ++t) {
    std::vector<BLit> used(S), event(S);
    for (std::uint32_t i = 0; i < S; ++i) {
      std::vector<BLit> all, events;
      for (std::uint32_t x = 0; x < K; ++x) {
        std::vector<BLit> of_key;
        for (std::uint32_t v = 0; v < V; ++v) {
          all.push_back(slot_var(t, i, x, v));
          of_key.push_back(clean_slot(t, i, x, v));
        }
        events.insert(events.end(), of_key.begin(), of_key.end());
        rkey.emplace_back(Index{Rd(t, i)} * N + u.atom(model::kObj, x), c.or_(of_key));
      }
      for (std::uint32_t v = 0; v < V; ++v) {
        std::vector<BLit> of_val;
        for (std::uint32_t x = 0; x < K; ++x) of_val.push_back(clean_slot(t, i, x, v));
        rval.emplace_back(Index{Rd(t, i)} * N + u.atom(model::kVal, v), c.or_(of_val));
      }
      k.push_back(c.at_most_one(all));
      used[i] = c.or_(all);
      event[i] = dirty_ ? c.or_(events) : used[i];
      if (i > 0) k.push_back(c.implies(used[i], used[i - 1]));  // used slots are a prefix
      extent.emplace_back(Rd(t, i), event[i]);
      rtxn.emplace_back(Index{Rd(t, i)} * N + T(t), event[i]);
      for (std::uint32_t j = 0; j < i; ++j)
        po.emplace_back(Index{Rd(t, j)} * N + Rd(t, i), dirty_ ? c.and_(event[j], event[i]) : used[i]);
      // rf(w, α): α returns w's write of its key; the writer is unique (values
      // are), and of lower index when index ordered. (With duplicates rf is
      // each execution's choice: fresh_read_from.)
      if (duplicates_) continue;
      for (std::uint32_t x = 0; x < K; ++x)
        rf.emplace_back(Index{T(0)} * N + Rd(t, i), slot_var(t, i, x, 0));
      for (std::uint32_t w = 1; w <= n; ++w) {
        if (w == t || (w > t && index_ordered_)) continue;
        std::vector<BLit> same;
        for (std::uint32_t x = 0; x < K; ++x)
          for (std::uint32_t v = 1; v < V; ++v)
            same.push_back(c.and_(c.and_(slot_var(t, i, x, v), write_var(w, x, v)), !aborted_var(w)));
        rf.emplace_back(Index{T(w)} * N + Rd(t, i), c.or_(same));
      }
    }
    // With a bound P on operations: used slots plus written keys at most P.
    if (scope_.ops > 0) {
      std::vector<BLit> ops = used;
      for (std::uint32_t x = 0; x < K; ++x) {
        std::vector<BLit> ws, is;
        for (std::uint32_t v = duplicates_ ? 0 : 1; v < V; ++v) {
          ws.push_back(write_var(t, x, v));
          is.push_back(intermediate_var(t, x, v));
        }
        ops.push_back(c.or_(ws));
        if (dirty_) ops.push_back(c.or_(is));
      }
      std::vector<BLit> count = at_least(c, ops);
      if (count.size() > scope_.ops) k.push_back(!count[scope_.ops]);
    }
  }
  bindings_.bind(s.rtxn, make_matrix(c, 2, std::move(rtxn)));
  bindings_.bind(s.rkey, make_matrix(c, 2, std::move(rkey)));
  bindings_.bind(s.rval, make_matrix(c, 2, std::move(rval)));
  bindings_.bind(s.po, make_matrix(c, 2, std::move(po)));
  if (!duplicates_) bindings_.bind(s.rf, make_matrix(c, 2, std::move(rf)));
  bindings_.bind_extent(model::kRead, make_matrix(c, 1, std::move(extent)));
}

}  // namespace iso::cegis
