// Random probes per second through db::Prober (docs/BENCHMARKS.md, "Compressed
// databases"), over every tier of a built data directory, at random non-hole indices
// weighted by tier size:
//
//   Warm    the block cache holds every block (budget above the decompressed size,
//           warmed before timing): a probe is a position-cache look-up, an epoch pin
//           (no lock), a slot look-up and a value read
//   Cold    no block cache and no position cache: every probe checks and decompresses
//           its block from the mapped file (the OS page cache is warm: the files were
//           read just before)
//
// "Index" probes by tier and index (the stored code: a derivable don't-care reads its
// filler); "Position" probes by position, ranking included, and derives don't-cares
// from their moves (checkers' captures: one probe per capture, recursively). Each runs
// on one thread and on every core (std::thread::hardware_concurrency()).
//
//   GAMESOLVER_BENCH_DATA=DIR GAMESOLVER_BENCH_PIECES=4 [GAMESOLVER_BENCH_GAME=jungle|morris|checkers]
//   [GAMESOLVER_BENCH_VARIANT=V] <build>/bench/bench_probe
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "db/prober.h"
#include "games/checkers/checkers.h"
#include "games/jungle/jungle.h"
#include "games/morris/morris.h"
#include "retro/build.h"

namespace {

using gs::Index;
using gs::Tier;

constexpr std::size_t kSamples = 1 << 20;

std::string environment(const char* name, const char* otherwise) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : otherwise;
}

template <class G>
G game_of_environment() {
  const std::string variant = environment("GAMESOLVER_BENCH_VARIANT", "");
  return variant.empty() ? G() : G::from_options(variant, {});
}

template <class G>
struct Setup {
  G game = game_of_environment<G>();
  gs::db::Location location;
  std::vector<gs::Ranked> indices;
  std::vector<typename G::Position> positions;
  std::unique_ptr<gs::db::Prober> warm;
  std::unique_ptr<gs::db::Prober> cold;

  Setup() {
    const int pieces = std::atoi(environment("GAMESOLVER_BENCH_PIECES", "4").c_str());
    location = gs::db::Location::of(game, environment("GAMESOLVER_BENCH_DATA", "data"));
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
    for (std::size_t i = 0; i < indices.size(); ++i) {
      const gs::Ranked& r = indices[i];
      if (!warm->stored_code(game, r.tier, r.index) || !warm->probe(game, positions[i])) {
        std::fprintf(stderr, "bench_probe: tier %s is not built in %s\n", game.tier_name(r.tier).c_str(),
                     location.directory().c_str());
        std::exit(1);
      }
      (void)cold->stored_code(game, r.tier, r.index);
    }
  }
};

template <class G>
Setup<G>& setup() {
  static Setup<G> instance;
  return instance;
}

template <class G>
void probe_indices(benchmark::State& state, bool warm) {
  Setup<G>& s = setup<G>();
  gs::db::Prober& prober = warm ? *s.warm : *s.cold;
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 7919 % kSamples;
  for (auto _ : state) {
    const gs::Ranked& r = s.indices[i];
    benchmark::DoNotOptimize(prober.stored_code(s.game, r.tier, r.index));
    i = i + 1 == kSamples ? 0 : i + 1;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

template <class G>
void probe_positions(benchmark::State& state, bool warm) {
  Setup<G>& s = setup<G>();
  gs::db::Prober& prober = warm ? *s.warm : *s.cold;
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 7919 % kSamples;
  for (auto _ : state) {
    benchmark::DoNotOptimize(prober.probe(s.game, s.positions[i]));
    i = i + 1 == kSamples ? 0 : i + 1;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

template <class G>
void register_all() {
  const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  const std::string name(G::kName);
  for (const bool warm : {true, false}) {
    const std::string cache = warm ? "Warm" : "Cold";
    benchmark::RegisterBenchmark(("BM_" + cache + "Index/" + name).c_str(),
                                 [warm](benchmark::State& state) { probe_indices<G>(state, warm); })
        ->Threads(1)
        ->Threads(cores)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("BM_" + cache + "Position/" + name).c_str(),
                                 [warm](benchmark::State& state) { probe_positions<G>(state, warm); })
        ->Threads(1)
        ->Threads(cores)
        ->UseRealTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string game = environment("GAMESOLVER_BENCH_GAME", "jungle");
  if (game == "jungle") {
    register_all<gs::jungle::Jungle>();
  } else if (game == "morris") {
    register_all<gs::morris::Morris>();
  } else if (game == "checkers") {
    register_all<gs::checkers::Checkers>();
  } else {
    std::fprintf(stderr, "bench_probe: unknown game %s\n", game.c_str());
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
