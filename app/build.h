#pragma once
// `build` and `extended` for any game: the databases of every tier up to a piece count,
// on this machine (retro/build.h) or across the ranks of an mpirun job
// (dist/mpi_build.h); and, for a game with a start family, the value of each start.
// Either holds the database directory's lock while it writes (db/directory_lock.h), and
// reports each tier with the whole build's progress (app/build_progress.h).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/build_progress.h"
#include "app/peak_rss.h"
#include "app/requests.h"
#include "app/results.h"
#include "core/error.h"
#include "core/game.h"
#include "core/parallel.h"
#include "db/database.h"
#include "db/directory_lock.h"
#include "dist/mpi_build.h"
#include "retro/build.h"

namespace gs::app {

inline int threads_of(const CommonOptions& options) {
  return options.threads > 0 ? options.threads : default_threads();
}

template <Game G>
retro::BuildOptions build_options_of(const G& game, const CommonOptions& options, int threads) {
  retro::BuildOptions build_options;
  // Every value stored: the derivable don't-cares (docs/FORMAT.md) cost a pass over
  // every position on writing and a derivation of each on reading a child tier; they
  // are for probing, and `gamesolver compress` adds them.
  build_options.solve.threads = threads;
  build_options.solve.quiet = options.quiet;
  // The game's index tables come out of --memory; the tiers get the rest.
  const auto budget = static_cast<std::uint64_t>(options.memory_gib * (1ULL << 30));
  build_options.memory_bytes = budget - std::min(budget / 2, index_table_bytes(game));
  return build_options;
}

// The progress meter of a build of every tier of a scope.
template <Game G>
BuildProgressMeter progress_meter(const G& game, const TierScope& scope) {
  const std::vector<Tier> order = retro::tiers_in_order(game, scope);
  std::uint64_t indices = 0;
  for (const Tier tier : order) indices += game.size(tier);
  return BuildProgressMeter(static_cast<int>(order.size()), indices);
}

// Builds on this machine, holding the lock of the database directory (db/
// directory_lock.h) for `command`; on_tier is called as tiers finish, one call at a time.
template <Game G>
BuildSummary build_here(const G& game, const CommonOptions& options, const TierScope& scope,
                        const std::function<void(const BuiltTier&)>& on_tier, const std::string& command) {
  db::Database database(db::Location::of(game, options.data));
  const db::DirectoryLock lock(database.location().directory(), command);
  const int threads = threads_of(options);
  const auto start = std::chrono::steady_clock::now();
  BuildProgressMeter meter = progress_meter(game, scope);
  BuildSummary summary;
  double tier_seconds = 0;
  double write_seconds = 0;
  retro::build(game, database, scope, build_options_of(game, options, threads),
               [&](const retro::TierReport& report) {
                 if (report.built) {
                   ++summary.built;
                   summary.built_positions += report.header.positions;
                   tier_seconds += report.seconds;
                   write_seconds += report.write_seconds;
                 } else {
                   ++summary.skipped;
                 }
                 BuiltTier tier;
                 tier.name = report.name;
                 tier.positions = report.header.positions;
                 tier.built = report.built;
                 tier.seconds = report.seconds;
                 tier.rebuilt_because = report.rebuilt_because;
                 tier.progress = meter.finished(report.header.positions, report.built);
                 if (on_tier) on_tier(tier);
               });
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.threads = threads;
  summary.write_fraction = write_seconds / std::max(tier_seconds, 1e-9);
  summary.peak_rss_bytes = peak_rss_bytes();
  summary.directory = database.location().directory().string();
  return summary;
}

// Builds as the request says; on_summary is called once, at the end, by the process
// that reports: this one, or under MPI rank 0 (before it ends ranks that hang).
template <Game G>
void build(const G& game, const CommonOptions& options, const BuildRequest& request,
           const std::function<void(const BuiltTier&)>& on_tier,
           const std::function<void(const BuildSummary&)>& on_summary) {
  const TierScope scope = request.scope();
  if (!request.mpi) {
    const BuildSummary summary = build_here(game, options, scope, on_tier, "build");
    if (on_summary) on_summary(summary);
    return;
  }
  dist::MpiBuildOptions mpi;
  mpi.threads = options.threads;
  mpi.timeout_seconds = request.mpi_timeout;
  mpi.quiet = options.quiet;
  dist::MpiBuildEvents events;
  // On rank 0 only; made there before the first tier is handed out.
  std::optional<BuildProgressMeter> meter;
  events.started = [&] { meter.emplace(progress_meter(game, scope)); };
  events.logged = [&](const dist::Job& job) {
    if (meter) meter->finished(job.size, false);
  };
  events.tier = [&](const dist::Job& job, const dist::JobResult& result) {
    BuiltTier tier;
    tier.name = job.name;
    tier.positions = result.positions;
    tier.built = result.built;
    tier.seconds = result.seconds;
    tier.rank = result.rank;
    tier.rebuilt_because = result.rebuilt_because;
    if (meter) tier.progress = meter->finished(result.positions, result.built);
    if (on_tier) on_tier(tier);
  };
  events.summary = [&](const dist::MpiBuildSummary& done) {
    BuildSummary summary;
    summary.mpi = true;
    summary.built = done.manager.built;
    summary.skipped = done.manager.present;
    summary.finished_earlier = done.manager.skipped;
    summary.built_positions = done.manager.built_positions;
    summary.lost_ranks = done.manager.lost_ranks;
    summary.seconds = done.seconds;
    summary.worker_ranks = done.worker_ranks;
    summary.threads = done.threads;
    summary.directory = done.directory;
    if (on_summary) on_summary(summary);
  };
  const std::optional<int> alone = dist::build_with_mpi(game, db::Location::of(game, options.data), scope,
                                                        build_options_of(game, options, 1), mpi, events);
  if (!alone) return;
  CommonOptions single = options;
  single.threads = *alone;
  const BuildSummary summary = build_here(game, single, scope, on_tier, "build --mpi");
  if (on_summary) on_summary(summary);
}

// The values of the starts with 3..max_in_hand stones to place a side, White to move,
// after building what they need (tiers up to max_in_hand stones a side).
template <Game G>
ExtendedTable extended(const G& game, const CommonOptions& options, int max_in_hand,
                       const std::function<void(const BuiltTier&)>& on_tier, BuildSummary* built = nullptr) {
  if constexpr (HasStartFamily<G>) {
    const BuildSummary summary = build_here(game, options, max_in_hand, on_tier, "extended");
    if (built != nullptr) *built = summary;
    db::Database database(db::Location::of(game, options.data));
    ExtendedTable table;
    table.label = {std::string(G::kName), game.variant(), game.rule_text()};
    table.max_in_hand = max_in_hand;
    for (int white = 3; white <= max_in_hand; ++white) {
      for (int black = 3; black <= max_in_hand; ++black) {
        const typename G::Position start = game.start(white, black);
        const std::optional<Value> value = db::probe(game, database, start);
        if (!value) fail("no database holds the start {}", game.position_text(start));
        table.starts.push_back({white, black, game.position_text(start), *value});
      }
    }
    return table;
  } else {
    (void)game, (void)options, (void)max_in_hand, (void)on_tier, (void)built;
    fail("{} has no extended solutions: they are defined for the mill games (morris)", G::kName);
  }
}

}  // namespace gs::app
