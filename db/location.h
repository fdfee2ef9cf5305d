#pragma once
// Where the databases of one game variant live:
// <data>/<game>/<variant>[,<rule options>]/<tier name>.gsdb
#include <filesystem>
#include <string>

#include "core/game.h"
#include "db/tier_file.h"

namespace gs::db {

struct Location {
  std::filesystem::path data;
  std::string game;
  std::string variant;
  std::string rules;

  template <Game G>
  static Location of(const G& game, const std::filesystem::path& data) {
    return {data, std::string(G::kName), game.variant(), game.rule_text()};
  }
  [[nodiscard]] std::filesystem::path directory() const {
    return data / game / (rules.empty() ? variant : variant + "," + rules);
  }
  [[nodiscard]] std::filesystem::path file(const std::string& tier_name) const {
    return directory() / (tier_name + std::string(kFileSuffix));
  }
  [[nodiscard]] Expected expected(Tier tier, std::uint64_t positions) const {
    Expected expected;
    expected.game = game;
    expected.variant = variant;
    expected.rules = rules;
    expected.tier = tier;
    expected.positions = positions;
    return expected;
  }
};

}  // namespace gs::db
