#pragma once
// `match`: games between two players (docs/ULTRA.md), to measure what the ultra-strong
// player gains over the strong one against a fallible opponent.
//
// Players: ultra (the best move by the ultra databases, docs/ULTRA.md; ties at random;
// ultra:ratio and ultra:stones name the heuristic, plain ultra takes ratio where built),
// strong (a uniformly random move among those of the best strong value), random (any
// legal move) and alphabeta:D (a depth-D negamax alpha-beta search on the game's
// heuristic evaluation, core/game.h evaluate(); no database; ties at random).
//
// Starts: the game's start, or random drawn positions of the databases (--from
// random-draws): a tier of those up to --pieces drawn by its share of the indices, an
// index in it, kept when it is a position that is not over and that the strong
// databases hold drawn. Each start is played twice, each player moving first once; the
// first player named (--white) is "A".
//
// Adjudication: a game where kQuietPlies plies follow each other within one tier (for
// the mill games: no stone placed and none removed) is drawn (Gévay & Danner's 50-move
// rule), as is one of kMaxPlies plies. Results are counted from A's
// side with 95 % confidence intervals (Wilson's for the win and loss rates, the normal
// approximation for the score).
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "app/pdn_game.h"
#include "app/requests.h"
#include "app/results.h"
#include "core/error.h"
#include "core/game.h"
#include "core/pdn.h"
#include "db/database.h"
#include "retro/build.h"
#include "retro/ultra_probe.h"

namespace gs::app {

inline constexpr int kQuietPlies = 50;
inline constexpr int kMaxPlies = 2000;

// A 95 % interval for a proportion (Wilson score interval).
inline std::pair<double, double> wilson_interval(std::uint64_t hits, std::uint64_t n) {
  if (n == 0) return {0, 1};
  const double z = 1.959963984540054;
  const double p = static_cast<double>(hits) / static_cast<double>(n);
  const double nn = static_cast<double>(n);
  const double centre = (p + z * z / (2 * nn)) / (1 + z * z / nn);
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / (1 + z * z / nn);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

// The ultra player's prober, for games with sectors.
template <Game G>
struct UltraSlot {
  using type = int;
};
template <Game G>
requires HasSectors<G>
struct UltraSlot<G> {
  using type = std::unique_ptr<retro::UltraProber<G>>;
};

template <Game G>
class MatchPlayer {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;

  MatchPlayer(const G& game, const std::string& spec, db::Database& database, std::mt19937_64& random)
      : game_(game), spec_(spec), database_(database), random_(random) {
    if (spec == "ultra" || spec.starts_with("ultra:")) {
      if constexpr (HasSectors<G>) {
        std::optional<retro::UltraHeuristic> heuristic = retro::ultra_available(database.location());
        if (spec != "ultra") heuristic = retro::parse_heuristic(spec.substr(6));
        if (!heuristic)
          fail("player ultra: no ultra databases in {} (gamesolver build ... --ultra ratio)",
               database.location().directory().string());
        ultra_ = std::make_unique<retro::UltraProber<G>>(game, database.location(), *heuristic);
      } else {
        fail("player ultra: {} has no ultra databases", G::kName);
      }
    } else if (spec.starts_with("alphabeta:")) {
      if constexpr (!HasEvaluation<G>) fail("player {}: {} has no evaluation", spec, G::kName);
      const std::string depth = spec.substr(10);
      try {
        std::size_t used = 0;
        depth_ = std::stoi(depth, &used);
        if (used != depth.size()) depth_ = -1;
      } catch (const std::exception&) {
        depth_ = -1;
      }
      if (depth_ < 1 || depth_ > 12) fail("player {}: the depth must be a number from 1 to 12", spec);
    } else if (spec != "strong" && spec != "random") {
      fail(
          "unknown player '{}': expected ultra, ultra:ratio, ultra:stones, strong, random or alphabeta:DEPTH",
          spec);
    }
  }

  [[nodiscard]] const std::string& name() const { return spec_; }
  [[nodiscard]] std::string heuristic() const {
    if constexpr (HasSectors<G>) {
      if (ultra_) return std::string(retro::heuristic_name(ultra_->heuristic()));
    }
    return {};
  }

  Move choose(const Position& pos) {
    MoveList<G> moves;
    game_.moves(pos, moves);
    std::vector<std::size_t> best;  // indices of the moves tied best
    if (spec_ == "random") {
      for (std::size_t i = 0; i < moves.size(); ++i) best.push_back(i);
    } else if (spec_ == "strong") {
      std::optional<Value> top;
      for (std::size_t i = 0; i < moves.size(); ++i) {
        const Value v = strong_value(game_.play(pos, moves[i]));
        if (!top || v.better_than(*top)) {
          top = v;
          best.clear();
        }
        if (v == *top) best.push_back(i);
      }
    } else if (depth_ > 0) {
      if constexpr (HasEvaluation<G>) {
        int top = std::numeric_limits<int>::min();
        for (std::size_t i = 0; i < moves.size(); ++i) {
          const int score = -search(game_.play(pos, moves[i]), depth_ - 1, -kInfinity, kInfinity);
          if (score > top) {
            top = score;
            best.clear();
          }
          if (score == top) best.push_back(i);
        }
      }
    } else {
      if constexpr (HasSectors<G>) {
        std::optional<retro::UltraValue> top;
        for (std::size_t i = 0; i < moves.size(); ++i) {
          const std::optional<retro::UltraValue> v = ultra_->move_value(pos, game_.play(pos, moves[i]));
          if (!v)
            fail("player ultra: a move of {} leads out of the ultra databases", game_.position_text(pos));
          if (!top || v->better_than(*top)) {
            top = v;
            best.clear();
          }
          if (*v == *top) best.push_back(i);
        }
      }
    }
    std::uniform_int_distribution<std::size_t> pick(0, best.size() - 1);
    return moves[best[pick(random_)]];
  }

 private:
  static constexpr int kInfinity = 1 << 28;
  static constexpr int kWin = 1 << 24;

  Value strong_value(const Position& next) {
    const std::optional<Value> v = db::probe(game_, database_, next);
    if (!v) fail("player strong: {} is not in the databases", game_.position_text(next));
    return v->before_move();
  }

  // Negamax alpha-beta on the evaluation; an ended game scores its outcome, sooner wins higher.
  int search(const Position& pos, int depth, int alpha, int beta) {
    if (const std::optional<Value> over = game_.terminal(pos)) return outcome_score(*over, depth);
    MoveList<G> moves;
    game_.moves(pos, moves);
    if (moves.empty()) return outcome_score(game_.no_move_value(), depth);
    if (depth == 0) {
      if constexpr (HasEvaluation<G>) return game_.evaluate(pos);
      return 0;
    }
    int best = -kInfinity;
    for (const Move& move : moves) {
      const int score = -search(game_.play(pos, move), depth - 1, -beta, -alpha);
      best = std::max(best, score);
      alpha = std::max(alpha, score);
      if (alpha >= beta) break;
    }
    return best;
  }
  static int outcome_score(Value value, int depth) {
    if (value.is_win()) return kWin + depth;
    if (value.is_loss()) return -kWin - depth;
    return 0;
  }

  const G& game_;
  std::string spec_;
  db::Database& database_;
  std::mt19937_64& random_;
  int depth_ = 0;
  typename UltraSlot<G>::type ultra_{};
};

// The tier of a position, by which the quiet-move rule tells a placement or a removal.
template <Game G>
Tier material_tier(const G& game, const typename G::Position& pos) {
  if (game.terminal(pos)) return std::numeric_limits<Tier>::max();
  return game.rank(pos).tier;
}

template <Game G>
MatchResult match(const G& game, const CommonOptions& options, const MatchRequest& request) {
  if (request.games < 1) fail("--games must be at least 1");
  db::Database database(db::Location::of(game, options.data));
  std::mt19937_64 random(request.seed);
  MatchPlayer<G> a(game, request.white, database, random);
  MatchPlayer<G> b(game, request.black, database, random);
  MatchResult result;
  result.white = request.white;
  result.black = request.black;
  result.white_heuristic = a.heuristic();
  result.black_heuristic = b.heuristic();
  result.from = request.from;
  result.seed = request.seed;
  const auto start_time = std::chrono::steady_clock::now();
  // Random drawn positions of the databases.
  std::vector<Tier> tiers;
  std::vector<Index> cumulative;
  if (request.from == "random-draws") {
    Index total = 0;
    for (const Tier tier : retro::tiers_in_order(game, request.pieces)) {
      if (database.find(game, tier) == nullptr) continue;
      tiers.push_back(tier);
      total += game.size(tier);
      cumulative.push_back(total);
    }
    if (tiers.empty())
      fail("match: no databases up to --pieces {} in {}", request.pieces, options.data.string());
  } else if (request.from != "start") {
    fail("--from must be start or random-draws, not '{}'", request.from);
  }
  auto random_draw = [&]() -> typename G::Position {
    std::uniform_int_distribution<Index> pick(0, cumulative.back() - 1);
    for (int attempt = 0; attempt < 10000000; ++attempt) {
      const Index at = pick(random);
      const std::size_t t = static_cast<std::size_t>(
          std::upper_bound(cumulative.begin(), cumulative.end(), at) - cumulative.begin());
      const Index index = at - (t == 0 ? 0 : cumulative[t - 1]);
      const auto pos = game.unrank(tiers[t], index);
      if (!pos || game.terminal(*pos)) continue;
      MoveList<G> moves;
      game.moves(*pos, moves);
      if (moves.empty()) continue;
      const std::optional<Value> v = db::probe(game, database, *pos);
      if (v && v->is_draw()) return *pos;
    }
    fail("match: found no drawn position in the databases");
  };
  std::string pdn;
  typename G::Position start = game.start();
  for (int g = 0; g < request.games; ++g) {
    const bool a_first = g % 2 == 0;
    if (g % 2 == 0 && request.from == "random-draws") start = random_draw();
    MatchPlayer<G>& first = a_first ? a : b;
    MatchPlayer<G>& second = a_first ? b : a;
    PlayedGame<G> played;
    played.start = start;
    played.positions.push_back(start);
    played.second_half = side_to_move<G>(start) != side_to_move<G>(game.start());
    int quiet = 0;
    std::string adjudicated;
    Tier material = material_tier(game, start);
    for (;;) {
      const typename G::Position& pos = played.positions.back();
      if (result_of(game, pos) != "*") break;
      if (quiet >= kQuietPlies) {
        adjudicated = "quiet moves";
        break;
      }
      if (played.moves.size() >= static_cast<std::size_t>(kMaxPlies)) {
        adjudicated = "too long";
        break;
      }
      MatchPlayer<G>& mover = played.moves.size() % 2 == 0 ? first : second;
      const typename G::Move move = mover.choose(pos);
      played.moves.push_back(move);
      played.move_texts.push_back(game.move_text(pos, move));
      const typename G::Position next = game.play(pos, move);
      played.positions.push_back(next);
      const Tier now = material_tier(game, next);
      quiet = now == material ? quiet + 1 : 0;
      material = now;
    }
    // The outcome for the side that moved first.
    const typename G::Position& last = played.positions.back();
    int first_score = 0;  // +1 win, 0 draw, -1 loss
    if (adjudicated.empty()) {
      std::optional<Value> over = game.terminal(last);
      if (!over) over = game.no_move_value();
      const bool first_to_move = played.moves.size() % 2 == 0;
      if (!over->is_draw()) first_score = (over->is_win() == first_to_move) ? 1 : -1;
    } else {
      ++result.adjudicated;
    }
    const int a_score = a_first ? first_score : -first_score;
    (a_score > 0 ? result.wins : a_score < 0 ? result.losses : result.draws) += 1;
    (a_first ? result.first_wins : result.second_wins) += a_score > 0 ? 1 : 0;
    (a_first ? result.first_games : result.second_games) += 1;
    result.plies += played.moves.size();
    if (request.pdn) {
      pdn::Game record;
      record.set_tag("Event", fmt::format("gamesolver match {} {}", G::kName, game.variant()));
      record.set_tag("Round", std::to_string(g + 1));
      record.set_tag("White", first.name());
      record.set_tag("Black", second.name());
      played.record = record;
      pdn::Game out = record_of(game, played);
      out.result = first_score > 0 ? "1-0" : first_score < 0 ? "0-1" : "1/2-1/2";
      out.set_tag("Result", out.result);
      if (!adjudicated.empty()) out.set_tag("Termination", "adjudicated draw: " + adjudicated);
      pdn += pdn::write(out, 1, played.second_half) + "\n";
    }
  }
  result.games = static_cast<std::uint64_t>(request.games);
  result.win_interval = wilson_interval(result.wins, result.games);
  result.loss_interval = wilson_interval(result.losses, result.games);
  const double n = static_cast<double>(result.games);
  result.score = (static_cast<double>(result.wins) + 0.5 * static_cast<double>(result.draws)) / n;
  // The score's sample variance: outcomes 1, 1/2, 0.
  const double mean_square =
      (static_cast<double>(result.wins) + 0.25 * static_cast<double>(result.draws)) / n;
  const double variance = std::max(0.0, mean_square - result.score * result.score);
  const double half = 1.959963984540054 * std::sqrt(variance / n);
  result.score_interval = {std::max(0.0, result.score - half), std::min(1.0, result.score + half)};
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
  if (request.pdn) pdn::write_file(*request.pdn, pdn);
  return result;
}

}  // namespace gs::app
