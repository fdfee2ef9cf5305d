// Derivable don't-cares (db/derivable.h, docs/FORMAT.md "Don't-care positions"): checkers
// databases written with the capture positions as don't-cares answer every position
// exactly as databases that store every value (the Prober's probe by position and by
// index, the readers of the retrograde engine and verify), verify passes, the files say
// so in their header (format v3, which readers of v2 refuse), and damage is still
// detected, never a wrong value.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "db/database.h"
#include "db/derivable.h"
#include "db/prober.h"
#include "db/tier_file.h"
#include "games/checkers/checkers.h"
#include "retro/build.h"
#include "retro/verify.h"
#include "tests/test_util.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using checkers::Checkers;
using test::TempDir;

// Builds checkers up to `pieces` twice: with the derivable positions as don't-cares
// (what build writes) and with every value stored.
struct TwoBuilds {
  Checkers game;
  TempDir dont_care;
  TempDir stored;
  std::vector<Tier> order;

  explicit TwoBuilds(int pieces) {
    order = retro::tiers_in_order(game, pieces);
    for (const bool derivable : {true, false}) {
      db::Database database(db::Location::of(game, derivable ? dont_care.path() : stored.path()));
      retro::BuildOptions options;
      options.solve.threads = 2;
      options.solve.quiet = true;
      options.write.derivable = derivable ? db::derivable_positions(game) : nullptr;
      retro::build(game, database, pieces, options);
    }
  }
};

// The three-piece builds, made once for the fast tests (DamageIsDetected puts back every
// file it damages).
TwoBuilds& three_pieces() {
  static TwoBuilds builds(3);
  return builds;
}

// Every position of every tier: the same value and depth from both builds, through the
// Prober (by position, by index) and through the readers the retrograde engine uses.
void expect_same_answers(TwoBuilds& builds) {
  const Checkers& game = builds.game;
  db::Prober with(db::Location::of(game, builds.dont_care.path()));
  db::Prober without(db::Location::of(game, builds.stored.path()));
  db::Database with_database(db::Location::of(game, builds.dont_care.path()));
  std::uint64_t positions = 0;
  std::uint64_t derivable = 0;
  std::uint64_t filled = 0;  // don't-cares whose stored value is not their value
  std::uint64_t v3 = 0;
  for (const Tier tier : builds.order) {
    const db::TierReader* reader = with_database.find(game, tier);
    ASSERT_NE(reader, nullptr);
    v3 += reader->header().version == db::kFormatVersion3 ? 1 : 0;
    EXPECT_EQ(reader->header().derivable_filled, reader->header().version == db::kFormatVersion3);
    for (Index i = 0; i < game.size(tier); ++i) {
      const auto pos = game.unrank(tier, i);
      if (!pos) continue;
      ++positions;
      const std::optional<Value> want = without.probe(game, *pos);
      ASSERT_TRUE(want.has_value());
      const std::optional<Value> got = with.probe(game, *pos);
      ASSERT_EQ(got, want) << game.position_text(*pos);
      ASSERT_EQ(with.value_code(game, tier, i), std::optional(want->code())) << game.position_text(*pos);
      ASSERT_EQ(with.code(game, tier, i), std::optional(want->code())) << game.position_text(*pos);
      ASSERT_EQ(reader->code(i), want->code()) << game.position_text(*pos);
      if (game.derivable(*pos)) {
        ++derivable;
        filled += with.stored_code(game, tier, i) != std::optional(want->code()) ? 1 : 0;
      }
    }
  }
  EXPECT_GT(derivable, positions / 20) << "few capture positions?";
  EXPECT_GT(filled, 0U) << "no don't-care holds another value than its own";
  EXPECT_GT(v3, 0U);
}

TEST(DontCare, ProbesAgreeWithStoredValuesUpToThreePieces) {
  TwoBuilds& builds = three_pieces();
  expect_same_answers(builds);
}

TEST(DontCare, VerifyPassesAndCountsAreTheRealValues) {
  TwoBuilds& builds = three_pieces();
  const Checkers& game = builds.game;
  db::Database with(db::Location::of(game, builds.dont_care.path()));
  db::Database without(db::Location::of(game, builds.stored.path()));
  for (const Tier tier : builds.order) {
    const auto found = retro::verify_tier(game, with, tier, 2, true);
    EXPECT_TRUE(found.consistent()) << game.tier_name(tier) << ": " << found.first.at(0).position
                                    << " stored " << found.first.at(0).stored << ", expected "
                                    << found.first.at(0).expected;
    // The header's counts are of the real values, don't-cares included.
    const db::TierHeader& a = with.find(game, tier)->header();
    const db::TierHeader& b = without.find(game, tier)->header();
    EXPECT_EQ(a.wins, b.wins);
    EXPECT_EQ(a.draws, b.draws);
    EXPECT_EQ(a.losses, b.losses);
    EXPECT_EQ(a.longest_win, b.longest_win);
  }
}

// A win/draw/loss copy answers don't-cares with their outcome (depth 0).
TEST(DontCare, WinDrawLossFilesDeriveOutcomes) {
  TwoBuilds& builds = three_pieces();
  const Checkers& game = builds.game;
  TempDir wdl;
  db::Database source(db::Location::of(game, builds.dont_care.path()));
  const db::Location location = db::Location::of(game, wdl.path());
  db::WriteOptions options;
  options.encoding = db::Encoding::kWinDrawLoss;
  options.derivable = db::derivable_positions(game);
  for (const Tier tier : builds.order) {
    const db::TierReader* reader = source.find(game, tier);
    std::vector<ValueCode> codes(game.size(tier));
    for (Index i = 0; i < codes.size(); ++i) codes[i] = reader->code(i);
    db::write_tier(location.file(game.tier_name(tier)), reader->header(), codes, options);
  }
  db::Prober outcomes(location);
  db::Prober depths(db::Location::of(game, builds.stored.path()));
  for (const Tier tier : builds.order) {
    for (Index i = 0; i < game.size(tier); ++i) {
      const auto pos = game.unrank(tier, i);
      const Value want = db::without_depth(*depths.probe(game, *pos));
      ASSERT_EQ(outcomes.probe(game, *pos), std::optional(want)) << game.position_text(*pos);
    }
  }
}

// Damage to a file with don't-cares: an error naming the file, or the right values;
// never a wrong one. A reader that knows only version 2 refuses the file (its header
// says version 3).
TEST(DontCare, DamageIsDetected) {
  TwoBuilds& builds = three_pieces();
  const Checkers& game = builds.game;
  const db::Location location = db::Location::of(game, builds.dont_care.path());
  db::Prober truth(db::Location::of(game, builds.stored.path()));
  std::mt19937_64 random(7);
  int refused = 0;
  int checked = 0;
  for (const Tier tier : builds.order) {
    const fs::path path = location.file(game.tier_name(tier));
    const std::string good = test::read_file(path);
    if (good[8] != static_cast<char>(db::kFormatVersion3)) continue;
    if (++checked > 6) break;
    for (int trial = 0; trial < 24; ++trial) {
      std::string bad = good;
      const std::size_t offset = trial == 0 ? 8 : random() % bad.size();  // the version first
      bad[offset] = static_cast<char>(bad[offset] ^ (1 << (random() % 8)));
      test::write_file(path, bad);
      try {
        db::Database database(location);
        const db::TierReader* reader = database.find(game, tier);
        for (Index i = 0; i < game.size(tier); ++i) {
          const auto pos = game.unrank(tier, i);
          if (!pos) continue;
          ASSERT_EQ(reader->code(i), truth.probe(game, *pos)->code()) << "offset " << offset;
        }
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
        ++refused;
      }
    }
    test::write_file(path, good);
  }
  EXPECT_GT(checked, 0);
  EXPECT_GT(refused, 0);
}

TEST(DontCareSlow, ProbesAgreeWithStoredValuesUpToFourPieces) {
  TwoBuilds builds(4);
  expect_same_answers(builds);
}

}  // namespace
}  // namespace gs
