// Sparse boolean matrices (Kodkod's BooleanMatrix): the translation of a
// relational expression. A cell is a tuple of atoms, flattened to an index in
// base n (the universe size), mapped to the circuit literal that says whether
// the tuple is in the relation. Cells that are constantly false are absent.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/logic/circuit.hpp"
#include "engine/logic/universe.hpp"

namespace iso::logic {

using Index = std::uint64_t;

struct BoolMatrix {
  std::uint32_t arity = 1;
  std::vector<std::pair<Index, BLit>> cells;  // sorted by index, no kFalse

  BLit at(Index i) const;
  bool empty() const { return cells.empty(); }
};

// Tuple <-> index in base n.
Index tuple_index(std::uint32_t n, const std::vector<Atom>& tuple);
std::vector<Atom> index_tuple(std::uint32_t n, std::uint32_t arity, Index i);
Index power(std::uint32_t n, std::uint32_t k);

// Builds a matrix from unsorted cells, OR-ing duplicates and dropping false.
BoolMatrix make_matrix(Circuit& c, std::uint32_t arity, std::vector<std::pair<Index, BLit>> cells);

BoolMatrix m_union(Circuit& c, const BoolMatrix& a, const BoolMatrix& b);
BoolMatrix m_inter(Circuit& c, const BoolMatrix& a, const BoolMatrix& b);
BoolMatrix m_diff(Circuit& c, const BoolMatrix& a, const BoolMatrix& b);
BoolMatrix m_join(Circuit& c, std::uint32_t n, const BoolMatrix& a, const BoolMatrix& b);
BoolMatrix m_product(Circuit& c, std::uint32_t n, const BoolMatrix& a, const BoolMatrix& b);
BoolMatrix m_transpose(std::uint32_t n, const BoolMatrix& a);
BoolMatrix m_closure(Circuit& c, std::uint32_t n, const BoolMatrix& a);  // by iterative squaring
BoolMatrix m_project(Circuit& c, std::uint32_t n, const BoolMatrix& a, const std::vector<int>& cols);
BoolMatrix m_ite(Circuit& c, BLit cond, const BoolMatrix& a, const BoolMatrix& b);

BLit m_subset(Circuit& c, const BoolMatrix& a, const BoolMatrix& b);
BLit m_some(Circuit& c, const BoolMatrix& a);
BLit m_lone(Circuit& c, const BoolMatrix& a);

}  // namespace iso::logic
