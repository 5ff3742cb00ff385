#include "engine/graph/reachability.hpp"

#include <new>

#include "engine/util/budget.hpp"

namespace iso::graph {

Reachability::Reachability(const Digraph& g, const std::vector<Node>& order)
    : words_((g.size() + 63) / 64), size_(static_cast<std::size_t>(g.size()) * words_),
      bits_(static_cast<std::uint64_t*>(std::calloc(size_ == 0 ? 1 : size_, sizeof(std::uint64_t)))) {
  if (!bits_) throw std::bad_alloc();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    budget::poll();
    Node u = *it;
    std::uint64_t* row = bits_.get() + static_cast<std::size_t>(u) * words_;
    for (const Arc& a : g.out(u)) {
      if (a.to == u) continue;
      const std::uint64_t* succ = bits_.get() + static_cast<std::size_t>(a.to) * words_;
      // Skip successors already covered: their rows are subsets of ours.
      if ((row[a.to >> 6] >> (a.to & 63)) & 1u) continue;
      row[a.to >> 6] |= std::uint64_t{1} << (a.to & 63);
      for (std::size_t w = 0; w < words_; ++w) row[w] |= succ[w];
    }
  }
}

}  // namespace iso::graph
