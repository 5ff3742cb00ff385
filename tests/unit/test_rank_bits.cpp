// RankBits (engine/util/rank_bits.hpp) against a sorted vector of its
// members: membership and rank at every index, for random sets of every
// density, sizes around the 64-index words, and the empty set.
#include <algorithm>
#include <array>
#include <random>
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>

#include "engine/util/rank_bits.hpp"

using iso::RankBits;

TEST_CASE("RankBits: membership and rank equal a sorted list's, on random sets") {
  std::mt19937_64 rng(64);
  for (int round = 0; round < 400; ++round) {
    const std::size_t n = round < 10 ? static_cast<std::size_t>(round) : 1 + rng() % 700;
    const double density = std::array{0.0, 0.01, 0.2, 0.5, 0.97, 1.0}[round % 6];
    std::vector<std::size_t> members;
    RankBits set(n);
    for (std::size_t i = 0; i < n; ++i)
      if (static_cast<double>(rng() % 1000) < density * 1000) {
        members.push_back(i);
        set.push_back(i);
      }
    CHECK(set.size() == members.size());
    for (std::size_t i = 0; i < n; ++i) {
      const auto below = static_cast<std::size_t>(std::lower_bound(members.begin(), members.end(), i) - members.begin());
      CHECK(set.contains(i) == std::binary_search(members.begin(), members.end(), i));
      CHECK(set.rank(i) == below);
    }
  }
}

TEST_CASE("RankBits: members must come in increasing order, within the size") {
  RankBits set(130);
  set.push_back(3);
  set.push_back(70);
  CHECK_THROWS_AS(set.push_back(70), std::logic_error);
  CHECK_THROWS_AS(set.push_back(5), std::logic_error);
  CHECK_THROWS_AS(set.push_back(130), std::logic_error);
  set.push_back(129);
  CHECK(set.rank(129) == 2);
  CHECK(set.rank(128) == 2);
  CHECK(set.rank(71) == 2);
  CHECK(set.rank(70) == 1);
  CHECK(set.rank(4) == 1);
  CHECK(set.rank(3) == 0);
}
