#pragma once
// Real databases for the tests of db/: the tiers of every game present, solved once per
// test executable and kept in memory, written out as files in whatever format a test
// asks for. A new game adds a TestTiers specialization and its type to DatabaseGames.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/tier_file.h"
#include "games/jungle/jungle.h"
#include "games/morris/morris.h"
#include "retro/build.h"
#include "tests/brute_force.h"

namespace gs::test {

// The tiers a game's db tests use: small ones for fast tests (a few seconds under the
// sanitizers), and ones with four pieces (or the game's equivalent) for slow tests.
template <class G>
struct TestTiers;

template <>
struct TestTiers<jungle::Jungle> {
  // A three-piece tier and its children (captures lead into two-piece tiers).
  static std::vector<std::string> fast() { return {"RD-d"}; }
  static std::vector<std::string> slow() { return {"RE-dt"}; }
};

template <>
struct TestTiers<morris::Morris> {
  // Nine Men's Morris, 3 stones each, both flying (every capture ends the game), and
  // the 4-against-3 movement tier with its child.
  static std::vector<std::string> fast() { return {"3-3-0-0"}; }
  static std::vector<std::string> slow() { return {"4-3-0-0"}; }
};

using DatabaseGames = ::testing::Types<jungle::Jungle, morris::Morris>;

// Calls body.template operator()<G>() for every game of DatabaseGames (for tests that
// cannot be typed: the slow ones, whose ctest label comes from the suite's name).
template <class Body>
void for_each_game(Body&& body) {
  [&]<class... Gs>(::testing::Types<Gs...>*) {
    (body.template operator()<Gs>(), ...);
  }(static_cast<DatabaseGames*>(nullptr));
}

inline db::ProberOptions prober_options(std::uint64_t block_cache_bytes,
                                        std::size_t position_cache_entries = 1024) {
  db::ProberOptions options;
  options.block_cache_bytes = block_cache_bytes;
  options.position_cache_entries = position_cache_entries;
  return options;
}

template <class G>
struct SolvedTiers {
  std::vector<Tier> order;                       // children first
  std::map<Tier, std::vector<ValueCode>> codes;  // kHoleCode at holes
  std::map<Tier, db::TierHeader> headers;        // game, rules and tier filled in
};

// Builds the closure of the named tiers into a temporary directory (format v2 as build
// writes it) and reads every code back with holes restored from the game.
template <class G>
SolvedTiers<G> solve_tiers(const G& game, const std::vector<std::string>& names,
                           const std::filesystem::path& dir) {
  std::vector<Tier> roots;
  for (const std::string& name : names) roots.push_back(game.parse_tier(name));
  SolvedTiers<G> solved;
  solved.order = closure(game, roots);
  const db::Location location = db::Location::of(game, dir);
  db::Database database(location);
  for (const Tier tier : solved.order) {
    db::TierHeader header;
    header.game = location.game;
    header.variant = location.variant;
    header.rules = location.rules;
    header.tier = tier;
    header.tier_name = game.tier_name(tier);
    retro::SolveOptions options;
    options.threads = 2;
    options.quiet = true;
    std::vector<ValueCode> codes = retro::TierSolver<G>(game, database, tier, options).solve();
    db::write_tier(location.file(header.tier_name), header, codes);
    solved.codes[tier] = std::move(codes);
    solved.headers[tier] = header;
  }
  return solved;
}

// Writes every solved tier under dir with the given options (v1 when v1 is set).
template <class G>
void write_tiers(const G& game, const SolvedTiers<G>& solved, const std::filesystem::path& dir,
                 const db::WriteOptions& options, bool v1 = false) {
  const db::Location location = db::Location::of(game, dir);
  for (const Tier tier : solved.order) {
    const std::filesystem::path path = location.file(game.tier_name(tier));
    if (v1) {
      db::write_tier_v1(path, solved.headers.at(tier), solved.codes.at(tier));
    } else {
      db::write_tier(path, solved.headers.at(tier), solved.codes.at(tier), options);
    }
  }
}

}  // namespace gs::test
