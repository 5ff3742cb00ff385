#include "engine/polygraph/solve.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "engine/polygraph/encoder.hpp"

namespace iso::poly {

void require_eager_size(std::uint32_t nodes) {
  // Beyond this many theory nodes the eager encoding's clauses (a third of
  // the cube, twice) no longer fit comfortably in memory.
  constexpr std::uint32_t kEagerLimit = 256;
  if (nodes > kEagerLimit)
    throw std::invalid_argument(fmt::format(
        "eager acyclicity is cubic in the graph's nodes and allows at most {}; this graph has {} "
        "(use lazy)", kEagerLimit, nodes));
}

SolveOutcome solve_polygraph(Polygraph& pg, const std::vector<TxnId>& forced_aborts,
                             const CheckOptions& options, CheckStats& stats,
                             Clock::time_point start) {
  const auto nodes = pg.theory().num_nodes();
  const bool eager = options.acyclicity == Acyclicity::Eager ||
                     (options.acyclicity == Acyclicity::Auto && nodes <= options.eager_max_nodes);
  stats.eager = eager;
  if (eager) {
    require_eager_size(nodes);
    Encoder enc(pg, stats);
    auto t0 = Clock::now();
    enc.encode(forced_aborts, false);
    stats.seconds.encode = seconds_since(t0);
    SolveOutcome out = solve_eager(enc);
    if (out.verdict != Verdict::Violated || !options.explain) return out;
  }
  // Lazy solving; after an eager violation, to find a cycle explaining it.
  CheckStats lazy_stats;
  CheckStats& st = eager ? lazy_stats : stats;
  Encoder enc(pg, st);
  auto t0 = Clock::now();
  enc.encode(forced_aborts, options.two_width);
  const double encode_seconds = seconds_since(t0);
  auto t1 = Clock::now();
  SolveOutcome out = solve_lazy(enc, options, start);
  const double solve_seconds = seconds_since(t1);
  if (eager) {
    stats.seconds.explain = encode_seconds + solve_seconds;
    if (out.verdict == Verdict::Allowed)
      throw std::logic_error("eager and lazy acyclicity disagree on a history");
    out.verdict = Verdict::Violated;  // a timeout while explaining keeps the verdict
  } else {
    stats.seconds.encode = encode_seconds;
    stats.seconds.solve = solve_seconds;
  }
  return out;
}

}  // namespace iso::poly
