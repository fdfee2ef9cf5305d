#pragma once
// What each command of a game service (app/game_service.h) is asked to do: the options
// the command line and the server collect, apart from how they were spelt.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/tier_scope.h"

namespace gs::app {

// Options every command shares: where the databases are, and how much of the machine
// to use.
struct CommonOptions {
  std::filesystem::path data = "data";
  bool quiet = false;       // no progress lines
  int threads = 0;          // 0: every core
  double memory_gib = 8.0;  // the working-memory budget of a build
  // probe and play: the ultra databases to rank moves by (ratio or stones); empty:
  // ratio where built, else stones (docs/ULTRA.md).
  std::string ultra;
};

// The tiers a command covers: every tier up to `pieces` pieces, or (start) only those
// the start position needs, or (tiers) the named ones and those they need.
struct ScopedRequest {
  int pieces = 4;
  bool start = false;
  std::vector<std::string> tiers;
  [[nodiscard]] TierScope scope() const { return TierScope::of(pieces, start, tiers); }
};

struct BuildRequest : ScopedRequest {
  // Under mpirun: a manager rank and worker ranks (dist/mpi_build.h); a working rank
  // silent this long is given up and its tier handed to another.
  bool mpi = false;
  double mpi_timeout = 60;
  // Then the ultra databases of this heuristic (ratio or stones, docs/ULTRA.md).
  std::optional<std::string> ultra;
};

struct VerifyRequest : ScopedRequest {
  bool checksums = false;  // every block's checksum only; no value re-derived
  // The most inconsistent positions described, over every tier (the lowest indices of
  // the first tiers in build order); all of them are counted whatever this is.
  std::uint64_t max_errors = 20;
  // The ultra databases of this heuristic instead of the strong ones (docs/ULTRA.md).
  std::optional<std::string> ultra;
  // Where to record the tiers found consistent, and to find those a run cut short
  // verified (app/verify_journal.h); empty: none.
  std::filesystem::path journal;
};

// compress: the value encoding (wdl or depth), the codec (auto, rle, zstd or none) and
// zstd dictionaries (tier: one in a file where it pays; game: one shared by every tier,
// db/game_dictionary.h; none).
struct CompressRequest : ScopedRequest {
  std::string encoding = "depth";
  std::string codec = "auto";
  std::string dictionary = "tier";
  int zstd_level = 19;
};

struct CountRequest {
  int pieces = 4;
  bool per_material = false;  // a row per material too (games with HasMaterials)
  bool sizes_only = false;    // index sizes and the baseline only, nothing enumerated
};

// solve: the search (search/solve.h) and its limits.
struct SolveRequest {
  std::string algorithm = "df-pn";  // df-pn, pns or alphabeta
  std::string question = "value";   // win, draw or value
  double seconds = 60;              // 0: no time limit
  double memory_gib = 1.0;          // the search's tables (and PNS's tree)
};

// prove: the proof-tree manager (prove/manager.h) and its store.
struct ProveRequest {
  std::filesystem::path store;
  std::vector<std::string> seed;    // moves from the position
  std::filesystem::path seed_file;  // more lines of moves, one a line (app/seed_lines.h)
  int workers = 1;
  int threshold = 20;
  int threshold_step = 20;
  double prover_seconds = 1;            // each back-end job (0: none)
  std::uint64_t prover_nodes = 0;       // each back-end job (0: none)
  int prover_retries = 2;               // retries of a leaf's failed job before it is expanded
  bool unit_leaves = false;             // leaves start at 1 and 1, not at their jobs' df-pn numbers
  double seconds = 0;                   // the run (0: until the position is solved)
  double memory_gib = 1.0;              // for the workers' search tables together
  bool status = false;                  // read the store only
  bool check = false;                   // check every answer of the store (prove/checker.h)
  std::uint64_t check_nodes = 1000000;  // the checker's budget per back-end answer
  // Under mpirun: rank 0 runs the manager, the other ranks the back-end jobs
  // (prove/mpi_prove.h); a rank silent this long with a job is given up and its job
  // handed to another.
  bool mpi = false;
  double mpi_timeout = 60;
};

// play: where the game starts (a position, or the end of a game in a PDN file).
struct PlayRequest {
  std::optional<std::string> from;
  std::optional<std::filesystem::path> pdn;
  int game = 1;  // the game in the PDN file, from 1
};

// match: two players, the starts and how many games (app/match.h).
struct MatchRequest {
  std::string white = "ultra";  // player A, who moves first in the odd games
  std::string black = "alphabeta:3";
  int games = 100;
  std::string from = "start";  // start or random-draws
  int pieces = 4;              // random-draws: from the tiers up to this many pieces
  std::uint64_t seed = 1;
  std::optional<std::filesystem::path> pdn;  // write every game here
};

struct PerftRequest {
  std::optional<std::string> from;
  int depth = 1;
  bool divide = false;
};

}  // namespace gs::app
