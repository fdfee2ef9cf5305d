#pragma once
// The commands of the `gamesolver` CLI for one game, behind a virtual interface so that
// the command line can pick a game by name; cli/game_driver.h implements it for every
// game type, and cli/registry.cpp lists the games.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace gs::db {
class Database;
struct Location;
}  // namespace gs::db

namespace gs::cli {

// A request the user got wrong (bad position or move text, an illegal move), as opposed
// to a failure of the databases: the server answers it with 400.
class InputError : public Error {
 public:
  using Error::Error;
};

struct CommonOptions {
  std::filesystem::path data = "data";
  bool json = false;
  bool quiet = false;
  int threads = 0;          // 0: every core
  double memory_gib = 8.0;  // the working-memory budget of a build
  bool per_tier = false;    // count: a row per tier too
  bool sizes_only = false;  // count: index sizes and the baseline only, no enumeration

  // build --mpi: a manager rank and worker ranks under mpirun (dist/mpi.h); a working rank
  // silent this long is given up and its tier handed to another.
  bool mpi = false;
  double mpi_timeout = 60;

  // count --materials: a row per material too (games that define materials).
  bool per_material = false;

  // verify --checksums (no values re-derived); compress --encoding (wdl or depth),
  // --codec (auto, rle, zstd or none) and --dictionary (tier: a zstd dictionary per file
  // where it pays; game: one shared by every tier, db/game_dictionary.h; none).
  bool checksums = false;
  std::string encoding = "depth";
  std::string codec = "auto";
  std::string dictionary = "tier";
  int zstd_level = 19;  // compress --level
};

// `gamesolver solve`: the search (search/solve.h) and its limits.
struct SolveRequest {
  std::string algorithm = "df-pn";  // df-pn, pns or alphabeta
  std::string question = "value";   // win, draw or value
  double seconds = 60;              // 0: no time limit
  double memory_gib = 1.0;          // the search's tables (and PNS's tree)
};

// `gamesolver play`: where the game starts (a position, or the end of a game in a PDN
// file), the side the human plays, and where to save the game played as PDN.
struct PlayRequest {
  std::optional<std::string> from;
  std::string human = "auto";  // white, black or auto (the side to move at the start)
  std::optional<std::filesystem::path> pdn;
  int game = 1;  // the game in the PDN file, from 1
  std::optional<std::filesystem::path> save;
};

class Driver {
 public:
  virtual ~Driver() = default;
  virtual int build(const CommonOptions& options, int pieces) = 0;
  virtual int extended(const CommonOptions& options, int max_in_hand) = 0;
  virtual int probe(const CommonOptions& options, const std::string& position) = 0;
  virtual int verify(const CommonOptions& options, int pieces) = 0;
  virtual int compress(const CommonOptions& options, int pieces) = 0;
  virtual int stats(const CommonOptions& options, int pieces) = 0;
  virtual int count(const CommonOptions& options, int pieces) = 0;
  virtual int play(const CommonOptions& options, const PlayRequest& request) = 0;
  // `gamesolver probe --pdn FILE`: every ply of a game in a PDN file with the values
  // before and after it, marking the moves that change the theoretical value.
  virtual int probe_game(const CommonOptions& options, const std::filesystem::path& file, int game) = 0;
  virtual int solve(const CommonOptions& options, const SolveRequest& request,
                    const std::string& position) = 0;
  // `gamesolver perft`: the leaf count of the move tree to `depth` plies from a position
  // (terminal positions end a line), per first move with `divide`.
  virtual int perft(const CommonOptions& options, const std::optional<std::string>& from, int depth,
                    bool divide) = 0;

  // For the server (server/): the game, its variant, start position and board; the
  // databases present under a data directory; where they are; and the report of a
  // position (cli/position_report.h), after `move` when one is given. report() throws
  // InputError for bad text or an illegal move.
  [[nodiscard]] virtual nlohmann::json describe() const = 0;
  [[nodiscard]] virtual nlohmann::json databases(const std::filesystem::path& data) const = 0;
  [[nodiscard]] virtual db::Location database_location(const std::filesystem::path& data) const = 0;
  [[nodiscard]] virtual nlohmann::json report(db::Database& database, const std::string& position,
                                              const std::optional<std::string>& move) const = 0;
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
