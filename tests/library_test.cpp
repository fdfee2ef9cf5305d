// The library (include/gamesolver/): the C++ API and the C API in process, against the
// service layer the command line used before it went through the library (a fresh
// app::GameService probe per position), on tic-tac-toe solved whole and Jungle up to
// two pieces: the same reports and JSON, the same error messages with their kinds,
// and the same answers from two threads at once. The installed library, the Python
// module and the examples are tested by tests/consumer/ and tests/python/.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "app/position_report.h"
#include "app/registry.h"
#include "core/error.h"
#include "gamesolver/database.h"
#include "gamesolver/gamesolver.h"
#include "tests/games/tictactoe/tictactoe.h"
#include "tests/test_util.h"

namespace gs {
namespace {

// The report of a position as the service gives it to the command line, with its
// databases opened afresh.
std::string service_json(const std::string& data, const std::string& game, const std::string& position) {
  const auto service = app::find_game(game).make("", {});
  app::CommonOptions options;
  options.data = data;
  return app::to_json(service->probe(options, position)).dump(2);
}

// The message of the error the service throws for a probe.
std::string service_error(const std::string& data, const std::string& game, const std::string& position) {
  try {
    service_json(data, game, position);
  } catch (const Error& error) {
    return error.what();
  }
  return "no error";
}

// Positions reached from the seeds through the reports' moves, breadth first.
std::vector<std::string> sample(const gamesolver::Database& db, const std::vector<std::string>& seeds,
                                std::size_t count) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::vector<std::string> queue = seeds;
  for (std::size_t i = 0; i < queue.size() && out.size() < count; ++i) {
    if (!seen.insert(queue[i]).second) continue;
    out.push_back(queue[i]);
    for (const auto& move : db.probe(queue[i]).moves) queue.push_back(move.position);
  }
  return out;
}

class LibrarySolved : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir();
    gamesolver::Database tictactoe = gamesolver::Database::open(data(), "tictactoe");
    const gamesolver::BuildResult built = tictactoe.build({9, 2, 1.0});
    ASSERT_EQ(built.built, 10);
    gamesolver::Database jungle = gamesolver::Database::open(data(), "jungle");
    ASSERT_GT(jungle.build({2, 2, 1.0}).built, 0);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string data() { return dir_->path().string(); }
  static test::TempDir* dir_;
};
test::TempDir* LibrarySolved::dir_ = nullptr;

TEST_F(LibrarySolved, EveryTicTacToeValueIsTheServicesValue) {
  const gamesolver::Database db = gamesolver::Database::open(data(), "tictactoe");
  const auto service = app::find_game("tictactoe").make("", {});
  db::Database database(service->database_location(data()));
  int checked = 0;
  using tictactoe::TicTacToe;
  for (const Tier tier : TicTacToe::tiers(9)) {
    for (Index index = 0; index < TicTacToe::size(tier); ++index) {
      const auto pos = TicTacToe::unrank(tier, index);
      if (!pos) continue;
      const std::string text = TicTacToe::position_text(*pos);
      const app::PositionReport expected = service->probe(database, text, std::nullopt, true);
      const gamesolver::Report report = db.probe(text);
      ASSERT_TRUE(report.value.has_value()) << text;
      ASSERT_EQ(report.value->text(), expected.value->to_string()) << text;
      EXPECT_EQ(db.value(text).value, report.value) << text;
      EXPECT_EQ(report.terminal, expected.terminal) << text;
      ASSERT_EQ(report.moves.size(), expected.moves.size()) << text;
      for (std::size_t i = 0; i < report.moves.size(); ++i) {
        EXPECT_EQ(report.moves[i].move, expected.moves[i].move) << text;
        EXPECT_EQ(report.moves[i].value->text(), expected.moves[i].value->to_string()) << text;
      }
      if (checked % 50 == 0) {
        EXPECT_EQ(report.json(), app::to_json(expected).dump(2)) << text;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 5000);
  const gamesolver::Report start = db.probe("start");
  EXPECT_EQ(start.value, (gamesolver::Value{gamesolver::Outcome::kDraw, std::nullopt}));
  ASSERT_TRUE(start.best.has_value());
  EXPECT_EQ(start.moves.size(), 9U);
}

TEST_F(LibrarySolved, JungleReportsAreTheCommandsReports) {
  const gamesolver::Database db = gamesolver::Database::open(data(), "jungle");
  EXPECT_EQ(db.game(), "jungle");
  EXPECT_EQ(db.variant(), "standard");
  EXPECT_EQ(db.directory(), (dir_->path() / "jungle" / "standard").string());
  const std::vector<std::string> positions = sample(db, {"7/2t4/7/7/7/2D4/7 w", "7/2e4/7/7/7/2R4/7 b"}, 60);
  ASSERT_EQ(positions.size(), 60U);
  int with_value = 0;
  for (const std::string& position : positions) {
    const gamesolver::Report report = db.probe(position);
    EXPECT_EQ(report.json(), service_json(data(), "jungle", position)) << position;
    const nlohmann::json json = nlohmann::json::parse(report.json());
    if (report.value) {
      ++with_value;
      const std::vector<std::string> outcomes = {"loss", "draw", "win"};
      EXPECT_EQ(json.at("value").at("outcome"), outcomes.at(static_cast<std::size_t>(report.value->outcome)));
      EXPECT_EQ(json.at("value").value("depth", -1), report.value->depth.value_or(-1));
    }
    EXPECT_EQ(db.value(position).value, report.value) << position;
    if (report.best) {
      EXPECT_EQ(json.at("best"), report.moves[*report.best].move);
    }
  }
  EXPECT_GT(with_value, 50);
  // Three pieces: beyond the databases, and the report says so.
  const gamesolver::Report missing = db.probe("7/2t4/7/7/7/2D1T2/7 w");
  EXPECT_FALSE(missing.value.has_value());
  EXPECT_EQ(missing.beyond, 2);
  EXPECT_EQ(missing.tier, "DT-t");
  EXPECT_EQ(missing.json(), service_json(data(), "jungle", "7/2t4/7/7/7/2D1T2/7 w"));
}

TEST_F(LibrarySolved, ErrorsHaveTheCommandsMessagesAndAKind) {
  const gamesolver::Database db = gamesolver::Database::open(data(), "jungle");
  auto kind_and_message = [](auto&& call) -> std::pair<int, std::string> {
    try {
      call();
    } catch (const gamesolver::Error& error) {
      return {static_cast<int>(error.kind()), error.what()};
    }
    return {0, "no error"};
  };
  using gamesolver::ErrorKind;
  const auto bad = kind_and_message([&] { (void)db.probe("7/7/7 w"); });
  EXPECT_EQ(bad.first, static_cast<int>(ErrorKind::kInput));
  EXPECT_EQ(bad.second, service_error(data(), "jungle", "7/7/7 w"));
  EXPECT_EQ(kind_and_message([&] { (void)db.value("7/7/7 w"); }), bad);
  const auto illegal = kind_and_message([&] { (void)db.probe("7/2t4/7/7/7/2D4/7 w", "Dg7"); });
  EXPECT_EQ(illegal.first, static_cast<int>(ErrorKind::kInput));

  const auto unknown = kind_and_message([&] { (void)gamesolver::Database::open(data(), "chess"); });
  EXPECT_EQ(unknown.first, static_cast<int>(ErrorKind::kNotFound));
  try {
    app::find_game("chess");
  } catch (const Error& error) {
    EXPECT_EQ(unknown.second, error.what());
  }
  EXPECT_EQ(kind_and_message([&] { (void)gamesolver::Database::open(data(), "morris", "nine"); }).first,
            static_cast<int>(ErrorKind::kNotFound));

  // No databases of these rules: the directory is missing, told after bad text.
  const gamesolver::Database other = gamesolver::Database::open(data(), "jungle", "", {"stalemate=loss"});
  const auto absent = kind_and_message([&] { (void)other.probe("7/2t4/7/7/7/2D4/7 w"); });
  EXPECT_EQ(absent.first, static_cast<int>(ErrorKind::kNotFound));
  EXPECT_NE(absent.second.find("no databases of jungle"), std::string::npos) << absent.second;
  EXPECT_EQ(kind_and_message([&] { (void)other.probe("7/7/7 w"); }).first,
            static_cast<int>(ErrorKind::kInput));
  EXPECT_EQ(kind_and_message([&] { (void)other.stats(2); }).first, static_cast<int>(ErrorKind::kNotFound));
  EXPECT_EQ(kind_and_message([&] { (void)db.stats(1); }).first, static_cast<int>(ErrorKind::kInput));

  // A damaged file: an error naming it, never a value.
  test::TempDir copy;
  std::filesystem::copy(dir_->path() / "jungle", copy.path() / "jungle",
                        std::filesystem::copy_options::recursive);
  const std::filesystem::path file = copy.path() / "jungle" / "standard" / "T-d.gsdb";
  ASSERT_TRUE(std::filesystem::exists(file));
  std::filesystem::resize_file(file, std::filesystem::file_size(file) / 2);
  const gamesolver::Database damaged = gamesolver::Database::open(copy.path().string(), "jungle");
  const auto broken = kind_and_message([&] { (void)damaged.probe("7/2t4/7/7/7/2D4/7 w"); });
  EXPECT_EQ(broken.first, static_cast<int>(ErrorKind::kDatabase));
  EXPECT_NE(broken.second.find("T-d.gsdb"), std::string::npos) << broken.second;
}

TEST_F(LibrarySolved, TwoThreadsGetTheSameAnswers) {
  const gamesolver::Database db = gamesolver::Database::open(data(), "jungle");
  const std::vector<std::string> positions = sample(db, {"7/2t4/7/7/7/2D4/7 w"}, 40);
  std::vector<std::string> expected;
  for (const auto& position : positions) expected.push_back(service_json(data(), "jungle", position));
  // A fresh Database, so that the threads open its files and fill its caches together.
  const gamesolver::Database fresh = gamesolver::Database::open(data(), "jungle", "", {}, {1 << 16, 64});
  std::vector<std::vector<std::string>> answers(2);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round) {
        for (const auto& position : positions) answers[t].push_back(fresh.probe(position).json());
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& answer : answers) {
    ASSERT_EQ(answer.size(), 3 * positions.size());
    for (std::size_t i = 0; i < answer.size(); ++i) EXPECT_EQ(answer[i], expected[i % positions.size()]);
  }
}

TEST_F(LibrarySolved, StatsAndVerify) {
  gamesolver::Database db = gamesolver::Database::open(data(), "jungle");
  const gamesolver::Stats stats = db.stats(2);
  EXPECT_EQ(stats.missing, 0);
  EXPECT_TRUE(stats.total.built);
  ASSERT_FALSE(stats.tiers.empty());
  std::uint64_t positions = 0;
  for (const auto& tier : stats.tiers) {
    EXPECT_TRUE(tier.built) << tier.tier;
    EXPECT_EQ(tier.wins + tier.draws + tier.losses, tier.positions) << tier.tier;
    positions += tier.positions;
  }
  EXPECT_EQ(stats.total.positions, positions);
  const gamesolver::VerifyResult verified = db.verify({2, false});
  EXPECT_TRUE(verified.ok) << verified.first_failure;
  EXPECT_GT(verified.positions, 0U);
  const gamesolver::BuildResult again = db.build({2, 1, 1.0});
  EXPECT_EQ(again.built, 0);
  EXPECT_EQ(again.skipped, static_cast<int>(stats.tiers.size()));
}

TEST_F(LibrarySolved, TheCApiAnswersAsTheCppApi) {
  gs_database* db = nullptr;
  ASSERT_EQ(gs_open(data().c_str(), "jungle", "", &db), GS_OK) << gs_last_error();
  const gamesolver::Database cpp = gamesolver::Database::open(data(), "jungle");
  for (const std::string& position : sample(cpp, {"7/2t4/7/7/7/2D4/7 w"}, 30)) {
    const gamesolver::Report expected = cpp.probe(position);
    gs_report* report = nullptr;
    ASSERT_EQ(gs_probe(db, position.c_str(), &report), GS_OK) << gs_last_error();
    EXPECT_EQ(gs_report_json(report), expected.json());
    EXPECT_EQ(gs_report_text(report), expected.text());
    EXPECT_EQ(gs_report_position(report), expected.position);
    const gs_value value = gs_report_value(report);
    ASSERT_TRUE(expected.value.has_value());
    EXPECT_EQ(static_cast<int>(value.outcome), static_cast<int>(expected.value->outcome));
    EXPECT_EQ(value.depth, expected.value->depth.value_or(-1));
    gs_value only{GS_UNKNOWN, 0};
    ASSERT_EQ(gs_probe_value(db, position.c_str(), &only), GS_OK);
    EXPECT_EQ(only.outcome, value.outcome);
    EXPECT_EQ(only.depth, value.depth);
    ASSERT_EQ(gs_report_move_count(report), expected.moves.size());
    for (std::size_t i = 0; i < expected.moves.size(); ++i) {
      EXPECT_EQ(gs_report_move(report, i), expected.moves[i].move);
      EXPECT_EQ(gs_report_move_value(report, i).depth, expected.moves[i].value->depth.value_or(-1));
    }
    EXPECT_EQ(gs_report_move(report, expected.moves.size()), nullptr);
    if (expected.best) {
      EXPECT_EQ(gs_report_best_move(report), expected.moves[*expected.best].move);
    } else {
      EXPECT_EQ(gs_report_best_move(report), nullptr);
    }
    gs_report_free(report);
  }
  // Errors: a status and the command's message; the output is untouched.
  gs_report* report = nullptr;
  EXPECT_EQ(gs_probe(db, "7/7/7 w", &report), GS_ERROR_INPUT);
  EXPECT_EQ(report, nullptr);
  EXPECT_EQ(std::string(gs_last_error()), service_error(data(), "jungle", "7/7/7 w"));
  EXPECT_EQ(gs_probe(db, nullptr, &report), GS_ERROR_INPUT);
  gs_database* none = nullptr;
  EXPECT_EQ(gs_open(data().c_str(), "chess", nullptr, &none), GS_ERROR_NOT_FOUND);
  EXPECT_EQ(none, nullptr);
  EXPECT_NE(std::string(gs_last_error()).find("unknown game"), std::string::npos) << gs_last_error();
  EXPECT_EQ(gs_open_with_rules(data().c_str(), "jungle", "", "stalemate=loss,bogus=1", &none),
            GS_ERROR_NOT_FOUND);
  gs_close(db);
  gs_close(nullptr);
  gs_report_free(nullptr);
}

// Without require_databases a variant that has no directory is probed as one whose
// tiers are not built: the rules' report, no value. The inventory lists the tier files.
TEST_F(LibrarySolved, VariantsWithoutDatabasesAndTheInventory) {
  const std::string position = "7/2t1d2/7/7/7/2D1T2/7 w";
  const gamesolver::Database strict = gamesolver::Database::open(data(), "jungle", "", {"stalemate=loss"});
  try {
    (void)strict.probe(position);
    ADD_FAILURE() << "no error";
  } catch (const gamesolver::Error& error) {
    EXPECT_EQ(error.kind(), gamesolver::ErrorKind::kNotFound);
  }
  gamesolver::OpenOptions lenient;
  lenient.require_databases = false;
  const gamesolver::Database rules =
      gamesolver::Database::open(data(), "jungle", "", {"stalemate=loss"}, lenient);
  const gamesolver::Report report = rules.probe(position);
  EXPECT_FALSE(report.value);
  EXPECT_EQ(report.position, position);
  EXPECT_FALSE(report.moves.empty());
  for (const auto& move : report.moves) EXPECT_FALSE(move.value) << move.move;
  EXPECT_FALSE(rules.value(position).value);
  // Bad text is still an input error.
  EXPECT_THROW((void)rules.probe("8/8 w"), gamesolver::Error);

  const nlohmann::json none = nlohmann::json::parse(rules.inventory_json());
  EXPECT_EQ(none.at("tiers").size(), 0U);
  EXPECT_TRUE(none.at("complete_pieces").is_null());

  // Jungle up to two pieces, built by the suite: every tier, complete up to 2.
  const gamesolver::Database jungle = gamesolver::Database::open(data(), "jungle");
  const nlohmann::json built = nlohmann::json::parse(jungle.inventory_json());
  EXPECT_EQ(built.at("directory"), "standard");
  EXPECT_EQ(built.at("complete_pieces"), 2);
  EXPECT_EQ(built.at("tiers").size(), jungle.stats(2).tiers.size());
  // Tic-tac-toe's tiers hold 0 to 9 marks: complete up to 9.
  const gamesolver::Database tictactoe = gamesolver::Database::open(data(), "tictactoe");
  EXPECT_EQ(nlohmann::json::parse(tictactoe.inventory_json()).at("complete_pieces"), 9);

  const nlohmann::json description = nlohmann::json::parse(jungle.description_json());
  EXPECT_EQ(description.at("game"), "jungle");
  EXPECT_EQ(description.at("start"), jungle.start());
  EXPECT_TRUE(description.at("board").is_object());
}

// A game of one tier (Dobutsu shogi's lions-and-chicks sub-game) is complete up to its
// piece count once that tier is built.
TEST(Library, OneTierGameIsCompleteUpToItsPieces) {
  const test::TempDir dir;
  gamesolver::Database db = gamesolver::Database::open(dir.path().string(), "dobutsu", "", {"kinds=C"});
  EXPECT_TRUE(nlohmann::json::parse(db.inventory_json()).at("complete_pieces").is_null());
  gamesolver::BuildOptions options;
  options.pieces = 4;
  options.threads = 2;
  options.memory_gib = 1.0;
  ASSERT_EQ(db.build(options).built, 1);
  EXPECT_EQ(nlohmann::json::parse(db.inventory_json()).at("complete_pieces"), 4);
}

// A report without a value says why: the position is beyond the tiers built (their
// most pieces), or its tier's file is missing. The tier files are listed again when the
// directory changes, also after a listing was kept.
TEST(Library, ReportsSayWhyAValueIsMissing) {
  const test::TempDir dir;
  gamesolver::Database db = gamesolver::Database::open(dir.path().string(), "jungle");
  ASSERT_GT(db.build({2, 2, 1.0}).built, 0);
  const std::filesystem::path directory = db.directory();
  // An old modification time: the listing is kept.
  std::filesystem::last_write_time(directory,
                                   std::filesystem::file_time_type::clock::now() - std::chrono::hours(1));
  const std::string three = "7/2t4/7/7/7/2D1T2/7 w";
  for (int i = 0; i < 2; ++i) {
    const gamesolver::Report report = db.probe(three);
    EXPECT_FALSE(report.value);
    EXPECT_EQ(report.beyond, 2);
    EXPECT_EQ(report.missing_tier, "");
  }
  ASSERT_GT(db.build({3, 2, 1.0}).built, 0);
  EXPECT_TRUE(db.probe(three).value);
  EXPECT_EQ(db.probe("7/2t1d2/7/7/7/2D1T2/7 w").beyond, 3);
  std::filesystem::last_write_time(directory,
                                   std::filesystem::file_time_type::clock::now() - std::chrono::hours(1));
  EXPECT_EQ(db.probe("7/2t1d2/7/7/7/2D1T2/7 w").beyond, 3);
  const std::string tier = db.probe(three).tier;
  ASSERT_TRUE(std::filesystem::remove(directory / (tier + ".gsdb")));
  // A tier opened stays open: a Database opened afterwards sees the file gone.
  const gamesolver::Report missing = gamesolver::Database::open(dir.path().string(), "jungle").probe(three);
  EXPECT_FALSE(missing.value);
  EXPECT_EQ(missing.missing_tier, tier);
  EXPECT_FALSE(missing.beyond);
}

TEST(Library, ListsEveryGame) {
  std::vector<std::string> names;
  for (const auto& game : gamesolver::games()) names.push_back(game.name);
  for (const char* game : {"jungle", "morris", "checkers", "dobutsu"})
    EXPECT_NE(std::find(names.begin(), names.end(), game), names.end()) << game;
}

}  // namespace
}  // namespace gs
