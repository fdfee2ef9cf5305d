#pragma once
// The men index of a checkers slice whose two sides' men regions overlap (Lb + Lw > 8),
// in closed form over small tables.
//
// A slice's men index (docs/CHECKERS.md) is first(B) + w: B is Black's placement of its
// men, w White's rank among the placements B leaves it, and first(B) the number of White
// placements left by all of Black's placements before B in colex order. Where the regions
// overlap, the number left, f(B), depends on B. With R_L the squares of White's ranks
// 1..L (Black's squares 32 - 4L to 31) and nw White's men,
//
//   f(B) = C(4 Lw - |B & R_Lw|, nw) - C(4 (Lw - 1) - |B & R_Lw-1|, nw)
//
// (placements on the squares of ranks 1..Lw that B leaves free, less those without a man
// on rank Lw). In colex order a placement comes before B when, at B's k-th lowest man b_k,
// it has its k lowest men below b_k and agrees with B above; so
//
//   first(B) = sum over k of  H_Lw(k, b_k, s_Lw) - H_Lw-1(k, b_k, s_Lw-1)  - base
//   H_L(k, m, s) = sum over k-sets S of squares below m of C(4L - s - |S & R_L|, nw)
//                = sum over i of C(r, i) C(m - r, k - i) C(4L - s - i, nw),  r = |[0, m) & R_L|
//
// where s_L counts B's men above b_k in R_L, and base is the same sum over the placements
// before the first one with a man on rank Lb. Unranking walks the same sums down: Black's
// highest man is the largest square whose sum does not pass the index, and so on.
//
// H is a table per (nw, L) of 13 x 29 x 13 numbers (39 KiB), built on first use and kept:
// at most 84 of them (ranks 1 to 7; 3.1 MiB), whatever positions are ranked. Thread-safe.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "core/value.h"

namespace gs::checkers {

// H_L(k, m, s) for one number of White's men and one rank L (above).
class OverlapSums {
 public:
  static constexpr int kMaxMen = 12;
  static constexpr int kSquareLimit = 28;  // men of a side stand below square 28 (seen from it)
  // The table of (white_men, rank), 1 <= white_men <= 12 and 1 <= rank <= 7.
  static const OverlapSums& of(int white_men, int rank);
  // The bytes of the tables built so far, and the most they can ever hold.
  static std::uint64_t bytes_held();
  static std::uint64_t most_bytes();

  [[nodiscard]] Index at(int k, int m, int s) const {
    return sums_[(static_cast<std::size_t>(k) * (kSquareLimit + 1) + static_cast<std::size_t>(m)) *
                     (kMaxMen + 1) +
                 static_cast<std::size_t>(s)];
  }

 private:
  OverlapSums(int white_men, int rank);
  std::array<Index, std::size_t{kMaxMen + 1} * (kSquareLimit + 1) * (kMaxMen + 1)> sums_{};
};

// The men index of one overlapping slice, seen with the side to move as Black.
class MenOverlap {
 public:
  MenOverlap(int black_men, int white_men, int black_lead, int white_lead)
      : high_(&OverlapSums::of(white_men, white_lead)),
        low_(&OverlapSums::of(white_men, white_lead - 1)),
        high_region_(region_of(white_lead)),
        low_region_(region_of(white_lead - 1)),
        black_men_(black_men),
        black_lead_(black_lead),
        base_(below(black_men, 4 * (black_lead - 1), 0, 0)) {}

  // The first men index of Black's placement `black` (a set of squares): the sum of f
  // over the placements before it.
  [[nodiscard]] Index first(std::uint32_t black) const {
    Index sum = 0;
    int k = 1;
    for (std::uint32_t set = black; set != 0; set &= set - 1, ++k) {
      const std::uint32_t above = set & (set - 1);
      sum += below(k, std::countr_zero(set), std::popcount(above & high_region_),
                   std::popcount(above & low_region_));
    }
    return sum - base_;
  }
  // Black's placement of the men index `index`; index becomes White's rank among the
  // placements Black's leaves it.
  std::uint32_t black_of(Index& index) const {
    Index rest = index + base_;
    std::uint32_t black = 0;
    int upper = 4 * black_lead_;  // Black's next man stands below this square
    int high = 0;
    int low = 0;
    for (int k = black_men_; k >= 1; --k) {
      // The largest square x with below(k, x) <= rest: the sum is 0 at x = k - 1 and
      // does not decrease with x.
      int first = k - 1;
      int last = upper - 1;
      while (first < last) {
        const int middle = (first + last + 1) / 2;
        if (below(k, middle, high, low) <= rest) {
          first = middle;
        } else {
          last = middle - 1;
        }
      }
      rest -= below(k, first, high, low);
      black |= 1U << first;
      high += static_cast<int>(high_region_ >> first & 1U);
      low += static_cast<int>(low_region_ >> first & 1U);
      upper = first;
    }
    index = rest;
    return black;
  }
  // The number of men placements of the slice: both sides' together.
  [[nodiscard]] Index pairs() const { return below(black_men_, 4 * black_lead_, 0, 0) - base_; }

 private:
  // White's ranks 1..rank as Black's squares.
  static constexpr std::uint32_t region_of(int rank) {
    return rank <= 0 ? 0 : rank >= 8 ? ~0U : ~0U << (32 - 4 * rank);
  }
  // The sum of f over Black's placements whose k lowest men stand below square m, with
  // high and low of its men above them in R_Lw and R_Lw-1.
  [[nodiscard]] Index below(int k, int m, int high, int low) const {
    return high_->at(k, m, high) - low_->at(k, m, low);
  }

  const OverlapSums* high_;
  const OverlapSums* low_;
  std::uint32_t high_region_;
  std::uint32_t low_region_;
  int black_men_;
  int black_lead_;
  Index base_;
};

}  // namespace gs::checkers
