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
    total.blocks += shard.map.size();
    total.bytes += shard.bytes;
  }
  return total;
}

void BlockCache::clear() {
  for (std::uint64_t s = 0; s < shard_count_; ++s) {
    Shard& shard = shards_[s];
    const std::lock_guard lock(shard.mutex);
    shard.map.clear();
    shard.lru.clear();
    shard.bytes = 0;
  }
}

PositionCache::PositionCache(std::size_t entries) {
  if (entries == 0) return;
  const std::size_t size = std::bit_floor(entries);
  slots_ = std::make_unique<Slot[]>(size);
  mask_ = size - 1;
}

}  // namespace gs::db
