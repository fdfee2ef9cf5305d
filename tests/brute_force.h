#pragma once
// An independent solver for small sets of tiers, to check the retrograde engine: a
// forward fixpoint over the game graph (repetition = draw), over any gs::Game.
//
// It uses only the forward rules (moves, play, terminal, no_move_value) and rank/unrank
// to enumerate and look up positions: no unmoves, no successor counts, nothing of
// retro/ or db/. All the given tiers are solved together in one graph, so moves into
// smaller tiers (captures) are handled like any other move; the set of tiers must be
// closed under moves (every non-terminal successor ranks into one of them).
//
// Values start unknown. Positions that are terminal get their terminal value; positions
// without a move get no_move_value(). Then for k = 1, 2, ...: an unknown position
// becomes a win in k if some move leads to a position lost in k-1 for the opponent; it
// becomes a loss in k if every move leads to a win for the opponent in fewer than k
// plies, one of them in k-1. The iteration stops when a round changes nothing (and no
// fixed terminal value is still deeper); what is left unknown is a draw. Depths come out
// exact: the shortest win and the longest loss.
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/game.h"
#include "core/parallel.h"
#include "core/value.h"

namespace gs::test {

struct BruteForceResult {
  std::unordered_map<Tier, std::vector<ValueCode>> codes;  // per tier, kHoleCode for holes
  int rounds = 0;                                          // iterations until the fixpoint
};

// The given tiers and every tier their moves can lead into (children, recursively),
// each after its children: a set of tiers closed under moves, in an order to solve it.
template <Game G>
std::vector<Tier> closure(const G& game, const std::vector<Tier>& tiers) {
  std::vector<Tier> order;
  std::vector<Tier> open;
  auto visit = [&](auto& self, Tier tier) -> void {
    if (std::find(order.begin(), order.end(), tier) != order.end()) return;
    if (std::find(open.begin(), open.end(), tier) != open.end()) {
      throw std::logic_error("the tier graph has a cycle through " + game.tier_name(tier));
    }
    open.push_back(tier);
    for (const Tier child : game.children(tier)) self(self, child);
    open.pop_back();
    order.push_back(tier);
  };
  for (const Tier tier : tiers) visit(visit, tier);
  return order;
}

template <Game G>
BruteForceResult brute_force(const G& game, const std::vector<Tier>& tiers, int threads) {
  constexpr ValueCode kUnknown = 0xFFFF;
  // A successor is a global position id (>= 0) or a terminal value, stored as
  // -1 - code.
  using Edge = std::int64_t;

  std::unordered_map<Tier, std::uint64_t> offset;  // global id of a tier's index 0
  std::uint64_t total = 0;
  for (const Tier tier : tiers) {
    offset[tier] = total;
    total += game.size(tier);
  }

  std::vector<ValueCode> value(total, kUnknown);
  std::vector<std::uint16_t> degree(total, 0);
  std::vector<std::uint64_t> first(total + 1, 0);
  std::vector<Edge> edges;
  std::string error;
  std::mutex error_mutex;
  auto fail_closed = [&](const std::string& message) {
    const std::lock_guard lock(error_mutex);
    if (error.empty()) error = message;
  };

  // Pass 1 finds holes, fixed values and out-degrees; pass 2 fills the edges.
  for (int pass = 1; pass <= 2; ++pass) {
    for (const Tier tier : tiers) {
      const std::uint64_t base = offset.at(tier);
      parallel_for(0, game.size(tier), threads, 4096, [&](Index begin, Index end, int) {
        MoveList<G> moves;
        for (Index i = begin; i < end; ++i) {
          const std::uint64_t id = base + i;
          const auto pos = game.unrank(tier, i);
          if (!pos) {
            if (pass == 1) value[id] = kHoleCode;
            continue;
          }
          if (const auto over = game.terminal(*pos)) {
            if (pass == 1) value[id] = over->code();
            continue;
          }
          game.moves(*pos, moves);
          if (moves.empty()) {
            if (pass == 1) value[id] = game.no_move_value().code();
            continue;
          }
          if (pass == 1) {
            degree[id] = static_cast<std::uint16_t>(moves.size());
            continue;
          }
          std::uint64_t at = first[id];
          for (const auto& move : moves) {
            const auto next = game.play(*pos, move);
            if (const auto over = game.terminal(next)) {
              edges[at++] = -1 - static_cast<Edge>(over->code());
              continue;
            }
            const Ranked ranked = game.rank(next);
            const auto it = offset.find(ranked.tier);
            if (it == offset.end()) {
              fail_closed(game.position_text(*pos) + " has a move into tier " + game.tier_name(ranked.tier) +
                          ", outside the tiers being solved");
              edges[at++] = -1 - static_cast<Edge>(kDrawCode);
              continue;
            }
            edges[at++] = static_cast<Edge>(it->second + ranked.index);
          }
        }
      });
    }
    if (pass == 1) {
      for (std::uint64_t id = 0; id < total; ++id) first[id + 1] = first[id] + degree[id];
      edges.assign(first[total], 0);
    }
  }
  if (!error.empty()) throw std::runtime_error(error);

  // The deepest value fixed before the rounds (terminal values and no-move values): a
  // round that changes nothing ends the fixpoint only beyond it.
  Depth deepest_fixed = 0;
  for (const ValueCode code : value) {
    if (code != kUnknown && code != kHoleCode && code != kDrawCode) {
      deepest_fixed = std::max(deepest_fixed, Value::from_code(code).depth());
    }
  }
  auto edge_value = [&](const std::vector<ValueCode>& current, Edge edge) -> ValueCode {
    return edge < 0 ? static_cast<ValueCode>(-1 - edge) : current[static_cast<std::uint64_t>(edge)];
  };

  BruteForceResult result;
  // The positions still unknown, and the values decided in the current round: rounds
  // read `value` and write `next` (Jacobi), so a round sees only values decided before it.
  std::vector<std::uint64_t> open;
  for (std::uint64_t id = 0; id < total; ++id) {
    if (value[id] == kUnknown) open.push_back(id);
  }
  std::vector<ValueCode> next = value;
  for (int k = 1;; ++k) {
    const ValueCode loss_before = Value::loss(static_cast<Depth>(k - 1)).code();
    const ValueCode win_before = Value::win(static_cast<Depth>(k - 1)).code();
    parallel_for(0, open.size(), threads, 1 << 12, [&](Index begin, Index end, int) {
      for (Index o = begin; o < end; ++o) {
        const std::uint64_t id = open[o];
        bool win = false;
        bool all_wins = true;
        bool one_at_k_minus_1 = false;
        for (std::uint64_t e = first[id]; e < first[id + 1]; ++e) {
          const ValueCode code = edge_value(value, edges[e]);
          if (code == loss_before) win = true;
          if (code == kUnknown || code == kDrawCode || code == kHoleCode || (code & 1U) != 0) {
            all_wins = false;
          } else if (Value::from_code(code).depth() >= k) {
            all_wins = false;
          } else if (code == win_before) {
            one_at_k_minus_1 = true;
          }
        }
        if (win) {
          next[id] = Value::win(static_cast<Depth>(k)).code();
        } else if (all_wins && one_at_k_minus_1) {
          next[id] = Value::loss(static_cast<Depth>(k)).code();
        }
      }
    });
    bool changed = false;
    std::size_t kept = 0;
    for (const std::uint64_t id : open) {
      if (next[id] == kUnknown) {
        open[kept++] = id;
      } else {
        value[id] = next[id];
        changed = true;
      }
    }
    open.resize(kept);
    result.rounds = k;
    if (!changed && k > deepest_fixed) break;
    if (k >= kMaxDepth) throw std::runtime_error("brute force: no fixpoint");
  }

  for (const Tier tier : tiers) {
    const std::uint64_t base = offset.at(tier);
    std::vector<ValueCode> codes(value.begin() + static_cast<std::ptrdiff_t>(base),
                                 value.begin() + static_cast<std::ptrdiff_t>(base + game.size(tier)));
    for (ValueCode& code : codes) {
      if (code == kUnknown) code = kDrawCode;
    }
    result.codes[tier] = std::move(codes);
  }
  return result;
}

}  // namespace gs::test
