#include "db/block_cache.h"

#include <bit>
#include <vector>

namespace gs::db {

BlockCache::BlockCache(std::uint64_t budget_bytes, unsigned shards)
    : budget_(budget_bytes), hit_counters_(std::make_unique<HitCounter[]>(kHitCounters)) {
  if (shards == 0) {
    shards = 1;
    while (shards < 64 && budget_bytes / (std::uint64_t{2} * shards) >= (1U << 20)) shards *= 2;
  }
  shard_count_ = std::bit_floor(std::uint64_t{shards});
  shard_budget_ = budget_bytes / shard_count_;
  shards_ = std::make_unique<Shard[]>(shard_count_);
}

// No thread uses the cache any more: every entry goes at once, slots untouched (their
// owner may be gone; see Prober::~Prober).
BlockCache::~BlockCache() {
  for (std::uint64_t s = 0; s < shard_count_; ++s) {
    Shard& shard = shards_[s];
    while (shard.hand != nullptr) {
      Entry* entry = shard.hand;
      shard.unlink(entry);
      delete entry;
    }
    for (Entry* entry : shard.retired) delete entry;
  }
}

// The clock's hand clears the flags of referenced entries and evicts the first clear one;
// after two turns (hits racing the hand can set flags again) it evicts where it stands.
void BlockCache::evict_one(Shard& shard) {
  Entry* entry = shard.hand;
  for (std::uint64_t looked = 0; looked < 2 * shard.entries; ++looked) {
    if (!entry->referenced.load(std::memory_order_relaxed)) break;
    entry->referenced.store(false, std::memory_order_relaxed);
    entry = entry->next;
  }
  shard.hand = entry;
  shard.unlink(entry);
  if (entry->slot != nullptr) {
    entry->slot->store(nullptr, std::memory_order_seq_cst);  // unpublished before retired: db/epoch.h
  } else {
    shard.map.erase(entry->key);
  }
  entry->retired = epoch::advance();
  shard.retired.push_back(entry);
  ++shard.evictions;
}

void BlockCache::free_retired(Shard& shard, bool all) {
  if (shard.retired.empty()) return;
  const std::uint64_t oldest = all ? epoch::kIdle : epoch::oldest_pinned();
  std::erase_if(shard.retired, [&](Entry* entry) {
    if (!all && entry->retired >= oldest) return false;
    shard.bytes -= entry->image.capacity() + kEntryOverhead;
    delete entry;
    return true;
  });
}

bool BlockCache::make_room(Shard& shard, std::uint64_t cost) {
  if (cost > shard_budget_) return false;
  free_retired(shard, false);
  while (shard.bytes + cost > shard_budget_ && shard.hand != nullptr) {
    evict_one(shard);
    free_retired(shard, false);
  }
  return shard.bytes + cost <= shard_budget_;
}

CacheStats BlockCache::stats() const {
  CacheStats total;
  total.budget = budget_;
  for (std::uint64_t s = 0; s < shard_count_; ++s) {
    Shard& shard = shards_[s];
    const std::lock_guard lock(shard.mutex);
    free_retired(shard, false);
    total.hits += shard.hits;
    total.misses += shard.misses;
    total.evictions += shard.evictions;
    total.uncached += shard.uncached;
    total.blocks += shard.entries;
    total.bytes += shard.bytes;
  }
  for (unsigned t = 0; t < kHitCounters; ++t)
    total.hits += hit_counters_[t].hits.load(std::memory_order_relaxed);
  return total;
}

void BlockCache::clear() {
  for (std::uint64_t s = 0; s < shard_count_; ++s) {
    Shard& shard = shards_[s];
    const std::lock_guard lock(shard.mutex);
    while (shard.hand != nullptr) {
      evict_one(shard);
      --shard.evictions;  // emptied, not evicted
    }
    free_retired(shard, false);
  }
}

PositionCache::PositionCache(std::size_t entries) {
  if (entries == 0) return;
  const std::size_t size = std::bit_floor(entries);
  slots_ = std::make_unique<Slot[]>(size);
  mask_ = size - 1;
}

std::uint64_t PositionCache::bytes_for(std::size_t entries) {
  return entries == 0 ? 0 : std::bit_floor(entries) * sizeof(Slot);
}

}  // namespace gs::db
