#pragma once
// The symbols a tier file stores for a tier's values, made a range at a time: each value
// as the file's encoding keeps it, and don't-cares (holes where the options fill them,
// and the positions the game derives from their moves) given the symbol before them in
// index order (the first symbol for those at the start), which only lengthens runs: no
// probe by position reads a hole, and a derivable position is answered from its moves.
//
// A range's symbols depend on what lies before it: the symbol each stretch of the tier
// hands on is found once, when the object is made, so that any range can then be made
// on its own (in parallel, in any order) without a copy of the whole tier's symbols.
// Used by db::write_tier and dictionary_samples (db/block_file.cpp).
#include <cstdint>
#include <span>
#include <vector>

#include "core/value.h"
#include "db/tier_file.h"

namespace gs::db {

class StoredSymbols {
 public:
  // `codes` must outlive the object. Calls options.derivable (if any) once per position
  // that is not a hole, on `threads` threads.
  StoredSymbols(Tier tier, std::span<const ValueCode> codes, const WriteOptions& options, int threads);

  [[nodiscard]] std::uint64_t size() const { return codes_.size(); }
  // How many positions are derivable don't-cares.
  [[nodiscard]] std::uint64_t derivable_count() const { return derivable_count_; }
  // The stored symbols of positions [first, last), into `out` (resized to fit).
  void fill(std::uint64_t first, std::uint64_t last, std::vector<ValueCode>& out) const;

 private:
  // Positions per stretch whose handed-on symbol is kept.
  static constexpr std::uint64_t kStretch = std::uint64_t{1} << 12;

  [[nodiscard]] bool dont_care(std::uint64_t i) const {
    return (fill_holes_ && codes_[i] == kHoleCode) ||
           (derivable_count_ > 0 && ((derivable_[i / 64] >> (i % 64)) & 1U) != 0);
  }
  [[nodiscard]] ValueCode symbol(std::uint64_t i) const;
  // The symbol a don't-care at `first` would take.
  [[nodiscard]] ValueCode before(std::uint64_t first) const;

  std::span<const ValueCode> codes_;
  bool win_draw_loss_ = false;
  bool fill_holes_ = true;
  std::vector<std::uint64_t> derivable_;  // a bit per position
  std::uint64_t derivable_count_ = 0;
  // Per stretch: the symbol of the last position before it that is not a don't-care, or
  // the tier's first such symbol (kHoleCode when there is none).
  std::vector<ValueCode> handed_on_;
};

}  // namespace gs::db
