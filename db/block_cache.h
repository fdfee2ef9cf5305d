#pragma once
// The caches of the Prober (db/prober.h):
//
// BlockCache: decompressed block images under a byte budget, least recently used out
// first. It is split into shards by key, each with its own lock, list and share of the
// budget, so that threads probing different blocks rarely wait for each other; LRU
// order is exact within a shard. A hit reads the value it needs under the shard's lock
// (no reference counting, nothing to release); a miss decompresses outside the lock.
//
// PositionCache: the codes of recently probed indices, direct-mapped, lock-free: each
// slot is a tiny sequence lock (Lamport), so a reader that races a writer sees a miss,
// never a torn entry.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/value.h"

namespace gs::db {

struct CacheStats {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t evictions = 0;
  std::uint64_t uncached = 0;  // blocks too large for a shard's budget: read, not kept
  std::uint64_t blocks = 0;    // held now
  std::uint64_t bytes = 0;     // held now, bookkeeping included
  std::uint64_t budget = 0;
};

class BlockCache {
 public:
  // What one cached block costs beyond its image: the entry and its map node.
  static constexpr std::uint64_t kEntryOverhead = 96;

  // shards 0: as many as keep a shard's budget at 1 MiB or more, up to 64.
  explicit BlockCache(std::uint64_t budget_bytes, unsigned shards = 0);
  ~BlockCache();
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // Returns use(image) for the block of `key`, after load(image) on a miss (load fills
  // a std::vector<std::uint8_t>& and may throw: nothing is cached then). use runs under
  // the shard's lock and must be short.
  //
  // slot, if not null, is the caller's own pointer for this key (say, one per block of a
  // file), which the cache sets to the block's entry while it holds it, so that a hit
  // needs no hash look-up. It is only read and written under the key's shard lock: a
  // slot must belong to one key only and start null.
  template <class Load, class Use>
  auto with(std::uint64_t key, void** slot, Load&& load, Use&& use) {
    Shard& shard = shard_of(key);
    {
      const std::lock_guard lock(shard.mutex);
      if (Entry* entry = find(shard, key, slot)) {
        ++shard.hits;
        shard.touch(entry);
        return use(entry->image.data());
      }
      ++shard.misses;
    }
    std::vector<std::uint8_t> image;
    load(image);
    const std::lock_guard lock(shard.mutex);
    if (Entry* entry = find(shard, key, slot)) {  // another thread loaded it meanwhile
      shard.touch(entry);
      return use(entry->image.data());
    }
    const std::uint64_t cost = image.capacity() + kEntryOverhead;
    if (cost > shard_budget_) {
      ++shard.uncached;
      return use(image.data());
    }
    auto* entry = new Entry{key, std::move(image), slot};
    if (slot != nullptr) {
      *slot = entry;
    } else {
      shard.map.emplace(key, entry);
    }
    shard.link_front(entry);
    shard.bytes += cost;
    while (shard.bytes > shard_budget_) evict_last(shard);
    return use(entry->image.data());
  }
  template <class Load, class Use>
  auto with(std::uint64_t key, Load&& load, Use&& use) {
    return with(key, nullptr, std::forward<Load>(load), std::forward<Use>(use));
  }

  [[nodiscard]] CacheStats stats() const;
  void clear();
  [[nodiscard]] std::uint64_t budget() const { return budget_; }

 private:
  // An entry of a shard's LRU list (intrusive, most recent first).
  struct Entry {
    std::uint64_t key;
    std::vector<std::uint8_t> image;
    void** slot;  // the caller's slot pointing here, or null: then the map has the key
    Entry* previous = nullptr;
    Entry* next = nullptr;
  };
  struct alignas(64) Shard {
    std::mutex mutex;
    Entry* first = nullptr;
    Entry* last = nullptr;
    std::unordered_map<std::uint64_t, Entry*> map;
    std::uint64_t entries = 0;
    std::uint64_t bytes = 0;
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t evictions = 0;
    std::uint64_t uncached = 0;

    void unlink(Entry* entry) {
      (entry->previous != nullptr ? entry->previous->next : first) = entry->next;
      (entry->next != nullptr ? entry->next->previous : last) = entry->previous;
      --entries;
    }
    void link_front(Entry* entry) {
      entry->previous = nullptr;
      entry->next = first;
      (first != nullptr ? first->previous : last) = entry;
      first = entry;
      ++entries;
    }
    void touch(Entry* entry) {
      if (entry == first) return;
      unlink(entry);
      link_front(entry);
    }
  };

  static Entry* find(Shard& shard, std::uint64_t key, void** slot) {
    if (slot != nullptr) return static_cast<Entry*>(*slot);
    const auto it = shard.map.find(key);
    return it == shard.map.end() ? nullptr : it->second;
  }
  void evict_last(Shard& shard);

  Shard& shard_of(std::uint64_t key) {
    key ^= key >> 33;  // a multiplicative mix (MurmurHash3's finalizer)
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return shards_[key & (shard_count_ - 1)];
  }

  std::uint64_t budget_;
  std::uint64_t shard_count_;
  std::uint64_t shard_budget_;
  std::unique_ptr<Shard[]> shards_;
};

class PositionCache {
 public:
  // entries is rounded down to a power of two; 0 turns the cache off.
  explicit PositionCache(std::size_t entries);

  // The sequence lock without fences (Boehm, "Can seqlocks get along with programming
  // language memory models?", 2012): the writer stores the entry with release after
  // making the sequence odd, the reader loads it with acquire, so a reader that sees any
  // of a write's stores also sees the sequence it changed, and retries (here: misses).
  [[nodiscard]] std::optional<ValueCode> find(std::uint64_t key) const {
    if (mask_ == kOff) return std::nullopt;
    const Slot& slot = slots_[mix(key) & mask_];
    const std::uint32_t before = slot.sequence.load(std::memory_order_acquire);
    if ((before & 1) != 0) return std::nullopt;
    const std::uint64_t stored = slot.key.load(std::memory_order_acquire);
    const ValueCode code = slot.code.load(std::memory_order_acquire);
    if (slot.sequence.load(std::memory_order_relaxed) != before || stored != key) return std::nullopt;
    return code;
  }

  void store(std::uint64_t key, ValueCode code) {
    if (mask_ == kOff) return;
    Slot& slot = slots_[mix(key) & mask_];
    std::uint32_t sequence = slot.sequence.load(std::memory_order_relaxed);
    // A slot another thread is writing is left to it.
    if ((sequence & 1) != 0 ||
        !slot.sequence.compare_exchange_strong(sequence, sequence + 1, std::memory_order_acq_rel)) {
      return;
    }
    slot.key.store(key, std::memory_order_release);
    slot.code.store(code, std::memory_order_release);
    slot.sequence.store(sequence + 2, std::memory_order_release);
  }

  [[nodiscard]] std::size_t entries() const { return mask_ == kOff ? 0 : mask_ + 1; }

 private:
  static constexpr std::uint64_t kOff = ~std::uint64_t{0};
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  struct Slot {
    std::atomic<std::uint32_t> sequence{0};  // odd while being written
    std::atomic<ValueCode> code{0};
    std::atomic<std::uint64_t> key{kEmpty};
  };
  static std::uint64_t mix(std::uint64_t key) {
    key ^= key >> 31;
    key *= 0x9e3779b97f4a7c15ULL;
    return key ^ (key >> 29);
  }

  std::uint64_t mask_ = kOff;
  std::unique_ptr<Slot[]> slots_;
};

}  // namespace gs::db
