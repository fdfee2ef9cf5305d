// The closure prover (prove/closure.h) and the checker's value iteration over the same
// region (prove/checker.h, region_outcome) on one Jungle Checkers position above
// databases: the region's size, each one's outcome and time.
//
//   closure_bench DATA "POSITION" [--check]
//
// DATA holds the databases the region stops at (e.g. build jungle --pieces 3 for a
// four-piece position). Peak memory: run it under /usr/bin/time -v.
#include <fmt/format.h>

#include <chrono>
#include <exception>
#include <optional>
#include <string>

#include "core/error.h"
#include "db/database.h"
#include "games/jungle/jungle.h"
#include "prove/checker.h"
#include "prove/closure.h"
#include "search/databases.h"

int main(int argc, char** argv) {
  try {
    if (argc < 3 || argc > 4 || (argc == 4 && std::string(argv[3]) != "--check"))
      gs::fail("usage: closure_bench DATA \"POSITION\" [--check]");
    const gs::jungle::Jungle game;
    gs::db::Database database(gs::db::Location::of(game, argv[1]));
    gs::search::Databases<gs::jungle::Jungle> probes(game, &database);
    const auto pos = game.parse_position(argv[2]);
    auto seconds_since = [](auto start) {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    const auto start = std::chrono::steady_clock::now();
    const gs::prove::ClosureResult closure = gs::prove::close_region(game, probes, pos, {});
    fmt::print("closure: {} positions, {} moves, {} in {:.2f} s\n", closure.positions, closure.moves,
               closure.outcome ? gs::outcome_name(*closure.outcome) : "no answer", seconds_since(start));
    if (argc == 4) {
      const auto checked = std::chrono::steady_clock::now();
      const std::optional<gs::Outcome> outcome =
          gs::prove::region_outcome(game, &database, pos, closure.positions + 1);
      fmt::print("value iteration: {} in {:.2f} s\n", outcome ? gs::outcome_name(*outcome) : "no answer",
                 seconds_since(checked));
    }
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "closure_bench: {}\n", e.what());
    return 1;
  }
}
