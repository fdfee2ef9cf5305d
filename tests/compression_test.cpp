// Database format v2 (db/block_file.cpp, db/block_codec.h): every codec and value
// encoding round-trips on real tiers of every game present; format v1 files stay
// readable and `gamesolver compress` converts them to the same values; files are the
// same for any thread count; and damage anywhere in a file (a flipped bit in the header,
// the block index, the codec table or any block, a truncation) is refused on open or on
// the first read of the damaged block, with a gs::Error naming the file (and the block),
// never a wrong value.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "app/registry.h"
#include "core/error.h"
#include "db/block_codec.h"
#include "db/database.h"
#include "db/prober.h"
#include "db/tier_file.h"
#include "retro/verify.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using db::Codec;
using db::Encoding;
using test::TempDir;

// ---------------------------------------------------------------------------------
// Codecs alone.

std::vector<ValueCode> random_symbols(std::mt19937_64& random, std::size_t n, ValueCode largest) {
  std::vector<ValueCode> symbols(n);
  std::size_t i = 0;
  while (i < n) {
    // Runs of all lengths, mixed with stretches of different values.
    const auto symbol = static_cast<ValueCode>(random() % (largest + 1U));
    const std::size_t run = random() % 3 == 0 ? 1 + random() % 3 : 1 + random() % 700;
    for (std::size_t j = 0; j < run && i < n; ++j) symbols[i++] = symbol;
  }
  return symbols;
}

TEST(BlockCodec, EveryCodecRoundTrips) {
  std::mt19937_64 random(7);
  for (const unsigned bits : {2U, 8U, 16U}) {
    const ValueCode largest = bits == 2 ? 3 : bits == 8 ? 255 : 3000;
    std::vector<std::vector<std::uint8_t>> images;
    for (int b = 0; b < 24; ++b) {
      const auto symbols = random_symbols(random, 4096 + b, largest);
      images.emplace_back(db::image_bytes(symbols.size(), bits));
      db::pack_image(symbols, bits, images.back());
      std::vector<ValueCode> back(symbols.size());
      db::unpack_image(images.back(), bits, back);
      ASSERT_EQ(back, symbols);
    }
    const std::vector<std::span<const std::uint8_t>> samples(images.begin(), images.end());
    for (const Codec codec : {Codec::kNone, Codec::kRunLength, Codec::kZstd}) {
      for (const bool dictionary : {false, true}) {
        SCOPED_TRACE(db::codec_name(codec) + " bits " + std::to_string(bits) +
                     (dictionary ? " dictionary" : ""));
        const auto writer = db::fit_codec(codec, bits, samples, dictionary, 3);
        const auto reader = db::make_codec(codec, bits, writer->table());
        std::vector<std::uint8_t> compressed;
        for (const auto& image : images) {
          writer->compress(image, compressed);
          std::vector<std::uint8_t> back(image.size());
          ASSERT_TRUE(reader->decompress(compressed, back));
          ASSERT_EQ(back, image);
          // One byte more or less is not a valid block of this size.
          std::vector<std::uint8_t> wrong(image.size() + 1);
          EXPECT_FALSE(reader->decompress(compressed, wrong));
        }
      }
    }
  }
}

TEST(BlockCodec, GarbageNeverDecodesOutOfBounds) {
  // Checksums keep garbage from the decoders; still, no input may make them overrun.
  std::mt19937_64 random(11);
  std::vector<std::uint8_t> image(db::image_bytes(1000, 8));
  db::pack_image(std::vector<ValueCode>(1000, 5), 8, image);
  const std::vector<std::span<const std::uint8_t>> samples(10, image);
  for (const Codec codec : {Codec::kNone, Codec::kRunLength, Codec::kZstd}) {
    const auto reader = db::make_codec(codec, 8, db::fit_codec(codec, 8, samples, false, 3)->table());
    for (int attempt = 0; attempt < 2000; ++attempt) {
      std::vector<std::uint8_t> data(random() % 64);
      for (auto& byte : data) byte = static_cast<std::uint8_t>(random());
      std::vector<std::uint8_t> out(image.size());
      (void)reader->decompress(data, out);
    }
  }
  EXPECT_THROW((void)db::make_codec(Codec::kRunLength, 8, std::vector<std::uint8_t>{1, 0, 0, 0}), Error);
  EXPECT_THROW((void)db::make_codec(Codec::kRunLength, 8, std::vector<std::uint8_t>{1, 2, 0, 0, 1}), Error);
  EXPECT_THROW((void)db::make_codec(Codec::kNone, 8, std::vector<std::uint8_t>{1}), Error);
}

// ---------------------------------------------------------------------------------
// Real tiers of every game.

template <class G>
class Compression : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    solved_ =
        new test::SolvedTiers<G>(test::solve_tiers(G{}, test::TestTiers<G>::fast(), dir_->path() / "built"));
  }
  static void TearDownTestSuite() {
    delete solved_;
    delete dir_;
    solved_ = nullptr;
    dir_ = nullptr;
  }
  static const test::SolvedTiers<G>& solved() { return *solved_; }
  static fs::path built() { return dir_->path() / "built"; }

 private:
  static inline TempDir* dir_ = nullptr;
  static inline test::SolvedTiers<G>* solved_ = nullptr;
};
TYPED_TEST_SUITE(Compression, test::DatabaseGames);

// Every index reads back its code (wins, draws and losses only in that encoding); holes
// may read as anything in files that fill them, and as holes through the game.
template <class G>
void expect_same_values(const G& game, const test::SolvedTiers<G>& solved, const fs::path& dir,
                        Encoding encoding) {
  db::Database database(db::Location::of(game, dir));
  db::Prober prober(db::Location::of(game, dir), test::prober_options(1 << 16));
  for (const Tier tier : solved.order) {
    SCOPED_TRACE(game.tier_name(tier));
    const db::TierReader* reader = database.find(game, tier);
    ASSERT_NE(reader, nullptr);
    const auto& codes = solved.codes.at(tier);
    ASSERT_EQ(reader->header().positions, codes.size());
    EXPECT_EQ(reader->header().depths(), encoding == Encoding::kDepth);
    std::uint64_t wrong = 0;
    for (Index i = 0; i < codes.size(); ++i) {
      const ValueCode want = encoding == Encoding::kDepth ? codes[i] : db::win_draw_loss(codes[i]);
      if (codes[i] == kHoleCode && reader->header().holes_filled) {
        wrong += prober.code(game, tier, i) != std::optional<ValueCode>(kHoleCode) ? 1 : 0;
        continue;
      }
      wrong += reader->code(i) != want ? 1 : 0;
      wrong += prober.stored_code(game, tier, i) != std::optional<ValueCode>(want) ? 1 : 0;
    }
    EXPECT_EQ(wrong, 0U);
    EXPECT_NO_THROW(reader->check(true));
  }
}

TYPED_TEST(Compression, EveryEncodingAndCodecRoundTrips) {
  const TypeParam game;
  TempDir dir;
  for (const Encoding encoding : {Encoding::kWinDrawLoss, Encoding::kDepth}) {
    for (const std::optional<Codec> codec : {std::optional<Codec>(), std::optional(Codec::kNone),
                                             std::optional(Codec::kRunLength), std::optional(Codec::kZstd)}) {
      for (const bool dictionary : {false, true}) {
        if (dictionary && codec != Codec::kZstd) continue;
        SCOPED_TRACE(db::encoding_name(encoding) + " " + (codec ? db::codec_name(*codec) : "auto") +
                     (dictionary ? " dictionary" : ""));
        db::WriteOptions options;
        options.encoding = encoding;
        options.codec = codec;
        options.block_positions = 1024;  // many blocks even in small tiers
        options.zstd_level = 3;
        if (codec == Codec::kZstd) options.dictionary = dictionary;
        test::write_tiers(game, this->solved(), dir.path(), options);
        expect_same_values(game, this->solved(), dir.path(), encoding);
      }
    }
  }
}

TYPED_TEST(Compression, AutoChoosesTheSmallestCodec) {
  const TypeParam game;
  TempDir dir;
  const Tier tier = this->solved().order.back();
  const auto& codes = this->solved().codes.at(tier);
  const fs::path path = dir / "t.gsdb";
  std::uint64_t smallest = ~std::uint64_t{0};
  for (const Codec codec : {Codec::kNone, Codec::kRunLength, Codec::kZstd}) {
    db::WriteOptions options;
    options.codec = codec;
    db::write_tier(path, this->solved().headers.at(tier), codes, options);
    smallest = std::min<std::uint64_t>(smallest, fs::file_size(path));
  }
  const db::TierHeader written = db::write_tier(path, this->solved().headers.at(tier), codes);
  EXPECT_EQ(fs::file_size(path), smallest) << "auto chose " << db::codec_name(written.codec);
  EXPECT_LT(fs::file_size(path), codes.size()) << "compression gained nothing on " << game.tier_name(tier);
}

TYPED_TEST(Compression, FilesAreTheSameForAnyThreadCount) {
  const TypeParam game;
  TempDir one;
  TempDir two;
  for (const Encoding encoding : {Encoding::kWinDrawLoss, Encoding::kDepth}) {
    db::WriteOptions options;
    options.encoding = encoding;
    options.block_positions = 512;
    options.zstd_level = 3;
    options.threads = 1;
    test::write_tiers(game, this->solved(), one.path(), options);
    options.threads = 3;
    test::write_tiers(game, this->solved(), two.path(), options);
    EXPECT_EQ(test::compare_snapshots(test::snapshot(one.path()), test::snapshot(two.path())), "");
  }
}

// Threads reading one reader at once, each from its own place, all read every value (a
// block is decompressed once, by the first thread to ask, while the others wait for it);
// a damaged block is refused to every thread that asks for it, each time it asks.
TYPED_TEST(Compression, ThreadsShareOneReader) {
  const TypeParam game;
  TempDir dir;
  db::WriteOptions options;
  options.codec = Codec::kZstd;
  options.block_positions = 256;
  options.zstd_level = 3;
  test::write_tiers(game, this->solved(), dir.path(), options);
  const Tier tier = this->solved().order.back();
  const auto& codes = this->solved().codes.at(tier);
  const db::Location location = db::Location::of(game, dir.path());
  const fs::path path = location.file(game.tier_name(tier));
  const db::Expected expected = location.expected(tier, codes.size());
  constexpr int kThreads = 4;
  const auto read_from_every_thread = [&](const db::TierReader& reader, const std::vector<Index>& indices) {
    std::atomic<std::uint64_t> wrong{0};
    std::atomic<std::uint64_t> refused{0};
    std::vector<std::thread> threads;
    threads.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (std::size_t k = 0; k < indices.size(); ++k) {
          const Index i =
              indices[(k + static_cast<std::size_t>(t) * indices.size() / kThreads) % indices.size()];
          try {
            const ValueCode code = reader.code(i);  // read even where a hole may read as anything
            if (codes[i] != kHoleCode && code != codes[i]) ++wrong;
          } catch (const Error& e) {
            if (std::string(e.what()).find(path.string()) != std::string::npos) ++refused;
          }
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    return std::pair(wrong.load(), refused.load());
  };
  std::vector<Index> all(codes.size());
  std::iota(all.begin(), all.end(), Index{0});
  {
    const auto reader = db::open_tier(path, expected, false);
    ASSERT_GT(reader->header().blocks, 2U);
    EXPECT_EQ(read_from_every_thread(*reader, all), std::pair(std::uint64_t{0}, std::uint64_t{0}));
  }
  // The file's last byte is its last block's.
  std::string bytes = test::read_file(path);
  bytes.back() = static_cast<char>(bytes.back() ^ 0x10);
  test::write_file(path, bytes);
  const auto reader = db::open_tier(path, expected, false);
  const Index last = codes.size() - 1;
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(read_from_every_thread(*reader, {last}), std::pair(std::uint64_t{0}, std::uint64_t{kThreads}));
  }
  EXPECT_EQ(read_from_every_thread(*reader, {0}).second, 0U);
}

TYPED_TEST(Compression, VersionOneFilesAreReadAndConverted) {
  const TypeParam game;
  TempDir dir;
  test::write_tiers(game, this->solved(), dir.path(), {}, true);
  {
    db::Database database(db::Location::of(game, dir.path()));
    for (const Tier tier : this->solved().order) {
      const db::TierReader* reader = database.find(game, tier);
      ASSERT_NE(reader, nullptr);
      EXPECT_EQ(reader->header().version, db::kFormatVersion1);
      EXPECT_FALSE(reader->has_blocks());
      const auto& codes = this->solved().codes.at(tier);
      for (Index i = 0; i < codes.size(); ++i) ASSERT_EQ(reader->code(i), codes[i]) << i;
      // Probing reads v1 files too.
      for (Index i = 0; i < codes.size(); i += 7)
        ASSERT_EQ(database.prober().stored_code(game, tier, i), std::optional(codes[i]));
    }
  }
  // gamesolver compress, in process: v1 -> depth (same codes), then -> wdl (outcomes).
  const auto service = app::find_game(std::string(TypeParam::kName)).make("", {});
  app::CommonOptions options;
  options.data = dir.path();
  options.quiet = true;
  app::CompressRequest request;
  request.pieces = game.tier_pieces(this->solved().order.back());
  EXPECT_GT(service->compress(options, request, {}).positions, 0U);
  for (const auto& [name, bytes] : test::snapshot(dir.path()))
    EXPECT_EQ(bytes[8], db::kFormatVersion) << name;
  expect_same_values(game, this->solved(), dir.path(), Encoding::kDepth);
  request.encoding = "wdl";
  EXPECT_GT(service->compress(options, request, {}).positions, 0U);
  expect_same_values(game, this->solved(), dir.path(), Encoding::kWinDrawLoss);
  // Depths cannot come back.
  request.encoding = "depth";
  EXPECT_THROW(service->compress(options, request, {}), Error);
  // Checksums check out, and verification checks outcomes.
  db::Database database(db::Location::of(game, dir.path()));
  for (const Tier tier : this->solved().order) {
    EXPECT_NO_THROW(database.find(game, tier)->check(true));
    EXPECT_TRUE(retro::verify_tier(game, database, tier, 2, true).consistent()) << game.tier_name(tier);
  }
}

// ---------------------------------------------------------------------------------
// Damage.

// Reads every value of the file through a fresh reader and a fresh prober. Returns the
// error if either refused the file, "" if every value was read and right; a wrong value
// is a test failure. codes: as stored (outcomes only in win/draw/loss files).
template <class G>
std::string read_everything(const G& game, const fs::path& dir, Tier tier,
                            const std::vector<ValueCode>& codes) {
  const db::Location location = db::Location::of(game, dir);
  std::string error;
  try {
    const auto reader =
        db::open_tier(location.file(game.tier_name(tier)), location.expected(tier, game.size(tier)), false);
    for (Index i = 0; i < codes.size(); ++i) {
      if (codes[i] != kHoleCode && reader->code(i) != codes[i]) {
        ADD_FAILURE() << "wrong value at index " << i << " of " << game.tier_name(tier);
        return "wrong value";
      }
    }
  } catch (const Error& e) {
    error = e.what();
  }
  try {
    db::Prober prober(location, test::prober_options(1 << 20, 0));
    for (Index i = 0; i < codes.size(); ++i) {
      if (codes[i] != kHoleCode && prober.stored_code(game, tier, i) != std::optional(codes[i])) {
        ADD_FAILURE() << "the prober read a wrong value at index " << i << " of " << game.tier_name(tier);
        return "wrong value";
      }
    }
    if (!error.empty()) ADD_FAILURE() << "the reader refused what the prober read: " << error;
  } catch (const Error& e) {
    if (error.empty()) ADD_FAILURE() << "the prober refused what the reader read: " << e.what();
    error = e.what();
  }
  return error;
}

template <class G>
void expect_damage_detected(const G& game, const test::SolvedTiers<G>& solved,
                            const db::WriteOptions& options, int bits_per_region) {
  TempDir dir;
  test::write_tiers(game, solved, dir.path(), options);
  const db::Location location = db::Location::of(game, dir.path());
  std::mt19937_64 random(3);
  for (const Tier tier : solved.order) {
    const fs::path path = location.file(game.tier_name(tier));
    const std::string good = test::read_file(path);
    std::vector<ValueCode> want = solved.codes.at(tier);
    if (options.encoding == Encoding::kWinDrawLoss) {
      for (ValueCode& code : want) code = db::win_draw_loss(code);
    }
    const auto reader = db::open_tier(path, location.expected(tier, game.size(tier)), true);
    const db::TierHeader header = reader->header();
    ASSERT_EQ(read_everything(game, dir.path(), tier, want), "");
    // The regions of the file: header, block index, codec table, then each block.
    const std::uint64_t index_end = db::kHeaderSize + (2 * header.blocks + 1) * 8;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> regions = {{0, db::kHeaderSize},
                                                                    {db::kHeaderSize, index_end}};
    if (header.table_bytes > 0) regions.emplace_back(index_end, index_end + header.table_bytes);
    std::vector<std::uint64_t> offsets;
    for (std::uint64_t b = 0; b <= header.blocks; ++b) {
      std::uint64_t offset = 0;
      for (int k = 0; k < 8; ++k)
        offset |= static_cast<std::uint64_t>(static_cast<unsigned char>(good[db::kHeaderSize + 8 * b + k]))
                  << (8 * k);
      offsets.push_back(offset);
    }
    for (std::uint64_t b = 0; b < header.blocks; ++b) regions.emplace_back(offsets[b], offsets[b + 1]);
    ASSERT_EQ(regions.back().second, good.size());
    for (std::size_t r = 0; r < regions.size(); ++r) {
      const auto [begin, end] = regions[r];
      if (begin == end) continue;
      for (int k = 0; k < bits_per_region; ++k) {
        const std::uint64_t at = begin + (k == 0 ? 0 : k == 1 ? end - 1 - begin : random() % (end - begin));
        const int bit = static_cast<int>(random() % 8);
        std::string bad = good;
        bad[at] = static_cast<char>(bad[at] ^ (1 << bit));
        test::write_file(path, bad);
        SCOPED_TRACE(game.tier_name(tier) + ": bit " + std::to_string(bit) + " of byte " +
                     std::to_string(at) + " (region " + std::to_string(r) + ")");
        const std::string error = read_everything(game, dir.path(), tier, want);
        EXPECT_NE(error.find(path.string()), std::string::npos)
            << "not detected, or no file named: " << error;
        if (r >= regions.size() - header.blocks) {
          const std::uint64_t block = r - (regions.size() - header.blocks);
          EXPECT_NE(error.find("block " + std::to_string(block)), std::string::npos) << error;
        }
        EXPECT_FALSE(db::tier_file_good(path, location.expected(tier, game.size(tier))));
      }
    }
    // Truncated anywhere, or extended.
    for (const std::uint64_t size : {std::uint64_t{0}, std::uint64_t{100}, db::kHeaderSize, index_end - 1,
                                     good.size() / 2, good.size() - 1}) {
      test::write_file(path, good.substr(0, std::min<std::uint64_t>(size, good.size() - 1)));
      const std::string error = read_everything(game, dir.path(), tier, want);
      EXPECT_NE(error.find("truncated"), std::string::npos) << size << ": " << error;
    }
    test::write_file(path, good + "x");
    EXPECT_NE(read_everything(game, dir.path(), tier, want).find("extended"), std::string::npos);
    test::write_file(path, good);
  }
}

TYPED_TEST(Compression, FlippedBitsAndTruncationAreDetected) {
  for (const Encoding encoding : {Encoding::kWinDrawLoss, Encoding::kDepth}) {
    for (const Codec codec : {Codec::kRunLength, Codec::kZstd}) {
      SCOPED_TRACE(db::encoding_name(encoding) + " " + db::codec_name(codec));
      db::WriteOptions options;
      options.encoding = encoding;
      options.codec = codec;
      options.block_positions = 16384;
      options.zstd_level = 3;
      expect_damage_detected(TypeParam{}, this->solved(), options, 2);
    }
  }
}

// ---------------------------------------------------------------------------------
// Slow: larger tiers.

template <class G>
void larger_tiers_round_trip_and_detect_damage() {
  const G game;
  TempDir dir;
  const auto solved = test::solve_tiers(game, test::TestTiers<G>::slow(), dir.path() / "built");
  // As build wrote them, then each encoding with the default block size.
  expect_same_values(game, solved, dir.path() / "built", Encoding::kDepth);
  for (const Encoding encoding : {Encoding::kWinDrawLoss, Encoding::kDepth}) {
    db::WriteOptions options;
    options.encoding = encoding;
    options.zstd_level = 3;
    test::write_tiers(game, solved, dir.path() / "again", options);
    expect_same_values(game, solved, dir.path() / "again", encoding);
  }
  // Damage in the largest tier.
  test::SolvedTiers<G> largest;
  largest.order = {solved.order.back()};
  largest.codes[largest.order[0]] = solved.codes.at(largest.order[0]);
  largest.headers[largest.order[0]] = solved.headers.at(largest.order[0]);
  db::WriteOptions options;
  options.zstd_level = 3;
  expect_damage_detected(game, largest, options, 1);
}

TEST(CompressionSlow, LargerTiersRoundTripAndDetectDamage) {
  test::for_each_game([]<class G>() { larger_tiers_round_trip_and_detect_damage<G>(); });
}

}  // namespace
}  // namespace gs
