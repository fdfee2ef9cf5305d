#pragma once
// What the commands of a game service (app/game_service.h) return: plain values that
// cli/ prints as text or JSON and tests read directly. Progress as the work goes (a tier
// built, a tier verified) comes through the events beside each command instead.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/perft.h"
#include "core/value.h"
#include "prove/report.h"
#include "search/report.h"

namespace gs::app {

// The game and variant a result is about.
struct GameLabel {
  std::string game;
  std::string variant;
  std::string rules;  // the non-default rule options, empty if none
};

// The value of one position (GameService::probe_value).
struct ProbedValue {
  std::optional<Value> value;  // nullopt: not in the databases
  bool depth = true;           // false: its tier keeps win/draw/loss only
  bool terminal = false;       // the rules decide: the game is over or no legal move
};

// Where the whole build stands as a tier finishes (app/build_progress.h): tiers and
// indices finished, built or found complete, of all that the build covers.
struct BuildProgress {
  int tiers_done = 0;
  int tiers = 0;
  std::uint64_t indices_done = 0;
  std::uint64_t indices = 0;
  // The time left, from the rate of the indices built so far; nullopt before any tier
  // was built (only complete files found), 0 when every tier is done.
  std::optional<double> eta_seconds;
};

// One tier as a build finished it.
struct BuiltTier {
  std::string name;
  std::uint64_t positions = 0;  // indices
  bool built = true;            // false: its file was already complete
  double seconds = 0;
  int rank = -1;  // the MPI rank that built it; -1 without MPI
  // Built over a file that failed its checks: what was wrong with it (empty when there
  // was no file).
  std::string rebuilt_because;
  BuildProgress progress;  // the build's, this tier included
};

struct BuildSummary {
  int built = 0;
  int skipped = 0;  // tiers already complete
  std::uint64_t built_positions = 0;
  double seconds = 0;
  int threads = 0;                   // per process (per rank under MPI)
  double write_fraction = 0;         // of the tiers' time: writing files
  std::uint64_t peak_rss_bytes = 0;  // of this process
  std::string directory;             // where the databases are
  // Under MPI (mpi is true): the manager's view.
  bool mpi = false;
  int worker_ranks = 0;
  int finished_earlier = 0;  // tiers an earlier run's progress log showed finished
  std::vector<int> lost_ranks;
};

// The extended solution of a game with a start family (HasStartFamily): the value of
// every start with white..black stones to place, White to move.
struct ExtendedTable {
  struct Cell {
    int white = 0;
    int black = 0;
    std::string position;
    Value value;
  };
  GameLabel label;
  int max_in_hand = 0;
  std::vector<Cell> starts;  // by white, then black, from 3
};

// A position whose stored value its successors contradict.
struct Inconsistency {
  std::string tier;
  std::uint64_t index = 0;
  std::string position;
  std::string stored;
  std::string expected;
};

// One tier as verify checked it.
// A match's results (app/match.h), from player A's side (the --white player).
struct MatchResult {
  std::string white;
  std::string black;
  std::string white_heuristic;  // the ultra databases' heuristic where a player is ultra
  std::string black_heuristic;
  std::string from;
  std::uint64_t seed = 0;
  std::uint64_t games = 0;
  std::uint64_t wins = 0;
  std::uint64_t draws = 0;
  std::uint64_t losses = 0;
  std::uint64_t first_games = 0;  // games A moved first in
  std::uint64_t first_wins = 0;   // A's wins among them
  std::uint64_t second_games = 0;
  std::uint64_t second_wins = 0;
  std::uint64_t adjudicated = 0;  // draws by the quiet-move rule or length
  std::uint64_t plies = 0;
  std::pair<double, double> win_interval{0, 1};    // 95 %, Wilson
  std::pair<double, double> loss_interval{0, 1};   // 95 %, Wilson
  double score = 0;                                // (wins + draws / 2) / games
  std::pair<double, double> score_interval{0, 1};  // 95 %, normal approximation
  double seconds = 0;
};

// The draws of the ultra databases by class (`stats --ultra`): the rank of the sector
// perfect play finally stays in, for the side to move, with the sectors of that rank.
struct UltraClasses {
  std::string heuristic;
  std::string directory;
  std::uint64_t positions = 0;  // not holes
  std::uint64_t wins = 0;
  std::uint64_t losses = 0;
  std::uint64_t draws = 0;
  std::uint64_t stable = 0;  // draws whose final sector is their own (stored key 0)
  struct Row {
    int rank = 0;
    std::uint64_t draws = 0;
    std::vector<std::string> sectors;
  };
  std::vector<Row> rows;  // by rank, largest first
};

struct VerifiedTier {
  std::string name;
  bool checksums_only = false;
  std::uint64_t inconsistent = 0;     // positions whose value the successors contradict
  std::vector<Inconsistency> listed;  // the first of them, within VerifyRequest::max_errors
  // Not verified: the error that stopped it (its file or a child's missing or damaged).
  std::string failure;
  bool from_journal = false;  // found consistent by an earlier run (verify --journal)
};

struct VerifySummary {
  bool checksums_only = false;
  std::uint64_t positions = 0;  // indices re-derived
  std::uint64_t bytes = 0;      // bytes checked (checksums only)
  double seconds = 0;
  std::uint64_t inconsistent = 0;  // inconsistent positions in every tier
  int inconsistent_tiers = 0;      // tiers with at least one
  std::uint64_t listed = 0;        // inconsistent positions described (VerifiedTier::listed)
  int failed_tiers = 0;            // tiers that could not be verified
  int journaled_tiers = 0;         // tiers an earlier run verified (verify --journal)
  std::string first_failure;       // the first of their errors

  [[nodiscard]] bool ok() const { return inconsistent == 0 && failed_tiers == 0; }
  // Counts a tier's outcome (its positions are counted by the caller).
  void add(const VerifiedTier& tier) {
    inconsistent += tier.inconsistent;
    inconsistent_tiers += tier.inconsistent > 0 ? 1 : 0;
    listed += tier.listed.size();
    journaled_tiers += tier.from_journal ? 1 : 0;
    if (!tier.failure.empty()) {
      if (failed_tiers == 0) first_failure = tier.failure;
      ++failed_tiers;
    }
  }
};

struct TierStats {
  std::string tier;     // by sector: the sector's name
  std::string of_tier;  // by sector: the tier that holds it
  bool built = false;
  int pieces = 0;
  std::uint64_t indices = 0;
  std::uint64_t positions = 0;  // holes excepted
  std::uint64_t wins = 0, draws = 0, losses = 0;
  std::uint64_t longest_win = 0, longest_loss = 0;
  std::uint64_t file_bytes = 0;

  // Adds another row's counts (and takes the longer longest results); not its file bytes.
  void add(const TierStats& part) {
    indices += part.indices;
    positions += part.positions;
    wins += part.wins;
    draws += part.draws;
    losses += part.losses;
    longest_win = std::max(longest_win, part.longest_win);
    longest_loss = std::max(longest_loss, part.longest_loss);
  }
};

struct StatsSummary {
  GameLabel label;
  std::vector<TierStats> tiers;
  TierStats total;  // built: every tier present
  int missing = 0;  // tiers not built
  // What the figures come from: each file's header (its checksum checked, and the block
  // index's) and size, without reading a block, so a damaged block goes unnoticed.
  bool headers_only = true;
  // stats --sectors: a row per sector (a paired tier's two sectors apart), every value
  // read; file_bytes in the total only.
  bool by_sector = false;
};

// `probe --pdn`: a game of a PDN file ply by ply with the databases' values.
struct GameAnalysis {
  struct Ply {
    std::string number;  // "3." or "3..."
    std::string move;
    std::string position;  // before the move
    std::optional<Value> value;
    bool depth = true;
    std::string after;
    std::optional<Value> value_after;
    bool depth_after = true;
    std::optional<Value> mover_value_after;  // value_after for the side that moved
    std::string change;                      // "win -> draw" where the move lost value
  };
  std::string game;
  std::string file;
  int number = 1;
  std::vector<std::pair<std::string, std::string>> tags;
  std::string start;
  std::string result;
  std::vector<Ply> plies;
  std::string last;  // the final position
  bool last_terminal = false;
  std::optional<Value> last_value;
  bool last_depth = true;
  std::vector<std::string> errors;  // "12. 9-14 (win -> draw)"
};

struct SolveResult {
  GameLabel label;
  std::string position;
  std::string directory;  // the databases probed
  search::SolveReport report;
};

// prove: the proof's state after the run (or without one, --status), and the checker's
// findings (--check).
struct ProveResult {
  GameLabel label;
  std::string store;
  prove::ProveSummary summary;
  std::optional<prove::CheckSummary> check;
};

// The proof tree of a store as the explorer shows it (app/proof_view.h): the store's
// state and its best line from the root.
struct ProofView {
  GameLabel label;
  std::string store;
  prove::ProveSummary summary;
  std::vector<prove::LineStep> line;
};

struct PerftResult {
  std::string game;
  std::string position;
  int depth = 0;
  bool divide = false;
  PerftDivision division;  // moves empty unless divide
  double seconds = 0;
};

}  // namespace gs::app
