// Game files (core/pdn.h, app/pdn_game.h): parsing of tags, move numbers, comments,
// variations, annotations and several games; every error with its line and column;
// write-then-read round trips for checkers, Jungle and the mill games; and the command
// line: `probe --pdn` against `probe` of every position, `play --pdn --save` round
// trips, and `count --materials` against the published board counts. The fast CLI tests
// use databases of up to two pieces; PdnCliSlow replays a three-piece game.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "app/pdn_game.h"
#include "core/error.h"
#include "core/pdn.h"
#include "games/checkers/checkers.h"
#include "games/checkers/material.h"
#include "games/jungle/jungle.h"
#include "games/morris/morris.h"
#include "tests/test_util.h"

#ifndef GAMESOLVER_BINARY
#error "GAMESOLVER_BINARY must name the gamesolver executable"
#endif

namespace gs {
namespace {

using checkers::Checkers;
using test::RunResult;
using test::TempDir;
using json = nlohmann::json;
namespace fs = std::filesystem;

std::vector<std::string> texts(const pdn::Game& game) {
  std::vector<std::string> out;
  for (const auto& move : game.moves) out.push_back(move.text);
  return out;
}

// The message of the error parse() throws, "" if none.
std::string parse_error(const std::string& text) {
  try {
    pdn::parse(text, "games.pdn");
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

template <Game G>
std::string replay_error(const G& game, const std::string& text) {
  try {
    const auto games = pdn::parse(text, "games.pdn");
    for (const auto& record : games) app::replay(game, record, "games.pdn");
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

TEST(Pdn, TagsMovesCommentsVariationsAndSeveralGames) {
  const std::string text =
      "[Event \"Old \\\"Fourteenth\\\"\"]\n"
      "[GameType \"21\"]\n"
      "[Result \"1/2-1/2\"]\n"
      "\n"
      "1. 11-15 {Black's best; (not a variation)} 23-19 ; a comment to the end of the line ( [\n"
      "2. 8-11! 22-17?! (2... 22-18 {nested (} (3. 15x22 25x18) $4) 3.4-8 $1 17-13\n"
      "3... 15-18 1/2-1/2\n"
      "% an escaped line 1-0\n"
      "[Event \"second\"]\n"
      "[SetUp \"1\"]\n"
      "[FEN \"W:W21:B1\"]\n"
      "1... 21-17 1. 1-6 *\n"
      "5. 9-14 0-1\n";
  const std::vector<pdn::Game> games = pdn::parse(text, "games.pdn");
  ASSERT_EQ(games.size(), 3U);
  EXPECT_EQ(games[0].tag("Event")->value, "Old \"Fourteenth\"");
  EXPECT_EQ(games[0].tag("Event")->place.line, 1);
  EXPECT_EQ(games[0].tag("GameType")->value, "21");
  EXPECT_EQ(games[0].tag("FEN"), nullptr);
  EXPECT_EQ(texts(games[0]),
            (std::vector<std::string>{"11-15", "23-19", "8-11", "22-17", "4-8", "17-13", "15-18"}));
  EXPECT_EQ(games[0].result, "1/2-1/2");
  // "3.4-8": the move glued to its number starts after the period.
  EXPECT_EQ(games[0].moves[4].place.line, 6);
  EXPECT_EQ(games[0].moves[4].place.column, 64);
  EXPECT_EQ(games[1].tag("FEN")->value, "W:W21:B1");
  EXPECT_EQ(texts(games[1]), (std::vector<std::string>{"21-17", "1-6"}));
  EXPECT_EQ(games[1].result, "*");
  EXPECT_TRUE(games[2].tags.empty());
  EXPECT_EQ(texts(games[2]), (std::vector<std::string>{"9-14"}));
  EXPECT_EQ(games[2].result, "0-1");
  EXPECT_EQ(games[2].place.line, 13);

  // Replayed: the moves are legal and the second game starts from its FEN, White to move.
  const auto first = app::replay(Checkers(), games[0], "games.pdn");
  EXPECT_EQ(first.moves.size(), 7U);
  EXPECT_EQ(first.number(6), "4.");
  const auto second = app::replay(Checkers(), games[1], "games.pdn");
  EXPECT_TRUE(second.second_half);
  EXPECT_EQ(second.number(0), "1...");
  EXPECT_EQ(second.number(1), "2.");
  EXPECT_EQ(Checkers::position_text(second.positions.back()), "W:W17:B6");
  EXPECT_TRUE(pdn::parse("", "empty.pdn").empty());
  EXPECT_TRUE(pdn::parse("  {only a comment}\n", "empty.pdn").empty());
}

TEST(Pdn, ErrorsNameFileLineAndColumn) {
  struct Case {
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"[Event \"x\"]\n[ \"v\"]\n*", "games.pdn:2:3: bad tag: expected a tag name"},
      {"[Event x]\n*", "games.pdn:1:8: bad tag [Event: expected its value in double quotes"},
      {"[Event \"x\" junk]\n*", "games.pdn:1:12: bad tag [Event: expected ']'"},
      {"[Event \"x\n\"]\n*", "games.pdn:1:8: bad tag [Event: its value runs past the end of the line"},
      {"[Event \"x\"]\n[Event \"y\"]\n*", "games.pdn:2:1: bad tag: [Event] is given twice"},
      {"1. 11-15 23-19 [Event \"x\"]\n*", "games.pdn:1:16: the game that starts at line 1 has no result"},
      {"[Event \"x\"]\n1. 11-15 23-19",
       "games.pdn:2:15: truncated file: the game that starts at line 1 has no"},
      {"[Event \"x\"]\n1. 11-15 {a comment", "games.pdn:2:10: truncated file: the comment"},
      {"1. 11-15 (1. 9-13 (1. 10-14) 23-19", "games.pdn:1:10: truncated file: the variation"},
      {"[Event \"x", "games.pdn:1:8: truncated file: the value of tag [Event"},
      {"[Event", "games.pdn:1:1: truncated file: the tag [Event"},
      {"1. 11-15 ) *", "games.pdn:1:10: ')' closes no variation"},
      {"1. 11-15 } *", "games.pdn:1:10: '}' closes no comment"},
      {"1. 11-15 $x *", "games.pdn:1:10: '$' must be followed by the number"},
  };
  for (const Case& c : cases) {
    const std::string error = parse_error(c.text);
    EXPECT_NE(error.find(c.error), std::string::npos) << "text: " << c.text << "\nerror: " << error;
  }
  EXPECT_EQ(parse_error("1. 11-15 $12 23-19 *"), "");

  // Errors of the game: tags and moves.
  const Checkers game;
  struct GameCase {
    std::string text;
    std::string error;
  };
  const std::vector<GameCase> game_cases = {
      {"[GameType \"20\"]\n*", "games.pdn:1:1: bad tag: [GameType \"20\"] is not checkers (GameType 21)"},
      {"[Game \"jungle\"]\n*", "games.pdn:1:1: bad tag: [Game \"jungle\"]: this is checkers"},
      {"[SetUp \"1\"]\n*", "games.pdn:1:1: bad tag: [SetUp \"1\"] without a FEN tag"},
      {"[SetUp \"2\"]\n*", "games.pdn:1:1: bad tag: [SetUp \"2\"] must be"},
      {"[SetUp \"0\"]\n[FEN \"B:W21:B1\"]\n*", "games.pdn:2:1: bad tag: [FEN] with [SetUp \"0\"]"},
      {"[SetUp \"1\"]\n[FEN \"B:W21:B29\"]\n*", "games.pdn:2:1: bad tag: [FEN]: position 'B:W21:B29'"},
      {"1. 11-15 23-19\n2. 8-12 22-17 *",
       "games.pdn:2:4: illegal move 2. 8-12 in "
       "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15: "
       "move '8-12' is illegal (legal: 7-11, 8-11, 9-13, 9-14, 10-14, 12-16, 15-18)"},
      {"[FEN \"B:W14:B10\"]\n1. 10-15 *",
       "games.pdn:2:4: illegal move 1. 10-15 in B:W14:B10: move '10-15' is "
       "illegal: a capture is compulsory (10x17)"},
      {"[FEN \"B:W14:B10\"]\n1. 10x17 1... 17-21 *",
       "games.pdn:2:15: illegal move 1... 17-21: the game is over (loss in 0 for the side to move in "
       "W:W:B17)"},
  };
  for (const GameCase& c : game_cases) {
    const std::string error = replay_error(game, c.text);
    EXPECT_NE(error.find(c.error), std::string::npos) << "text: " << c.text << "\nerror: " << error;
  }
  // The legal moves are named.
  EXPECT_NE(
      replay_error(game, "1. 11-17 *")
          .find("games.pdn:1:4: illegal move 1. 11-17 in B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,"
                "5,6,7,8,9,10,11,12: move '11-17' is illegal (legal: 9-13, 9-14, 10-14, 10-15, 11-15"),
      std::string::npos);
  // A GameType for a game that has none.
  EXPECT_NE(replay_error(jungle::Jungle(), "[GameType \"21\"]\n*").find("jungle has no PDN game type"),
            std::string::npos);
}

// Random games written and read back give the same tags, moves and result.
template <Game G>
void expect_round_trips(const G& game, int games, int max_plies) {
  std::mt19937_64 random(20261122);
  for (int g = 0; g < games; ++g) {
    app::PlayedGame<G> played;
    typename G::Position pos = game.start();
    // Every other game starts one random move in: a FEN, the second side to move.
    MoveList<G> moves;
    if (g % 2 == 1) {
      game.moves(pos, moves);
      pos = game.play(pos, moves[random() % moves.size()]);
    }
    played.start = pos;
    played.second_half = side_to_move<G>(pos) != side_to_move<G>(game.start());
    played.positions.push_back(pos);
    played.record.set_tag("Event", "round \"trip\" \\ test");
    for (int ply = 0; ply < max_plies && !game.terminal(pos); ++ply) {
      game.moves(pos, moves);
      if (moves.empty()) break;
      const auto move = moves[random() % moves.size()];
      played.moves.push_back(move);
      played.move_texts.push_back(game.move_text(pos, move));
      pos = game.play(pos, move);
      played.positions.push_back(pos);
    }
    const std::string text = app::pdn_text(game, played);
    SCOPED_TRACE(text);
    const std::vector<pdn::Game> read = pdn::parse(text, "round-trip.pdn");
    ASSERT_EQ(read.size(), 1U);
    const app::PlayedGame<G> again = app::replay(game, read[0], "round-trip.pdn");
    EXPECT_EQ(again.move_texts, played.move_texts);
    EXPECT_EQ(game.position_text(again.start), game.position_text(played.start));
    EXPECT_EQ(game.position_text(again.positions.back()), game.position_text(pos));
    EXPECT_EQ(read[0].tag("Event")->value, "round \"trip\" \\ test");
    EXPECT_EQ(read[0].tag("Result")->value, read[0].result);
    EXPECT_EQ(read[0].result, app::result_of(game, pos));
    EXPECT_EQ(read[0].tag("FEN") != nullptr, g % 2 == 1);
    // Written again, the text is the same.
    EXPECT_EQ(app::pdn_text(game, again), text);
  }
}

TEST(Pdn, RoundTripsForEveryGame) {
  expect_round_trips(Checkers(), 20, 200);
  expect_round_trips(jungle::Jungle(), 10, 60);
  expect_round_trips(morris::Morris::from_options("", {}), 10, 60);
}

TEST(Pdn, ResultsOfFinishedGames) {
  const Checkers game;
  // Black (the first to move in checkers) captures White's last piece: 1-0.
  auto pos = Checkers::parse_position("W:W14:B10");
  EXPECT_EQ(app::result_of(game, pos), "*");
  pos = Checkers::play(pos, Checkers::parse_move(pos, "14x7"));
  EXPECT_EQ(app::result_of(game, pos), "0-1");
  pos = Checkers::parse_position("B:W14:B10");
  pos = Checkers::play(pos, Checkers::parse_move(pos, "10x17"));
  EXPECT_EQ(app::result_of(game, pos), "1-0");
}

// Material names and the end positions per material, against the board counts.
TEST(Pdn, CheckersMaterials) {
  EXPECT_EQ(checkers::material_name(checkers::material_of(Checkers::parse_position("B:WK30,21:BK9,K10,1"))),
            "2111");
  // With White to move, the board counts as its colour reversal.
  EXPECT_EQ(checkers::material_name(checkers::material_of(Checkers::parse_position("W:WK30,21:BK9,K10,1"))),
            "1211");
  EXPECT_EQ(checkers::material_name(checkers::material_code(12, 0, 10, 1)), "C0A1");
  for (int pieces = 1; pieces <= 8; ++pieces) {
    std::uint64_t sum = 0;
    for (const auto& [code, count] : checkers::end_positions_by_material(pieces)) sum += count;
    EXPECT_EQ(sum, Checkers::end_positions(pieces)) << pieces;
  }
}

// ---------------------------------------------------------------------------------
// The command line (the real binary).

RunResult gamesolver(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), GAMESOLVER_BINARY);
  return test::run(args, dir.path());
}

// The binary with `input` on its standard input.
RunResult gamesolver_with_input(const TempDir& dir, const std::vector<std::string>& args,
                                const std::string& input) {
  const fs::path input_file = dir / fmt::format("input-{}.txt", std::hash<std::string>()(input));
  test::write_file(input_file, input);
  std::string command = fmt::format("exec '{}'", GAMESOLVER_BINARY);
  for (const std::string& arg : args) command += " '" + arg + "'";
  command += " < '" + input_file.string() + "'";
  return test::run({"/bin/sh", "-c", command}, dir.path());
}

std::string describe(const RunResult& r) {
  return fmt::format("exit {}\nstdout:\n{}\nstderr:\n{}", r.exit_code, r.out.substr(0, 4000),
                     r.err.substr(0, 2000));
}

void expect_error(const RunResult& r, const std::string& what) {
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("gamesolver: error: " + what), std::string::npos) << describe(r);
}

// A database directory with every checkers tier of up to `pieces` pieces, built once
// (2 pieces in a moment, 3 in a second or so, longer under the sanitizers).
fs::path built_data(int pieces) {
  static TempDir dir;
  static std::map<int, fs::path> built;
  if (!built.contains(pieces)) {
    const fs::path path = dir / fmt::format("data{}", pieces);
    const RunResult r = gamesolver(
        dir, {"build", "checkers", "--pieces", std::to_string(pieces), "--data", path.string(), "--quiet"});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    built[pieces] = path;
  }
  return built[pieces];
}

json probe_json(const TempDir& dir, const fs::path& data, const std::string& position) {
  const RunResult r = gamesolver(dir, {"probe", "checkers", position, "--data", data.string(), "--json"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  return json::parse(r.out);
}

// Runs probe --pdn on a game (the first of `text`) and checks every ply against probe of
// the positions before and after it; returns the JSON report.
json check_probe_game(const TempDir& dir, const fs::path& data, const std::string& text) {
  const fs::path file = dir / "game.pdn";
  test::write_file(file, text);
  const RunResult r =
      gamesolver(dir, {"probe", "checkers", "--pdn", file.string(), "--data", data.string(), "--json"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  const json game = json::parse(r.out);
  int errors = 0;
  std::map<std::string, json> probed;  // a ply's position after is the next one's before
  auto probe_once = [&](const std::string& position) -> const json& {
    if (!probed.contains(position)) probed[position] = probe_json(dir, data, position);
    return probed[position];
  };
  for (const json& ply : game["plies"]) {
    SCOPED_TRACE(ply.dump());
    // The values before and after the move are probe's values of the two positions.
    const json before = probe_once(ply["position"]);
    const json after = probe_once(ply["after"]);
    EXPECT_EQ(ply["value"], before["value"]);
    EXPECT_EQ(ply["value_after"], after["value"]);
    // And the move's row in probe's list of the position before has the mover's value.
    bool found = false;
    for (const json& move : before["moves"]) {
      if (move["move"] == ply["move"]) {
        found = true;
        EXPECT_EQ(ply["mover_value_after"], move["value"]);
      }
    }
    EXPECT_TRUE(found);
    // An error lowers the mover's outcome.
    const auto rank = [](const json& value) {
      return value["outcome"] == "win" ? 2 : value["outcome"] == "draw" ? 1 : 0;
    };
    EXPECT_EQ(ply["error"].get<bool>(), rank(ply["mover_value_after"]) < rank(ply["value"]));
    errors += ply["error"].get<bool>() ? 1 : 0;
  }
  EXPECT_EQ(errors, game["errors"].get<int>());
  return game;
}

// King against king: Black's 5-1 lets the win go, White's 22-25 gives it back.
const std::string kTwoPieceGame =
    "[Event \"kings\"]\n"
    "[GameType \"21\"]\n"
    "[SetUp \"1\"]\n"
    "[FEN \"B:WK25:BK5\"]\n"
    "1. 5-1 25-22 2. 1-5 22-25 {back} 3. 5-9 *\n";

// Two kings against one: Black wins, until 16-19 lets White's king take one of them.
const std::string kThreePieceGame =
    "[Event \"a king too far\"]\n"
    "[GameType \"21\"]\n"
    "[SetUp \"1\"]\n"
    "[FEN \"B:WK24:BK9,K16\"]\n"
    "[Result \"1/2-1/2\"]\n"
    "1. 9-14 24-28 2. 14-9 28-24 3. 16-19 24x15 { a draw now } 4. 9-13 1/2-1/2\n";

TEST(PdnCli, ProbeGameAgreesWithProbeOfEveryPosition) {
  TempDir dir;
  const json game = check_probe_game(dir, built_data(2), kTwoPieceGame);
  EXPECT_EQ(game["start"], "B:WK25:BK5");
  EXPECT_EQ(game["result"], "*");
  EXPECT_EQ(game["tags"]["Event"], "kings");
  const json& plies = game["plies"];
  ASSERT_EQ(plies.size(), 5U);
  EXPECT_EQ(plies[0]["move"], "5-1");
  EXPECT_EQ(plies[0]["change"], "win -> draw");
  EXPECT_EQ(plies[3]["move"], "22-25");
  EXPECT_EQ(plies[3]["number"], "2...");
  EXPECT_EQ(plies[3]["change"], "draw -> loss");
  EXPECT_EQ(game["errors"], 2);
  EXPECT_EQ(game["final"]["value"]["outcome"], "loss");

  // The text report marks them too.
  const RunResult r = gamesolver(
      dir, {"probe", "checkers", "--pdn", (dir / "game.pdn").string(), "--data", built_data(2).string()});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("error: win -> draw"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 errors: 1. 5-1 (win -> draw); 2... 22-25 (draw -> loss);"), std::string::npos)
      << r.out;
}

TEST(PdnCliSlow, ProbeGameAgreesWithProbeOfEveryPositionThreePieces) {
  TempDir dir;
  const json game = check_probe_game(dir, built_data(3), kThreePieceGame);
  EXPECT_EQ(game["start"], "B:WK24:BK9,K16");
  EXPECT_EQ(game["result"], "1/2-1/2");
  EXPECT_EQ(game["tags"]["Event"], "a king too far");
  const json& plies = game["plies"];
  ASSERT_EQ(plies.size(), 7U);
  // 16-19 throws the win away; nothing else changes the value.
  EXPECT_EQ(plies[4]["move"], "16-19");
  EXPECT_TRUE(plies[4]["error"].get<bool>());
  EXPECT_EQ(plies[4]["change"], "win -> draw");
  EXPECT_EQ(plies[4]["number"], "3.");
  EXPECT_EQ(plies[5]["number"], "3...");
  EXPECT_EQ(game["errors"], 1);
  EXPECT_EQ(game["final"]["value"]["outcome"], "draw");
}

TEST(PdnCli, ProbeGameOutsideTheDatabasesAndErrors) {
  TempDir dir;
  const fs::path file = dir / "games.pdn";
  test::write_file(file,
                   "[Event \"Old Fourteenth\"]\n[GameType \"21\"]\n"
                   "1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13 4. 15-18 24-20 *\n\n" +
                       kTwoPieceGame);
  const std::string data = built_data(2).string();
  RunResult r = gamesolver(dir, {"probe", "checkers", "--pdn", file.string(), "--data", data, "--json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const json first = json::parse(r.out);
  ASSERT_EQ(first["plies"].size(), 8U);
  for (const json& ply : first["plies"]) {
    EXPECT_TRUE(ply["value"].is_null());
    EXPECT_FALSE(ply["error"].get<bool>());
  }
  r = gamesolver(dir, {"probe", "checkers", "--pdn", file.string(), "--data", data});
  EXPECT_NE(r.out.find("not in the databases"), std::string::npos) << r.out;
  r = gamesolver(dir, {"probe", "checkers", "--pdn", file.string(), "--game", "2", "--data", data, "--json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(json::parse(r.out)["plies"].size(), 5U);

  expect_error(gamesolver(dir, {"probe", "checkers", "--pdn", file.string(), "--game", "3", "--data", data}),
               file.string() + ": there is no game 3: the file holds 2 games");
  expect_error(gamesolver(dir, {"probe", "checkers", "--pdn", (dir / "none.pdn").string(), "--data", data}),
               "cannot read the game file");
  test::write_file(dir / "illegal.pdn", "[GameType \"21\"]\n1. 11-15 23-19\n2. 15-20 *\n");
  expect_error(
      gamesolver(dir, {"probe", "checkers", "--pdn", (dir / "illegal.pdn").string(), "--data", data}),
      (dir / "illegal.pdn").string() + ":3:4: illegal move 2. 15-20");
  test::write_file(dir / "truncated.pdn", "[GameType \"21\"]\n1. 11-15 23-19 {the end");
  expect_error(gamesolver(dir, {"probe", "checkers", "--pdn", (dir / "truncated.pdn").string()}),
               (dir / "truncated.pdn").string() + ":2:16: truncated file");
  test::write_file(dir / "empty.pdn", "\n");
  expect_error(gamesolver(dir, {"probe", "checkers", "--pdn", (dir / "empty.pdn").string()}),
               (dir / "empty.pdn").string() + ": no game in the file");
  // A position and --pdn together, or neither.
  EXPECT_NE(gamesolver(dir, {"probe", "checkers", "start", "--pdn", file.string()}).exit_code, 0);
  EXPECT_NE(gamesolver(dir, {"probe", "checkers"}).exit_code, 0);
}

TEST(PdnCli, PlayFromAGameAndSave) {
  TempDir dir;
  const std::string data = built_data(2).string();
  const fs::path file = dir / "game.pdn";
  test::write_file(file,
                   "[Event \"first\"]\n[GameType \"21\"]\n1. 11-15 *\n\n"
                   "[Event \"endgame\"]\n[GameType \"21\"]\n[SetUp \"1\"]\n[FEN \"B:WK25:BK5\"]\n"
                   "1. 5-1 25-22 2. 1-5 22-25 *\n");
  const fs::path saved = dir / "saved.pdn";
  // Black to move at the end of game 2: the human plays 5-1 (a draw), the perfect player
  // White.
  RunResult r = gamesolver_with_input(
      dir,
      {"play", "checkers", "--pdn", file.string(), "--game", "2", "--save", saved.string(), "--data", data},
      "5-1\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("4 moves of game 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gamesolver plays 25-30 (draw)"), std::string::npos) << r.out;
  const std::vector<pdn::Game> games = pdn::read_file(saved);
  ASSERT_EQ(games.size(), 1U);
  EXPECT_EQ(games[0].tag("Event")->value, "endgame");
  EXPECT_EQ(games[0].tag("FEN")->value, "B:WK25:BK5");
  EXPECT_EQ(games[0].tag("SetUp")->value, "1");
  EXPECT_EQ(games[0].tag("GameType")->value, "21");
  EXPECT_EQ(games[0].tag("Result")->value, "*");
  EXPECT_EQ(texts(games[0]), (std::vector<std::string>{"5-1", "25-22", "1-5", "22-25", "5-1", "25-30"}));

  // Read back and saved again without a move: the same file.
  const fs::path again = dir / "again.pdn";
  r = gamesolver_with_input(
      dir, {"play", "checkers", "--pdn", saved.string(), "--save", again.string(), "--data", data}, "quit\n");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(test::read_file(again), test::read_file(saved));

  // A game played to its end from a position: Black's capture wins, 1-0, with the FEN.
  r = gamesolver_with_input(dir,
                            {"play", "checkers", "--from", "B:W14:B10", "--human", "white", "--save",
                             saved.string(), "--data", data},
                            "");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string text = test::read_file(saved);
  EXPECT_NE(text.find("[FEN \"B:W14:B10\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("[Result \"1-0\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("1. 10x17 1-0"), std::string::npos) << text;
  // From the start: no FEN.
  r = gamesolver_with_input(dir, {"play", "checkers", "--save", saved.string(), "--data", data},
                            "11-15\nquit\n");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(test::read_file(saved).find("FEN"), std::string::npos) << test::read_file(saved);
  EXPECT_NE(test::read_file(saved).find("1. 11-15 *"), std::string::npos) << test::read_file(saved);

  expect_error(gamesolver(dir, {"play", "checkers", "--pdn", (dir / "none.pdn").string(), "--data", data}),
               "cannot read the game file");
  EXPECT_NE(gamesolver(dir, {"play", "checkers", "--pdn", file.string(), "--from", "start"}).exit_code, 0);
}

// Boards per material add up to the boards per piece count (docs/games/checkers.md), and
// positions per material to the positions per piece count; returns count's JSON.
json expect_material_counts(const TempDir& dir, int max_pieces) {
  const RunResult r = gamesolver(
      dir, {"count", "checkers", "--pieces", std::to_string(max_pieces), "--materials", "--json", "--quiet"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  const json out = json::parse(r.out);
  constexpr std::uint64_t kBoards[] = {0, 120, 6972, 261224, 7092774};
  std::map<int, std::uint64_t> boards;
  std::map<int, std::uint64_t> positions;
  for (const json& row : out["materials"]) {
    const int pieces = row["pieces"].get<int>();
    boards[pieces] += row["classes"].get<std::uint64_t>() + row["end_positions"].get<std::uint64_t>();
    positions[pieces] += row["positions"].get<std::uint64_t>();
  }
  for (int pieces = 1; pieces <= max_pieces; ++pieces) EXPECT_EQ(boards[pieces], kBoards[pieces]) << pieces;
  for (const json& row : out["counts"]) {
    const int pieces = row["pieces"].get<int>();
    EXPECT_EQ(positions[pieces], row["positions"].get<std::uint64_t>()) << pieces;
    EXPECT_EQ(boards[pieces], row["classes"].get<std::uint64_t>() + row["end_positions"].get<std::uint64_t>())
        << pieces;
  }
  return out;
}

TEST(PdnCli, CountPerMaterial) {
  TempDir dir;
  const json out = expect_material_counts(dir, 3);
  // One king against one: 32 * 31 boards of either colour arrangement.
  bool found = false;
  for (const json& row : out["materials"]) {
    if (row["material"] == "1100") {
      found = true;
      EXPECT_EQ(row["classes"].get<std::uint64_t>(), 32U * 31U);
    }
  }
  EXPECT_TRUE(found);
  const RunResult text = gamesolver(dir, {"count", "checkers", "--pieces", "2", "--materials", "--quiet"});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("material"), std::string::npos) << text.out;
  expect_error(gamesolver(dir, {"count", "jungle", "--pieces", "2", "--materials"}),
               "jungle groups no positions by material");
}

TEST(PdnCliSlow, CountPerMaterialFourPieces) {
  TempDir dir;
  expect_material_counts(dir, 4);
}

}  // namespace
}  // namespace gs
