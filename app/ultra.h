#pragma once
// `build --ultra` and `verify --ultra` for a game with sectors (core/game.h, HasSectors):
// the ultra databases of a heuristic beside the strong ones (retro/ultra_build.h,
// docs/ULTRA.md).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "app/build.h"
#include "app/peak_rss.h"
#include "app/requests.h"
#include "app/results.h"
#include "core/error.h"
#include "core/game.h"
#include "db/database.h"
#include "db/directory_lock.h"
#include "retro/ultra_build.h"

namespace gs::app {

// Builds the ultra databases of a heuristic (the strong ones must be built); the tiers
// are reported as "<tier> ultra".
template <Game G>
BuildSummary build_ultra(const G& game, const CommonOptions& options, int pieces,
                         const std::string& heuristic, const std::function<void(const BuiltTier&)>& on_tier) {
  if constexpr (HasSectors<G>) {
    const retro::UltraHeuristic kind = retro::parse_heuristic(heuristic);
    db::Database database(db::Location::of(game, options.data));
    const db::DirectoryLock lock(database.location().directory(), "build --ultra");
    const auto start = std::chrono::steady_clock::now();
    BuildSummary summary;
    retro::UltraBuildOptions build;
    build.heuristic = kind;
    build.quiet = options.quiet;
    build.memory_bytes = static_cast<std::uint64_t>(options.memory_gib * (1ULL << 30));
    build.threads = threads_of(options);
    retro::build_ultra(game, database, pieces, build, [&](const retro::UltraTierReport& report) {
      if (report.built) {
        ++summary.built;
        summary.built_positions += report.positions;
      } else {
        ++summary.skipped;
      }
      BuiltTier tier;
      tier.name = report.name + " ultra";
      tier.positions = report.positions;
      tier.built = report.built;
      tier.seconds = report.seconds;
      if (on_tier) on_tier(tier);
    });
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    summary.threads = build.threads;
    summary.peak_rss_bytes = peak_rss_bytes();
    summary.directory = retro::ultra_directory(database.location(), kind).string();
    return summary;
  } else {
    (void)game, (void)options, (void)pieces, (void)heuristic, (void)on_tier;
    fail("{} has no sectors: it has no ultra databases (docs/ULTRA.md)", G::kName);
  }
}

// Verifies the ultra databases of a heuristic: every value against its successors, and
// its strong projection against the strong database (a difference counts as an
// inconsistency).
template <Game G>
VerifySummary verify_ultra(const G& game, const CommonOptions& options, const VerifyRequest& request,
                           const std::function<void(const VerifiedTier&)>& on_tier) {
  if constexpr (HasSectors<G>) {
    if (request.checksums) fail("--checksums and --ultra do not go together: --ultra re-derives every value");
    const retro::UltraHeuristic kind = retro::parse_heuristic(*request.ultra);
    db::Database database(db::Location::of(game, options.data));
    const auto start = std::chrono::steady_clock::now();
    VerifySummary summary;
    const std::size_t keep = request.max_errors;
    retro::verify_ultra(
        game, database, request.pieces, kind, keep, threads_of(options),
        static_cast<std::uint64_t>(options.memory_gib * static_cast<double>(1ULL << 30)),
        [&](const retro::UltraVerifiedTier& found) {
          VerifiedTier row;
          row.name = found.name + " ultra";
          row.failure = found.failure;
          row.inconsistent = found.inconsistent + found.strong_differs;
          for (const retro::UltraInconsistency& bad : found.listed) {
            row.listed.push_back({found.name, bad.index, bad.position,
                                  fmt::format("({}, {})", bad.stored.key, bad.stored.depth),
                                  fmt::format("({}, {})", bad.expected.key, bad.expected.depth)});
          }
          if (found.strong_differs > 0) {
            row.listed.push_back({found.name, 0, fmt::format("{} positions", found.strong_differs),
                                  "an ultra value", "the strong database's outcome"});
          }
          summary.positions += found.failure.empty() ? found.positions : 0;
          summary.add(row);
          if (on_tier) on_tier(row);
        });
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary;
  } else {
    (void)game, (void)options, (void)request, (void)on_tier;
    fail("{} has no sectors: it has no ultra databases (docs/ULTRA.md)", G::kName);
  }
}

// The draws of the ultra databases up to `pieces` by class.
template <Game G>
UltraClasses ultra_classes(const G& game, const CommonOptions& options, int pieces,
                           const std::string& heuristic) {
  if constexpr (HasSectors<G>) {
    const retro::UltraHeuristic kind = retro::parse_heuristic(heuristic);
    const db::Location location = db::Location::of(game, options.data);
    const std::filesystem::path directory = retro::ultra_directory(location, kind);
    std::string text;
    int built = 0;
    const retro::SectorRanks ranks = retro::read_ranks(directory, text, built);
    const std::uint64_t checksum = db::ultra_text_checksum(text);
    UltraClasses result;
    result.heuristic = ranks.heuristic;
    result.directory = directory.string();
    std::map<int, std::uint64_t> by_rank;
    for (const Tier tier : retro::tiers_in_order(game, pieces)) {
      retro::UltraTables tables;
      retro::load_ultra_tier(game, directory, location, tier, ranks, checksum, tables);
      const retro::UltraTier& values = *tables.find(tier);
      for (Index i = 0; i < values.cells.size(); ++i) {
        if (values.cells[i] == retro::kUltraHole) continue;
        const retro::UltraValue v = retro::UltraValue::unpack(values.cells[i]);
        const std::int32_t absolute = v.key + values.sectors.rank(i);
        ++result.positions;
        if (absolute == ranks.win) {
          ++result.wins;
        } else if (absolute == -ranks.win) {
          ++result.losses;
        } else {
          ++result.draws;
          result.stable += v.key == 0 ? 1 : 0;
          ++by_rank[absolute];
        }
      }
    }
    for (auto it = by_rank.rbegin(); it != by_rank.rend(); ++it) {
      UltraClasses::Row row;
      row.rank = it->first;
      row.draws = it->second;
      for (const auto& [code, r] : ranks.rank) {
        if (r == it->first) row.sectors.push_back(game.sector_name(code));
      }
      result.rows.push_back(row);
    }
    return result;
  } else {
    (void)game, (void)options, (void)pieces, (void)heuristic;
    fail("{} has no sectors: it has no ultra databases (docs/ULTRA.md)", G::kName);
  }
}

}  // namespace gs::app
