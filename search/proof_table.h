#pragma once
// The table of proof-number search (df-pn's, and PNS's table of solved positions).
//
//   bucket (128 bytes) = 4 entries of 32 bytes:
//   +--------------+---------------+--------+----------+--------+------------+--------+
//   | key (64)     | line (64)     | proof  | disproof | work   | dependency | best   |
//   | position and | 0, or the     | uint32 | uint32   | uint32 | uint16     | uint16 |
//   | question     | line's hash   |        |          |        |            |        |
//   +--------------+---------------+--------+----------+--------+------------+--------+
//
// An entry holds the proof and disproof numbers of one position for one question
// (search/score.h: the key mixes the threshold in). Entries with line 0 hold what is
// true wherever the position is met: numbers of unsolved positions (estimates, which
// only guide the search) and results that depend on no line. A result that depends on
// the line it was found on (docs/SEARCH.md) is kept apart, under the hash of that line
// in `line`, with the ply of the earliest position of the line it relied on in
// `dependency`; it is found again only from the same line.
//
// Every entry of a position (both binary questions, and the results kept for lines) lies
// in one bucket, chosen by the low bits of the position's key: a look-up of a child
// reads one bucket, and prefetching it is one random access rather than three.
//
// Replacement by work (Nagai's df-pn, Kishimoto's later tables): `work` counts the nodes
// searched below the entry; a full bucket gives up its entry of least work. When the
// table fills past 90%, a garbage collection empties the entries of least work, about
// half of them, so that the expensive results survive a long search.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

#include "search/buckets.h"
#include "search/key.h"
#include "search/report.h"

namespace gs::search {

class ProofTable {
 public:
  struct Entry {
    std::uint64_t key = 0;  // 0: empty
    std::uint64_t line = 0;
    std::uint32_t proof = 1;
    std::uint32_t disproof = 1;
    std::uint32_t work = 0;
    std::uint16_t dependency = 0;
    std::uint16_t best = 0;  // the tag of the best child (search/key.h), 0: none
    [[nodiscard]] bool solved() const { return proof == 0 || disproof == 0; }
  };
  static_assert(sizeof(Entry) == 32);

  // Whether an entry is the one of a key and a line.
  struct Same {
    std::uint64_t key;
    std::uint64_t line;
    bool operator()(const Entry& entry) const { return entry.key == key && entry.line == line; }
  };

  explicit ProofTable(std::uint64_t bytes) : buckets_(bytes) {}

  // The key of a position's entry for the question "value >= threshold?": the
  // position's key with only its high half changed by the threshold (its bucket is the
  // position's, above).
  static std::uint64_t question_key(std::uint64_t position_key, Score threshold) {
    const std::uint64_t k =
        position_key ^ (mix(static_cast<std::uint64_t>(threshold + kMate + 1)) & 0xFFFFFFFF00000000ULL);
    return k == 0 ? 1 : k;
  }

  [[nodiscard]] const Entry* find(std::uint64_t key, std::uint64_t line) const {
    return buckets_.find(key, Same{key, line});
  }

  // Starts loading the bucket find(key, line) reads, for any line.
  void prefetch(std::uint64_t key) const { buckets_.prefetch(key); }

  void store(const Entry& entry) {
    const std::uint64_t at = entry.key;  // the bucket, whatever the line
    Entry* slot = buckets_.find(at, Same{entry.key, entry.line});
    if (slot == nullptr) slot = buckets_.replace(at, [](const Entry& candidate) { return candidate.work; });
    *slot = entry;
    if (used() * 10 >= capacity() * 9) collect();
  }

  // Empties the entries of least work: those whose work has at most as many bits as the
  // median entry's.
  void collect() {
    std::array<std::uint64_t, 34> by_bits{};
    const std::uint64_t n = capacity();
    for (std::uint64_t i = 0; i < n; ++i) {
      const Entry& entry = buckets_.at(i);
      if (entry.key != 0) ++by_bits[std::bit_width(entry.work)];
    }
    std::uint64_t seen = 0;
    std::size_t limit = 0;
    while (limit + 1 < by_bits.size() && (seen += by_bits[limit]) < used() / 2) ++limit;
    for (std::uint64_t i = 0; i < n; ++i) {
      Entry& entry = buckets_.at(i);
      if (entry.key != 0 && std::bit_width(entry.work) <= limit) buckets_.erase(entry);
    }
    ++collections_;
  }

  [[nodiscard]] std::uint64_t used() const { return buckets_.used(); }
  [[nodiscard]] std::uint64_t capacity() const { return buckets_.capacity(); }
  [[nodiscard]] std::uint64_t bytes() const { return buckets_.bytes(); }
  [[nodiscard]] std::uint64_t collections() const { return collections_; }

 private:
  Buckets<Entry> buckets_;
  std::uint64_t collections_ = 0;
};

}  // namespace gs::search
