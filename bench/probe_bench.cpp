// Random probes per second through db::Prober (docs/BENCHMARKS.md, "Compressed
// databases"), over every tier of a built data directory, at random non-hole indices
// weighted by tier size:
//
//   Warm    the block cache holds every block (budget above the decompressed size,
//           warmed before timing): a probe is a position-cache look-up, a shard lock,
//           a hash look-up and a value read
//   Cold    no block cache: every probe checks and decompresses its block from the
//           mapped file (the OS page cache is warm: the files were read just before)
//
// "Index" probes by tier and index; "Position" probes by position (ranking included).
// Each runs on one thread and on every core.
//
//   GAMESOLVER_BENCH_DATA=DIR GAMESOLVER_BENCH_PIECES=4 <build>/bench/bench_probe
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "db/prober.h"
#include "games/jungle/jungle.h"
#include "retro/build.h"

namespace {

using gs::Index;
using gs::Tier;
using gs::jungle::Jungle;

constexpr std::size_t kSamples = 1 << 20;

struct Setup {
  Jungle game;
  gs::db::Location location;
  std::vector<gs::Ranked> indices;
  std::vector<Jungle::Position> positions;
  std::unique_ptr<gs::db::Prober> warm;
  std::unique_ptr<gs::db::Prober> cold;

  Setup() {
    const char* data = std::getenv("GAMESOLVER_BENCH_DATA");
    const char* pieces_text = std::getenv("GAMESOLVER_BENCH_PIECES");
    const int pieces = pieces_text != nullptr ? std::atoi(pieces_text) : 4;
    location = gs::db::Location::of(game, data != nullptr ? data : "data");
    const std::vector<Tier> tiers = gs::retro::tiers_in_order(game, pieces);
    std::vector<Index> sizes;
    for (const Tier tier : tiers) sizes.push_back(game.size(tier));
    std::discrete_distribution<std::size_t> pick_tier(sizes.begin(), sizes.end());
    std::mt19937_64 random(42);
    while (indices.size() < kSamples) {
      const Tier tier = tiers[pick_tier(random)];
      const Index index = random() % game.size(tier);
      const auto pos = game.unrank(tier, index);
      if (!pos) continue;
      indices.push_back({tier, index});
      positions.push_back(*pos);
    }
    gs::db::ProberOptions options;
    options.block_cache_bytes = std::uint64_t{4} << 30;
    warm = std::make_unique<gs::db::Prober>(location, options);
    options.block_cache_bytes = 0;
    options.position_cache_entries = 0;
    cold = std::make_unique<gs::db::Prober>(location, options);
    for (const gs::Ranked& r : indices) {
      if (!warm->stored_code(game, r.tier, r.index)) {
        std::fprintf(stderr, "bench_probe: tier %s is not built in %s\n", game.tier_name(r.tier).c_str(),
                     location.directory().c_str());
        std::exit(1);
      }
      (void)cold->stored_code(game, r.tier, r.index);
    }
  }
};

Setup& setup() {
  static Setup instance;
  return instance;
}

void probe_indices(benchmark::State& state, gs::db::Prober& prober) {
  Setup& s = setup();
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 7919 % kSamples;
  for (auto _ : state) {
    const gs::Ranked& r = s.indices[i];
    benchmark::DoNotOptimize(prober.stored_code(s.game, r.tier, r.index));
    i = i + 1 == kSamples ? 0 : i + 1;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void probe_positions(benchmark::State& state, gs::db::Prober& prober) {
  Setup& s = setup();
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 7919 % kSamples;
  for (auto _ : state) {
    benchmark::DoNotOptimize(prober.probe(s.game, s.positions[i]));
    i = i + 1 == kSamples ? 0 : i + 1;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void BM_WarmIndex(benchmark::State& state) { probe_indices(state, *setup().warm); }
void BM_WarmPosition(benchmark::State& state) { probe_positions(state, *setup().warm); }
void BM_ColdIndex(benchmark::State& state) { probe_indices(state, *setup().cold); }
void BM_ColdPosition(benchmark::State& state) { probe_positions(state, *setup().cold); }

const int kCores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));

BENCHMARK(BM_WarmIndex)->Threads(1)->Threads(kCores)->UseRealTime();
BENCHMARK(BM_WarmPosition)->Threads(1)->Threads(kCores)->UseRealTime();
BENCHMARK(BM_ColdIndex)->Threads(1)->Threads(kCores)->UseRealTime();
BENCHMARK(BM_ColdPosition)->Threads(1)->Threads(kCores)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
