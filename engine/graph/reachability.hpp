// Reachability in a DAG, in one of two forms chosen by size:
//
//  - chains (the compact transitive closure of Vbox §3.4, after Jagadish's
//    chain compression): the nodes are covered by chains, paths along which
//    each node reaches the next by an arc; per node u and chain h, the first
//    position of h that u reaches. u reaches v iff that position on v's
//    chain is at most v's. n·k integers for k chains: a history's sessions
//    give the chains, so 100,000 transactions in 50 sessions take 20 MB;
//  - bitsets: one row of n bits per node, n² bits (1.25 GB for 100,000
//    nodes), when the chains would take more (a history without sessions
//    whose dependencies do not line up).
//
// Chains are found greedily in topological order: a node extends the chain
// of an in-neighbour that is still its chain's last node. A caller may name
// a preferred predecessor per node (a transaction's session predecessor):
// taken when it is a chain's last node, and kept free for the node that
// prefers it, so that sessions become chains rather than being cut by
// arcs between them.
//
// Both are filled in reverse topological order. A caller may mark nodes as
// *relayed*: a node all of whose arcs in come from unmarked nodes (the
// anti-dependency copies t¹ of the SI graph, theory_graph.hpp). A relayed
// node belongs to no chain; whether u reaches it is whether u reaches or is
// one of its in-neighbours, kept per chain as the latest such position.
// Without them the SI graph's copies would each start a chain of their own.
//
// The bitset rows come from calloc: the system hands out zero pages as they
// are first touched, where zeroing 1.25 GB up front would take seconds the
// run's deadline could not interrupt.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "engine/graph/digraph.hpp"

namespace iso::graph {

class Reachability {
 public:
  Reachability() = default;
  struct Hints {
    // Relayed nodes (g.size() entries), or none.
    const std::vector<bool>* relayed = nullptr;
    // Preferred chain predecessor per node (g.size() entries; kNoNode for
    // none), or none. A preference without an arc is a claim that the
    // predecessor reaches the node by a path (real time orders commit
    // copies that no single arc joins): taken when the predecessor ends a
    // chain, and checked once the rows are built; if one does not hold,
    // the chains are built again without the claims.
    const std::vector<Node>* preferred = nullptr;
    // The chain form whatever its size (tests that compare it with a
    // breadth-first search or a brute force on small graphs, where the
    // bitsets are always smaller).
    bool chains_always = false;
  };
  static constexpr Node kNoNode = UINT32_MAX;
  // Preconditions: `order` is a topological order of `g`; no arc of `g`
  // joins two relayed nodes (throws std::logic_error otherwise).
  Reachability(const Digraph& g, const std::vector<Node>& order, const Hints& hints);
  Reachability(const Digraph& g, const std::vector<Node>& order);

  // A path of at least one edge from a to b.
  bool reaches(Node a, Node b) const {
    if (!chains_) return (bits_[static_cast<std::size_t>(a) * words_ + (b >> 6)] >> (b & 63)) & 1u;
    const std::uint32_t* row = first_.data() + static_cast<std::size_t>(a) * chains_;
    if (chain_[b] != kRelayed) return row[chain_[b]] <= pos_[b];
    return reaches_relayed(row, a, b);
  }
  // Reflexive: a == b or reaches(a, b).
  bool reaches_or_same(Node a, Node b) const { return a == b || reaches(a, b); }
  std::size_t bytes() const;
  // The number of chains (0: the bitset form).
  std::uint32_t chains() const { return chains_; }

 private:
  static constexpr std::uint32_t kRelayed = UINT32_MAX;
  static constexpr std::uint32_t kNever = UINT32_MAX;  // a chain the node does not reach
  void build_bitsets(const Digraph& g, const std::vector<Node>& order);
  // The chain form's steps: the chains (chain_, pos_; their number), the
  // relayed nodes' in-neighbours per chain, the first position reached.
  // `claims`: whether a preferred predecessor without an arc may link.
  std::size_t build_chains(const Digraph& g, const std::vector<Node>& order, const Hints& hints, bool claims);
  bool links_hold() const;
  void build_relays(const Digraph& g, const std::vector<bool>* relayed);
  void build_first(const Digraph& g, const std::vector<Node>& order);
  // Does a (whose row is `row`) reach relayed b: reach, or be on a chain at
  // or before, one of b's in-neighbours? `row` alone (a == kNoNode): does the
  // row reach one of them?
  bool reaches_relayed(const std::uint32_t* row, Node a, Node b) const {
    for (std::uint32_t i = relay_begin_[b]; i < relay_begin_[b + 1]; ++i) {
      const auto [h, last] = relay_[i];
      if (row[h] <= last || (a != kNoNode && chain_[a] == h && pos_[a] <= last)) return true;
    }
    return false;
  }

  // Bitset form.
  struct Free {
    void operator()(std::uint64_t* p) const { std::free(p); }
  };
  std::size_t words_ = 0;
  std::size_t size_ = 0;
  std::unique_ptr<std::uint64_t[], Free> bits_;
  // Chain form: chain_ and pos_ per node (kRelayed for relayed nodes), the
  // first position reached per (node, chain), and per relayed node its
  // (chain, latest in-neighbour position) pairs at relay_begin_[v] ..
  // relay_begin_[v + 1].
  // next_: the node after each on its chain (kNoNode at the end); claimed_:
  // whether a link is a claimed path rather than an arc.
  std::uint32_t chains_ = 0;
  std::vector<std::uint32_t> chain_, pos_, next_, first_, relay_begin_;
  bool claimed_ = false;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> relay_;
};

}  // namespace iso::graph
