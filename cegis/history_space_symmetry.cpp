// The history space's symmetry breaking (cegis/history_space.hpp, "The
// space is numbered"): written values in order of their writers, keys in
// order of first use (part of the constraints, or apart for the
// synthesizer), empty transactions last and aborted ones first. Each rule
// keeps at least one history of every class of renamings.
#include "cegis/history_space.hpp"

namespace iso::cegis {

using namespace logic;

void HistorySpace::value_order(Circuit& c, std::vector<BLit>& k) const {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values;
  const bool dup = duplicates_;
  auto W = [&](std::uint32_t t, std::uint32_t x, std::uint32_t v) { return write_var(t, x, v); };
  // Values of each key written in order of their writers' indices, and the
  // written values form a prefix 1, 2, ... With dirty reads, over every
  // write, a transaction's intermediate value before its final one.
  auto WA = [&](std::uint32_t t, std::uint32_t x, std::uint32_t v) {
    return dirty_ ? c.or_(W(t, x, v), intermediate_var(t, x, v)) : W(t, x, v);
  };
  for (std::uint32_t x = 0; x < K && !dup; ++x)
    for (std::uint32_t v = 1; v < V; ++v) {
      for (std::uint32_t t = 1; t <= n; ++t)
        for (std::uint32_t w = 1; w <= t; ++w)
          for (std::uint32_t v2 = v + 1; v2 < V; ++v2) {
            // v < v2 needs writer(v) < writer(v2), or the same writer with v
            // its intermediate value.
            if (w < t) k.push_back(!c.and_(WA(t, x, v), WA(w, x, v2)));
            else k.push_back(!c.and_(W(t, x, v), WA(w, x, v2)));
          }
      if (v + 1 < V) {
        std::vector<BLit> next, cur;
        for (std::uint32_t t = 1; t <= n; ++t) {
          next.push_back(WA(t, x, v + 1));
          cur.push_back(WA(t, x, v));
        }
        k.push_back(c.implies(c.or_(next), c.or_(cur)));
      }
    }
  // With repeated values, by first occurrence: a writer of v > 1 has an
  // earlier writer of v - 1 (so the first writer of v comes after the first
  // writer of v - 1, and the written values form a prefix).
  for (std::uint32_t x = 0; x < K && dup; ++x)
    for (std::uint32_t v = 2; v < V; ++v)
      for (std::uint32_t t = 1; t <= n; ++t) {
        std::vector<BLit> earlier;
        for (std::uint32_t w = 1; w < t; ++w) earlier.push_back(W(w, x, v - 1));
        k.push_back(c.implies(W(t, x, v), c.or_(earlier)));
      }
}

void HistorySpace::key_and_empty_order(Circuit& c, const SpaceOptions& opt, std::vector<BLit>& k) {
  const std::uint32_t n = scope_.txns, K = scope_.objects, V = scope_.values;
  auto A = [&](std::uint32_t t) { return aborted_[t]; };
  auto SO = [&](std::uint32_t i, std::uint32_t j) { return so_var(i, j); };
  // used(t, x), empty(t).
  std::vector<std::vector<BLit>> used(n + 1, std::vector<BLit>(K, kFalse));
  std::vector<BLit> empty(n + 1, kFalse);
  for (std::uint32_t t = 1; t <= n; ++t) {
    std::vector<BLit> any;
    for (std::uint32_t x = 0; x < K; ++x) {
      std::vector<BLit> ops;
      for (std::uint32_t v = 0; v < V; ++v) {
        ops.push_back(read_var(t, x, v));
        if (v > 0 || duplicates_) ops.push_back(write_var(t, x, v));
      }
      used[t][x] = c.or_(ops);  // an intermediate write comes with a final one
      any.push_back(used[t][x]);
    }
    empty[t] = !c.or_(any);
  }
  // Keys in order of first use (in the constraints, or apart).
  std::vector<BLit> key_order;
  for (std::uint32_t x = 0; x + 1 < K; ++x)
    for (std::uint32_t t = 1; t <= n; ++t) {
      std::vector<BLit> before;
      for (std::uint32_t w = 1; w <= t; ++w) before.push_back(used[w][x]);
      key_order.push_back(c.implies(used[t][x + 1], c.or_(before)));
    }
  key_order_ = c.and_(key_order);
  if (opt.key_order) k.push_back(key_order_);
  // Empty transactions last, in no session with others; aborted ones, not
  // empty, first (T1, T2, ...).
  for (std::uint32_t t = 1; t < n; ++t) k.push_back(c.implies(empty[t], empty[t + 1]));
  for (std::uint32_t t = 1; t <= n && dirty_; ++t) {
    k.push_back(c.implies(A(t), !empty[t]));
    if (t > 1) k.push_back(c.implies(A(t), A(t - 1)));
  }
  for (std::uint32_t i = 1; i <= n; ++i)
    for (std::uint32_t j = i + 1; j <= n; ++j) {
      k.push_back(c.implies(empty[i], !SO(i, j)));
      k.push_back(c.implies(empty[j], !SO(i, j)));
    }
}

}  // namespace iso::cegis
