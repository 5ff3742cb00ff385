// A map from 64-bit integers to 32-bit ids for the readers' interning caches
// (an integer key or value to its KeyId or ValueId): open addressing with
// linear probing in one flat array, no node per entry, so that a history of
// millions of distinct values is read without a cache miss per allocation
// and freed in one piece.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace iso {

template <class Id>
class IntMap {
 public:
  // The id of `k`, made by make() (called once per distinct key) when absent.
  template <class Make>
  Id get_or_make(std::int64_t k, Make&& make) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    std::size_t i = slot_of(k);
    for (;;) {
      Slot& s = slots_[i];
      if (!s.used) {
        const Id id = std::forward<Make>(make)();
        s = Slot{k, id, true};
        ++size_;
        return id;
      }
      if (s.key == k) return s.id;
      i = (i + 1) & (slots_.size() - 1);
    }
  }

  std::size_t size() const { return size_; }

 private:
  struct Slot {
    std::int64_t key = 0;
    Id id{};
    bool used = false;
  };

  std::size_t slot_of(std::int64_t k) const {
    // A multiplicative hash: consecutive integers spread over the table.
    const std::uint64_t h = static_cast<std::uint64_t>(k) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>(h >> 32) & (slots_.size() - 1);
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
    for (const Slot& s : old) {
      if (!s.used) continue;
      std::size_t i = slot_of(s.key);
      while (slots_[i].used) i = (i + 1) & (slots_.size() - 1);
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace iso
