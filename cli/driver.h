#pragma once
// The commands of the `gamesolver` CLI for one game, behind a virtual interface so that
// the command line can pick a game by name; cli/game_driver.h implements it for every
// game type, and cli/registry.cpp lists the games.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gs::cli {

struct CommonOptions {
  std::filesystem::path data = "data";
  bool json = false;
  bool quiet = false;
  int threads = 0;          // 0: every core
  double memory_gib = 8.0;  // the working-memory budget of a build
  bool per_tier = false;    // count: a row per tier too

  // verify --checksums (no values re-derived); compress --encoding (wdl or depth) and
  // --codec (auto, rle, zstd or none).
  bool checksums = false;
  std::string encoding = "depth";
  std::string codec = "auto";
};

class Driver {
 public:
  virtual ~Driver() = default;
  virtual int build(const CommonOptions& options, int pieces) = 0;
  virtual int probe(const CommonOptions& options, const std::string& position) = 0;
  virtual int verify(const CommonOptions& options, int pieces) = 0;
  virtual int compress(const CommonOptions& options, int pieces) = 0;
  virtual int stats(const CommonOptions& options, int pieces) = 0;
  virtual int count(const CommonOptions& options, int pieces) = 0;
  virtual int play(const CommonOptions& options, const std::optional<std::string>& from,
                   const std::string& human) = 0;
};

struct GameEntry {
  std::string name;
  std::string description;
  std::vector<std::string> option_help;
  std::unique_ptr<Driver> (*make)(const std::string& variant, const std::vector<std::string>& rules);
};

const std::vector<GameEntry>& registered_games();
// The entry of a game by name; throws gs::Error listing the known games.
const GameEntry& find_game(const std::string& name);

}  // namespace gs::cli
