// The colex unrank of core/colex.h against independent enumerations: every k-subset of
// up to 20 points in colex order (stepping with Gosper's hack), and sampled ranks of
// subsets of 32 points, the largest rank included, ranked back by the sum of binomials.
#include "core/colex.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>

namespace gs {
namespace {

std::uint64_t choose(int n, int k) {
  if (k < 0 || k > n) return 0;
  std::uint64_t result = 1;
  for (int i = 1; i <= k; ++i)
    result = result * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
  return result;
}

// The colex rank of a set: the sum of C(p_i, i + 1) over its points p_0 < p_1 < ...
std::uint64_t rank_of(std::uint32_t set) {
  std::uint64_t rank = 0;
  int i = 0;
  for (std::uint32_t s = set; s != 0; s &= s - 1) rank += choose(std::countr_zero(s), ++i);
  return rank;
}

TEST(Colex, UnranksEverySubsetOfTwentyPointsInOrder) {
  for (int k = 0; k <= 12; ++k) {
    const std::uint64_t count = choose(20, k);
    std::uint32_t set = k == 0 ? 0 : (1U << k) - 1;
    for (std::uint64_t rank = 0; rank < count; ++rank) {
      ASSERT_EQ(colex_unrank(rank, k), set) << "k " << k << ", rank " << rank;
      if (set == 0) break;
      const std::uint32_t low = set & (~set + 1);
      const std::uint32_t ripple = set + low;
      set = ripple | (((set ^ ripple) >> 2) / low);
    }
  }
}

TEST(Colex, UnranksSampledSubsetsOfThirtyTwoPoints) {
  std::mt19937_64 random(7);
  for (int k = 1; k <= 12; ++k) {
    const std::uint64_t count = choose(32, k);
    for (int sample = 0; sample < 20000; ++sample) {
      const std::uint64_t rank = sample == 0 ? count - 1 : random() % count;
      const std::uint32_t set = colex_unrank(rank, k);
      ASSERT_EQ(std::popcount(set), k) << "k " << k << ", rank " << rank;
      ASSERT_EQ(rank_of(set), rank) << "k " << k;
    }
    EXPECT_EQ(colex_unrank(count - 1, k), ~std::uint32_t{0} << (32 - k)) << "k " << k;
  }
}

}  // namespace
}  // namespace gs
