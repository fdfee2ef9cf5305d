// Proof search (search/): alpha-beta, PNS and df-pn against retrograde analysis.
//
// - Scores: the integer form of values agrees with Value (core/value.h).
// - Graph History Interaction traps on small graphs (tests/graph_game.h): a hand-built
//   trap, a trap found among random graphs, and hundreds of random cyclic graphs, every
//   node solved by every algorithm and compared with tests/brute_force.h. The traps are
//   checked to be traps: with the table storing results that depend on the line as if
//   they did not (SearchOptions::unsafe_repetition_storage), answers go wrong.
// - Jungle: random positions one piece above the largest databases built here (the
//   three-piece tier's own file is removed), trap positions where that naive storage
//   goes wrong, the same answers with and without databases where both finish, leaves
//   at the root, small tables and budgets, principal variations, and the CLI.
//
// Suites ending in "Slow" (label "slow") solve many more positions: every three-piece
// tier on the two-piece databases, and four-piece positions on the three-piece ones.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/value.h"
#include "db/database.h"
#include "games/jungle/jungle.h"
#include "search/key.h"
#include "search/score.h"
#include "search/solve.h"
#include "tests/brute_force.h"
#include "tests/db_fixture.h"
#include "tests/graph_game.h"
#include "tests/test_util.h"

#ifndef GAMESOLVER_BINARY
#error "GAMESOLVER_BINARY must name the gamesolver executable"
#endif

namespace gs {
namespace {

namespace fs = std::filesystem;
using jungle::Jungle;
using search::Algorithm;
using search::Question;
using test::Graph;
using test::GraphGame;

constexpr Algorithm kAlgorithms[] = {Algorithm::kAlphaBeta, Algorithm::kDfPn, Algorithm::kPns};

search::SearchOptions options(std::uint64_t max_nodes, std::uint64_t memory = std::uint64_t{16} << 20) {
  search::SearchOptions o;
  o.max_nodes = max_nodes;
  o.memory_bytes = memory;
  return o;
}

// Whether a report gives the value: the outcome from every algorithm, and the depth
// too from alpha-beta (which finds it exactly).
bool agrees(const search::SolveReport& report, Algorithm algorithm, Value truth) {
  if (!report.answer.known() || report.answer.lowest != truth.outcome()) return false;
  if (algorithm != Algorithm::kAlphaBeta) return true;
  return report.answer.value && *report.answer.value == truth;
}

std::string describe(const search::SolveReport& report) {
  return fmt::format("{}: {}{}, {} nodes", report.algorithm, report.answer.text(),
                     report.stopped.empty() ? "" : fmt::format(" (stopped: {})", report.stopped),
                     report.stats.nodes);
}

TEST(SearchScore, AgreesWithValues) {
  std::vector<Value> values = {Value::draw()};
  for (Depth d = 0; d < 40; ++d) {
    values.push_back(Value::win(d));
    values.push_back(Value::loss(d));
  }
  for (const Value v : values) {
    EXPECT_EQ(search::value_of(search::score_of(v)), v);
    EXPECT_EQ(search::parent_score(search::score_of(v)), search::score_of(v.before_move())) << v.to_string();
    for (const Value w : values) {
      EXPECT_EQ(search::score_of(v) < search::score_of(w), w.better_than(v));
    }
  }
  // value(parent) >= t iff some child is below child_threshold(t): for one child, the
  // parent's value through it is at least t iff the child is below the threshold.
  for (const Value t : values) {
    for (const search::Score threshold : {search::score_of(t), search::normalized(search::score_of(t) + 1)}) {
      for (const Value child : values) {
        if (child.is_win() && child.depth() == 0) continue;  // no position is won in 0 plies
        EXPECT_EQ(search::parent_score(search::score_of(child)) >= threshold,
                  search::score_of(child) < search::child_threshold(threshold))
            << "t " << threshold << " child " << child.to_string();
      }
    }
  }
}

// Solves every node of a graph with every algorithm; returns the number of wrong
// answers (and records them as failures when `expect_right`).
int solve_graph(const GraphGame& game, bool unsafe, bool expect_right, const std::string& name,
                std::map<Algorithm, int>* wrong_by_algorithm = nullptr) {
  const std::vector<ValueCode> truth = test::brute_force(game, {0}, 1).codes.at(0);
  int wrong = 0;
  for (std::size_t node = 0; node < game.graph().size(); ++node) {
    const Value value = Value::from_code(truth[node]);
    for (const Algorithm algorithm : kAlgorithms) {
      search::SearchOptions o = options(200000, 1 << 16);
      o.unsafe_repetition_storage = unsafe;
      const GraphGame::Position pos{static_cast<std::uint8_t>(node)};
      const search::SolveReport report = search::solve(game, nullptr, pos, algorithm, Question::kValue, o);
      if (!unsafe) {
        EXPECT_EQ(report.stopped, "") << name << " node " << node;
      }
      if (agrees(report, algorithm, value)) continue;
      ++wrong;
      if (wrong_by_algorithm != nullptr) ++(*wrong_by_algorithm)[algorithm];
      if (expect_right)
        ADD_FAILURE() << name << " node " << node << ": " << value.to_string() << ", " << describe(report);
    }
  }
  return wrong;
}

Graph empty_graph(int nodes) {
  Graph graph;
  graph.edges.resize(static_cast<std::size_t>(nodes));
  graph.end.resize(static_cast<std::size_t>(nodes));
  return graph;
}

// The trap of docs/SEARCH.md. From 0 (X to move) X may go to 1 or 2 (Y to move); both
// reach 3 (X to move), whose only move returns to 1. From 1, Y may also go 4 -> 5 -> 6,
// where X has lost. Searched first through 1: at 3 the move to 1 repeats the line, so 3
// looks drawn; stored as if that held anywhere, it makes 2 look drawn for Y, and 0 a
// draw. In truth 3 is lost for X (1 is won for Y through 4), and 0 is lost in 6.
Graph textbook_trap() {
  Graph graph = empty_graph(7);
  graph.add(0, 1);
  graph.add(0, 2);
  graph.add(1, 3);
  graph.add(1, 4);
  graph.add(2, 3);
  graph.add(3, 1);
  graph.add(4, 5);
  graph.add(5, 6);
  graph.end[6] = Value::loss(0);
  return graph;
}

// A trap found among random graphs, where every algorithm goes wrong with the unsafe
// storage (the part of that graph reachable from node 0).
Graph random_trap() {
  Graph graph = empty_graph(10);
  const std::vector<std::vector<std::uint8_t>> edges = {{1, 2, 3}, {3, 4}, {5, 6}, {7},       {8},
                                                        {},        {},     {1, 2}, {0, 9, 5}, {}};
  for (std::size_t n = 0; n < edges.size(); ++n) graph.edges[n] = edges[n];
  graph.end[5] = Value::loss(0);
  graph.end[6] = Value::loss(0);
  return graph;
}

// The path's repetition test, which looks a position up by its exact hash in an index
// of the line, against a plain scan of the line, over random pushes, pops and clears,
// on lines long enough for the index to grow several times. Node 16 has the hash of
// node 3 (a collision of exact hashes: the positions themselves must be compared), and
// a position may be on the line several times (the last is the one found).
TEST(SearchPath, RepetitionIsTheLastEarlierOccurrence) {
  using Path = search::Path<GraphGame>;
  std::mt19937_64 random(17);
  Path path;
  std::vector<GraphGame::Position> line;
  auto hash_of = [](std::uint8_t node) { return search::mix(node == 16 ? 3 : node); };
  int found = 0;
  int absent = 0;
  std::size_t longest = 0;
  for (int step = 0; step < 200000; ++step) {
    const auto node = static_cast<std::uint8_t>(random() % 200);
    const GraphGame::Position pos{node};
    int want = Path::kNone;
    for (int ply = static_cast<int>(line.size()) - 1; ply >= 0 && want == Path::kNone; --ply) {
      if (line[static_cast<std::size_t>(ply)] == pos) want = ply;
    }
    ASSERT_EQ(path.repetition(pos, hash_of(node)), want) << "step " << step;
    found += want != Path::kNone ? 1 : 0;
    absent += want == Path::kNone ? 1 : 0;
    const auto action = random() % 1024;
    if (action == 0) {
      path.clear();
      line.clear();
    } else if (action % 8 < 5 && line.size() < 600) {
      path.push(pos, hash_of(node));
      line.push_back(pos);
    } else if (!line.empty()) {
      path.pop();
      line.pop_back();
    }
    ASSERT_EQ(path.size(), static_cast<int>(line.size()));
    longest = std::max(longest, line.size());
  }
  EXPECT_GT(found, 10000);  // repetitions were asked about, and absences
  EXPECT_GT(absent, 10000);
  EXPECT_GT(longest, 300U);  // the index grew past its first 256 slots
}

TEST(SearchGraph, TextbookTrap) {
  const GraphGame game(textbook_trap());
  EXPECT_EQ(Value::from_code(test::brute_force(game, {0}, 1).codes.at(0)[0]), Value::loss(6));
  EXPECT_EQ(solve_graph(game, false, true, "textbook trap"), 0);
  // Alpha-beta with the unsafe storage calls the root a draw.
  const search::SolveReport naive =
      search::solve(game, nullptr, GraphGame::Position{0}, Algorithm::kAlphaBeta, Question::kValue, [] {
        search::SearchOptions o = options(100000, 1 << 16);
        o.unsafe_repetition_storage = true;
        return o;
      }());
  EXPECT_EQ(naive.answer.text(), "draw");
}

TEST(SearchGraph, RandomTrap) {
  const GraphGame game(random_trap());
  EXPECT_EQ(solve_graph(game, false, true, "random trap"), 0);
  std::map<Algorithm, int> wrong;
  solve_graph(game, true, false, "random trap, unsafe", &wrong);
  for (const Algorithm algorithm : kAlgorithms) {
    EXPECT_GT(wrong[algorithm], 0) << search::algorithm_name(algorithm) << " is not trapped";
  }
}

TEST(SearchGraph, RandomGraphsAgreeWithRetrogradeAnalysis) {
  std::mt19937_64 random(1);
  for (int g = 0; g < 600; ++g) {
    const GraphGame game(test::random_graph(random, g < 400 ? 16 : 24, 8));
    solve_graph(game, false, true, fmt::format("graph {}", g));
  }
}

TEST(SearchGraph, QuestionsGiveBounds) {
  const GraphGame game(textbook_trap());
  for (const Algorithm algorithm : kAlgorithms) {
    // Node 0 is lost: "win?" says no (at most a draw), "at least a draw?" says no (loss).
    const auto win = search::solve(game, nullptr, {0}, algorithm, Question::kWin, options(100000, 1 << 16));
    EXPECT_EQ(win.answer.text(), "at most a draw") << describe(win);
    const auto draw = search::solve(game, nullptr, {0}, algorithm, Question::kDraw, options(100000, 1 << 16));
    EXPECT_EQ(draw.answer.text(), "loss") << describe(draw);
    // Node 1 is won for the side to move there.
    const auto won = search::solve(game, nullptr, {1}, algorithm, Question::kDraw, options(100000, 1 << 16));
    EXPECT_EQ(won.answer.text(), "at least a draw") << describe(won);
  }
}

// Jungle databases for the tests: every two-piece tier and three three-piece tiers
// (solved here, values kept in memory), whose own files are then removed, so that a
// three-piece position is one piece above the largest database present.
struct JungleData {
  Jungle game;
  test::TempDir dir;
  test::SolvedTiers<Jungle> solved;
  std::unique_ptr<db::Database> database;

  static const std::vector<std::string>& tiers() {
    static const std::vector<std::string> names = {"T-rd", "RD-d", "E-rd"};
    return names;
  }
  JungleData() {
    solved = test::solve_tiers(game, tiers(), dir.path());
    const db::Location location = db::Location::of(game, dir.path());
    for (const std::string& name : tiers()) fs::remove(location.file(name));
    database = std::make_unique<db::Database>(location);
  }
  [[nodiscard]] Value truth(const Jungle::Position& pos) const {
    if (const auto over = game.terminal(pos)) return *over;
    const Ranked ranked = game.rank(pos);
    return Value::from_code(solved.codes.at(ranked.tier).at(ranked.index));
  }
  // Random positions of the three-piece tiers (not over): `count` of any value whose
  // depth is at most max_depth, and `draws` drawn ones.
  [[nodiscard]] std::vector<Jungle::Position> sample(std::uint64_t seed, int count, int draws,
                                                     int max_depth) const {
    std::mt19937_64 random(seed);
    std::vector<Jungle::Position> positions;
    int others = 0;
    while (others < count || draws > 0) {
      const Tier tier = game.parse_tier(tiers()[random() % tiers().size()]);
      const auto pos = game.unrank(tier, random() % game.size(tier));
      if (!pos || game.terminal(*pos)) continue;
      const Value value = truth(*pos);
      if (value.is_draw() && draws > 0) {
        --draws;
        positions.push_back(*pos);
      } else if (!value.is_draw() && others < count && value.depth() <= max_depth) {
        ++others;
        positions.push_back(*pos);
      }
    }
    return positions;
  }
};

JungleData& jungle_data() {
  static JungleData data;
  return data;
}

void expect_solved_like_the_databases(JungleData& data, const std::vector<Jungle::Position>& positions,
                                      std::uint64_t max_nodes, std::uint64_t memory) {
  for (const Jungle::Position& pos : positions) {
    const Value truth = data.truth(pos);
    for (const Algorithm algorithm : kAlgorithms) {
      const search::SolveReport report = search::solve(data.game, data.database.get(), pos, algorithm,
                                                       Question::kValue, options(max_nodes, memory));
      EXPECT_TRUE(agrees(report, algorithm, truth))
          << data.game.position_text(pos) << " is " << truth.to_string() << "; " << describe(report);
    }
  }
}

// A fixed sample, small enough for the sanitizer builds: eight wins and losses of up to
// 13 plies and six draws, each solved by all three algorithms (SearchJungleSlow has
// more, and counts the draws alpha-beta and PNS do not prove within its limits).
TEST(SearchJungle, OnePieceAboveTheDatabases) {
  JungleData& data = jungle_data();
  expect_solved_like_the_databases(data, data.sample(9, 8, 6, 13), 2000000, std::uint64_t{64} << 20);
}

// Positions where alpha-beta with the unsafe storage goes wrong (found by solving random
// positions of these tiers both ways): a repetition draw found on one line and reused on
// another turns wins and losses into draws, or lengthens them.
TEST(SearchJungle, TrapPositions) {
  JungleData& data = jungle_data();
  const std::vector<std::pair<std::string, std::string>> traps = {
      {"2d4/7/7/7/7/R6/1D5 w", "win in 15"},  {"7/7/r2d3/7/1E5/7/7 w", "loss in 16"},
      {"7/1d1r3/7/7/7/5T1/7 w", "win in 13"}, {"7/2r4/2d4/7/2E4/7/7 w", "loss in 14"},
      {"d6/7/7/r6/7/3E3/7 w", "win in 9"},
  };
  for (const auto& [text, value] : traps) {
    const Jungle::Position pos = data.game.parse_position(text);
    const Value truth = data.truth(pos);
    EXPECT_EQ(truth.to_string(), value) << text;
    for (const Algorithm algorithm : kAlgorithms) {
      const auto report = search::solve(data.game, data.database.get(), pos, algorithm, Question::kValue,
                                        options(2000000, std::uint64_t{64} << 20));
      EXPECT_TRUE(agrees(report, algorithm, truth)) << text << " is " << value << "; " << describe(report);
    }
    search::SearchOptions unsafe = options(2000000);
    unsafe.unsafe_repetition_storage = true;
    const auto naive =
        search::solve(data.game, data.database.get(), pos, Algorithm::kAlphaBeta, Question::kValue, unsafe);
    EXPECT_FALSE(agrees(naive, Algorithm::kAlphaBeta, truth))
        << text << " is no longer a trap: " << describe(naive);
  }
}

// df-pn and PNS ask "at least a draw?" first where the evaluation has the side to move
// behind (search/solve.h): the value is right whichever order the evaluation picks, the
// cases where it picks wrongly (a win or a draw for the side behind) included, and a
// loss or a win settled by the first question is answered by one question alone.
TEST(SearchJungle, QuestionOrderFollowsTheEvaluation) {
  JungleData& data = jungle_data();
  int behind = 0;
  int ahead = 0;
  int misled = 0;
  for (const Jungle::Position& pos : data.sample(31, 40, 6, 13)) {
    const Value truth = data.truth(pos);
    const bool draw_first = Jungle::evaluate(pos) < 0;
    (draw_first ? behind : ahead) += 1;
    misled += draw_first && !truth.is_loss() ? 1 : 0;
    for (const Algorithm algorithm : {Algorithm::kDfPn, Algorithm::kPns}) {
      const auto report = search::solve(data.game, data.database.get(), pos, algorithm, Question::kValue,
                                        options(2000000, std::uint64_t{64} << 20));
      const std::string text =
          data.game.position_text(pos) + " is " + truth.to_string() + "; " + describe(report);
      EXPECT_TRUE(agrees(report, algorithm, truth)) << text;
      ASSERT_FALSE(report.questions.empty()) << text;
      EXPECT_EQ(report.questions[0].threshold, draw_first ? search::kDrawThreshold : search::kWinThreshold)
          << text;
      const bool settled_first = draw_first ? truth.is_loss() : truth.is_win();
      EXPECT_EQ(report.questions.size(), settled_first ? 1U : 2U) << text;
    }
  }
  EXPECT_GT(behind, 5);
  EXPECT_GT(misled, 0);
  EXPECT_GT(ahead, 5);
}

TEST(SearchJungle, WithAndWithoutDatabases) {
  JungleData& data = jungle_data();
  int both = 0;
  for (const Jungle::Position& pos : data.sample(9, 12, 0, 9)) {
    for (const Algorithm algorithm : kAlgorithms) {
      const auto with = search::solve(data.game, data.database.get(), pos, algorithm, Question::kValue,
                                      options(500000, std::uint64_t{32} << 20));
      const auto without = search::solve(data.game, nullptr, pos, algorithm, Question::kValue,
                                         options(500000, std::uint64_t{32} << 20));
      if (!with.answer.known() || !without.answer.known()) continue;
      ++both;
      EXPECT_EQ(with.answer.text(), without.answer.text()) << data.game.position_text(pos);
      EXPECT_EQ(with.answer.lowest, data.truth(pos).outcome()) << data.game.position_text(pos);
      EXPECT_EQ(without.stats.database_leaves, 0U);
    }
  }
  EXPECT_GE(both, 12);  // most finish both ways
}

TEST(SearchJungle, LeavesAtTheRoot) {
  JungleData& data = jungle_data();
  const Jungle& game = data.game;
  // A two-piece position: its database answers at once.
  const Jungle::Position small = game.parse_position("7/2d4/7/7/7/2D4/7 w");
  const Value small_value = *db::probe(game, *data.database, small);
  for (const Algorithm algorithm : kAlgorithms) {
    const auto report =
        search::solve(game, data.database.get(), small, algorithm, Question::kValue, options(1000));
    EXPECT_TRUE(agrees(report, algorithm, small_value)) << describe(report);
    EXPECT_LE(report.stats.nodes, 1U) << describe(report);
  }
  // The game is over: Black has lost its last piece.
  const Jungle::Position over = game.parse_position("7/7/7/7/7/2D4/7 b");
  for (const Algorithm algorithm : kAlgorithms) {
    const auto report = search::solve(game, nullptr, over, algorithm, Question::kValue, options(1000));
    EXPECT_EQ(report.answer.text(), "loss in 0") << describe(report);
  }
  // No legal move (the rat in a corner, walled in by stronger pieces it cannot take): a draw.
  const Jungle::Position stuck = game.parse_position("7/7/7/7/7/D6/rT5 b");
  MoveList<Jungle> moves;
  game.moves(stuck, moves);
  ASSERT_TRUE(moves.empty());
  for (const Algorithm algorithm : kAlgorithms) {
    const auto report = search::solve(game, nullptr, stuck, algorithm, Question::kValue, options(1000));
    EXPECT_EQ(report.answer.lowest, Outcome::kDraw) << describe(report);
    EXPECT_TRUE(report.answer.known()) << describe(report);
  }
}

TEST(SearchJungle, SmallTablesAndBudgets) {
  JungleData& data = jungle_data();
  const Jungle::Position pos = data.game.parse_position("2d4/7/7/7/7/R6/1D5 w");  // win in 15
  // df-pn in a table of 2048 entries collects its garbage and still proves the win.
  const auto small = search::solve(data.game, data.database.get(), pos, Algorithm::kDfPn, Question::kWin,
                                   options(5000000, std::uint64_t{2048} * 32));
  EXPECT_EQ(small.answer.text(), "win") << describe(small);
  EXPECT_GT(small.stats.collections, 0U);
  EXPECT_LE(small.stats.table_entries, small.stats.table_capacity);
  // PNS out of memory stops, unanswered but not wrong.
  const auto tiny = search::solve(data.game, data.database.get(), pos, Algorithm::kPns, Question::kValue,
                                  options(5000000, 1 << 14));
  EXPECT_EQ(tiny.stopped, "memory budget");
  EXPECT_EQ(tiny.answer.text(), "unknown");
  // A node limit stops every algorithm without an answer.
  for (const Algorithm algorithm : kAlgorithms) {
    const auto stopped = search::solve(data.game, data.database.get(), pos, algorithm, Question::kValue,
                                       options(100, std::uint64_t{1} << 20));
    EXPECT_EQ(stopped.stopped, "node limit") << describe(stopped);
    EXPECT_LE(stopped.stats.nodes, 100U);
    EXPECT_EQ(stopped.answer.text(), "unknown") << describe(stopped);
  }
}

TEST(SearchJungle, PrincipalVariationsArePlayable) {
  JungleData& data = jungle_data();
  const Jungle& game = data.game;
  const Jungle::Position pos = game.parse_position("d6/7/7/r6/7/3E3/7 w");  // win in 9
  for (const Algorithm algorithm : kAlgorithms) {
    const auto report = search::solve(game, data.database.get(), pos, algorithm, Question::kValue,
                                      options(2000000, std::uint64_t{64} << 20));
    ASSERT_FALSE(report.principal_variation.empty()) << describe(report);
    Jungle::Position at = pos;
    for (const std::string& move : report.principal_variation) at = game.play(at, game.parse_move(at, move));
    // Where the line reaches the end of the game or a database, the win is kept: the
    // side to move there has won after an even number of moves, lost after an odd one.
    const std::optional<Value> end = db::probe(game, *data.database, at);
    const bool even = report.principal_variation.size() % 2 == 0;
    if (end) {
      EXPECT_TRUE(even ? end->is_win() : end->is_loss()) << describe(report) << ": " << end->to_string();
    }
    if (algorithm == Algorithm::kAlphaBeta) {
      // The shortest win: the line, then the database's depth at its end.
      ASSERT_TRUE(end.has_value()) << describe(report);
      EXPECT_EQ(report.principal_variation.size() + end->depth(), 9U);
    }
  }
}

test::RunResult gamesolver(const test::TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), GAMESOLVER_BINARY);
  return test::run(args, dir.path());
}

TEST(SearchCli, Solve) {
  JungleData& data = jungle_data();
  test::TempDir out;
  const std::string path = data.dir.path().string();
  const auto text = gamesolver(
      out, {"solve", "jungle", "d6/7/7/r6/7/3E3/7 w", "--data", path, "--algorithm", "alphabeta", "--quiet"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("result: win in 9"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("principal variation: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("nodes: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("table: "), std::string::npos) << text.out;

  const auto json = gamesolver(out, {"solve", "jungle", "7/7/r2d3/7/1E5/7/7 w", "--data", path, "--json",
                                     "--quiet", "--memory", "0.05"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json report = nlohmann::json::parse(json.out);
  EXPECT_EQ(report["algorithm"], "df-pn");
  EXPECT_EQ(report["outcome"], "loss");
  EXPECT_EQ(report["result"], "loss");
  // White is behind by the evaluation: "at least a draw?" first, and its "no" settles
  // the loss without asking "win?".
  ASSERT_EQ(report["questions"].size(), 1U);
  EXPECT_EQ(report["questions"][0]["question"], "draw");
  EXPECT_EQ(report["questions"][0]["answer"], false);
  EXPECT_GT(report["nodes"].get<std::uint64_t>(), 0U);
  EXPECT_GT(report["leaves"]["database"].get<std::uint64_t>(), 0U);

  const auto win_only =
      gamesolver(out, {"solve", "jungle", "7/7/r2d3/7/1E5/7/7 w", "--data", path, "--question", "win",
                       "--algorithm", "pns", "--quiet", "--memory", "0.05"});
  EXPECT_NE(win_only.out.find("result: at most a draw"), std::string::npos) << win_only.out;

  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"solve", "jungle", "start", "--algorithm", "minimax"},
        std::vector<std::string>{"solve", "jungle", "start", "--question", "maybe"},
        std::vector<std::string>{"solve", "jungle", "7/7/7 w"},
        std::vector<std::string>{"solve", "chess", "start"}}) {
    const auto result = gamesolver(out, bad);
    EXPECT_NE(result.exit_code, 0) << bad[2];
    EXPECT_NE(result.err.find("gamesolver: error: "), std::string::npos) << result.err;
  }
}

// Solves random positions of tiers whose own databases are removed and checks every
// answer against them. No answer may contradict the databases. df-pn must solve every
// position; alpha-beta every win and loss; PNS every win and loss its memory holds (a
// tree without transpositions: some four-piece wins take it more than 512 MiB). Of the
// draws, alpha-beta and PNS must prove at least the given numbers (a draw takes
// alpha-beta a depth-first search to the end of the attacker's lines); the others are
// printed.
struct DrawsProved {
  int alpha_beta = 0;
  int pns = 0;
};

void solve_slow_sample(const std::vector<std::string>& names, std::uint64_t seed, int count, int draws,
                       DrawsProved at_least) {
  const Jungle game;
  test::TempDir dir;
  const test::SolvedTiers<Jungle> solved = test::solve_tiers(game, names, dir.path());
  const db::Location location = db::Location::of(game, dir.path());
  for (const std::string& name : names) fs::remove(location.file(name));
  db::Database database(location);
  std::mt19937_64 random(seed);
  std::map<Algorithm, int> draws_proved;
  int out_of_memory = 0;  // PNS, on wins and losses
  int others = 0;
  int drawn = 0;
  while (others < count || drawn < draws) {
    const Tier tier = game.parse_tier(names[random() % names.size()]);
    const auto pos = game.unrank(tier, random() % game.size(tier));
    if (!pos || game.terminal(*pos)) continue;
    const Ranked ranked = game.rank(*pos);
    const Value truth = Value::from_code(solved.codes.at(ranked.tier).at(ranked.index));
    if (truth.is_draw() ? drawn++ >= draws : others++ >= count) continue;
    for (const Algorithm algorithm : kAlgorithms) {
      const auto report =
          search::solve(game, &database, *pos, algorithm, Question::kValue,
                        options(truth.is_draw() ? 3000000 : 20000000, std::uint64_t{512} << 20));
      const std::string what =
          fmt::format("{} is {}; {}", game.position_text(*pos), truth.to_string(), describe(report));
      EXPECT_LE(report.answer.lowest, truth.outcome()) << what;
      EXPECT_GE(report.answer.highest, truth.outcome()) << what;
      if (report.answer.value) {
        EXPECT_EQ(*report.answer.value, truth) << what;
      }
      if (truth.is_draw()) {
        const bool proved = agrees(report, algorithm, truth);
        draws_proved[algorithm] += proved ? 1 : 0;
        if (algorithm == Algorithm::kDfPn) {
          EXPECT_TRUE(proved) << what;
        } else if (!proved) {
          fmt::print("not proved: {}\n", what);
        }
      } else if (algorithm == Algorithm::kPns && report.stopped == "memory budget") {
        ++out_of_memory;
      } else {
        EXPECT_TRUE(agrees(report, algorithm, truth)) << what;
      }
    }
  }
  fmt::print(
      "{} wins and losses, {} draws; draws proved by alpha-beta {}, by PNS {}, by df-pn {}; PNS out of "
      "memory on {} wins and losses\n",
      count, draws, draws_proved[Algorithm::kAlphaBeta], draws_proved[Algorithm::kPns],
      draws_proved[Algorithm::kDfPn], out_of_memory);
  EXPECT_LE(out_of_memory, count / 5);
  EXPECT_GE(draws_proved[Algorithm::kAlphaBeta], at_least.alpha_beta);
  EXPECT_GE(draws_proved[Algorithm::kPns], at_least.pns);
}

TEST(SearchJungleSlow, ThreePiecePositionsOnTwoPieceDatabases) {
  const Jungle game;
  std::vector<std::string> names;
  for (const Tier tier : game.tiers(3)) {
    if (game.tier_pieces(tier) == 3) names.push_back(game.tier_name(tier));
  }
  // Before alpha-beta's tests without a depth limit and PNS's garbage collection: 18
  // and 20 (of 20).
  solve_slow_sample(names, 17, 60, 20, {19, 20});
}

TEST(SearchJungleSlow, FourPiecePositionsOnThreePieceDatabases) {
  // Before: 1 and 1 (of 5).
  solve_slow_sample({"RD-rd", "TE-rd"}, 23, 15, 5, {1, 2});
}

}  // namespace
}  // namespace gs
