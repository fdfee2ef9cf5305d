#pragma once
// Builds, loads and verifies ultra databases (docs/ULTRA.md) beside a variant's strong
// databases: <variant directory>/ultra-<heuristic>/ holds ranks.txt (every sector's
// rank, the win key and the --pieces they were made for) and a file per tier
// (db/ultra_file.h).
//
// The strong databases of every tier must be built first: the ratio heuristic reads
// their outcomes, and every ultra tier solved is compared with its strong tier, value by
// value (the strong projection, retro/ultra_value.h), before it is written; a difference
// is an error. A tier whose file is good (same ranks) is not solved again.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/bytes.h"
#include "core/error.h"
#include "core/game.h"
#include "core/parallel.h"
#include "core/progress.h"
#include "core/tier_walk.h"
#include "db/database.h"
#include "db/file_io.h"
#include "db/ultra_file.h"
#include "retro/build.h"
#include "retro/ultra_heuristic.h"
#include "retro/ultra_solver.h"
#include "retro/ultra_value.h"
#include "retro/ultra_verify.h"

namespace gs::retro {

inline std::filesystem::path ultra_directory(const db::Location& location, UltraHeuristic heuristic) {
  return location.directory() / ("ultra-" + std::string(heuristic_name(heuristic)));
}

// The text of ranks.txt.
template <Game G>
requires HasSectors<G> std::string ranks_text(const G& game, const SectorRanks& ranks, int pieces) {
  std::string text = fmt::format("heuristic {}\npieces {}\nwin {}\n", ranks.heuristic, pieces, ranks.win);
  for (const auto& [code, rank] : ranks.rank)
    text += fmt::format("sector {} {} {}\n", game.sector_name(code), code, rank);
  return text;
}

// Reads ranks.txt; throws gs::Error where it is missing or damaged.
inline SectorRanks read_ranks(const std::filesystem::path& directory, std::string& text, int& pieces) {
  const std::filesystem::path path = directory / "ranks.txt";
  std::ifstream in(path);
  if (!in)
    fail("{} is missing: build the ultra databases first (gamesolver build ... --ultra ...)", path.string());
  std::stringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  SectorRanks ranks;
  std::istringstream lines(text);
  std::string word;
  bool have_win = false;
  while (lines >> word) {
    if (word == "heuristic") {
      lines >> ranks.heuristic;
    } else if (word == "pieces") {
      lines >> pieces;
    } else if (word == "win") {
      lines >> ranks.win;
      have_win = true;
    } else if (word == "sector") {
      std::string name;
      Tier code = 0;
      std::int32_t rank = 0;
      lines >> name >> code >> rank;
      ranks.rank[code] = rank;
    } else {
      fail("{}: damaged (unexpected '{}')", path.string(), word);
    }
    if (!lines) fail("{}: damaged", path.string());
  }
  if (!have_win || ranks.rank.empty()) fail("{}: damaged (no ranks)", path.string());
  return ranks;
}

// The strong values of a tier, holes as kHoleCode (told by the game, since files may
// fill them).
template <Game G>
std::vector<ValueCode> strong_codes(const G& game, db::Database& database, Tier tier, int threads) {
  const db::TierReader* reader = database.find(game, tier);
  if (reader == nullptr)
    fail("tier {} has no strong database: build it first (gamesolver build without --ultra)",
         game.tier_name(tier));
  std::vector<ValueCode> codes(game.size(tier), kHoleCode);
  parallel_for(0, codes.size(), threads, Index{1} << 16, [&](Index begin, Index end, int) {
    for_each_position(game, tier, begin, end,
                      [&](Index i, const typename G::Position&) { codes[i] = reader->code(i); });
  });
  return codes;
}

// Where a tier's ultra values project to other values than its strong database holds:
// how many positions, and the first of them.
struct StrongDifferences {
  std::uint64_t count = 0;
  Index first = 0;
  Value projected, stored;  // at `first`
};

template <Game G>
StrongDifferences strong_differences(const G& game, db::Database& database, Tier tier,
                                     const UltraTier& values, const SectorRanks& ranks, int threads) {
  const std::vector<ValueCode> strong = strong_codes(game, database, tier, threads);
  database.forget_all();  // the tier's reader, and its children's where they derived values
  StrongDifferences found;
  for (Index i = 0; i < strong.size(); ++i) {
    if (strong[i] == kHoleCode) continue;
    const Value projected =
        ultra_strong(UltraValue::unpack(values.cells[i]), values.sectors.rank(i), ranks.win);
    if (projected.code() == strong[i]) continue;
    if (found.count == 0) {
      found.first = i;
      found.projected = projected;
      found.stored = Value::from_code(strong[i]);
    }
    ++found.count;
  }
  return found;
}

// The ranks of a heuristic for the tiers up to `pieces`, from the strong databases.
template <Game G>
requires HasSectors<G> SectorRanks heuristic_ranks(const G& game, db::Database& database,
                                                   const std::vector<Tier>& order, UltraHeuristic heuristic,
                                                   bool quiet, int threads) {
  std::map<Tier, SectorCounts> counts;
  if (heuristic == UltraHeuristic::kRatio) {
    Progress progress("ratio heuristic", order.size(), quiet);
    for (const Tier tier : order) {
      counts.merge(sector_counts(game, tier, strong_codes(game, database, tier, threads)));
      database.forget(tier);
      progress.add(1);
    }
  }
  return sector_ranks(game, order, heuristic, counts);
}

struct UltraTierReport {
  std::string name;
  std::uint64_t positions = 0;
  bool built = false;  // false: its file was good
  double seconds = 0;
};

struct UltraBuildOptions {
  UltraHeuristic heuristic = UltraHeuristic::kRatio;
  bool quiet = false;
  // The working-memory budget: a tier whose solve would need more (its cells, queue and
  // values, and its children's values in memory) is refused before it starts.
  std::uint64_t memory_bytes = std::uint64_t{8} << 30;
  int threads = 1;  // for the scans; the propagation within a tier is sequential
};

// The memory the ultra solve of a tier needs at most: its working cells and queue
// entries, its values, and its children's values, all in memory.
template <Game G>
requires HasSectors<G> std::uint64_t ultra_tier_bytes(const G& game, Tier tier) {
  std::uint64_t bytes = game.size(tier) * (UltraSolver<G>::kBytesPerIndex + sizeof(std::uint32_t));
  for (const Tier child : game.children(tier)) bytes += game.size(child) * sizeof(std::uint32_t);
  return bytes;
}

// The memory the ultra check of a tier needs: its values and the strong values they are
// compared with, and its children's values (the strong file's reader comes on top).
template <Game G>
requires HasSectors<G> std::uint64_t ultra_verify_bytes(const G& game, Tier tier) {
  std::uint64_t bytes = game.size(tier) * (sizeof(std::uint32_t) + sizeof(ValueCode));
  for (const Tier child : game.children(tier)) bytes += game.size(child) * sizeof(std::uint32_t);
  return bytes;
}

// Lets go of the values kept for later tiers when they and the `need` bytes of the work
// on `tier` (which reads its children's values) would not fit the budget together.
template <Game G>
void make_room_for_ultra(const G& game, UltraTables& tables, Tier tier, std::uint64_t need,
                         std::uint64_t budget) {
  std::set<Tier> reading{tier};
  for (const Tier child : game.children(tier)) reading.insert(child);
  if (tables.bytes_besides(reading) + need > budget) tables.keep_only(reading);
}

template <Game G>
requires HasSectors<G> db::UltraHeader ultra_header(const G& game, const db::Location& location, Tier tier,
                                                    const SectorRanks& ranks, std::uint64_t ranks_checksum) {
  db::UltraHeader header;
  header.game = location.game;
  header.variant = location.variant;
  header.rules = location.rules;
  header.heuristic = ranks.heuristic;
  header.tier = tier;
  header.tier_name = game.tier_name(tier);
  header.positions = game.size(tier);
  header.win = ranks.win;
  header.ranks_checksum = ranks_checksum;
  return header;
}

// Loads the ultra values of a tier into tables (checked against the header expected).
template <Game G>
requires HasSectors<G>
void load_ultra_tier(const G& game, const std::filesystem::path& directory, const db::Location& location,
                     Tier tier, const SectorRanks& ranks, std::uint64_t ranks_checksum, UltraTables& tables) {
  if (tables.find(tier) != nullptr) return;
  const std::filesystem::path path = directory / (game.tier_name(tier) + std::string(db::kUltraSuffix));
  std::error_code ignored;
  if (!std::filesystem::exists(path, ignored))
    fail("tier {} has no ultra database ({})", game.tier_name(tier), path.string());
  db::UltraFile file = db::read_ultra_tier(path, ultra_header(game, location, tier, ranks, ranks_checksum));
  UltraTier values;
  values.cells = std::move(file.cells);
  values.sectors = TierSectors::of(game, tier, ranks);
  tables.put(tier, std::move(values));
}

// Builds the ultra databases of every tier up to `pieces`.
template <Game G>
requires HasSectors<G> std::vector<UltraTierReport> build_ultra(
    const G& game, db::Database& database, int pieces, const UltraBuildOptions& options,
    const std::function<void(const UltraTierReport&)>& on_tier = {}) {
  const db::Location& location = database.location();
  const std::vector<Tier> order = tiers_in_order(game, pieces);
  const std::filesystem::path directory = ultra_directory(location, options.heuristic);
  const SectorRanks ranks =
      heuristic_ranks(game, database, order, options.heuristic, options.quiet, options.threads);
  const std::string text = ranks_text(game, ranks, pieces);
  {
    // Ranks made for another set of tiers would make the files disagree.
    std::string existing;
    int existing_pieces = 0;
    std::error_code ignored;
    if (std::filesystem::exists(directory / "ranks.txt", ignored)) {
      (void)read_ranks(directory, existing, existing_pieces);
      if (existing != text) {
        fail(
            "{} holds ultra databases with other sector ranks (built with --pieces {}): remove the directory "
            "to build them for --pieces {}",
            directory.string(), existing_pieces, pieces);
      }
    } else {
      db::io::write_atomically(directory / "ranks.txt", [&](int fd, const std::string& temp) {
        db::io::write_all(fd, reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), temp);
      });
    }
  }
  const std::uint64_t checksum = db::ultra_text_checksum(text);
  const std::map<Tier, std::vector<Tier>> released = released_after(game, order);
  UltraTables tables;
  std::vector<UltraTierReport> reports;
  for (const Tier tier : order) {
    UltraTierReport report;
    report.name = game.tier_name(tier);
    report.positions = game.size(tier);
    const std::filesystem::path path = directory / (report.name + std::string(db::kUltraSuffix));
    const db::UltraHeader header = ultra_header(game, location, tier, ranks, checksum);
    bool good = false;
    try {
      good = db::read_ultra_header(path) == header;
    } catch (const Error&) {
      good = false;  // missing or damaged: built again
    }
    if (!good) {
      const std::uint64_t need = ultra_tier_bytes(game, tier);
      if (need > options.memory_bytes) {
        fail("the ultra solve of tier {} needs up to {} MiB, over the budget of {} MiB (--memory)",
             report.name, need >> 20, options.memory_bytes >> 20);
      }
      make_room_for_ultra(game, tables, tier, need, options.memory_bytes);
      const auto start = std::chrono::steady_clock::now();
      for (const Tier child : game.children(tier))
        load_ultra_tier(game, directory, location, child, ranks, checksum, tables);
      UltraSolver<G> solver(game, tables, tier, ranks, options.quiet, options.threads);
      UltraTier values;
      values.cells = solver.solve();
      values.sectors = TierSectors::of(game, tier, ranks);
      // The strong projection must be the strong database, value for value.
      const StrongDifferences differences =
          strong_differences(game, database, tier, values, ranks, options.threads);
      if (differences.count > 0) {
        fail("tier {} index {}: the ultra value projects to {}, the strong database holds {}", report.name,
             differences.first, differences.projected.to_string(), differences.stored.to_string());
      }
      db::write_ultra_tier(path, header, values.cells);
      tables.put(tier, std::move(values));
      report.built = true;
      report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    if (const auto it = released.find(tier); it != released.end()) {
      for (const Tier done : it->second) tables.drop(done);
    }
    if (on_tier) on_tier(report);
    reports.push_back(report);
  }
  return reports;
}

// Verification of every ultra tier up to `pieces`: each stored value re-derived from its
// successors (retro/ultra_verify.h), and its strong projection compared with the strong
// database. Goes on to the end; a tier that cannot be read is reported and passed over.
struct UltraVerifiedTier {
  std::string name;
  std::uint64_t positions = 0;
  std::uint64_t inconsistent = 0;          // against the successors
  std::uint64_t strong_differs = 0;        // projections that differ from the strong database
  std::vector<UltraInconsistency> listed;  // the first inconsistencies
  std::string failure;                     // why the tier could not be verified
};

template <Game G>
requires HasSectors<G> std::vector<UltraVerifiedTier> verify_ultra(
    const G& game, db::Database& database, int pieces, UltraHeuristic heuristic, std::size_t keep,
    int threads = 1, std::uint64_t memory_bytes = std::numeric_limits<std::uint64_t>::max(),
    const std::function<void(const UltraVerifiedTier&)>& on_tier = {}) {
  const db::Location& location = database.location();
  const std::filesystem::path directory = ultra_directory(location, heuristic);
  std::string text;
  int built_pieces = 0;
  const SectorRanks ranks = read_ranks(directory, text, built_pieces);
  if (ranks.heuristic != heuristic_name(heuristic))
    fail("{}: ranks of heuristic {}, not {}", (directory / "ranks.txt").string(), ranks.heuristic,
         heuristic_name(heuristic));
  const std::uint64_t checksum = db::ultra_text_checksum(text);
  const std::vector<Tier> order = tiers_in_order(game, pieces);
  const std::map<Tier, std::vector<Tier>> released = released_after(game, order);
  UltraTables tables;
  std::vector<UltraVerifiedTier> rows;
  std::size_t listed = 0;
  for (const Tier tier : order) {
    UltraVerifiedTier row;
    row.name = game.tier_name(tier);
    row.positions = game.size(tier);
    try {
      const db::TierReader* strong = database.find(game, tier);
      if (strong == nullptr)
        fail("tier {} has no strong database: build it first (gamesolver build without --ultra)", row.name);
      const std::uint64_t need = ultra_verify_bytes(game, tier) + strong->memory_bytes();
      if (need > memory_bytes) {
        database.forget(tier);
        fail(
            "verifying the ultra values of tier {} needs {} of memory (its values, its children's and its "
            "strong values), over the budget of {} (--memory)",
            row.name, bytes_text(need), bytes_text(memory_bytes));
      }
      make_room_for_ultra(game, tables, tier, need, memory_bytes);
      load_ultra_tier(game, directory, location, tier, ranks, checksum, tables);
      for (const Tier child : game.children(tier))
        load_ultra_tier(game, directory, location, child, ranks, checksum, tables);
      const UltraVerification found =
          verify_ultra_tier(game, tables, tier, ranks, keep - std::min(keep, listed), threads);
      row.inconsistent = found.inconsistent;
      row.listed = found.first;
      listed += row.listed.size();
      const UltraTier& values = *tables.find(tier);
      row.strong_differs = strong_differences(game, database, tier, values, ranks, threads).count;
    } catch (const Error& error) {
      row.failure = error.what();
    }
    if (const auto it = released.find(tier); it != released.end()) {
      for (const Tier done : it->second) tables.drop(done);
    }
    if (on_tier) on_tier(row);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace gs::retro
