// Pearce–Kelly dynamic topological order (dynamic_order.hpp): adding an edge
// reorders only the affected region, or returns the cycle it would close.
#include "engine/graph/dynamic_order.hpp"
#include "engine/util/budget.hpp"

#include <algorithm>

namespace iso::graph {

DynamicOrder::DynamicOrder(const Digraph& base, const std::vector<Node>& order)
    : base_(base), base_in_(in_arcs(base, [](Node, Node) { return true; })), added_(base.size()),
      added_in_(base.size()), pos_(base.size()), at_(order), mark_(base.size(), 0), parent_(base.size()),
      parent_edge_(base.size()) {
  for (std::uint32_t i = 0; i < order.size(); ++i) pos_[order[i]] = i;
}

void DynamicOrder::remove_edge(Node from, Node to, EdgeId id) {
  added_.remove_edge(from, id);
  auto& arcs = added_in_[to];
  for (std::size_t i = 0; i < arcs.size(); ++i)
    if (arcs[i].id == id) {
      arcs[i] = arcs.back();
      arcs.pop_back();
      return;
    }
}

std::optional<std::vector<EdgeId>> DynamicOrder::add_edge(Node from, Node to, EdgeId id) {
  if (from == to) return std::vector<EdgeId>{};
  const std::uint32_t lb = pos_[to], ub = pos_[from];
  if (lb > ub) {  // already in order
    added_.add_edge(from, to, id);
    added_in_[to].push_back(Arc{from, id});
    return std::nullopt;
  }
  // Forward search from `to` among positions <= ub, breadth-first so that a
  // path back to `from`, if any, is a shortest one: every path from `to` to
  // `from` stays inside [lb, ub] because the order is topological.
  ++stamp_;
  std::vector<Node> forward{to};
  mark_[to] = stamp_;
  for (std::size_t head = 0; head < forward.size(); ++head) {
    budget::poll();
    Node u = forward[head];
    bool found = false;
    for_out(u, [&](const Arc& a) {
      if (found || pos_[a.to] > ub || mark_[a.to] == stamp_) return;
      mark_[a.to] = stamp_;
      parent_[a.to] = u;
      parent_edge_[a.to] = a.id;
      if (a.to == from) found = true;
      else forward.push_back(a.to);
    });
    if (found) {
      std::vector<EdgeId> path;
      for (Node x = from; x != to; x = parent_[x]) path.push_back(parent_edge_[x]);
      std::reverse(path.begin(), path.end());
      return path;
    }
  }
  // Backward search from `from` among positions >= lb.
  std::uint32_t back_stamp = ++stamp_;
  std::vector<Node> backward{from};
  mark_[from] = back_stamp;
  for (std::size_t head = 0; head < backward.size(); ++head) {
    budget::poll();
    Node u = backward[head];
    for_in(u, [&](const Arc& a) {
      if (pos_[a.to] < lb || mark_[a.to] == back_stamp) return;
      mark_[a.to] = back_stamp;
      backward.push_back(a.to);
    });
  }
  // Reorder: the backward set (ancestors of `from`) goes before the forward
  // set (descendants of `to`), reusing the positions both sets held.
  auto by_pos = [&](Node a, Node b) { return pos_[a] < pos_[b]; };
  std::sort(forward.begin(), forward.end(), by_pos);
  std::sort(backward.begin(), backward.end(), by_pos);
  std::vector<std::uint32_t> slots;
  slots.reserve(forward.size() + backward.size());
  for (Node n : backward) slots.push_back(pos_[n]);
  for (Node n : forward) slots.push_back(pos_[n]);
  std::sort(slots.begin(), slots.end());
  std::size_t i = 0;
  for (Node n : backward) { pos_[n] = slots[i]; at_[slots[i]] = n; ++i; }
  for (Node n : forward) { pos_[n] = slots[i]; at_[slots[i]] = n; ++i; }
  added_.add_edge(from, to, id);
  added_in_[to].push_back(Arc{from, id});
  return std::nullopt;
}

}  // namespace iso::graph
