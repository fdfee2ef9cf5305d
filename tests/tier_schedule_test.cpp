// The one scheduler of tier builds: the ready queue of the tier graph
// (retro/tier_schedule.h) that retro::build and the MPI manager share, the fixed pool of
// threads that retro::build runs ready tiers on (core/thread_pool.h, and parallel_for
// on it), and the build's threads counted from inside its solves.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/parallel.h"
#include "core/thread_pool.h"
#include "db/database.h"
#include "retro/build.h"
#include "retro/tier_schedule.h"
#include "tests/retro_util.h"
#include "tests/test_util.h"
#include "tests/tier_dag_game.h"

namespace gs {
namespace {

using retro::TierNode;
using retro::TierSchedule;
using test::TempDir;

TierNode node(Tier tier, std::uint64_t size, std::vector<Tier> children) {
  return {tier, fmt::format("T{}", tier), size, std::move(children)};
}

// Takes every tier, finishing the started ones in an order `pick` chooses among them,
// and returns the tiers in the order they were taken; checks on the way that a tier is
// taken once, after all its children finished.
template <class Pick>
std::vector<Tier> run_all(TierSchedule& schedule, int at_once, Pick pick) {
  std::vector<Tier> taken;
  std::set<Tier> finished;
  std::vector<std::size_t> running;
  while (!schedule.finished()) {
    while (static_cast<int>(running.size()) < at_once) {
      const std::optional<std::size_t> job = schedule.take();
      if (!job) break;
      const TierNode& n = schedule.node(*job);
      for (const Tier child : n.children)
        EXPECT_TRUE(finished.contains(child)) << n.name << " before " << child;
      EXPECT_EQ(std::count(taken.begin(), taken.end(), n.tier), 0) << n.name << " taken twice";
      taken.push_back(n.tier);
      running.push_back(*job);
    }
    if (running.empty()) {
      ADD_FAILURE() << "nothing ready or running, " << schedule.remaining() << " tiers left";
      break;
    }
    const std::size_t which = pick(running.size());
    const std::size_t job = running[which];
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(which));
    EXPECT_EQ(schedule.state(job), TierSchedule::State::kRunning);
    schedule.finish(job);
    finished.insert(schedule.node(job).tier);
    EXPECT_EQ(schedule.running(), running.size());
  }
  EXPECT_EQ(taken.size(), schedule.size());
  return taken;
}

TEST(TierSchedule, ChainOneAtATime) {
  // 3 reads 2 reads 1 reads 0, given parents first: one ready tier at a time.
  TierSchedule schedule({node(3, 10, {2}), node(2, 10, {1}), node(1, 10, {0}), node(0, 10, {})});
  EXPECT_EQ(schedule.ready().size(), 1U);
  std::vector<Tier> order;
  while (const std::optional<std::size_t> job = schedule.take()) {
    EXPECT_FALSE(schedule.next()) << "two tiers of a chain ready at once";
    order.push_back(schedule.node(*job).tier);
    EXPECT_EQ(schedule.remaining(), 4 - order.size() + 1);
    schedule.finish(*job);
  }
  EXPECT_EQ(order, (std::vector<Tier>{0, 1, 2, 3}));
  EXPECT_TRUE(schedule.finished());
  EXPECT_FALSE(schedule.failed());
}

TEST(TierSchedule, DiamondWaitsForBothSides) {
  // D reads B and C, which read A. B and C are ready together, the larger first; D only
  // when both are done.
  TierSchedule schedule({node(0, 5, {}), node(1, 7, {0}), node(2, 9, {0}), node(3, 1, {1, 2})});
  const std::size_t a = *schedule.take();
  EXPECT_EQ(schedule.node(a).tier, 0U);
  EXPECT_FALSE(schedule.next());
  schedule.finish(a);
  EXPECT_EQ(schedule.ready(), (std::vector<std::size_t>{2, 1}));  // C (9) before B (7)
  const std::size_t c = *schedule.take();
  const std::size_t b = *schedule.take();
  EXPECT_EQ(schedule.node(c).tier, 2U);
  EXPECT_EQ(schedule.node(b).tier, 1U);
  EXPECT_EQ(schedule.running(), 2U);
  schedule.finish(b);
  EXPECT_FALSE(schedule.next()) << "D is ready with C still running";
  EXPECT_EQ(schedule.state(3), TierSchedule::State::kWaiting);
  schedule.finish(c);
  EXPECT_EQ(schedule.next(), std::optional<std::size_t>(3));
  schedule.finish(*schedule.take());
  EXPECT_TRUE(schedule.finished());
}

TEST(TierSchedule, LargestFirstThenTheOrderGiven) {
  TierSchedule schedule(
      {node(10, 3, {}), node(11, 8, {}), node(12, 3, {}), node(13, 8, {}), node(14, 1, {})});
  std::vector<Tier> order;
  while (const std::optional<std::size_t> job = schedule.take()) order.push_back(schedule.node(*job).tier);
  EXPECT_EQ(order, (std::vector<Tier>{11, 13, 10, 12, 14}));
  EXPECT_EQ(schedule.running(), 5U);
}

TEST(TierSchedule, AFailureStopsHandingOut) {
  // Two leaves and a parent of each: the first leaf fails while the second runs.
  TierSchedule schedule({node(0, 5, {}), node(1, 5, {}), node(2, 1, {0}), node(3, 1, {1})});
  const std::size_t first = *schedule.take();
  const std::size_t second = *schedule.take();
  schedule.fail_tier(first, std::make_exception_ptr(Error("first failure")));
  EXPECT_TRUE(schedule.failed());
  EXPECT_EQ(schedule.state(first), TierSchedule::State::kFailed);
  EXPECT_EQ(schedule.running(), 1U);
  // The tier running goes on; its parent becomes ready but is not handed out.
  schedule.finish(second);
  EXPECT_EQ(schedule.ready().size(), 1U);
  EXPECT_FALSE(schedule.next());
  EXPECT_FALSE(schedule.take());
  EXPECT_EQ(schedule.state(2), TierSchedule::State::kWaiting);  // the failed tier's parent
  EXPECT_FALSE(schedule.finished());
  // The first error is kept.
  schedule.fail_build(std::make_exception_ptr(Error("second failure")));
  try {
    schedule.rethrow_if_failed();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "first failure");
  }
}

TEST(TierSchedule, PutBackAndFinishingAReadyTier) {
  // The MPI manager's cases: a tier whose rank was given up goes back on the queue, and a
  // given-up rank may still finish it before it is handed out again.
  TierSchedule schedule({node(0, 5, {}), node(1, 2, {0})});
  const std::size_t job = *schedule.take();
  schedule.put_back(job);
  EXPECT_EQ(schedule.running(), 0U);
  EXPECT_EQ(schedule.next(), std::optional<std::size_t>(job));
  schedule.finish(job);  // ready, not started: finished all the same
  EXPECT_TRUE(schedule.done(job));
  EXPECT_EQ(schedule.next(), std::optional<std::size_t>(1));
  EXPECT_THROW(schedule.finish(job), std::logic_error);
  EXPECT_THROW(schedule.put_back(1), std::logic_error);
  EXPECT_THROW(schedule.start(job), std::logic_error);
}

TEST(TierSchedule, BadGraphsAreErrors) {
  auto message = [](const std::vector<TierNode>& nodes) {
    try {
      TierSchedule schedule(nodes);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message({node(0, 1, {}), node(1, 1, {7})}), "tier T1 reads a tier outside the build");
  EXPECT_EQ(message({node(0, 1, {}), node(0, 1, {})}), "tier T0 is in the build twice");
  EXPECT_EQ(message({node(0, 1, {}), node(1, 1, {0, 2}), node(2, 1, {1})}),
            "the tier graph has a cycle through T1");
  EXPECT_EQ(message({}), "");
  EXPECT_TRUE(TierSchedule(std::vector<TierNode>{}).finished());
}

TEST(TierSchedule, RandomGraphsInEveryOrderOfCompletion) {
  // Random DAGs (a tier reads up to three earlier ones), random sizes, 1 to 4 tiers at
  // once finished in a random order: every tier once, after its children; the same
  // completions give the same order.
  for (int seed = 0; seed < 20; ++seed) {
    std::mt19937_64 random(static_cast<std::uint64_t>(seed));
    const int count = 1 + static_cast<int>(random() % 200);
    std::vector<TierNode> nodes;
    for (int t = 0; t < count; ++t) {
      std::set<Tier> children;
      for (int c = static_cast<int>(random() % 4); c > 0 && t > 0; --c) {
        children.insert(static_cast<Tier>(random() % static_cast<std::uint64_t>(t)) * 3);
      }
      nodes.push_back(node(static_cast<Tier>(t) * 3, random() % 50, {children.begin(), children.end()}));
    }
    std::shuffle(nodes.begin(), nodes.end(), random);
    const int at_once = 1 + static_cast<int>(random() % 4);
    const std::uint64_t picks = random();
    auto order = [&] {
      TierSchedule schedule(nodes);
      std::mt19937_64 pick(picks);
      return run_all(schedule, at_once, [&](std::size_t n) { return static_cast<std::size_t>(pick() % n); });
    };
    const std::vector<Tier> first = order();
    EXPECT_EQ(first.size(), nodes.size()) << "seed " << seed;
    EXPECT_EQ(order(), first) << "seed " << seed;
  }
}

// ---------------------------------------------------------------------------------
// The pool.

TEST(ThreadPool, RunsEveryTaskOnItsThreads) {
  const pid_t caller = ::gettid();
  std::atomic<int> ran{0};
  std::mutex mutex;
  std::set<pid_t> threads;
  {
    ThreadPool pool(3);
    EXPECT_EQ(pool.size(), 3);
    EXPECT_EQ(ThreadPool::current(), nullptr);
    for (int i = 0; i < 100; ++i) {
      pool.submit([&] {
        EXPECT_EQ(ThreadPool::current(), &pool);
        {
          const std::lock_guard lock(mutex);
          threads.insert(::gettid());
        }
        ++ran;
      });
    }
  }  // the queued tasks run before the threads end
  EXPECT_EQ(ran.load(), 100);
  EXPECT_LE(threads.size(), 3U);
  EXPECT_FALSE(threads.contains(caller));
}

TEST(ThreadPool, FreeThreadsJoinATeam) {
  // Every helper comes (the pool's other threads are free): each call waits for all, so
  // that no thread makes two.
  std::mutex mutex;
  std::condition_variable all_there;
  std::map<int, pid_t> seen;
  ThreadPool pool(4);  // ends first: its threads use what is above
  pool.submit([&] {
    pool.team(3, [&](int t) {
      std::unique_lock lock(mutex);
      seen.emplace(t, ::gettid());
      all_there.notify_all();
      all_there.wait_for(lock, std::chrono::seconds(30), [&] { return seen.size() == 4; });
    });
  });
  pool.submit([] {});  // queued: taken before the team's offers, and quickly done
  std::unique_lock lock(mutex);
  ASSERT_TRUE(all_there.wait_for(lock, std::chrono::seconds(30), [&] { return seen.size() == 4; }));
  std::set<pid_t> threads;
  for (const auto& [t, tid] : seen) threads.insert(tid);
  EXPECT_EQ(threads.size(), 4U) << "a team's calls on one thread";
}

// One of a pool's threads held by a task until `release` is set (under `mutex`, with
// `changed` notified): a thread kept busy while a test queues work for the others.
struct HeldThread {
  std::mutex mutex;
  std::condition_variable changed;
  bool held = false;
  bool release = false;
  // Returns once the thread is held.
  void hold(ThreadPool& pool) {
    pool.submit([this] {
      std::unique_lock lock(mutex);
      held = true;
      changed.notify_all();
      changed.wait(lock, [this] { return release; });
    });
    std::unique_lock lock(mutex);
    changed.wait(lock, [this] { return held; });
  }
};

TEST(ThreadPool, QueuedTasksGoBeforeOffers) {
  // Of two threads, one is held while the other's team offers a helper's place and a
  // task is queued; released, the held thread runs the task first, then joins the team.
  HeldThread h;
  std::vector<std::string> order;
  ThreadPool pool(2);
  h.hold(pool);
  pool.submit([&] {
    pool.team(1, [&](int slot) {
      std::unique_lock lock(h.mutex);
      if (slot == 1) {
        order.emplace_back("helper");
        h.changed.notify_all();
        return;
      }
      pool.submit([&] {
        const std::lock_guard task_lock(h.mutex);
        order.emplace_back("task");
      });
      h.release = true;
      h.changed.notify_all();
      h.changed.wait_for(lock, std::chrono::seconds(30), [&] { return order.size() == 2; });
    });
  });
  std::unique_lock lock(h.mutex);
  ASSERT_TRUE(h.changed.wait_for(lock, std::chrono::seconds(30), [&] { return order.size() == 2; }));
  EXPECT_EQ(order, (std::vector<std::string>{"task", "helper"}));
}

TEST(ThreadPool, OffersNoThreadTakesAreWithdrawn) {
  // One thread of two is held by a task: a team on the other does all its work alone
  // and returns without waiting for the held thread.
  HeldThread h;
  std::atomic<int> chunks{0};
  std::set<int> callers;
  std::atomic<bool> team_done{false};
  ThreadPool pool(2);
  h.hold(pool);
  pool.submit([&] {
    parallel_for(0, 1000, 2, 10, [&](std::uint64_t, std::uint64_t, int thread) {
      ++chunks;
      const std::lock_guard lock(h.mutex);
      callers.insert(thread);
    });
    team_done = true;
    const std::lock_guard lock(h.mutex);
    h.release = true;
    h.changed.notify_all();
  });
  {
    std::unique_lock lock(h.mutex);
    ASSERT_TRUE(h.changed.wait_for(lock, std::chrono::seconds(30), [&] { return h.release; }));
  }
  EXPECT_TRUE(team_done.load());
  EXPECT_EQ(chunks.load(), 100);
  EXPECT_EQ(callers, std::set<int>{0});
}

TEST(ThreadPool, ParallelForOnAPoolStartsNoThread) {
  // A loop asking for every thread of the pool runs on the pool's threads only, and
  // an exception in any chunk comes back.
  constexpr int kThreads = 3;
  std::mutex mutex;
  std::set<pid_t> loop_threads;
  std::atomic<int> most_alive{0};
  std::atomic<std::uint64_t> sum{0};
  std::condition_variable done;
  bool finished = false;
  bool threw = false;
  ThreadPool pool(kThreads);
  const std::set<pid_t> before = test::thread_ids();
  pool.submit([&] {
    parallel_for(0, 100000, kThreads, 100, [&](std::uint64_t begin, std::uint64_t end, int thread) {
      EXPECT_LT(thread, kThreads);
      for (std::uint64_t i = begin; i < end; ++i) sum += i;
      if (begin % 10000 == 0) {
        const int alive = test::threads_alive();
        int most = most_alive.load();
        while (alive > most && !most_alive.compare_exchange_weak(most, alive)) {
        }
      }
      const std::lock_guard lock(mutex);
      loop_threads.insert(::gettid());
    });
    try {
      parallel_for(0, 1000, kThreads, 1, [&](std::uint64_t begin, std::uint64_t, int) {
        if (begin == 500) fail("chunk {}", begin);
      });
    } catch (const Error& e) {
      threw = std::string(e.what()) == "chunk 500";
    }
    const std::lock_guard lock(mutex);
    finished = true;
    done.notify_all();
  });
  std::unique_lock lock(mutex);
  ASSERT_TRUE(done.wait_for(lock, std::chrono::seconds(60), [&] { return finished; }));
  EXPECT_EQ(sum.load(), std::uint64_t{100000} * 99999 / 2);
  EXPECT_TRUE(threw);
  EXPECT_LE(most_alive.load(), static_cast<int>(before.size()));
  EXPECT_LE(loop_threads.size(), static_cast<std::size_t>(kThreads));
  for (const pid_t tid : loop_threads) EXPECT_TRUE(before.contains(tid)) << "a thread started for the loop";
}

// ---------------------------------------------------------------------------------
// The build's threads, counted from inside its solves.

struct BuildCount {
  int before = 0;      // threads alive before the build (the caller's among them)
  int most_alive = 0;  // during the solves
  int after = 0;       // after the build returned
  std::set<pid_t> solvers;
  std::size_t reports = 0;
  std::size_t callbacks = 0;
};

BuildCount count_build(const test::TierDagGame& game, int tiers, int threads, Index helped_tier_indices) {
  TempDir dir;
  db::Database database(db::Location::of(game, dir.path()));
  retro::BuildOptions options = test::build_options(threads);
  options.helped_tier_indices = helped_tier_indices;
  BuildCount count;
  // ThreadSanitizer starts a thread of its own with the process's second thread.
  std::thread([] {}).join();
  count.before = test::threads_alive();
  std::set<Tier> seen;
  const std::vector<retro::TierReport> reports =
      retro::build(game, database, tiers, options, [&](const retro::TierReport& report) {
        EXPECT_TRUE(seen.insert(report.tier).second) << report.name;
        EXPECT_TRUE(report.built) << report.name;
        ++count.callbacks;
        game.watch().sample();
      });
  count.after = test::threads_alive();
  count.most_alive = game.watch().most_alive.load();
  count.solvers = game.watch().solvers;
  count.reports = reports.size();
  const std::vector<Tier> order = retro::tiers_in_order(game, tiers);
  for (std::size_t i = 0; i < reports.size() && i < order.size(); ++i) EXPECT_EQ(reports[i].tier, order[i]);
  return count;
}

TEST(BuildThreads, ManySmallTiersSideBySideOnTThreads) {
  // 96 tiers of a few thousand indices, 8 ready at a time, solved side by side on 3
  // threads: never more than 3 threads besides those there before (the caller's), the
  // same 3 for every tier, and none left when the build returns.
  constexpr int kTiers = 96;
  constexpr int kThreads = 3;
  const test::TierDagGame game(8, 2000);
  const BuildCount count = count_build(game, kTiers, kThreads, ~Index{0});
  EXPECT_EQ(count.reports, static_cast<std::size_t>(kTiers));
  EXPECT_EQ(count.callbacks, static_cast<std::size_t>(kTiers));
  EXPECT_LE(count.most_alive, count.before + kThreads);
  EXPECT_LE(count.solvers.size(), static_cast<std::size_t>(kThreads));
  EXPECT_FALSE(count.solvers.contains(::gettid())) << "a tier solved on the caller's thread";
  EXPECT_EQ(count.after, count.before);
}

TEST(BuildThreads, HelpedTiersBorrowThePool) {
  // Every tier helped by the threads with no tier to start, each tier three chunks of
  // its parallel loops: the loops run on the pool, and no thread is started for them.
  constexpr int kTiers = 12;
  constexpr int kThreads = 3;
  const test::TierDagGame game(3, 40000);
  const BuildCount count = count_build(game, kTiers, kThreads, 0);
  EXPECT_EQ(count.reports, static_cast<std::size_t>(kTiers));
  EXPECT_LE(count.most_alive, count.before + kThreads);
  EXPECT_LE(count.solvers.size(), static_cast<std::size_t>(kThreads));
  EXPECT_FALSE(count.solvers.contains(::gettid()));
  EXPECT_EQ(count.after, count.before);
}

TEST(BuildThreads, TheFilesDoNotDependOnTheSchedule) {
  // The test game's files: one thread, side by side on three (no help), helped on three.
  const test::TierDagGame game(4, 20000);
  std::map<std::string, std::string> reference;
  for (const auto& [threads, helped] : std::vector<std::pair<int, Index>>{{1, 0}, {3, ~Index{0}}, {3, 0}}) {
    TempDir dir;
    db::Database database(db::Location::of(game, dir.path()));
    retro::BuildOptions options = test::build_options(threads);
    options.helped_tier_indices = helped;
    retro::build(game, database, 20, options);
    const auto files = test::snapshot(dir.path());
    EXPECT_EQ(files.size(), 20U);
    if (reference.empty()) {
      reference = files;
    } else {
      EXPECT_EQ(test::compare_snapshots(reference, files), "") << threads << " threads, helped " << helped;
    }
  }
}

}  // namespace
}  // namespace gs
