// The history space's real time (SpaceOptions::real_time;
// cegis/history_space.hpp): E[X][Y] "event X happened before event Y" over
// the begin and commit events of the transactions, a strict weak order with
// each begin not after its commit and a session's transactions in turn, and
// the real-time orders rt, rt_cc and rt_bc read off it.
#include "cegis/history_space.hpp"

#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

BLit HistorySpace::event_before(std::uint32_t x, std::uint32_t y) const {
  const std::uint32_t e = 2 * scope_.txns;
  return x == y ? kFalse : event_before_[static_cast<std::size_t>(x) * e + y];
}

void HistorySpace::build_real_time(Circuit& c, std::vector<BLit>& k) {
  const std::uint32_t n = scope_.txns, e = 2 * n;
  const Universe& u = universe_;
  const std::uint32_t N = u.size();
  const model::HistorySchema& s = model::history_schema();
  auto T = [&](std::uint32_t t) { return u.atom(model::kTxn, t); };
  event_before_.assign(static_cast<std::size_t>(e) * e, kFalse);
  for (std::uint32_t x = 0; x < e; ++x)
    for (std::uint32_t y = 0; y < e; ++y)
      if (x != y) event_before_[static_cast<std::size_t>(x) * e + y] = c.input();
  auto E = [&](std::uint32_t x, std::uint32_t y) { return event_before(x, y); };
  // A strict weak order: asymmetric, transitive, and so is "not before".
  for (std::uint32_t x = 0; x < e; ++x)
    for (std::uint32_t y = 0; y < e; ++y) {
      if (x == y) continue;
      if (x < y) k.push_back(!c.and_(E(x, y), E(y, x)));
      for (std::uint32_t z = 0; z < e; ++z) {
        if (z == x || z == y) continue;
        k.push_back(c.implies(c.and_(E(x, y), E(y, z)), E(x, z)));
        k.push_back(c.implies(c.and_(!E(x, y), !E(y, z)), !E(x, z)));
      }
    }
  auto B = [](std::uint32_t t) { return 2 * (t - 1); };
  auto C = [](std::uint32_t t) { return 2 * (t - 1) + 1; };
  for (std::uint32_t t = 1; t <= n; ++t) k.push_back(!E(C(t), B(t)));  // begin ≤ commit
  for (std::uint32_t i = 1; i <= n; ++i)  // a session runs its transactions in turn
    for (std::uint32_t j = i + 1; j <= n; ++j) k.push_back(c.implies(so_var(i, j), E(C(i), B(j))));
  auto bind = [&](const logic::RelationPtr& r, bool from_commit, bool to_commit) {
    std::vector<std::pair<Index, BLit>> cells;
    for (std::uint32_t j = 1; j <= n; ++j) cells.emplace_back(Index{T(0)} * N + T(j), kTrue);
    for (std::uint32_t i = 1; i <= n; ++i)
      for (std::uint32_t j = 1; j <= n; ++j)
        if (i != j)
          cells.emplace_back(Index{T(i)} * N + T(j),
                             E(from_commit ? C(i) : B(i), to_commit ? C(j) : B(j)));
    bindings_.bind(r, make_matrix(c, 2, std::move(cells)));
  };
  bind(s.rt, true, false);
  bind(s.rt_cc, true, true);
  bind(s.rt_bc, false, true);
}

}  // namespace iso::cegis
