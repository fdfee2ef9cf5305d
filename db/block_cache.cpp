#include "db/block_cache.h"

#include <bit>

namespace gs::db {

BlockCache::BlockCache(std::uint64_t budget_bytes, unsigned shards) : budget_(budget_bytes) {
  if (shards == 0) {
    shards = 1;
    while (shards < 64 && budget_bytes / (std::uint64_t{2} * shards) >= (1U << 20)) shards *= 2;
  }
  shard_count_ = std::bit_floor(std::uint64_t{shards});
  shard_budget_ = budget_bytes / shard_count_;
  shards_ = std::make_unique<Shard[]>(shard_count_);
}

BlockCache::~BlockCache() { clear(); }

void BlockCache::evict_last(Shard& shard) {
  Entry* entry = shard.last;
  shard.unlink(entry);
  shard.bytes -= entry->image.capacity() + kEntryOverhead;
  if (entry->slot != nullptr) {
    *entry->slot = nullptr;
  } else {
    shard.map.erase(entry->key);
  }
  ++shard.evictions;
  delete entry;
}

CacheStats BlockCache::stats() const {
  CacheStats total;
  total.budget = budget_;
  for (std::uint64_t s = 0; s < shard_count_; ++s) {
    Shard& shard = shards_[s];
    const std::lock_guard lock(shard.mutex);
    total.hits += shard.hits;
    total.misses += shard.misses;
    total.evictions += shard.evictions;
    total.uncached += shard.uncached;
    total.blocks += shard.entries;
    total.bytes += shard.bytes;
  }
  return total;
}

void BlockCache::clear() {
  for (std::uint64_t s = 0; s < shard_count_; ++s) {
    Shard& shard = shards_[s];
    const std::lock_guard lock(shard.mutex);
    while (shard.last != nullptr) {
      evict_last(shard);
      --shard.evictions;  // emptied, not evicted
    }
  }
}

PositionCache::PositionCache(std::size_t entries) {
  if (entries == 0) return;
  const std::size_t size = std::bit_floor(entries);
  slots_ = std::make_unique<Slot[]>(size);
  mask_ = size - 1;
}

}  // namespace gs::db
