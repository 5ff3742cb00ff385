// A set of indices in [0, n) that answers "how many members come before i"
// in constant time: a bit per index and, per 64 of them, the count before
// them (n/8 + n/16 bytes). The encoder numbers the open write-write pairs
// this way: a million-transaction history has 300 million pairs, of which
// a fraction of a percent are open, and a variable per pair would take
// more memory than the pairs do.
//
// Members are added in increasing order (push_back); rank() then holds at
// once, with no separate pass.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace iso {

class RankBits {
 public:
  RankBits() = default;
  explicit RankBits(std::size_t n) : words_((n + 63) / 64, 0), before_((n + 63) / 64, 0), n_(n) {}

  // Adds i, which must be larger than every member so far.
  void push_back(std::size_t i) {
    if (i >= n_ || (count_ > 0 && i <= last_)) throw std::logic_error("RankBits: out of order");
    const std::size_t w = i >> 6;
    // The counts of the words after the last member's, up to i's.
    for (std::size_t v = count_ == 0 ? 0 : (last_ >> 6) + 1; v <= w; ++v) before_[v] = static_cast<std::uint32_t>(count_);
    words_[w] |= bit(i);
    last_ = i;
    ++count_;
  }
  bool contains(std::size_t i) const { return (words_[i >> 6] & bit(i)) != 0; }
  // How many members are smaller than i (i itself need not be one). Words
  // past the last member's have no count yet: size() is the answer there.
  std::size_t rank(std::size_t i) const {
    const std::size_t w = i >> 6;
    if (count_ == 0 || w > (last_ >> 6)) return count_;
    return before_[w] + static_cast<std::size_t>(std::popcount(words_[w] & (bit(i) - 1)));
  }
  std::size_t size() const { return count_; }

 private:
  static std::uint64_t bit(std::size_t i) { return std::uint64_t{1} << (i & 63); }
  std::vector<std::uint64_t> words_;
  std::vector<std::uint32_t> before_;  // members before each word
  std::size_t n_ = 0, count_ = 0, last_ = 0;
};

}  // namespace iso
