#pragma once
// The `serve` subcommand of the gamesolver CLI: its options, finding the web folder, and
// serving until SIGINT or SIGTERM.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "server/server.h"

namespace gs::server {

class ServeCommand {
 public:
  // Adds `serve` to the app.
  explicit ServeCommand(CLI::App& app);
  [[nodiscard]] bool selected() const { return command_->parsed(); }
  // Serves until interrupted; returns the exit code. Throws gs::Error.
  int run();

 private:
  CLI::App* command_ = nullptr;
  ServerOptions options_;
  std::string web_;
};

// The web folder: `given` when not empty, else the first of web/ beside the binary,
// web/ in the binary's parent (a build folder in the source tree), share/gamesolver/web
// of an installation, and the source tree's web/ this binary was built from; the one
// chosen must hold index.html. Throws gs::Error naming the places tried.
std::filesystem::path find_web_folder(const std::filesystem::path& given);

}  // namespace gs::server
