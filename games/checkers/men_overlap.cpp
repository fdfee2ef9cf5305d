#include "games/checkers/men_overlap.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

#include "core/error.h"
#include "games/checkers/checkers.h"

namespace gs::checkers {

namespace {

// By White's men (1-12) and rank (1-7: where the regions overlap, Lw >= 2).
constexpr std::size_t kTables = std::size_t{OverlapSums::kMaxMen} * 7;

std::atomic<std::uint64_t> built_bytes{0};

}  // namespace

OverlapSums::OverlapSums(int white_men, int rank) {
  // Squares of R_L are Black's 32 - 4L and up: below m lie max(0, m - (32 - 4L)) of them.
  for (int k = 0; k <= kMaxMen; ++k) {
    for (int m = 0; m <= kSquareLimit; ++m) {
      const int in_region = std::max(0, m - (32 - 4 * rank));
      for (int s = 0; s <= kMaxMen; ++s) {
        Index sum = 0;
        for (int i = 0; i <= std::min(k, in_region); ++i)
          sum +=
              binomial(in_region, i) * binomial(m - in_region, k - i) * binomial(4 * rank - s - i, white_men);
        sums_[(static_cast<std::size_t>(k) * (kSquareLimit + 1) + static_cast<std::size_t>(m)) *
                  (kMaxMen + 1) +
              static_cast<std::size_t>(s)] = sum;
      }
    }
  }
}

const OverlapSums& OverlapSums::of(int white_men, int rank) {
  if (white_men < 1 || white_men > kMaxMen || rank < 1 || rank > 7)
    fail("checkers: no men index table for {} men on ranks 1-{}", white_men, rank);
  static std::array<std::atomic<const OverlapSums*>, kTables> tables{};
  static std::array<std::unique_ptr<const OverlapSums>, kTables> owned;
  static std::mutex mutex;
  const std::size_t key = static_cast<std::size_t>(white_men - 1) * 7 + static_cast<std::size_t>(rank - 1);
  if (const OverlapSums* table = tables[key].load(std::memory_order_acquire)) return *table;
  const std::lock_guard lock(mutex);
  if (const OverlapSums* table = tables[key].load(std::memory_order_relaxed)) return *table;
  owned[key].reset(new OverlapSums(white_men, rank));
  built_bytes += sizeof(OverlapSums);
  tables[key].store(owned[key].get(), std::memory_order_release);
  return *owned[key];
}

std::uint64_t OverlapSums::bytes_held() { return built_bytes.load(); }

std::uint64_t OverlapSums::most_bytes() { return kTables * sizeof(OverlapSums); }

}  // namespace gs::checkers
