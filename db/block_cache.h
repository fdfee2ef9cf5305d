#pragma once
// The caches of the Prober (db/prober.h):
//
// BlockCache: decompressed block images under a byte budget. It is split into shards by
// key, each with its own lock, entries and share of the budget; a shard replaces by CLOCK
// (second chance: Corbató, "A paging experiment with the Multics system", 1968), an
// approximation of LRU whose hits write nothing but a flag, and that only when it is
// clear. A hit through the caller's slot (one per block: see with()) takes no lock and
// writes no line that other threads share: it pins the epoch (db/epoch.h), loads the
// slot, reads the image, and counts the hit in its own thread's counter. Misses decompress
// outside the lock and insert under it; evicted entries are unlinked from their slot
// under the lock and freed once no pinned reader can still hold them.
//
//   slot ──> Entry { image, referenced } ──> next ──> ... ──> (ring of the shard)
//                                             ^ hand: clears referenced, evicts the first clear
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
#include "db/epoch.h"

namespace gs::db {

struct CacheStats {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t evictions = 0;
  std::uint64_t uncached = 0;  // blocks read but not kept: too large for a shard's budget
  std::uint64_t blocks = 0;    // held now
  std::uint64_t bytes = 0;     // held now, bookkeeping and evicted blocks not yet freed included
  std::uint64_t budget = 0;
};

class BlockCache {
  struct Entry;

 public:
  // What one cached block costs beyond its image: the entry and its map node.
  static constexpr std::uint64_t kEntryOverhead = 96;
  // The caller's pointer to the entry of one key (see with()); starts null.
  using Slot = std::atomic<Entry*>;

  // shards 0: as many as keep a shard's budget at 1 MiB or more, up to 64.
  explicit BlockCache(std::uint64_t budget_bytes, unsigned shards = 0);
  ~BlockCache();
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // Returns use(image) for the block of `key`, after load(image) on a miss (load fills
  // a std::vector<std::uint8_t>& and may throw: nothing is cached then). use must be
  // short: it runs while the entry is pinned, or under the shard's lock.
  //
  // slot, if not null, is the caller's own pointer for this key (say, one per block of a
  // file), which the cache sets to the block's entry while it holds it, so that a hit
  // needs no hash look-up and no lock. A slot must belong to one key only, start null,
  // and outlive the entry (clear() lets every entry go).
  template <class Load, class Use>
  auto with(std::uint64_t key, Slot* slot, Load&& load, Use&& use) {
    if (slot != nullptr) {
      const epoch::Pin pin;
      if (Entry* entry = slot->load(std::memory_order_seq_cst)) {  // see db/epoch.h
        entry->reference();
        count_hit(pin.thread_id());
        return use(entry->image.data());
      }
    }
    Shard& shard = shard_of(key);
    {
      const std::lock_guard lock(shard.mutex);
      if (slot == nullptr) {
        if (Entry* entry = find(shard, key)) {
          ++shard.hits;
          entry->reference();
          return use(entry->image.data());
        }
      }
      ++shard.misses;
    }
    std::vector<std::uint8_t> image;
    load(image);
    const std::lock_guard lock(shard.mutex);
    // Another thread may have loaded it meanwhile; under the lock, nothing frees it.
    if (Entry* entry = slot != nullptr ? slot->load(std::memory_order_relaxed) : find(shard, key)) {
      entry->reference();
      return use(entry->image.data());
    }
    const std::uint64_t cost = image.capacity() + kEntryOverhead;
    if (!make_room(shard, cost)) {
      ++shard.uncached;
      return use(image.data());
    }
    auto* entry = new Entry{key, std::move(image), slot};
    if (slot != nullptr) {
      slot->store(entry, std::memory_order_release);
    } else {
      shard.map.emplace(key, entry);
    }
    shard.link(entry);
    shard.bytes += cost;
    return use(entry->image.data());
  }
  template <class Load, class Use>
  auto with(std::uint64_t key, Load&& load, Use&& use) {
    return with(key, nullptr, std::forward<Load>(load), std::forward<Use>(use));
  }

  [[nodiscard]] CacheStats stats() const;
  // Lets every block go (safe while other threads use the cache).
  void clear();
  [[nodiscard]] std::uint64_t budget() const { return budget_; }

 private:
  // An entry of a shard's ring (intrusive, doubly linked: the newest just behind the hand).
  struct Entry {
    std::uint64_t key;
    std::vector<std::uint8_t> image;
    Slot* slot;  // the caller's slot pointing here, or null: then the map has the key
    std::atomic<bool> referenced{false};  // hit since the hand last passed
    Entry* previous = nullptr;
    Entry* next = nullptr;
    std::uint64_t retired = 0;  // the epoch it was evicted in

    // A hit: the flag is written only when clear, so that warm hits write nothing.
    void reference() {
      if (!referenced.load(std::memory_order_relaxed)) referenced.store(true, std::memory_order_relaxed);
    }
  };
  struct alignas(64) Shard {
    std::mutex mutex;
    Entry* hand = nullptr;  // the next entry the clock looks at; null when the ring is empty
    std::unordered_map<std::uint64_t, Entry*> map;
    std::vector<Entry*> retired;  // evicted, freed once no pinned reader can hold them
    std::uint64_t entries = 0;
    std::uint64_t bytes = 0;  // entries and retired ones
    std::uint64_t hits = 0;   // through the map (the slots count per thread)
    std::uint64_t misses = 0;
    std::uint64_t evictions = 0;
    std::uint64_t uncached = 0;

    void link(Entry* entry) {
      if (hand == nullptr) {
        entry->previous = entry->next = entry;
        hand = entry;
      } else {
        entry->next = hand;
        entry->previous = hand->previous;
        hand->previous->next = entry;
        hand->previous = entry;
      }
      ++entries;
    }
    void unlink(Entry* entry) {
      if (entry->next == entry) {
        hand = nullptr;
      } else {
        entry->previous->next = entry->next;
        entry->next->previous = entry->previous;
        if (hand == entry) hand = entry->next;
      }
      --entries;
    }
  };
  // Hits through slots, one counter per thread (by epoch::Record::id, the last shared by
  // the threads beyond), each in its own cache line.
  static constexpr unsigned kHitCounters = 64;
  struct alignas(64) HitCounter {
    std::atomic<std::uint64_t> hits{0};
  };

  void count_hit(unsigned thread) {
    if (thread < kHitCounters - 1) {
      std::atomic<std::uint64_t>& hits = hit_counters_[thread].hits;  // this thread's alone
      hits.store(hits.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    } else {
      hit_counters_[kHitCounters - 1].hits.fetch_add(1, std::memory_order_relaxed);
    }
  }

  static Entry* find(Shard& shard, std::uint64_t key) {
    const auto it = shard.map.find(key);
    return it == shard.map.end() ? nullptr : it->second;
  }
  // Evicts (and frees what it can) until `cost` more bytes fit the shard's budget; false
  // if they cannot, now.
  bool make_room(Shard& shard, std::uint64_t cost);
  void evict_one(Shard& shard);
  static void free_retired(Shard& shard, bool all);

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
  std::unique_ptr<HitCounter[]> hit_counters_;
};

class PositionCache {
 public:
  // entries is rounded down to a power of two; 0 turns the cache off.
  explicit PositionCache(std::size_t entries);
  // The memory a cache of `entries` entries holds.
  static std::uint64_t bytes_for(std::size_t entries);

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
