#pragma once
// The boards of the mill games (docs/games/morris.md) as data: points, the lines drawn
// between them, the mills, and the symmetry group computed from them.
//
// A board is given as its point names and its lines: a line is a sequence of points,
// consecutive points are adjacent, and every three consecutive points of a line form a
// mill. The symmetries are the permutations of the points that preserve adjacency and
// map mills onto mills, found by search (16 on the two- and three-square boards,
// 8 on Seven Men's Morris, whose centre point the inner/outer swap cannot fix).
//
// Point sets are bitmasks (bit i = point i, points numbered in the order of the board's
// point list). The classes of White's stone sets under the group, which the index of a
// sector is built on, are tabulated lazily per number of stones.
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/bits.h"
#include "core/value.h"

namespace gs::morris {

inline constexpr int kMaxPoints = 24;
inline constexpr int kMaxSymmetries = 32;

enum class BoardKind : std::uint8_t { kNine, kMorabaraba, kSix, kSeven };

// Binomial coefficients C(n, k) for n up to 32.
struct BinomialTable {
  std::array<std::array<std::uint64_t, 33>, 33> c{};
  constexpr BinomialTable() {
    for (std::size_t n = 0; n <= 32; ++n) {
      c[n][0] = 1;
      for (std::size_t k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k < n ? c[n - 1][k] : 0);
    }
  }
};
inline constexpr BinomialTable kBinomials{};

inline std::uint64_t binomial(int n, int k) {
  if (k < 0 || n < 0 || k > n) return 0;
  return kBinomials.c[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)];
}

// The colex rank of a set among the sets of its size: the sum of C(p_i, i + 1) over its
// points p_0 < p_1 < ..., added up a byte at a time from tables (27 KiB): byte j's part
// depends on the byte and on the number k of points below it.
struct ColexTable {
  // Byte 0 (k = 0), byte 1 (k <= 8), byte 2 (k <= 16), a row of 256 per k.
  static constexpr std::size_t kRows = 1 + 9 + 17;
  std::array<std::array<std::uint32_t, 256>, kRows> part{};
  constexpr ColexTable() {
    std::size_t row = 0;
    for (int byte = 0; byte < 3; ++byte) {
      for (int below = 0; below <= 8 * byte; ++below, ++row) {
        for (std::size_t bits = 0; bits < 256; ++bits) {
          std::uint64_t sum = 0;
          int i = below;
          for (int t = 0; t < 8; ++t) {
            if ((bits >> t & 1U) == 0) continue;
            sum += kBinomials.c[static_cast<std::size_t>(8 * byte + t)][static_cast<std::size_t>(++i)];
          }
          part[row][bits] = static_cast<std::uint32_t>(sum);
        }
      }
    }
  }
};
inline constexpr ColexTable kColex{};

inline std::uint64_t colex_rank(std::uint32_t set) {
  const std::uint32_t b0 = set & 0xFFU;
  const std::uint32_t b1 = set >> 8 & 0xFFU;
  const std::uint32_t b2 = set >> 16 & 0xFFU;
  const auto k0 = static_cast<std::size_t>(std::popcount(b0));
  const auto k1 = k0 + static_cast<std::size_t>(std::popcount(b1));
  return std::uint64_t{kColex.part[0][b0]} + kColex.part[1 + k0][b1] + kColex.part[10 + k1][b2];
}

// The set of |set| points that follows `set` (not empty) in colex order among all points:
// the next larger number with as many bits (Gosper's hack).
inline std::uint32_t next_colex(std::uint32_t set) {
  const std::uint32_t low = set & (~set + 1);
  const std::uint32_t carried = set + low;
  return carried | (carried ^ set) >> 2 >> std::countr_zero(low);
}

// The set of |set| points of `within` that follows `set` (a subset of `within`) in colex
// order, or 0 after the last one.
inline std::uint32_t next_subset(std::uint32_t set, std::uint32_t within) {
  const std::uint32_t low = set & (~set + 1);
  if (low == 0) return 0;
  // The carry runs through the lowest run of the set's points (and the points outside
  // `within`) up to the first point of `within` that is not in the set.
  const std::uint32_t carried = ((set | ~within) + low) & within;
  if ((carried & ~set) == 0) return 0;
  // The run's other points go back to the lowest points of `within`.
  int back = std::popcount(set) - std::popcount(carried);
  std::uint32_t lowest = 0;
  for (std::uint32_t w = within; back > 0; w &= w - 1, --back) lowest |= w & (~w + 1);
  return carried | lowest;
}

class Geometry {
 public:
  // The board of a kind, built once.
  static const Geometry& of(BoardKind kind);

  [[nodiscard]] BoardKind kind() const { return kind_; }
  [[nodiscard]] std::string_view name() const { return name_; }
  [[nodiscard]] int points() const { return points_; }
  [[nodiscard]] std::uint32_t full() const { return full_; }
  [[nodiscard]] const std::string& point_name(int point) const { return names_[point]; }
  // The point named `name` ("d2"), or -1.
  [[nodiscard]] int point(std::string_view name) const;
  [[nodiscard]] int file(int point) const { return files_[point]; }
  [[nodiscard]] int rank(int point) const { return ranks_[point]; }
  [[nodiscard]] int grid() const { return grid_; }  // files and ranks of the drawing grid
  [[nodiscard]] std::uint32_t neighbours(int point) const { return neighbours_[point]; }
  [[nodiscard]] const std::vector<std::uint32_t>& mills() const { return mills_; }
  [[nodiscard]] const std::vector<std::uint32_t>& mills_at(int point) const { return mills_at_[point]; }
  [[nodiscard]] const std::vector<std::vector<int>>& lines() const { return lines_; }

  // Whether `stones` hold a mill through `point`.
  [[nodiscard]] bool in_mill(std::uint32_t stones, int point) const {
    for (const std::uint32_t mill : mills_at_[point]) {
      if ((stones & mill) == mill) return true;
    }
    return false;
  }
  // The points outside `stones` where one more stone would close a mill with them: the
  // empty point of each mill that holds all but one of its points in `stones`.
  [[nodiscard]] std::uint32_t closing(std::uint32_t stones) const {
    std::uint32_t result = 0;
    for (const std::uint32_t mill : mills_) {
      const std::uint32_t missing = mill & ~stones;
      if ((missing & (missing - 1)) == 0) result |= missing;
    }
    return result;
  }
  // closing() of two stones: the third point of a mill through both, if any (a table
  // made with the board; two points share at most one line).
  [[nodiscard]] std::uint32_t closing_pair(int a, int b) const { return closing_pair_[a][b]; }
  // The stones of `stones` that stand in a mill.
  [[nodiscard]] std::uint32_t in_mills(std::uint32_t stones) const {
    std::uint32_t result = 0;
    for (const std::uint32_t mill : mills_) {
      if ((stones & mill) == mill) result |= mill;
    }
    return result;
  }

  // The symmetry group: permutations of the points, the identity first.
  [[nodiscard]] int symmetries() const { return static_cast<int>(perms_.size()); }
  [[nodiscard]] const std::array<std::uint8_t, kMaxPoints>& permutation(int op) const { return perms_[op]; }
  [[nodiscard]] std::uint32_t apply(int op, std::uint32_t set) const {
    const auto& table = apply_[op];
    return table[0][set & 0xFFU] | table[1][(set >> 8) & 0xFFU] | table[2][(set >> 16) & 0xFFU];
  }
  // Whether a symmetry other than the identity maps `set` onto itself: one bit per set
  // of points (2 MiB on the 24-point boards), made when the board is.
  [[nodiscard]] bool symmetric(std::uint32_t set) const {
    return (symmetric_[set >> 6] >> (set & 63U) & 1U) != 0;
  }

  // The classes of `count`-stone sets under the group, numbered in increasing order of
  // their smallest member (the representative).
  struct Classes {
    std::vector<std::uint32_t> representative;  // by class
    // By class: the symmetries other than the identity that fix the representative, a
    // bit per symmetry (0 for most classes).
    std::vector<std::uint32_t> stabilizer;
    // By colex rank of a set: class << 6 | op << 1 | (stabilizer != 0), where op maps the set
    // onto its class's representative.
    std::vector<std::uint32_t> entry;
  };
  [[nodiscard]] const Classes& classes(int count) const {
    const Classes* ready = ready_[count].load(std::memory_order_acquire);
    return ready != nullptr ? *ready : build_classes(count);
  }
  // The number of classes of `count`-stone sets, by Burnside's lemma (no tables).
  [[nodiscard]] std::uint64_t class_count(int count) const { return class_counts_[count]; }
  // The number of classes of positions with w White and b Black stones (Burnside).
  [[nodiscard]] std::uint64_t position_classes(int w, int b) const;
  // The memory classes() holds once it has built the tables of every count: the most it
  // ever holds (the board's share of Morris::index_table_bytes).
  [[nodiscard]] std::uint64_t class_table_bytes() const {
    std::uint64_t entries = 0;
    for (int count = 0; count <= points_; ++count)
      entries += binomial(points_, count) + 2 * class_counts_[count];
    return entries * sizeof(std::uint32_t) + symmetric_.size() * sizeof(std::uint64_t);
  }

  Geometry(const Geometry&) = delete;
  Geometry& operator=(const Geometry&) = delete;
  ~Geometry() = default;

 private:
  Geometry(BoardKind kind, std::string_view name, const std::vector<std::string_view>& points,
           const std::vector<std::vector<std::string_view>>& lines);
  void find_symmetries();
  void find_symmetric_sets();
  const Classes& build_classes(int count) const;

  BoardKind kind_;
  std::string name_;
  int points_ = 0;
  int grid_ = 0;
  std::uint32_t full_ = 0;
  std::vector<std::string> names_;
  std::vector<int> files_;
  std::vector<int> ranks_;
  std::array<std::uint32_t, kMaxPoints> neighbours_{};
  std::vector<std::uint32_t> mills_;
  std::array<std::vector<std::uint32_t>, kMaxPoints> mills_at_{};
  std::array<std::array<std::uint32_t, kMaxPoints>, kMaxPoints> closing_pair_{};  // closing_pair()
  std::vector<std::vector<int>> lines_;
  std::vector<std::array<std::uint8_t, kMaxPoints>> perms_;
  std::vector<std::array<std::array<std::uint32_t, 256>, 3>> apply_;
  std::vector<std::uint64_t> symmetric_;  // a bit per set: symmetric()
  std::array<std::uint64_t, kMaxPoints + 1> class_counts_{};
  // Per number of stones: the cycle lengths of each symmetry, for Burnside's lemma.
  std::vector<std::vector<int>> cycles_;
  mutable std::array<std::once_flag, kMaxPoints + 1> classes_once_;
  mutable std::array<Classes, kMaxPoints + 1> classes_;
  mutable std::array<std::atomic<const Classes*>, kMaxPoints + 1> ready_{};
};

}  // namespace gs::morris
