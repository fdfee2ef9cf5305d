#pragma once
// A battery of checks over any type meeting gs::Game (core/game.h), for every game the
// project adds: ranking and unranking are exact inverses and agree with the symmetries,
// moves and unmoves describe the same in-tier edges, captures lead into children(),
// and position and move text round-trip.
//
// The checks report through gs::test::Failures (they run inside gs::parallel_for); a
// test asserts that no failure was collected, and on the counts they return.
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/parallel.h"
#include "tests/test_util.h"

namespace gs::test {

template <class G>
bool same_position(const G& game, const typename G::Position& a, const typename G::Position& b) {
  if constexpr (std::equality_comparable<typename G::Position>) {
    return a == b;
  } else {
    return game.position_text(a) == game.position_text(b);
  }
}

template <class G>
std::string ranked_text(const G& game, const Ranked& ranked) {
  return game.tier_name(ranked.tier) + "#" + std::to_string(ranked.index);
}

// The tiers of game.tiers(limit) with lo..hi pieces.
template <Game G>
std::vector<Tier> tiers_with_pieces(const G& game, int limit, int lo, int hi) {
  std::vector<Tier> result;
  for (const Tier tier : game.tiers(limit)) {
    const int pieces = game.tier_pieces(tier);
    if (pieces >= lo && pieces <= hi) result.push_back(tier);
  }
  return result;
}

// What a pass over indices saw. Position counts are weighted by the size of the
// position's symmetry class (every position the canonical index stands for), when the
// game has symmetries.
struct IndexCounts {
  std::uint64_t indices = 0;    // indices looked at
  std::uint64_t holes = 0;      // of which holes
  std::uint64_t positions = 0;  // positions the non-hole indices stand for
  std::uint64_t terminal = 0;   // ... of which terminal
  std::uint64_t no_move = 0;    // ... of which non-terminal without a legal move

  IndexCounts& operator+=(const IndexCounts& o) {
    indices += o.indices;
    holes += o.holes;
    positions += o.positions;
    terminal += o.terminal;
    no_move += o.no_move;
    return *this;
  }
};

// Checks one index: unrank gives a hole or a position that ranks back to (tier, index),
// and so does every symmetric copy of it.
template <Game G>
void check_index(const G& game, Tier tier, Index index, bool count_moves, Failures& failures,
                 IndexCounts& counts, std::vector<typename G::Position>& copies) {
  ++counts.indices;
  std::optional<typename G::Position> pos;
  try {
    pos = game.unrank(tier, index);
  } catch (const std::exception& e) {
    failures.add("unrank(" + game.tier_name(tier) + ", " + std::to_string(index) + ") threw: " + e.what());
    return;
  }
  if (!pos) {
    ++counts.holes;
    return;
  }
  const Ranked want{tier, index};
  const Ranked got = game.rank(*pos);
  if (got != want) {
    failures.add("unrank(" + ranked_text(game, want) + ") = " + game.position_text(*pos) + " ranks to " +
                 ranked_text(game, got));
    return;
  }
  std::uint64_t orbit = 1;
  if constexpr (HasSymmetries<G>) {
    game.symmetric(*pos, copies);
    orbit = copies.size();
    bool has_self = false;
    for (const auto& copy : copies) {
      has_self |= same_position(game, copy, *pos);
      const Ranked copy_rank = game.rank(copy);
      if (copy_rank != want) {
        failures.add("symmetric copy " + game.position_text(copy) + " of " + game.position_text(*pos) + " (" +
                     ranked_text(game, want) + ") ranks to " + ranked_text(game, copy_rank));
      }
    }
    if (!has_self)
      failures.add("symmetric(" + game.position_text(*pos) + ") does not list the position itself");
  }
  counts.positions += orbit;
  if (game.terminal(*pos)) {
    counts.terminal += orbit;
  } else if (count_moves) {
    MoveList<G> moves;
    game.moves(*pos, moves);
    if (moves.empty()) counts.no_move += orbit;
  }
}

// Every index of a tier, in parallel.
template <Game G>
IndexCounts check_tier_exhaustive(const G& game, Tier tier, bool count_moves, int threads,
                                  Failures& failures) {
  std::vector<IndexCounts> partial(static_cast<std::size_t>(std::max(threads, 1)));
  parallel_for(0, game.size(tier), threads, 1 << 14, [&](Index begin, Index end, int thread) {
    IndexCounts& counts = partial[static_cast<std::size_t>(thread)];
    std::vector<typename G::Position> copies;
    for (Index i = begin; i < end; ++i) check_index(game, tier, i, count_moves, failures, counts, copies);
  });
  IndexCounts total;
  for (const IndexCounts& counts : partial) total += counts;
  return total;
}

// `samples` random (tier, index) pairs over the given tiers (tier first, uniformly, then
// index), from a fixed seed.
template <Game G>
IndexCounts check_tiers_sampled(const G& game, const std::vector<Tier>& tiers, std::uint64_t samples,
                                std::uint64_t seed, int threads, Failures& failures) {
  std::mt19937_64 random(seed);
  std::vector<Ranked> picks;
  picks.reserve(samples);
  for (std::uint64_t s = 0; s < samples; ++s) {
    const Tier tier = tiers[random() % tiers.size()];
    picks.push_back({tier, random() % game.size(tier)});
  }
  std::vector<IndexCounts> partial(static_cast<std::size_t>(std::max(threads, 1)));
  parallel_for(0, picks.size(), threads, 1024, [&](Index begin, Index end, int thread) {
    IndexCounts& counts = partial[static_cast<std::size_t>(thread)];
    std::vector<typename G::Position> copies;
    for (Index i = begin; i < end; ++i)
      check_index(game, picks[i].tier, picks[i].index, false, failures, counts, copies);
  });
  IndexCounts total;
  for (const IndexCounts& counts : partial) total += counts;
  return total;
}

// Up to per_tier positions of each tier at random indices (holes skipped), from a fixed
// seed. With symmetries, a random symmetric copy is taken in place of the canonical
// position every other time, so that non-canonical positions are exercised too.
template <Game G>
std::vector<typename G::Position> sample_positions(const G& game, const std::vector<Tier>& tiers,
                                                   int per_tier, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<typename G::Position> result;
  std::vector<typename G::Position> copies;
  for (const Tier tier : tiers) {
    const Index size = game.size(tier);
    int found = 0;
    for (int attempt = 0; attempt < 20 * per_tier && found < per_tier; ++attempt) {
      const auto pos = game.unrank(tier, random() % size);
      if (!pos) continue;
      ++found;
      if constexpr (HasSymmetries<G>) {
        if (found % 2 == 0) {
          game.symmetric(*pos, copies);
          result.push_back(copies[random() % copies.size()]);
          continue;
        }
      }
      result.push_back(*pos);
    }
  }
  return result;
}

// Moves and unmoves agree both ways, and moves that leave the tier lead into one of its
// children:
// - for every move of p to a non-terminal q of p's own tier, unmoves(q) and unmoves of
//   q's canonical representative list a position that ranks to rank(p);
// - every position r in unmoves(p) is non-terminal, of p's tier, and has a move to a
//   position that ranks to rank(p).
template <Game G>
void check_moves_and_unmoves(const G& game, const typename G::Position& p, Failures& failures) {
  using Position = typename G::Position;
  if (game.terminal(p)) return;
  const Ranked rp = game.rank(p);
  const std::vector<Tier> children = game.children(rp.tier);
  if (std::find(children.begin(), children.end(), rp.tier) != children.end()) {
    failures.add("children(" + game.tier_name(rp.tier) + ") lists the tier itself");
  }
  MoveList<G> moves;
  game.moves(p, moves);
  UnmoveList<G> previous;
  auto lists_p = [&](const Position& target) {
    game.unmoves(target, previous);
    return std::any_of(previous.begin(), previous.end(),
                       [&](const Position& r) { return !game.terminal(r) && game.rank(r) == rp; });
  };
  for (const auto& move : moves) {
    const Position q = game.play(p, move);
    if (game.terminal(q)) continue;
    const Ranked rq = game.rank(q);
    if (rq.tier != rp.tier) {
      if (std::find(children.begin(), children.end(), rq.tier) == children.end()) {
        failures.add(game.position_text(p) + " move " + game.move_text(p, move) + " leads to tier " +
                     game.tier_name(rq.tier) + ", not among the children of " + game.tier_name(rp.tier));
      }
      continue;
    }
    if (!lists_p(q)) {
      failures.add("unmoves(" + game.position_text(q) + ") lack a predecessor ranking like " +
                   game.position_text(p) + " (move " + game.move_text(p, move) + ")");
    }
    const auto canonical = game.unrank(rq.tier, rq.index);
    if (!canonical) {
      failures.add("rank(" + game.position_text(q) + ") = " + ranked_text(game, rq) + " is a hole");
    } else if (!lists_p(*canonical)) {
      failures.add("unmoves(" + game.position_text(*canonical) + ") (canonical of " + game.position_text(q) +
                   ") lack a predecessor ranking like " + game.position_text(p));
    }
  }
  game.unmoves(p, previous);
  const UnmoveList<G> predecessors = previous;
  for (const Position& r : predecessors) {
    if (game.terminal(r)) {
      failures.add("unmoves(" + game.position_text(p) + ") lists the terminal position " +
                   game.position_text(r));
      continue;
    }
    const Ranked rr = game.rank(r);
    if (rr.tier != rp.tier) {
      failures.add("unmoves(" + game.position_text(p) + ") lists " + game.position_text(r) + " of tier " +
                   game.tier_name(rr.tier) + ", not " + game.tier_name(rp.tier));
      continue;
    }
    MoveList<G> forward;
    game.moves(r, forward);
    const bool leads_back = std::any_of(forward.begin(), forward.end(), [&](const auto& m) {
      const Position next = game.play(r, m);
      return !game.terminal(next) && game.rank(next) == rp;
    });
    if (!leads_back) {
      failures.add("unmoves(" + game.position_text(p) + ") lists " + game.position_text(r) +
                   ", which has no move to a position ranking like it");
    }
  }
}

// The optional retrograde hooks keep their promises (core/game.h, KnowsTierMoves and
// CountsTierMoves): keeps_tier says which moves stay in the tier; moves_leaving_tier
// lists the others and counts these; where has_symmetry is false, the moves that stay
// lead to distinct indices; where predecessors_may_meet is false (has_symmetry for a
// game without it), the positions with a move into p have distinct indices.
// Returns whether p is without symmetry (for the tests' counts).
template <Game G>
requires KnowsTierMoves<G>
bool check_tier_move_hooks(const G& game, const typename G::Position& p, Failures& failures) {
  if (game.terminal(p)) return false;
  const Tier tier = game.rank(p).tier;
  MoveList<G> moves;
  game.moves(p, moves);
  std::vector<Index> staying;
  std::size_t leaving = 0;
  for (const auto& move : moves) {
    const auto next = game.play(p, move);
    const bool same = !game.terminal(next) && game.rank(next).tier == tier;
    if (same != game.keeps_tier(p, move)) {
      failures.add(game.position_text(p) + " move " + game.move_text(p, move) + ": keeps_tier says " +
                   (same ? "no" : "yes"));
    }
    if (same) {
      staying.push_back(game.rank(next).index);
    } else {
      ++leaving;
    }
  }
  if constexpr (CountsTierMoves<G>) {
    MoveList<G> out;
    const std::size_t counted = game.moves_leaving_tier(p, out);
    bool listed_leave = true;
    for (const auto& move : out) {
      listed_leave = listed_leave && std::find(moves.begin(), moves.end(), move) != moves.end() &&
                     !game.keeps_tier(p, move);
    }
    if (counted != staying.size() || out.size() != leaving || !listed_leave) {
      failures.add(game.position_text(p) + ": " + std::to_string(staying.size()) + " moves stay and " +
                   std::to_string(leaving) + " leave; moves_leaving_tier counts " + std::to_string(counted) +
                   " and lists " + std::to_string(out.size()));
    }
  }
  auto distinct = [](std::vector<Index> indices) {
    std::sort(indices.begin(), indices.end());
    return std::adjacent_find(indices.begin(), indices.end()) == indices.end();
  };
  const bool plain = !game.has_symmetry(p);
  if (plain && !distinct(staying))
    failures.add(game.position_text(p) + " has no symmetry, but two of its moves reach one index");
  if (!predecessors_may_meet(game, p)) {
    UnmoveList<G> previous;
    game.unmoves(p, previous);
    std::vector<Index> before;
    for (const auto& r : previous) before.push_back(game.rank(r).index);
    if (!distinct(before))
      failures.add(game.position_text(p) +
                   ": predecessors may not meet, but two of its unmoves have one index");
  }
  return plain;
}

// rank_moves_leaving_tier (core/game.h, RanksMovesLeavingTier) gives what playing each
// move of moves_leaving_tier(p), then terminal() and rank(), gives, in any order, and
// counts the same moves staying; rank_moves (RanksMoves), where the game has it, gives
// what playing every move of moves(p) gives.
template <Game G>
requires RanksMovesLeavingTier<G>
void check_ranked_moves(const G& game, const typename G::Position& p, Failures& failures) {
  if (game.terminal(p)) return;
  using Successors = std::vector<std::pair<Ranked, ValueCode>>;
  auto played = [&](const MoveList<G>& moves) {
    Successors want;
    for (const auto& move : moves) {
      const auto next = game.play(p, move);
      const std::optional<Value> value = game.terminal(next);
      want.push_back(value ? std::pair{Ranked{}, value->code()} : std::pair{game.rank(next), kHoleCode});
    }
    return want;
  };
  auto ranked = [](const SuccessorList<G>& successors) {
    Successors got;
    for (const Successor& next : successors)
      got.emplace_back(next.terminal == kHoleCode ? next.ranked : Ranked{}, next.terminal);
    return got;
  };
  auto order = [](const auto& a, const auto& b) {
    return std::tie(a.first.tier, a.first.index, a.second) < std::tie(b.first.tier, b.first.index, b.second);
  };
  MoveList<G> moves;
  const std::size_t counted = game.moves_leaving_tier(p, moves);
  Successors want = played(moves);
  SuccessorList<G> successors;
  const std::size_t ranked_count = game.rank_moves_leaving_tier(p, successors);
  Successors got = ranked(successors);
  std::sort(want.begin(), want.end(), order);
  std::sort(got.begin(), got.end(), order);
  if (got != want || ranked_count != counted) {
    failures.add(game.position_text(p) + ": rank_moves_leaving_tier gives " + std::to_string(got.size()) +
                 " successors and counts " + std::to_string(ranked_count) + " staying; playing gives " +
                 std::to_string(want.size()) + (got.size() == want.size() ? " others" : "") + " and " +
                 std::to_string(counted));
  }
  if constexpr (RanksMoves<G>) {
    game.moves(p, moves);
    want = played(moves);
    game.rank_moves(p, successors);
    got = ranked(successors);
    std::sort(want.begin(), want.end(), order);
    std::sort(got.begin(), got.end(), order);
    if (got != want) {
      failures.add(game.position_text(p) + ": rank_moves gives " + std::to_string(got.size()) +
                   " successors; playing every move gives " + std::to_string(want.size()) +
                   (got.size() == want.size() ? " others" : ""));
    }
  }
}

// child_walk (core/game.h, WalksForChildren) visits every position of the tier once, at
// its index, walked in pieces of `piece` steps (the scan's threads take pieces).
// Returns the number of positions visited, 0 where the game does not walk the tier.
template <Game G>
requires WalksForChildren<G> std::uint64_t check_child_walk(const G& game, Tier tier, Index piece,
                                                            Failures& failures) {
  const Index length = game.child_walk_size(tier);
  if (length == 0) return 0;
  const Index size = game.size(tier);
  std::vector<std::uint8_t> seen(size, 0);
  std::uint64_t visited = 0;
  for (Index begin = 0; begin < length; begin += piece) {
    game.child_walk(tier, begin, std::min(length, begin + piece),
                    [&](Index index, const typename G::Position& pos) {
                      ++visited;
                      if (index >= size || seen[index]++ != 0 || !(game.rank(pos) == Ranked{tier, index})) {
                        failures.add(game.tier_name(tier) + ": the walk visits " + game.position_text(pos) +
                                     " at index " + std::to_string(index) +
                                     (index < size && seen[index] > 1 ? " again" : ", not its rank"));
                      }
                    });
  }
  for (Index i = 0; i < size; ++i) {
    if ((seen[i] != 0) != game.unrank(tier, i).has_value())
      failures.add(game.tier_name(tier) + " index " + std::to_string(i) + ": " +
                   (seen[i] != 0 ? "a hole the walk visits" : "a position the walk misses"));
  }
  return visited;
}

// A solved callback of solve_walk made of two functions: hint(index), value(index, value).
template <class Hint, class Take>
struct Solved {
  Hint hint;
  Take take;
  void operator()(Index index, Value value) const { take(index, value); }
  void prefetch(Index index) const { hint(index); }
};

// solve_walk (core/game.h, SolvesWalk) over the walk in pieces of `piece` steps: every
// position of the tier solved or visited once, at its index, and each `every`-th one
// solved has the value its moves give when each child tier's index holds the value code
// `child(tier, index)` (any values do: the hook must combine whatever the children
// hold). Returns the number of positions solved.
template <Game G, class Child>
requires SolvesWalk<G> std::uint64_t check_solve_walk(const G& game, Tier tier, Index piece, Child&& child,
                                                      std::uint64_t every, Failures& failures) {
  const Index length = game.child_walk_size(tier);
  if (length == 0) return 0;
  const Index size = game.size(tier);
  std::vector<std::uint8_t> seen(size, 0);
  std::uint64_t solved = 0;
  auto note = [&](Index index, const std::string& what) {
    if (index >= size || seen[index]++ != 0)
      failures.add(game.tier_name(tier) + ": index " + std::to_string(index) + " " + what +
                   (index < size ? " again" : ", past the tier"));
  };
  // What values(child) gives (core/game.h, ChildValuesModel).
  struct Reader {
    const std::remove_reference_t<Child>* values;
    Tier tier;
    ValueCode operator()(Index index) const { return (*values)(tier, index); }
    void prefetch(Index) const {}
  };
  // What solved is (core/game.h, SolvedModel): the values, and hints, which must be
  // indices of the tier.
  auto hinted = [&](Index index) {
    if (index >= size)
      failures.add(game.tier_name(tier) + ": index " + std::to_string(index) + " hinted, past the tier");
  };
  MoveList<G> moves;
  // Each solved position (every `every`-th one checked against its moves).
  auto check = [&](Index index, Value value) {
    note(index, "solved");
    if (solved++ % every != 0) return;
    const std::optional<typename G::Position> pos = game.unrank(tier, index);
    if (!pos) {
      failures.add(game.tier_name(tier) + ": a hole solved, index " + std::to_string(index));
      return;
    }
    std::optional<Value> best = game.terminal(*pos);
    if (!best) {
      game.moves(*pos, moves);
      if (moves.empty()) best = game.no_move_value();
      for (const auto& move : moves) {
        const typename G::Position next = game.play(*pos, move);
        const std::optional<Value> end = game.terminal(next);
        const Ranked r = game.rank(next);
        const Value mine = (end ? *end : Value::from_code(child(r.tier, r.index))).before_move();
        if (!best || mine.better_than(*best)) best = mine;
      }
    }
    if (!(value == *best)) {
      failures.add(game.tier_name(tier) + ": " + game.position_text(*pos) + " solved as " +
                   value.to_string() + ", its moves give " + best->to_string());
    }
  };
  for (Index begin = 0; begin < length; begin += piece) {
    game.solve_walk(
        tier, begin, std::min(length, begin + piece),
        [&](Tier t) {
          return Reader{&child, t};
        },
        Solved{hinted, check},
        [&](Index index, const typename G::Position& pos) {
          note(index, "visited");
          if (!(game.rank(pos) == Ranked{tier, index}))
            failures.add(game.tier_name(tier) + ": " + game.position_text(pos) + " visited at index " +
                         std::to_string(index) + ", not its rank");
        });
  }
  for (Index i = 0; i < size; ++i) {
    if ((seen[i] != 0) != game.unrank(tier, i).has_value())
      failures.add(game.tier_name(tier) + " index " + std::to_string(i) + ": " +
                   (seen[i] != 0 ? "a hole solved or visited" : "a position neither solved nor visited"));
  }
  return solved;
}

// unmove_indices (core/game.h, RanksUnmoves) gives the ranks of unmoves(p), in any order.
template <Game G>
requires RanksUnmoves<G>
void check_unmove_indices(const G& game, const typename G::Position& p, Failures& failures) {
  if (game.terminal(p)) return;
  const Tier tier = game.rank(p).tier;
  UnmoveList<G> previous;
  game.unmoves(p, previous);
  std::vector<Index> want;
  for (const auto& r : previous) want.push_back(game.rank(r).index);
  SmallVector<Index, G::kMaxUnmoves> listed;
  game.unmove_indices(tier, p, listed);
  std::vector<Index> got(listed.begin(), listed.end());
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  if (got != want) {
    failures.add(game.position_text(p) + ": unmove_indices lists " + std::to_string(got.size()) +
                 " indices, the ranks of unmoves are " + std::to_string(want.size()) + " others");
  }
}

// open_unmove_indices (core/game.h, RanksOpenUnmoves) gives unmove_indices(p) less some
// predecessors, each of which has a move to a terminal position lost for the side to
// move there. Returns how many it left out.
template <Game G>
requires RanksOpenUnmoves<G> std::size_t check_open_unmove_indices(const G& game,
                                                                   const typename G::Position& p,
                                                                   Failures& failures) {
  if (game.terminal(p)) return 0;
  const Tier tier = game.rank(p).tier;
  SmallVector<Index, G::kMaxUnmoves> listed;
  game.unmove_indices(tier, p, listed);
  std::vector<Index> all(listed.begin(), listed.end());
  game.open_unmove_indices(tier, p, listed);
  std::vector<Index> open(listed.begin(), listed.end());
  std::sort(all.begin(), all.end());
  std::sort(open.begin(), open.end());
  std::vector<Index> left_out;
  std::set_difference(all.begin(), all.end(), open.begin(), open.end(), std::back_inserter(left_out));
  if (!std::includes(all.begin(), all.end(), open.begin(), open.end())) {
    failures.add(game.position_text(p) + ": open_unmove_indices lists an index unmove_indices does not");
  }
  MoveList<G> moves;
  for (const Index index : left_out) {
    const std::optional<typename G::Position> before = game.unrank(tier, index);
    bool wins = false;
    if (before) {
      game.moves(*before, moves);
      for (const auto& move : moves) {
        const std::optional<Value> end = game.terminal(game.play(*before, move));
        wins = wins || (end && end->is_loss());
      }
    }
    if (!wins) {
      failures.add(game.position_text(p) + ": open_unmove_indices leaves out index " + std::to_string(index) +
                   ", which has no move to a lost end");
    }
  }
  return left_out.size();
}

// wins_at_once (core/game.h, KnowsWinsAtOnce) is true exactly where a move reaches a
// terminal position lost for the side to move there. Returns wins_at_once(p).
template <Game G>
requires KnowsWinsAtOnce<G>
bool check_wins_at_once(const G& game, const typename G::Position& p, Failures& failures) {
  if (game.terminal(p)) return false;
  MoveList<G> moves;
  game.moves(p, moves);
  bool wins = false;
  for (const auto& move : moves) {
    const std::optional<Value> end = game.terminal(game.play(p, move));
    wins = wins || (end && end->is_loss());
  }
  const bool said = game.wins_at_once(p);
  if (said != wins) {
    failures.add(game.position_text(p) + ": wins_at_once says " + (said ? "yes" : "no") + ", the moves " +
                 (wins ? "win at once" : "do not"));
  }
  return said;
}

// unrank_next (core/game.h, UnranksInOrder) steps as unrank does, holes included: over
// `length` indices from `start`, as the retrograde scan calls it (after a hole, unrank).
// Returns the number of indices compared.
template <Game G>
requires UnranksInOrder<G> std::uint64_t check_unrank_next(const G& game, Tier tier, Index start,
                                                           Index length, Failures& failures) {
  std::optional<typename G::Position> stepped;
  std::uint64_t compared = 0;
  const Index end = std::min(game.size(tier), start + length);
  for (Index i = start; i < end; ++i) {
    const std::optional<typename G::Position> want = game.unrank(tier, i);
    if (stepped) {
      const bool found = game.unrank_next(tier, i, *stepped);
      ++compared;
      if (found != want.has_value() || (found && !(*stepped == *want))) {
        failures.add(game.tier_name(tier) + " index " + std::to_string(i) + ": unrank gives " +
                     (want ? game.position_text(*want) : "a hole") + ", unrank_next " +
                     (found ? game.position_text(*stepped) : "a hole"));
      }
      if (!found) stepped.reset();
    } else {
      stepped = want;
    }
  }
  return compared;
}

// Position text and every move's text parse back to the same position and move; the
// texts of a position's moves are distinct.
template <Game G>
void check_text_round_trip(const G& game, const typename G::Position& p, Failures& failures) {
  std::string text;
  try {
    text = game.position_text(p);
    const auto parsed = game.parse_position(text);
    if (!same_position(game, parsed, p)) {
      failures.add("'" + text + "' parses to '" + game.position_text(parsed) + "'");
      return;
    }
    if (game.terminal(p)) return;
    MoveList<G> moves;
    game.moves(p, moves);
    std::vector<std::string> texts;
    for (const auto& move : moves) {
      const std::string move_text = game.move_text(p, move);
      if (std::find(texts.begin(), texts.end(), move_text) != texts.end()) {
        failures.add(text + ": two moves are written " + move_text);
      }
      texts.push_back(move_text);
      const auto parsed_move = game.parse_move(p, move_text);
      bool same = false;
      if constexpr (std::equality_comparable<typename G::Move>) {
        same = parsed_move == move;
      } else {
        same = same_position(game, game.play(p, parsed_move), game.play(p, move));
      }
      if (!same || game.move_text(p, parsed_move) != move_text) {
        failures.add(text + ": move text '" + move_text + "' parses to '" + game.move_text(p, parsed_move) +
                     "'");
      }
    }
  } catch (const Error& e) {
    failures.add("text round trip of '" + text + "' threw: " + e.what());
  }
}

// The start position, and 'start' as its text.
template <Game G>
void check_start(const G& game, Failures& failures) {
  const auto start = game.start();
  try {
    if (!same_position(game, game.parse_position("start"), start))
      failures.add("'start' is not the start position");
    if (!same_position(game, game.parse_position(game.position_text(start)), start)) {
      failures.add("the start position's text does not parse back");
    }
  } catch (const Error& e) {
    failures.add(std::string("parsing the start position threw: ") + e.what());
  }
  if (game.terminal(start)) failures.add("the start position is terminal");
  MoveList<G> moves;
  game.moves(start, moves);
  if (moves.empty()) failures.add("the start position has no move");
}

}  // namespace gs::test
