// The service layer (app/) and the command line's printing (cli/) in process, without
// spawning the binary: each command's result is read as a struct, and printed through
// cli::run into strings. Tic-tac-toe (tests/games/tictactoe), a game added through the
// steps of docs/ADDING_A_GAME.md and registered for the tests only, is solved whole and
// checked against a brute-force search of every position.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/build_progress.h"
#include "app/registry.h"
#include "cli/commands.h"
#include "core/error.h"
#include "core/value.h"
#include "tests/games/tictactoe/tictactoe.h"
#include "tests/test_util.h"

namespace gs {
namespace {

using tictactoe::TicTacToe;

// Values by brute force: negamax to the end, the shortest win and the longest loss.
Value brute_force(const TicTacToe::Position& pos, std::map<std::uint32_t, Value>& memo) {
  if (const auto over = TicTacToe::terminal(pos)) return *over;
  const std::uint32_t key =
      pos.x | static_cast<std::uint32_t>(pos.o) << 9 | static_cast<std::uint32_t>(pos.side) << 18;
  if (const auto found = memo.find(key); found != memo.end()) return found->second;
  MoveList<TicTacToe> moves;
  TicTacToe::moves(pos, moves);
  std::optional<Value> best;
  for (const auto& move : moves) {
    const Value mine = brute_force(TicTacToe::play(pos, move), memo).before_move();
    if (!best || mine.better_than(*best)) best = mine;
  }
  memo.emplace(key, *best);
  return *best;
}

struct CommandRun {
  int status = 0;
  std::string out;
  std::string err;
};

// `gamesolver <command> <game> ...` in process.
CommandRun run(cli::Invocation invocation, const std::string& input = "") {
  const auto service = app::find_game(invocation.game).make(invocation.variant, invocation.rules);
  std::istringstream in(input);
  std::ostringstream out;
  std::ostringstream err;
  CommandRun result;
  result.status = cli::run(invocation, *service, {in, out, err});
  result.out = out.str();
  result.err = err.str();
  return result;
}

// `gamesolver <command> <game> --data DIR --pieces N --quiet --threads 2`.
cli::Invocation invocation_of(const std::string& command, const std::string& game, const test::TempDir& dir,
                              int pieces) {
  cli::Invocation invocation;
  invocation.command = command;
  invocation.game = game;
  invocation.common.data = dir.path();
  invocation.common.quiet = true;
  invocation.common.threads = 2;
  invocation.pieces = pieces;
  return invocation;
}

cli::Invocation tictactoe(const std::string& command, const test::TempDir& dir) {
  return invocation_of(command, "tictactoe", dir, 9);
}

class TicTacToeSolved : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir();
    const CommandRun built = run(tictactoe("build", *dir_));
    ASSERT_EQ(built.status, 0) << built.err;
    ASSERT_NE(built.out.find("built 10 tiers"), std::string::npos) << built.out;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static test::TempDir* dir_;
};
test::TempDir* TicTacToeSolved::dir_ = nullptr;

TEST_F(TicTacToeSolved, EveryValueIsTheBruteForceValue) {
  const auto service = app::find_game("tictactoe").make("", {});
  app::CommonOptions options;
  options.data = dir_->path();
  std::map<std::uint32_t, Value> memo;
  int checked = 0;
  for (const Tier tier : TicTacToe::tiers(9)) {
    for (Index index = 0; index < TicTacToe::size(tier); ++index) {
      const auto pos = TicTacToe::unrank(tier, index);
      if (!pos) continue;
      const app::PositionReport report = service->probe(options, TicTacToe::position_text(*pos));
      ASSERT_TRUE(report.value.has_value()) << report.position;
      EXPECT_EQ(*report.value, brute_force(*pos, memo)) << report.position;
      ++checked;
    }
  }
  EXPECT_GT(checked, 5000);
}

TEST_F(TicTacToeSolved, StartIsADrawAndEveryMoveKeepsIt) {
  cli::Invocation probe = tictactoe("probe", *dir_);
  probe.position = "start";
  probe.json = true;
  const CommandRun result = run(probe);
  ASSERT_EQ(result.status, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json.at("value").at("outcome"), "draw");
  EXPECT_EQ(json.at("moves").size(), 9U);
  for (const auto& move : json.at("moves")) EXPECT_EQ(move.at("value").at("outcome"), "draw") << move;
}

TEST_F(TicTacToeSolved, VerifyAndStats) {
  const CommandRun verified = run(tictactoe("verify", *dir_));
  EXPECT_EQ(verified.status, 0) << verified.err;
  EXPECT_NE(verified.out.find("every value agrees with its successors"), std::string::npos) << verified.out;
  cli::Invocation stats = tictactoe("stats", *dir_);
  stats.json = true;
  const CommandRun result = run(stats);
  ASSERT_EQ(result.status, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json.at("tiers").size(), 10U);
  // The totals of the headers are those of the brute force over every position.
  std::map<std::uint32_t, Value> memo;
  std::uint64_t positions = 0, wins = 0, draws = 0, losses = 0, longest_win = 0;
  for (const Tier tier : TicTacToe::tiers(9)) {
    for (Index index = 0; index < TicTacToe::size(tier); ++index) {
      const auto pos = TicTacToe::unrank(tier, index);
      if (!pos) continue;
      const Value value = brute_force(*pos, memo);
      ++positions;
      wins += value.is_win() ? 1 : 0;
      draws += value.is_draw() ? 1 : 0;
      losses += value.is_loss() ? 1 : 0;
      if (value.is_win()) longest_win = std::max<std::uint64_t>(longest_win, value.depth());
    }
  }
  const auto& total = json.at("total");
  EXPECT_EQ(total.at("positions"), positions);
  EXPECT_EQ(total.at("wins"), wins);
  EXPECT_EQ(total.at("draws"), draws);
  EXPECT_EQ(total.at("losses"), losses);
  EXPECT_EQ(total.at("longest_win"), longest_win);
}

TEST_F(TicTacToeSolved, PlayAgainstThePerfectPlayerAndSaveTheGame) {
  cli::Invocation play = tictactoe("play", *dir_);
  play.play_options.human = "o";
  play.play_options.save = dir_->path() / "game.pdn";
  const CommandRun result = run(play, "b2\nquit\n");
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_NE(result.out.find("gamesolver plays "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("game saved to"), std::string::npos) << result.out;
  EXPECT_NE(test::read_file(dir_->path() / "game.pdn").find("[Game \"tictactoe\"]"), std::string::npos);
}

TEST(TicTacToe, PerftCountsTheGamesOfEachLength) {
  // The number of move sequences of each length that no earlier win ended: 255,168
  // games in all, 127,872 of them nine plies long.
  const std::vector<std::uint64_t> expected = {1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};
  const auto service = app::find_game("tictactoe").make("", {});
  for (int depth = 0; depth <= 9; ++depth) {
    app::PerftRequest request;
    request.depth = depth;
    EXPECT_EQ(service->perft(request).division.nodes, expected[static_cast<std::size_t>(depth)]) << depth;
  }
}

TEST(TicTacToe, BadPositionsAndMovesAreRefused) {
  EXPECT_THROW((void)TicTacToe::parse_position("xxx/oo./o.. x"), Error);  // the side to move has a line
  EXPECT_THROW((void)TicTacToe::parse_position("xx./.../... o"), Error);  // two X, no O
  EXPECT_THROW((void)TicTacToe::parse_position("x../.../..."), Error);
  EXPECT_THROW((void)TicTacToe::parse_move(TicTacToe::start(), "d4"), Error);
}

// The build's overall progress: tiers and indices finished, and the time left at the
// rate of the indices built so far (tiers found complete add nothing to the rate).
TEST(BuildProgress, TimeLeftFromTheRateOfIndicesBuilt) {
  using Clock = app::BuildProgressMeter::Clock;
  const Clock::time_point start = Clock::now();
  const auto at = [&](int seconds) { return start + std::chrono::seconds(seconds); };
  app::BuildProgressMeter meter(4, 1000, start);
  app::BuildProgress p = meter.finished(100, false, at(1));
  EXPECT_EQ(p.tiers_done, 1);
  EXPECT_EQ(p.tiers, 4);
  EXPECT_EQ(p.indices_done, 100U);
  EXPECT_EQ(p.indices, 1000U);
  EXPECT_FALSE(p.eta_seconds.has_value());  // nothing built yet: no rate
  p = meter.finished(200, true, at(2));     // 200 built in 2 s, 700 left
  ASSERT_TRUE(p.eta_seconds.has_value());
  EXPECT_DOUBLE_EQ(*p.eta_seconds, 7.0);
  p = meter.finished(300, true, at(5));  // 500 built in 5 s, 400 left
  EXPECT_EQ(p.tiers_done, 3);
  EXPECT_DOUBLE_EQ(*p.eta_seconds, 4.0);
  p = meter.finished(400, true, at(9));
  EXPECT_EQ(p.tiers_done, 4);
  EXPECT_EQ(p.indices_done, 1000U);
  EXPECT_EQ(p.eta_seconds, 0.0);
}

TEST(Registry, UnknownGameListsTheKnownOnes) {
  try {
    (void)app::find_game("chess");
    FAIL() << "no error";
  } catch (const Error& error) {
    const std::string message = error.what();
    for (const auto& game : app::registered_games())
      EXPECT_NE(message.find(game.name), std::string::npos) << message;
  }
}

TEST(Registry, OnlyMillGamesHaveExtended) {
  for (const auto& game : app::registered_games())
    EXPECT_EQ(game.extended, game.name == "morris") << game.name;
}

// The commands' printing, in process, on a Jungle database of two pieces.
class JunglePrinted : public ::testing::Test {
 protected:
  static cli::Invocation jungle(const std::string& command, const test::TempDir& dir) {
    return invocation_of(command, "jungle", dir, 2);
  }
};

TEST_F(JunglePrinted, BuildStatsCountAndSolve) {
  test::TempDir dir;
  const CommandRun built = run(jungle("build", dir));
  ASSERT_EQ(built.status, 0) << built.err;
  EXPECT_NE(built.out.find("tiers were already complete"), std::string::npos) << built.out;
  const CommandRun stats = run(jungle("stats", dir));
  EXPECT_EQ(stats.status, 0) << stats.err;
  EXPECT_EQ(stats.out.rfind("tier ", 0), 0U) << stats.out;
  EXPECT_NE(stats.out.find("\ntotal "), std::string::npos) << stats.out;
  // A tier missing: the table says so and the exit code is 1.
  cli::Invocation more = jungle("stats", dir);
  more.pieces = 3;
  const CommandRun missing = run(more);
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("gamesolver: error: "), std::string::npos) << missing.err;
  cli::Invocation count = jungle("count", dir);
  count.json = true;
  const auto counts = nlohmann::json::parse(run(count).out);
  EXPECT_EQ(counts.at("game"), "jungle");
  ASSERT_EQ(counts.at("counts").size(), 1U);  // one piece: no tier (the game is over)
  EXPECT_EQ(counts.at("counts")[0].at("pieces"), 2);
  cli::Invocation solve = jungle("solve", dir);
  solve.position = "7/7/7/7/3r3/7/2E4 w";
  solve.solve.seconds = 10;
  const CommandRun solved = run(solve);
  EXPECT_EQ(solved.status, 0) << solved.err;
  EXPECT_NE(solved.out.find("result: "), std::string::npos) << solved.out;
}

// A side with pieces and no legal move: the rules decide, databases or not (here an
// empty directory of the game's databases). Checkers and the mills lose, Jungle draws by
// default and loses with stalemate=loss.
TEST(RulesFirst, NoLegalMoveHasTheRulesValueOutsideTheDatabases) {
  struct Case {
    std::string game;
    std::string variant;
    std::vector<std::string> rules;
    std::string position;
    std::string value;
  };
  const std::vector<Case> cases = {
      // White's man on 28 is blocked by Black's man on 24, the jump by Black's king on 19.
      {"checkers", "", {}, "W:W28:B24,K19", "loss in 0"},
      // Black's four corner stones are boxed in, with four stones Black does not fly.
      {"morris", "", {}, "W:d1,a4,g4,d7 B:a1,g1,a7,g7 b 0 0", "loss in 0"},
      // Black's rat in the corner, between White's tiger and dog, which it may not take.
      {"jungle", "", {}, "rT5/D6/7/7/7/7/7 b", "draw"},
      {"jungle", "", {"stalemate=loss"}, "rT5/D6/7/7/7/7/7 b", "loss in 0"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.game + " " + c.position);
    test::TempDir dir;
    const auto service = app::find_game(c.game).make(c.variant, c.rules);
    std::filesystem::create_directories(service->database_location(dir.path()).directory());
    cli::Invocation probe = invocation_of("probe", c.game, dir, 0);
    probe.variant = c.variant;
    probe.rules = c.rules;
    probe.position = c.position;
    probe.json = true;
    const CommandRun printed = run(probe);
    ASSERT_EQ(printed.status, 0) << printed.err;
    const auto report = nlohmann::json::parse(printed.out);
    EXPECT_TRUE(report.at("terminal").get<bool>());
    EXPECT_TRUE(report.at("no_legal_move").get<bool>());
    EXPECT_TRUE(report.at("moves").empty());
    const std::string outcome = c.value.substr(0, c.value.find(' '));
    EXPECT_EQ(report.at("value").at("outcome"), outcome);
    if (outcome != "draw") {
      EXPECT_EQ(report.at("value").at("depth"), 0);
    }
    probe.json = false;
    const CommandRun text = run(probe);
    EXPECT_NE(text.out.find("value: " + c.value + " (no legal move: the game is over)"), std::string::npos)
        << text.out;
  }
}

TEST_F(JunglePrinted, ExtendedIsRefusedForAGameWithoutStarts) {
  test::TempDir dir;
  cli::Invocation extended = jungle("extended", dir);
  extended.max_in_hand = 3;
  EXPECT_THROW((void)run(extended), Error);
}

}  // namespace
}  // namespace gs
