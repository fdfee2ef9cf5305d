#pragma once
// The game commands of the gamesolver command line (build, extended, probe, verify,
// compress, stats, count, play, solve, perft): their options, parsed into an Invocation
// (cli/commands.h) and run on the chosen game's service.
#include <CLI/CLI.hpp>

#include "cli/commands.h"

namespace gs::cli {

class CommandLine {
 public:
  // Adds the commands to the app, and the games with their rule options to its help.
  explicit CommandLine(CLI::App& app);
  // Runs the parsed command; returns the exit code. Throws gs::Error.
  int run();

 private:
  Invocation command_;
};

}  // namespace gs::cli
