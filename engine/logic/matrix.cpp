// The matrix operations of matrix.hpp (join, product, union, closure, ...)
// over circuit literals.
#include "engine/logic/matrix.hpp"

#include <algorithm>

#include "engine/util/budget.hpp"

namespace iso::logic {

BLit BoolMatrix::at(Index i) const {
  auto it = std::lower_bound(cells.begin(), cells.end(), i,
                             [](const auto& cell, Index k) { return cell.first < k; });
  return (it != cells.end() && it->first == i) ? it->second : kFalse;
}

Index power(std::uint32_t n, std::uint32_t k) {
  Index p = 1;
  while (k--) p *= n;
  return p;
}

Index tuple_index(std::uint32_t n, const std::vector<Atom>& tuple) {
  Index i = 0;
  for (Atom a : tuple) i = i * n + a;
  return i;
}

std::vector<Atom> index_tuple(std::uint32_t n, std::uint32_t arity, Index i) {
  std::vector<Atom> t(arity);
  for (std::uint32_t k = arity; k-- > 0;) {
    t[k] = static_cast<Atom>(i % n);
    i /= n;
  }
  return t;
}

BoolMatrix make_matrix(Circuit& c, std::uint32_t arity, std::vector<std::pair<Index, BLit>> cells) {
  std::sort(cells.begin(), cells.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  BoolMatrix m{arity, {}};
  std::vector<BLit> group;
  for (std::size_t i = 0; i < cells.size();) {
    std::size_t j = i;
    group.clear();
    while (j < cells.size() && cells[j].first == cells[i].first) group.push_back(cells[j++].second);
    BLit v = group.size() == 1 ? group[0] : c.or_(group);
    if (v != kFalse) m.cells.emplace_back(cells[i].first, v);
    i = j;
  }
  return m;
}

// Merges two sorted cell lists; f(a, b) gets kFalse for a missing side.
template <class F>
static BoolMatrix merge(std::uint32_t arity, const BoolMatrix& a, const BoolMatrix& b, F f) {
  BoolMatrix m{arity, {}};
  std::size_t i = 0, j = 0;
  while (i < a.cells.size() || j < b.cells.size()) {
    Index k;
    BLit x = kFalse, y = kFalse;
    if (j == b.cells.size() || (i < a.cells.size() && a.cells[i].first < b.cells[j].first)) {
      k = a.cells[i].first;
      x = a.cells[i++].second;
    } else if (i == a.cells.size() || b.cells[j].first < a.cells[i].first) {
      k = b.cells[j].first;
      y = b.cells[j++].second;
    } else {
      k = a.cells[i].first;
      x = a.cells[i++].second;
      y = b.cells[j++].second;
    }
    BLit v = f(x, y);
    if (v != kFalse) m.cells.emplace_back(k, v);
  }
  return m;
}

BoolMatrix m_union(Circuit& c, const BoolMatrix& a, const BoolMatrix& b) {
  return merge(a.arity, a, b, [&](BLit x, BLit y) { return c.or_(x, y); });
}

BoolMatrix m_inter(Circuit& c, const BoolMatrix& a, const BoolMatrix& b) {
  BoolMatrix m{a.arity, {}};
  std::size_t i = 0, j = 0;
  while (i < a.cells.size() && j < b.cells.size()) {
    if (a.cells[i].first < b.cells[j].first) { ++i; continue; }
    if (b.cells[j].first < a.cells[i].first) { ++j; continue; }
    BLit v = c.and_(a.cells[i].second, b.cells[j].second);
    if (v != kFalse) m.cells.emplace_back(a.cells[i].first, v);
    ++i, ++j;
  }
  return m;
}

BoolMatrix m_diff(Circuit& c, const BoolMatrix& a, const BoolMatrix& b) {
  BoolMatrix m{a.arity, {}};
  std::size_t j = 0;
  for (const auto& [k, x] : a.cells) {
    while (j < b.cells.size() && b.cells[j].first < k) ++j;
    BLit y = (j < b.cells.size() && b.cells[j].first == k) ? b.cells[j].second : kFalse;
    BLit v = c.and_(x, !y);
    if (v != kFalse) m.cells.emplace_back(k, v);
  }
  return m;
}

BoolMatrix m_join(Circuit& c, std::uint32_t n, const BoolMatrix& a, const BoolMatrix& b) {
  const std::uint32_t arity = a.arity + b.arity - 2;
  const Index b_rest = power(n, b.arity - 1);  // cells of b per first atom
  std::vector<std::pair<Index, BLit>> out;
  for (const auto& [ka, x] : a.cells) {
    const Index mid = ka % n, a_head = ka / n;
    auto lo = std::lower_bound(b.cells.begin(), b.cells.end(), mid * b_rest,
                               [](const auto& cell, Index k) { return cell.first < k; });
    for (auto it = lo; it != b.cells.end() && it->first < (mid + 1) * b_rest; ++it) {
      budget::poll();
      BLit v = c.and_(x, it->second);
      if (v != kFalse) out.emplace_back(a_head * b_rest + it->first % b_rest, v);
    }
  }
  return make_matrix(c, arity, std::move(out));
}

BoolMatrix m_product(Circuit& c, std::uint32_t n, const BoolMatrix& a, const BoolMatrix& b) {
  const Index shift = power(n, b.arity);
  BoolMatrix m{a.arity + b.arity, {}};
  for (const auto& [ka, x] : a.cells)
    for (const auto& [kb, y] : b.cells) {
      budget::poll();
      BLit v = c.and_(x, y);
      if (v != kFalse) m.cells.emplace_back(ka * shift + kb, v);
    }
  return m;  // already sorted: ka major, kb minor
}

BoolMatrix m_transpose(std::uint32_t n, const BoolMatrix& a) {
  BoolMatrix m{2, {}};
  for (const auto& [k, x] : a.cells) m.cells.emplace_back((k % n) * n + k / n, x);
  std::sort(m.cells.begin(), m.cells.end(),
            [](const auto& p, const auto& q) { return p.first < q.first; });
  return m;
}

// The closure of a relation that only goes up the atom order (every cell
// (i, j) has i < j): every path goes up, so a pair (i, j) is in the closure
// iff it is an edge or some k between them has (i, k) in the closure and
// (k, j) an edge. Computed column by column, that is the same relation as
// iterative squaring's, as a shallower circuit (each pair defined from
// shorter spans only; synthesis at 9 and 10 transactions runs faster on it).
static BoolMatrix upward_closure(Circuit& c, std::uint32_t n, const BoolMatrix& a) {
  std::vector<Atom> nodes;
  for (const auto& [k, x] : a.cells) {
    nodes.push_back(static_cast<Atom>(k / n));
    nodes.push_back(static_cast<Atom>(k % n));
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  const std::size_t m = nodes.size();
  auto pos = [&](Atom x) {
    return static_cast<std::size_t>(std::lower_bound(nodes.begin(), nodes.end(), x) - nodes.begin());
  };
  std::vector<BLit> edge(m * m, kFalse), reach(m * m, kFalse);
  for (const auto& [k, x] : a.cells) edge[pos(static_cast<Atom>(k / n)) * m + pos(static_cast<Atom>(k % n))] = x;
  std::vector<BLit> parts;
  for (std::size_t j = 0; j < m; ++j)
    for (std::size_t i = 0; i < j; ++i) {
      budget::poll();
      parts.clear();
      parts.push_back(edge[i * m + j]);
      for (std::size_t k = i + 1; k < j; ++k)
        if (edge[k * m + j] != kFalse && reach[i * m + k] != kFalse)
          parts.push_back(c.and_(reach[i * m + k], edge[k * m + j]));
      reach[i * m + j] = c.or_(parts);
    }
  BoolMatrix r{2, {}};
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = i + 1; j < m; ++j)
      if (reach[i * m + j] != kFalse) r.cells.emplace_back(Index{nodes[i]} * n + nodes[j], reach[i * m + j]);
  return r;  // sorted: rows, then columns, in atom order
}

BoolMatrix m_closure(Circuit& c, std::uint32_t n, const BoolMatrix& a) {
  if (std::all_of(a.cells.begin(), a.cells.end(), [&](const auto& cell) { return cell.first / n < cell.first % n; }))
    return upward_closure(c, n, a);
  // After k squarings, paths of length up to 2^k are covered; n - 1 edges
  // suffice for any simple path. Stop early at a syntactic fixpoint.
  BoolMatrix r = a;
  for (Index len = 1; len < n; len *= 2) {
    BoolMatrix next = m_union(c, r, m_join(c, n, r, r));
    if (next.cells == r.cells) break;
    r = std::move(next);
  }
  return r;
}

BoolMatrix m_project(Circuit& c, std::uint32_t n, const BoolMatrix& a, const std::vector<int>& cols) {
  std::vector<std::pair<Index, BLit>> out;
  for (const auto& [k, x] : a.cells) {
    auto t = index_tuple(n, a.arity, k);
    std::vector<Atom> p;
    for (int col : cols) p.push_back(t[col]);
    out.emplace_back(tuple_index(n, p), x);
  }
  return make_matrix(c, static_cast<std::uint32_t>(cols.size()), std::move(out));
}

BoolMatrix m_ite(Circuit& c, BLit cond, const BoolMatrix& a, const BoolMatrix& b) {
  if (cond == kTrue) return a;
  if (cond == kFalse) return b;
  return merge(a.arity, a, b, [&](BLit x, BLit y) { return c.ite(cond, x, y); });
}

BLit m_subset(Circuit& c, const BoolMatrix& a, const BoolMatrix& b) {
  std::vector<BLit> parts;
  std::size_t j = 0;
  for (const auto& [k, x] : a.cells) {
    while (j < b.cells.size() && b.cells[j].first < k) ++j;
    BLit y = (j < b.cells.size() && b.cells[j].first == k) ? b.cells[j].second : kFalse;
    BLit v = c.implies(x, y);
    if (v == kFalse) return kFalse;
    parts.push_back(v);
  }
  return c.and_(parts);
}

BLit m_some(Circuit& c, const BoolMatrix& a) {
  std::vector<BLit> parts;
  for (const auto& cell : a.cells) parts.push_back(cell.second);
  return c.or_(parts);
}

BLit m_lone(Circuit& c, const BoolMatrix& a) {
  // Sequential counter would be linear; matrices here are small, and the
  // pairwise form folds well when most cells are constant.
  std::vector<BLit> parts;
  std::size_t constant_true = 0;
  for (const auto& cell : a.cells) constant_true += (cell.second == kTrue);
  if (constant_true > 1) return kFalse;
  for (std::size_t i = 0; i < a.cells.size(); ++i)
    for (std::size_t j = i + 1; j < a.cells.size(); ++j) {
      budget::poll();  // quadratic in the cells
      parts.push_back(!c.and_(a.cells[i].second, a.cells[j].second));
    }
  return c.and_(parts);
}

}  // namespace iso::logic
