#pragma once
// Builds the databases of every tier up to a size limit, children before parents. A
// tier whose file is complete with a good checksum is never recomputed, so a killed
// build resumes where it stopped.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "db/database.h"
#include "retro/tier_solver.h"

namespace gs::retro {

struct BuildOptions {
  SolveOptions solve;
  std::uint64_t memory_bytes = std::uint64_t{8} << 30;
  // How tiers are written; threads: those of the solve. A lower zstd level than
  // `gamesolver compress` uses keeps writing far below solving (docs/BENCHMARKS.md).
  db::WriteOptions write = [] {
    db::WriteOptions options;
    options.zstd_level = 9;
    return options;
  }();
};

struct TierReport {
  Tier tier = 0;
  std::string name;
  bool built = false;  // false: the file was already complete
  double seconds = 0;
  db::TierHeader header;
};

// Every tier up to the limit and all tiers they depend on, each after its children.
template <Game G>
std::vector<Tier> tiers_in_order(const G& game, int limit) {
  std::vector<Tier> order;
  std::set<Tier> done;
  std::set<Tier> open;
  std::function<void(Tier)> visit = [&](Tier tier) {
    if (done.contains(tier)) return;
    if (!open.insert(tier).second)
      fail("the tier graph of {} has a cycle through {}", G::kName, game.tier_name(tier));
    for (const Tier child : game.children(tier)) visit(child);
    open.erase(tier);
    done.insert(tier);
    order.push_back(tier);
  };
  for (const Tier tier : game.tiers(limit)) visit(tier);
  return order;
}

// For each tier of an order, the tiers that no tier after it reads (itself included when
// nothing later reads it): after it, their readers and decompressed blocks can go.
template <Game G>
std::map<Tier, std::vector<Tier>> released_after(const G& game, const std::vector<Tier>& order) {
  std::map<Tier, Tier> last_reader;
  for (const Tier tier : order) {
    last_reader[tier] = tier;
    for (const Tier child : game.children(tier)) last_reader[child] = tier;
  }
  std::map<Tier, std::vector<Tier>> released;
  for (const auto& [tier, last] : last_reader) released[last].push_back(tier);
  return released;
}

template <Game G>
std::vector<TierReport> build(const G& game, db::Database& database, int limit, const BuildOptions& options,
                              const std::function<void(const TierReport&)>& on_tier = {}) {
  std::vector<TierReport> reports;
  const std::vector<Tier> order = tiers_in_order(game, limit);
  std::map<Tier, std::vector<Tier>> released = released_after(game, order);
  for (const Tier tier : order) {
    TierReport report;
    report.tier = tier;
    report.name = game.tier_name(tier);
    const auto& location = database.location();
    const auto path = location.file(report.name);
    const auto expected = location.expected(tier, game.size(tier));
    db::remove_stale_temporaries(path);
    if (db::tier_file_good(path, expected)) {
      report.header = database.find(game, tier)->header();
    } else {
      // The working cells, and the child tiers, read at random: their files are mapped and
      // their blocks kept decompressed until the last tier that reads them is built; level
      // lists where the budget allows them.
      std::uint64_t children = 0;
      for (const Tier child : game.children(tier)) {
        if (const db::TierReader* reader = database.find(game, child)) children += reader->memory_bytes();
      }
      SolveOptions solve = options.solve;
      solve.level_lists = solve.level_lists && TierSolver<G>::lists_fit(game, tier) &&
                          children + TierSolver<G>::working_bytes(game, tier, true) <= options.memory_bytes;
      const std::uint64_t need = children + TierSolver<G>::working_bytes(game, tier, solve.level_lists);
      if (need > options.memory_bytes) {
        fail(
            "tier {} needs {:.3f} GiB of memory (working cells and child tiers), over the budget of "
            "{:.3f} GiB (--memory)",
            report.name, static_cast<double>(need) / (1U << 30),
            static_cast<double>(options.memory_bytes) / (1U << 30));
      }
      const auto start = std::chrono::steady_clock::now();
      database.forget(tier);
      db::TierHeader header;
      header.game = location.game;
      header.variant = location.variant;
      header.rules = location.rules;
      header.tier = tier;
      header.tier_name = report.name;
      {
        TierSolver<G> solver(game, database, tier, solve);
        const std::vector<ValueCode> codes = solver.solve();
        db::WriteOptions write = options.write;
        write.threads = solve.threads;
        report.header = db::write_tier(path, header, codes, write);
      }
      report.built = true;
      report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    for (const Tier done : released[tier]) database.forget(done);
    if (on_tier) on_tier(report);
    reports.push_back(report);
  }
  return reports;
}

}  // namespace gs::retro
