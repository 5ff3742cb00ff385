#include "engine/logic/circuit.hpp"

#include <algorithm>

#include "engine/util/budget.hpp"

namespace iso::logic {

Circuit::Circuit() { gates_.push_back(Gate{Kind::Const, 0, {}}); }

BLit Circuit::input() {
  gates_.push_back(Gate{Kind::Input, num_inputs_++, {}});
  return BLit{static_cast<std::uint32_t>(gates_.size() - 1) << 1};
}

std::size_t Circuit::KeyHash::operator()(const std::vector<BLit>& v) const {
  std::size_t h = v.size();
  for (BLit l : v) h = h * 0x9E3779B97F4A7C15ull + l.x + (h >> 29);
  return h;
}

BLit Circuit::and_(std::span<const BLit> kids) {
  budget::poll();  // gates are the translation's output: a long translation makes many
  std::vector<BLit> k;
  k.reserve(kids.size());
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
  if (k.size() == 2) return pair_gate(k[0], k[1]);
  auto it = and_index_.find(k);
  if (it != and_index_.end()) return BLit{it->second << 1};
  auto id = static_cast<std::uint32_t>(gates_.size());
  gates_.push_back(Gate{Kind::And, 0, k});
  and_index_.emplace(std::move(k), id);
  return BLit{id << 1};
}

BLit Circuit::and_(BLit a, BLit b) {
  if (a == kFalse || b == kFalse) return kFalse;
  if (a == kTrue) return b;
  if (b == kTrue || a == b) return a;
  if (a.node() == b.node()) return kFalse;  // x and !x
  return b < a ? pair_gate(b, a) : pair_gate(a, b);
}

BLit Circuit::pair_gate(BLit a, BLit b) {
  budget::poll();
  const std::uint64_t key = (std::uint64_t{a.x} << 32) | b.x;
  auto it = pair_index_.find(key);
  if (it != pair_index_.end()) return BLit{it->second << 1};
  auto id = static_cast<std::uint32_t>(gates_.size());
  gates_.push_back(Gate{Kind::And, 0, {a, b}});
  pair_index_.emplace(key, id);
  return BLit{id << 1};
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
  for (std::size_t i = 0; i < lits.size(); ++i)
    for (std::size_t j = i + 1; j < lits.size(); ++j) pairs.push_back(!and_(lits[i], lits[j]));
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
    for (BLit k : g.kids)
      if (!memo.count(k.node())) { stack.push_back(k.node()); ready = false; }
    if (!ready) continue;
    bool v = true;
    for (BLit k : g.kids) v = v && (memo[k.node()] != k.negated());
    memo[n] = v;
    stack.pop_back();
  }
  return memo[l.node()] != l.negated();
}

}  // namespace iso::logic
