// The history space's list-append keys (SpaceOptions::lists;
// cegis/history_space.hpp): per key, L[x][a][b] "a's append to x precedes
// b's", a strict total order of the transactions; a read returns the
// appends up to its writer's in that order (the reads of a key are prefixes
// of one list, the reader's own append not in what it read), and the
// version order the lists reveal is bound to vo.
#include "cegis/history_space.hpp"

#include "engine/model/schema.hpp"

namespace iso::cegis {

using namespace logic;

void HistorySpace::build_lists(Circuit& c, std::vector<BLit>& k) {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values;
  const Universe& u = universe_;
  const std::uint32_t N = u.size();
  const std::size_t n1 = n + 1;
  list_order_.assign(K * n1 * n1, kFalse);
  for (std::uint32_t x = 0; x < K; ++x)
    for (std::uint32_t a = 1; a <= n; ++a)
      for (std::uint32_t b = a + 1; b <= n; ++b) {
        const BLit l = c.input();
        list_order_[(x * n1 + a) * n1 + b] = l;
        list_order_[(x * n1 + b) * n1 + a] = !l;
      }
  auto O = [&](std::uint32_t x, std::uint32_t a, std::uint32_t b) { return list_order_var(x, a, b); };
  std::vector<std::pair<Index, BLit>> vo;
  for (std::uint32_t x = 0; x < K; ++x) {
    // A strict total order: one variable per pair makes it total and
    // antisymmetric; transitivity remains.
    for (std::uint32_t a = 1; a <= n; ++a)
      for (std::uint32_t b = 1; b <= n; ++b)
        for (std::uint32_t d = 1; d <= n; ++d)
          if (a != b && b != d && a != d) k.push_back(c.implies(c.and_(O(x, a, b), O(x, b, d)), O(x, a, d)));
    std::vector<BLit> appends(n + 1, kFalse);
    for (std::uint32_t t = 1; t <= n; ++t) {
      std::vector<BLit> ws;
      for (std::uint32_t v = 1; v < V; ++v) ws.push_back(write_var(t, x, v));
      appends[t] = c.or_(ws);
    }
    // ends[t][w]: t's read of x returns the list ending with w's element.
    std::vector<std::vector<BLit>> ends(n + 1, std::vector<BLit>(n + 1, kFalse));
    for (std::uint32_t t = 1; t <= n; ++t)
      for (std::uint32_t w = 1; w <= n; ++w) {
        if (w == t) continue;
        std::vector<BLit> same;
        for (std::uint32_t v = 1; v < V; ++v) same.push_back(c.and_(read_var(t, x, v), write_var(w, x, v)));
        ends[t][w] = c.or_(same);
        // The read comes before the reader's own append.
        k.push_back(c.implies(c.and_(ends[t][w], appends[t]), O(x, w, t)));
      }
    // In the longest list returned: a's append is some read's last element or
    // precedes it.
    for (std::uint32_t a = 1; a <= n; ++a) {
      std::vector<BLit> shown;
      for (std::uint32_t t = 1; t <= n; ++t)
        for (std::uint32_t w = 1; w <= n; ++w)
          if (ends[t][w] != kFalse) shown.push_back(w == a ? ends[t][w] : c.and_(ends[t][w], O(x, a, w)));
      const BLit in_chain = c.and_(appends[a], c.or_(shown));
      for (std::uint32_t b = 1; b <= n; ++b)
        if (b != a)
          vo.emplace_back(tuple_index(N, {u.atom(model::kObj, x), u.atom(model::kTxn, a), u.atom(model::kTxn, b)}),
                          c.and_(c.and_(in_chain, appends[b]), O(x, a, b)));
    }
  }
  bindings_.bind(model::history_schema().vo, make_matrix(c, 3, std::move(vo)));
}

}  // namespace iso::cegis
