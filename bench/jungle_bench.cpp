// Micro-benchmarks of the Jungle Checkers rules and index: the operations the
// retrograde engine's inner loops are made of (retro/tier_solver.h).
//
//   scan of one index       unrank, moves, play + terminal + rank of every move
//   propagation of one      unrank, unmoves, rank of every predecessor
//   predecessor indices     unrank, unmove_indices (the hook the solver's levels use)
//
// Every benchmark runs over a fixed-seed sample of positions of the 4- or 5-piece
// tiers (the argument is the piece count; the two whole-index benchmarks also run on
// 6 pieces) and reports items per second: indices for rank, unrank and the whole-index
// benchmarks (holes included), positions for moves and unmoves, moves for play+rank.
//
//   <build>/bench/bench_jungle [--benchmark_filter=Rank]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <vector>

#include "games/jungle/jungle.h"

namespace {

using gs::Index;
using gs::Ranked;
using gs::Tier;
using gs::jungle::Jungle;
using gs::jungle::Position;

constexpr std::size_t kSampleSize = 4096;
constexpr std::uint64_t kSeed = 20240601;

struct Sample {
  std::vector<Ranked> indices;      // random tier and index, holes included
  std::vector<Position> positions;  // canonical positions (no holes)
  std::vector<Position> images;     // the same under a random symmetry (any orientation)
  std::size_t moves = 0;            // moves of all positions
  std::size_t unmoves = 0;          // unmoves of all positions
};

[[noreturn]] void broken(const char* what, const Position& pos) {
  std::fprintf(stderr, "bench_jungle: %s: %s\n", what, Jungle::position_text(pos).c_str());
  std::abort();
}

Sample make_sample(const Jungle& game, int pieces) {
  std::vector<Tier> tiers;
  for (const Tier tier : Jungle::tiers(pieces)) {
    if (Jungle::tier_pieces(tier) == pieces) tiers.push_back(tier);
  }
  std::mt19937_64 random(kSeed + static_cast<std::uint64_t>(pieces));
  std::uniform_int_distribution<std::size_t> pick_tier(0, tiers.size() - 1);
  Sample sample;
  while (sample.positions.size() < kSampleSize) {
    const Tier tier = tiers[pick_tier(random)];
    std::uniform_int_distribution<Index> pick_index(0, Jungle::size(tier) - 1);
    const Index index = pick_index(random);
    if (sample.indices.size() < kSampleSize) sample.indices.push_back({tier, index});
    const auto pos = game.unrank(tier, index);
    if (!pos) continue;  // a hole
    if (game.rank(*pos) != Ranked{tier, index}) broken("rank(unrank(i)) != i", *pos);
    Position image = *pos;
    if ((random() & 1U) != 0) image = Jungle::mirrored(image);
    if ((random() & 1U) != 0) image = Jungle::colour_flipped(image);
    if (game.rank(image) != Ranked{tier, index}) broken("a symmetric image ranks elsewhere", image);
    gs::MoveList<Jungle> moves;
    game.moves(*pos, moves);
    gs::UnmoveList<Jungle> unmoves;
    game.unmoves(*pos, unmoves);
    sample.moves += moves.size();
    sample.unmoves += unmoves.size();
    sample.positions.push_back(*pos);
    sample.images.push_back(image);
  }
  return sample;
}

const Sample& sample_of(int pieces) {
  static const Jungle game;
  static std::map<int, Sample> samples;
  auto it = samples.find(pieces);
  if (it == samples.end()) it = samples.emplace(pieces, make_sample(game, pieces)).first;
  return it->second;
}

void report(benchmark::State& state, std::size_t items_per_pass) {
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(items_per_pass));
}

void BM_Rank(benchmark::State& state) {
  const Jungle game;
  const Sample& sample = sample_of(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    for (const Position& pos : sample.images) benchmark::DoNotOptimize(game.rank(pos));
  }
  report(state, sample.images.size());
}

void BM_Unrank(benchmark::State& state) {
  const Jungle game;
  const Sample& sample = sample_of(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    for (const Ranked& r : sample.indices) benchmark::DoNotOptimize(game.unrank(r.tier, r.index));
  }
  report(state, sample.indices.size());
}

void BM_Moves(benchmark::State& state) {
  const Jungle game;
  const Sample& sample = sample_of(static_cast<int>(state.range(0)));
  gs::MoveList<Jungle> moves;
  for (auto _ : state) {
    for (const Position& pos : sample.positions) {
      game.moves(pos, moves);
      benchmark::DoNotOptimize(moves);
    }
  }
  report(state, sample.positions.size());
  state.counters["moves/pos"] =
      static_cast<double>(sample.moves) / static_cast<double>(sample.positions.size());
}

void BM_Unmoves(benchmark::State& state) {
  const Jungle game;
  const Sample& sample = sample_of(static_cast<int>(state.range(0)));
  gs::UnmoveList<Jungle> unmoves;
  for (auto _ : state) {
    for (const Position& pos : sample.positions) {
      game.unmoves(pos, unmoves);
      benchmark::DoNotOptimize(unmoves);
    }
  }
  report(state, sample.positions.size());
  state.counters["unmoves/pos"] =
      static_cast<double>(sample.unmoves) / static_cast<double>(sample.positions.size());
}

// play + terminal + rank of every move (the scan's inner loop without the child probe);
// the moves are generated outside the timed region.
void BM_PlayRank(benchmark::State& state) {
  const Jungle game;
  const Sample& sample = sample_of(static_cast<int>(state.range(0)));
  std::vector<std::pair<Position, Jungle::Move>> work;
  gs::MoveList<Jungle> moves;
  for (const Position& pos : sample.positions) {
    game.moves(pos, moves);
    for (const auto& move : moves) work.emplace_back(pos, move);
  }
  for (auto _ : state) {
    for (const auto& [pos, move] : work) {
      const Position next = Jungle::play(pos, move);
      if (Jungle::terminal(next)) {
        benchmark::DoNotOptimize(next);
        continue;
      }
      benchmark::DoNotOptimize(game.rank(next));
    }
  }
  report(state, work.size());
}

// The scan of one index without the child probe: unrank, moves, play + rank.
void BM_ScanIndex(benchmark::State& state) {
  const Jungle game;
  const Sample& sample = sample_of(static_cast<int>(state.range(0)));
  gs::MoveList<Jungle> moves;
  for (auto _ : state) {
    for (const Ranked& r : sample.indices) {
      const auto pos = game.unrank(r.tier, r.index);
      if (!pos) continue;
      game.moves(*pos, moves);
      for (const auto& move : moves) {
        const Position next = Jungle::play(*pos, move);
        if (!Jungle::terminal(next)) benchmark::DoNotOptimize(game.rank(next));
      }
    }
  }
  report(state, sample.indices.size());
}

// The propagation of one index: unrank, unmoves, rank of every predecessor.
void BM_PropagateIndex(benchmark::State& state) {
  const Jungle game;
  const Sample& sample = sample_of(static_cast<int>(state.range(0)));
  gs::UnmoveList<Jungle> unmoves;
  for (auto _ : state) {
    for (const Ranked& r : sample.indices) {
      const auto pos = game.unrank(r.tier, r.index);
      if (!pos) continue;
      game.unmoves(*pos, unmoves);
      for (const Position& previous : unmoves) benchmark::DoNotOptimize(game.rank(previous));
    }
  }
  report(state, sample.indices.size());
}

// What the solver's levels do for each decided index (retro/tier_solver.h, gather): unrank
// it and rank its predecessors through the game's hook, without making them (the fast
// path of BM_PropagateIndex). Items are indices; the counter is predecessors per index
// (holes included).
void BM_UnmoveIndices(benchmark::State& state) {
  const Jungle game;
  const Sample& sample = sample_of(static_cast<int>(state.range(0)));
  gs::SmallVector<Index, Jungle::kMaxUnmoves> predecessors;
  std::size_t ranked = 0;
  for (auto _ : state) {
    for (const Ranked& r : sample.indices) {
      const auto pos = game.unrank(r.tier, r.index);
      if (!pos) continue;
      game.unmove_indices(r.tier, *pos, predecessors);
      ranked += predecessors.size();
      benchmark::DoNotOptimize(predecessors.begin());
    }
  }
  state.counters["predecessors"] =
      static_cast<double>(ranked) / static_cast<double>(state.iterations() * sample.indices.size());
  report(state, sample.indices.size());
}

BENCHMARK(BM_Rank)->Arg(4)->Arg(5);
BENCHMARK(BM_Unrank)->Arg(4)->Arg(5);
BENCHMARK(BM_Moves)->Arg(4)->Arg(5);
BENCHMARK(BM_Unmoves)->Arg(4)->Arg(5);
BENCHMARK(BM_PlayRank)->Arg(4)->Arg(5);
// 6 pieces too: the per-index cost of a 6-piece build, for estimating one (docs/BENCHMARKS.md,
// "Estimates for larger builds"; the cells of a 6-piece tier fit in no cache, which this misses).
BENCHMARK(BM_ScanIndex)->Arg(4)->Arg(5)->Arg(6);
BENCHMARK(BM_PropagateIndex)->Arg(4)->Arg(5)->Arg(6);
BENCHMARK(BM_UnmoveIndices)->Arg(4)->Arg(5)->Arg(6);

}  // namespace

BENCHMARK_MAIN();
