// The relational translator on its own: constants fold, closure is the least
// transitive relation, quantifiers unroll, and SAT answers match brute force
// over all valuations of small relations.
#include <doctest/doctest.h>

#include "engine/logic/cnf.hpp"
#include "engine/logic/translator.hpp"
#include "engine/sat/solver.hpp"

using namespace iso::logic;

namespace {

// A universe with one sort "S" of n atoms.
struct Fixture {
  explicit Fixture(std::uint32_t n) : u({names(n)}) { set_sort_names({"S"}); }
  static std::vector<std::string> names(std::uint32_t n) {
    std::vector<std::string> v;
    for (std::uint32_t i = 0; i < n; ++i) v.push_back("a" + std::to_string(i));
    return v;
  }
  Universe u;
  Circuit c;
  Bindings b;
};

bool satisfiable(Circuit& c, BLit goal) {
  iso::sat::Solver s;
  CnfEncoder cnf(c, s);
  cnf.assert_true(goal);
  return s.solve() == iso::sat::Result::Sat;
}

}  // namespace

TEST_CASE("circuit folds constants and complementary literals") {
  Circuit c;
  BLit x = c.input(), y = c.input();
  CHECK(c.and_(x, kFalse) == kFalse);
  CHECK(c.and_(x, kTrue) == x);
  CHECK(c.or_(x, !x) == kTrue);
  CHECK(c.and_(x, !x) == kFalse);
  CHECK(c.and_(x, y) == c.and_(y, x));  // hash-consed regardless of order
  CHECK(c.iff(x, x) == kTrue);
  CHECK(c.ite(kTrue, x, y) == x);
}

TEST_CASE("a constant relation's closure folds to constants") {
  Fixture f(4);
  auto r = make_relation("r", {0, 0});
  // a0 -> a1 -> a2 -> a3
  f.b.bind(r, constant_matrix(4, 2, {{0, 1}, {1, 2}, {2, 3}}));
  Translator t(f.u, f.c, f.b);
  BoolMatrix cl = t.expr(closure(rel(r)));
  std::size_t gates_before = f.c.num_gates();
  CHECK(cl.cells.size() == 6);  // 01 02 03 12 13 23
  for (const auto& cell : cl.cells) CHECK(cell.second == kTrue);
  CHECK(cl.at(0 * 4 + 3) == kTrue);
  CHECK(cl.at(3 * 4 + 0) == kFalse);
  CHECK(t.formula(acyclic(rel(r))) == kTrue);
  CHECK(f.c.num_gates() == gates_before);  // nothing but constants was built
  // Adding the back edge a3 -> a0 makes a cycle: the formula folds to false.
  auto r2 = make_relation("r2", {0, 0});
  f.b.bind(r2, constant_matrix(4, 2, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}));
  Translator t2(f.u, f.c, f.b);
  CHECK(t2.formula(acyclic(rel(r2))) == kFalse);
}

TEST_CASE("quantifiers unroll over the sort and fold on constants") {
  Fixture f(3);
  auto r = make_relation("r", {0, 0});
  f.b.bind(r, constant_matrix(3, 2, {{0, 0}, {1, 1}, {2, 2}}));
  Translator t(f.u, f.c, f.b);
  auto x = make_variable("x", 0), y = make_variable("y", 0);
  // forall x: x->x in r  (true: r is the identity)
  CHECK(t.formula(forall({{x, sort(0)}}, member({var(x), var(x)}, rel(r)))) == kTrue);
  // exists x, y: x != y and x->y in r  (false)
  auto f2 = exists({{x, sort(0)}, {y, sort(0)}},
                   and_(not_(equal(var(x), var(y))), member({var(x), var(y)}, rel(r))));
  CHECK(t.formula(f2) == kFalse);
  CHECK(t.formula(equal(rel(r), iden())) == kTrue);  // r is the identity of this universe
}

TEST_CASE("variable relations: closure and total order agree with brute force") {
  // For every relation r on 3 atoms, acyclic(r) holds iff no cycle exists, and
  // total_order(r) iff r is one of the 6 strict total orders. Checked by
  // pinning r to each of the 2^9 valuations through unit clauses.
  const std::uint32_t n = 3;
  int orders = 0;
  for (std::uint32_t mask = 0; mask < (1u << (n * n)); ++mask) {
    Fixture f(n);
    auto r = make_relation("r", {0, 0});
    std::vector<std::vector<Atom>> all;
    for (Atom a = 0; a < n; ++a)
      for (Atom b = 0; b < n; ++b) all.push_back({a, b});
    BoolMatrix m = variable_matrix(f.c, n, 2, {}, all);
    f.b.bind(r, m);
    Translator t(f.u, f.c, f.b);
    std::vector<BLit> pin;
    bool reach[3][3] = {};
    for (std::uint32_t i = 0; i < n * n; ++i) {
      bool on = (mask >> i) & 1u;
      pin.push_back(on ? m.at(i) : !m.at(i));
      reach[i / n][i % n] = on;
    }
    for (std::uint32_t k = 0; k < n; ++k)
      for (std::uint32_t i = 0; i < n; ++i)
        for (std::uint32_t j = 0; j < n; ++j) reach[i][j] = reach[i][j] || (reach[i][k] && reach[k][j]);
    bool cyclic = reach[0][0] || reach[1][1] || reach[2][2];
    BLit pinned = f.c.and_(pin);
    CHECK(satisfiable(f.c, f.c.and_(pinned, t.formula(acyclic(rel(r))))) == !cyclic);
    bool is_order = satisfiable(f.c, f.c.and_(pinned, t.formula(total_order(rel(r), sort(0)))));
    if (is_order) {
      ++orders;
      CHECK(!cyclic);
      CHECK(__builtin_popcount(mask) == 3);
    }
  }
  CHECK(orders == 6);
}

TEST_CASE("closure of a relation going up the atom order agrees with brute force") {
  // Such a relation's closure is built column by column (m_closure), not by
  // squaring: for every relation on 5 atoms with edges i -> j, i < j, only
  // (2^10 valuations), each pair of the closure against Warshall's.
  const std::uint32_t n = 5;
  std::vector<std::vector<Atom>> up;
  for (Atom a = 0; a < n; ++a)
    for (Atom b = a + 1; b < n; ++b) up.push_back({a, b});
  Fixture f(n);
  auto r = make_relation("r", {0, 0});
  BoolMatrix m = variable_matrix(f.c, n, 2, {}, up);
  f.b.bind(r, m);
  Translator t(f.u, f.c, f.b);
  const BoolMatrix cl = t.expr(closure(rel(r)));
  for (std::uint32_t mask = 0; mask < (1u << up.size()); ++mask) {
    bool reach[n][n] = {};
    std::vector<bool> inputs(up.size());
    for (std::size_t e = 0; e < up.size(); ++e) {
      inputs[e] = (mask >> e) & 1u;
      reach[up[e][0]][up[e][1]] = inputs[e];
    }
    for (std::uint32_t k = 0; k < n; ++k)
      for (std::uint32_t i = 0; i < n; ++i)
        for (std::uint32_t j = 0; j < n; ++j) reach[i][j] = reach[i][j] || (reach[i][k] && reach[k][j]);
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint32_t j = 0; j < n; ++j) CHECK(f.c.eval(cl.at(Index{i} * n + j), inputs) == reach[i][j]);
  }
}

TEST_CASE("type errors name the operands") {
  set_sort_names({"Txn", "Obj"});
  auto so = make_relation("so", {0, 0});
  auto w = make_relation("writer", {0, 1});
  CHECK_THROWS_WITH_AS(join(rel(w), rel(so)), doctest::Contains("sort mismatch"), TypeError);
  CHECK_THROWS_WITH_AS(union_(rel(w), rel(so)), doctest::Contains("sort mismatch"), TypeError);
  CHECK_THROWS_WITH_AS(member({sort(0)}, rel(so)), doctest::Contains("arity 2"), TypeError);
  CHECK_THROWS_AS(join(sort(0), sort(0)), TypeError);
  CHECK_NOTHROW(join(rel(w), sort(1)));
}

TEST_CASE("a runaway quantifier nest hits the translation budget") {
  Fixture f(30);
  Translator t(f.u, f.c, f.b, /*work_limit=*/100'000);
  std::vector<Decl> ds;
  for (int i = 0; i < 6; ++i) ds.push_back({make_variable("v", 0), sort(0)});
  CHECK_THROWS_AS(t.formula(forall(ds, constant(true))), TranslationError);
}
