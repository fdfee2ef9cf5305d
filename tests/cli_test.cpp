// The gamesolver command end to end, run as a child process: build, probe (text and
// --json), verify, stats, count on a temporary data directory; errors for bad input
// and damaged databases; a build killed with SIGKILL that resumes to files identical to
// an uninterrupted build; what build, verify and stats report (a rebuilt tier's reason,
// every inconsistency counted, the build's progress); and the lock that keeps two
// writers out of one database directory.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>
#include <cctype>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/verify.h"
#include "core/quote.h"
#include "core/value.h"
#include "db/database.h"
#include "db/directory_lock.h"
#include "db/tier_file.h"
#include "games/jungle/jungle.h"
#include "games/morris/morris.h"
#include "tests/game_battery.h"
#include "tests/test_util.h"

#ifndef GAMESOLVER_BINARY
#error "GAMESOLVER_BINARY must name the gamesolver executable"
#endif

namespace gs {
namespace {

using jungle::Jungle;
using test::RunResult;
using test::TempDir;
namespace fs = std::filesystem;
using json = nlohmann::json;

RunResult gamesolver(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), GAMESOLVER_BINARY);
  return test::run(args, dir.path());
}

std::string describe(const RunResult& r) {
  return "exit " + std::to_string(r.exit_code) +
         (r.signal != 0 ? " signal " + std::to_string(r.signal) : "") + "\nstdout:\n" +
         r.out.substr(0, 3000) + "\nstderr:\n" + r.err.substr(0, 3000);
}

#define EXPECT_SUCCESS(r) EXPECT_EQ((r).exit_code, 0) << describe(r)

// A failure a user caused: non-zero exit, and a line "gamesolver: error: ..." on stderr
// that contains `what`.
void expect_error(const RunResult& r, const std::string& what) {
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.signal, 0) << describe(r);
  bool found = false;
  std::size_t start = 0;
  while (start < r.err.size()) {
    std::size_t end = r.err.find('\n', start);
    if (end == std::string::npos) end = r.err.size();
    const std::string line = r.err.substr(start, end - start);
    if (line.starts_with("gamesolver: error: ") && line.find(what) != std::string::npos) found = true;
    start = end + 1;
  }
  EXPECT_TRUE(found) << "no line 'gamesolver: error: ...' containing '" << what << "'\n" << describe(r);
}

std::optional<Value> value_of(const json& j) {
  if (j.is_null()) return std::nullopt;
  const std::string outcome = j.at("outcome").get<std::string>();
  if (outcome == "draw") return Value::draw();
  const auto depth = j.at("depth").get<Depth>();
  if (outcome == "win") return Value::win(depth);
  if (outcome == "loss") return Value::loss(depth);
  throw std::runtime_error("bad outcome " + outcome);
}

// A count in the JSON output, written as a number or as a string of digits.
std::uint64_t count_of(const json& j) {
  if (j.is_string()) return std::stoull(j.get<std::string>());
  return j.get<std::uint64_t>();
}

std::string text_of(const std::optional<Value>& value) { return value ? value->to_string() : "none"; }

json probe_json(const TempDir& dir, const fs::path& data, const std::string& position) {
  const RunResult r = gamesolver(dir, {"probe", "jungle", position, "--data", data.string(), "--json"});
  EXPECT_SUCCESS(r);
  try {
    return json::parse(r.out);
  } catch (const json::exception& e) {
    ADD_FAILURE() << "probe --json printed no JSON: " << e.what() << "\n" << describe(r);
    return json::object();
  }
}

// Probes a position with --json and checks the answer: the position's text, tier and
// index, its value against the database read in this process, every move's value
// against a probe of the position it leads to, and the position's value against the
// best of its moves.
void check_probe(const TempDir& dir, const fs::path& data, const std::string& position) {
  SCOPED_TRACE(position);
  const Jungle game;
  const Jungle::Position pos = game.parse_position(position);
  db::Database database(db::Location::of(game, data));
  const json j = probe_json(dir, data, position);
  ASSERT_TRUE(j.contains("moves")) << j.dump();
  EXPECT_EQ(j.at("game"), "jungle");
  EXPECT_EQ(j.at("position"), Jungle::position_text(pos));
  const std::optional<Value> value = value_of(j.at("value"));
  EXPECT_EQ(text_of(value), text_of(db::probe(game, database, pos)));
  if (Jungle::terminal(pos)) {
    EXPECT_TRUE(j.at("moves").empty());
    return;
  }
  const Ranked ranked = game.rank(pos);
  EXPECT_EQ(j.at("tier"), game.tier_name(ranked.tier));
  EXPECT_EQ(j.at("index").get<Index>(), ranked.index);
  MoveList<Jungle> moves;
  game.moves(pos, moves);
  EXPECT_EQ(j.at("moves").size(), moves.size());
  std::optional<Value> best;
  std::set<std::string> seen;
  for (const json& row : j.at("moves")) {
    const std::string move = row.at("move");
    seen.insert(move);
    const std::optional<Value> move_value = value_of(row.at("value"));
    const std::string child_text = row.at("position");
    EXPECT_EQ(child_text, Jungle::position_text(Jungle::play(pos, game.parse_move(pos, move))));
    const json child = probe_json(dir, data, child_text);
    const std::optional<Value> child_value = value_of(child.at("value"));
    EXPECT_EQ(text_of(move_value),
              text_of(child_value ? std::optional<Value>(child_value->before_move()) : std::nullopt))
        << "move " << move;
    if (move_value && (!best || move_value->better_than(*best))) best = move_value;
  }
  EXPECT_EQ(seen.size(), moves.size());
  if (value) {
    // The value of a position is that of its best move (or the rules' value without one).
    EXPECT_EQ(text_of(value), text_of(moves.empty() ? std::optional<Value>(game.no_move_value()) : best));
  }
}

// Rewrites a tier with `count` values changed (losses made draws) and correct checksums
// (see retro_test.cpp).
void change_values(const Jungle& game, const fs::path& data, const std::string& tier_name, int count) {
  const db::Location location = db::Location::of(game, data);
  const Tier tier = Jungle::parse_tier(tier_name);
  const fs::path path = location.file(tier_name);
  std::vector<ValueCode> codes;
  db::TierHeader header;
  {
    const auto reader = db::open_tier(path, location.expected(tier, game.size(tier)), true);
    header = reader->header();
    for (Index i = 0; i < header.positions; ++i) codes.push_back(reader->code(i));
  }
  int changed = 0;
  for (ValueCode& code : codes) {
    if (changed < count && code != kHoleCode && Value::from_code(code).is_loss()) {
      code = Value::draw().code();
      ++changed;
    }
  }
  ASSERT_EQ(changed, count) << tier_name << " has too few losses";
  db::write_tier(path, header, codes);
}

void change_one_value(const Jungle& game, const fs::path& data, const std::string& tier_name) {
  change_values(game, data, tier_name, 1);
}

// The lines of a text.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Whether a text has this line.
bool has_line(const std::string& text, const std::string& line) {
  const std::vector<std::string> lines = lines_of(text);
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

// The number at the start of text (after `prefix`), or -1.
long long number_after(const std::string& text, const std::string& prefix) {
  const std::size_t at = text.find(prefix);
  if (at == std::string::npos) return -1;
  std::size_t i = at + prefix.size();
  if (i >= text.size() || std::isdigit(static_cast<unsigned char>(text[i])) == 0) return -1;
  long long number = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0; ++i)
    number = number * 10 + (text[i] - '0');
  return number;
}

// The numbers of tiers built and already complete from build's summary line, or -1.
// (No std::regex: GCC 12 warns inside it under the sanitizers.)
std::pair<int, int> built_and_complete(const std::string& out) {
  const std::size_t line =
      out.rfind("\nbuilt ") == std::string::npos ? out.find("built ") : out.rfind("\nbuilt ") + 1;
  if (line == std::string::npos) return {-1, -1};
  auto number_at = [&](std::size_t at) {
    int number = -1;
    for (; at < out.size() && std::isdigit(static_cast<unsigned char>(out[at])) != 0; ++at) {
      number = (number < 0 ? 0 : number * 10) + (out[at] - '0');
    }
    return number;
  };
  const int built = number_at(line + std::string("built ").size());
  const std::string tail = " tiers were already complete";
  const std::size_t end = out.find(tail, line);
  if (end == std::string::npos) return {-1, -1};
  std::size_t start = end;
  while (start > line && std::isdigit(static_cast<unsigned char>(out[start - 1])) != 0) --start;
  return {built, start == end ? -1 : number_at(start)};
}

// ---------------------------------------------------------------------------------
// Fast: two pieces.

TEST(Cli, HelpAndUsage) {
  TempDir dir;
  RunResult r = gamesolver(dir, {"--help"});
  EXPECT_SUCCESS(r);
  for (const char* word : {"build", "probe", "verify", "stats", "count", "jungle", "elephant_takes_rat"}) {
    EXPECT_NE(r.out.find(word), std::string::npos) << word << "\n" << describe(r);
  }
  r = gamesolver(dir, {"build", "--help"});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("--pieces"), std::string::npos) << describe(r);
  EXPECT_NE(gamesolver(dir, {}).exit_code, 0);
  EXPECT_NE(gamesolver(dir, {"frobnicate", "jungle"}).exit_code, 0);
  EXPECT_NE(gamesolver(dir, {"build", "jungle", "--pieces", "1"}).exit_code, 0);
  EXPECT_NE(gamesolver(dir, {"build", "jungle", "--pieces", "two"}).exit_code, 0);
}

// A build without MPI (cmake -DGAMESOLVER_MPI=OFF, the ThreadSanitizer job of
// scripts/test.sh) says so for --mpi; with MPI, the MPI tests (tests/mpi_build_test.sh)
// run it under mpirun.
TEST(Cli, MpiIsOptional) {
  TempDir dir;
  const std::string data = (dir.path() / "data").string();
  const RunResult help = gamesolver(dir, {"build", "--help"});
  EXPECT_NE(help.out.find("--mpi"), std::string::npos) << help.out;
  const RunResult prove_help = gamesolver(dir, {"prove", "--help"});
  EXPECT_NE(prove_help.out.find("--mpi-timeout"), std::string::npos) << prove_help.out;
  const std::string store = (dir.path() / "proof.db").string();
  if (!GAMESOLVER_WITH_MPI) {
    expect_error(gamesolver(dir, {"build", "jungle", "--pieces", "2", "--mpi", "--data", data}),
                 "built without MPI");
    expect_error(gamesolver(dir, {"prove", "jungle", "7/2e4/7/7/7/7/R6 w", "--store", store, "--mpi"}),
                 "built without MPI");
  }
  // Under --mpi the worker ranks are the workers, and --status and --check run without it.
  for (const char* other : {"--workers", "--status", "--check"}) {
    std::vector<std::string> args = {"prove", "jungle", "7/2e4/7/7/7/7/R6 w", "--store", store,
                                     "--mpi", other};
    if (std::string(other) == "--workers") args.emplace_back("2");
    const RunResult r = gamesolver(dir, args);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_NE(r.err.find("excludes"), std::string::npos) << describe(r);
  }
  EXPECT_FALSE(fs::exists(store));
}

// prove --seed-file: lines of moves, comments and blank lines passed over; a bad move
// names its line; a missing file is an error before any store is made.
TEST(Cli, ProveSeedFile) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  EXPECT_SUCCESS(gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data, "--quiet"}));
  const std::string root = "7/2e4/7/7/7/7/R6 w";
  test::write_file(dir / "seeds.txt", "# two lines\n\nRa2 ec7\n  Rb1 ed6 Rc1  \n");
  const RunResult seeded =
      gamesolver(dir, {"prove", "jungle", root, "--store", (dir / "a.db").string(), "--data", data,
                       "--seed-file", (dir / "seeds.txt").string(), "--json", "--quiet"});
  EXPECT_SUCCESS(seeded);
  const json summary = json::parse(seeded.out);
  EXPECT_EQ(summary.at("result"), "win") << seeded.out;
  EXPECT_GE(summary.at("nodes").get<int>(), 6)
      << seeded.out;  // the root and the 5 seeded positions  // the root and the 5 seeded positions
  test::write_file(dir / "bad.txt", "Ra2\nRa2 zz9\n");
  expect_error(gamesolver(dir, {"prove", "jungle", root, "--store", (dir / "b.db").string(), "--data", data,
                                "--seed-file", (dir / "bad.txt").string()}),
               "seed move zz9 of seed line 2");
  expect_error(gamesolver(dir, {"prove", "jungle", root, "--store", (dir / "c.db").string(), "--data", data,
                                "--seed-file", (dir / "missing.txt").string()}),
               "cannot read the seed file");
  EXPECT_FALSE(fs::exists(dir / "c.db"));
}

TEST(Cli, BadInput) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  expect_error(gamesolver(dir, {"probe", "chess", "start", "--data", data}), "unknown game 'chess'");
  expect_error(gamesolver(dir, {"build", "chess", "--data", data}), "unknown game");
  expect_error(gamesolver(dir, {"probe", "jungle", "1r3e1/2t1d2/7/7/7/2D1T2 w", "--data", data}), "7 ranks");
  expect_error(gamesolver(dir, {"probe", "jungle", "1x3e1/2t1d2/7/7/7/2D1T2/1E3R1 w", "--data", data}),
               "not a piece");
  expect_error(gamesolver(dir, {"probe", "jungle", "", "--data", data}), "no side to move");
  expect_error(gamesolver(dir, {"probe", "jungle", "start", "--rule", "foo=1", "--data", data}),
               "unknown rule option 'foo'");
  expect_error(
      gamesolver(dir, {"build", "jungle", "--pieces", "2", "--rule", "stalemate=win", "--data", data}),
      "stalemate");
  expect_error(gamesolver(dir, {"build", "jungle", "--pieces", "2", "--variant", "big", "--data", data}),
               "unknown variant");
  // Nothing was built by the failed commands.
  EXPECT_TRUE(!fs::exists(data) || test::snapshot(data).empty());
}

TEST(Cli, EndToEndTwoPieces) {
  TempDir dir;
  const fs::path data = dir / "data";
  RunResult r = gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"});
  EXPECT_SUCCESS(r);
  EXPECT_EQ(built_and_complete(r.out), std::make_pair(10, 0)) << describe(r);
  r = gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data.string()});
  EXPECT_SUCCESS(r);
  EXPECT_EQ(built_and_complete(r.out), std::make_pair(0, 10)) << describe(r);
  EXPECT_EQ(test::snapshot(data).size(), 10U);

  for (const char* position : {"7/7/2r4/7/3E3/7/7 b", "7/3R3/7/7/7/7/d6 w", "7/7/7/7/7/7/2Rr3 w"}) {
    check_probe(dir, data, position);
  }
  r = gamesolver(dir, {"probe", "jungle", "7/3R3/7/7/7/7/d6 w", "--data", data.string()});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("value: win in 1"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("Rd7"), std::string::npos) << describe(r);

  r = gamesolver(dir, {"verify", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("verified"), std::string::npos) << describe(r);

  r = gamesolver(dir, {"stats", "jungle", "--pieces", "2", "--data", data.string(), "--json"});
  EXPECT_SUCCESS(r);
  const json stats = json::parse(r.out);
  ASSERT_EQ(stats.at("tiers").size(), 10U);
  std::uint64_t positions = 0;
  for (const json& tier : stats.at("tiers")) {
    EXPECT_TRUE(tier.at("built").get<bool>());
    EXPECT_EQ(tier.at("wins").get<std::uint64_t>() + tier.at("draws").get<std::uint64_t>() +
                  tier.at("losses").get<std::uint64_t>(),
              tier.at("positions").get<std::uint64_t>());
    EXPECT_EQ(tier.at("indices").get<Index>(),
              Jungle::size(Jungle::parse_tier(tier.at("tier").get<std::string>())));
    positions += tier.at("positions").get<std::uint64_t>();
  }
  EXPECT_EQ(positions, 16U * 1091U);  // two pieces have no holes
  EXPECT_EQ(stats.at("total").at("positions").get<std::uint64_t>(), positions);

  r = gamesolver(dir, {"count", "jungle", "--pieces", "2", "--json", "--quiet"});
  EXPECT_SUCCESS(r);
  const json counts = json::parse(r.out).at("counts");
  ASSERT_EQ(counts.size(), 1U);
  EXPECT_EQ(count_of(counts[0].at("pieces")), 2U);
  EXPECT_EQ(count_of(counts[0].at("positions")), 69184U);
  EXPECT_EQ(count_of(counts[0].at("end_positions")), 27448U);
  EXPECT_EQ(count_of(counts[0].value("stalemates", json(0))), 0U);
  EXPECT_EQ(count_of(counts[0].at("indices")), 17456U);
}

TEST(Cli, MorrisEndToEnd) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  // The extended solution of the small board up to 4 stones a side builds what it needs.
  RunResult r = gamesolver(dir, {"extended", "morris", "--variant", "five", "--max-in-hand", "4", "--data",
                                 data, "--quiet", "--json"});
  EXPECT_SUCCESS(r);
  const json table = json::parse(r.out);
  EXPECT_EQ(table.at("variant"), "five");
  std::map<std::pair<int, int>, std::string> values;
  for (const json& start : table.at("starts")) {
    std::string value = start.at("value").get<std::string>();
    if (!start.at("depth").is_null()) value += fmt::format(" {}", start.at("depth").get<int>());
    values[{start.at("white").get<int>(), start.at("black").get<int>()}] = value;
  }
  EXPECT_EQ(values, (std::map<std::pair<int, int>, std::string>{
                        {{3, 3}, "draw"}, {{3, 4}, "loss 8"}, {{4, 3}, "win 9"}, {{4, 4}, "draw"}}));
  r = gamesolver(dir, {"extended", "morris", "--variant", "five", "--max-in-hand", "4", "--data", data});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("win in 9"), std::string::npos) << describe(r);

  r = gamesolver(dir,
                 {"probe", "morris", "--variant", "five", "W:a1,c1 B:b2,d2 w 2 2", "--data", data, "--json"});
  EXPECT_SUCCESS(r);
  const json probe = json::parse(r.out);
  EXPECT_EQ(probe.at("position"), "W:a1,c1 B:b2,d2 w 2 2");
  bool found = false;
  for (const json& move : probe.at("moves")) found |= move.at("move") == "e1xb2";
  EXPECT_TRUE(found) << r.out;
  r = gamesolver(dir, {"verify", "morris", "--variant", "five", "--pieces", "4", "--data", data, "--quiet"});
  EXPECT_SUCCESS(r);
  r = gamesolver(dir, {"stats", "morris", "--variant", "five", "--pieces", "4", "--data", data});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("4-4-0-0"), std::string::npos) << describe(r);

  expect_error(gamesolver(dir, {"probe", "morris", "W:a1,c1 B:b2 w 9", "--data", data}),
               "expected White's points");
  expect_error(gamesolver(dir, {"probe", "morris", "--variant", "five", "W:d1 B: w 4 4", "--data", data}),
               "not a point");
  expect_error(gamesolver(dir, {"probe", "morris", "--variant", "nine", "start", "--data", data}),
               "unknown variant 'nine'");
  expect_error(gamesolver(dir, {"extended", "jungle", "--max-in-hand", "4", "--data", data}),
               "no extended solutions");
  expect_error(gamesolver(dir, {"build", "morris", "--rule", "flying=2", "--data", data}), "flying");
  EXPECT_NE(gamesolver(dir, {"extended", "morris", "--max-in-hand", "13", "--data", data}).exit_code, 0);
}

// --start builds, verifies and lists only the tiers the start position needs: for Five
// Men's Morris (5 stones a side) 37 of the 102 tiers the starts with 3..5 stones need.
TEST(Cli, StartScopeIsTheStartsClosure) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  RunResult r =
      gamesolver(dir, {"build", "morris", "--variant", "five", "--start", "--data", data, "--quiet"});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("built 37 tiers (1204943 indices)"), std::string::npos) << describe(r);
  r = gamesolver(dir, {"probe", "morris", "--variant", "five", "start", "--data", data, "--json"});
  EXPECT_SUCCESS(r);
  EXPECT_EQ(json::parse(r.out).at("value").at("outcome"), "draw") << r.out;
  r = gamesolver(dir, {"verify", "morris", "--variant", "five", "--start", "--data", data, "--quiet"});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("verified 1204943 indices of morris for the start position"), std::string::npos)
      << describe(r);
  r = gamesolver(dir, {"stats", "morris", "--variant", "five", "--start", "--data", data, "--json"});
  EXPECT_SUCCESS(r);
  EXPECT_EQ(json::parse(r.out).at("tiers").size(), 37U);
  // The other starts' tiers are not there.
  expect_error(gamesolver(dir, {"stats", "morris", "--variant", "five", "--pieces", "5", "--data", data}),
               "65 tiers are not built: run gamesolver build morris --pieces 5");
  expect_error(gamesolver(dir, {"build", "morris", "--start", "--pieces", "4", "--data", data}),
               "--pieces excludes --start");
  expect_error(gamesolver(dir, {"build", "morris", "--start", "--ultra", "ratio", "--data", data}),
               "--start is for the strong databases");
}
// --tier builds, verifies and lists only the named tiers and those they need: 4-4-0-0 of
// Five Men's Morris needs 4-3-0-0 and 3-3-0-0, and its file is the one the whole build
// writes.
TEST(Cli, TierScopeIsTheNamedTiersClosure) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  const std::string whole = (dir / "whole").string();
  RunResult r = gamesolver(dir, {"build", "morris", "--variant", "five", "--tier", "4-4-0-0", "--tier",
                                 "3-4-1-0", "--data", data, "--quiet"});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("built 4 tiers (172172 indices)"), std::string::npos) << describe(r);
  r = gamesolver(dir,
                 {"verify", "morris", "--variant", "five", "--tier", "4-4-0-0", "--data", data, "--quiet"});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("verified 142142 indices of morris for 4-4-0-0 and the tiers needed"),
            std::string::npos)
      << describe(r);
  r = gamesolver(dir,
                 {"stats", "morris", "--variant", "five", "--tier", "4-4-0-0", "--data", data, "--json"});
  EXPECT_SUCCESS(r);
  EXPECT_EQ(json::parse(r.out).at("tiers").size(), 3U);
  EXPECT_SUCCESS(
      gamesolver(dir, {"build", "morris", "--variant", "five", "--pieces", "4", "--data", whole, "--quiet"}));
  EXPECT_EQ(test::read_file(fs::path(data) / "morris/five/4-4-0-0.gsdb"),
            test::read_file(fs::path(whole) / "morris/five/4-4-0-0.gsdb"));
  expect_error(gamesolver(dir, {"stats", "morris", "--variant", "five", "--tier", "5-5-0-0", "--data", data}),
               "tiers are not built: run gamesolver build morris --tier 5-5-0-0");
  expect_error(gamesolver(dir, {"build", "morris", "--tier", "4-x-0-0", "--data", data}),
               "tier '4-x-0-0': a count must be a number");
  expect_error(gamesolver(dir, {"build", "morris", "--tier", "4-4-0-0", "--start", "--data", data}),
               "excludes");
  expect_error(gamesolver(dir, {"build", "morris", "--tier", "4-4-0-0", "--pieces", "4", "--data", data}),
               "excludes");
  expect_error(gamesolver(dir, {"build", "morris", "--tier", "4-4-0-0", "--ultra", "ratio", "--data", data}),
               "--tier is for the strong databases");
}

// A sector's figures as Gévay and Danner publish them for sectors with all stones
// placed (Table V for Nine Men's Morris, Table VI for Morabaraba): win, draw and loss
// percent rounded (-1: "0+", above 0 and below 0.5; 0: none at all), and the longest
// win or loss in plies.
struct PublishedSector {
  std::string sector, tier;
  int win, draw, loss, longest;
};

// The mill game `variant` builds tier 4-3-0-0 (with 3-3-0-0, which it needs) into
// `data`; stats --sectors --json gives its sectors' rows, checked against `published`
// and returned by sector (the caller checks there are three).
std::map<std::string, json> expect_published_sectors(const TempDir& dir, const std::string& variant,
                                                     const std::string& data,
                                                     const std::vector<PublishedSector>& published,
                                                     json& body) {
  const std::vector<std::string> scope = {"morris",  "--variant", variant, "--tier",
                                          "4-3-0-0", "--data",    data};
  std::vector<std::string> args = {"build"};
  args.insert(args.end(), scope.begin(), scope.end());
  args.emplace_back("--quiet");
  EXPECT_SUCCESS(gamesolver(dir, args));
  args = {"stats"};
  args.insert(args.end(), scope.begin(), scope.end());
  for (const char* extra : {"--sectors", "--json", "--threads", "2"}) args.emplace_back(extra);
  const RunResult r = gamesolver(dir, args);
  EXPECT_SUCCESS(r);
  body = json::parse(r.out);
  std::map<std::string, json> sectors;
  for (const json& row : body.at("sectors")) sectors[row.at("sector").get<std::string>()] = row;
  for (const PublishedSector& p : published) {
    SCOPED_TRACE(p.sector);
    if (!sectors.contains(p.sector)) {
      ADD_FAILURE() << "no row " << describe(r);
      continue;
    }
    const json& row = sectors.at(p.sector);
    EXPECT_EQ(row.at("tier"), p.tier);
    const auto positions = row.at("positions").get<double>();
    const auto expect_percent = [&](const char* key, int percent) {
      const double ours = 100 * row.at(key).get<double>() / positions;
      if (percent < 0) {
        EXPECT_GT(ours, 0) << key;
        EXPECT_LT(ours, 0.5) << key;
      } else if (percent == 0) {
        EXPECT_EQ(row.at(key).get<std::uint64_t>(), 0U) << key;
      } else {
        EXPECT_NEAR(ours, percent, 0.5) << key;
      }
    };
    expect_percent("wins", p.win);
    expect_percent("draws", p.draw);
    expect_percent("losses", p.loss);
    EXPECT_EQ(std::max(row.at("longest_win").get<int>(), row.at("longest_loss").get<int>()), p.longest);
  }
  return sectors;
}

// stats --sectors: a paired tier's two sectors apart, against the figures Gévay and
// Danner publish for these sectors of Nine Men's Morris (Table V), and against the
// headers: a file whose values do not add up to its header's counts is reported.
TEST(Cli, SectorStatsSplitPairedTiers) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  json body;
  const std::map<std::string, json> sectors =
      expect_published_sectors(dir, "standard", data,
                               {{"3-3-0-0", "3-3-0-0", 83, -1, 17, 26},
                                {"4-3-0-0", "4-3-0-0", 10, 90, -1, 32},
                                {"3-4-0-0", "4-3-0-0", 13, 87, 0, 33}},
                               body);
  ASSERT_EQ(sectors.size(), 3U);
  // Ours, exactly: the twins' positions are as many, and 3-3-0-0 is the header's row.
  EXPECT_EQ(sectors.at("3-3-0-0").at("positions"), 169626);
  EXPECT_EQ(sectors.at("3-3-0-0").at("wins"), 140621);
  EXPECT_EQ(sectors.at("3-3-0-0").at("draws"), 269);
  EXPECT_EQ(sectors.at("4-3-0-0").at("positions"), 760398);
  EXPECT_EQ(sectors.at("3-4-0-0").at("positions"), 760398);
  EXPECT_EQ(sectors.at("4-3-0-0").at("longest_win"), 1);
  EXPECT_EQ(body.at("total").at("positions"), 1690422);
  RunResult r = gamesolver(dir, {"stats", "morris", "--tier", "4-3-0-0", "--sectors", "--data", data});
  EXPECT_SUCCESS(r);
  EXPECT_TRUE(has_line(r.out, "3-4-0-0    4-3-0-0          760398   13.45   86.55    0.00       33        0"))
      << describe(r);

  // A hole given a value in a file that keeps its holes: the header counts it as a
  // position, the sectors do not.
  const morris::Morris game;
  const db::Location location = db::Location::of(game, data);
  const Tier tier = game.parse_tier("3-3-0-0");
  const fs::path path = location.file("3-3-0-0");
  std::vector<ValueCode> codes;
  db::TierHeader header;
  {
    const auto reader = db::open_tier(path, location.expected(tier, game.size(tier)), true);
    header = reader->header();
    for (Index i = 0; i < header.positions; ++i)
      codes.push_back(game.unrank(tier, i) ? reader->code(i) : kHoleCode);
  }
  Index hole = 0;
  while (game.unrank(tier, hole)) ++hole;
  codes.at(hole) = Value::draw().code();
  db::WriteOptions keep_holes;
  keep_holes.fill_holes = false;
  db::write_tier(path, header, codes, keep_holes);
  expect_error(gamesolver(dir, {"stats", "morris", "--tier", "3-3-0-0", "--sectors", "--data", data}),
               "do not add up to the counts of its header");
  // A position without a value.
  codes.at(hole) = kHoleCode;
  Index position = 0;
  while (!game.unrank(tier, position)) ++position;
  codes.at(position) = kHoleCode;
  db::write_tier(path, header, codes, keep_holes);
  expect_error(gamesolver(dir, {"stats", "morris", "--tier", "3-3-0-0", "--sectors", "--data", data}),
               "is a position but holds no value");
  expect_error(gamesolver(dir, {"stats", "jungle", "--sectors", "--data", data}), "has no sectors");
  expect_error(gamesolver(dir, {"stats", "morris", "--sectors", "--ultra", "ratio", "--data", data}),
               "excludes");
}

// The same for Morabaraba's smallest sectors against Table VI: no draw at all among
// three stones against three, as the paper remarks, where the standard game has 0.16 %.
TEST(Cli, SectorStatsOfMorabarabaAgreeWithTableVI) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  json body;
  const std::map<std::string, json> sectors =
      expect_published_sectors(dir, "morabaraba", data,
                               {{"3-3-0-0", "3-3-0-0", 83, 0, 17, 16},
                                {"4-3-0-0", "4-3-0-0", 21, 78, 1, 22},
                                {"3-4-0-0", "4-3-0-0", 20, 78, 2, 23}},
                               body);
  ASSERT_EQ(sectors.size(), 3U);
  // Ours, exactly, as the whole game's build counted them (docs/MORABARABA.md).
  EXPECT_EQ(sectors.at("3-3-0-0").at("positions"), 169626);
  EXPECT_EQ(sectors.at("3-3-0-0").at("longest_win"), 15);
  EXPECT_EQ(sectors.at("4-3-0-0").at("longest_win"), 7);
  EXPECT_EQ(sectors.at("3-4-0-0").at("longest_loss"), 6);
}

// verify --journal: a second run passes over the tiers the first found consistent, and
// verifies again a tier whose file, or a child's, changed since.
TEST(Cli, VerifyJournalGoesOnWhereItStopped) {
  const Jungle game;
  TempDir dir;
  const fs::path data = dir / "data";
  const std::string journal = (dir / "verified.txt").string();
  EXPECT_SUCCESS(gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"}));
  const std::vector<std::string> verify = {"verify", "jungle",      "--pieces",  "2",
                                           "--data", data.string(), "--journal", journal};
  RunResult r = gamesolver(dir, verify);
  EXPECT_SUCCESS(r);
  const std::size_t tiers = lines_of(test::read_file(journal)).size();
  EXPECT_GT(tiers, 3U);
  EXPECT_EQ(r.out.find("earlier run"), std::string::npos) << describe(r);
  EXPECT_TRUE(has_line(r.out, "E-r          ok")) << describe(r);

  r = gamesolver(dir, verify);
  EXPECT_SUCCESS(r);
  EXPECT_TRUE(has_line(r.out, "E-r          ok (the journal)")) << describe(r);
  EXPECT_NE(r.out.find(fmt::format("({} tiers found consistent by an earlier run, --journal)", tiers)),
            std::string::npos)
      << describe(r);
  EXPECT_EQ(lines_of(test::read_file(journal)).size(), tiers);

  // A changed value: its tier is verified again and found out, and is not recorded.
  const fs::path er = db::Location::of(game, data).file("E-r");
  const std::string good = test::read_file(er);
  change_one_value(game, data, "E-r");
  r = gamesolver(dir, verify);
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("E-r          1 inconsistent position"), std::string::npos) << describe(r);
  EXPECT_EQ(lines_of(test::read_file(journal)).size(), tiers);

  // A line cut short by a killed run matches nothing; the next starts a line of its own.
  test::write_file(er, good);
  test::write_file(journal, "E-r E-r=0123");
  r = gamesolver(dir, verify);
  EXPECT_SUCCESS(r);
  EXPECT_TRUE(has_line(r.out, "E-r          ok")) << describe(r);
  const std::vector<std::string> lines = lines_of(test::read_file(journal));
  EXPECT_EQ(lines.size(), tiers + 1);
  EXPECT_EQ(lines.front(), "E-r E-r=0123");
  EXPECT_TRUE(has_line(gamesolver(dir, verify).out, "E-r          ok (the journal)"));

  std::vector<std::string> checksums = verify;
  checksums.emplace_back("--checksums");
  expect_error(gamesolver(dir, checksums), "--journal is for verifying the strong databases");
}

// verify --memory: a tier whose file and children's, decompressed whole, exceed the
// budget is reported and not verified (exit 1); with the largest tier's need as the
// budget every tier passes, the tiers kept open for later ones let go where they and the
// next tier's would not fit together.
TEST(Cli, VerifyKeepsToItsMemoryBudget) {
  const Jungle game;
  TempDir dir;
  const fs::path data = dir / "data";
  EXPECT_SUCCESS(gamesolver(dir, {"build", "jungle", "--pieces", "3", "--data", data.string(), "--quiet"}));
  db::Database database(db::Location::of(game, data));
  std::uint64_t largest = 0;
  std::uint64_t all = 0;
  Tier hungriest = 0;
  for (const Tier tier : game.tiers(3)) {
    std::uint64_t need = 0;
    for (const Tier t : retro::tiers_verified_with(game, tier))
      need += database.find(game, t)->memory_bytes();
    if (need > largest) {
      largest = need;
      hungriest = tier;
    }
    all += database.find(game, tier)->memory_bytes();
  }
  ASSERT_GT(all, largest);  // keeping every tier open would not fit

  // The tiers another tier's check does not read are let go only when they would not fit
  // beside it.
  app::make_room_to_verify(game, database, hungriest, all);
  EXPECT_EQ(database.open_memory().size(), game.tiers(3).size());
  app::make_room_to_verify(game, database, hungriest, largest);
  std::set<Tier> open;
  for (const auto& [tier, bytes] : database.open_memory()) open.insert(tier);
  const std::vector<Tier> reading = retro::tiers_verified_with(game, hungriest);
  EXPECT_EQ(open, std::set<Tier>(reading.begin(), reading.end()));

  const auto gib = [](std::uint64_t bytes) {
    return fmt::format("{:.12f}", static_cast<double>(bytes) / static_cast<double>(1ULL << 30));
  };
  const std::vector<std::string> verify = {"verify", "jungle",      "--pieces", "3",
                                           "--data", data.string(), "--memory"};
  std::vector<std::string> enough = verify;
  enough.push_back(gib(largest + 1));
  const RunResult passed = gamesolver(dir, enough);
  EXPECT_SUCCESS(passed);
  EXPECT_NE(passed.out.find("every value agrees"), std::string::npos) << describe(passed);

  std::vector<std::string> short_of = verify;
  short_of.push_back(gib(largest - 1024));
  const RunResult refused = gamesolver(dir, short_of);
  EXPECT_NE(refused.exit_code, 0) << describe(refused);
  EXPECT_NE(refused.out.find(fmt::format("not verified: verifying tier {} needs", game.tier_name(hungriest))),
            std::string::npos)
      << describe(refused);
  EXPECT_NE(refused.err.find("over the budget of"), std::string::npos) << describe(refused);
  expect_error(
      gamesolver(dir, {"verify", "jungle", "--pieces", "3", "--data", data.string(), "--memory", "0"}),
      "--memory");
}

TEST(Cli, DamagedDatabases) {
  const Jungle game;
  TempDir dir;
  const fs::path data = dir / "data";
  EXPECT_SUCCESS(gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"}));
  const db::Location location = db::Location::of(game, data);
  const std::string position = "7/7/2r4/7/3E3/7/7 w";  // tier E-r
  ASSERT_EQ(game.tier_name(game.rank(game.parse_position(position)).tier), "E-r");

  // A corrupt file: probing a position of its tier names the file.
  const fs::path er = location.file("E-r");
  const std::string good = test::read_file(er);
  test::flip_byte(er, db::kHeaderSize + 17);
  expect_error(gamesolver(dir, {"probe", "jungle", position, "--data", data.string()}), er.string());
  expect_error(gamesolver(dir, {"verify", "jungle", "--pieces", "2", "--data", data.string()}), "checksum");
  test::write_file(er, good.substr(0, good.size() / 2));
  expect_error(gamesolver(dir, {"probe", "jungle", position, "--data", data.string(), "--json"}),
               "truncated");
  test::write_file(er, good);
  EXPECT_SUCCESS(gamesolver(dir, {"verify", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"}));

  // A value changed with the checksums made to match: only verify can tell, and it
  // names the tier and the inconsistent position.
  change_one_value(game, data, "E-r");
  RunResult r = gamesolver(dir, {"verify", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"});
  EXPECT_NE(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("tier E-r index"), std::string::npos) << describe(r);
  expect_error(r, "inconsistent");
  EXPECT_EQ(r.out.find("verified"), std::string::npos) << describe(r);
  test::write_file(er, good);

  // Missing tiers: stats says so and fails; probing that tier has no value.
  fs::remove(location.file("T-d"));
  r = gamesolver(dir, {"stats", "jungle", "--pieces", "2", "--data", data.string()});
  EXPECT_NE(r.exit_code, 0) << describe(r);
  const std::size_t row = r.out.find("\nT-d ");
  ASSERT_NE(row, std::string::npos) << describe(r);
  EXPECT_EQ(r.out.substr(row, r.out.find('\n', row + 1) - row).find("not built") != std::string::npos, true)
      << describe(r);
  r = gamesolver(dir, {"stats", "jungle", "--pieces", "2", "--data", data.string(), "--json"});
  EXPECT_NE(r.exit_code, 0) << describe(r);
  const json partial = json::parse(r.out);
  int unbuilt = 0;
  for (const json& tier : partial.at("tiers")) unbuilt += tier.at("built").get<bool>() ? 0 : 1;
  EXPECT_EQ(unbuilt, 1);
  r = gamesolver(dir, {"stats", "jungle", "--pieces", "3", "--data", data.string()});
  EXPECT_NE(r.exit_code, 0) << describe(r);
  expect_error(gamesolver(dir, {"verify", "jungle", "--pieces", "2", "--data", data.string()}), "not built");
  r = gamesolver(dir, {"probe", "jungle", "7/7/2d4/7/3T3/7/7 w", "--data", data.string(), "--json"});
  EXPECT_SUCCESS(r);
  EXPECT_TRUE(json::parse(r.out).at("value").is_null()) << describe(r);
  // Another rule set's databases are elsewhere: nothing is built for them.
  r = gamesolver(dir,
                 {"stats", "jungle", "--pieces", "2", "--rule", "stalemate=loss", "--data", data.string()});
  EXPECT_NE(r.exit_code, 0) << describe(r);
}

// ---------------------------------------------------------------------------------
// Slow: three pieces, and a killed build.

TEST(CliSlow, EndToEndThreePieces) {
  TempDir dir;
  const fs::path data = dir / "data";
  RunResult r = gamesolver(dir, {"build", "jungle", "--pieces", "3", "--data", data.string(), "--quiet"});
  EXPECT_SUCCESS(r);
  EXPECT_EQ(built_and_complete(r.out), std::make_pair(34, 0)) << describe(r);
  EXPECT_EQ(test::snapshot(data).size(), 34U);

  std::vector<std::string> positions = {"7/3t3/7/7/2R4/7/4D2 w", "rT5/D6/7/7/7/7/7 b", "7/7/2e4/3R3/7/7/7 b",
                                        "7/7/7/2eR3/7/7/3t3 w",  "7/7/7/7/7/7/2Rr3 w", "start"};
  const Jungle game;
  const auto sampled = test::sample_positions(game, game.tiers(3), 1, 99);
  for (std::size_t i = 0; i < sampled.size(); i += 8) positions.push_back(Jungle::position_text(sampled[i]));
  for (const std::string& position : positions) check_probe(dir, data, position);

  r = gamesolver(dir, {"verify", "jungle", "--pieces", "3", "--data", data.string()});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("verified"), std::string::npos) << describe(r);

  r = gamesolver(dir, {"stats", "jungle", "--pieces", "3", "--data", data.string(), "--json"});
  EXPECT_SUCCESS(r);
  const json stats = json::parse(r.out);
  EXPECT_EQ(stats.at("tiers").size(), 34U);
  std::uint64_t indices = 0;
  for (const json& tier : stats.at("tiers")) {
    EXPECT_TRUE(tier.at("built").get<bool>());
    indices += tier.at("indices").get<std::uint64_t>();
  }
  EXPECT_EQ(indices, 16U * 1091U + 48U * 1091U * 45U);
  r = gamesolver(dir, {"stats", "jungle", "--pieces", "3", "--data", data.string()});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("total"), std::string::npos) << describe(r);

  r = gamesolver(dir, {"count", "jungle", "--pieces", "3", "--json", "--quiet"});
  EXPECT_SUCCESS(r);
  const json counts = json::parse(r.out).at("counts");
  ASSERT_EQ(counts.size(), 2U);
  EXPECT_EQ(count_of(counts[0].at("positions")), 69184U);
  EXPECT_EQ(count_of(counts[1].at("pieces")), 3U);
  EXPECT_EQ(count_of(counts[1].at("positions")), 48ULL * 47 * 46 * 45 * 2);
  EXPECT_EQ(count_of(counts[1].at("stalemates")), 48U);
}

// Tier files complete under dir so far; a build renaming files meanwhile is no error.
std::size_t complete_tier_files(const fs::path& dir) {
  std::size_t count = 0;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.ends_with(".gsdb")) ++count;
  }
  return count;
}

TEST(CliSlow, KilledBuildResumesToIdenticalFiles) {
  TempDir dir;
  const fs::path clean = dir / "clean";
  const fs::path killed = dir / "killed";
  RunResult r = gamesolver(dir, {"build", "jungle", "--pieces", "3", "--data", clean.string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto want = test::snapshot(clean);
  ASSERT_EQ(want.size(), 34U);

  // Kill builds part-way, twice, the second resuming the first: each is killed once it
  // has made that many tier files, whatever the machine's speed (a kill after a fixed
  // time once came after a fast machine had finished every tier).
  for (const std::size_t made : {6U, 16U}) {
    test::Child child(
        {GAMESOLVER_BINARY, "build", "jungle", "--pieces", "3", "--data", killed.string(), "--quiet"},
        dir.path());
    while (!child.finished() && complete_tier_files(killed) < made)
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    ASSERT_FALSE(child.finished()) << "the build finished before it had made " << made << " tier files";
    child.kill(SIGKILL);
    const RunResult killed_run = child.wait();
    ASSERT_EQ(killed_run.signal, SIGKILL) << describe(killed_run);
  }
  EXPECT_LT(test::snapshot(killed).size(), 34U) << "the killed builds had finished every tier";

  r = gamesolver(dir, {"build", "jungle", "--pieces", "3", "--data", killed.string(), "--quiet"});
  EXPECT_SUCCESS(r);
  const auto [built, complete] = built_and_complete(r.out);
  EXPECT_EQ(built + complete, 34) << describe(r);
  EXPECT_GE(complete, 1) << "nothing the killed builds finished was kept\n" << describe(r);
  EXPECT_GE(built, 1) << describe(r);
  EXPECT_EQ(test::compare_snapshots(want, test::snapshot(killed)), "");

  // Temporary files a kill left behind are not tiers: stats and verify see the 34 tiers.
  r = gamesolver(dir, {"stats", "jungle", "--pieces", "3", "--data", killed.string(), "--json"});
  EXPECT_SUCCESS(r);
  const json stats = json::parse(r.out);
  EXPECT_EQ(stats.at("tiers").size(), 34U);
  for (const json& tier : stats.at("tiers")) EXPECT_TRUE(tier.at("built").get<bool>()) << tier.dump();
  std::uint64_t bytes = 0;
  for (const auto& [name, contents] : want) bytes += contents.size();
  EXPECT_EQ(stats.at("total").at("file_bytes").get<std::uint64_t>(), bytes);
  // The resumed build removed the temporary files of the killed ones.
  for (const std::string& leftover : test::files_named(killed, ".tmp-"))
    ADD_FAILURE() << "left behind: " << leftover;
  r = gamesolver(dir, {"verify", "jungle", "--pieces", "3", "--data", killed.string(), "--quiet"});
  EXPECT_SUCCESS(r);
}

// Numbers on the command line are finite and within their range, and the error names
// the option (NaN once made solve loop forever, and passed CLI::Range).
TEST(Cli, NumericOptionsAreFiniteAndInRange) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  for (const char* bad : {"nan", "inf", "-inf", "0", "-1", "1e9", "lots"}) {
    SCOPED_TRACE(bad);
    expect_error(gamesolver(dir, {"solve", "jungle", "start", "--memory", bad, "--data", data}), "--memory");
    expect_error(gamesolver(dir, {"build", "jungle", "--pieces", "2", "--memory", bad, "--data", data}),
                 "--memory");
    expect_error(
        gamesolver(dir, {"extended", "morris", "--max-in-hand", "3", "--memory", bad, "--data", data}),
        "--memory");
    expect_error(
        gamesolver(dir, {"build", "jungle", "--pieces", "2", "--mpi", "--mpi-timeout", bad, "--data", data}),
        "--mpi-timeout");
    expect_error(gamesolver(dir, {"prove", "jungle", "7/2e4/7/7/7/7/R6 w", "--store",
                                  (dir / "proof.db").string(), "--mpi", "--mpi-timeout", bad}),
                 "--mpi-timeout");
  }
  for (const char* bad : {"nan", "inf", "-1", "1e300"}) {
    SCOPED_TRACE(bad);
    expect_error(gamesolver(dir, {"solve", "jungle", "start", "--time", bad, "--data", data}), "--time");
  }
  // More than the machine has (but within the parser's range): the service says so.
  expect_error(gamesolver(dir, {"solve", "jungle", "start", "--memory", "999999", "--data", data}),
               "more than this machine's memory");
  EXPECT_TRUE(!fs::exists(data) || test::snapshot(data).empty());
}

// Usage errors (what the parser refuses) have the one prefix and exit 2; --help exits 0.
TEST(Cli, UsageErrorsHaveThePrefixAndExitTwo) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{},
                                             {"frobnicate", "jungle"},
                                             {"build", "jungle", "--pieces", "1"},
                                             {"build", "jungle", "--pieces", "two"},
                                             {"probe", "jungle", "--frobnicate"},
                                             {"probe", "jungle"},
                                             {"solve", "jungle"}}) {
    const RunResult r = gamesolver(dir, args);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    expect_error(r, "");
    EXPECT_NE(r.err.find("--help"), std::string::npos) << describe(r);
  }
  expect_error(gamesolver(dir, {"build", "jungle", "--pieces", "1"}), "--pieces");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--help"}, {"probe", "--help"}, {"serve", "--help"}}) {
    const RunResult r = gamesolver(dir, args);
    EXPECT_SUCCESS(r);
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << describe(r);
    EXPECT_EQ(r.err, "") << describe(r);
  }
  // Errors past the parser (a bad position) exit 1.
  EXPECT_EQ(gamesolver(dir, {"probe", "jungle", "x", "--data", data}).exit_code, 1);
}

// --pieces is capped at the most pieces of any tier of the game (core/game.h,
// max_pieces): checkers 24, Jungle 8, the mill games half the board's points, a side
// (12; 8 on the Six Men's Morris board). Over the cap every command that takes --pieces
// is a usage error naming the option and the cap, given before anything is read or
// built (`count checkers --pieces 64 --sizes` was once killed for memory). At the cap,
// count --sizes answers at once; for checkers it says that the indices of 19 pieces and
// more add up to more than a 64-bit count, and counts up to 18.
TEST(Cli, PiecesAreCappedAtWhatTheGameHas) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  struct Cap {
    std::vector<std::string> game;
    int most;
  };
  for (const Cap& cap :
       {Cap{{"checkers"}, 24}, Cap{{"jungle"}, 8}, Cap{{"morris"}, 12},
        Cap{{"morris", "--variant", "morabaraba"}, 12}, Cap{{"morris", "--variant", "six"}, 8}}) {
    for (const char* command : {"build", "verify", "compress", "stats", "count"}) {
      for (const int pieces : {cap.most + 1, 64}) {
        std::vector<std::string> args = {command};
        args.insert(args.end(), cap.game.begin(), cap.game.end());
        args.insert(args.end(), {"--pieces", std::to_string(pieces), "--data", data});
        SCOPED_TRACE(fmt::format("{}", fmt::join(args, " ")));
        const RunResult r = gamesolver(dir, args);
        EXPECT_EQ(r.exit_code, 2) << describe(r);
        expect_error(r, fmt::format("--pieces {} is more than {}", pieces, cap.game.front()));
        expect_error(r,
                     fmt::format("its tiers hold at most {} (see gamesolver {} --help)", cap.most, command));
      }
    }
    std::vector<std::string> count = {"count"};
    count.insert(count.end(), cap.game.begin(), cap.game.end());
    count.insert(count.end(), {"--pieces", std::to_string(cap.most), "--sizes", "--json", "--quiet"});
    const RunResult r = gamesolver(dir, count);
    if (cap.game.front() == "checkers") {
      EXPECT_EQ(r.exit_code, 1) << describe(r);
      expect_error(r, "the 19-piece tiers hold more than 2^64 - 1 indices");
    } else {
      EXPECT_SUCCESS(r);
    }
  }
  const RunResult r =
      gamesolver(dir, {"count", "checkers", "--pieces", "18", "--sizes", "--json", "--quiet"});
  EXPECT_SUCCESS(r);
  const json rows = json::parse(r.out).at("counts");
  ASSERT_EQ(rows.size(), 17U);
  EXPECT_EQ(rows.back().at("indices").get<std::uint64_t>(), 8568043414939516928U);  // 18 pieces
  EXPECT_FALSE(fs::exists(data));
}

// No game's notation starts a position with '-': text that does follows "--", which
// takes it as the position, not as an option.
TEST(Cli, PositionAfterDoubleDash) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  EXPECT_SUCCESS(gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data, "--quiet"}));
  RunResult r = gamesolver(dir, {"probe", "jungle", "--data", data, "--", "7/3R3/7/7/7/7/d6 w"});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("value: win in 1"), std::string::npos) << describe(r);
  // A position text that starts with '-' reaches the game's parser after "--".
  r = gamesolver(dir, {"probe", "checkers", "--data", data, "--", "-W:B"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  expect_error(r, "position '-W:B'");
}

// A missing data directory, or a missing directory of the game under it, is an error that
// names it for every command that reads databases; an empty --data is refused.
TEST(Cli, MissingDataDirectoryIsAnError) {
  TempDir dir;
  const std::string missing = (dir / "missing").string();
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"probe", "jungle", "start"},
                                             {"verify", "jungle", "--pieces", "2"},
                                             {"compress", "jungle", "--pieces", "2"},
                                             {"stats", "jungle", "--pieces", "2"},
                                             {"play", "jungle"},
                                             {"solve", "jungle", "start", "--time", "1"},
                                             {"serve", "--port", "0"}}) {
    std::vector<std::string> with = args;
    with.insert(with.end(), {"--data", missing});
    const RunResult r = gamesolver(dir, with);
    SCOPED_TRACE(args[0]);
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    expect_error(r, "the data directory " + missing + " does not exist");
  }
  EXPECT_FALSE(fs::exists(missing));
  // The data directory is there, the game's is not.
  const std::string data = (dir / "data").string();
  fs::create_directories(data);
  for (const char* command : {"probe", "stats"}) {
    const RunResult r = gamesolver(
        dir, {command, "jungle", command == std::string("probe") ? "start" : "--pieces=2", "--data", data});
    expect_error(r, "no databases of jungle in " + data + ": the directory " +
                        (fs::path(data) / "jungle" / "standard").string() + " does not exist");
  }
  // --data "" would write into the working directory.
  expect_error(gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", ""}), "--data is empty");
  expect_error(gamesolver(dir, {"probe", "jungle", "start", "--data", ""}), "--data is empty");
  EXPECT_FALSE(fs::exists(dir / "jungle"));
}

// A position whose tier file is missing says which tier is not built; a position with
// more pieces than any tier built says so instead.
TEST(Cli, ProbeNamesTheTierNotBuilt) {
  TempDir dir;
  const fs::path data = dir / "data";
  EXPECT_SUCCESS(gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"}));
  const std::string position = "7/3R3/7/7/7/7/d6 w";
  RunResult r = gamesolver(dir, {"probe", "jungle", position, "--data", data.string(), "--json"});
  EXPECT_SUCCESS(r);
  const std::string tier = json::parse(r.out).at("tier").get<std::string>();
  EXPECT_TRUE(json::parse(r.out).at("missing_tier").is_null()) << describe(r);
  ASSERT_TRUE(fs::remove(data / "jungle" / "standard" / (tier + ".gsdb")));
  r = gamesolver(dir, {"probe", "jungle", position, "--data", data.string()});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("value: not in the databases (tier " + tier + " is not built)"), std::string::npos)
      << describe(r);
  r = gamesolver(dir, {"probe", "jungle", position, "--data", data.string(), "--json"});
  EXPECT_SUCCESS(r);
  EXPECT_TRUE(json::parse(r.out).at("value").is_null()) << describe(r);
  EXPECT_EQ(json::parse(r.out).at("missing_tier"), tier) << describe(r);
  // Three pieces: beyond the databases, not a tier left out.
  r = gamesolver(dir, {"probe", "jungle", "7/3R3/7/7/7/4t2/d6 w", "--data", data.string()});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("value: not in the databases (more pieces than their tiers: they hold up to 2)"),
            std::string::npos)
      << describe(r);
  r = gamesolver(dir, {"probe", "jungle", "7/3R3/7/7/7/4t2/d6 w", "--data", data.string(), "--json"});
  EXPECT_TRUE(json::parse(r.out).at("missing_tier").is_null()) << describe(r);
}

// A rule option given twice with different values is refused (the same value twice, in
// any spelling, is harmless); --help shows morris's --variant as itself, not as a rule option.
TEST(Cli, ConflictingRulesAndTheVariantsHelp) {
  TempDir dir;
  expect_error(gamesolver(dir, {"count", "jungle", "--pieces", "2", "--rule", "stalemate=loss", "--rule",
                                "stalemate=draw"}),
               "rule option 'stalemate' is given twice, as 'stalemate=loss' and 'stalemate=draw'");
  EXPECT_SUCCESS(gamesolver(
      dir, {"count", "jungle", "--pieces", "2", "--rule", "stalemate=loss", "--rule", "stalemate=loss"}));
  // Two spellings of one value are the same rule.
  EXPECT_SUCCESS(gamesolver(dir, {"count", "jungle", "--pieces", "2", "--rule", "elephant_takes_rat=off",
                                  "--rule", "elephant_takes_rat=0"}));
  expect_error(gamesolver(dir, {"count", "jungle", "--pieces", "2", "--rule", "elephant_takes_rat=off",
                                "--rule", "elephant_takes_rat=yes"}),
               "rule option 'elephant_takes_rat' is given twice");
  // Two options that set one rule: the stones of both sides, then White's.
  expect_error(
      gamesolver(dir, {"count", "morris", "--pieces", "3", "--rule", "stones=9", "--rule", "white_stones=8"}),
      "rule options 'stones=9' and 'white_stones=8' contradict each other");
  EXPECT_SUCCESS(gamesolver(
      dir, {"count", "morris", "--pieces", "3", "--rule", "white_stones=8", "--rule", "black_stones=7"}));
  const RunResult help = gamesolver(dir, {"--help"});
  EXPECT_SUCCESS(help);
  EXPECT_EQ(help.out.find("--rule --variant"), std::string::npos) << describe(help);
  EXPECT_NE(help.out.find("\n    --variant standard|lasker"), std::string::npos) << describe(help);
  EXPECT_NE(help.out.find("\n    --rule flying=off|3|4"), std::string::npos) << describe(help);
}

// The total row of stats has the longest loss of every tier, in text and JSON.
TEST(Cli, StatsTotalHasTheLongestLoss) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  EXPECT_SUCCESS(gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data, "--quiet"}));
  RunResult r = gamesolver(dir, {"stats", "jungle", "--pieces", "2", "--data", data, "--json"});
  EXPECT_SUCCESS(r);
  const json stats = json::parse(r.out);
  int longest = 0;
  for (const json& tier : stats.at("tiers")) longest = std::max(longest, tier.at("longest_loss").get<int>());
  EXPECT_GT(longest, 0);
  EXPECT_EQ(stats.at("total").at("longest_loss"), longest) << describe(r);
  r = gamesolver(dir, {"stats", "jungle", "--pieces", "2", "--data", data});
  EXPECT_SUCCESS(r);
  const std::size_t total = r.out.find("\ntotal ");
  ASSERT_NE(total, std::string::npos) << describe(r);
  std::vector<std::string> words;
  std::istringstream line(r.out.substr(total + 1, r.out.find('\n', total + 1) - total - 1));
  for (std::string word; line >> word;) words.push_back(word);
  // total, positions, wins, draws, losses, max win, max loss, file bytes
  ASSERT_EQ(words.size(), 8U) << describe(r);
  EXPECT_EQ(words[6], std::to_string(longest)) << describe(r);
}

// --pdn reads regular files only, and at most pdn::kMaxFileBytes of them: /dev/zero once
// read until memory ran out, a directory gave "basic_filebuf::underflow error".
TEST(Cli, PdnFileMustBeARegularFileOfBoundedSize) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  fs::create_directories(data);
  expect_error(gamesolver(dir, {"probe", "checkers", "--pdn", "/dev/zero", "--data", data}),
               "the game file /dev/zero is not a regular file");
  expect_error(gamesolver(dir, {"probe", "checkers", "--pdn", dir.path().string(), "--data", data}),
               "the game file " + dir.path().string() + " is not a regular file");
  expect_error(gamesolver(dir, {"play", "checkers", "--pdn", "/dev/zero", "--data", data}),
               "is not a regular file");
  const fs::path big = dir / "big.pdn";
  test::write_file(big, "");
  fs::resize_file(big, (std::uintmax_t{16} << 20) + 1);
  expect_error(gamesolver(dir, {"probe", "checkers", "--pdn", big.string(), "--data", data}),
               "the game file " + big.string() + " is larger than 16 MiB");
  expect_error(gamesolver(dir, {"probe", "checkers", "--pdn", (dir / "none.pdn").string(), "--data", data}),
               "does not exist");
}

// Input echoed in an error is an excerpt: a 100 KB position (as big as one argument may
// be) once gave a 100 KB line, and control characters and broken UTF-8 went out raw.
TEST(Cli, ErrorsQuoteAShortEscapedExcerptOfTheInput) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  fs::create_directories(dir / "data" / "jungle" / "standard");
  const std::string position = "\x1b[2J\xff" + std::string(100000, 'x') + "\n";
  const RunResult r = gamesolver(dir, {"probe", "jungle", position, "--data", data});
  expect_error(r, "position '\\x1B[2J\\xFF" + std::string(75, 'x') + "...' (100005 bytes)");
  EXPECT_LT(r.err.size(), 400U) << describe(r);
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
  // A game file whose FEN tag holds a megabyte: the tag is not echoed, the position is cut.
  const fs::path file = dir / "big.pdn";
  test::write_file(file,
                   "[GameType \"21\"]\n[SetUp \"1\"]\n[FEN \"" + std::string(1 << 20, 'W') + "\"]\n*\n");
  fs::create_directories(dir / "data" / "checkers" / "english");
  const RunResult pdn = gamesolver(dir, {"probe", "checkers", "--pdn", file.string(), "--data", data});
  expect_error(pdn, "bad tag: [FEN]: position '" + std::string(kQuoteLimit, 'W') + "...' (1048576 bytes)");
  EXPECT_LT(pdn.err.size(), 800U) << describe(pdn);
}

// A budget too small for a tier is said in units that show it (it once read "0.000 GiB").
TEST(Cli, SmallMemoryBudgetIsPrintedInItsUnits) {
  TempDir dir;
  const std::string data = (dir / "data").string();
  const RunResult r =
      gamesolver(dir, {"build", "jungle", "--pieces", "3", "--memory", "0.00001", "--data", data, "--quiet"});
  expect_error(r,
               "of memory (working cells, writing and child tiers), over the budget of 10.5 KiB (--memory)");
  EXPECT_EQ(r.err.find("0.000 GiB"), std::string::npos) << describe(r);
}

// A tier whose file fails its checks is built again, and its line says why (the check
// that failed), quiet or not; a tier that had no file is built without a reason.
TEST(Cli, RebuildingADamagedTierSaysWhy) {
  TempDir dir;
  const fs::path data = dir / "data";
  ASSERT_EQ(
      gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"}).exit_code, 0);
  const auto want = test::snapshot(data);
  const db::Location location = db::Location::of(Jungle{}, data);
  const std::string er = test::read_file(location.file("E-r"));
  test::write_file(location.file("E-r"), er.substr(0, er.size() / 2));             // truncated
  test::flip_byte(location.file("T-d"), fs::file_size(location.file("T-d")) - 3);  // in the last block
  fs::copy_file(location.file("D-d"), location.file("T-t"), fs::copy_options::overwrite_existing);
  fs::remove(location.file("R-r"));
  for (const bool quiet : {true, false}) {
    SCOPED_TRACE(quiet);
    if (!quiet) {
      test::write_file(location.file("E-r"), "");
      fs::remove(location.file("R-r"));
    }
    std::vector<std::string> args = {"build", "jungle", "--pieces", "2", "--data", data.string()};
    if (quiet) args.emplace_back("--quiet");
    const RunResult r = gamesolver(dir, args);
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    std::map<std::string, std::string> reasons;  // tier: what follows "rebuilt: " on its line
    for (const std::string& line : lines_of(r.out)) {
      const std::size_t at = line.find("  rebuilt: ");
      if (at != std::string::npos) reasons[line.substr(0, line.find(' '))] = line.substr(at + 11);
    }
    if (quiet) {
      EXPECT_EQ(reasons.size(), 3U) << describe(r);
      EXPECT_TRUE(reasons["E-r"].starts_with("truncated")) << describe(r);
      EXPECT_EQ(reasons["T-d"], "block 0 of 1: checksum mismatch (corrupt file)") << describe(r);
      EXPECT_EQ(reasons["T-t"], "holds jungle standard [] tier D-d, expected jungle standard [] tier T-t")
          << describe(r);
    } else {
      EXPECT_EQ(reasons.size(), 1U) << describe(r);
      EXPECT_EQ(reasons["E-r"], "truncated database file (0 bytes, the header alone is 256)") << describe(r);
    }
    // A tier that had no file is built without a reason.
    bool built_r_r = false;
    for (const std::string& line : lines_of(r.out)) {
      if (line.starts_with("R-r ")) {
        built_r_r = line.find("indices  built in") != std::string::npos;
        EXPECT_EQ(line.find("rebuilt"), std::string::npos) << line;
      }
    }
    EXPECT_TRUE(built_r_r) << describe(r);
    EXPECT_EQ(test::compare_snapshots(want, test::snapshot(data)), "");
  }
}

// verify goes on after the first inconsistency: it lists the first --max-errors of them,
// counts them all, says how many it did not list, verifies every other tier, and exits 1
// with the count.
TEST(Cli, VerifyCountsEveryInconsistency) {
  const Jungle game;
  TempDir dir;
  const fs::path data = dir / "data";
  ASSERT_EQ(
      gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"}).exit_code, 0);
  change_values(game, data, "E-r", 3);
  change_values(game, data, "T-d", 2);
  const std::vector<std::string> verify = {"verify", "jungle", "--pieces", "2", "--data", data.string()};
  auto listed = [](const RunResult& r) {
    int count = 0;
    for (const std::string& line : lines_of(r.out)) count += line.starts_with("  tier ") ? 1 : 0;
    return count;
  };

  // Everything listed: the count in the error is the number of lines.
  std::vector<std::string> args = verify;
  args.insert(args.end(), {"--max-errors", "100000"});
  RunResult r = gamesolver(dir, args);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  const long long total = number_after(r.err, "gamesolver: error: verify: ");
  EXPECT_GE(total, 5) << describe(r);
  EXPECT_EQ(listed(r), total) << describe(r);
  expect_error(r, fmt::format("verify: {} inconsistent positions in 2 tiers", total));
  // Each inconsistent tier has a line with its count; every other tier is verified.
  std::set<std::string> ok;
  long long counted = 0;
  for (const std::string& line : lines_of(r.out)) {
    if (line.ends_with(" ok")) ok.insert(line.substr(0, line.find(' ')));
    if (line.ends_with(" inconsistent positions")) counted += number_after(line, line.substr(0, 13));
  }
  EXPECT_EQ(counted, total) << describe(r);
  EXPECT_EQ(ok.size(), 8U) << describe(r);
  EXPECT_FALSE(ok.contains("E-r") || ok.contains("T-d")) << describe(r);
  EXPECT_NE(r.out.find("  tier E-r index "), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("  tier T-d index "), std::string::npos) << describe(r);
  EXPECT_EQ(r.out.find("more inconsistent"), std::string::npos) << describe(r);

  // Two listed (the default is 20), the others counted; quiet leaves out the tiers that
  // are ok, not the inconsistencies.
  args = verify;
  args.insert(args.end(), {"--max-errors", "2", "--quiet"});
  r = gamesolver(dir, args);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_EQ(listed(r), 2) << describe(r);
  EXPECT_NE(r.out.find(fmt::format("... and {} more inconsistent positions, not listed (--max-errors 2)",
                                   total - 2)),
            std::string::npos)
      << describe(r);
  EXPECT_EQ(r.out.find(" ok\n"), std::string::npos) << describe(r);
  expect_error(r, fmt::format("verify: {} inconsistent positions in 2 tiers", total));
  args = verify;
  args.insert(args.end(), {"--max-errors", "0", "--quiet"});
  r = gamesolver(dir, args);
  EXPECT_EQ(listed(r), 0) << describe(r);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  r = gamesolver(dir, verify);
  EXPECT_EQ(listed(r), std::min(total, 20LL)) << describe(r);

  // A tier that cannot be read is reported and passed over, and so are the tiers that
  // read it; the others are still verified.
  fs::remove(db::Location::of(game, data).file("R-r"));
  r = gamesolver(dir, verify);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.out.find("R-r          not verified: tier R-r is not built"), std::string::npos) << describe(r);
  expect_error(r, "1 tier could not be verified (the first: tier R-r is not built)");
  expect_error(r, fmt::format("verify: {} inconsistent positions in 2 tiers", total));
  EXPECT_TRUE(has_line(r.out, "D-r          ok")) << describe(r);
  const RunResult help = gamesolver(dir, {"verify", "--help"});
  EXPECT_NE(help.out.find("--max-errors"), std::string::npos) << describe(help);
  EXPECT_NE(gamesolver(dir, {"verify", "jungle", "--max-errors", "-1", "--data", data.string()}).exit_code,
            0);
}

// stats reads the files' headers only and says so: a damaged block goes unnoticed by it
// (verify --checksums finds it).
TEST(Cli, StatsSaysItReadsHeadersOnly) {
  TempDir dir;
  const fs::path data = dir / "data";
  ASSERT_EQ(
      gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"}).exit_code, 0);
  const fs::path er = db::Location::of(Jungle{}, data).file("E-r");
  test::flip_byte(er, fs::file_size(er) - 3);  // in the last block
  RunResult r = gamesolver(dir, {"stats", "jungle", "--pieces", "2", "--data", data.string()});
  EXPECT_SUCCESS(r);
  EXPECT_NE(r.out.find("\nread from the files' headers only (their checksums checked): no block was read or "
                       "checked; gamesolver verify --checksums checks every block\n"),
            std::string::npos)
      << describe(r);
  r = gamesolver(dir, {"stats", "jungle", "--pieces", "2", "--data", data.string(), "--json"});
  EXPECT_SUCCESS(r);
  EXPECT_EQ(json::parse(r.out).at("headers_only"), true) << describe(r);
  const RunResult help = gamesolver(dir, {"stats", "--help"});
  EXPECT_NE(help.out.find("headers only"), std::string::npos) << describe(help);
  r = gamesolver(dir, {"verify", "jungle", "--pieces", "2", "--checksums", "--data", data.string()});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.out.find("E-r          not verified: " + er.string() + ": block 0 of 1: checksum mismatch"),
            std::string::npos)
      << describe(r);
  EXPECT_TRUE(has_line(r.out, "T-d          checksums ok")) << describe(r);
  expect_error(r, "1 tier could not be verified");
}

// build prints the whole build's progress after each tier, unless quiet: tiers done of
// all, the share of indices, the time left.
TEST(Cli, BuildPrintsItsOverallProgress) {
  TempDir dir;
  const fs::path data = dir / "data";
  for (const bool complete : {false, true}) {
    SCOPED_TRACE(complete);
    const RunResult r = gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data.string()});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    std::vector<std::string> progress;
    for (const std::string& line : lines_of(r.out)) {
      if (line.starts_with("tier ")) progress.push_back(line);
    }
    ASSERT_EQ(progress.size(), 10U) << describe(r);
    double percent = 0;
    for (std::size_t i = 0; i < progress.size(); ++i) {
      const std::string& line = progress[i];
      EXPECT_TRUE(line.starts_with(fmt::format("tier {} of 10, ", i + 1))) << line;
      const std::size_t share = line.find("% of indices, ");
      ASSERT_NE(share, std::string::npos) << line;
      const double now = std::stod(line.substr(line.find(", ") + 2, share - line.find(", ") - 2));
      EXPECT_GT(now, percent) << line;
      percent = now;
      const std::string rest = line.substr(share + std::string("% of indices, ").size());
      if (i + 1 == progress.size()) {
        EXPECT_EQ(line, "tier 10 of 10, 100.0% of indices, done");
      } else if (complete) {
        EXPECT_EQ(rest, "ETA unknown") << line;  // nothing built: no rate to go by
      } else {
        // "ETA 0m00s": minutes and seconds.
        EXPECT_TRUE(rest.starts_with("ETA ")) << line;
        EXPECT_EQ(rest.size(), std::string("ETA 0m00s").size()) << line;
        EXPECT_EQ(rest[5], 'm') << line;
        EXPECT_TRUE(rest.ends_with("s")) << line;
      }
    }
  }
  const RunResult quiet =
      gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", (dir / "other").string(), "--quiet"});
  ASSERT_EQ(quiet.exit_code, 0) << describe(quiet);
  EXPECT_EQ(quiet.out.find("\ntier "), std::string::npos) << describe(quiet);
  EXPECT_FALSE(quiet.out.starts_with("tier ")) << describe(quiet);
}

// One writer at a time in a database directory: while a process holds its lock, build
// and compress are refused at once with the directory and the holder's pid; readers
// are not. The lock goes with its holder, even killed.
TEST(Cli, SecondWriterIsRefused) {
  TempDir dir;
  const fs::path data = dir / "data";
  ASSERT_EQ(
      gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"}).exit_code, 0);
  const fs::path directory = db::Location::of(Jungle{}, data).directory();
  const auto want = test::snapshot(data);
  {
    const db::DirectoryLock held(directory, "test");
    const std::string holder = fmt::format("(pid {} on ", ::getpid());
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"build", "jungle", "--pieces", "3"}, {"compress", "jungle", "--pieces", "2"}}) {
      SCOPED_TRACE(args[0]);
      std::vector<std::string> with = args;
      with.insert(with.end(), {"--data", data.string()});
      const RunResult r = gamesolver(dir, with);
      EXPECT_EQ(r.exit_code, 1) << describe(r);
      expect_error(
          r, "the database directory " + directory.string() + " is in use by another gamesolver " + holder);
      EXPECT_NE(r.err.find(": test)"), std::string::npos) << describe(r);
    }
    EXPECT_EQ(test::compare_snapshots(want, test::snapshot(data)), "");
    // Readers take no lock; nor does a build of another variant.
    EXPECT_SUCCESS(gamesolver(dir, {"stats", "jungle", "--pieces", "2", "--data", data.string()}));
    EXPECT_SUCCESS(
        gamesolver(dir, {"verify", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"}));
    EXPECT_SUCCESS(gamesolver(dir, {"build", "jungle", "--pieces", "2", "--rule", "stalemate=loss", "--data",
                                    data.string(), "--quiet"}));
  }
  // Released: the next writer goes ahead.
  EXPECT_SUCCESS(
      gamesolver(dir, {"compress", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"}));
}

// Two builds of one directory: the second is refused while the first runs (stopped with
// SIGSTOP, so that it cannot finish first), and goes ahead once the first was killed.
TEST(Cli, TwoBuildsOfOneDirectory) {
  TempDir dir;
  const fs::path data = dir / "data";
  const fs::path directory = db::Location::of(Jungle{}, data).directory();
  test::Child first({GAMESOLVER_BINARY, "build", "jungle", "--pieces", "4", "--threads", "1", "--data",
                     data.string(), "--quiet"},
                    dir.path());
  const std::string holder = fmt::format("pid {} on ", first.pid());
  const auto start = std::chrono::steady_clock::now();
  while (!db::DirectoryLock::holder(directory).starts_with(holder)) {
    ASSERT_FALSE(first.finished()) << describe(first.wait());
    ASSERT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60))
        << "the first build took no lock";
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  first.kill(SIGSTOP);
  RunResult second =
      gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"});
  EXPECT_EQ(second.exit_code, 1) << describe(second);
  expect_error(
      second, "the database directory " + directory.string() + " is in use by another gamesolver (" + holder);
  EXPECT_NE(second.err.find(": build)"), std::string::npos) << describe(second);
  first.kill(SIGKILL);
  EXPECT_EQ(first.wait().signal, SIGKILL);
  second = gamesolver(dir, {"build", "jungle", "--pieces", "2", "--data", data.string(), "--quiet"});
  EXPECT_SUCCESS(second);
  EXPECT_EQ(built_and_complete(second.out).first + built_and_complete(second.out).second, 10)
      << describe(second);
}

}  // namespace
}  // namespace gs
