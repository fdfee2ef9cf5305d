#pragma once
// Builds the databases of every tier up to a size limit, children before parents. A
// tier whose file is complete with a good checksum is never recomputed, so a killed
// build resumes where it stopped.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "core/bytes.h"
#include "core/error.h"
#include "core/game.h"
#include "db/database.h"
#include "db/file_io.h"
#include "retro/tier_solver.h"

namespace gs::retro {

struct BuildOptions {
  SolveOptions solve;
  std::uint64_t memory_bytes = std::uint64_t{8} << 30;
  // Tiers with at least this many indices are solved one at a time with every thread;
  // smaller ones side by side, a thread each. Side by side costs less (no contended
  // cells, no threads started per level) and keeps every core busy while enough tiers
  // are ready; the threshold sits above the tiers of which builds have many (checkers'
  // 5-piece tiers have up to 4 M indices). Measurements: docs/BENCHMARKS.md.
  Index shared_tier_indices = Index{1} << 24;
  // How tiers are written; threads: those of the solve. Quickly, with nothing to choose:
  // zstd's fastest level without a dictionary, blocks of kDefaultBlockBytes. `gamesolver
  // compress` tries every codec and block size for the smallest files and adds
  // derivable don't-cares (docs/BENCHMARKS.md, "Writing during build").
  db::WriteOptions write = [] {
    db::WriteOptions options;
    options.codec = db::Codec::kZstd;
    options.dictionary = false;
    options.block_bytes = db::kDefaultBlockBytes;
    options.zstd_level = 1;
    return options;
  }();
};

struct TierReport {
  Tier tier = 0;
  std::string name;
  bool built = false;  // false: the file was already complete
  double seconds = 0;
  double write_seconds = 0;  // of seconds: writing the file
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

// The memory the child tiers of a tier hold (mapped files, decompressed blocks).
template <Game G>
std::uint64_t children_bytes(const G& game, db::Database& database, Tier tier) {
  std::uint64_t bytes = 0;
  for (const Tier child : game.children(tier)) {
    if (const db::TierReader* reader = database.find(game, child)) bytes += reader->memory_bytes();
  }
  return bytes;
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

// Throws when a tier cannot be built within the memory budget even without level lists.
template <Game G>
void require_memory(const G& game, db::Database& database, Tier tier, const BuildOptions& options) {
  const std::uint64_t minimum =
      children_bytes(game, database, tier) + TierSolver<G>::working_bytes(game, tier, false);
  if (minimum > options.memory_bytes) {
    fail("tier {} needs {} of memory (working cells and child tiers), over the budget of {} (--memory)",
         game.tier_name(tier), bytes_text(minimum), bytes_text(options.memory_bytes));
  }
}

// Builds one tier (or finds its file complete), with `threads` threads.
template <Game G>
TierReport build_tier(const G& game, db::Database& database, Tier tier, const BuildOptions& options,
                      int threads, bool quiet) {
  TierReport report;
  report.tier = tier;
  report.name = game.tier_name(tier);
  const auto& location = database.location();
  const auto path = location.file(report.name);
  const auto expected = location.expected(tier, game.size(tier));
  db::remove_stale_temporaries(path);
  if (db::tier_file_good(path, expected)) {
    report.header = database.find(game, tier)->header();
    return report;
  }
  // The working cells, and the child tiers, read at random: their files are mapped and
  // their blocks kept decompressed until the last tier that reads them is built; level
  // lists where the budget allows them.
  const std::uint64_t children = children_bytes(game, database, tier);
  SolveOptions solve = options.solve;
  solve.threads = threads;
  solve.quiet = quiet;
  solve.level_lists = solve.level_lists && TierSolver<G>::lists_fit(game, tier) &&
                      children + TierSolver<G>::working_bytes(game, tier, true) <= options.memory_bytes;
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
    write.threads = threads;
    const auto write_start = std::chrono::steady_clock::now();
    report.header = db::write_tier(path, header, codes, write);
    report.write_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count();
  }
  report.built = true;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

// Builds every tier up to the limit, children before parents.
//
// Tiers whose children are all built are ready. A tier of at least
// options.shared_tier_indices indices is solved alone with every thread; smaller ready
// tiers are solved side by side, one thread each, as many at once as there are threads
// and as the memory budget allows (each tier's need is estimated before it starts: its
// working cells plus its child tiers' decompressed blocks). Larger ready tiers go
// first. The files do not depend on the schedule (a tier's solve gives the same file for
// any thread count); on_tier is called as tiers finish, one call at a time, and the
// reports come back in the order of tiers_in_order.
template <Game G>
std::vector<TierReport> build(const G& game, db::Database& database, int limit, const BuildOptions& options,
                              const std::function<void(const TierReport&)>& on_tier = {}) {
  const std::vector<Tier> order = tiers_in_order(game, limit);
  const int threads = std::max(options.solve.threads, 1);
  // Files are renamed into place unsynced and synced together at the end: a sync per
  // file would cost more than writing it (docs/BENCHMARKS.md, "Writing during build").
  db::io::SyncBatch sync;
  std::map<Tier, std::size_t> position;
  std::map<Tier, int> waiting;  // children not yet built
  std::map<Tier, std::vector<Tier>> parents;
  std::map<Tier, int> readers;  // tiers still to read it (itself included)
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  for (const Tier tier : order) {
    const std::vector<Tier> children = game.children(tier);
    waiting[tier] = static_cast<int>(children.size());
    readers[tier] += 1;
    for (const Tier child : children) {
      parents[child].push_back(tier);
      readers[child] += 1;
    }
  }
  std::vector<Tier> ready;
  for (const Tier tier : order) {
    if (waiting[tier] == 0) ready.push_back(tier);
  }

  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::optional<TierReport>> reports(order.size());
  std::exception_ptr error;
  int running = 0;             // tiers being built
  bool exclusive = false;      // a tier with every thread is being built
  std::uint64_t reserved = 0;  // memory of the tiers being built
  std::size_t finished = 0;
  std::vector<std::thread> workers;

  auto need = [&](Tier tier, bool lists) {
    return children_bytes(game, database, tier) + TierSolver<G>::working_bytes(game, tier, lists);
  };
  auto shared = [&](Tier tier) { return threads > 1 && game.size(tier) >= options.shared_tier_indices; };

  std::unique_lock lock(mutex);
  while (finished < order.size() && !error) {
    // Largest ready tier first.
    std::sort(ready.begin(), ready.end(), [&](Tier a, Tier b) {
      const Index sa = game.size(a);
      const Index sb = game.size(b);
      return sa != sb ? sa > sb : position[a] < position[b];
    });
    bool started = false;
    try {
      for (auto it = ready.begin(); it != ready.end() && !exclusive;) {
        const Tier tier = *it;
        const bool alone = shared(tier);
        if (alone && running > 0) break;  // it waits for every thread
        if (running >= threads) break;
        require_memory(game, database, tier, options);
        // Alone, a tier may use the whole budget; side by side, what the others left.
        const std::uint64_t estimate = std::min(need(tier, true), options.memory_bytes);
        if (running > 0 && reserved + estimate > options.memory_bytes) break;
        it = ready.erase(it);
        ++running;
        reserved += estimate;
        exclusive = alone;
        started = true;
        workers.emplace_back([&, tier, alone, estimate] {
          std::optional<TierReport> report;
          std::exception_ptr failure;
          try {
            report =
                build_tier(game, database, tier, options, alone ? threads : 1, options.solve.quiet || !alone);
          } catch (...) {
            failure = std::current_exception();
          }
          const std::lock_guard guard(mutex);
          --running;
          reserved -= estimate;
          if (alone) exclusive = false;
          ++finished;
          if (failure) {
            if (!error) error = failure;
          } else {
            // Tiers no later tier reads: their readers and decompressed blocks can go.
            std::vector<Tier> done = game.children(tier);
            done.push_back(tier);
            for (const Tier t : done) {
              if (--readers[t] == 0) database.forget(t);
            }
            for (const Tier parent : parents[tier]) {
              if (--waiting[parent] == 0) ready.push_back(parent);
            }
            if (on_tier) {
              try {
                on_tier(*report);
              } catch (...) {
                if (!error) error = std::current_exception();
              }
            }
            reports[position[tier]] = std::move(report);
          }
          changed.notify_all();
        });
      }
    } catch (...) {
      // Opening a child tier failed (a damaged file): nothing new starts.
      error = std::current_exception();
    }
    if (error) break;
    if (!started || running > 0) changed.wait(lock);
  }
  // Let the tiers being built finish (after an error, nothing new starts).
  changed.wait(lock, [&] { return running == 0; });
  lock.unlock();
  for (std::thread& worker : workers) worker.join();
  if (error) std::rethrow_exception(error);
  sync.finish();
  std::vector<TierReport> result;
  for (auto& report : reports) result.push_back(std::move(*report));
  return result;
}

}  // namespace gs::retro
