#pragma once
// Probing databases in real time (search, the server, the CLI's probe and play), after
// Chinook: files memory-mapped, one probe decompresses at most one block, decompressed
// blocks kept in a cache under a byte budget (CLOCK, an approximation of LRU whose hits
// take no lock), recent positions in a small cache.
//
//   probe(game, pos)            the rules' value if the game is over, else the stored value
//     terminal? ──> rules
//     rank ──> tier table (lock-free) ──> position cache ──> block cache ──> file
//
// Thread-safe: any number of threads may probe at once. Files are opened on first use
// and kept open for the Prober's life (a tier rebuilt meanwhile is seen by a new Prober);
// a tier without a file is looked for again at each probe.
//
// Values: from a win/draw/loss file (TierHeader::depths() false) wins and losses come
// with depth 0; depths(game, tier) tells. Holes: a probe by position never reaches one;
// stored_code() at a hole's index returns whatever the file holds there (the value
// before it), code() asks the game and answers kHoleCode.
//
// Derivable don't-cares (db/derivable.h, files of format v3): probe() and value_code()
// answer them by a search over their moves, probing each child (through the caches);
// stored_code() returns what the file holds there.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "db/block_cache.h"
#include "db/block_codec.h"
#include "db/derivable.h"
#include "db/location.h"
#include "db/tier_file.h"

namespace gs::db {

struct ProberOptions {
  std::uint64_t block_cache_bytes = std::uint64_t{64} << 20;
  std::size_t position_cache_entries = std::size_t{1} << 14;  // 0: none
  unsigned shards = 0;                                        // of the block cache; 0: by budget
  bool check_values = false;  // check every block's checksum on open (else on first read)
};

struct ProberStats {
  CacheStats blocks;
  std::uint64_t tiers = 0;  // files open
};

class Prober {
 public:
  explicit Prober(Location location, ProberOptions options = {});
  ~Prober();
  Prober(const Prober&) = delete;
  Prober& operator=(const Prober&) = delete;

  [[nodiscard]] const Location& location() const { return location_; }

  template <Game G>
  std::optional<Value> probe(const G& game, const typename G::Position& pos) {
    if (auto value = game.terminal(pos)) return value;
    const Ranked ranked = game.rank(pos);
    const Open* open = find_or_open(game, ranked.tier);
    if (open == nullptr) return std::nullopt;
    if (open->derivable && db::derivable(game, pos)) return derived(game, *open, pos);
    const ValueCode code = read(*open, ranked.index);
    if (code == kHoleCode || code >= kCodeLimit) {
      fail("{}: index {} of tier {} holds no value (corrupt file?)",
           location_.file(game.tier_name(ranked.tier)).string(), ranked.index, game.tier_name(ranked.tier));
    }
    return Value::from_code(code);
  }

  // The code stored at an index, nullopt if the tier has no file. At a hole's index the
  // file may hold any value.
  template <Game G>
  std::optional<ValueCode> stored_code(const G& game, Tier tier, Index index) {
    const Open* open = find_or_open(game, tier);
    if (open == nullptr) return std::nullopt;
    return read(*open, index);
  }

  // The value code at the index of a position (not a hole): what the file stores, or
  // for a derivable don't-care, the value derived from its moves. nullopt if the tier
  // (or a tier a derivation needs) has no file.
  template <Game G>
  std::optional<ValueCode> value_code(const G& game, Tier tier, Index index) {
    const Open* open = find_or_open(game, tier);
    if (open == nullptr) return std::nullopt;
    if (open->derivable) {
      const auto pos = game.unrank(tier, index);
      if (pos && db::derivable(game, *pos)) {
        const auto value = derived(game, *open, *pos);
        if (!value) return std::nullopt;
        return value->code();
      }
    }
    return read(*open, index);
  }

  // The code at an index with holes told by the game: kHoleCode where unrank finds no
  // position.
  template <Game G>
  std::optional<ValueCode> code(const G& game, Tier tier, Index index) {
    const std::optional<ValueCode> stored = stored_code(game, tier, index);
    if (!stored) return stored;
    const auto pos = game.unrank(tier, index);
    if (!pos) return kHoleCode;
    return value_code(game, tier, index);
  }

  // The header of a tier's file, nullptr if it has none.
  template <Game G>
  const TierHeader* header(const G& game, Tier tier) {
    const Open* open = find_or_open(game, tier);
    return open == nullptr ? nullptr : &open->reader->header();
  }

  [[nodiscard]] ProberStats stats() const;

 private:
  struct Open {
    std::unique_ptr<TierReader> reader;
    std::uint64_t number = 0;  // dense, in order of opening: part of cache keys
    unsigned shift = 0;        // log2 of positions per block
    unsigned bits = 0;         // per position in a block image
    std::uint64_t positions = 0;
    bool derivable = false;  // the file holds derivable don't-cares
    bool depths = true;      // the file keeps depths
    // Per block, the block cache's entry while it holds the block (BlockCache::with).
    std::unique_ptr<BlockCache::Slot[]> slots;
  };
  // Open-addressing table Tier -> Open, read without locks; replaced by a larger copy
  // when it fills (old copies are kept until the Prober dies, readers may hold them).
  struct TierTable {
    std::uint64_t mask = 0;
    std::unique_ptr<std::atomic<std::uint64_t>[]> keys;  // tier + 1; 0: empty
    std::unique_ptr<std::atomic<const Open*>[]> values;
  };

  static std::uint64_t slot_of(Tier tier, std::uint64_t mask) {
    return (tier * 0x9e3779b97f4a7c15ULL >> 20) & mask;
  }

  [[nodiscard]] const Open* find(Tier tier) const {
    const TierTable* table = table_.load(std::memory_order_acquire);
    for (std::uint64_t slot = slot_of(tier, table->mask);; slot = (slot + 1) & table->mask) {
      const std::uint64_t key = table->keys[slot].load(std::memory_order_acquire);
      if (key == tier + 1) return table->values[slot].load(std::memory_order_relaxed);
      if (key == 0) return nullptr;
    }
  }

  const Open* open_tier_file(Tier tier, const std::string& name, std::uint64_t positions);

  template <Game G>
  const Open* find_or_open(const G& game, Tier tier) {
    const Open* open = find(tier);
    if (open == nullptr) open = open_tier_file(tier, game.tier_name(tier), game.size(tier));
    if (open != nullptr && open->derivable && !HasDerivable<G>)
      fail("{}: holds derivable don't-cares, but game {} derives no position", open->reader->path(),
           G::kName);
    return open;
  }

  // The value of a derivable don't-care of an open file, from its moves: each child
  // probed in turn (derived again where it is a don't-care of its own).
  template <Game G>
  std::optional<Value> derived(const G& game, const Open& open, const typename G::Position& pos) {
    const auto value =
        derive_value(game, pos, [&](const typename G::Position& next) { return probe(game, next); });
    if (!value || open.depths) return value;
    return without_depth(*value);
  }
  void insert(TierTable& table, const Open* open);

  ValueCode read(const Open& open, Index index) {
    if (index >= open.positions)
      fail("{}: index {} is past the tier's {} positions", open.reader->path(), index, open.positions);
    if (!open.reader->has_blocks()) return open.reader->code(index);  // format v1: mapped values
    const bool cacheable = index < (std::uint64_t{1} << 48);
    const std::uint64_t key = open.number << 48 | index;
    if (cacheable) {
      if (const auto code = positions_.find(key)) return *code;
    }
    // A hit in the block cache costs about what the position cache's does, and storing
    // every probe would write a line other threads read: only blocks read from the file
    // leave their value here (it outlives the block's eviction).
    const std::uint64_t block = index >> open.shift;
    bool loaded = false;
    const ValueCode code = blocks_.with(
        open.number << 40 | block, &open.slots[block],
        [&](std::vector<std::uint8_t>& image) {
          open.reader->read_block(block, image);
          loaded = true;
        },
        [&](const std::uint8_t* image) {
          return image_symbol(image, open.bits, index & ((std::uint64_t{1} << open.shift) - 1));
        });
    if (cacheable && loaded) positions_.store(key, code);
    return code;
  }

  Location location_;
  ProberOptions options_;
  BlockCache blocks_;
  PositionCache positions_;
  std::atomic<const TierTable*> table_{nullptr};
  mutable std::mutex mutex_;  // opening files, growing the table
  std::vector<std::unique_ptr<TierTable>> tables_;
  std::vector<std::unique_ptr<Open>> opened_;
};

// The value of a position through a Prober (see Prober::probe).
template <Game G>
std::optional<Value> probe(const G& game, Prober& prober, const typename G::Position& pos) {
  return prober.probe(game, pos);
}

}  // namespace gs::db
