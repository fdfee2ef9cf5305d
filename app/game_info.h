#pragma once
// What the explorer (server/, web/) is told about a game besides positions: its variant,
// start position and board, and which of its databases are present on disk.
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "db/database.h"
#include "db/tier_file.h"

namespace gs::app {

inline nlohmann::json board_json(const Board& board) {
  nlohmann::json pieces = nlohmann::json::array();
  for (const BoardPiece& piece : board.pieces) {
    pieces.push_back({{"letter", std::string(1, piece.letter)},
                      {"name", piece.name},
                      {"side", piece.side},
                      {"strength", piece.strength}});
  }
  nlohmann::json marks = nlohmann::json::array();
  for (const BoardMark& mark : board.marks) {
    marks.push_back({{"square", mark.square}, {"kind", mark.kind}, {"side", mark.side}});
  }
  nlohmann::json points = nlohmann::json::array();
  for (const BoardPoint& point : board.points) {
    points.push_back({{"name", point.name}, {"file", point.file}, {"rank", point.rank}});
  }
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& [from, to] : board.lines) lines.push_back(nlohmann::json::array({from, to}));
  return {{"kind", board.kind},   {"files", board.files}, {"ranks", board.ranks},
          {"sides", board.sides}, {"pieces", pieces},     {"marks", marks},
          {"points", points},     {"lines", lines},       {"numbered", board.numbered}};
}

template <Game G>
nlohmann::json describe_game(const G& game) {
  nlohmann::json out = {{"game", std::string(G::kName)},
                        {"variant", game.variant()},
                        {"rules", game.rule_text()},
                        {"start", game.position_text(game.start())}};
  if constexpr (HasBoard<G>) {
    out["board"] = board_json(game.board());
  } else {
    out["board"] = nullptr;
  }
  return out;
}

// The tiers whose files are present (by name; their contents are checked when they are
// first probed), and the largest piece count up to which every tier is present (for a
// game of one tier, its piece count once that tier is there).
template <Game G>
nlohmann::json databases_present(const G& game, const db::Location& location) {
  std::set<Tier> present;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(location.directory(), error)) {
    const std::filesystem::path& path = entry.path();
    if (path.extension() != db::kFileSuffix || !entry.is_regular_file(error)) continue;
    const std::string name = path.stem().string();
    try {
      const Tier tier = game.parse_tier(name);
      if (game.tier_name(tier) == name) present.insert(tier);
    } catch (const Error&) {
      continue;  // not a tier of this game
    }
  }
  nlohmann::json tiers = nlohmann::json::array();
  std::vector<Tier> sorted(present.begin(), present.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](Tier a, Tier b) { return game.tier_pieces(a) < game.tier_pieces(b); });
  for (const Tier tier : sorted)
    tiers.push_back({{"tier", game.tier_name(tier)}, {"pieces", game.tier_pieces(tier)}});
  // Piece counts grow until one lacks a tier or adds none (the game has no larger tiers).
  nlohmann::json complete = nullptr;
  std::size_t previous = 0;
  for (int pieces = 1; pieces <= 64 && !present.empty(); ++pieces) {
    const std::vector<Tier> all = game.tiers(pieces);
    if (!std::all_of(all.begin(), all.end(), [&](Tier tier) { return present.contains(tier); })) break;
    // A tier may hold more pieces than asked for (a game of one tier holds them all).
    int most = pieces;
    for (const Tier tier : all) most = std::max(most, game.tier_pieces(tier));
    if (!all.empty() && all.size() > previous) complete = most;
    if (!all.empty() && all.size() == previous) break;
    previous = all.size();
  }
  return {{"directory", location.directory().filename().string()},
          {"tiers", tiers},
          {"complete_pieces", complete}};
}

}  // namespace gs::app
