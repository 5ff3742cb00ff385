// The limits of limits.hpp: armed per thread, each node admitted against
// them as it is built (LimitError past them), live bytes counted.
#include "engine/logic/limits.hpp"

#include <atomic>
#include <string>

#include <fmt/format.h>

namespace iso::logic {

namespace {

// Nodes are shared between threads (a library loaded once, checked in
// several), so the live count is one atomic for the process; what is armed
// belongs to the thread that runs the untrusted code.
std::atomic<std::size_t> g_live{0};

detail::Armed& armed() {
  thread_local detail::Armed a;
  return a;
}

std::string mib(std::size_t bytes) { return fmt::format("{} MiB", bytes >> 20); }

}  // namespace

std::size_t live_bytes() { return g_live.load(std::memory_order_relaxed); }

ScopedNodeLimits::ScopedNodeLimits(const NodeLimits& limits) : saved_(armed()) {
  armed() = detail::Armed{true, limits, live_bytes(), 0};
}

ScopedNodeLimits::~ScopedNodeLimits() { armed() = saved_; }

namespace detail {

namespace {

void admit_arity(const Armed& a, std::size_t arity) {
  if (arity > a.limits.max_arity)
    throw LimitError(fmt::format("a relation of arity {}: more than the {} columns allowed",
                                 arity, a.limits.max_arity));
}

}  // namespace

void admit_node(std::uint32_t depth, std::size_t bytes, std::size_t arity) {
  Armed& a = armed();
  if (!a.active) return;
  admit_arity(a, arity);
  if (depth > a.limits.max_depth)
    throw LimitError(fmt::format(
        "formula nested more than {} levels deep (does a loop add one operator per turn?)",
        a.limits.max_depth));
  // Nodes built before arming may die meanwhile: the live count can drop
  // below its base.
  const std::size_t live = live_bytes();
  const std::size_t grown = live > a.live_base ? live - a.live_base : 0;
  if (grown + bytes > a.limits.max_live_bytes)
    throw LimitError(fmt::format("formulas hold more than {} of memory (does a loop build them "
                                 "without bound?)",
                                 mib(a.limits.max_live_bytes)));
  if (a.built + bytes > a.limits.max_built_bytes)
    throw LimitError(fmt::format(
        "building the formulas took more than {} of nodes (does a loop grow a formula one "
        "operand at a time, as in f = f & g? all{{...}} and any{{...}} take a list)",
        mib(a.limits.max_built_bytes)));
  a.built += bytes;
}

LiveCharge::LiveCharge(std::size_t bytes) : bytes_(bytes) {
  g_live.fetch_add(bytes, std::memory_order_relaxed);
}

LiveCharge::~LiveCharge() {
  if (bytes_) g_live.fetch_sub(bytes_, std::memory_order_relaxed);
}

}  // namespace detail
}  // namespace iso::logic
