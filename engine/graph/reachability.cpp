// Reachability in a DAG (reachability.hpp): the chain form (chains, relayed
// nodes' in-neighbours, first position reached per chain) or bitsets.
#include "engine/graph/reachability.hpp"

#include <algorithm>
#include <new>
#include <stdexcept>

#include "engine/util/budget.hpp"

namespace iso::graph {

Reachability::Reachability(const Digraph& g, const std::vector<Node>& order) : Reachability(g, order, Hints{}) {}

Reachability::Reachability(const Digraph& g, const std::vector<Node>& order, const Hints& hints) {
  const std::uint32_t n = g.size();
  const std::vector<bool>* relayed = hints.relayed;
  auto is_relayed = [&](Node v) { return relayed && (*relayed)[v]; };
  for (Node u = 0; u < n; ++u)
    for (const Arc& a : g.out(u))
      if (is_relayed(u) && is_relayed(a.to)) throw std::logic_error("reachability: an arc joins two relayed nodes");
  for (bool claims : {true, false}) {
    const std::size_t k = build_chains(g, order, hints, claims);
    // The chain form holds 32 bits per (node, chain); bitsets, 1 per (node, node).
    if (k == 0 || (32 * k >= n && !hints.chains_always)) break;
    chains_ = static_cast<std::uint32_t>(k);
    relay_ = {};
    build_relays(g, relayed);
    build_first(g, order);
    if (!claimed_ || links_hold()) return;
    // A claimed path that is not there: the chains without the claims.
    chains_ = 0;
    first_ = {};
  }
  chain_ = {};
  pos_ = {};
  relay_begin_ = {};
  relay_ = {};
  build_bitsets(g, order);
}

// Each node reaches the next of its chain: the first position its row
// reaches on its own chain is the next one. Sound even where the property
// fails: a row only ever holds positions of nodes the node reaches (arcs'
// targets and the rows of reached nodes), and a node reaches no earlier
// position of its own chain (the graph is acyclic) nor itself.
bool Reachability::links_hold() const {
  for (Node u = 0; u < chain_.size(); ++u) {
    if (chain_[u] == kRelayed || next_[u] == kNoNode) continue;
    if (first_[static_cast<std::size_t>(u) * chains_ + chain_[u]] != pos_[u] + 1) return false;
  }
  return true;
}

std::size_t Reachability::build_chains(const Digraph& g, const std::vector<Node>& order, const Hints& hints,
                                       bool claims) {
  const std::uint32_t n = g.size();
  const std::vector<bool>* relayed = hints.relayed;
  auto is_relayed = [&](Node v) { return relayed && (*relayed)[v]; };
  std::vector<std::uint32_t> rank(n);
  for (std::uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
  // Arcs into unrelayed nodes from unrelayed ones.
  InArcs in = in_arcs(g, [&](Node u, Node v) { return u != v && !is_relayed(u) && !is_relayed(v); });
  // Chains, greedily in topological order: a node extends the chain of its
  // preferred predecessor if that is a chain's last node, else of the latest
  // in-neighbour that is one and that no node still to come prefers, or it
  // starts a chain.
  auto preferred = [&](Node u) { return hints.preferred ? (*hints.preferred)[u] : kNoNode; };
  std::vector<std::uint32_t> wanted(n, 0);  // nodes still to come preferring each node
  for (Node u = 0; u < n && hints.preferred; ++u)
    if (preferred(u) != kNoNode && !is_relayed(u)) ++wanted[preferred(u)];
  chain_.assign(n, kRelayed);
  pos_.assign(n, 0);
  next_.assign(n, kNoNode);
  claimed_ = false;
  std::vector<Node> tail;  // per chain, its last node so far
  // A preferred predecessor without an arc, on a chain's end already: a
  // path the caller claims.
  auto claimable = [&](Node p) {
    return claims && p != kNoNode && !is_relayed(p) && chain_[p] != kRelayed && tail[chain_[p]] == p;
  };
  for (Node u : order) {
    budget::poll();
    if (is_relayed(u)) continue;
    const Node pref = preferred(u);
    if (pref != kNoNode) --wanted[pref];
    Node best = kNoNode;
    for (std::size_t i = in.begin[u]; i < in.begin[u + 1]; ++i) {
      const Node p = in.arcs[i].to;
      if (tail[chain_[p]] != p) continue;
      if (p == pref) {
        best = p;
        break;
      }
      if (wanted[p] == 0 && (best == kNoNode || rank[p] > rank[best])) best = p;
    }
    if (best != pref && claimable(pref)) {
      best = pref;
      claimed_ = true;
    }
    if (best == kNoNode) {
      chain_[u] = static_cast<std::uint32_t>(tail.size());
      tail.push_back(u);
    } else {
      chain_[u] = chain_[best];
      pos_[u] = pos_[best] + 1;
      tail[chain_[u]] = u;
      next_[best] = u;
    }
  }
  return tail.size();
}

// Per relayed node, the latest position of an in-neighbour on each chain:
// its arcs in, reduced to one entry per chain with a scratch row stamped by
// node.
void Reachability::build_relays(const Digraph& g, const std::vector<bool>* relayed) {
  const std::uint32_t n = g.size();
  const std::size_t k = chains_;
  auto is_relayed = [&](Node v) { return relayed && (*relayed)[v]; };
  {
    const InArcs into = in_arcs(g, [&](Node u, Node v) { return !is_relayed(u) && is_relayed(v); });
    relay_begin_.assign(n + 1, 0);
    std::vector<std::uint32_t> latest(k, 0), stamp(k, kNoNode);
    for (Node v = 0; v < n; ++v) {
      budget::poll();
      relay_begin_[v] = static_cast<std::uint32_t>(relay_.size());
      for (std::size_t i = into.begin[v]; i < into.begin[v + 1]; ++i) {
        const Node u = into.arcs[i].to;
        const std::uint32_t h = chain_[u];
        if (stamp[h] != v) {
          stamp[h] = v;
          latest[h] = pos_[u];
          relay_.emplace_back(h, 0);
        } else {
          latest[h] = std::max(latest[h], pos_[u]);
        }
      }
      for (std::size_t i = relay_begin_[v]; i < relay_.size(); ++i) relay_[i].second = latest[relay_[i].first];
    }
    relay_begin_[n] = static_cast<std::uint32_t>(relay_.size());
  }
}

// The first position reached on each chain, in reverse topological order.
void Reachability::build_first(const Digraph& g, const std::vector<Node>& order) {
  const std::uint32_t n = g.size();
  const std::size_t k = chains_;
  first_.assign(static_cast<std::size_t>(n) * k, kNever);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    budget::poll();
    const Node u = *it;
    std::uint32_t* row = first_.data() + static_cast<std::size_t>(u) * k;
    for (const Arc& a : g.out(u)) {
      const Node v = a.to;
      if (v == u) continue;
      if (chain_[v] != kRelayed) {
        // Reaching v or an earlier node of its chain covers all v reaches.
        if (row[chain_[v]] <= pos_[v]) continue;
        row[chain_[v]] = pos_[v];
      } else if (reaches_relayed(row, kNoNode, v)) {
        // The row reaches an in-neighbour of v, whose row (merged through
        // the successor that reaches it) covers v's. (Not u's own chain:
        // its arcs may not be merged yet.)
        continue;
      }
      const std::uint32_t* succ = first_.data() + static_cast<std::size_t>(v) * k;
      for (std::size_t h = 0; h < k; ++h) row[h] = std::min(row[h], succ[h]);
    }
  }
}

void Reachability::build_bitsets(const Digraph& g, const std::vector<Node>& order) {
  words_ = (g.size() + 63) / 64;
  size_ = static_cast<std::size_t>(g.size()) * words_;
  bits_.reset(static_cast<std::uint64_t*>(std::calloc(size_ == 0 ? 1 : size_, sizeof(std::uint64_t))));
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

std::size_t Reachability::bytes() const {
  if (!chains_) return size_ * sizeof(std::uint64_t);
  return (first_.size() + chain_.size() + pos_.size() + next_.size() + relay_begin_.size()) * sizeof(std::uint32_t) +
         relay_.size() * sizeof(relay_[0]);
}

}  // namespace iso::graph
