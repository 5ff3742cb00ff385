// At-most-one and exactly-one over the solver's literals (cardinality.hpp):
// pairwise clauses for a few literals, Sinz's sequential counter for more.

#include "engine/sat/cardinality.hpp"

#include <vector>

namespace iso::sat {

void at_most_one(Solver& s, std::span<const Lit> lits, const CardinalityOptions& opt) {
  const std::size_t n = lits.size();
  if (n <= 6) {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) s.add_clause({~lits[i], ~lits[j]});
    return;
  }
  const std::uint32_t first = s.new_vars(static_cast<std::uint32_t>(n - 1));
  auto aux = [&](std::size_t i) {
    const auto v = first + static_cast<std::uint32_t>(i);
    return i >= opt.negate_aux_from ? Lit::neg(v) : Lit::pos(v);
  };
  s.add_clause({~lits[0], aux(0)});
  for (std::size_t i = 1; i + 1 < n; ++i) {
    s.add_clause({~lits[i], aux(i)});
    s.add_clause({~aux(i - 1), aux(i)});
    s.add_clause({~lits[i], ~aux(i - 1)});
  }
  s.add_clause({~lits[n - 1], ~aux(n - 2)});
}

void exactly_one(Solver& s, std::span<const Lit> lits, std::optional<Lit> guard,
                 const CardinalityOptions& opt) {
  std::vector<Lit> at_least(lits.begin(), lits.end());
  if (guard) at_least.push_back(~*guard);
  s.add_clause(at_least);
  at_most_one(s, lits, opt);
}

}  // namespace iso::sat
