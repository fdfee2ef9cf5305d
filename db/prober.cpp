#include "db/prober.h"

#include <bit>
#include <filesystem>

namespace gs::db {

namespace {

std::unique_ptr<std::atomic<std::uint64_t>[]> empty_keys(std::uint64_t size) {
  auto keys = std::make_unique<std::atomic<std::uint64_t>[]>(size);
  for (std::uint64_t i = 0; i < size; ++i) keys[i].store(0, std::memory_order_relaxed);
  return keys;
}

}  // namespace

Prober::Prober(Location location, ProberOptions options)
    : location_(std::move(location)),
      options_(options),
      blocks_(options.block_cache_bytes, options.shards),
      positions_(options.position_cache_entries) {
  auto table = std::make_unique<TierTable>();
  table->mask = 63;
  table->keys = empty_keys(64);
  table->values = std::make_unique<std::atomic<const Open*>[]>(64);
  table_.store(table.get(), std::memory_order_release);
  tables_.push_back(std::move(table));
}

// The block cache writes to the slots of open files when it lets blocks go: first.
Prober::~Prober() { blocks_.clear(); }

void Prober::insert(TierTable& table, const Open* open) {
  const Tier tier = open->reader->header().tier;
  std::uint64_t slot = slot_of(tier, table.mask);
  while (table.keys[slot].load(std::memory_order_relaxed) != 0) slot = (slot + 1) & table.mask;
  table.values[slot].store(open, std::memory_order_relaxed);
  table.keys[slot].store(tier + 1, std::memory_order_release);  // publishes the value
}

const Prober::Open* Prober::open_tier_file(Tier tier, const std::string& name, std::uint64_t positions) {
  const std::lock_guard lock(mutex_);
  if (const Open* open = find(tier)) return open;  // opened by another thread meanwhile
  const std::filesystem::path path = location_.file(name);
  std::error_code ignored;
  if (!std::filesystem::exists(path, ignored)) return nullptr;
  auto open = std::make_unique<Open>();
  open->reader = open_tier(path, location_.expected(tier, positions), options_.check_values);
  const TierHeader& header = open->reader->header();
  open->number = opened_.size();
  if (open->number >= (1U << 16) - 1) fail("{}: more than 65534 open tiers in one prober", path.string());
  open->positions = header.positions;
  open->bits = header.image_bits;
  open->derivable = header.derivable_filled;
  open->depths = header.depths();
  open->shift =
      open->reader->has_blocks() ? static_cast<unsigned>(std::countr_zero(header.block_positions)) : 0;
  open->slots = std::make_unique<BlockCache::Slot[]>(open->reader->has_blocks() ? header.blocks : 0);
  TierTable* table = tables_.back().get();
  if (2 * (opened_.size() + 1) > table->mask + 1) {
    // A table twice the size, filled before it is published; the old one stays valid.
    auto larger = std::make_unique<TierTable>();
    const std::uint64_t size = 2 * (table->mask + 1);
    larger->mask = size - 1;
    larger->keys = empty_keys(size);
    larger->values = std::make_unique<std::atomic<const Open*>[]>(size);
    for (const auto& existing : opened_) insert(*larger, existing.get());
    table = larger.get();
    tables_.push_back(std::move(larger));
  }
  const Open* result = open.get();
  opened_.push_back(std::move(open));
  insert(*table, result);
  table_.store(table, std::memory_order_release);
  return result;
}

ProberStats Prober::stats() const {
  ProberStats stats;
  stats.blocks = blocks_.stats();
  const std::lock_guard lock(mutex_);
  stats.tiers = opened_.size();
  return stats;
}

}  // namespace gs::db
