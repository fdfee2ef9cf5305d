#pragma once
// What gamesolver's C++ library (gamesolver/database.h) returns: plain values, the same
// figures the gamesolver command prints.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gamesolver {

// Values are from the side to move (for a move: of the side making it).
enum class Outcome { kLoss = 0, kDraw = 1, kWin = 2 };

struct Value {
  Outcome outcome = Outcome::kDraw;
  // Plies to the end with best play (the shortest win, the longest loss); nullopt for a
  // draw, and where the databases keep win/draw/loss only (`compress --encoding wdl`).
  std::optional<int> depth;

  // "win in 5", "draw", "loss in 0", or "win"/"loss" without a depth.
  [[nodiscard]] std::string text() const;
  friend bool operator==(const Value&, const Value&) = default;
};

// A legal move of a probed position.
struct MoveValue {
  std::string move;            // as the game writes moves ("Eb2", "a1-d1", "9-14")
  std::string position;        // the position it leads to
  std::optional<Value> value;  // for the side making the move; nullopt: not in the databases
};

namespace detail {
struct ReportData;
}  // namespace detail

// The report of one position: what `gamesolver probe` prints.
class Report {
 public:
  std::string game;
  std::string variant;
  std::string rules;           // the non-default rule options, comma separated; empty if none
  std::string position;        // as the game writes it (normalised from the text probed)
  std::optional<int> side;     // the side to move (0: the side moving first), where the game says
  bool terminal = false;       // the game is over by the rules
  bool no_legal_move = false;  // over because the side to move has no legal move
  // nullopt: not in the databases (missing_tier or beyond say why where they can).
  std::optional<Value> value;
  std::string tier;                    // the tier of the position; empty when it is over
  std::optional<std::uint64_t> index;  // its index in the tier
  std::vector<MoveValue> moves;        // every legal move, best first, moves without a value last
  // The perfect player's move, an index into moves: only where every move has a value.
  std::optional<std::size_t> best;
  std::string missing_tier;   // the tier not built, when value is nullopt for that reason
  std::optional<int> beyond;  // the most pieces of the tiers built, when the position has more
  // The move text given to Database::probe(position, move), whose result this reports.
  std::optional<std::string> played;

  // The report as `gamesolver probe --json` prints it (without the final newline), and as
  // `gamesolver probe` prints it as text. Each call formats it anew. compact_json() is
  // json() on one line without spaces (what the explorer's server sends).
  [[nodiscard]] std::string json() const;
  [[nodiscard]] std::string compact_json() const;
  [[nodiscard]] std::string text() const;

 private:
  friend class Database;
  std::shared_ptr<const detail::ReportData> data_;
};

// The value of one position only (Database::value): no move is generated past the
// rules' check, so it costs one probe.
struct PositionValue {
  std::optional<Value> value;  // nullopt: not in the databases
  bool terminal = false;       // the rules decide: the game is over, or no legal move
};

// One tier as `gamesolver stats` reports it, from its file's header.
struct TierStats {
  std::string tier;
  bool built = false;  // its file is there
  int pieces = 0;
  std::uint64_t indices = 0;
  std::uint64_t positions = 0;  // indices that are positions (holes excepted)
  std::uint64_t wins = 0;
  std::uint64_t draws = 0;
  std::uint64_t losses = 0;
  std::uint64_t longest_win = 0;
  std::uint64_t longest_loss = 0;
  std::uint64_t file_bytes = 0;
};

struct Stats {
  std::vector<TierStats> tiers;  // every tier up to the piece count, in build order
  TierStats total;               // built: every tier is
  int missing = 0;               // tiers not built
};

struct BuildResult {
  int built = 0;    // tiers built
  int skipped = 0;  // tiers whose files were complete already
  std::uint64_t built_positions = 0;
  double seconds = 0;
  std::uint64_t peak_rss_bytes = 0;  // of this process
  std::string directory;
};

struct VerifyResult {
  bool ok = false;              // nothing inconsistent, every tier readable
  std::uint64_t positions = 0;  // indices re-derived (0 with checksums only)
  std::uint64_t bytes = 0;      // bytes checked (checksums only)
  std::uint64_t inconsistent = 0;
  int failed_tiers = 0;  // tiers that could not be read
  std::string first_failure;
  double seconds = 0;
};

struct GameInfo {
  std::string name;
  std::string description;
  std::vector<std::string> options;  // the rule options and variants, as --help lists them
};

}  // namespace gamesolver
