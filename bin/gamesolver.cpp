// gamesolver: builds, probes, verifies and plays from endgame databases of two-player
// games, proves the values of positions beyond them by search, and serves them to the
// explorer. The program puts the two front ends together: the game commands (cli/) and
// `serve` (server/), which share the service layer (app/) and nothing else. Every
// failure a user can cause ends with one line "gamesolver: error: ..." on stderr and a
// non-zero exit.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "cli/command_line.h"
#include "server/serve_command.h"

int main(int argc, char** argv) {
  CLI::App app{
      "gamesolver: endgame databases by retrograde analysis, probing, verification and play; proof search"};
  app.require_subcommand(1);
  gs::cli::CommandLine commands(app);
  gs::server::ServeCommand serve(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  }
  try {
    if (serve.selected()) return serve.run();
    return commands.run();
  } catch (const std::exception& error) {
    std::fflush(stdout);
    fmt::print(stderr, "gamesolver: error: {}\n", error.what());
    return 1;
  }
}
