// Probing (db/prober.h, db/block_cache.h): the block cache keeps its byte budget, spares
// referenced blocks (CLOCK) and hands out the right bytes while threads hit and evict at
// once, the position cache never hands out another index's value, probes by position
// agree with the files for every game present, and many threads probing at once (run
// under ThreadSanitizer by the sanitizer jobs) get the same answers as one.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "db/block_cache.h"
#include "db/database.h"
#include "db/prober.h"
#include "tests/db_fixture.h"
#include "tests/game_battery.h"
#include "tests/test_util.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

// A block of `size` bytes whose every byte is `fill`.
auto loader(std::size_t size, std::uint8_t fill, int* loads) {
  return [=](std::vector<std::uint8_t>& image) {
    ++*loads;
    image.assign(size, fill);
  };
}
auto first_byte = [](const std::uint8_t* image) { return image[0]; };

TEST(BlockCache, KeepsItsBudgetAndGivesASecondChance) {
  const std::uint64_t cost = 1000 + db::BlockCache::kEntryOverhead;
  db::BlockCache cache(3 * cost, 1);
  int loads = 0;
  for (std::uint64_t key = 0; key < 3; ++key) {
    EXPECT_EQ(cache.with(key, loader(1000, static_cast<std::uint8_t>(key), &loads), first_byte), key);
  }
  EXPECT_EQ(loads, 3);
  EXPECT_EQ(cache.stats().bytes, 3 * cost);
  EXPECT_EQ(cache.with(0, loader(1000, 0, &loads), first_byte), 0);  // 0 is referenced
  EXPECT_EQ(loads, 3);
  EXPECT_EQ(cache.with(3, loader(1000, 3, &loads), first_byte), 3);  // 0 spared, 1 evicted
  EXPECT_EQ(loads, 4);
  db::CacheStats stats = cache.stats();
  EXPECT_EQ(stats.evictions, 1U);
  EXPECT_EQ(stats.blocks, 3U);
  EXPECT_LE(stats.bytes, stats.budget);
  EXPECT_EQ(cache.with(0, loader(1000, 0, &loads), first_byte), 0);
  EXPECT_EQ(cache.with(2, loader(1000, 2, &loads), first_byte), 2);
  EXPECT_EQ(loads, 4);
  EXPECT_EQ(cache.with(1, loader(1000, 1, &loads), first_byte), 1);  // was evicted
  EXPECT_EQ(loads, 5);
  // A block larger than the budget is read but not kept.
  EXPECT_EQ(cache.with(9, loader(5000, 9, &loads), first_byte), 9);
  stats = cache.stats();
  EXPECT_EQ(stats.uncached, 1U);
  EXPECT_LE(stats.bytes, stats.budget);
  // A load that throws caches nothing.
  EXPECT_THROW(cache.with(
                   10, [](std::vector<std::uint8_t>&) { throw Error("damaged"); }, first_byte),
               Error);
  EXPECT_EQ(cache.stats().blocks, 3U);
  cache.clear();
  EXPECT_EQ(cache.stats().bytes, 0U);
}

TEST(BlockCache, ShardsShareTheBudget) {
  db::BlockCache cache(std::uint64_t{8} << 20);
  int loads = 0;
  for (std::uint64_t key = 0; key < 5000; ++key) (void)cache.with(key, loader(16384, 1, &loads), first_byte);
  const db::CacheStats stats = cache.stats();
  EXPECT_LE(stats.bytes, stats.budget);
  EXPECT_GT(stats.bytes, stats.budget / 2);
  EXPECT_GT(stats.evictions, 0U);
}

// Threads hit, miss and evict at once through slots and through the map, one of them
// emptying the cache now and then; every byte a use() reads is checked (run under
// ThreadSanitizer and AddressSanitizer by the sanitizer jobs: a block freed while read, or
// a hit racing its eviction, shows there).
TEST(BlockCache, ConcurrentHitsAndEvictionsReadTheirOwnBlocks) {
  constexpr std::uint64_t kKeys = 96;
  constexpr int kThreads = 4;
  constexpr int kCalls = 20000;
  const auto byte_of = [](std::uint64_t key, std::size_t i) {
    return static_cast<std::uint8_t>(key * 37 + i);
  };
  const auto size_of = [](std::uint64_t key) { return std::size_t{64} + key % 7 * 32; };
  const std::uint64_t budget = 12 * (256 + db::BlockCache::kEntryOverhead);
  db::BlockCache cache(budget, 2);
  std::vector<db::BlockCache::Slot> slots(kKeys);
  std::atomic<int> wrong{0};
  std::atomic<int> loads{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 random(static_cast<std::uint64_t>(t) + 100);
      for (int call = 0; call < kCalls; ++call) {
        // Mostly a few hot keys (hits), sometimes any (misses and evictions).
        const std::uint64_t key = random() % 4 == 0 ? random() % kKeys : random() % 8;
        const bool through_map = key % 5 == 0;
        const auto load = [&](std::vector<std::uint8_t>& image) {
          loads.fetch_add(1, std::memory_order_relaxed);
          image.resize(size_of(key));
          for (std::size_t i = 0; i < image.size(); ++i) image[i] = byte_of(key, i);
        };
        const auto check = [&](const std::uint8_t* image) {
          for (std::size_t i = 0; i < size_of(key); ++i) {
            if (image[i] != byte_of(key, i)) return false;
          }
          return true;
        };
        const bool right =
            through_map ? cache.with(key, load, check) : cache.with(key, &slots[key], load, check);
        if (!right) wrong.fetch_add(1);
        if (t == 0 && call % 3000 == 0) cache.clear();
        if (t == 1 && call % 1000 == 0) (void)cache.stats();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  const db::CacheStats stats = cache.stats();
  EXPECT_EQ(stats.hits + stats.misses, std::uint64_t{kThreads} * kCalls);
  EXPECT_EQ(stats.misses, static_cast<std::uint64_t>(loads.load()));
  EXPECT_GT(stats.hits, 0U);
  EXPECT_GT(stats.evictions, 0U);
  EXPECT_LE(stats.bytes, budget);
  cache.clear();
  EXPECT_EQ(cache.stats().bytes, 0U);
  EXPECT_EQ(cache.stats().blocks, 0U);
}

TEST(PositionCache, FindsWhatWasStoredAndNothingElse) {
  db::PositionCache cache(1024);
  EXPECT_EQ(cache.entries(), 1024U);
  EXPECT_FALSE(cache.find(5).has_value());
  cache.store(5, 77);
  EXPECT_EQ(cache.find(5), std::optional<ValueCode>(77));
  EXPECT_FALSE(cache.find(5 + 1024).has_value());
  for (std::uint64_t key = 0; key < 100000; ++key) cache.store(key, static_cast<ValueCode>(key & 0x7FFF));
  int found = 0;
  for (std::uint64_t key = 0; key < 100000; ++key) {
    if (const auto code = cache.find(key)) {
      ++found;
      ASSERT_EQ(*code, key & 0x7FFF);
    }
  }
  EXPECT_GT(found, 0);
  EXPECT_LE(found, 1024);
  db::PositionCache off(0);
  off.store(1, 1);
  EXPECT_FALSE(off.find(1).has_value());
}

template <class G>
class Probing : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    solved_ = new test::SolvedTiers<G>(test::solve_tiers(G{}, test::TestTiers<G>::fast(), dir_->path()));
  }
  static void TearDownTestSuite() {
    delete solved_;
    delete dir_;
    solved_ = nullptr;
    dir_ = nullptr;
  }
  static const test::SolvedTiers<G>& solved() { return *solved_; }
  static const fs::path& data() { return dir_->path(); }

 private:
  static inline TempDir* dir_ = nullptr;
  static inline test::SolvedTiers<G>* solved_ = nullptr;
};
TYPED_TEST_SUITE(Probing, test::DatabaseGames);

TYPED_TEST(Probing, PositionsAgreeWithTheFilesWithinTheBudget) {
  const TypeParam game;
  const std::uint64_t budget = 40000;  // a few blocks
  db::Prober prober(db::Location::of(game, this->data()), test::prober_options(budget, 256));
  const auto positions = test::sample_positions(game, this->solved().order, 300, 5);
  ASSERT_GE(positions.size(), 300U);
  for (int round = 0; round < 2; ++round) {
    for (const auto& pos : positions) {
      const std::optional<Value> value = prober.probe(game, pos);
      ASSERT_TRUE(value.has_value());
      if (game.terminal(pos)) continue;
      const Ranked ranked = game.rank(pos);
      ASSERT_EQ(value->code(), this->solved().codes.at(ranked.tier)[ranked.index]) << game.position_text(pos);
    }
  }
  const db::ProberStats stats = prober.stats();
  EXPECT_LE(stats.blocks.bytes, budget);
  EXPECT_GT(stats.blocks.hits, 0U);
  EXPECT_GT(stats.blocks.evictions, 0U);
  EXPECT_EQ(stats.tiers, this->solved().order.size());
  // By index: holes are holes through the game; past the end is an error.
  const Tier tier = this->solved().order.back();
  const auto& codes = this->solved().codes.at(tier);
  for (Index i = 0; i < codes.size(); i += 13) EXPECT_EQ(prober.code(game, tier, i), std::optional(codes[i]));
  EXPECT_THROW((void)prober.code(game, tier, codes.size()), Error);
}

TYPED_TEST(Probing, MissingTiersHaveNoValueUntilBuilt) {
  const TypeParam game;
  TempDir dir;
  db::Prober prober(db::Location::of(game, dir.path()));
  const Tier tier = this->solved().order.front();
  Index index = 0;
  while (!game.unrank(tier, index)) ++index;
  const auto pos = *game.unrank(tier, index);
  EXPECT_FALSE(prober.probe(game, pos).has_value());
  EXPECT_EQ(prober.header(game, tier), nullptr);
  test::write_tiers(game, this->solved(), dir.path(), {});
  EXPECT_EQ(prober.probe(game, pos)->code(), this->solved().codes.at(tier)[index]);
}

TYPED_TEST(Probing, ConcurrentProbesAgree) {
  const TypeParam game;
  // A budget of a few blocks: threads evict each other's blocks all the time.
  db::Prober prober(db::Location::of(game, this->data()), test::prober_options(60000, 64));
  const auto positions = test::sample_positions(game, this->solved().order, 200, 9);
  std::vector<ValueCode> want;
  for (const auto& pos : positions) want.push_back(db::probe(game, prober, pos)->code());
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 random(static_cast<std::uint64_t>(t));
      for (int k = 0; k < 3000; ++k) {
        const std::size_t i = random() % positions.size();
        if (prober.probe(game, positions[i])->code() != want[i]) wrong.fetch_add(1);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_LE(prober.stats().blocks.bytes, 60000U);
}

TYPED_TEST(Probing, ConcurrentFirstOpensAndReaderBlocks) {
  // Threads race to open the same tiers and to decompress the same blocks of a reader.
  const TypeParam game;
  db::Prober prober(db::Location::of(game, this->data()));
  db::Database database(db::Location::of(game, this->data()));
  const Tier tier = this->solved().order.back();
  const db::TierReader* reader = database.find(game, tier);
  const auto& codes = this->solved().codes.at(tier);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (Index i = static_cast<Index>(t); i < codes.size(); i += 97) {
        if (codes[i] == kHoleCode) continue;
        if (reader->code(i) != codes[i]) wrong.fetch_add(1);
        for (const Tier other : this->solved().order) {
          if (!prober.stored_code(game, other, i % game.size(other))) wrong.fetch_add(1);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace gs
