// A multimap from (key, value) pairs to transactions, sealed once and then
// looked up, for the front end's candidate-writer and unjustified-read
// stages (engine/history/front_end.hpp): who wrote a pair as a final
// version, as an intermediate one, or as a non-member. Internal to
// engine/history.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "engine/history/history.hpp"

namespace iso {

using PairKey = std::uint64_t;  // (key, value) packed

inline PairKey pair_key(KeyId k, ValueId v) {
  return (static_cast<std::uint64_t>(k) << 32) | static_cast<std::uint64_t>(v);
}

// A multimap from (key, value) to transactions: the entries sorted, and an
// open-addressing hash table from each distinct pair to its first entry.
// Every external read looks its pair up, tens of millions on large
// histories, where a binary search over the sorted entries costs a cache
// miss per step and the hash table about one.
class PairIndex {
 public:
  void add(PairKey p, TxnId t) { entries_.emplace_back(p, t); }
  void seal() {
    std::sort(entries_.begin(), entries_.end());
    std::size_t distinct = 0;
    for (std::size_t i = 0; i < entries_.size(); ++i)
      distinct += i == 0 || entries_[i].first != entries_[i - 1].first;
    std::size_t size = 16;
    shift_ = 60;
    while (size < 2 * distinct) {  // load factor at most 1/2
      size *= 2;
      --shift_;
    }
    mask_ = size - 1;
    slots_.assign(size, Slot{0, kEmpty, kNoTxn});
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (i > 0 && entries_[i].first == entries_[i - 1].first) continue;
      const bool single = i + 1 == entries_.size() || entries_[i + 1].first != entries_[i].first;
      std::size_t s = hash(entries_[i].first);
      while (slots_[s].entry != kEmpty) s = (s + 1) & mask_;
      slots_[s] = Slot{entries_[i].first, static_cast<std::uint32_t>(i),
                       single ? entries_[i].second : kNoTxn};
    }
  }
  // The transaction of `p` when it has exactly one; kNoTxn when it has none
  // or several (then find()). Answered from the hash table alone: most
  // pairs have one writer, and the entry would be a second cache miss.
  TxnId single(PairKey p, bool& found) const {
    const Slot* slot = lookup(p);
    found = slot != nullptr;
    return slot != nullptr ? slot->single : kNoTxn;
  }
  // The transactions for `p`, ascending.
  std::pair<const std::pair<PairKey, TxnId>*, const std::pair<PairKey, TxnId>*> find(
      PairKey p) const {
    const auto* end = entries_.data() + entries_.size();
    const Slot* slot = lookup(p);
    if (slot == nullptr) return {end, end};
    const auto* lo = entries_.data() + slot->entry;
    const auto* hi = lo;
    while (hi != end && hi->first == p) ++hi;
    return {lo, hi};
  }

 private:
  static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
  struct Slot {
    PairKey key;
    std::uint32_t entry;  // index of the pair's first entry; kEmpty: a free slot
    TxnId single;         // its transaction if it has one entry, else kNoTxn
  };
  const Slot* lookup(PairKey p) const {
    if (slots_.empty()) return nullptr;
    for (std::size_t s = hash(p);; s = (s + 1) & mask_) {
      if (slots_[s].entry == kEmpty) return nullptr;
      if (slots_[s].key == p) return &slots_[s];
    }
  }
  std::size_t hash(PairKey p) const {
    // Fibonacci hashing: the top bits of the product.
    return static_cast<std::size_t>((p * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  std::vector<std::pair<PairKey, TxnId>> entries_;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  unsigned shift_ = 60;
};

}  // namespace iso
