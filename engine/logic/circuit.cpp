// The hash-consed circuit of circuit.hpp: gates built with constant
// folding, shared by their kids.
#include "engine/logic/circuit.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "engine/util/budget.hpp"

namespace iso::logic {

namespace {

std::uint32_t hash_of(std::span<const BLit> kids) {
  std::uint64_t h = kids.size();
  for (BLit l : kids) h = (h ^ l.x) * 0x9E3779B97F4A7C15ull;
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

}  // namespace

Circuit::Circuit() : index_(1024) { gates_.push_back(Gate{Kind::Const, 0, 0, 0}); }

BLit Circuit::input() {
  gates_.push_back(Gate{Kind::Input, num_inputs_++, 0, 0});
  return BLit{static_cast<std::uint32_t>(gates_.size() - 1) << 1};
}

BLit Circuit::and_(std::span<const BLit> kids) {
  std::vector<BLit>& k = scratch_;  // make_and copies it before anything reuses it
  k.clear();
  for (BLit l : kids) {
    if (l == kFalse) return kFalse;
    if (l == kTrue) continue;
    k.push_back(l);
  }
  std::sort(k.begin(), k.end());
  k.erase(std::unique(k.begin(), k.end()), k.end());
  // x and !x are adjacent after sorting (they differ only in the last bit).
  for (std::size_t i = 1; i < k.size(); ++i)
    if (k[i].node() == k[i - 1].node()) return kFalse;
  if (k.empty()) return kTrue;
  if (k.size() == 1) return k[0];
  return make_and(k);
}

BLit Circuit::and_(BLit a, BLit b) {
  if (a == kFalse || b == kFalse) return kFalse;
  if (a == kTrue) return b;
  if (b == kTrue || a == b) return a;
  if (a.node() == b.node()) return kFalse;  // x and !x
  const std::array<BLit, 2> k = b < a ? std::array<BLit, 2>{b, a} : std::array<BLit, 2>{a, b};
  return make_and(k);
}

BLit Circuit::make_and(std::span<const BLit> k) {
  budget::poll();  // gates are the translation's output: a long translation makes many
  const std::uint32_t h = hash_of(k);
  const std::size_t mask = index_.size() - 1;
  std::size_t at = h & mask;
  for (; index_[at].gate != 0; at = (at + 1) & mask) {
    if (index_[at].hash != h) continue;
    const std::span<const BLit> other = kids(index_[at].gate);
    if (std::equal(k.begin(), k.end(), other.begin(), other.end()))
      return BLit{index_[at].gate << 1};
  }
  const auto id = static_cast<std::uint32_t>(gates_.size());
  gates_.push_back(
      Gate{Kind::And, 0, static_cast<std::uint32_t>(kids_.size()), static_cast<std::uint32_t>(k.size())});
  kids_.insert(kids_.end(), k.begin(), k.end());
  index_[at] = Slot{id, h};
  if (++indexed_ * 2 > index_.size()) grow_index();
  return BLit{id << 1};
}

void Circuit::grow_index() {
  std::vector<Slot> bigger(index_.size() * 2);
  const std::size_t mask = bigger.size() - 1;
  for (const Slot& s : index_) {
    if (s.gate == 0) continue;
    std::size_t at = s.hash & mask;
    while (bigger[at].gate != 0) at = (at + 1) & mask;
    bigger[at] = s;
  }
  index_ = std::move(bigger);
}

BLit Circuit::or_(std::span<const BLit> kids) {
  std::vector<BLit> neg;
  neg.reserve(kids.size());
  for (BLit l : kids) neg.push_back(!l);
  return !and_(neg);
}

BLit Circuit::iff(BLit a, BLit b) {
  if (a == b) return kTrue;
  if (a == !b) return kFalse;
  return and_(implies(a, b), implies(b, a));
}

BLit Circuit::ite(BLit c, BLit t, BLit e) {
  if (c == kTrue) return t;
  if (c == kFalse) return e;
  if (t == e) return t;
  return or_(and_(c, t), and_(!c, e));
}

BLit Circuit::at_most_one(std::span<const BLit> lits) {
  std::vector<BLit> pairs;
  if (lits.size() <= kPairwiseAtMostOne) {
    for (std::size_t i = 0; i < lits.size(); ++i)
      for (std::size_t j = i + 1; j < lits.size(); ++j) pairs.push_back(!and_(lits[i], lits[j]));
    return and_(pairs);
  }
  // Linear for many literals (a choice among hundreds of writers): none is
  // true once an earlier one is, "an earlier one" a chain of ORs.
  BLit earlier = lits[0];
  for (std::size_t i = 1; i < lits.size(); ++i) {
    pairs.push_back(!and_(earlier, lits[i]));
    earlier = or_(earlier, lits[i]);
  }
  return and_(pairs);
}

bool Circuit::eval(BLit l, const std::vector<bool>& inputs) const {
  // Iterative post-order evaluation with a memo, so deep circuits do not
  // overflow the stack.
  std::unordered_map<std::uint32_t, bool> memo;
  std::vector<std::uint32_t> stack{l.node()};
  while (!stack.empty()) {
    std::uint32_t n = stack.back();
    if (memo.count(n)) { stack.pop_back(); continue; }
    const Gate& g = gates_[n];
    if (g.kind == Kind::Const) { memo[n] = true; stack.pop_back(); continue; }
    if (g.kind == Kind::Input) {
      memo[n] = g.input < inputs.size() && inputs[g.input];
      stack.pop_back();
      continue;
    }
    bool ready = true;
    for (BLit k : kids(n))
      if (!memo.count(k.node())) { stack.push_back(k.node()); ready = false; }
    if (!ready) continue;
    bool v = true;
    for (BLit k : kids(n)) v = v && (memo[k.node()] != k.negated());
    memo[n] = v;
    stack.pop_back();
  }
  return memo[l.node()] != l.negated();
}

}  // namespace iso::logic
