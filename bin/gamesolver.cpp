// gamesolver: builds, probes, verifies and plays from endgame databases of two-player
// games, proves the values of positions beyond them by search, and serves them to the
// explorer. The program puts the two front ends together: the game commands (cli/) and
// `serve` (server/), which share the service layer (app/) and nothing else. Every
// failure a user can cause ends with one line "gamesolver: error: ..." on stderr and a
// non-zero exit: 2 for a command line that does not parse or asks a game for more than
// it has (kUsageError: --pieces over its most), 1 otherwise.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "core/quote.h"
#include "server/serve_command.h"

namespace {

constexpr int kUsageError = 2;

// The help of the command given, where one was.
std::string help_command(CLI::App& app) {
  std::string help = "gamesolver --help";
  for (const CLI::App* sub : app.get_subcommands()) help = "gamesolver " + sub->get_name() + " --help";
  return help;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "gamesolver: endgame databases by retrograde analysis, probing, verification and play; proof search"};
  app.require_subcommand(1);
  gs::cli::CommandLine commands(app);
  gs::server::ServeCommand serve(app);
  // A command line that does not parse, or asks for what a game does not have.
  auto usage_error = [&](const char* what) {
    std::fflush(stdout);
    fmt::print(stderr, "gamesolver: error: {} (see {})\n", gs::printable(what), help_command(app));
    return kUsageError;
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help (and --help-all) print the help and exit 0, as CLI11 does.
    if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(error);
    return usage_error(error.what());
  }
  try {
    if (serve.selected()) return serve.run();
    return commands.run();
  } catch (const gs::cli::UsageError& error) {
    return usage_error(error.what());
  } catch (const std::exception& error) {
    std::fflush(stdout);
    fmt::print(stderr, "gamesolver: error: {}\n", gs::printable(error.what()));
    return 1;
  }
}
