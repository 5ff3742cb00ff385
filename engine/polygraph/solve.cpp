// solve_polygraph (solve.hpp): encodes a pruned polygraph and solves it with
// lazy or eager acyclicity, as the options and its size say.
#include "engine/polygraph/solve.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "engine/polygraph/encoder.hpp"
#include "engine/util/budget.hpp"
#include "engine/util/memory.hpp"

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
  // Lazy solving: to decide, or after an eager violation, to find a cycle
  // explaining it.
  auto lazy = [&](CheckStats& st, double& encode_seconds, double& solve_seconds) {
    Encoder enc(pg, st);
    auto t0 = Clock::now();
    enc.encode(forced_aborts, options.two_width);
    encode_seconds = seconds_since(t0);
    st.peak_bytes.encode = peak_resident_bytes();
    auto t1 = Clock::now();
    SolveOutcome out = solve_lazy(enc, options, start);
    solve_seconds = seconds_since(t1);
    return out;
  };
  if (!eager) return lazy(stats, stats.seconds.encode, stats.seconds.solve);

  require_eager_size(nodes);
  Encoder enc(pg, stats);
  auto t0 = Clock::now();
  enc.encode(forced_aborts, false);
  stats.seconds.encode = seconds_since(t0);
  stats.peak_bytes.encode = peak_resident_bytes();
  SolveOutcome proved = solve_eager(enc);
  if (proved.verdict != Verdict::Violated || !options.explain) return proved;
  CheckStats lazy_stats;
  double encode_seconds = 0, solve_seconds = 0;
  try {
    SolveOutcome out = lazy(lazy_stats, encode_seconds, solve_seconds);
    if (out.verdict == Verdict::Allowed)
      throw std::logic_error("eager and lazy acyclicity disagree on a history");
    out.verdict = Verdict::Violated;
    proved = std::move(out);
  } catch (const TimeoutError&) {
    // Out of time while looking for a cycle to show: the verdict stands.
  }
  stats.seconds.explain = encode_seconds + solve_seconds;
  return proved;
}

}  // namespace iso::poly
