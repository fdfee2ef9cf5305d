#pragma once
// Alpha-beta's transposition table: proven bounds on the value of positions.
//
//   bucket (64 bytes) = 4 entries of 16 bytes:
//   +----------------+--------+--------+--------+-------+-------+
//   | key (64 bits)  | lower  | upper  | best   | draft | age   |
//   |                | int16  | int16  | uint16 | uint8 | uint8 |
//   +----------------+--------+--------+--------+-------+-------+
//
// Bounds are scores of the side to move (search/score.h) proven by a search that did
// not depend on the line it came from (docs/SEARCH.md), so they hold wherever the
// position is met: a new bound for a key narrows the old one. `best` tags the child a
// search found best (the top bits of its key, so that a symmetric copy of the position
// finds the corresponding move); `draft` is the depth of that search, the measure of its
// work: a full bucket gives up its entry of least draft, older generations first.
#include <algorithm>
#include <cstdint>

#include "search/buckets.h"
#include "search/score.h"

namespace gs::search {

class BoundTable {
 public:
  struct Entry {
    std::uint64_t key = 0;  // 0: empty
    std::int16_t lower = -kMate;
    std::int16_t upper = kMate;
    std::uint16_t best = 0;  // 0: none
    std::uint8_t draft = 0;
    std::uint8_t age = 0;
    [[nodiscard]] Bounds bounds() const { return {lower, upper}; }
  };
  static_assert(sizeof(Entry) == 16);

  explicit BoundTable(std::uint64_t bytes) : buckets_(bytes) {}

  // Starts loading the bucket find(key) reads.
  void prefetch(std::uint64_t key) const { buckets_.prefetch(key); }

  [[nodiscard]] const Entry* find(std::uint64_t key) const {
    return buckets_.find(key, [key](const Entry& entry) { return entry.key == key; });
  }

  // Adds proven bounds (and the best child's tag, if any) for a key.
  void store(std::uint64_t key, const Bounds& bounds, std::uint16_t best, int draft) {
    if (Entry* slot = buckets_.find(key, [key](const Entry& entry) { return entry.key == key; })) {
      const Bounds merged = slot->bounds().intersect(bounds);
      slot->lower = static_cast<std::int16_t>(merged.lower);
      slot->upper = static_cast<std::int16_t>(std::max(merged.lower, merged.upper));
      if (best != 0) slot->best = best;
      slot->draft = static_cast<std::uint8_t>(std::clamp(std::max<int>(draft, slot->draft), 0, 255));
      slot->age = age_;
      return;
    }
    Entry* slot = buckets_.replace(key, [this](const Entry& entry) { return worth(entry); });
    *slot = {key,
             static_cast<std::int16_t>(bounds.lower),
             static_cast<std::int16_t>(bounds.upper),
             best,
             static_cast<std::uint8_t>(std::clamp(draft, 0, 255)),
             age_};
  }

  // A new generation (a new search): entries of older ones are replaced first.
  void next_generation() { ++age_; }

  [[nodiscard]] std::uint64_t used() const { return buckets_.used(); }
  [[nodiscard]] std::uint64_t capacity() const { return buckets_.capacity(); }
  [[nodiscard]] std::uint64_t bytes() const { return buckets_.bytes(); }

 private:
  [[nodiscard]] int worth(const Entry& entry) const {
    const int current = entry.age == age_ ? 256 : 0;
    return current + entry.draft;
  }

  Buckets<Entry> buckets_;
  std::uint8_t age_ = 0;
};

}  // namespace gs::search
