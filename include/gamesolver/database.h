#pragma once
// gamesolver's C++ library: the databases of one game variant, probed, listed, built
// and verified from another program. It answers exactly what the gamesolver command
// answers (the command's `probe` goes through this class), with the same cache budget
// and the same checks of every byte read. docs/LIBRARY.md shows it in use.
//
//   #include <gamesolver/database.h>
//   gamesolver::Database db = gamesolver::Database::open("data", "morris", "standard");
//   gamesolver::Report report = db.probe("W:a1,d2 B:g7 w 7 8");
//   if (report.value) std::cout << report.value->text() << "\n";
//
// Link with the CMake package (find_package(gamesolver), target gamesolver::gamesolver)
// or pkg-config (`pkg-config --cflags --libs gamesolver`). Every game of the gamesolver
// command is in the library; nothing needs registering.
//
// Threads: every const member may be called from any number of threads at once on one
// Database (the caches are shared and lock-free on hits). build() may run while other
// threads probe; tiers it writes are seen by later probes (a tier file replaced after a
// probe opened it is seen by a Database opened afterwards). A moved-from Database may
// only be assigned to or destroyed.
//
// Errors: every member throws gamesolver::Error (gamesolver/error.h) with the message
// the command prints: ErrorKind::kInput for bad position or move text or a piece count
// out of range, kNotFound for an unknown game, variant or rule option or a directory
// without the variant's databases,
// kDatabase for a damaged file (a checksum, a truncated file, another game's header:
// never a wrong value). Where a member fails, the Database is unchanged and usable.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gamesolver/error.h"
#include "gamesolver/results.h"

namespace gamesolver {

// The caches of probing: the defaults are the gamesolver command's.
struct OpenOptions {
  std::uint64_t block_cache_bytes = std::uint64_t{64} << 20;  // decompressed blocks
  std::size_t position_cache_entries = std::size_t{1} << 14;  // recent positions; 0: none
  // true: probe() and value() throw kNotFound while the data or variant directory does
  // not exist. false: they report such positions without a value, as for a tier not
  // built (a browser of the rules that shows values where there are some: the
  // explorer's server opens every variant so).
  bool require_databases = true;
};

struct BuildOptions {
  int pieces = 4;   // every tier up to this many pieces, and the tiers they read
  int threads = 0;  // 0: every core
  double memory_gib = 8.0;
};

struct VerifyOptions {
  int pieces = 4;
  bool checksums = false;  // every block's checksum only; no value re-derived
};

class Database {
 public:
  // The databases of a game's variant ("" for the game's default) with rule options
  // ("key=value") under data/<game>/<variant>[,<rules>]/. Reads nothing: the directory
  // need not exist yet (build() makes it); probes and stats need it. Cost: microseconds.
  // Throws kNotFound for an unknown game, variant or rule option (or one that
  // contradicts another).
  static Database open(const std::string& data, const std::string& game, const std::string& variant = "",
                       const std::vector<std::string>& rules = {}, const OpenOptions& options = {});

  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  [[nodiscard]] std::string game() const;
  [[nodiscard]] std::string variant() const;
  [[nodiscard]] std::string rules() const;
  // data/<game>/<variant>[,<rules>]: where the tier files are.
  [[nodiscard]] std::string directory() const;
  // The game's start position as text (what "start" stands for).
  [[nodiscard]] std::string start() const;
  // The variant as the explorer draws it, a JSON object: "game", "variant", "rules",
  // "start" and "board" (the board's shape, squares and piece names, as
  // docs/SERVER.md describes). Cost: microseconds; reads nothing.
  [[nodiscard]] std::string description_json() const;
  // The databases on disk, a JSON object: "directory" (its name), "tiers" (each tier
  // file present, with its piece count, fewest pieces first) and "complete_pieces" (the
  // most pieces up to which every tier is present, or null). Cost: one listing of the
  // directory; no file is opened, so a damaged file is listed. A missing directory
  // lists no tier: not an error.
  [[nodiscard]] std::string inventory_json() const;

  // The report of a position (text as the game writes it, or "start"): its value and
  // every legal move's, best first. Cost: one probe per legal move and one for the
  // position (each a cache hit, or one block decompressed: tens of microseconds), and
  // a tier file opened and its header checked on the first probe into it. A position
  // whose tier is not built has no value (Report::missing_tier says so): not an error.
  // Throws kInput for bad text, kNotFound when the directory does not exist (unless
  // OpenOptions::require_databases is false), kDatabase for a damaged file.
  [[nodiscard]] Report probe(const std::string& position) const;
  // The report of the position after a move (as the game writes moves) from position.
  // Throws kInput for an illegal or unreadable move, or when the game is over.
  [[nodiscard]] Report probe(const std::string& position, const std::string& move) const;
  // The value of a position only: one probe. Errors as probe().
  [[nodiscard]] PositionValue value(const std::string& position) const;

  // Per tier up to `pieces`, from the files' headers only (each header's and block
  // index's checksum checked, no block read: a damaged block goes unnoticed; verify
  // with checksums does notice). Cost: one small read per tier. Throws kNotFound when
  // the directory does not exist, kInput for a piece count over the game's most,
  // kDatabase for a damaged header.
  [[nodiscard]] Stats stats(int pieces) const;

  // Builds every tier up to options.pieces that is not complete (a file that fails its
  // checks is built again), as `gamesolver build --quiet`. Cost: the build's (seconds
  // for a few pieces, hours for the largest). Takes the directory's writer lock:
  // kDatabase when another process holds it.
  BuildResult build(const BuildOptions& options);
  // Re-derives every stored value from its successors (or checks the checksums only),
  // as `gamesolver verify`. Inconsistent positions and unreadable tiers are counted in
  // the result, not thrown. Cost: a pass over every tier.
  [[nodiscard]] VerifyResult verify(const VerifyOptions& options) const;

 private:
  struct State;
  explicit Database(std::unique_ptr<State> state);
  static Report make_report(std::shared_ptr<detail::ReportData> data);
  std::unique_ptr<State> state_;
};

// The games of the library, in the gamesolver command's order.
std::vector<GameInfo> games();

}  // namespace gamesolver
