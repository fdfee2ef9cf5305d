// The explorer's server: every endpoint of /api/v1/ and every error (400, 404, 405, 413,
// 414, path escapes), static files, concurrent requests, and `gamesolver serve` as a
// child process. Fast tests serve a 2-piece database built in-process (3-piece positions
// are then partly outside the databases, which is tested too), and Five Men's Morris up
// to 3 stones a side for the mill boards (points and lines); the slow ones build 3
// pieces, compare every answer with `gamesolver probe --json`, and run a load test.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "app/position_report.h"
#include "core/value.h"
#include "db/database.h"
#include "games/jungle/jungle.h"
#include "games/morris/morris.h"
#include "prove/store.h"
#include "retro/build.h"
#include "server/api.h"
#include "server/load_client.h"
#include "server/serve_command.h"
#include "server/server.h"
#include "server/static_files.h"
#include "tests/test_util.h"

#ifndef GAMESOLVER_BINARY
#error "GAMESOLVER_BINARY must name the gamesolver executable"
#endif

namespace gs {
namespace {

using jungle::Jungle;
using morris::Morris;
using json = nlohmann::json;
using test::TempDir;
namespace fs = std::filesystem;

constexpr const char* kSecret = "this file lies outside the web folder";

void build_databases(const fs::path& data, int pieces) {
  const Jungle game;
  db::Database database(db::Location::of(game, data));
  retro::BuildOptions options;
  options.solve.quiet = true;
  options.solve.threads = 2;
  retro::build(game, database, pieces, options);
}

void build_morris_databases(const fs::path& data, const std::string& variant, int stones) {
  const Morris game = Morris::from_options(variant, {});
  db::Database database(db::Location::of(game, data));
  retro::BuildOptions options;
  options.solve.quiet = true;
  options.solve.threads = 2;
  retro::build(game, database, stones, options);
}

// A web folder with a page, a script, a subfolder, a hidden file, and a symbolic link to
// a file outside it.
void make_web_folder(const fs::path& root, const fs::path& outside) {
  fs::create_directories(root / "web" / "sub");
  test::write_file(root / "web" / "index.html", "<!doctype html><title>explorer</title>");
  test::write_file(root / "web" / "explorer.js", "export const answer = 42;\n");
  test::write_file(root / "web" / "explorer.css", "body { margin: 0; }\n");
  test::write_file(root / "web" / "sub" / "index.html", "<p>sub</p>");
  test::write_file(root / "web" / ".hidden", kSecret);
  test::write_file(outside, kSecret);
  fs::create_symlink(outside, root / "web" / "link-out.txt");
}

// The number after `prefix` in text, or -1. (No std::regex: GCC 12 warns inside it
// under the sanitizers.)
long number_after(const std::string& text, const std::string& prefix) {
  const std::size_t at = text.find(prefix);
  if (at == std::string::npos) return -1;
  std::size_t end = at + prefix.size();
  long number = 0;
  bool digits = false;
  for (; end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])) != 0;
       ++end, digits = true) {
    number = number * 10 + (text[end] - '0');
  }
  return digits ? number : -1;
}

// One raw HTTP exchange on a fresh connection: the request bytes exactly as given (no
// client normalises the path), the whole response back.
std::string raw_request(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket failed");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    throw std::runtime_error("connect failed");
  }
  timeval timeout{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  std::size_t sent = 0;
  while (sent < request.size()) {
    const ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server may answer and close before reading everything
    sent += static_cast<std::size_t>(n);
  }
  // Until the connection closes or the response is complete (the server keeps a
  // connection open after an error it could answer).
  std::string response;
  char buffer[4096];
  while (true) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    response.append(buffer, static_cast<std::size_t>(n));
    const std::size_t end = response.find("\r\n\r\n");
    if (end == std::string::npos) continue;
    const long length = number_after(response.substr(0, end), "Content-Length: ");
    if (length >= 0 && response.size() >= end + 4 + static_cast<std::size_t>(length)) break;
  }
  ::close(fd);
  return response;
}

int status_of(const std::string& response) {
  if (!response.starts_with("HTTP/1.")) return 0;
  return static_cast<int>(std::max(0L, number_after(response.substr(0, 13), " ")));
}

class ServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    build_databases(dir_->path() / "data", 2);
    build_morris_databases(dir_->path() / "data", "five", 3);
    make_web_folder(dir_->path(), dir_->path() / "secret.txt");
    server::ServerOptions options;
    options.data = dir_->path() / "data";
    options.web = dir_->path() / "web";
    options.port = 0;
    options.threads = 8;
    server_ = new server::Server(options);
    port_ = server_->start();
  }
  static void TearDownTestSuite() {
    delete server_;
    delete dir_;
  }

  static httplib::Client client() {
    httplib::Client client("127.0.0.1", port_);
    client.set_tcp_nodelay(true);
    client.set_read_timeout(30);
    return client;
  }
  // GET and parse; the body of every answer, errors included, is JSON.
  static json get(const std::string& target, int expected_status) {
    auto c = client();
    const auto response = c.Get(target);
    if (!response) {
      ADD_FAILURE() << target << ": " << httplib::to_string(response.error());
      return {};
    }
    EXPECT_EQ(response->status, expected_status) << target << "\n" << response->body;
    EXPECT_EQ(response->get_header_value("Content-Type"), "application/json") << target;
    json body = json::parse(response->body, nullptr, false);
    EXPECT_FALSE(body.is_discarded()) << target << ": not JSON: " << response->body;
    if (expected_status != 200) {
      EXPECT_TRUE(body.contains("error") && body["error"].is_string() &&
                  !body["error"].get<std::string>().empty())
          << target << ": " << response->body;
    }
    return body;
  }
  static json position(const std::string& text, const std::string& variant = "") {
    return get(server::position_target("jungle", text, variant), 200);
  }
  static json expected_report(const std::string& text) {
    const Jungle game;
    db::Database database(db::Location::of(game, dir_->path() / "data"));
    return app::to_json(app::report_position(game, database, game.parse_position(text)));
  }

  static TempDir* dir_;
  static server::Server* server_;
  static int port_;
};

TempDir* ServerTest::dir_ = nullptr;
server::Server* ServerTest::server_ = nullptr;
int ServerTest::port_ = 0;

TEST_F(ServerTest, GamesListsJungleWithItsVariantsAndDatabases) {
  const json body = get("/api/v1/games", 200);
  ASSERT_EQ(body.at("games").size(), 4U);
  EXPECT_EQ(body["games"][1].at("name"), "checkers");
  EXPECT_EQ(body["games"][2].at("name"), "morris");
  EXPECT_EQ(body["games"][3].at("name"), "dobutsu");
  const json& jungle = body["games"][0];
  EXPECT_EQ(jungle.at("name"), "jungle");
  EXPECT_EQ(jungle.at("default_variant"), "standard");
  EXPECT_EQ(jungle.at("start"), "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w");
  EXPECT_EQ(jungle.at("options").size(), 2U);
  EXPECT_EQ(jungle.at("board").at("files"), 7);
  EXPECT_EQ(jungle.at("board").at("ranks"), 7);
  EXPECT_EQ(jungle.at("board").at("pieces").size(), 8U);
  EXPECT_EQ(jungle.at("board").at("marks").size(), 2U);
  EXPECT_EQ(jungle.at("board").at("kind"), "grid");
  EXPECT_TRUE(jungle.at("board").at("points").empty());
  ASSERT_EQ(jungle.at("variants").size(), 1U);
  const json& standard = jungle["variants"][0];
  EXPECT_EQ(standard.at("board"), jungle.at("board"));
  EXPECT_EQ(standard.at("name"), "standard");
  EXPECT_EQ(standard.at("rules"), "");
  EXPECT_EQ(standard.at("databases").at("directory"), "standard");
  EXPECT_EQ(standard.at("databases").at("tiers").size(), Jungle::tiers(2).size());
  EXPECT_EQ(standard.at("databases").at("complete_pieces"), 2);
  for (const json& tier : standard["databases"]["tiers"]) EXPECT_EQ(tier.at("pieces"), 2);
}

// Checkers is a grid whose position text numbers the dark squares 1-32 from Black's side,
// Black at the top: the board names the square of each number.
TEST_F(ServerTest, CheckersBoardNumbersTheDarkSquares) {
  const json body = get("/api/v1/games/checkers", 200);
  const json& board = body.at("board");
  EXPECT_EQ(board.at("kind"), "grid");
  EXPECT_EQ(board.at("files"), 8);
  EXPECT_EQ(board.at("ranks"), 8);
  EXPECT_EQ(board.at("sides"), (json{"Black", "White"}));
  ASSERT_EQ(board.at("pieces").size(), 4U);
  std::set<std::string> letters;
  for (const json& piece : board["pieces"]) {
    const std::string letter = piece.at("letter");
    letters.insert(letter);
    EXPECT_EQ(piece.at("side"), letter == "b" || letter == "B" ? 0 : 1) << letter;
    EXPECT_EQ(piece.at("name"), std::islower(static_cast<unsigned char>(letter[0])) != 0 ? "man" : "king");
  }
  EXPECT_EQ(letters, (std::set<std::string>{"b", "B", "w", "W"}));
  const json& numbered = board.at("numbered");
  ASSERT_EQ(numbered.size(), 32U);
  EXPECT_EQ(numbered[0], "b8");   // 1: Black's back rank, top left
  EXPECT_EQ(numbered[3], "h8");   // 4
  EXPECT_EQ(numbered[4], "a7");   // 5
  EXPECT_EQ(numbered[28], "a1");  // 29: White's single corner
  EXPECT_EQ(numbered[31], "g1");  // 32
  std::set<std::string> squares;
  for (const json& name : numbered) {
    const std::string square = name;
    ASSERT_EQ(square.size(), 2U);
    EXPECT_EQ((square[0] - 'a' + square[1] - '1') % 2, 0) << square << " is a dark square";
    squares.insert(square);
  }
  EXPECT_EQ(squares.size(), 32U);
  // The crowning rows: Black's men are crowned on 29-32, White's on 1-4.
  ASSERT_EQ(board.at("marks").size(), 8U);
  for (const json& mark : board["marks"]) {
    EXPECT_EQ(mark.at("kind"), "crown");
    EXPECT_EQ(mark.at("square").get<std::string>()[1], mark.at("side") == 0 ? '1' : '8');
  }
  EXPECT_TRUE(board.at("points").empty());
  ASSERT_EQ(body.at("variants").size(), 1U);
  EXPECT_EQ(body["variants"][0].at("board"), board);
  // The other boards number nothing.
  EXPECT_TRUE(get("/api/v1/games/jungle", 200).at("board").at("numbered").empty());
  EXPECT_TRUE(get("/api/v1/games/morris", 200).at("board").at("numbered").empty());

  // A position of it: Black moves first; no databases, so no values.
  const json start = get(server::position_target("checkers", "start", ""), 200);
  EXPECT_EQ(start.at("position"), "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
  EXPECT_EQ(start.at("side"), 0);
  EXPECT_EQ(start.at("moves").size(), 7U);
  EXPECT_TRUE(start.at("value").is_null());
}

TEST_F(ServerTest, OneGameByName) {
  const json body = get("/api/v1/games/jungle", 200);
  EXPECT_EQ(body.at("name"), "jungle");
  EXPECT_EQ(body, get("/api/v1/games", 200).at("games")[0]);
}

// The mill boards are points and lines, and each variant has its own board: Nine Men's
// Morris on a 7x7 grid (24 points, 16 lines of 3 = 32 segments), Five Men's Morris on
// 5x5 (16 points; 8 sides of 3 and 4 joins = 20 segments).
TEST_F(ServerTest, MorrisBoardsArePointsAndLines) {
  const json body = get("/api/v1/games/morris", 200);
  EXPECT_EQ(body.at("default_variant"), "standard");
  EXPECT_EQ(body.at("start"), "W: B: w 9 9");
  ASSERT_EQ(body.at("variants").size(), 2U);
  EXPECT_EQ(body["variants"][0].at("name"), "standard");
  EXPECT_EQ(body["variants"][0].at("board"), body.at("board"));
  EXPECT_EQ(body["variants"][1].at("name"), "five");
  EXPECT_EQ(body["variants"][1].at("start"), "W: B: w 5 5");
  EXPECT_EQ(body["variants"][1].at("databases").at("complete_pieces"), 3);
  struct Expected {
    const json& board;
    const char* variant;
    int grid;
    std::size_t points;
    std::size_t segments;
  };
  for (const Expected& expected : {Expected{body.at("board"), "standard", 7, 24, 32},
                                   Expected{body["variants"][1].at("board"), "five", 5, 16, 20}}) {
    const json& board = expected.board;
    SCOPED_TRACE(expected.variant);
    EXPECT_EQ(board.at("kind"), "points");
    EXPECT_EQ(board.at("files"), expected.grid);
    EXPECT_EQ(board.at("ranks"), expected.grid);
    EXPECT_EQ(board.at("sides"), (json{"White", "Black"}));
    ASSERT_EQ(board.at("pieces").size(), 2U);
    EXPECT_EQ(board["pieces"][0].at("letter"), "W");
    EXPECT_EQ(board["pieces"][1].at("side"), 1);
    const Morris game = Morris::from_options(expected.variant, {});
    const morris::Geometry& geometry = game.geometry();
    ASSERT_EQ(board.at("points").size(), expected.points);
    for (const json& point : board["points"]) {
      const int p = geometry.point(point.at("name").get<std::string>());
      ASSERT_GE(p, 0) << point;
      EXPECT_EQ(point.at("file"), geometry.file(p)) << point;
      EXPECT_EQ(point.at("rank"), geometry.rank(p)) << point;
    }
    // Every segment joins neighbours, and every pair of neighbours is one segment.
    ASSERT_EQ(board.at("lines").size(), expected.segments);
    std::set<std::pair<int, int>> segments;
    for (const json& line : board["lines"]) {
      ASSERT_EQ(line.size(), 2U) << line;
      const int a = geometry.point(line[0].get<std::string>());
      const int b = geometry.point(line[1].get<std::string>());
      ASSERT_TRUE(a >= 0 && b >= 0) << line;
      EXPECT_NE(geometry.neighbours(a) >> b & 1U, 0U) << line;
      segments.insert({std::min(a, b), std::max(a, b)});
    }
    std::size_t neighbour_pairs = 0;
    for (int p = 0; p < geometry.points(); ++p) neighbour_pairs += std::popcount(geometry.neighbours(p));
    EXPECT_EQ(segments.size(), neighbour_pairs / 2);
    EXPECT_EQ(segments.size(), expected.segments);
  }
}

// A mill position: White places e1, closing a1-c1-e1, and removes either black stone,
// leaving Black with two stones: a win in 1 by either removal.
TEST_F(ServerTest, MorrisPositionReport) {
  const std::string text = "W:a1,c1 B:b2,b4 w 1 1";
  const std::string target = server::position_target("morris", text, "five");
  const json body = get(target, 200);
  const Morris game = Morris::from_options("five", {});
  db::Database database(db::Location::of(game, dir_->path() / "data"));
  EXPECT_EQ(body, app::to_json(app::report_position(game, database, game.parse_position(text))));
  EXPECT_EQ(body.at("variant"), "five");
  EXPECT_EQ(body.at("side"), 0);
  EXPECT_EQ(body.at("value"), (json{{"outcome", "win"}, {"depth", 1}}));
  ASSERT_GE(body.at("moves").size(), 2U);
  std::set<std::string> first_two = {body["moves"][0].at("move"), body["moves"][1].at("move")};
  EXPECT_EQ(first_two, (std::set<std::string>{"e1xb2", "e1xb4"}));
  EXPECT_EQ(body["moves"][0].at("value"), (json{{"outcome", "win"}, {"depth", 1}}));
  EXPECT_EQ(body.at("best"), body["moves"][0].at("move"));
  for (const json& move : body["moves"]) EXPECT_FALSE(move.at("value").is_null()) << move;
  // The removal played: Black is left with two stones and has lost.
  const json after = get(target + "&move=e1xb4", 200);
  EXPECT_EQ(after.at("position"), "W:a1,c1,e1 B:b2 b 0 1");
  EXPECT_TRUE(after.at("terminal").get<bool>());
  EXPECT_EQ(after.at("value"), (json{{"outcome", "loss"}, {"depth", 0}}));
  // A move that closes a mill needs its removal, of a stone of the opponent; the small
  // board has no d1.
  EXPECT_NE(get(target + "&move=e1", 400).at("error").get<std::string>().find("closes a mill"),
            std::string::npos);
  get(target + "&move=e1xa1", 400);
  get(server::position_target("morris", "W:d1 B: w 4 5", "five"), 400);
  // The standard variant has no databases here: no value.
  EXPECT_TRUE(get(server::position_target("morris", "W:a1,d1 B:b2,d2 w 1 1", ""), 200).at("value").is_null());
}

TEST_F(ServerTest, OtherVariantsAreListedWhenTheirDirectoryExists) {
  const fs::path data = dir_->path() / "data" / "jungle";
  fs::create_directories(data / "standard,elephant_takes_rat=off");
  fs::create_directories(data / "not-a-variant");
  fs::create_directories(data / "standard,stalemate=loss,elephant_takes_rat=off");  // not the canonical name
  const json variants = get("/api/v1/games/jungle", 200).at("variants");
  std::vector<std::string> names;
  for (const json& v : variants) names.push_back(v.at("name"));
  EXPECT_EQ(names, (std::vector<std::string>{"standard", "standard,elephant_takes_rat=off"}));
  EXPECT_EQ(variants[1].at("rules"), "elephant_takes_rat=off");
  EXPECT_TRUE(variants[1].at("databases").at("tiers").empty());
  EXPECT_TRUE(variants[1].at("databases").at("complete_pieces").is_null());
  fs::remove_all(data / "standard,elephant_takes_rat=off");
  fs::remove_all(data / "not-a-variant");
  fs::remove_all(data / "standard,stalemate=loss,elephant_takes_rat=off");
}

TEST_F(ServerTest, PositionsInTheDatabasesMatchTheProbe) {
  const Jungle game;
  db::Database database(db::Location::of(game, dir_->path() / "data"));
  int checked = 0;
  for (const Tier tier : Jungle::tiers(2)) {
    for (Index index = 0; index < game.size(tier); index += 97) {
      const auto pos = game.unrank(tier, index);
      if (!pos) continue;
      const std::string text = Jungle::position_text(*pos);
      const json body = position(text);
      EXPECT_EQ(body, expected_report(text)) << text;
      const std::optional<Value> value = db::probe(game, database, *pos);
      ASSERT_TRUE(value.has_value());
      EXPECT_EQ(body.at("value"), app::json_value(value)) << text;
      EXPECT_EQ(body.at("tier"), game.tier_name(tier));
      EXPECT_EQ(body.at("index"), index);
      EXPECT_FALSE(body.at("terminal").get<bool>());
      EXPECT_EQ(body.at("side"), pos->side);
      MoveList<Jungle> moves;
      game.moves(*pos, moves);
      ASSERT_EQ(body.at("moves").size(), moves.size()) << text;
      if (moves.empty()) {
        EXPECT_TRUE(body.at("best").is_null());
        continue;
      }
      // The best move is the first, and it keeps the position's value.
      ASSERT_TRUE(body.at("best").is_string()) << text;
      EXPECT_EQ(body["best"], body["moves"][0].at("move"));
      EXPECT_EQ(body["moves"][0].at("value"), body.at("value")) << text;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

TEST_F(ServerTest, PositionsBeyondTheDatabasesHaveNoValue) {
  // Three pieces: not built. Moves that capture lead into two-piece tiers and have values.
  const std::string text = "7/7/7/3d3/3D3/3T3/7 w";
  const json body = position(text);
  EXPECT_EQ(body, expected_report(text));
  EXPECT_TRUE(body.at("value").is_null());
  EXPECT_TRUE(body.at("best").is_null());
  EXPECT_EQ(body.at("tier"), "DT-d");
  bool capture_known = false;
  for (const json& move : body.at("moves")) {
    if (move.at("move").get<std::string>().find('x') != std::string::npos) {
      EXPECT_FALSE(move.at("value").is_null()) << move;
      capture_known = true;
    } else {
      EXPECT_TRUE(move.at("value").is_null()) << move;
    }
  }
  EXPECT_TRUE(capture_known);
  // The start position, by name and by text.
  const json start = position("start");
  EXPECT_EQ(start.at("position"), "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w");
  EXPECT_TRUE(start.at("value").is_null());
  EXPECT_EQ(start, position("1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w"));
  EXPECT_EQ(start, position("start", "standard"));
}

TEST_F(ServerTest, TerminalPositions) {
  // White's dog stands in Black's den: Black to move has lost.
  const json body = position("3D3/7/7/7/7/7/2d4 b");
  EXPECT_TRUE(body.at("terminal").get<bool>());
  EXPECT_EQ(body.at("value"), (json{{"outcome", "loss"}, {"depth", 0}}));
  EXPECT_TRUE(body.at("moves").empty());
  EXPECT_TRUE(body.at("best").is_null());
  EXPECT_FALSE(body.contains("tier"));
}

TEST_F(ServerTest, WinDrawLossDatabasesGiveNoDepth) {
  // The same databases rewritten with win/draw/loss values only: the same outcomes, and no
  // depth that would read as "win in 0".
  TempDir copy;
  fs::copy(dir_->path() / "data", copy.path() / "data", fs::copy_options::recursive);
  const test::RunResult r = test::run({GAMESOLVER_BINARY, "compress", "jungle", "--pieces", "2", "--encoding",
                                       "wdl", "--data", (copy.path() / "data").string(), "--quiet"},
                                      copy.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  server::Api api(copy.path() / "data");
  int decided = 0;
  for (const std::string text : {"7/7/7/3d3/7/3D3/7 w", "7/2t4/7/7/7/2D4/7 b", "7/7/2r4/7/7/4E2/7 w"}) {
    const server::Reply reply = api.position("jungle", text, std::nullopt, std::nullopt);
    ASSERT_EQ(reply.status, 200) << reply.body;
    const json body = json::parse(reply.body);
    const json full = expected_report(text);
    EXPECT_EQ(body.at("value").at("outcome"), full.at("value").at("outcome")) << text;
    EXPECT_FALSE(body.at("value").contains("depth")) << text;
    for (const json& move : body.at("moves")) {
      if (!move.at("value").is_null()) {
        EXPECT_FALSE(move.at("value").contains("depth")) << move;
      }
    }
    decided += full.at("value").at("outcome") != "draw" ? 1 : 0;
  }
  EXPECT_GT(decided, 0);
}

TEST_F(ServerTest, MovesAreApplied) {
  const std::string text = "7/7/7/3d3/7/3D3/7 w";
  const json before = position(text);
  ASSERT_FALSE(before.at("moves").empty());
  for (const json& move : before["moves"]) {
    const json after =
        get(server::position_target("jungle", text, "") + "&move=" + move.at("move").get<std::string>(), 200);
    EXPECT_EQ(after.at("position"), move.at("position"));
    EXPECT_EQ(after.at("played"), move.at("move"));
    json without = after;
    without.erase("played");
    EXPECT_EQ(without, expected_report(move.at("position")));
  }
  // From-to notation; x needs no escaping but the space of the position does.
  EXPECT_EQ(get(server::position_target("jungle", text, "") + "&move=d2d3", 200).at("position"),
            "7/7/7/3d3/3D3/7/7 b");
}

TEST_F(ServerTest, BadPositionsAndMovesAre400) {
  const std::string target = server::position_target("jungle", "7/7/7/3d3/7/3D3/7 w", "");
  EXPECT_NE(get(target + "&move=Ea1", 400).at("error").get<std::string>().find("Ea1"), std::string::npos);
  get(target + "&move=Dd7", 400);  // too far
  get(target + "&move=nonsense", 400);
  get(target + "&move=", 400);
  get(server::position_target("jungle", "3D3/7/7/7/7/7/2d4 b", "") + "&move=dc2", 400);  // the game is over
  get("/api/v1/games/jungle/positions", 400);                                            // no p
  get("/api/v1/games/jungle/positions?p=", 400);
  get("/api/v1/games/jungle/positions?p=xyz", 400);
  get(server::position_target("jungle", "7/7/7/7/7/7/7 w", ""), 400);       // no pieces
  get(server::position_target("jungle", "8/7/7/7/7/7/7 w", ""), 400);       // rank too long
  get(server::position_target("jungle", "DD5/7/7/7/7/7/7 w", ""), 400);     // two white dogs
  get(server::position_target("jungle", "7/7/7/3d3/7/3D3/7 x", ""), 400);   // side to move
  get(server::position_target("jungle", std::string(2000, '7'), ""), 400);  // too long
  const json body = get("/api/v1/games/jungle/positions?p=%00%01%ff", 400);
  EXPECT_TRUE(body.at("error").is_string());
}

TEST_F(ServerTest, UnknownGamesVariantsAndPathsAre404) {
  EXPECT_NE(get("/api/v1/games/chess", 404).at("error").get<std::string>().find("jungle"), std::string::npos);
  get("/api/v1/games/chess/positions?p=start", 404);
  get("/api/v1/games/%ff%fe", 404);  // not UTF-8, quoted in the message
  get(server::position_target("jungle", "start", "\xff"), 404);
  get(server::position_target("jungle", "\xff\xfe/7/7/7/7/7/7 w", ""), 400);
  get(server::position_target("jungle", "start", "big"), 404);
  get(server::position_target("jungle", "start", "standard,elephant_takes_rat=maybe"), 404);
  get(server::position_target("jungle", "start", "standard,"), 404);
  get("/api/v1/games/jungle/positions/extra", 404);
  get("/api/v1/nothing", 404);
  get("/api/v2/games", 404);
  get("/api", 404);
  get("/api/", 404);
  get("/nothing.html", 404);
  // A variant without databases is no error: its positions have no value.
  const json other = position("7/7/7/3d3/7/3D3/7 w", "standard,elephant_takes_rat=off");
  EXPECT_EQ(other.at("rules"), "elephant_takes_rat=off");
  EXPECT_TRUE(other.at("value").is_null());
}

TEST_F(ServerTest, OnlyReadingMethodsAreAllowed) {
  auto c = client();
  for (const auto& response :
       {c.Post("/api/v1/games", "x", "text/plain"), c.Put("/api/v1/games", "x", "text/plain"),
        c.Delete("/api/v1/games"), c.Post("/", "x", "text/plain")}) {
    ASSERT_TRUE(response);
    EXPECT_EQ(response->status, 405);
    EXPECT_TRUE(json::parse(response->body).contains("error"));
  }
  const auto head = c.Head("/api/v1/games");
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, 200);
}

TEST_F(ServerTest, StaticFilesComeFromTheWebFolder) {
  auto c = client();
  auto response = c.Get("/");
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->body, "<!doctype html><title>explorer</title>");
  EXPECT_EQ(response->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_FALSE(response->get_header_value("Content-Security-Policy").empty());
  response = c.Get("/explorer.js");
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  response = c.Get("/explorer.css");
  ASSERT_TRUE(response);
  EXPECT_EQ(response->get_header_value("Content-Type"), "text/css; charset=utf-8");
  response = c.Get("/sub/");
  ASSERT_TRUE(response);
  EXPECT_EQ(response->body, "<p>sub</p>");
  for (const char* missing : {"/missing.js", "/sub", "/sub/missing.html"}) get(missing, 404);
}

TEST_F(ServerTest, NoPathEscapesTheWebFolder) {
  // Sent raw, so that nothing between the test and the server cleans the paths up.
  for (const std::string& path : std::vector<std::string>{
           "/../secret.txt", "/sub/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt",
           "/..%2fsecret.txt", "/sub/%2e%2e/%2e%2e/secret.txt", "/.hidden", "/%2ehidden", "/link-out.txt",
           "/sub/..%5c..%5csecret.txt", "//secret.txt", "/./index.html", "/index.html%00.js",
           "/" + (dir_->path() / "secret.txt").string(),
           "/%2F" + (dir_->path() / "secret.txt").string().substr(1)}) {
    const std::string response =
        raw_request(port_, "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const int status = status_of(response);
    EXPECT_TRUE(status == 400 || status == 404) << path << " -> " << response.substr(0, 200);
    EXPECT_EQ(response.find(kSecret), std::string::npos) << path;
  }
  server::StaticFiles files(dir_->path() / "web");
  EXPECT_EQ(files.get("/index.html").status, 200);
  EXPECT_EQ(files.get("/../secret.txt").status, 400);
  EXPECT_EQ(files.get("/link-out.txt").status, 404);
  EXPECT_EQ(files.get("relative.html").status, 400);
  EXPECT_EQ(files.get(std::string("/index.html\0x", 13)).status, 400);
  EXPECT_EQ(files.get("/" + std::string(2000, 'a')).status, 400);
}

TEST_F(ServerTest, OversizedRequestsAreRefused) {
  auto c = client();
  // A request line over cpp-httplib's 8 KiB limit.
  auto response = c.Get(server::position_target("jungle", std::string(10000, '7'), ""));
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 414);
  EXPECT_TRUE(json::parse(response->body).contains("error"));
  // A body over the server's limit (16 KiB), whatever the path.
  response = c.Post("/api/v1/games", std::string(100000, 'x'), "text/plain");
  if (response) {
    EXPECT_EQ(response->status, 413);
    EXPECT_TRUE(json::parse(response->body).contains("error"));
  }
  // A header line over the limit: refused, the server lives on.
  const std::string big =
      raw_request(port_, "GET /api/v1/games HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20000, 'h') +
                             "\r\nConnection: close\r\n\r\n");
  const int status = status_of(big);
  EXPECT_TRUE(status == 0 || status >= 400) << big.substr(0, 200);
  // Garbage instead of HTTP.
  const std::string garbage = raw_request(port_, "\x01\x02 nothing like HTTP\r\n\r\n");
  EXPECT_TRUE(garbage.empty() || status_of(garbage) >= 400) << garbage.substr(0, 200);
  get("/api/v1/games", 200);
}

TEST_F(ServerTest, ConcurrentRequestsAgree) {
  std::vector<std::string> texts;
  const Jungle game;
  for (const Tier tier : Jungle::tiers(2)) {
    for (Index index = 0; index < game.size(tier); index += 211) {
      if (const auto pos = game.unrank(tier, index)) texts.push_back(Jungle::position_text(*pos));
    }
  }
  std::vector<json> expected;
  for (const std::string& text : texts) expected.push_back(expected_report(text));
  test::Failures failures;
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      auto c = client();
      c.set_keep_alive(t % 2 == 0);  // both kinds of connection
      for (std::size_t i = 0; i < 40; ++i) {
        const std::size_t k = (i * 7 + static_cast<std::size_t>(t) * 13) % texts.size();
        const auto response = c.Get(server::position_target("jungle", texts[k], ""));
        if (!response || response->status != 200) {
          failures.add(texts[k] + ": " + (response ? std::to_string(response->status) : "no response"));
        } else if (json::parse(response->body) != expected[k]) {
          failures.add(texts[k] + ": another report");
        }
        if (i % 10 == 0 && !c.Get("/api/v1/games")) failures.add("games failed");
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  GS_EXPECT_NO_FAILURES(failures);
}

// `gamesolver serve` as a child process, read back from its first line.
class ServeProcess {
 public:
  ServeProcess(const TempDir& dir, std::vector<std::string> args) {
    args.insert(args.begin(), {GAMESOLVER_BINARY, "serve"});
    child_.emplace(args, dir.path());
    out_ = dir.path();
  }
  // The port from "http://127.0.0.1:PORT/", or 0 when the process ended first.
  int port(const fs::path& capture) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      for (const auto& entry : fs::directory_iterator(capture)) {
        if (entry.path().extension() != ".out") continue;
        const std::string text = test::read_file(entry.path());
        const long port = number_after(text, "http://127.0.0.1:");
        if (port > 0) return static_cast<int>(port);
      }
      if (child_->finished()) return 0;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return 0;
  }
  test::Child& child() { return *child_; }

 private:
  std::optional<test::Child> child_;
  fs::path out_;
};

TEST_F(ServerTest, ServeCommandServesUntilTerminated) {
  TempDir capture;
  ServeProcess serve(capture, {"--port", "0", "--data", (dir_->path() / "data").string(), "--web",
                               (dir_->path() / "web").string()});
  const int port = serve.port(capture.path());
  ASSERT_GT(port, 0) << "no 'http://127.0.0.1:PORT/' line";
  httplib::Client c("127.0.0.1", port);
  const auto games = c.Get("/api/v1/games");
  ASSERT_TRUE(games);
  EXPECT_EQ(games->status, 200);
  EXPECT_EQ(json::parse(games->body), get("/api/v1/games", 200));
  const auto page = c.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  serve.child().kill(SIGTERM);
  const test::RunResult result = serve.child().wait();
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("stopped"), std::string::npos) << result.out;
}

TEST_F(ServerTest, ServeCommandErrors) {
  TempDir capture;
  // A web folder without index.html; a port that is taken (by this test's server).
  test::RunResult r =
      test::run({GAMESOLVER_BINARY, "serve", "--web", capture.path().string()}, capture.path());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("gamesolver: error: --web"), std::string::npos) << r.err;
  r = test::run(
      {GAMESOLVER_BINARY, "serve", "--port", std::to_string(port_), "--web", (dir_->path() / "web").string()},
      capture.path());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("gamesolver: error: cannot listen"), std::string::npos) << r.err;
  r = test::run({GAMESOLVER_BINARY, "serve", "--port", "70000"}, capture.path());
  EXPECT_NE(r.exit_code, 0);
  // The web folder of the source tree is found without --web.
  const fs::path found = server::find_web_folder({});
  EXPECT_TRUE(fs::is_regular_file(found / "index.html")) << found;
}

// Proof trees (server/proofs.h): a store `gamesolver prove` wrote, a 3-piece position
// above the 2-piece databases, shown with its root, counts and best line; only stores
// given to the server, by number; readable while a writer holds the store's lock.
TEST(ServerProofs, RootAndBestLineOfTheGivenStores) {
  TempDir dir;
  const fs::path data = dir.path() / "data";
  build_databases(data, 2);
  const std::string root = "7/2e4/7/3d3/7/7/R6 w";
  const fs::path store = dir.path() / "proof.db";
  const std::vector<std::string> prove = {
      GAMESOLVER_BINARY, "prove",       "jungle",        root, "--store",        store.string(),
      "--data",          data.string(), "--prover-time", "0",  "--prover-nodes", "30",
      "--workers",       "1",           "--quiet"};
  ASSERT_EQ(test::run(prove, dir.path()).exit_code, 0);
  std::vector<std::string> status_args = {GAMESOLVER_BINARY, "prove",  "jungle",      root,       "--store",
                                          store.string(),    "--data", data.string(), "--status", "--json"};
  const test::RunResult status_run = test::run(status_args, dir.path());
  ASSERT_EQ(status_run.exit_code, 0) << status_run.err;
  const json status = json::parse(status_run.out);
  ASSERT_EQ(status.at("result"), "loss");

  server::ServerOptions options;
  options.data = data;
  options.web = server::find_web_folder({});
  options.port = 0;
  options.threads = 4;
  options.stores = {store, dir.path() / "missing.db"};
  server::Server server(options);
  const int port = server.start();
  auto get = [&](const std::string& target, int expected) {
    httplib::Client client("127.0.0.1", port);
    const auto response = client.Get(target);
    if (!response) {
      ADD_FAILURE() << target;
      return json();
    }
    EXPECT_EQ(response->status, expected) << target << ": " << response->body;
    return json::parse(response->body);
  };

  const json list = get("/api/v1/proofs", 200).at("proofs");
  ASSERT_EQ(list.size(), 2U);
  EXPECT_EQ(list[0].at("id"), 0);
  EXPECT_EQ(list[0].at("name"), "proof.db");
  EXPECT_EQ(list[0].at("game"), "jungle");
  EXPECT_EQ(list[0].at("variant"), "standard");
  EXPECT_EQ(list[0].at("rules"), json::array());
  EXPECT_EQ(list[0].at("root"), root);
  EXPECT_NE(list[1].at("error").get<std::string>().find("no proof store"), std::string::npos) << list[1];

  const json proof = get("/api/v1/proofs/0", 200);
  EXPECT_EQ(proof.at("root").at("position"), root);
  EXPECT_EQ(proof.at("root").at("result"), status.at("result"));
  EXPECT_EQ(proof.at("root").at("win"), false);
  EXPECT_EQ(proof.at("root").at("at_least_draw"), false);
  EXPECT_TRUE(proof.at("root").at("proof").is_null());  // settled: no numbers
  for (const char* count : {"nodes", "proven", "open", "likely", "threshold"}) {
    EXPECT_EQ(proof.at(count), status.at(count)) << count;
  }
  // The line starts at the root, and each move, played from the step before, gives the
  // next step's position.
  const json& line = proof.at("line");
  ASSERT_GE(line.size(), 2U) << proof;
  EXPECT_TRUE(line[0].at("move").is_null());
  EXPECT_EQ(line[0].at("position"), root);
  EXPECT_EQ(line[0].at("result"), "loss");
  const Jungle game;
  for (std::size_t i = 1; i < line.size(); ++i) {
    const Jungle::Position before = game.parse_position(line[i - 1].at("position").get<std::string>());
    const Jungle::Position after =
        game.play(before, game.parse_move(before, line[i].at("move").get<std::string>()));
    EXPECT_EQ(game.position_text(after), line[i].at("position")) << "step " << i;
  }

  // Only the stores given, by their number.
  for (const char* bad :
       {"/api/v1/proofs/2", "/api/v1/proofs/x", "/api/v1/proofs/-1", "/api/v1/proofs/0x0"}) {
    EXPECT_NE(get(bad, 404).at("error").get<std::string>().find("no proof"), std::string::npos) << bad;
  }
  EXPECT_NE(get("/api/v1/proofs/1", 404).at("error").get<std::string>().find("no proof store"),
            std::string::npos);

  // A writer holds the store's lock and commits a pass: the server reads the new state.
  {
    prove::Store writer(store, true);
    writer.commit({}, {{"threshold", "60"}});
    const json written = get("/api/v1/proofs/0", 200);
    EXPECT_EQ(written.at("threshold"), 60);
    EXPECT_EQ(written.at("nodes"), status.at("nodes"));
  }

  // `serve` refuses a store that is missing or is no proof store, before it listens.
  for (const fs::path& bad : {dir.path() / "missing.db", dir.path() / "data"}) {
    const test::RunResult r = test::run(
        {GAMESOLVER_BINARY, "serve", "--port", "0", "--data", data.string(), "--store", bad.string()},
        dir.path());
    EXPECT_NE(r.exit_code, 0) << r.out;
    EXPECT_NE(r.err.find("gamesolver: error: --store " + bad.string()), std::string::npos) << r.err;
  }
  server.stop();
}

// The proof view reads a bounded number of rows whatever the store's size
// (prove::rows_read counts the rows every store of this process reads): after 50,000
// more rows are put in the store's nodes table, a request reads the same few rows and
// shows the same thing. Reading the tree (as the view did before) would read them all.
TEST(ServerProofs, ARequestReadsABoundedNumberOfRows) {
  TempDir dir;
  const fs::path data = dir.path() / "data";
  build_databases(data, 2);
  const std::string root = "7/2e4/7/3d3/7/7/R6 w";
  const fs::path store = dir.path() / "proof.db";
  ASSERT_EQ(
      test::run({GAMESOLVER_BINARY, "prove", "jungle", root, "--store", store.string(), "--data",
                 data.string(), "--prover-time", "0", "--prover-nodes", "30", "--workers", "1", "--quiet"},
                dir.path())
          .exit_code,
      0);
  server::ServerOptions options;
  options.data = data;
  options.web = server::find_web_folder({});
  options.port = 0;
  options.threads = 2;
  options.stores = {store};
  server::Server server(options);
  const int port = server.start();
  // The view and the rows read for it.
  auto view = [&] {
    httplib::Client client("127.0.0.1", port);
    const std::uint64_t before = prove::rows_read();
    const auto response = client.Get("/api/v1/proofs/0");
    const std::uint64_t rows = prove::rows_read() - before;
    if (!response || response->status != 200) {
      ADD_FAILURE() << (response ? response->body : "no response");
      return std::pair{json(), rows};
    }
    json body = json::parse(response->body);
    body.erase("store_bytes");
    return std::pair{body, rows};
  };
  const auto [small, small_rows] = view();
  ASSERT_GE(small.at("nodes").get<int>(), 20) << small;
  ASSERT_GE(small.at("line").size(), 2U) << small;
  EXPECT_LE(small_rows, 12U);
  {
    prove::Store writer(store, true);
    writer.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000) "
        "INSERT OR IGNORE INTO nodes(key, position, expanded, scored, score, tried, win, draw, win_source,"
        " draw_source, win_seq, draw_seq) SELECT -i, '" +
        root + "', 0, 0, 0, 0, -1, -1, '', '', 0, 0 FROM n");
  }
  const auto [large, large_rows] = view();
  EXPECT_EQ(large_rows, small_rows);
  EXPECT_EQ(large, small);
  server.stop();
}

// Slow: three pieces, the CLI's probe and a load test, against `gamesolver serve`.
class ServerSlow : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const test::RunResult r = test::run({GAMESOLVER_BINARY, "build", "jungle", "--pieces", "3", "--data",
                                         (dir_->path() / "data").string(), "--quiet"},
                                        dir_->path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    serve_ = new ServeProcess(*dir_,
                              {"--port", "0", "--data", (dir_->path() / "data").string(), "--threads", "8"});
    port_ = serve_->port(dir_->path());
    ASSERT_GT(port_, 0);
  }
  static void TearDownTestSuite() {
    if (serve_ != nullptr) {
      serve_->child().kill(SIGTERM);
      serve_->child().wait();
    }
    delete serve_;
    delete dir_;
  }
  static server::LoadOptions load_options() {
    server::LoadOptions options;
    options.port = port_;
    options.seeds = {"7/2t1d2/7/7/7/2D4/7 w", "1r5/7/7/7/7/7/1E3R1 b", "7/7/2t4/7/7/2D1T2/7 w"};
    return options;
  }
  static TempDir* dir_;
  static ServeProcess* serve_;
  static int port_;
};

TempDir* ServerSlow::dir_ = nullptr;
ServeProcess* ServerSlow::serve_ = nullptr;
int ServerSlow::port_ = 0;

TEST_F(ServerSlow, EveryAnswerIsTheProbesJson) {
  server::LoadOptions options = load_options();
  options.positions = 60;
  const std::vector<std::string> positions = server::gather_positions(options);
  ASSERT_EQ(positions.size(), 60U);
  httplib::Client c("127.0.0.1", port_);
  for (const std::string& text : positions) {
    const auto response = c.Get(server::position_target("jungle", text, ""));
    ASSERT_TRUE(response);
    ASSERT_EQ(response->status, 200);
    const test::RunResult probe = test::run(
        {GAMESOLVER_BINARY, "probe", "jungle", text, "--json", "--data", (dir_->path() / "data").string()},
        dir_->path());
    ASSERT_EQ(probe.exit_code, 0) << probe.err;
    const json served = json::parse(response->body);
    EXPECT_EQ(served, json::parse(probe.out)) << text;
    EXPECT_FALSE(served.at("value").is_null()) << text;
  }
}

TEST_F(ServerSlow, PerfectPlayEndsTheGameOnTime) {
  httplib::Client c("127.0.0.1", port_);
  for (const std::string& start : load_options().seeds) {
    std::string text = start;
    json report = json::parse(c.Get(server::position_target("jungle", text, ""))->body);
    ASSERT_FALSE(report.at("value").is_null());
    if (report["value"]["outcome"] == "draw") continue;
    int depth = report["value"]["depth"];
    const std::string winner = report["value"]["outcome"] == "win" ? "win" : "loss";
    for (int ply = 0; !report.at("terminal").get<bool>(); ++ply) {
      ASSERT_LE(ply, 200) << start;
      ASSERT_TRUE(report.at("best").is_string()) << report.dump();
      report = json::parse(
          c.Get(server::position_target("jungle", text, "") + "&move=" + report["best"].get<std::string>())
              ->body);
      text = report.at("position");
      // Each ply brings the end one nearer, from the other side's point of view.
      EXPECT_EQ(report.at("value").at("depth"), depth - 1) << text;
      depth -= 1;
    }
    EXPECT_EQ(depth, 0) << start;
  }
}

TEST_F(ServerSlow, LoadOnLoopbackWithoutErrors) {
  server::LoadOptions options = load_options();
  options.positions = 400;
  options.connections = 8;
  options.requests = 5000;
  options.max_seconds = 120;
  const std::vector<std::string> positions = server::gather_positions(options);
  ASSERT_GE(positions.size(), 100U);
  const server::LoadResult result = server::run_load(options, positions);
  std::string errors;
  for (const std::string& e : result.first_errors) errors += e + "\n";
  EXPECT_EQ(result.errors, 0U) << errors;
  EXPECT_GT(result.requests, 0U);
  if (result.out_of_time) {
    std::printf("load test: stopped after %.1f s with %llu of %llu requests sent\n", result.seconds,
                static_cast<unsigned long long>(result.requests),
                static_cast<unsigned long long>(options.requests));
  } else {
    EXPECT_EQ(result.requests, options.requests);
  }
  std::printf(
      "load test: %llu requests over %d connections in %.2f s (%.0f/s), p50 %.2f ms, p99 %.2f ms, 0 errors\n",
      static_cast<unsigned long long>(result.requests), options.connections, result.seconds,
      result.requests_per_second, result.p50_ms, result.p99_ms);
}

}  // namespace
}  // namespace gs
