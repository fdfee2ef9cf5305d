#pragma once
// The service of one game variant: every command of gamesolver for that game, behind a
// virtual interface so that the command line and the server pick a game by name
// (app/registry.h). Commands return plain results (app/results.h) and report progress
// through callbacks; none prints. app/service.h implements it for every game type.
#include <array>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "app/play.h"
#include "app/position_report.h"
#include "app/requests.h"
#include "app/results.h"
#include "db/compress.h"
#include "db/location.h"
#include "retro/count.h"

namespace gs::db {
class Database;
}  // namespace gs::db

namespace gs::app {

using TierCallback = std::function<void(const BuiltTier&)>;
using SummaryCallback = std::function<void(const BuildSummary&)>;

class GameService {
 public:
  virtual ~GameService() = default;

  [[nodiscard]] virtual GameLabel label() const = 0;
  // The names of side 0 and side 1 of the side to move (`play --human`).
  [[nodiscard]] virtual std::array<std::string, 2> side_names() const = 0;
  // The most pieces (as --pieces counts them) of any tier of the variant, where the game
  // says (core/game.h, HasMaxPieces).
  [[nodiscard]] virtual std::optional<int> max_pieces() const = 0;
  // The --pieces of a command that is not given one: the game's default_pieces()
  // (core/game.h, HasDefaultPieces), else 4.
  [[nodiscard]] virtual int default_pieces() const = 0;

  // on_summary is called once by the process that reports (under MPI, rank 0).
  virtual void build(const CommonOptions& options, const BuildRequest& request, const TierCallback& on_tier,
                     const SummaryCallback& on_summary) = 0;
  // Builds what the starts need (reported as a build is) and returns their values;
  // throws for a game without a start family.
  virtual ExtendedTable extended(const CommonOptions& options, int max_in_hand, const TierCallback& on_tier,
                                 BuildSummary& built) = 0;
  // The report of a position (text, or "start"); throws InputError for bad text.
  virtual PositionReport probe(const CommonOptions& options, const std::string& position) = 0;
  // The same from databases kept open (the library, gamesolver/database.h), after `move`
  // when one is given (InputError for bad text, an illegal move, or a game over). Where
  // check_directory, a missing data or variant directory is the error probe() gives,
  // after bad text.
  [[nodiscard]] virtual PositionReport probe(db::Database& database, const std::string& position,
                                             const std::optional<std::string>& move,
                                             bool check_directory) const = 0;
  // The value of one position only: the rules' value where the game is over or the side
  // to move has no legal move, else one probe. Errors as probe's.
  [[nodiscard]] virtual ProbedValue probe_value(db::Database& database, const std::string& position,
                                                bool check_directory) const = 0;
  virtual GameAnalysis analyse(const CommonOptions& options, const std::filesystem::path& file, int game) = 0;
  virtual VerifySummary verify(const CommonOptions& options, const VerifyRequest& request,
                               const std::function<void(const VerifiedTier&)>& on_tier) = 0;
  virtual db::CompressSummary compress(const CommonOptions& options, const CompressRequest& request,
                                       const db::CompressEvents& events) = 0;
  virtual StatsSummary stats(const CommonOptions& options, const TierScope& scope, bool sectors) = 0;
  // The draws of the ultra databases of a heuristic by class (app/ultra.h).
  virtual UltraClasses ultra_classes(const CommonOptions& options, int pieces,
                                     const std::string& heuristic) = 0;
  virtual retro::CountResult count(const CommonOptions& options, const CountRequest& request) = 0;
  virtual std::unique_ptr<PlaySession> play(const CommonOptions& options, const PlayRequest& request) = 0;
  virtual SolveResult solve(const CommonOptions& options, const SolveRequest& request,
                            const std::string& position) = 0;
  // Runs the proof-tree manager on a position with its store, or reads (--status) or
  // checks (--check) the store; on_result is called once, by the process that reports
  // (under MPI, rank 0, before the job ends).
  virtual void prove(const CommonOptions& options, const ProveRequest& request, const std::string& position,
                     const std::function<void(const ProveResult&)>& on_result) = 0;
  // A proof store's root and best line (at most max_line positions), read without its
  // lock (the store may be being written), with the databases under `data` where they
  // are. Throws gs::Error for a store of another game or variant.
  virtual ProofView proof_view(const std::filesystem::path& data, const std::filesystem::path& store,
                               std::size_t max_line) = 0;
  virtual PerftResult perft(const PerftRequest& request) = 0;
  // Plays a match between two players (app/match.h).
  virtual MatchResult match(const CommonOptions& options, const MatchRequest& request) = 0;

  // For the explorer: the game, its variant, start position and board; the databases
  // present under a data directory; where they are; and the report of a position after
  // `move` when one is given (InputError for bad text or an illegal move).
  [[nodiscard]] virtual nlohmann::json describe() const = 0;
  [[nodiscard]] virtual nlohmann::json databases(const std::filesystem::path& data) const = 0;
  [[nodiscard]] virtual db::Location database_location(const std::filesystem::path& data) const = 0;
  [[nodiscard]] virtual PositionReport report(db::Database& database, const std::string& position,
                                              const std::optional<std::string>& move) const = 0;
};

}  // namespace gs::app
