// Bounds on the formulas being built: how deep they nest, how much memory
// their nodes hold, how much building them cost, and their arity.
//
// Formulas come from spec files, code from strangers. A loop `r = r + s`
// nests one level per turn, and the translator, the printer and the
// destructors recurse once per level; a loop `f = f & g` copies the growing
// conjunction every turn (and_ flattens its operands), quadratic in time and
// memory, and that memory is outside the Lua heap's cap. Every node passes
// through the factories of ast.hpp, so they enforce the limits: whoever runs
// untrusted code arms a ScopedNodeLimits for that time (the spec loader does
// while a file runs), and a factory that would exceed an armed limit throws
// LimitError instead of building the node. Outside such a scope nothing is
// refused, but every node still records its depth and its share of
// live_bytes().
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace iso::logic {

// A node would exceed an armed limit. what() says which, in words a spec
// author can act on.
class LimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct NodeLimits {
  // Nesting: a node is one deeper than its deepest operand, plus one per
  // variable it declares (the translator unrolls one per stack frame).
  // The shipped specs nest at most 16 deep.
  std::uint32_t max_depth = 1000;
  // Bytes held by the nodes built while armed and still alive (garbage the
  // Lua collector has not reclaimed yet included: it is memory all the same).
  std::size_t max_live_bytes = std::size_t{64} << 20;
  // Bytes of every node built while armed, dead or alive: the work the
  // factories did, which bounds their time.
  std::size_t max_built_bytes = std::size_t{1} << 30;
  // Columns of a relation or expression. The history schema needs 3; tuple
  // indices (engine/logic/matrix.hpp) overflow long before 64.
  std::size_t max_arity = 8;
};

// Bytes held by every node alive in the process (approximate: the node, its
// operand, declaration, column and free-variable arrays, the shared_ptr
// control block).
std::size_t live_bytes();

namespace detail {
// What a thread has armed.
struct Armed {
  bool active = false;
  NodeLimits limits;
  std::size_t live_base = 0;  // live_bytes() when armed
  std::size_t built = 0;      // bytes built since
};
}  // namespace detail

// Arms `limits` on the current thread for its lifetime; the previous limits
// (or none) come back when it is destroyed. The live and built sizes count
// from the moment it is armed.
class ScopedNodeLimits {
 public:
  explicit ScopedNodeLimits(const NodeLimits& limits);
  ~ScopedNodeLimits();
  ScopedNodeLimits(const ScopedNodeLimits&) = delete;
  ScopedNodeLimits& operator=(const ScopedNodeLimits&) = delete;

 private:
  detail::Armed saved_;
};

namespace detail {

// Throws LimitError when a node of this depth, size and arity may not be
// built under the armed limits; otherwise counts `bytes` as built.
void admit_node(std::uint32_t depth, std::size_t bytes, std::size_t arity);

// A node's share of live_bytes(): added when it is charged, removed when the
// node is destroyed; a move hands the share over, a copy charges it again.
class LiveCharge {
 public:
  LiveCharge() = default;
  explicit LiveCharge(std::size_t bytes);
  LiveCharge(const LiveCharge& o) : LiveCharge(o.bytes_) {}
  LiveCharge(LiveCharge&& o) noexcept : bytes_(std::exchange(o.bytes_, 0)) {}
  LiveCharge& operator=(LiveCharge o) noexcept {
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  ~LiveCharge();

 private:
  std::size_t bytes_ = 0;
};

}  // namespace detail
}  // namespace iso::logic
