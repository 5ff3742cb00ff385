// isosynth hierarchy (cegis/hierarchy.hpp): the known chains of the
// literature placed within a scope, every separating history re-checked by
// the brute force, and every implication taken from transitivity confirmed
// by a search of its own.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cegis/hierarchy.hpp"
#include "tests/unit/synth_helpers.hpp"

using namespace iso;
using namespace iso::cegis;

namespace {

struct Placed {
  Hierarchy h;
  std::vector<std::string> names;
  std::size_t at(const std::string& name) const {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return i;
    FAIL("no level ", name);
    return 0;
  }
  bool implies(const std::string& a, const std::string& b) const {
    return h.pairs[at(a)][at(b)].relation == Relation::Implies;
  }
  bool separated(const std::string& a, const std::string& b) const {
    return h.pairs[at(a)][at(b)].relation == Relation::Separated;
  }
  // a is strictly stronger than b.
  bool below(const std::string& a, const std::string& b) const { return implies(a, b) && separated(b, a); }
  bool equivalent(const std::string& a, const std::string& b) const { return implies(a, b) && implies(b, a); }
  bool incomparable(const std::string& a, const std::string& b) const { return separated(a, b) && separated(b, a); }
  // a covers b in the Hasse diagram (a's class just above b's).
  bool covers(const std::string& a, const std::string& b) const {
    auto cls = [&](std::size_t level) {
      for (std::size_t c = 0; c < h.classes.size(); ++c)
        for (std::size_t i : h.classes[c])
          if (i == level) return c;
      return h.classes.size();
    };
    const auto edge = std::make_pair(cls(at(a)), cls(at(b)));
    return std::find(h.covers.begin(), h.covers.end(), edge) != h.covers.end();
  }
};

Placed place(const std::vector<std::string>& names, const std::string& scope, bool sessions = true) {
  std::vector<const lua::Level*> levels;
  for (const auto& n : names) levels.push_back(&library().level(n));
  HierarchyOptions opt;
  opt.scope = parse_scope(scope);
  opt.space.sessions = sessions;
  Placed p{hierarchy(levels, opt), names};
  // Every pair is decided, every separation re-checked (allowed by the
  // first, violated by the second, by decide() and by the brute force), and
  // every implication taken from transitivity holds by a search too.
  for (std::size_t a = 0; a < names.size(); ++a)
    for (std::size_t b = 0; b < names.size(); ++b) {
      if (a == b) continue;
      const PairResult& r = p.h.pairs[a][b];
      INFO(names[a], " => ", names[b], " at ", scope);
      REQUIRE(r.relation != Relation::Unknown);
      Problem q = problem({names[a]}, {names[b]}, scope);
      q.space.sessions = sessions;
      if (r.relation == Relation::Separated) {
        REQUIRE(r.separation.has_value());
        verify_solution(q, *r.separation);
      } else if (r.by_transitivity) {
        CHECK(synthesize(q).outcome == Outcome::None);
      }
    }
  return p;
}

}  // namespace

TEST_CASE("hierarchy: Biswas-Enea's chain and its Cerone twin, merged, with UA and PSI placed") {
  // Three values: the lost update that separates PC from SI needs two
  // writers of one key.
  const Placed p = place({"biswas.RA", "biswas.CC", "biswas.PC", "biswas.SI", "biswas.SER", "cerone.RA",
                          "cerone.CC", "cerone.PC", "cerone.SI", "cerone.SER", "cerone.UA", "cerone.PSI"},
                         "4,2,3");
  for (const char* l : {"RA", "CC", "PC", "SI", "SER"})
    CHECK(p.equivalent(std::string("biswas.") + l, std::string("cerone.") + l));
  CHECK(p.h.classes.size() == 7);
  // RA ⊂ CC ⊂ PC ⊂ SI ⊂ SER, each step a covering edge of the diagram.
  CHECK(p.below("biswas.SER", "biswas.SI"));
  CHECK(p.below("biswas.SI", "biswas.PC"));
  CHECK(p.below("biswas.PC", "biswas.CC"));
  CHECK(p.below("biswas.CC", "biswas.RA"));
  CHECK(p.covers("biswas.SER", "biswas.SI"));
  CHECK(p.covers("biswas.SI", "biswas.PC"));
  CHECK(p.covers("biswas.PC", "biswas.CC"));
  CHECK(p.covers("biswas.CC", "biswas.RA"));
  CHECK_FALSE(p.covers("biswas.SI", "biswas.CC"));  // PC lies between
  // Cerone et al.: PSI = CC + NOCONFLICT, UA = RA + NOCONFLICT; SI ⊂ PSI.
  CHECK(p.below("cerone.SI", "cerone.PSI"));
  CHECK(p.below("cerone.PSI", "cerone.CC"));
  CHECK(p.below("cerone.PSI", "cerone.UA"));
  CHECK(p.below("cerone.UA", "cerone.RA"));
  CHECK(p.incomparable("cerone.PSI", "cerone.PC"));  // long fork vs lost update
  CHECK(p.incomparable("cerone.UA", "cerone.CC"));   // lost update vs causality violation
  CHECK(p.covers("cerone.SI", "cerone.PSI"));
  CHECK(p.covers("cerone.PSI", "cerone.UA"));
  // Transitivity saved searches, and what it gave was confirmed in place().
  CHECK(p.h.searched < 12 * 11);
}

TEST_CASE("hierarchy: Plume's TapRA is strictly weaker than RA (Isolde's finding)") {
  const Placed p = place({"plume.TapRA", "biswas.RA"}, "3,2,2");
  CHECK(p.below("biswas.RA", "plume.TapRA"));
  // Minimal: the missed session write, two transactions.
  const History& h = *p.h.pairs[p.at("plume.TapRA")][p.at("biswas.RA")].separation->history;
  CHECK(h.num_txns() == 3);
}

TEST_CASE("hierarchy: Adya's chain PL-1, PL-2, PL-2.99, PL-3, the last step a phantom") {
  const Placed p = place({"adya.PL-1", "adya.PL-2", "adya.PL-2.99", "adya.PL-3"}, "3,2,3", false);
  CHECK(p.below("adya.PL-2", "adya.PL-1"));
  CHECK(p.below("adya.PL-2.99", "adya.PL-2"));
  CHECK(p.below("adya.PL-3", "adya.PL-2.99"));  // by predicate reads only
  CHECK(p.h.classes.size() == 4);
  const History& h = *p.h.pairs[p.at("adya.PL-2.99")][p.at("adya.PL-3")].separation->history;
  CHECK_FALSE(h.predicate_reads().empty());
}
