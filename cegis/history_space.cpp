#include "cegis/history_space.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

std::string Scope::text() const {
  return ops > 0 ? fmt::format("{},{},{},{}", txns, objects, values, ops)
                 : fmt::format("{},{},{}", txns, objects, values);
}

Scope parse_scope(const std::string& text) {
  std::vector<std::uint32_t> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument(fmt::format(
          "malformed scope '{}': expected positive integers T,O,V[,P] (transactions, objects, "
          "values with the initial value counted, and optionally operations per transaction), "
          "e.g. 4,3,3 or 3,2,2,3", text));
    if (part.size() > 4) throw std::invalid_argument(fmt::format("scope '{}': {} is too large", text, part));
    parts.push_back(static_cast<std::uint32_t>(std::stoul(part)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (parts.size() != 3 && parts.size() != 4)
    throw std::invalid_argument(fmt::format(
        "malformed scope '{}': expected three or four numbers T,O,V[,P], got {}", text, parts.size()));
  const char* names[] = {"transactions", "objects", "values", "operations per transaction"};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i] == 0)
      throw std::invalid_argument(fmt::format("scope '{}': the number of {} must be at least 1", text, names[i]));
    if (parts[i] > 30) throw std::invalid_argument(fmt::format("scope '{}': each dimension is at most 30", text));
  }
  return Scope{parts[0], parts[1], parts[2], parts.size() == 4 ? parts[3] : 0};
}

std::string SpaceOptions::text() const {
  return fmt::format("blind_writes={} operations={} sessions={} index_ordered={} duplicates={} dirty_reads={} "
                     "key_order={} lists={} real_time={} predicates={}",
                     blind_writes, operations, sessions, index_ordered, duplicates, dirty_reads, key_order, lists,
                     real_time, predicates);
}

std::string key_name(std::uint32_t k) {
  static const char* names[] = {"x", "y", "z"};
  return k < 3 ? names[k] : fmt::format("k{}", k);
}

namespace {

std::uint32_t slots_of(const Scope& s, const SpaceOptions& opt) {
  if (s.ops > 0) return s.ops;
  return opt.operations ? 2 * s.objects : 0;
}

// Read atoms are named as a concrete history's read events: "T3.2" is T3's
// second operation (the reads come first).
Universe make_universe(const Scope& s, std::uint32_t slots) {
  std::vector<std::string> txns, objs, vals, reads;
  for (std::uint32_t t = 0; t <= s.txns; ++t) txns.push_back(fmt::format("T{}", t));
  for (std::uint32_t x = 0; x < s.objects; ++x) objs.push_back(key_name(x));
  for (std::uint32_t v = 0; v < s.values; ++v) vals.push_back(std::to_string(v));
  if (slots == 0) return Universe({txns, objs, vals});
  for (std::uint32_t t = 1; t <= s.txns; ++t)
    for (std::uint32_t i = 0; i < slots; ++i) reads.push_back(fmt::format("T{}.{}", t, i + 1));
  return Universe({txns, objs, vals, reads});
}

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

Index HistorySpace::idx3(std::uint32_t t, std::uint32_t x, std::uint32_t v) const {
  const Universe& u = universe_;
  return tuple_index(u.size(), {u.atom(model::kTxn, t), u.atom(model::kObj, x), u.atom(model::kVal, v)});
}

BLit HistorySpace::read_var(std::uint32_t t, std::uint32_t x, std::uint32_t v) const {
  return reads_.at(idx3(t, x, v));
}
BLit HistorySpace::slot_var(std::uint32_t t, std::uint32_t i, std::uint32_t x, std::uint32_t v) const {
  const std::uint32_t K = scope_.objects, V = scope_.values;
  return slot_.at((static_cast<std::size_t>(t - 1) * slots_ + i) * K * V + x * V + v);
}
BLit HistorySpace::write_var(std::uint32_t t, std::uint32_t x, std::uint32_t v) const {
  return writes_.at(idx3(t, x, v));
}
BLit HistorySpace::so_var(std::uint32_t i, std::uint32_t j) const {
  return so_.at(Index{i} * universe_.size() + j);
}

BLit HistorySpace::list_order_var(std::uint32_t x, std::uint32_t a, std::uint32_t b) const {
  if (!lists_) return kFalse;
  const std::size_t n1 = scope_.txns + 1;
  return list_order_.at((x * n1 + a) * n1 + b);
}

BLit HistorySpace::intermediate_var(std::uint32_t t, std::uint32_t x, std::uint32_t v) const {
  if (!dirty_) return kFalse;
  return intermediate_.at((static_cast<std::size_t>(t) * scope_.objects + x) * scope_.values + v);
}

HistorySpace::HistorySpace(const Scope& scope, const SpaceOptions& opt, Circuit& c)
    : scope_(scope), index_ordered_(opt.index_ordered), duplicates_(opt.duplicates), slots_(slots_of(scope, opt)),
      universe_(make_universe(scope, slots_)) {
  const std::uint32_t n = scope.txns, K = scope.objects, V = scope.values;
  const Universe& u = universe_;
  const std::uint32_t N = u.size();
  const model::HistorySchema& s = model::history_schema();
  auto T = [&](std::uint32_t t) { return u.atom(model::kTxn, t); };
  auto X = [&](std::uint32_t x) { return u.atom(model::kObj, x); };
  auto Vl = [&](std::uint32_t v) { return u.atom(model::kVal, v); };

  const bool dup = opt.duplicates;
  dirty_ = opt.dirty_reads;
  if (dup && dirty_)
    throw std::invalid_argument(
        "dirty reads (aborted transactions and intermediate writes) need unique written values: "
        "they are not available with repeated values (--duplicates)");
  lists_ = opt.lists;
  if (lists_ && (dup || dirty_ || slots_ > 0))
    throw std::invalid_argument(
        "list-append keys (--lists) are searched in the transaction form with unique values and without "
        "aborted transactions: not with --duplicates, --dirty-reads, a fourth scope number, or a level "
        "over read events");
  if (opt.predicates && (dup || dirty_ || lists_ || slots_ > 0))
    throw std::invalid_argument(
        "predicate reads are searched in the transaction form with unique values, without lists and "
        "aborted transactions: not with --duplicates, --dirty-reads, --lists, a fourth scope number, or a "
        "level over read events");
  if (opt.predicates) {
    predicate_.assign(n + 1, kFalse);
    for (std::uint32_t t = 1; t <= n; ++t) predicate_[t] = c.input();
  }
  // Variables. T0 writes value 0 everywhere and reads nothing. In the
  // operation form, R(t, x, v) is "some slot of t reads x and returns v".
  // Other transactions write the initial value only when values may repeat.
  std::vector<std::pair<Index, BLit>> rcells, wcells, socells;
  // Dirty reads: aborted transactions and intermediate writes.
  aborted_.assign(n + 1, kFalse);
  intermediate_.assign(static_cast<std::size_t>(n + 1) * K * V, kFalse);
  for (std::uint32_t t = 1; t <= n && dirty_; ++t) {
    aborted_[t] = c.input();
    for (std::uint32_t x = 0; x < K; ++x)
      for (std::uint32_t v = 1; v < V; ++v) intermediate_[(static_cast<std::size_t>(t) * K + x) * V + v] = c.input();
  }
  for (std::uint32_t t = 1; t <= n; ++t)
    for (std::uint32_t i = 0; i < slots_; ++i)
      for (std::uint32_t x = 0; x < K; ++x)
        for (std::uint32_t v = 0; v < V; ++v) slot_.push_back(c.input());
  for (std::uint32_t t = 1; t <= n; ++t)
    for (std::uint32_t x = 0; x < K; ++x)
      for (std::uint32_t v = 0; v < V; ++v) {
        if (slots_ == 0) {
          rcells.emplace_back(tuple_index(N, {T(t), X(x), Vl(v)}), c.input());
        } else {
          for (std::uint32_t i = 0; i < slots_; ++i)
            rcells.emplace_back(tuple_index(N, {T(t), X(x), Vl(v)}), slot_var(t, i, x, v));
        }
        if (v > 0 || dup) wcells.emplace_back(tuple_index(N, {T(t), X(x), Vl(v)}), c.input());
      }
  for (std::uint32_t x = 0; x < K; ++x) wcells.emplace_back(tuple_index(N, {T(0), X(x), Vl(0)}), kTrue);
  // T0 precedes every committed transaction.
  for (std::uint32_t j = 1; j <= n; ++j) socells.emplace_back(Index{T(0)} * N + T(j), !aborted_[j]);
  for (std::uint32_t i = 1; i <= n; ++i)
    for (std::uint32_t j = i + 1; j <= n; ++j)
      if (opt.sessions) socells.emplace_back(Index{T(i)} * N + T(j), c.input());
  auto A = [&](std::uint32_t t) { return aborted_[t]; };
  auto I = [&](std::uint32_t t, std::uint32_t x, std::uint32_t v) { return intermediate_var(t, x, v); };
  reads_ = make_matrix(c, 3, std::vector<std::pair<Index, BLit>>(rcells));
  writes_ = make_matrix(c, 3, std::vector<std::pair<Index, BLit>>(wcells));
  so_ = make_matrix(c, 2, std::move(socells));
  // Which values of a key are committed versions: the initial value, and
  // the final writes of committed transactions (values are unique, so a
  // value is one writer's, of one kind).
  clean_.assign(static_cast<std::size_t>(K) * V, kTrue);
  std::vector<BLit> abr_val(static_cast<std::size_t>(K) * V, kFalse), irr_val(abr_val);
  for (std::uint32_t x = 0; x < K && dirty_; ++x)
    for (std::uint32_t v = 1; v < V; ++v) {
      std::vector<BLit> committed, aborted, inter;
      for (std::uint32_t t = 1; t <= n; ++t) {
        committed.push_back(c.and_(write_var(t, x, v), !A(t)));
        aborted.push_back(c.and_(write_var(t, x, v), A(t)));
        inter.push_back(I(t, x, v));
      }
      clean_[x * V + v] = c.or_(committed);
      abr_val[x * V + v] = c.or_(aborted);
      irr_val[x * V + v] = c.or_(inter);
    }
  // The base relations see the committed part: committed final writes,
  // reads of committed versions.
  BoolMatrix committed_writes = writes_, clean_reads = reads_;
  if (dirty_) {
    std::vector<std::pair<Index, BLit>> cw, cr, abr, irr;
    for (const auto& [idx, l] : wcells) {
      const std::uint32_t t = static_cast<std::uint32_t>(idx / (Index{N} * N)) - T(0);
      cw.emplace_back(idx, c.and_(l, !A(t)));
    }
    for (const auto& [idx, l] : rcells) {
      const std::uint32_t x = static_cast<std::uint32_t>(idx / N % N) - X(0);
      const std::uint32_t v = static_cast<std::uint32_t>(idx % N) - Vl(0);
      cr.emplace_back(idx, c.and_(l, clean_[x * V + v]));
      if (v == 0) continue;
      abr.emplace_back(idx, c.and_(l, abr_val[x * V + v]));
      irr.emplace_back(idx, c.and_(l, irr_val[x * V + v]));
    }
    committed_writes = make_matrix(c, 3, std::move(cw));
    clean_reads = make_matrix(c, 3, std::move(cr));
    BoolMatrix abr_m = make_matrix(c, 3, std::move(abr)), irr_m = make_matrix(c, 3, std::move(irr));
    std::vector<BLit> any_abr, any_irr;
    for (const auto& cell : abr_m.cells) any_abr.push_back(cell.second);
    for (const auto& cell : irr_m.cells) any_irr.push_back(cell.second);
    some_abr_ = c.or_(any_abr);
    some_irr_ = c.or_(any_irr);
    bindings_.bind(s.abr, std::move(abr_m));
    bindings_.bind(s.irr, std::move(irr_m));
  } else {
    bindings_.bind(s.abr, constant_matrix(N, 3, {}));
    bindings_.bind(s.irr, constant_matrix(N, 3, {}));
  }
  // The index order, over the committed transactions.
  {
    std::vector<std::pair<Index, BLit>> cells;
    for (std::uint32_t i = 0; i <= n; ++i)
      for (std::uint32_t j = i + 1; j <= n; ++j) cells.emplace_back(Index{T(i)} * N + T(j), c.and_(!A(i), !A(j)));
    index_order_ = make_matrix(c, 2, std::move(cells));
  }

  auto R = [&](std::uint32_t t, std::uint32_t x, std::uint32_t v) { return read_var(t, x, v); };
  auto W = [&](std::uint32_t t, std::uint32_t x, std::uint32_t v) { return write_var(t, x, v); };
  auto SO = [&](std::uint32_t i, std::uint32_t j) { return so_var(i, j); };

  std::vector<BLit> k;  // constraints
  for (std::uint32_t t = 1; t <= n; ++t)
    for (std::uint32_t x = 0; x < K; ++x) {
      std::vector<BLit> rs, ws;
      for (std::uint32_t v = 0; v < V; ++v) {
        rs.push_back(R(t, x, v));
        if (v > 0 || dup) ws.push_back(W(t, x, v));
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
        ws.push_back(W(t, x, v));
        if (dirty_) ws.push_back(I(t, x, v));
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
          if (w < t || !opt.index_ordered) writers.push_back(c.and_(W(w, x, v), !A(w)));
          if (dirty_) {
            writers.push_back(c.and_(W(w, x, v), A(w)));
            writers.push_back(I(w, x, v));
          }
        }
        k.push_back(c.implies(R(t, x, v), c.or_(writers)));
      }
  // Aborted transactions: writes only, in no session; an intermediate write
  // is a committed transaction's, followed by its final write of the key.
  for (std::uint32_t t = 1; t <= n && dirty_; ++t) {
    for (std::uint32_t x = 0; x < K; ++x) {
      std::vector<BLit> is, ws;
      for (std::uint32_t v = 1; v < V; ++v) {
        k.push_back(c.implies(A(t), !R(t, x, v)));
        is.push_back(I(t, x, v));
        ws.push_back(W(t, x, v));
      }
      k.push_back(c.implies(A(t), !R(t, x, 0)));
      k.push_back(c.at_most_one(is));
      k.push_back(c.implies(c.or_(is), c.and_(!A(t), c.or_(ws))));
    }
    for (std::uint32_t j = 1; j <= n; ++j)
      if (j != t) k.push_back(c.implies(A(t), !SO(std::min(t, j), std::max(t, j))));
  }
  // Session order: transitive, and a disjoint union of chains (two
  // predecessors, or two successors, of one transaction are ordered).
  for (std::uint32_t i = 1; i <= n; ++i)
    for (std::uint32_t j = i + 1; j <= n; ++j)
      for (std::uint32_t l = j + 1; l <= n; ++l) {
        k.push_back(c.implies(c.and_(SO(i, j), SO(j, l)), SO(i, l)));
        k.push_back(c.implies(c.and_(SO(i, l), SO(j, l)), SO(i, j)));
        k.push_back(c.implies(c.and_(SO(i, j), SO(i, l)), SO(j, l)));
      }
  // Values of each key written in order of their writers' indices, and the
  // written values form a prefix 1, 2, ... With dirty reads, over every
  // write, a transaction's intermediate value before its final one.
  auto WA = [&](std::uint32_t t, std::uint32_t x, std::uint32_t v) {
    return dirty_ ? c.or_(W(t, x, v), I(t, x, v)) : W(t, x, v);
  };
  for (std::uint32_t x = 0; x < K && !dup; ++x)
    for (std::uint32_t v = 1; v < V; ++v) {
      for (std::uint32_t t = 1; t <= n; ++t)
        for (std::uint32_t w = 1; w <= t; ++w)
          for (std::uint32_t v2 = v + 1; v2 < V; ++v2) {
            // v < v2 needs writer(v) < writer(v2), or the same writer with v
            // its intermediate value.
            if (w < t) k.push_back(!c.and_(WA(t, x, v), WA(w, x, v2)));
            else k.push_back(!c.and_(W(t, x, v), WA(w, x, v2)));
          }
      if (v + 1 < V) {
        std::vector<BLit> next, cur;
        for (std::uint32_t t = 1; t <= n; ++t) {
          next.push_back(WA(t, x, v + 1));
          cur.push_back(WA(t, x, v));
        }
        k.push_back(c.implies(c.or_(next), c.or_(cur)));
      }
    }
  // With repeated values, by first occurrence: a writer of v > 1 has an
  // earlier writer of v - 1 (so the first writer of v comes after the first
  // writer of v - 1, and the written values form a prefix).
  for (std::uint32_t x = 0; x < K && dup; ++x)
    for (std::uint32_t v = 2; v < V; ++v)
      for (std::uint32_t t = 1; t <= n; ++t) {
        std::vector<BLit> earlier;
        for (std::uint32_t w = 1; w < t; ++w) earlier.push_back(W(w, x, v - 1));
        k.push_back(c.implies(W(t, x, v), c.or_(earlier)));
      }
  // used(t, x), empty(t).
  std::vector<std::vector<BLit>> used(n + 1, std::vector<BLit>(K, kFalse));
  std::vector<BLit> empty(n + 1, kFalse);
  for (std::uint32_t t = 1; t <= n; ++t) {
    std::vector<BLit> any;
    for (std::uint32_t x = 0; x < K; ++x) {
      std::vector<BLit> ops;
      for (std::uint32_t v = 0; v < V; ++v) {
        ops.push_back(R(t, x, v));
        if (v > 0 || dup) ops.push_back(W(t, x, v));
      }
      used[t][x] = c.or_(ops);  // an intermediate write comes with a final one
      any.push_back(used[t][x]);
    }
    empty[t] = !c.or_(any);
  }
  // Keys in order of first use (in the constraints, or apart).
  std::vector<BLit> key_order;
  for (std::uint32_t x = 0; x + 1 < K; ++x)
    for (std::uint32_t t = 1; t <= n; ++t) {
      std::vector<BLit> before;
      for (std::uint32_t w = 1; w <= t; ++w) before.push_back(used[w][x]);
      key_order.push_back(c.implies(used[t][x + 1], c.or_(before)));
    }
  key_order_ = c.and_(key_order);
  if (opt.key_order) k.push_back(key_order_);
  // Empty transactions last, in no session with others; aborted ones, not
  // empty, first (T1, T2, ...).
  for (std::uint32_t t = 1; t < n; ++t) k.push_back(c.implies(empty[t], empty[t + 1]));
  for (std::uint32_t t = 1; t <= n && dirty_; ++t) {
    k.push_back(c.implies(A(t), !empty[t]));
    if (t > 1) k.push_back(c.implies(A(t), A(t - 1)));
  }
  for (std::uint32_t i = 1; i <= n; ++i)
    for (std::uint32_t j = i + 1; j <= n; ++j) {
      k.push_back(c.implies(empty[i], !SO(i, j)));
      k.push_back(c.implies(empty[j], !SO(i, j)));
    }
  if (slots_ > 0) build_read_slots(c, k);
  if (lists_) build_lists(c, k);
  real_time_ = opt.real_time;
  if (real_time_) build_real_time(c, k);
  constraints_ = c.and_(k);
  bindings_.bind(s.reads, clean_reads);
  bindings_.bind(s.writes, committed_writes);
  if (dirty_) {
    // The sort Txn is the committed transactions, as in a checked history.
    std::vector<std::pair<Index, BLit>> extent;
    for (std::uint32_t t = 0; t <= n; ++t) extent.emplace_back(T(t), !A(t));
    bindings_.bind_extent(model::kTxn, make_matrix(c, 1, std::move(extent)));
  }
  bindings_.bind(s.so, so_);
  bindings_.bind(s.t0, constant_matrix(N, 1, {{T(0)}}));
  if (!lists_) bindings_.bind(s.vo, constant_matrix(N, 3, {}));  // register reads reveal no version order
  if (dup) {
    build_read_events(c);
    return;
  }

  // Read-from: wrx(t1, x, t3) iff t3 reads the value t1 wrote (and t1 < t3
  // when index ordered).
  // Item read-from: a predicate read's keys are item reads too when it
  // returns them (a non-initial value); those it leaves out, read from T0,
  // are not.
  std::vector<std::pair<Index, BLit>> wrx, iwrx;
  for (std::uint32_t t3 = 1; t3 <= n; ++t3)
    for (std::uint32_t x = 0; x < K; ++x) {
      const Index from_t0 = tuple_index(N, {T(0), X(x), T(t3)});
      wrx.emplace_back(from_t0, R(t3, x, 0));
      iwrx.emplace_back(from_t0, c.and_(R(t3, x, 0), !predicate_var(t3)));
      for (std::uint32_t t1 = 1; t1 <= n; ++t1) {
        if (t1 == t3 || (t1 > t3 && opt.index_ordered)) continue;
        std::vector<BLit> same;
        for (std::uint32_t v = 1; v < V; ++v) same.push_back(c.and_(c.and_(W(t1, x, v), !A(t1)), R(t3, x, v)));
        wrx.emplace_back(tuple_index(N, {T(t1), X(x), T(t3)}), c.or_(same));
        iwrx.push_back(wrx.back());
      }
    }
  bindings_.bind(s.iwrx, make_matrix(c, 3, std::move(iwrx)));
  bindings_.bind(s.wrx, make_matrix(c, 3, std::move(wrx)));
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

BLit HistorySpace::event_before(std::uint32_t x, std::uint32_t y) const {
  const std::uint32_t e = 2 * scope_.txns;
  return x == y ? kFalse : event_before_[static_cast<std::size_t>(x) * e + y];
}

void HistorySpace::build_real_time(Circuit& c, std::vector<BLit>& k) {
  const std::uint32_t n = scope_.txns, e = 2 * n;
  const Universe& u = universe_;
  const std::uint32_t N = u.size();
  const model::HistorySchema& s = model::history_schema();
  auto T = [&](std::uint32_t t) { return u.atom(model::kTxn, t); };
  event_before_.assign(static_cast<std::size_t>(e) * e, kFalse);
  for (std::uint32_t x = 0; x < e; ++x)
    for (std::uint32_t y = 0; y < e; ++y)
      if (x != y) event_before_[static_cast<std::size_t>(x) * e + y] = c.input();
  auto E = [&](std::uint32_t x, std::uint32_t y) { return event_before(x, y); };
  // A strict weak order: asymmetric, transitive, and so is "not before".
  for (std::uint32_t x = 0; x < e; ++x)
    for (std::uint32_t y = 0; y < e; ++y) {
      if (x == y) continue;
      if (x < y) k.push_back(!c.and_(E(x, y), E(y, x)));
      for (std::uint32_t z = 0; z < e; ++z) {
        if (z == x || z == y) continue;
        k.push_back(c.implies(c.and_(E(x, y), E(y, z)), E(x, z)));
        k.push_back(c.implies(c.and_(!E(x, y), !E(y, z)), !E(x, z)));
      }
    }
  auto B = [](std::uint32_t t) { return 2 * (t - 1); };
  auto C = [](std::uint32_t t) { return 2 * (t - 1) + 1; };
  for (std::uint32_t t = 1; t <= n; ++t) k.push_back(!E(C(t), B(t)));  // begin ≤ commit
  for (std::uint32_t i = 1; i <= n; ++i)  // a session runs its transactions in turn
    for (std::uint32_t j = i + 1; j <= n; ++j) k.push_back(c.implies(so_var(i, j), E(C(i), B(j))));
  auto bind = [&](const logic::RelationPtr& r, bool from_commit, bool to_commit) {
    std::vector<std::pair<Index, BLit>> cells;
    for (std::uint32_t j = 1; j <= n; ++j) cells.emplace_back(Index{T(0)} * N + T(j), kTrue);
    for (std::uint32_t i = 1; i <= n; ++i)
      for (std::uint32_t j = 1; j <= n; ++j)
        if (i != j)
          cells.emplace_back(Index{T(i)} * N + T(j),
                             E(from_commit ? C(i) : B(i), to_commit ? C(j) : B(j)));
    bindings_.bind(r, make_matrix(c, 2, std::move(cells)));
  };
  bind(s.rt, true, false);
  bind(s.rt_cc, true, true);
  bind(s.rt_bc, false, true);
}

void HistorySpace::build_lists(Circuit& c, std::vector<BLit>& k) {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values;
  const Universe& u = universe_;
  const std::uint32_t N = u.size();
  const std::size_t n1 = n + 1;
  list_order_.assign(K * n1 * n1, kFalse);
  for (std::uint32_t x = 0; x < K; ++x)
    for (std::uint32_t a = 1; a <= n; ++a)
      for (std::uint32_t b = a + 1; b <= n; ++b) {
        const BLit l = c.input();
        list_order_[(x * n1 + a) * n1 + b] = l;
        list_order_[(x * n1 + b) * n1 + a] = !l;
      }
  auto O = [&](std::uint32_t x, std::uint32_t a, std::uint32_t b) { return list_order_var(x, a, b); };
  std::vector<std::pair<Index, BLit>> vo;
  for (std::uint32_t x = 0; x < K; ++x) {
    // A strict total order: one variable per pair makes it total and
    // antisymmetric; transitivity remains.
    for (std::uint32_t a = 1; a <= n; ++a)
      for (std::uint32_t b = 1; b <= n; ++b)
        for (std::uint32_t d = 1; d <= n; ++d)
          if (a != b && b != d && a != d) k.push_back(c.implies(c.and_(O(x, a, b), O(x, b, d)), O(x, a, d)));
    std::vector<BLit> appends(n + 1, kFalse);
    for (std::uint32_t t = 1; t <= n; ++t) {
      std::vector<BLit> ws;
      for (std::uint32_t v = 1; v < V; ++v) ws.push_back(write_var(t, x, v));
      appends[t] = c.or_(ws);
    }
    // ends[t][w]: t's read of x returns the list ending with w's element.
    std::vector<std::vector<BLit>> ends(n + 1, std::vector<BLit>(n + 1, kFalse));
    for (std::uint32_t t = 1; t <= n; ++t)
      for (std::uint32_t w = 1; w <= n; ++w) {
        if (w == t) continue;
        std::vector<BLit> same;
        for (std::uint32_t v = 1; v < V; ++v) same.push_back(c.and_(read_var(t, x, v), write_var(w, x, v)));
        ends[t][w] = c.or_(same);
        // The read comes before the reader's own append.
        k.push_back(c.implies(c.and_(ends[t][w], appends[t]), O(x, w, t)));
      }
    // In the longest list returned: a's append is some read's last element or
    // precedes it.
    for (std::uint32_t a = 1; a <= n; ++a) {
      std::vector<BLit> shown;
      for (std::uint32_t t = 1; t <= n; ++t)
        for (std::uint32_t w = 1; w <= n; ++w)
          if (ends[t][w] != kFalse) shown.push_back(w == a ? ends[t][w] : c.and_(ends[t][w], O(x, a, w)));
      const BLit in_chain = c.and_(appends[a], c.or_(shown));
      for (std::uint32_t b = 1; b <= n; ++b)
        if (b != a)
          vo.emplace_back(tuple_index(N, {u.atom(model::kObj, x), u.atom(model::kTxn, a), u.atom(model::kTxn, b)}),
                          c.and_(c.and_(in_chain, appends[b]), O(x, a, b)));
    }
  }
  bindings_.bind(model::history_schema().vo, make_matrix(c, 3, std::move(vo)));
}

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

History HistorySpace::decode(const Circuit& c, const std::vector<bool>& inputs) const {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values;
  auto val = [&](BLit l) { return c.eval(l, inputs); };
  History h;
  for (std::uint32_t x = 0; x < K; ++x) h.intern_key(key_name(x));
  for (std::uint32_t v = 0; v < V; ++v) h.intern_value(Value{std::int64_t{v}});
  // Each transaction's session predecessor is the latest so-predecessor.
  std::vector<SessionId> session(n + 1, kNoSession);
  std::vector<std::vector<std::uint32_t>> members;
  for (std::uint32_t t = 1; t <= n; ++t) {
    std::uint32_t pred = 0;
    for (std::uint32_t i = 1; i < t; ++i)
      if (val(so_var(i, t))) pred = i;
    if (pred == 0) {
      session[t] = static_cast<SessionId>(members.size());
      members.push_back({});
    } else {
      session[t] = session[pred];
    }
    members[session[t]].push_back(t);
  }
  // With lists: the list of x whose last element is v (v = 0: the empty
  // list), the appends up to v's in x's list order.
  auto list_of = [&](std::uint32_t x, std::uint32_t v) {
    std::vector<ValueId> out;
    if (v == 0) return out;
    std::uint32_t last = 0;
    std::vector<std::pair<std::uint32_t, ValueId>> appends;  // (writer, element)
    for (std::uint32_t w = 1; w <= n; ++w)
      for (std::uint32_t e = 1; e < V; ++e)
        if (val(write_var(w, x, e))) {
          appends.emplace_back(w, e);
          if (e == v) last = w;
        }
    std::sort(appends.begin(), appends.end(), [&](const auto& a, const auto& b) {
      return a.first != b.first && val(list_order_var(x, a.first, b.first));
    });
    for (const auto& [w, e] : appends) {
      out.push_back(e);
      if (w == last) break;
    }
    return out;
  };
  // Transactions are added in index order so that TxnId = index; sessions are
  // created in order of their first transaction, which keeps that true.
  std::vector<SessionId> sid(members.size());
  for (std::size_t s = 0; s < members.size(); ++s) sid[s] = h.add_session();
  for (std::uint32_t t = 1; t <= n; ++t) {
    TxnId id = h.add_txn(sid[session[t]], fmt::format("T{}", t),
                         val(aborted_var(t)) ? TxnStatus::Aborted : TxnStatus::Committed);
    if (real_time_) {
      // An event's time: 10 for each event before it (ties share it).
      auto time = [&](std::uint32_t x) {
        std::int64_t before = 0;
        for (std::uint32_t y = 0; y < 2 * n; ++y) before += val(event_before(y, x)) ? 1 : 0;
        return 10 * (before + 1);
      };
      // Exact events: each known to the tick.
      h.txn(id).begin = h.txn(id).begin_end = time(2 * (t - 1));
      h.txn(id).commit = h.txn(id).commit_start = time(2 * (t - 1) + 1);
    }
    if (slots_ == 0 && val(predicate_var(t))) {
      // One predicate read: the keys with a non-initial value, with it.
      PredicateRead pr{"v!=0", {}};
      for (std::uint32_t x = 0; x < K; ++x)
        for (std::uint32_t v = 1; v < V; ++v)
          if (val(read_var(t, x, v))) pr.result.emplace_back(x, v);
      h.add_predicate_read(id, std::move(pr));
    } else if (slots_ == 0) {
      for (std::uint32_t x = 0; x < K; ++x)
        for (std::uint32_t v = 0; v < V; ++v) {
          if (!val(read_var(t, x, v))) continue;
          if (lists_) h.add_list_read(id, x, list_of(x, v), 0);
          else h.add_read(id, x, v);
        }
    }
    for (std::uint32_t i = 0; i < slots_; ++i)  // reads in program order
      for (std::uint32_t x = 0; x < K; ++x)
        for (std::uint32_t v = 0; v < V; ++v)
          if (val(slot_var(t, i, x, v))) h.add_read(id, x, v);
    for (std::uint32_t x = 0; x < K; ++x) {
      for (std::uint32_t v = 1; v < V && dirty_; ++v)  // an intermediate write, then the final one
        if (val(intermediate_var(t, x, v))) h.add_write(id, x, v);
      for (std::uint32_t v = duplicates_ ? 0 : 1; v < V; ++v)
        if (val(write_var(t, x, v))) h.add_write(id, x, v);
    }
  }
  return h;
}

}  // namespace iso::cegis
