// The hierarchy of a set of levels within a scope: every ordered pair
// decided by synthesis unless transitivity settles it, then the classes and
// the Hasse diagram (cegis/hierarchy.hpp).
#include "cegis/hierarchy.hpp"

#include <algorithm>
#include <chrono>

namespace iso::cegis {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

Hierarchy hierarchy(const std::vector<const lua::Level*>& levels, const HierarchyOptions& opt) {
  const auto start = Clock::now();
  const std::size_t n = levels.size();
  Hierarchy out;
  out.levels = levels;
  out.pairs.assign(n, std::vector<PairResult>(n));
  for (std::size_t a = 0; a < n; ++a) out.pairs[a][a].relation = Relation::Implies;
  auto implies = [&](std::size_t a, std::size_t b) { return out.pairs[a][b].relation == Relation::Implies; };
  // Closes the implications under transitivity (Floyd–Warshall order: any
  // chain of proved implications).
  auto close = [&] {
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t a = 0; a < n; ++a)
        if (implies(a, k))
          for (std::size_t b = 0; b < n; ++b)
            if (implies(k, b) && out.pairs[a][b].relation == Relation::Unknown) {
              out.pairs[a][b].relation = Relation::Implies;
              out.pairs[a][b].by_transitivity = true;
            }
  };
  // Pairs nearest in the given order first (levels are usually listed along
  // a chain, so neighbours are the covering pairs, and the implications
  // between them settle the distant pairs by transitivity); each searched
  // only if transitivity has not decided it meanwhile.
  std::vector<std::pair<std::size_t, std::size_t>> order;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b)
      if (a != b) order.emplace_back(a, b);
  std::stable_sort(order.begin(), order.end(), [](const auto& x, const auto& y) {
    auto dist = [](const auto& p) { return p.first > p.second ? p.first - p.second : p.second - p.first; };
    return dist(x) < dist(y);
  });
  const std::size_t total = order.size();
  std::size_t done = 0;
  for (const auto& [a, b] : order) {
    ++done;
    if (out.pairs[a][b].relation != Relation::Unknown) continue;
    if (opt.on_pair) opt.on_pair(done, total, levels[a]->name + " => " + levels[b]->name);
    Problem p;
    p.allow = {levels[a]};
    p.deny = {levels[b]};
    p.scope = opt.scope;
    p.space = opt.space;
    SynthOptions so = opt.synth;
    if (opt.synth.timeout_seconds > 0) {
      so.timeout_seconds = opt.synth.timeout_seconds - seconds_since(start);
      if (so.timeout_seconds <= 0) continue;  // stays Unknown
    }
    SynthResult r = synthesize(p, so);
    if (r.outcome == Outcome::Found && opt.minimize) r = minimize(p, std::move(r), so);
    ++out.searched;
    if (r.outcome == Outcome::None) {
      out.pairs[a][b].relation = Relation::Implies;
      close();
    } else if (r.outcome == Outcome::Found) {
      out.pairs[a][b].relation = Relation::Separated;
      out.pairs[a][b].separation = std::move(r);
    }
  }
  // Equivalence classes, ordered so that a class precedes the classes it
  // implies (fewer levels implying it first: a topological order of the
  // implication order between classes).
  std::vector<bool> placed(n, false);
  for (std::size_t a = 0; a < n; ++a) {
    if (placed[a]) continue;
    std::vector<std::size_t> cls;
    for (std::size_t b = 0; b < n; ++b)
      if (!placed[b] && implies(a, b) && implies(b, a)) {
        cls.push_back(b);
        placed[b] = true;
      }
    out.classes.push_back(std::move(cls));
  }
  auto implied_by = [&](const std::vector<std::size_t>& c) {
    std::size_t k = 0;
    for (std::size_t a = 0; a < n; ++a) k += implies(a, c[0]);
    return k;
  };
  std::stable_sort(out.classes.begin(), out.classes.end(),
                   [&](const auto& x, const auto& y) { return implied_by(x) < implied_by(y); });
  // Covering pairs: X ⇒ Y strictly, with no class Z strictly between.
  const std::size_t m = out.classes.size();
  auto cls_implies = [&](std::size_t x, std::size_t y) { return implies(out.classes[x][0], out.classes[y][0]); };
  for (std::size_t x = 0; x < m; ++x)
    for (std::size_t y = 0; y < m; ++y) {
      if (x == y || !cls_implies(x, y)) continue;
      bool between = false;
      for (std::size_t z = 0; z < m && !between; ++z)
        between = z != x && z != y && cls_implies(x, z) && cls_implies(z, y);
      if (!between) out.covers.emplace_back(x, y);
    }
  out.seconds = seconds_since(start);
  return out;
}

}  // namespace iso::cegis
