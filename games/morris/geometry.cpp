#include "games/morris/geometry.h"

#include <algorithm>
#include <bit>
#include <functional>

#include "core/error.h"

namespace gs::morris {

namespace {

// Polynomials in one or two variables as dense coefficient arrays.
using Poly = std::vector<std::uint64_t>;

// The cycles of a permutation of the points, each as the set of its points.
std::vector<std::uint32_t> cycle_sets(const std::array<std::uint8_t, kMaxPoints>& perm, int points) {
  std::vector<std::uint32_t> cycles;
  std::uint32_t seen = 0;
  for (int p = 0; p < points; ++p) {
    if ((seen >> p & 1U) != 0) continue;
    std::uint32_t cycle = 0;
    for (int q = p; (cycle >> q & 1U) == 0; q = perm[q]) cycle |= 1U << q;
    seen |= cycle;
    cycles.push_back(cycle);
  }
  return cycles;
}

}  // namespace

Geometry::Geometry(BoardKind kind, std::string_view name, const std::vector<std::string_view>& points,
                   const std::vector<std::vector<std::string_view>>& lines)
    : kind_(kind), name_(name), points_(static_cast<int>(points.size())) {
  if (points_ > kMaxPoints) fail("internal error: board {} has {} points", name, points_);
  full_ = points_ == 32 ? ~0U : (1U << points_) - 1;
  for (const std::string_view point : points) {
    names_.emplace_back(point);
    files_.push_back(point[0] - 'a');
    ranks_.push_back(point[1] - '1');
    grid_ = std::max({grid_, files_.back() + 1, ranks_.back() + 1});
  }
  for (const auto& line : lines) {
    std::vector<int> ids;
    for (const std::string_view p : line) {
      const int id = this->point(p);
      if (id < 0) fail("internal error: board {} has no point {}", name, p);
      ids.push_back(id);
    }
    for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
      neighbours_[ids[i]] |= 1U << ids[i + 1];
      neighbours_[ids[i + 1]] |= 1U << ids[i];
    }
    for (std::size_t i = 0; i + 2 < ids.size(); ++i) {
      const std::uint32_t mill = (1U << ids[i]) | (1U << ids[i + 1]) | (1U << ids[i + 2]);
      mills_.push_back(mill);
      for (int k = 0; k < 3; ++k) mills_at_[ids[i + k]].push_back(mill);
    }
    lines_.push_back(std::move(ids));
  }
  find_symmetries();
  find_symmetric_sets();
  for (int a = 0; a < points_; ++a) {
    for (int b = 0; b < points_; ++b)
      if (a != b) closing_pair_[a][b] = closing((1U << a) | (1U << b));
  }
  for (const auto& perm : perms_) {
    std::array<std::array<std::uint32_t, 256>, 3> table{};
    for (int part = 0; part < 3; ++part) {
      for (unsigned byte = 0; byte < 256; ++byte) {
        std::uint32_t image = 0;
        for (int bit = 0; bit < 8; ++bit) {
          const int p = part * 8 + bit;
          if ((byte >> bit & 1U) != 0 && p < points_) image |= 1U << perm[p];
        }
        table[part][byte] = image;
      }
    }
    apply_.push_back(table);
    // The cycle lengths of the permutation.
    std::vector<int> lengths;
    for (const std::uint32_t cycle : cycle_sets(perm, points_)) lengths.push_back(std::popcount(cycle));
    cycles_.push_back(std::move(lengths));
  }
  // Burnside: the number of classes is the mean over the group of the sets each
  // symmetry fixes; a fixed set is a union of whole cycles.
  for (const auto& lengths : cycles_) {
    Poly poly(static_cast<std::size_t>(points_) + 1, 0);
    poly[0] = 1;
    for (const int length : lengths) {
      for (int k = points_; k >= length; --k) poly[k] += poly[k - length];
    }
    for (int k = 0; k <= points_; ++k) class_counts_[k] += poly[k];
  }
  for (auto& count : class_counts_) count /= perms_.size();
}

void Geometry::find_symmetries() {
  // Backtracking over images of points 0, 1, ...: an image must have the same number of
  // neighbours and agree on adjacency with every point placed before.
  std::array<std::uint8_t, kMaxPoints> perm{};
  std::uint32_t used = 0;
  std::function<void(int)> extend = [&](int p) {
    if (p == points_) {
      for (const std::uint32_t mill : mills_) {
        std::uint32_t image = 0;
        for (std::uint32_t m = mill; m != 0; m &= m - 1) image |= 1U << perm[std::countr_zero(m)];
        if (std::find(mills_.begin(), mills_.end(), image) == mills_.end()) return;
      }
      perms_.push_back(perm);
      return;
    }
    for (int q = 0; q < points_; ++q) {
      if ((used >> q & 1U) != 0) continue;
      if (std::popcount(neighbours_[p]) != std::popcount(neighbours_[q])) continue;
      bool fits = true;
      for (int r = 0; r < p && fits; ++r) {
        fits = ((neighbours_[p] >> r & 1U) != 0) == ((neighbours_[q] >> perm[r] & 1U) != 0);
      }
      if (!fits) continue;
      perm[p] = static_cast<std::uint8_t>(q);
      used |= 1U << q;
      extend(p + 1);
      used &= ~(1U << q);
    }
  };
  extend(0);
  // The identity comes first: it is the lexicographically smallest permutation.
  if (perms_.empty() || perms_.size() > kMaxSymmetries) {
    fail("internal error: board {} has {} symmetries", name_, perms_.size());
  }
}

void Geometry::find_symmetric_sets() {
  symmetric_.assign(((std::size_t{1} << points_) + 63) / 64, 0);
  // The sets a permutation fixes are the unions of its cycles.
  for (std::size_t op = 1; op < perms_.size(); ++op) {
    const std::vector<std::uint32_t> cycles = cycle_sets(perms_[op], points_);
    for (std::uint64_t choice = 0; choice < std::uint64_t{1} << cycles.size(); ++choice) {
      std::uint32_t set = 0;
      for (std::uint64_t c = choice; c != 0; c &= c - 1)
        set |= cycles[static_cast<std::size_t>(std::countr_zero(c))];
      symmetric_[set >> 6] |= std::uint64_t{1} << (set & 63U);
    }
  }
}

int Geometry::point(std::string_view name) const {
  for (int p = 0; p < points_; ++p) {
    if (names_[p] == name) return p;
  }
  return -1;
}

const Geometry::Classes& Geometry::build_classes(int count) const {
  std::call_once(classes_once_[count], [&] {
    Classes& result = classes_[count];
    result.entry.assign(binomial(points_, count), 0);
    result.representative.reserve(class_counts_[count]);
    result.stabilizer.reserve(class_counts_[count]);
    if (count == 0) {
      result.representative.push_back(0);
      const std::uint32_t all = symmetries() == 32 ? ~0U : (1U << symmetries()) - 1;
      result.stabilizer.push_back(all & ~1U);
      result.entry[0] = result.stabilizer[0] != 0 ? 1U : 0U;
      return;
    }
    // Sets in increasing order (Gosper's hack), which is colex order: a class's smallest
    // member comes before the others, so it is numbered when first met.
    std::uint64_t rank = 0;
    for (std::uint32_t set = (1U << count) - 1; set <= full_; ++rank) {
      std::uint32_t smallest = set;
      int to_smallest = 0;
      std::uint32_t fixers = 0;
      for (int op = 0; op < symmetries(); ++op) {
        const std::uint32_t image = apply(op, set);
        if (image < smallest) {
          smallest = image;
          to_smallest = op;
        }
        if (image == set && op != 0) fixers |= 1U << op;
      }
      std::uint32_t id = 0;
      if (smallest == set) {
        id = static_cast<std::uint32_t>(result.representative.size());
        result.representative.push_back(set);
        result.stabilizer.push_back(fixers);
      } else {
        id = result.entry[colex_rank(smallest)] >> 6;
      }
      result.entry[rank] =
          id << 6 | static_cast<std::uint32_t>(to_smallest) << 1 | (result.stabilizer[id] != 0 ? 1U : 0U);
      const std::uint32_t low = set & (~set + 1);
      const std::uint32_t ripple = set + low;
      set = (((ripple ^ set) >> 2) / low) | ripple;
    }
    if (result.representative.size() != class_counts_[count]) {
      fail("internal error: {} classes of {}-stone sets on board {}, Burnside says {}",
           result.representative.size(), count, name_, class_counts_[count]);
    }
    ready_[count].store(&result, std::memory_order_release);
  });
  return classes_[count];
}

std::uint64_t Geometry::position_classes(int w, int b) const {
  if (w < 0 || b < 0 || w + b > points_) return 0;
  std::uint64_t total = 0;
  const auto width = static_cast<std::size_t>(points_) + 1;
  for (const auto& lengths : cycles_) {
    // Coefficients of x^i y^j in the product over cycles of (1 + x^len + y^len).
    Poly poly(width * width, 0);
    poly[0] = 1;
    for (const int length : lengths) {
      Poly next = poly;
      for (int i = 0; i <= w; ++i) {
        for (int j = 0; j <= b; ++j) {
          const std::uint64_t here = poly[static_cast<std::size_t>(i) * width + static_cast<std::size_t>(j)];
          if (here == 0) continue;
          if (i + length <= w)
            next[static_cast<std::size_t>(i + length) * width + static_cast<std::size_t>(j)] += here;
          if (j + length <= b)
            next[static_cast<std::size_t>(i) * width + static_cast<std::size_t>(j + length)] += here;
        }
      }
      poly = std::move(next);
    }
    total += poly[static_cast<std::size_t>(w) * width + static_cast<std::size_t>(b)];
  }
  return total / perms_.size();
}

const Geometry& Geometry::of(BoardKind kind) {
  // Three concentric squares, midpoints joined.
  static const std::vector<std::vector<std::string_view>> nine_lines = {
      {"a1", "d1", "g1"}, {"b2", "d2", "f2"}, {"c3", "d3", "e3"}, {"a4", "b4", "c4"},
      {"e4", "f4", "g4"}, {"c5", "d5", "e5"}, {"b6", "d6", "f6"}, {"a7", "d7", "g7"},
      {"a1", "a4", "a7"}, {"b2", "b4", "b6"}, {"c3", "c4", "c5"}, {"d1", "d2", "d3"},
      {"d5", "d6", "d7"}, {"e3", "e4", "e5"}, {"f2", "f4", "f6"}, {"g1", "g4", "g7"}};
  static const std::vector<std::string_view> nine_points = {"a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3",
                                                            "e3", "a4", "b4", "c4", "e4", "f4", "g4", "c5",
                                                            "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7"};
  static const std::vector<std::string_view> small_points = {"a1", "c1", "e1", "b2", "c2", "d2", "a3", "b3",
                                                             "d3", "e3", "b4", "c4", "d4", "a5", "c5", "e5"};
  static const std::vector<std::vector<std::string_view>> small_sides = {
      {"a1", "c1", "e1"}, {"b2", "c2", "d2"}, {"b4", "c4", "d4"}, {"a5", "c5", "e5"},
      {"a1", "a3", "a5"}, {"b2", "b3", "b4"}, {"d2", "d3", "d4"}, {"e1", "e3", "e5"}};
  switch (kind) {
    case BoardKind::kNine: {
      static const Geometry board(kind, "nine", nine_points, nine_lines);
      return board;
    }
    case BoardKind::kMorabaraba: {
      static const Geometry board = [] {
        auto lines = nine_lines;
        lines.push_back({"a1", "b2", "c3"});
        lines.push_back({"g1", "f2", "e3"});
        lines.push_back({"a7", "b6", "c5"});
        lines.push_back({"g7", "f6", "e5"});
        return Geometry(BoardKind::kMorabaraba, "morabaraba", nine_points, lines);
      }();
      return board;
    }
    case BoardKind::kSix: {
      static const Geometry board = [] {
        auto lines = small_sides;
        lines.push_back({"c1", "c2"});
        lines.push_back({"c4", "c5"});
        lines.push_back({"a3", "b3"});
        lines.push_back({"d3", "e3"});
        return Geometry(BoardKind::kSix, "six", small_points, lines);
      }();
      return board;
    }
    case BoardKind::kSeven: {
      static const Geometry board = [] {
        auto points = small_points;
        points.insert(points.begin() + 8, "c3");
        auto lines = small_sides;
        lines.push_back({"a3", "b3", "c3", "d3", "e3"});
        lines.push_back({"c1", "c2", "c3", "c4", "c5"});
        return Geometry(BoardKind::kSeven, "seven", points, lines);
      }();
      return board;
    }
  }
  fail("internal error: unknown board");
}

}  // namespace gs::morris
