// The history space's registers (cegis/history_space.hpp): the variables of
// reads, final writes and session order, the constraints that make them a
// history (one value per read and write of a key, unique written values,
// no thin-air reads, sessions as chains), predicate reads, and read-from
// as a function of the values (without repeated values).
#include "cegis/history_space.hpp"

#include <algorithm>

#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

// Precondition of the register steps: the dirty-read variables exist
// (make_dirty_variables), as kFalse without dirty reads.

void HistorySpace::make_predicate_variables(Circuit& c, const SpaceOptions& opt) {
  if (!opt.predicates) return;
  predicate_.assign(scope_.txns + 1, kFalse);
  for (std::uint32_t t = 1; t <= scope_.txns; ++t) predicate_[t] = c.input();
}

HistorySpace::BaseCells HistorySpace::make_register_variables(Circuit& c, const SpaceOptions& opt) {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values, N = universe_.size();
  // In the operation form, R(t, x, v) is "some slot of t reads x and returns
  // v". Other transactions write the initial value only when values may
  // repeat.
  BaseCells out;
  std::vector<std::pair<Index, BLit>> socells;
  for (std::uint32_t t = 1; t <= n; ++t)
    for (std::uint32_t x = 0; x < K; ++x)
      for (std::uint32_t v = 0; v < V; ++v) {
        if (slots_ == 0) {
          out.reads.emplace_back(idx3(t, x, v), c.input());
        } else {
          for (std::uint32_t i = 0; i < slots_; ++i) out.reads.emplace_back(idx3(t, x, v), slot_var(t, i, x, v));
        }
        if (v > 0 || duplicates_) out.writes.emplace_back(idx3(t, x, v), c.input());
      }
  for (std::uint32_t x = 0; x < K; ++x) out.writes.emplace_back(idx3(0, x, 0), kTrue);
  // T0 precedes every committed transaction.
  for (std::uint32_t j = 1; j <= n; ++j) socells.emplace_back(Index{txn_atom(0)} * N + txn_atom(j), !aborted_[j]);
  for (std::uint32_t i = 1; i <= n; ++i)
    for (std::uint32_t j = i + 1; j <= n; ++j)
      if (opt.sessions) socells.emplace_back(Index{txn_atom(i)} * N + txn_atom(j), c.input());
  reads_ = make_matrix(c, 3, std::vector<std::pair<Index, BLit>>(out.reads));
  writes_ = make_matrix(c, 3, std::vector<std::pair<Index, BLit>>(out.writes));
  so_ = make_matrix(c, 2, std::move(socells));
  return out;
}

void HistorySpace::register_constraints(Circuit& c, const SpaceOptions& opt, std::vector<BLit>& k) const {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values;
  const bool dup = duplicates_;
  for (std::uint32_t t = 1; t <= n; ++t)
    for (std::uint32_t x = 0; x < K; ++x) {
      std::vector<BLit> rs, ws;
      for (std::uint32_t v = 0; v < V; ++v) {
        rs.push_back(read_var(t, x, v));
        if (v > 0 || dup) ws.push_back(write_var(t, x, v));
      }
      if (slots_ == 0) k.push_back(c.at_most_one(rs));
      k.push_back(c.at_most_one(ws));
      // A predicate read reads every key.
      k.push_back(c.implies(predicate_var(t), c.or_(rs)));
      // (What an aborted transaction reads is no part of the history's view.)
      if (!opt.blind_writes) k.push_back(c.implies(c.and_(c.or_(ws), !aborted_var(t)), c.or_(rs)));
    }
  // Unique written values: each (x, v), v > 0, has at most one writer (an
  // intermediate write counted).
  for (std::uint32_t x = 0; x < K && !dup; ++x)
    for (std::uint32_t v = 1; v < V; ++v) {
      std::vector<BLit> ws;
      for (std::uint32_t t = 1; t <= n; ++t) {
        ws.push_back(write_var(t, x, v));
        if (dirty_) ws.push_back(intermediate_var(t, x, v));
      }
      k.push_back(c.at_most_one(ws));
    }
  // Every read returns the write of a lower-indexed transaction (T0 for v = 0).
  // With repeated values, some writer of the value has a lower index: the
  // one the execution numbering the transactions reads from.
  // With dirty reads, a read of an aborted or intermediate write is of any
  // other transaction (it is no read-from).
  for (std::uint32_t t = 1; t <= n; ++t)
    for (std::uint32_t x = 0; x < K; ++x)
      for (std::uint32_t v = 1; v < V; ++v) {
        std::vector<BLit> writers;
        for (std::uint32_t w = 1; w <= n; ++w) {
          if (w == t) continue;
          if (w < t || !opt.index_ordered) writers.push_back(c.and_(write_var(w, x, v), !aborted_var(w)));
          if (dirty_) {
            writers.push_back(c.and_(write_var(w, x, v), aborted_var(w)));
            writers.push_back(intermediate_var(w, x, v));
          }
        }
        k.push_back(c.implies(read_var(t, x, v), c.or_(writers)));
      }
}

void HistorySpace::session_constraints(Circuit& c, std::vector<BLit>& k) const {
  const std::uint32_t n = scope_.txns;
  auto SO = [&](std::uint32_t i, std::uint32_t j) { return so_var(i, j); };
  // Transitive, and a disjoint union of chains (two predecessors, or two
  // successors, of one transaction are ordered).
  for (std::uint32_t i = 1; i <= n; ++i)
    for (std::uint32_t j = i + 1; j <= n; ++j)
      for (std::uint32_t l = j + 1; l <= n; ++l) {
        k.push_back(c.implies(c.and_(SO(i, j), SO(j, l)), SO(i, l)));
        k.push_back(c.implies(c.and_(SO(i, l), SO(j, l)), SO(i, j)));
        k.push_back(c.implies(c.and_(SO(i, j), SO(i, l)), SO(j, l)));
      }
}

void HistorySpace::bind_value_read_from(Circuit& c) {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values, N = universe_.size();
  const model::HistorySchema& s = model::history_schema();
  auto T = [&](std::uint32_t t) { return txn_atom(t); };
  auto X = [&](std::uint32_t x) { return universe_.atom(model::kObj, x); };
  // Read-from: wrx(t1, x, t3) iff t3 reads the value t1 wrote (and t1 < t3
  // when index ordered).
  // Item read-from: a predicate read's keys are item reads too when it
  // returns them (a non-initial value); those it leaves out, read from T0,
  // are not.
  std::vector<std::pair<Index, BLit>> wrx, iwrx;
  for (std::uint32_t t3 = 1; t3 <= n; ++t3)
    for (std::uint32_t x = 0; x < K; ++x) {
      const Index from_t0 = tuple_index(N, {T(0), X(x), T(t3)});
      wrx.emplace_back(from_t0, read_var(t3, x, 0));
      iwrx.emplace_back(from_t0, c.and_(read_var(t3, x, 0), !predicate_var(t3)));
      for (std::uint32_t t1 = 1; t1 <= n; ++t1) {
        if (t1 == t3 || (t1 > t3 && index_ordered_)) continue;
        std::vector<BLit> same;
        for (std::uint32_t v = 1; v < V; ++v)
          same.push_back(c.and_(c.and_(write_var(t1, x, v), !aborted_var(t1)), read_var(t3, x, v)));
        wrx.emplace_back(tuple_index(N, {T(t1), X(x), T(t3)}), c.or_(same));
        iwrx.push_back(wrx.back());
      }
    }
  bindings_.bind(s.iwrx, make_matrix(c, 3, std::move(iwrx)));
  bindings_.bind(s.wrx, make_matrix(c, 3, std::move(wrx)));
}

}  // namespace iso::cegis
