// The generic game battery (tests/game_battery.h) over every registered game, the
// test-only ones included, with no per-game wiring: the list of game types comes from
// the build (gamesolver_link_games, cmake/games.cmake). Each game's own test file adds
// exhaustive passes and its published facts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/registry.h"
#include "registered_game_types.h"
#include "tests/game_battery.h"

namespace gs {
namespace {

template <class G>
class Battery : public ::testing::Test {
 protected:
  // The default variant, as the registry makes it.
  G game_ = G::from_options("", {});
  // The smallest tiers: up to three pieces (for a game whose tiers count something else,
  // what its --pieces 3 means).
  std::vector<Tier> tiers_ = game_.tiers(3);
};

using Games = ::testing::Types<GAMESOLVER_GAME_TYPES>;
TYPED_TEST_SUITE(Battery, Games);

TYPED_TEST(Battery, IsRegisteredUnderItsName) {
  const app::GameEntry& entry = app::find_game(std::string(TypeParam::kName));
  EXPECT_EQ(entry.description, std::string(TypeParam::kDescription));
  EXPECT_EQ(entry.extended, HasStartFamily<TypeParam>);
  const auto service = entry.make("", {});
  EXPECT_EQ(service->label().game, std::string(TypeParam::kName));
  EXPECT_THROW((void)entry.make("no-such-variant", {}), Error);
}

TYPED_TEST(Battery, StartPosition) {
  test::Failures failures;
  test::check_start(this->game_, failures);
  EXPECT_EQ(failures.count(), 0U) << failures.text();
}

TYPED_TEST(Battery, RankAndUnrankAreInversesSampled) {
  ASSERT_FALSE(this->tiers_.empty());
  test::Failures failures;
  const test::IndexCounts counts = test::check_tiers_sampled(this->game_, this->tiers_, 4000, 1, 2, failures);
  EXPECT_EQ(failures.count(), 0U) << failures.text();
  EXPECT_GT(counts.positions, 0U);
}

TYPED_TEST(Battery, MovesAndUnmovesAgreeAndTextRoundTrips) {
  test::Failures failures;
  const auto positions = test::sample_positions(this->game_, this->tiers_, 40, 2);
  ASSERT_FALSE(positions.empty());
  for (const auto& pos : positions) {
    test::check_moves_and_unmoves(this->game_, pos, failures);
    test::check_text_round_trip(this->game_, pos, failures);
  }
  EXPECT_EQ(failures.count(), 0U) << failures.text();
}

// A game that ranks its moves' successors itself (core/game.h, RanksMovesLeavingTier)
// gives what playing and ranking them gives.
TYPED_TEST(Battery, RankedMovesAreThePlayedMoves) {
  if constexpr (RanksMovesLeavingTier<TypeParam>) {
    test::Failures failures;
    const auto positions = test::sample_positions(this->game_, this->tiers_, 40, 3);
    ASSERT_FALSE(positions.empty());
    for (const auto& pos : positions) test::check_ranked_moves(this->game_, pos, failures);
    EXPECT_EQ(failures.count(), 0U) << failures.text();
  }
}

}  // namespace
}  // namespace gs
