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
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/bytes.h"
#include "core/error.h"
#include "core/game.h"
#include "core/thread_pool.h"
#include "core/tier_scope.h"
#include "db/database.h"
#include "db/file_io.h"
#include "retro/tier_schedule.h"
#include "retro/tier_solver.h"

namespace gs::retro {

struct BuildOptions {
  SolveOptions solve;
  std::uint64_t memory_bytes = std::uint64_t{8} << 30;
  // Ready tiers are solved side by side, a thread each, and threads with no tier to
  // start help the parallel loops of the tiers being built that have at least this many
  // indices (a tier's loops share it out in chunks of 16 K indices, so a smaller tier
  // has little to share). A thread of its own costs a tier least (no contended cells, no
  // wait at each level), so help goes only where no ready tier waits: many ready tiers
  // keep every core busy without it, and the few that are left (a large tier, or the
  // chain of tiers on the build's critical path) get every thread. Measurements:
  // docs/BENCHMARKS.md. ~0: no tier is helped.
  Index helped_tier_indices = Index{1} << 15;
  // Tiers with at least this many indices show their progress (one at a time).
  Index progress_tier_indices = Index{1} << 24;
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
  // Built over a file that failed its checks (db::check_tier_file): what was wrong with
  // it; empty when there was no file.
  std::string rebuilt_because;
  double seconds = 0;
  double write_seconds = 0;  // of seconds: writing the file
  // The memory the build counted when the tier started (the tiers being built, their
  // child tiers, and the other open child tiers kept for later tiers): within the budget.
  std::uint64_t counted_bytes = 0;
  db::TierHeader header;
};

// The tiers a tier's build reads: itself, its children, and where positions are derived
// from their moves (HasDerivable), the children's children, which a child's blocks read.
template <Game G>
std::vector<Tier> tiers_read(const G& game, Tier tier) {
  std::vector<Tier> read{tier};
  for (const Tier child : game.children(tier)) {
    read.push_back(child);
    if constexpr (HasDerivable<G>) {
      for (const Tier grandchild : game.children(child)) read.push_back(grandchild);
    }
  }
  return read;
}

// The tiers a scope starts from: the game's tiers up to its piece count, the tier of the
// start position, or the named tiers (a name the game does not know fails).
template <Game G>
std::vector<Tier> scope_roots(const G& game, const TierScope& scope) {
  if (!scope.named.empty()) {
    std::vector<Tier> roots;
    for (const std::string& name : scope.named) roots.push_back(game.parse_tier(name));
    return roots;
  }
  if (scope.from_start) return {game.rank(game.start()).tier};
  return game.tiers(scope.pieces);
}

// The tiers of a scope and all tiers they depend on, each after its children.
template <Game G>
std::vector<Tier> tiers_in_order(const G& game, const TierScope& scope) {
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
  for (const Tier tier : scope_roots(game, scope)) visit(tier);
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

// The memory building a tier needs beside its child tiers: the solver's working cells
// (with level lists or not), and while the cells are written, the writer's own
// (db::write_tier_bytes) on `threads` threads.
template <Game G>
std::uint64_t tier_bytes(const G& game, Tier tier, bool level_lists, const BuildOptions& options,
                         int threads) {
  db::WriteOptions write = options.write;
  write.threads = threads;
  return TierSolver<G>::working_bytes(game, tier, level_lists) + db::write_tier_bytes(game.size(tier), write);
}

// Throws when a tier cannot be built within the memory budget even without level lists.
template <Game G>
void require_memory(const G& game, db::Database& database, Tier tier, const BuildOptions& options,
                    int threads) {
  const std::uint64_t minimum =
      children_bytes(game, database, tier) + tier_bytes(game, tier, false, options, threads);
  if (minimum > options.memory_bytes) {
    fail(
        "tier {} needs {} of memory (working cells, writing and child tiers), over the budget of {} "
        "(--memory)",
        game.tier_name(tier), bytes_text(minimum), bytes_text(options.memory_bytes));
  }
}

// Builds one tier (or finds its file complete), with `threads` threads. A file that is
// there but fails its checks is built again, and the report says why.
template <Game G>
TierReport build_tier(const G& game, db::Database& database, Tier tier, const BuildOptions& options,
                      int threads, bool quiet) {
  TierReport report;
  report.tier = tier;
  report.name = game.tier_name(tier);
  const auto& location = database.location();
  const auto path = location.file(report.name);
  db::Expected expected = location.expected(tier, game.size(tier));
  expected.tier_name = [&game](Tier named) { return game.tier_name(named); };  // for the reason
  db::remove_stale_temporaries(path);
  const db::TierFileCheck existing = db::check_tier_file(path, expected);
  if (existing.good()) {
    report.header = database.find(game, tier)->header();
    return report;
  }
  report.rebuilt_because = existing.problem;
  // The working cells, and the child tiers, read at random: their files are mapped and
  // their blocks kept decompressed until the last tier that reads them is built; level
  // lists where the budget allows them.
  const std::uint64_t children = children_bytes(game, database, tier);
  SolveOptions solve = options.solve;
  solve.threads = threads;
  solve.quiet = quiet;
  solve.level_lists = solve.level_lists && TierSolver<G>::lists_fit(game, tier) &&
                      children + tier_bytes(game, tier, true, options, threads) <= options.memory_bytes;
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

// The schedule of the tiers of an order (tiers_in_order): job i is order[i].
template <Game G>
TierSchedule schedule_of(const G& game, const std::vector<Tier>& order) {
  std::vector<TierNode> nodes;
  nodes.reserve(order.size());
  for (const Tier tier : order)
    nodes.push_back({tier, game.tier_name(tier), game.size(tier), game.children(tier)});
  return TierSchedule(std::move(nodes));
}

// Builds every tier of a scope, children before parents.
//
// Tiers whose children are all built are ready (retro/tier_schedule.h). Ready tiers are
// solved side by side, one thread each, as many at once as there are threads and as the
// memory budget allows (each tier's need is estimated before it starts: its working
// cells, the writing of its file and its child tiers' decompressed blocks), larger ready
// tiers first. The tiers
// run on a pool of options.solve.threads threads (core/thread_pool.h), made for the
// build and joined before it returns: a finished tier's thread starts the next ready
// ones, a thread with no tier to start helps the parallel loops of the tiers being
// built (those of at least options.helped_tier_indices indices), and no thread is
// started per tier or per loop, so the threads alive at once are the pool's and the
// caller's (which starts the first tiers, then waits).
// The files do not depend on the schedule (a tier's solve gives the same file for any
// thread count); on_tier is called as tiers finish, one call at a time, on a thread of
// the pool, and the reports come back in the order of tiers_in_order.
template <Game G>
std::vector<TierReport> build(const G& game, db::Database& database, const TierScope& scope,
                              const BuildOptions& options,
                              const std::function<void(const TierReport&)>& on_tier = {}) {
  const std::vector<Tier> order = tiers_in_order(game, scope);
  const int threads = std::max(options.solve.threads, 1);
  // Files are renamed into place unsynced and synced together at the end: a sync per
  // file would cost more than writing it (docs/BENCHMARKS.md, "Writing during build").
  db::io::SyncBatch sync;
  TierSchedule schedule = schedule_of(game, order);
  std::map<Tier, int> readers;  // tiers still to read it (itself included)
  for (std::size_t job = 0; job < order.size(); ++job) {
    readers[order[job]] += 1;
    for (const Tier child : schedule.node(job).children) readers[child] += 1;
  }

  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::optional<TierReport>> reports(order.size());
  std::optional<std::size_t> loud;  // the tier showing its progress
  std::uint64_t reserved = 0;       // memory of the tiers being built
  std::map<Tier, int> in_use;       // tiers the tiers being built read, and how many of them
  std::vector<std::uint64_t> counted(order.size(), 0);

  // Room for a tier that reads `reading`: open child tiers kept for later tiers (their
  // decompressed blocks) count against the budget too, and the largest that nothing being
  // built reads are dropped (to be opened again when a later tier reads them) until the
  // tier fits. Returns the memory then counted: the tiers being built, the new tier's
  // estimate, and the open tiers left.
  auto make_room = [&](const std::vector<Tier>& reading, std::uint64_t estimate) {
    std::vector<std::pair<std::uint64_t, Tier>> idle;
    std::uint64_t held = 0;
    for (const auto& [tier, bytes] : database.open_memory()) {
      if (in_use.contains(tier) || std::find(reading.begin(), reading.end(), tier) != reading.end()) continue;
      idle.emplace_back(bytes, tier);
      held += bytes;
    }
    std::sort(idle.rbegin(), idle.rend());
    for (const auto& [bytes, tier] : idle) {
      if (reserved + estimate + held <= options.memory_bytes) break;
      database.forget(tier);
      held -= bytes;
    }
    return reserved + estimate + held;
  };

  auto helped = [&](Tier tier) { return game.size(tier) >= options.helped_tier_indices; };
  auto tier_threads = [&](Tier tier) { return helped(tier) ? threads : 1; };
  auto need = [&](Tier tier, bool lists) {
    return children_bytes(game, database, tier) + tier_bytes(game, tier, lists, options, tier_threads(tier));
  };

  // Starts ready tiers on the pool, largest first, while they fit beside those being
  // built; called under the lock, by the caller at first and then by each tier's thread
  // as it finishes (which takes the next tier itself where it can).
  std::function<void()> start_ready;
  // Builds a started tier on a thread of the pool, then records it.
  auto build_job = [&](std::size_t job, std::uint64_t estimate, bool show) {
    const Tier tier = order[job];
    std::optional<TierReport> report;
    std::exception_ptr failure;
    try {
      report = build_tier(game, database, tier, options, tier_threads(tier), !show);
    } catch (...) {
      failure = std::current_exception();
    }
    const std::lock_guard guard(mutex);
    reserved -= estimate;
    for (const Tier t : tiers_read(game, tier)) {
      if (--in_use[t] == 0) in_use.erase(t);
    }
    if (report) report->counted_bytes = counted[job];
    if (loud == job) loud.reset();
    if (failure) {
      schedule.fail_tier(job, failure);
    } else {
      // Tiers no later tier reads: their readers and decompressed blocks can go.
      std::vector<Tier> done = schedule.node(job).children;
      done.push_back(tier);
      for (const Tier t : done) {
        if (--readers[t] == 0) database.forget(t);
      }
      schedule.finish(job);
      if (on_tier) {
        try {
          on_tier(*report);
        } catch (...) {
          schedule.fail_build(std::current_exception());
        }
      }
      reports[job] = std::move(report);
    }
    start_ready();
    changed.notify_all();
  };

  {
    ThreadPool pool(threads);
    start_ready = [&] {
      try {
        while (true) {
          const std::optional<std::size_t> job = schedule.next();  // none after a failure
          if (!job) break;
          const Tier tier = order[*job];
          const auto running = static_cast<int>(schedule.running());
          if (running >= threads) break;
          require_memory(game, database, tier, options, tier_threads(tier));
          // Alone, a tier may use the whole budget; side by side, what the others left.
          const std::uint64_t estimate = std::min(need(tier, true), options.memory_bytes);
          if (running > 0 && reserved + estimate > options.memory_bytes) break;
          const std::vector<Tier> reading = tiers_read(game, tier);
          counted[*job] = make_room(reading, estimate);
          // Submitted first, so that nothing has changed should it throw: the tier's
          // thread records the tier only under the lock held here.
          const bool show = !options.solve.quiet && !loud && game.size(tier) >= options.progress_tier_indices;
          pool.submit([&build_job, job = *job, estimate, show] { build_job(job, estimate, show); });
          schedule.start(*job);
          reserved += estimate;
          for (const Tier t : reading) ++in_use[t];
          if (show) loud = *job;
        }
      } catch (...) {
        // Opening a child tier failed (a damaged file): nothing new starts.
        schedule.fail_build(std::current_exception());
      }
    };
    std::unique_lock lock(mutex);
    start_ready();
    // With no tier being built, one starts unless every tier is done or the build failed
    // (the graph is acyclic): when none is, the build is over. After an error the tiers
    // being built finish, and nothing new starts.
    changed.wait(lock, [&] { return schedule.running() == 0; });
  }  // the pool's threads end here
  if (!schedule.finished() && !schedule.failed()) {
    throw std::logic_error("retro::build: tiers left that cannot start");
  }
  schedule.rethrow_if_failed();
  sync.finish();
  std::vector<TierReport> result;
  for (auto& report : reports) result.push_back(std::move(*report));
  return result;
}

}  // namespace gs::retro
