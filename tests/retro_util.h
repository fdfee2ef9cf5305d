#pragma once
// Building databases in the tests and comparing them with the brute force
// (tests/brute_force.h), for any game.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/game.h"
#include "db/database.h"
#include "retro/build.h"
#include "tests/brute_force.h"
#include "tests/test_util.h"

namespace gs::test {

inline retro::BuildOptions build_options(int threads) {
  retro::BuildOptions options;
  options.solve.threads = threads;
  options.solve.quiet = true;
  return options;
}

template <Game G>
std::vector<retro::TierReport> build(const G& game, const std::filesystem::path& data, int limit,
                                     int threads) {
  db::Database database(db::Location::of(game, data));
  return retro::build(game, database, limit, build_options(threads));
}

// Every index of every tier the brute force solved holds the same value code in the
// databases (holes included).
template <Game G>
void expect_database_equals(const G& game, const std::filesystem::path& data, const BruteForceResult& brute) {
  db::Database database(db::Location::of(game, data));
  Failures failures;
  std::uint64_t compared = 0;
  for (const auto& [tier, codes] : brute.codes) {
    const db::TierReader* reader = database.find(game, tier);
    ASSERT_NE(reader, nullptr) << game.tier_name(tier) << " is not built";
    ASSERT_EQ(reader->header().positions, codes.size());
    for (Index i = 0; i < codes.size(); ++i) {
      ++compared;
      // Holes are don't-care in files that fill them (the game tells a hole, not the file).
      if (codes[i] == kHoleCode && reader->header().holes_filled) continue;
      const ValueCode stored = reader->code(i);
      if (stored == codes[i]) continue;
      const auto pos = game.unrank(tier, i);
      auto text = [](ValueCode code) {
        return code == kHoleCode ? std::string("hole") : Value::from_code(code).to_string();
      };
      failures.add(game.tier_name(tier) + " index " + std::to_string(i) + " " +
                   (pos ? game.position_text(*pos) : "(hole)") + ": database " + text(stored) +
                   ", brute force " + text(codes[i]));
    }
  }
  EXPECT_GT(compared, 0U);
  GS_EXPECT_NO_FAILURES(failures);
}

// How many indices differ between two solutions of the same tiers.
inline std::uint64_t differences(const BruteForceResult& a, const BruteForceResult& b) {
  std::uint64_t count = 0;
  for (const auto& [tier, codes] : a.codes) {
    const auto& other = b.codes.at(tier);
    for (std::size_t i = 0; i < codes.size(); ++i) count += codes[i] != other[i] ? 1 : 0;
  }
  return count;
}

}  // namespace gs::test
