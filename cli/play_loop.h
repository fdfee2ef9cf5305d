#pragma once
// `gamesolver play`: a game against the perfect player in the terminal, reading the
// human's moves from `in` and writing boards and values to `out`.
#include <filesystem>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

#include "app/game_service.h"

namespace gs::cli {

struct PlayOptions {
  std::string human = "auto";  // a side's name (GameService::side_names) or auto: the side to move
  std::optional<std::filesystem::path> save;  // where the game is written as PDN when play ends
};

// Plays until the game ends, the perfect player cannot move (beyond the databases), or the
// human quits ('quit' or end of input); returns the exit code.
int play_loop(app::GameService& service, const app::CommonOptions& common, const app::PlayRequest& request,
              const PlayOptions& options, std::istream& in, std::ostream& out);

}  // namespace gs::cli
