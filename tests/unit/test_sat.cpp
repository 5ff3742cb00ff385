// engine/sat on its own: the adapter's incremental solving under
// assumptions and its conflicts, and the cardinality encodings checked
// against every assignment of a few literals (the pairwise form and the
// sequential counter, each with and without a guard and negated auxiliaries).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/sat/cardinality.hpp"
#include "engine/sat/solver.hpp"

using namespace iso::sat;

namespace {

std::vector<Lit> fresh(Solver& s, std::uint32_t n) {
  const std::uint32_t first = s.new_vars(n);
  std::vector<Lit> out;
  for (std::uint32_t i = 0; i < n; ++i) out.push_back(Lit::pos(first + i));
  return out;
}

// The assumptions that fix every literal of `lits` to the bits of `mask`.
std::vector<Lit> fixing(const std::vector<Lit>& lits, std::uint64_t mask) {
  std::vector<Lit> out;
  for (std::size_t i = 0; i < lits.size(); ++i) out.push_back(mask >> i & 1 ? lits[i] : ~lits[i]);
  return out;
}

}  // namespace

TEST_CASE("sat: incremental solving under assumptions, with the conflicting assumptions") {
  Solver s;
  const auto v = fresh(s, 3);
  s.add_clause({v[0], v[1]});
  s.add_clause({~v[0], v[2]});
  CHECK(s.solve() == Result::Sat);
  CHECK((s.model_value(v[0]) || s.model_value(v[1])));
  const std::vector<Lit> a{~v[1], ~v[2]};
  CHECK(s.solve(a) == Result::Unsat);
  const std::vector<Lit> conflict = s.conflict();
  CHECK_FALSE(conflict.empty());
  for (Lit l : conflict) CHECK((l == v[1] || l == v[2]));  // negations of the assumptions at fault
  // Still satisfiable without them, and clauses added later count.
  CHECK(s.solve() == Result::Sat);
  s.add_clause({~v[2]});
  CHECK(s.solve() == Result::Sat);
  CHECK(s.model_value(v[1]));
  CHECK_FALSE(s.model_value(v[0]));
  s.add_clause({~v[1]});
  CHECK(s.solve() == Result::Unsat);
}

TEST_CASE("sat: literals negate and name their variable") {
  const Lit p = Lit::pos(7), n = Lit::neg(7);
  CHECK(p.var() == 7);
  CHECK(n.var() == 7);
  CHECK_FALSE(p.negated());
  CHECK(n.negated());
  CHECK(~p == n);
  CHECK(~~p == p);
}

TEST_CASE("sat: at_most_one and exactly_one allow exactly the right assignments") {
  // Sizes on both sides of the switch from pairwise clauses to the counter.
  for (std::uint32_t n : {1u, 2u, 3u, 5u, 8u, 12u}) {
    for (const bool exactly : {false, true}) {
      for (const int guard_mode : {0, 1, 2}) {  // none, guard true, guard false
        if (!exactly && guard_mode != 0) continue;
        for (const std::size_t negate_from : {SIZE_MAX, std::size_t{0}, std::size_t{n / 2}}) {
          Solver s;
          const auto lits = fresh(s, n);
          const Lit g = Lit::pos(s.new_var());
          CardinalityOptions opt;
          opt.negate_aux_from = negate_from;
          if (exactly)
            exactly_one(s, lits, guard_mode == 0 ? std::nullopt : std::optional<Lit>(g), opt);
          else
            at_most_one(s, lits, opt);
          const std::uint64_t masks = n <= 12 ? (std::uint64_t{1} << n) : 0;
          for (std::uint64_t mask = 0; mask < masks; ++mask) {
            const int ones = __builtin_popcountll(mask);
            bool allowed = ones <= 1;
            if (exactly && guard_mode != 2) allowed = ones == 1;
            std::vector<Lit> a = fixing(lits, mask);
            if (guard_mode == 1) a.push_back(g);
            if (guard_mode == 2) a.push_back(~g);
            INFO("n = " << n << ", exactly = " << exactly << ", guard " << guard_mode << ", mask " << mask);
            CHECK((s.solve(a) == Result::Sat) == allowed);
          }
        }
      }
    }
  }
}
