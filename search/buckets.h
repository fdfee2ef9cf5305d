#pragma once
// The storage both search tables share (search/bound_table.h, search/proof_table.h): a
// power of two of buckets of kWays entries each, in zero-filled memory (search/zeroed.h),
// an entry whose `key` is 0 being empty.
//
//   bucket = kWays entries, found by the low bits of a hash:
//   +---------+---------+-----+-------------------+
//   | entry 0 | entry 1 | ... | entry kWays - 1   |
//   +---------+---------+-----+-------------------+
//
// A new entry takes the bucket's slot that already holds its identity, else an empty
// slot, else the slot whose entry is worth least (each table says what an entry is worth:
// the depth searched below it, or the work).
#include <cstdint>

#include "search/zeroed.h"

namespace gs::search {

template <class Entry, std::size_t Ways = 4>
class Buckets {
 public:
  static constexpr std::size_t kWays = Ways;

  // The largest power of two of buckets that fits in `bytes` (at least one bucket).
  explicit Buckets(std::uint64_t bytes) {
    std::uint64_t buckets = 1;
    while (buckets * 2 * kWays * sizeof(Entry) <= bytes) buckets *= 2;
    mask_ = buckets - 1;
    entries_ = zeroed<Entry>(buckets * kWays);
  }

  [[nodiscard]] Entry* bucket(std::uint64_t hash) const { return &entries_[(hash & mask_) * kWays]; }

  // Starts loading a bucket's cache lines.
  void prefetch(std::uint64_t hash) const {
    const auto* bytes = static_cast<const char*>(static_cast<const void*>(bucket(hash)));
    for (std::size_t at = 0; at < kWays * sizeof(Entry); at += 64) __builtin_prefetch(bytes + at);
  }

  // The entry of the bucket for which same(entry) holds, or nullptr.
  template <class Same>
  [[nodiscard]] Entry* find(std::uint64_t hash, Same same) const {
    Entry* entries = bucket(hash);
    for (std::size_t way = 0; way < kWays; ++way) {
      if (entries[way].key != 0 && same(entries[way])) return &entries[way];
    }
    return nullptr;
  }

  // The slot a new entry of the bucket takes where find() found none: an empty one
  // (counted as used from now on), else the one of least worth(entry).
  template <class Worth>
  Entry* replace(std::uint64_t hash, Worth worth) {
    Entry* entries = bucket(hash);
    Entry* slot = nullptr;
    for (std::size_t way = 0; way < kWays; ++way) {
      Entry& candidate = entries[way];
      if (candidate.key == 0) {
        ++used_;
        return &candidate;
      }
      if (slot == nullptr || worth(candidate) < worth(*slot)) slot = &candidate;
    }
    return slot;
  }

  // Empties an entry in use.
  void erase(Entry& entry) {
    entry = Entry{};
    --used_;
  }

  [[nodiscard]] Entry& at(std::uint64_t i) const { return entries_[i]; }
  [[nodiscard]] std::uint64_t used() const { return used_; }
  [[nodiscard]] std::uint64_t capacity() const { return (mask_ + 1) * kWays; }
  [[nodiscard]] std::uint64_t bytes() const { return capacity() * sizeof(Entry); }

 private:
  std::uint64_t mask_ = 0;
  Zeroed<Entry> entries_;
  std::uint64_t used_ = 0;
};

}  // namespace gs::search
