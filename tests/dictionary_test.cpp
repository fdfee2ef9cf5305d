// Game dictionaries (db/game_dictionary.h, docs/FORMAT.md "Game dictionaries"):
// `compress --dictionary game` keeps every value, in both encodings; where the dictionary
// pays (Jungle) some files use it and the databases get smaller, where it does not
// (checkers up to 3 pieces) the files are those of `--dictionary none` and no dictionary
// file is left; compressing twice gives the same bytes; dictionary files no tier file
// names are removed; and a dictionary file that is missing, truncated, damaged or of
// another encoding is refused on open with a gs::Error naming it and the tier file,
// never a wrong value.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "app/registry.h"
#include "core/error.h"
#include "db/database.h"
#include "db/game_dictionary.h"
#include "db/prober.h"
#include "games/checkers/checkers.h"
#include "games/jungle/jungle.h"
#include "retro/build.h"
#include "tests/test_util.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using db::Encoding;
using test::TempDir;

// A game's databases up to a few pieces, built once per test executable as build writes
// them (derivable don't-cares included), and the value of every index read back from
// them (kHoleCode at holes).
template <class G>
struct Built {
  static constexpr int kPieces = 3;
  G game;
  TempDir dir;
  std::vector<Tier> order;
  std::map<Tier, std::vector<ValueCode>> codes;

  Built() {
    order = retro::tiers_in_order(game, kPieces);
    db::Database database(db::Location::of(game, dir.path()));
    retro::BuildOptions options;
    options.solve.threads = 2;
    options.solve.quiet = true;
    options.write.derivable = db::derivable_positions(game);
    retro::build(game, database, kPieces, options);
    for (const Tier tier : order) {
      const db::TierReader* reader = database.find(game, tier);
      std::vector<ValueCode>& values = codes[tier];
      values.resize(game.size(tier));
      for (Index i = 0; i < values.size(); ++i)
        values[i] = game.unrank(tier, i) ? reader->code(i) : kHoleCode;
    }
  }
};

template <class G>
Built<G>& built() {
  static Built<G> databases;
  return databases;
}

// Copies the built files into dir and runs `gamesolver compress` on them in process.
template <class G>
void compress(const fs::path& dir, Encoding encoding, const std::string& dictionary, bool copy = true) {
  if (copy)
    fs::copy(built<G>().dir.path(), dir, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  const auto service = app::find_game(std::string(G::kName)).make("", {});
  app::CommonOptions options;
  options.data = dir;
  options.quiet = true;
  options.threads = 2;
  app::CompressRequest request;
  request.pieces = Built<G>::kPieces;
  request.encoding = db::encoding_name(encoding);
  request.dictionary = dictionary;
  request.zstd_level = 3;  // fast; the benchmarks compress at 19
  service->compress(options, request, {});
}

// Bytes of every database and dictionary file under dir.
std::uint64_t total_bytes(const fs::path& dir) {
  std::uint64_t bytes = 0;
  for (const auto& [name, contents] : test::snapshot(dir, "")) bytes += contents.size();
  return bytes;
}

// Every index reads back its value (outcomes only in win/draw/loss files) through the
// readers of the retrograde engine and through probing; returns how many files use the
// game's dictionary.
template <class G>
int expect_same_values(const fs::path& dir, Encoding encoding) {
  const G& game = built<G>().game;
  db::Database database(db::Location::of(game, dir));
  db::ProberOptions small;  // blocks evicted and read again
  small.block_cache_bytes = 1 << 16;
  db::Prober prober(db::Location::of(game, dir), small);
  int shared = 0;
  for (const Tier tier : built<G>().order) {
    SCOPED_TRACE(game.tier_name(tier));
    const db::TierReader* reader = database.find(game, tier);
    EXPECT_NE(reader, nullptr);
    if (reader == nullptr) return shared;
    EXPECT_EQ(reader->header().encoding, encoding);
    shared += reader->header().codec == db::Codec::kZstdShared ? 1 : 0;
    std::uint64_t wrong = 0;
    const auto& codes = built<G>().codes.at(tier);
    for (Index i = 0; i < codes.size(); ++i) {
      if (codes[i] == kHoleCode) continue;
      const ValueCode want = encoding == Encoding::kDepth ? codes[i] : db::win_draw_loss(codes[i]);
      wrong += reader->code(i) != want ? 1 : 0;
      wrong += prober.value_code(game, tier, i) != std::optional(want) ? 1 : 0;
    }
    EXPECT_EQ(wrong, 0U);
    EXPECT_NO_THROW(reader->check(true));
  }
  return shared;
}

template <class G>
class GameDictionary : public ::testing::Test {};
using Games = ::testing::Types<jungle::Jungle, checkers::Checkers>;
TYPED_TEST_SUITE(GameDictionary, Games);

TYPED_TEST(GameDictionary, KeepsEveryValueAndMakesTheDatabasesSmaller) {
  for (const Encoding encoding : {Encoding::kDepth, Encoding::kWinDrawLoss}) {
    SCOPED_TRACE(db::encoding_name(encoding));
    TempDir per_tier;
    TempDir per_game;
    compress<TypeParam>(per_tier.path(), encoding, "tier");
    compress<TypeParam>(per_game.path(), encoding, "game");
    EXPECT_EQ(expect_same_values<TypeParam>(per_tier.path(), encoding), 0);
    const int shared = expect_same_values<TypeParam>(per_game.path(), encoding);
    EXPECT_EQ(test::files_named(per_game.path(), std::string(db::kDictionarySuffix)).size(),
              shared > 0 ? 1U : 0U);
    // The dictionary file counted. Checkers up to 3 pieces is too small for it to pay
    // (its files would shrink by less than the dictionary's size): it is not kept
    // (PaysOrIsNotKept); Jungle's 3-piece tiers gain.
    const std::uint64_t without = total_bytes(per_tier.path());
    const std::uint64_t with = total_bytes(per_game.path());
    if (std::is_same_v<TypeParam, jungle::Jungle>) {
      EXPECT_GT(shared, 0);
      EXPECT_LT(with, without);
    }
    std::cout << TypeParam::kName << " up to " << Built<TypeParam>::kPieces << " pieces, "
              << db::encoding_name(encoding) << ": " << without << " bytes with per-tier choice, " << with
              << " with the game dictionary\n";
  }
}

TYPED_TEST(GameDictionary, CompressingTwiceGivesTheSameFiles) {
  TempDir dir;
  compress<TypeParam>(dir.path(), Encoding::kDepth, "game");
  const auto first = test::snapshot(dir.path(), "");
  // The second run reads files that use the dictionary.
  compress<TypeParam>(dir.path(), Encoding::kDepth, "game", false);
  EXPECT_EQ(test::compare_snapshots(first, test::snapshot(dir.path(), "")), "");
  // Back to per-tier choice: the values stay.
  compress<TypeParam>(dir.path(), Encoding::kDepth, "tier", false);
  EXPECT_EQ(expect_same_values<TypeParam>(dir.path(), Encoding::kDepth), 0);
}

// A game dictionary is kept only if the files that chose it save more than its file's
// size; otherwise they are written again without it, as `--dictionary none` writes them.
TYPED_TEST(GameDictionary, PaysOrIsNotKept) {
  for (const Encoding encoding : {Encoding::kDepth, Encoding::kWinDrawLoss}) {
    SCOPED_TRACE(db::encoding_name(encoding));
    TempDir none;
    TempDir per_game;
    compress<TypeParam>(none.path(), encoding, "none");
    compress<TypeParam>(per_game.path(), encoding, "game");
    const auto dictionaries = test::files_named(per_game.path(), std::string(db::kDictionarySuffix));
    if (std::is_same_v<TypeParam, checkers::Checkers>) {
      EXPECT_TRUE(dictionaries.empty());
      EXPECT_EQ(test::compare_snapshots(test::snapshot(none.path(), ""), test::snapshot(per_game.path(), "")),
                "");
    } else {
      ASSERT_EQ(dictionaries.size(), 1U);
      EXPECT_GT(expect_same_values<TypeParam>(per_game.path(), encoding), 0);
      EXPECT_LT(total_bytes(per_game.path()), total_bytes(none.path()));
    }
  }
}

// After compress, the dictionary files of its encoding that no tier file names are gone;
// another encoding's are left alone.
TYPED_TEST(GameDictionary, UnnamedDictionariesAreRemoved) {
  const TypeParam& game = built<TypeParam>().game;
  TempDir dir;
  compress<TypeParam>(dir.path(), Encoding::kDepth, "game");
  const fs::path directory = db::Location::of(game, dir.path()).directory();
  const auto kept = test::files_named(dir.path(), std::string(db::kDictionarySuffix));
  {
    // The tier files name the dictionaries kept, and only those (checkers keeps none).
    const auto named = db::game_dictionaries_named(directory, Encoding::kDepth);
    ASSERT_TRUE(named.has_value());
    const std::set<std::uint64_t> distinct(named->begin(), named->end());
    EXPECT_EQ(distinct.size(), kept.size());
    for (const std::uint64_t checksum : distinct)
      EXPECT_TRUE(fs::exists(db::game_dictionary_path(directory, Encoding::kDepth, checksum)));
  }
  const fs::path stale = db::game_dictionary_path(directory, Encoding::kDepth, 0x0123456789abcdef);
  const fs::path other = db::game_dictionary_path(directory, Encoding::kWinDrawLoss, 0x0123456789abcdef);
  test::write_file(stale, "stale");
  test::write_file(other, "another encoding's");
  compress<TypeParam>(dir.path(), Encoding::kDepth, "game", false);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(other));
  EXPECT_EQ(test::files_named(dir.path(), std::string(db::kDictionarySuffix)).size(), kept.size() + 1);
  // Without the game dictionary, no file names it.
  compress<TypeParam>(dir.path(), Encoding::kDepth, "none", false);
  EXPECT_EQ(test::files_named(dir.path(), std::string(db::kDictionarySuffix)).size(), 1U);
  EXPECT_TRUE(fs::exists(other));
  EXPECT_EQ(expect_same_values<TypeParam>(dir.path(), Encoding::kDepth), 0);
  const auto named = db::game_dictionaries_named(directory, Encoding::kDepth);
  ASSERT_TRUE(named.has_value());
  EXPECT_TRUE(named->empty());
  // A tier file whose header is damaged might name any dictionary: none is removed.
  const auto tiers = test::files_named(dir.path(), ".gsdb");
  ASSERT_FALSE(tiers.empty());
  const fs::path damaged = dir.path() / tiers.front();
  std::string bytes = test::read_file(damaged);
  bytes[20] = static_cast<char>(bytes[20] ^ 1);
  test::write_file(damaged, bytes);
  EXPECT_FALSE(db::game_dictionaries_named(directory, Encoding::kDepth).has_value());
  test::write_file(stale, "stale");
  EXPECT_TRUE(db::remove_unnamed_game_dictionaries(directory, Encoding::kDepth).empty());
  EXPECT_TRUE(fs::exists(stale));
}

// Checkers up to 3 pieces keeps no game dictionary (PaysOrIsNotKept), so the damage is
// done to Jungle's.
template <class G>
class KeptGameDictionary : public ::testing::Test {};
using GamesKeepingDictionaries = ::testing::Types<jungle::Jungle>;
TYPED_TEST_SUITE(KeptGameDictionary, GamesKeepingDictionaries);

TYPED_TEST(KeptGameDictionary, DamagedDictionaryIsRefusedNamingIt) {
  const TypeParam& game = built<TypeParam>().game;
  TempDir dir;
  TempDir other;
  compress<TypeParam>(dir.path(), Encoding::kDepth, "game");
  compress<TypeParam>(other.path(), Encoding::kWinDrawLoss, "game");
  const auto dictionaries = test::files_named(dir.path(), std::string(db::kDictionarySuffix));
  const auto others = test::files_named(other.path(), std::string(db::kDictionarySuffix));
  ASSERT_EQ(dictionaries.size(), 1U);
  ASSERT_EQ(others.size(), 1U);
  const fs::path dictionary = dir.path() / dictionaries.front();
  const std::string good = test::read_file(dictionary);
  // A tier whose file uses the dictionary.
  std::optional<Tier> shared;
  {
    db::Database database(db::Location::of(game, dir.path()));
    for (const Tier tier : built<TypeParam>().order) {
      if (database.find(game, tier)->header().codec == db::Codec::kZstdShared) shared = tier;
    }
  }
  ASSERT_TRUE(shared.has_value());
  const fs::path tier_file = db::Location::of(game, dir.path()).file(game.tier_name(*shared));
  const auto& codes = built<TypeParam>().codes.at(*shared);
  Index index = 0;
  while (codes[index] == kHoleCode) ++index;

  auto expect_refused = [&](const std::string& damage) {
    SCOPED_TRACE(damage);
    db::Database database(db::Location::of(game, dir.path()));
    try {
      (void)database.find(game, *shared);
      ADD_FAILURE() << "opened";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(dictionary.string()), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(tier_file.string()), std::string::npos) << e.what();
    }
    db::Prober prober(db::Location::of(game, dir.path()));
    EXPECT_THROW((void)prober.value_code(game, *shared, index), Error);
    const auto service = app::find_game(std::string(TypeParam::kName)).make("", {});
    app::CommonOptions options;
    options.data = dir.path();
    options.quiet = true;
    app::VerifyRequest request;
    request.pieces = Built<TypeParam>::kPieces;
    request.checksums = true;
    // verify goes on past a tier it cannot read, and reports it.
    const app::VerifySummary summary = service->verify(options, request, {});
    EXPECT_FALSE(summary.ok());
    EXPECT_GE(summary.failed_tiers, 1);
    EXPECT_NE(summary.first_failure.find(dictionary.string()), std::string::npos) << summary.first_failure;
  };
  fs::remove(dictionary);
  expect_refused("deleted");
  test::write_file(dictionary, good.substr(0, good.size() - 1));
  expect_refused("truncated by a byte");
  test::write_file(dictionary, good.substr(0, 100));
  expect_refused("truncated in the header");
  for (const std::size_t offset :
       {std::size_t{20}, std::size_t{140}, good.size() / 2 + 128, good.size() - 1}) {
    std::string flipped = good;
    flipped[offset] = static_cast<char>(flipped[offset] ^ 4);
    test::write_file(dictionary, flipped);
    expect_refused("a bit flipped at " + std::to_string(offset));
  }
  test::write_file(dictionary, test::read_file(other.path() / others.front()));
  expect_refused("the win/draw/loss dictionary");
  // Put back, it is read again.
  test::write_file(dictionary, good);
  db::Database database(db::Location::of(game, dir.path()));
  EXPECT_EQ(database.find(game, *shared)->code(index), codes[index]);
}

}  // namespace
}  // namespace gs
