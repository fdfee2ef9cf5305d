#pragma once
// The commands of gamesolver for one game, from parsed options to printed results: each
// asks the game's service (app/game_service.h) and prints what it returns. main.cpp
// parses the command line into an Invocation; tests can build one directly.
#include <filesystem>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "app/game_service.h"
#include "app/requests.h"
#include "cli/play_loop.h"

namespace gs::cli {

struct Invocation {
  std::string
      command;  // build, extended, probe, verify, compress, stats, count, play, solve, prove, perft, match
  std::string game;
  std::string variant;
  std::vector<std::string> rules;
  app::CommonOptions common;
  bool json = false;
  // --pieces; without it, the game's default (app::GameService::default_pieces: 4, or
  // what the game names, e.g. all its pieces for a game that is one tier group).
  std::optional<int> pieces;
  // --start (build, verify, compress, stats): only the tiers the start position needs.
  bool start = false;
  // --tier (the same commands, repeatable): only these tiers and those they need.
  std::vector<std::string> tiers;
  app::BuildRequest build;                   // pieces from `pieces`
  int max_in_hand = 3;                       // extended
  std::string position;                      // probe, solve, prove
  std::optional<std::filesystem::path> pdn;  // probe --pdn
  int game_number = 1;                       // probe --pdn --game
  app::VerifyRequest verify;
  app::CompressRequest compress;
  app::CountRequest count;
  bool per_tier = false;  // count --tiers
  app::PlayRequest play;
  PlayOptions play_options;
  app::SolveRequest solve;
  app::ProveRequest prove;
  app::PerftRequest perft;
  app::MatchRequest match;
  std::optional<std::string> stats_ultra;  // stats --ultra HEURISTIC
  bool stats_sectors = false;              // stats --sectors
};

// A command line that parses but asks the game for what it has not (--pieces over the
// most its tiers hold): reported as a command line that does not parse is, with exit
// code 2 (bin/gamesolver.cpp).
class UsageError : public Error {
 public:
  using Error::Error;
};

struct Streams {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
};

// Runs the command on the service of the invocation's game; returns the exit code.
// Errors the user can cause are thrown as gs::Error; failures found in the databases
// (a tier not built for stats, an inconsistency for verify) are printed to err as
// "gamesolver: error: ..." with exit code 1. --pieces over the game's most throws
// UsageError.
int run(const Invocation& invocation, app::GameService& service, const Streams& streams);

}  // namespace gs::cli
