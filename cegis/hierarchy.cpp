// The hierarchy of a set of levels within a scope: every ordered pair
// decided by synthesis unless transitivity settles it, then the classes and
// the Hasse diagram (cegis/hierarchy.hpp).
#include "cegis/hierarchy.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <optional>

#include "engine/util/thread_pool.hpp"

namespace iso::cegis {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The pairs in the order they are decided: nearest in the given order
// first (levels are usually listed along a chain, so neighbours are the
// covering pairs, and the implications between them settle the distant
// pairs by transitivity).
std::vector<std::pair<std::size_t, std::size_t>> pair_order(std::size_t n) {
  std::vector<std::pair<std::size_t, std::size_t>> order;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b)
      if (a != b) order.emplace_back(a, b);
  std::stable_sort(order.begin(), order.end(), [](const auto& x, const auto& y) {
    auto dist = [](const auto& p) { return p.first > p.second ? p.first - p.second : p.second - p.first; };
    return dist(x) < dist(y);
  });
  return order;
}

// A history `a` allows and `b` denies, minimized, within the time the whole
// run has left; nullopt when none is left (the pair stays Unknown).
std::optional<SynthResult> search_pair(const lua::Level* a, const lua::Level* b, const HierarchyOptions& opt,
                                       Clock::time_point start) {
  Problem p;
  p.allow = {a};
  p.deny = {b};
  p.scope = opt.scope;
  p.space = opt.space;
  SynthOptions so = opt.synth;
  if (opt.synth.timeout_seconds > 0) {
    so.timeout_seconds = opt.synth.timeout_seconds - seconds_since(start);
    if (so.timeout_seconds <= 0) return std::nullopt;
  }
  SynthResult r = synthesize(p, so);
  if (r.outcome == Outcome::Found && opt.minimize) r = minimize(p, std::move(r), so);
  return r;
}

// Closes the implications under transitivity (Floyd–Warshall order: any
// chain of proved implications).
void close(Hierarchy& out) {
  const std::size_t n = out.levels.size();
  auto implies = [&](std::size_t a, std::size_t b) { return out.pairs[a][b].relation == Relation::Implies; };
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t a = 0; a < n; ++a)
      if (implies(a, k))
        for (std::size_t b = 0; b < n; ++b)
          if (implies(k, b) && out.pairs[a][b].relation == Relation::Unknown) {
            out.pairs[a][b].relation = Relation::Implies;
            out.pairs[a][b].by_transitivity = true;
          }
}

// Decides the pairs in pair_order, each searched only if transitivity has
// not decided it when its turn comes, as one loop would; with opt.jobs > 1
// the next open pairs are searched ahead on the pool's threads.
void decide_pairs(Hierarchy& out, const HierarchyOptions& opt, Clock::time_point start) {
  const auto order = pair_order(out.levels.size());
  const std::size_t total = order.size();
  auto open = [&](std::size_t k) { return out.pairs[order[k].first][order[k].second].relation == Relation::Unknown; };
  std::vector<std::optional<SynthResult>> results(total);
  std::vector<std::future<void>> searches(total);
  TaskPool pool(opt.jobs);  // after `results`: destroyed first, waiting for the searches writing there
  std::size_t next = 0, ahead = 0;  // pairs examined for a search; searches started and not yet used
  for (std::size_t k = 0; k < total; ++k) {
    for (; next < total && ahead < std::max<std::size_t>(opt.jobs, 1); ++next) {
      if (!open(next)) continue;
      const std::size_t a = order[next].first, b = order[next].second;
      if (opt.on_pair) opt.on_pair(next + 1, total, out.levels[a]->name + " => " + out.levels[b]->name);
      searches[next] = pool.submit(
          [&, a, b, i = next] { results[i] = search_pair(out.levels[a], out.levels[b], opt, start); });
      ++ahead;
    }
    if (!searches[k].valid()) continue;  // decided before its turn to be examined
    --ahead;
    if (!open(k)) continue;  // decided while it was searched: the result is not needed
    searches[k].get();  // rethrows what the search threw
    if (!results[k]) continue;  // no time left: stays Unknown
    SynthResult& r = *results[k];
    auto& pr = out.pairs[order[k].first][order[k].second];
    ++out.searched;
    if (r.outcome == Outcome::None) {
      pr.relation = Relation::Implies;
      close(out);
    } else if (r.outcome == Outcome::Found) {
      pr.relation = Relation::Separated;
      pr.separation = std::move(r);
    }
  }
}

}  // namespace

Hierarchy hierarchy(const std::vector<const lua::Level*>& levels, const HierarchyOptions& opt) {
  const auto start = Clock::now();
  const std::size_t n = levels.size();
  Hierarchy out;
  out.levels = levels;
  out.pairs.assign(n, std::vector<PairResult>(n));
  for (std::size_t a = 0; a < n; ++a) out.pairs[a][a].relation = Relation::Implies;
  decide_pairs(out, opt, start);
  auto implies = [&](std::size_t a, std::size_t b) { return out.pairs[a][b].relation == Relation::Implies; };
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
