// Search speed: nodes per second of alpha-beta, PNS and df-pn on random Jungle positions
// of a number of pieces, probing the databases under --data, and the fraction of leaves
// the databases answered. Numbers in docs/BENCHMARKS.md ("Search").
//
//   bench_search --data DIR --pieces 4 --count 20 --seconds 2 [--seed 1] [--question value]
//
// Times are wall-clock (the searches' own) and CPU (this process, for shared machines):
// nodes per second are given by both.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "db/database.h"
#include "games/jungle/jungle.h"
#include "search/solve.h"

int main(int argc, char** argv) {
  CLI::App app{"nodes per second of the searches on random Jungle positions"};
  std::string data = "data";
  int pieces = 4;
  int count = 20;
  double seconds = 2;
  std::uint64_t seed = 1;
  double memory_gib = 0.25;
  std::string question = "value";
  app.add_option("--data", data, "database directory")->capture_default_str();
  app.add_option("--pieces", pieces, "pieces of the positions")
      ->capture_default_str()
      ->check(CLI::Range(2, 8));
  app.add_option("--count", count, "positions")->capture_default_str();
  app.add_option("--seconds", seconds, "time limit per position and algorithm")->capture_default_str();
  app.add_option("--seed", seed, "of the random positions")->capture_default_str();
  app.add_option("--memory", memory_gib, "GiB per search")->capture_default_str();
  app.add_option("--question", question, "win, draw or value")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const gs::jungle::Jungle game;
  gs::db::Database database(gs::db::Location::of(game, data));
  std::vector<gs::Tier> tiers;
  for (const gs::Tier tier : game.tiers(pieces)) {
    if (game.tier_pieces(tier) == pieces) tiers.push_back(tier);
  }
  std::mt19937_64 random(seed);
  std::vector<gs::jungle::Position> positions;
  while (static_cast<int>(positions.size()) < count) {
    const gs::Tier tier = tiers[random() % tiers.size()];
    const auto pos = game.unrank(tier, random() % game.size(tier));
    if (pos && !game.terminal(*pos)) positions.push_back(*pos);
  }

  gs::search::SearchOptions options;
  options.seconds = seconds;
  options.memory_bytes = static_cast<std::uint64_t>(memory_gib * static_cast<double>(1ULL << 30));
  fmt::print(
      "{} random {}-piece Jungle positions (seed {}), databases in {}, {} s and {:.2f} GiB per search\n",
      count, pieces, seed, database.location().directory().string(), seconds, memory_gib);
  fmt::print("{:<10} {:>8} {:>12} {:>9} {:>12} {:>9} {:>14} {:>12} {:>10} {:>9} {:>13}\n", "algorithm",
             "solved", "nodes", "seconds", "nodes/s", "CPU s", "nodes/CPU-s", "leaves", "from db", "deepest",
             "line-depend.");
  for (const auto algorithm :
       {gs::search::Algorithm::kAlphaBeta, gs::search::Algorithm::kPns, gs::search::Algorithm::kDfPn}) {
    gs::search::SearchStats total;
    const std::clock_t cpu_start = std::clock();
    int solved = 0;
    int deepest = 0;
    for (const auto& pos : positions) {
      const gs::search::SolveReport report =
          gs::search::solve(game, &database, pos, algorithm, gs::search::parse_question(question), options);
      const gs::search::SearchStats& s = report.stats;
      total.nodes += s.nodes;
      total.seconds += s.seconds;
      total.leaves += s.leaves;
      total.database_leaves += s.database_leaves;
      total.proven += s.proven;
      total.path_dependent += s.path_dependent;
      deepest = std::max(deepest, s.deepest);
      solved += report.stopped.empty() ? 1 : 0;
    }
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    fmt::print(
        "{:<10} {:>4}/{:<3} {:>12} {:>9.2f} {:>12.0f} {:>9.2f} {:>14.0f} {:>12} {:>9.1f}% {:>9} {:>12.1f}%\n",
        gs::search::algorithm_name(algorithm), solved, count, total.nodes, total.seconds,
        total.nodes_per_second(), cpu, static_cast<double>(total.nodes) / std::max(cpu, 1e-9), total.leaves,
        100 * total.database_fraction(), deepest,
        total.proven > 0
            ? 100.0 * static_cast<double>(total.path_dependent) / static_cast<double>(total.proven)
            : 0.0);
  }
  return 0;
}
