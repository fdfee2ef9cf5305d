#pragma once
// The colex unrank of k-subsets of up to 32 points (k <= 12): the set of a given colex
// rank among the sets of its size. Colex order does not depend on how many points there
// are, so no table depends on it. Without branches that depend on the rank: its
// highest points by a binary search each, the last two or three from tables of every
// pair and triple.
#include <array>
#include <cstddef>
#include <cstdint>

namespace gs {

namespace colex_detail {

// C(x, k) by k, then x < 64 (k <= 12): the binary search for the largest x may look past
// point 31 without a bounds test, since the C(x, k) there exceed every rank.
struct Columns {
  std::array<std::array<std::uint64_t, 64>, 13> c{};
  constexpr Columns() {
    for (std::size_t x = 0; x < 64; ++x) {
      c[0][x] = 1;
      for (std::size_t k = 1; k <= 12; ++k) c[k][x] = x == 0 ? 0 : c[k][x - 1] + c[k - 1][x - 1];
    }
  }
};
inline constexpr Columns kColumns{};

// The k-subsets of points 0..31 in colex order: Gosper's hack steps from each to the next.
template <std::size_t N>
struct Sets {
  std::array<std::uint32_t, N> set{};
  constexpr explicit Sets(int k) {
    std::uint32_t current = (1U << k) - 1;
    for (std::uint32_t& entry : set) {
      entry = current;
      const std::uint32_t low = current & (~current + 1);
      const std::uint32_t ripple = current + low;
      current = ripple | (((current ^ ripple) >> 2) / low);
    }
  }
};
inline constexpr Sets<496> kPairs{2};
inline constexpr Sets<4960> kTriples{3};

}  // namespace colex_detail

// The k-subset (k <= 12) of colex rank `rank` (below C(32, k)), as a set of points: its
// highest point is the largest x with C(x, k) <= rank, found by a binary search over x in
// [k - 1, k + 30].
inline std::uint32_t colex_unrank(std::uint64_t rank, int k) {
  std::uint32_t set = 0;
  for (; k >= 4; --k) {
    const auto& column = colex_detail::kColumns.c[static_cast<std::size_t>(k)];
    std::size_t x = static_cast<std::size_t>(k) - 1;
    for (std::size_t step = 16; step != 0; step >>= 1) {
      if (column[x + step] <= rank) x += step;
    }
    rank -= column[x];
    set |= 1U << x;
  }
  switch (k) {
    case 3: return set | colex_detail::kTriples.set[rank];
    case 2: return set | colex_detail::kPairs.set[rank];
    case 1: return set | 1U << rank;  // C(x, 1) = x
    default: return set;
  }
}

}  // namespace gs
