#pragma once
// The closure prover: the proof-tree manager's back end for draws that rest on
// repetitions too wide for a search (prove/backend.h runs it on a stuck target). From a
// position it lists every position reachable through positions that are neither over nor
// decided by the databases (the region), up to limits, and where the region closes within
// them, solves it by retrograde analysis over the region's own moves: a position is won
// when some move leads to a position lost for the opponent (in the region, over, or in
// the databases), lost when every move leads to one won for the opponent, and drawn
// otherwise, since endless play is a draw (as in the databases). The answer is the
// position's value, whatever the path to it. docs/PROVE.md ("Repetition") describes where
// the manager uses it; prove/checker.h checks its answers by another algorithm.
//
// Each position of the region is generated, ranked and probed once: about what a df-pn
// node costs. Memory: a hash-map entry per position and 8 bytes per move, counted against
// the limits as the region grows.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/game.h"
#include "core/value.h"
#include "search/databases.h"
#include "search/score.h"

namespace gs::prove {

struct ClosureLimits {
  std::uint64_t positions = 0;  // the most positions of the region (0: no limit)
  std::uint64_t bytes = 0;      // the most memory (0: no limit)
  double seconds = 0;           // the most time (0: no limit)
};

struct ClosureResult {
  std::optional<Outcome> outcome;  // the position's, for its side to move, where the region closed
  std::uint64_t positions = 0;     // listed in the region
  std::uint64_t moves = 0;
  bool out_of_memory =
      false;  // the region outgrew limits.bytes (a larger budget in positions won't close it)
};

struct RankedHash {
  std::size_t operator()(const Ranked& r) const noexcept {
    return std::hash<std::uint64_t>{}(r.index * 0x9E3779B97F4A7C15ULL ^ r.tier);
  }
};

// The outcome a database gives a position, where its bounds settle it.
template <Game G>
std::optional<Outcome> database_outcome(search::Databases<G>& probes, const Ranked& ranked) {
  const auto bounds = probes.probe(ranked);
  if (!bounds || !bounds->decides(search::kWinThreshold) || !bounds->decides(search::kDrawThreshold))
    return std::nullopt;
  if (bounds->passes(search::kWinThreshold)) return Outcome::kWin;
  return bounds->passes(search::kDrawThreshold) ? Outcome::kDraw : Outcome::kLoss;
}

template <Game G>
ClosureResult close_region(const G& game, search::Databases<G>& probes, const typename G::Position& root,
                           const ClosureLimits& limits) {
  using Position = typename G::Position;
  const auto start = std::chrono::steady_clock::now();
  enum State : std::uint8_t { kOpen, kWon, kLost, kDrawn };
  ClosureResult result;
  std::unordered_map<Ranked, std::uint32_t, RankedHash> number;  // region positions, in the order found
  std::deque<Position> queue{root};
  number.emplace(game.rank(root), 0);
  std::vector<std::uint64_t> first{0};  // position i's moves into the region: to[first[i]..first[i + 1])
  std::vector<std::uint32_t> to;
  std::vector<std::uint8_t> state;
  std::vector<std::uint32_t> waiting;  // moves not yet known to lead to the opponent's win
  constexpr std::uint64_t kEntryBytes = sizeof(Ranked) + 4 + 2 * sizeof(void*) + sizeof(std::size_t);
  auto bytes = [&] {
    return number.size() * kEntryBytes + number.bucket_count() * sizeof(void*) +
           queue.size() * sizeof(Position) + to.capacity() * 4 * 2 + first.capacity() * 8 +
           state.capacity() * 5;
  };
  while (!queue.empty()) {
    const Position pos = queue.front();
    queue.pop_front();
    State s = kOpen;
    std::uint32_t open_moves = 0;
    MoveList<G> moves;
    game.moves(pos, moves);
    if (moves.empty()) {
      const Outcome o = game.no_move_value().outcome();
      s = o == Outcome::kWin ? kWon : (o == Outcome::kLoss ? kLost : kDrawn);
    }
    for (const auto& move : moves) {
      const Position next = game.play(pos, move);
      ++result.moves;
      std::optional<Outcome> fixed;
      Ranked ranked;
      if (const auto over = game.terminal(next)) {
        fixed = over->outcome();
      } else {
        ranked = game.rank(next);
        fixed = database_outcome(probes, ranked);
      }
      if (fixed) {
        // For the side to move in `next`: a loss there wins here; a draw never lets this
        // position be lost; a win there is one move fewer to wait for.
        if (*fixed == Outcome::kLoss) s = kWon;
        if (*fixed == Outcome::kDraw) ++open_moves;
        continue;
      }
      const auto [it, added] = number.emplace(ranked, static_cast<std::uint32_t>(number.size()));
      if (added) queue.push_back(next);
      to.push_back(it->second);
      ++open_moves;
    }
    if (s == kOpen && open_moves == 0) s = kLost;  // every move wins for the opponent
    state.push_back(s);
    waiting.push_back(open_moves);
    first.push_back(to.size());
    const bool too_many = limits.positions != 0 && number.size() > limits.positions;
    const bool too_big = limits.bytes != 0 && bytes() > limits.bytes;
    const bool too_long =
        limits.seconds > 0 && (state.size() & 1023U) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > limits.seconds;
    if (too_many || too_big || too_long) {
      result.positions = number.size();
      result.out_of_memory = too_big;
      return result;  // the region does not close within the limits
    }
  }
  const std::size_t count = state.size();
  result.positions = count;
  // The moves reversed: the positions each position is reached from, once per move.
  std::vector<std::uint64_t> from_first(count + 1, 0);
  for (const std::uint32_t t : to) ++from_first[t + 1];
  for (std::size_t i = 0; i < count; ++i) from_first[i + 1] += from_first[i];
  std::vector<std::uint32_t> from(to.size());
  {
    std::vector<std::uint64_t> fill(from_first.begin(), from_first.end() - 1);
    for (std::size_t i = 0; i < count; ++i) {
      for (std::uint64_t k = first[i]; k < first[i + 1]; ++k)
        from[fill[to[k]]++] = static_cast<std::uint32_t>(i);
    }
  }
  std::vector<std::uint32_t> work;
  for (std::size_t i = 0; i < count; ++i) {
    if (state[i] == kWon || state[i] == kLost) work.push_back(static_cast<std::uint32_t>(i));
  }
  while (!work.empty()) {
    const std::uint32_t at = work.back();
    work.pop_back();
    for (std::uint64_t k = from_first[at]; k < from_first[at + 1]; ++k) {
      const std::uint32_t p = from[k];
      if (state[p] != kOpen) continue;
      if (state[at] == kLost) {
        state[p] = kWon;
        work.push_back(p);
      } else if (--waiting[p] == 0) {
        state[p] = kLost;
        work.push_back(p);
      }
    }
  }
  result.outcome = state[0] == kWon ? Outcome::kWin : (state[0] == kLost ? Outcome::kLoss : Outcome::kDraw);
  return result;
}

}  // namespace gs::prove
