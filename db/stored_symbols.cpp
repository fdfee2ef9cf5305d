#include "db/stored_symbols.h"

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "core/parallel.h"
#include "db/block_codec.h"

namespace gs::db {

StoredSymbols::StoredSymbols(Tier tier, std::span<const ValueCode> codes, const WriteOptions& options,
                             int threads)
    : codes_(codes),
      win_draw_loss_(options.encoding == Encoding::kWinDrawLoss),
      fill_holes_(options.fill_holes) {
  const std::uint64_t positions = codes.size();
  if (options.derivable) {
    derivable_.assign((positions + 63) / 64, 0);
    std::atomic<std::uint64_t> count{0};
    // Chunks of whole words: each word is written by one thread.
    parallel_for(0, derivable_.size(), threads, 256, [&](std::uint64_t begin, std::uint64_t end, int) {
      std::uint64_t found = 0;
      for (std::uint64_t w = begin; w < end; ++w) {
        std::uint64_t bits = 0;
        for (std::uint64_t i = w * 64; i < std::min(positions, (w + 1) * 64); ++i) {
          if (codes[i] != kHoleCode && options.derivable(tier, i)) {
            bits |= std::uint64_t{1} << (i % 64);
            ++found;
          }
        }
        derivable_[w] = bits;
      }
      count.fetch_add(found, std::memory_order_relaxed);
    });
    derivable_count_ = count.load();
    if (derivable_count_ == 0) std::vector<std::uint64_t>().swap(derivable_);
  }
  // Each stretch's last symbol that is not a don't-care (-1: none), then handed on.
  const std::uint64_t stretches = (positions + kStretch - 1) / kStretch;
  std::vector<std::int32_t> last(stretches, -1);
  parallel_for(0, stretches, threads, 16, [&](std::uint64_t begin, std::uint64_t end, int) {
    for (std::uint64_t s = begin; s < end; ++s) {
      for (std::uint64_t i = std::min(positions, (s + 1) * kStretch); i > s * kStretch; --i) {
        if (!dont_care(i - 1)) {
          last[s] = symbol(i - 1);
          break;
        }
      }
    }
  });
  ValueCode first = kHoleCode;
  for (std::uint64_t i = 0; i < positions; ++i) {
    if (!dont_care(i)) {
      first = symbol(i);
      break;
    }
  }
  handed_on_.assign(stretches + 1, first);
  for (std::uint64_t s = 0; s < stretches; ++s)
    handed_on_[s + 1] = last[s] >= 0 ? static_cast<ValueCode>(last[s]) : handed_on_[s];
}

ValueCode StoredSymbols::symbol(std::uint64_t i) const {
  return win_draw_loss_ ? win_draw_loss(codes_[i]) : codes_[i];
}

ValueCode StoredSymbols::before(std::uint64_t first) const {
  const std::uint64_t stretch = first / kStretch;
  for (std::uint64_t i = first; i > stretch * kStretch; --i) {
    if (!dont_care(i - 1)) return symbol(i - 1);
  }
  return handed_on_[stretch];
}

void StoredSymbols::fill(std::uint64_t first, std::uint64_t last, std::vector<ValueCode>& out) const {
  out.resize(last - first);
  ValueCode previous = before(first);
  for (std::uint64_t i = first; i < last; ++i) {
    if (!dont_care(i)) previous = symbol(i);
    out[i - first] = previous;
  }
}

}  // namespace gs::db
