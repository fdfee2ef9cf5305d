#pragma once
// A game made for the tests of the build's schedule: many tiers of chosen size in a DAG
// of chosen width, and a watch on the threads that solve them. Tier t reads tiers
// t - width and t - width - 1 (where they exist), so `width` tiers at a time can be
// ready. A position is (tier, index): index 0 is lost for the side to move; from any
// other index the moves go to index / 2 of the same tier and to one position of each
// child tier. No symmetries, no holes.
#include <fmt/format.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/game.h"

namespace gs::test {

// The threads of this process now (/proc/self/task).
inline int threads_alive() {
  int count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) ++count;
  return count;
}

// The kernel ids of the threads of this process now.
inline std::set<pid_t> thread_ids() {
  std::set<pid_t> ids;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
    ids.insert(static_cast<pid_t>(std::stol(entry.path().filename().string())));
  }
  return ids;
}

// What the solves of a TierDagGame saw: the most threads alive in the process at once
// (sampled as positions are unranked), and the threads (kernel ids) that unranked.
struct ThreadWatch {
  std::atomic<int> most_alive{0};
  std::mutex mutex;
  std::set<pid_t> solvers;

  void sample() {
    const int alive = threads_alive();
    int most = most_alive.load();
    while (alive > most && !most_alive.compare_exchange_weak(most, alive)) {
    }
    const std::lock_guard lock(mutex);
    solvers.insert(::gettid());
  }
};

class TierDagGame {
 public:
  struct Position {
    Tier tier = 0;
    std::uint32_t index = 0;
    bool operator==(const Position&) const = default;
  };
  struct Move {
    Tier tier = 0;
    std::uint32_t index = 0;
    bool operator==(const Move&) const = default;
  };
  static constexpr std::string_view kName = "tierdag";
  static constexpr std::size_t kMaxMoves = 3;
  static constexpr std::size_t kMaxUnmoves = 2;

  TierDagGame(int width, Index tier_size)
      : width_(static_cast<Tier>(width)), tier_size_(tier_size), watch_(std::make_shared<ThreadWatch>()) {}
  [[nodiscard]] ThreadWatch& watch() const { return *watch_; }

  [[nodiscard]] static Position start() { return {0, 1}; }
  void moves(const Position& pos, MoveList<TierDagGame>& out) const {
    out.clear();
    if (pos.index == 0) return;
    out.push_back({pos.tier, pos.index / 2});
    for (const Tier child : children(pos.tier)) {
      out.push_back({child, static_cast<std::uint32_t>((Index{pos.index} * 7 + 3) % size(child))});
    }
  }
  [[nodiscard]] static Position play(const Position&, const Move& move) { return {move.tier, move.index}; }
  [[nodiscard]] static std::optional<Value> terminal(const Position& pos) {
    return pos.index == 0 ? std::optional<Value>(Value::loss(0)) : std::nullopt;
  }
  [[nodiscard]] static Value no_move_value() { return Value::draw(); }
  [[nodiscard]] static std::string position_text(const Position& pos) {
    return fmt::format("t{}:{}", pos.tier, pos.index);
  }
  [[nodiscard]] Position parse_position(std::string_view text) const {
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos) fail("not a position: '{}'", text);
    const Tier tier = parse_tier(text.substr(0, colon));
    std::uint32_t index = 0;
    const std::string_view digits = text.substr(colon + 1);
    if (std::from_chars(digits.data(), digits.data() + digits.size(), index).ec != std::errc{} ||
        index >= size(tier)) {
      fail("not a position: '{}'", text);
    }
    return {tier, index};
  }
  [[nodiscard]] static std::string move_text(const Position&, const Move& move) {
    return position_text({move.tier, move.index});
  }
  [[nodiscard]] Move parse_move(const Position& pos, std::string_view text) const {
    const Position to = parse_position(text);
    MoveList<TierDagGame> list;
    moves(pos, list);
    for (const Move& move : list) {
      if (move.tier == to.tier && move.index == to.index) return move;
    }
    fail("no move to '{}'", text);
  }
  [[nodiscard]] static std::string variant() { return "standard"; }
  [[nodiscard]] static std::string rule_text() { return ""; }
  // limit: the number of tiers.
  [[nodiscard]] static std::vector<Tier> tiers(int limit) {
    std::vector<Tier> all;
    for (int t = 0; t < limit; ++t) all.push_back(static_cast<Tier>(t));
    return all;
  }
  [[nodiscard]] std::vector<Tier> children(Tier tier) const {
    std::vector<Tier> list;
    if (tier >= width_) list.push_back(tier - width_);
    if (tier >= width_ + 1) list.push_back(tier - width_ - 1);
    return list;
  }
  [[nodiscard]] Index size(Tier tier) const { return tier_size_ + tier * 37 % 1000; }
  [[nodiscard]] static std::string tier_name(Tier tier) { return fmt::format("t{}", tier); }
  [[nodiscard]] static Tier parse_tier(std::string_view text) {
    Tier tier = 0;
    if (text.size() < 2 || text[0] != 't' ||
        std::from_chars(text.data() + 1, text.data() + text.size(), tier).ec != std::errc{}) {
      fail("not a tier: '{}'", text);
    }
    return tier;
  }
  [[nodiscard]] static int tier_pieces(Tier tier) { return static_cast<int>(tier); }
  [[nodiscard]] static Ranked rank(const Position& pos) { return {pos.tier, pos.index}; }
  [[nodiscard]] std::optional<Position> unrank(Tier tier, Index index) const {
    // Every thread samples at its first position and then at every 256th.
    thread_local std::uint64_t calls = 0;
    if (calls++ % 256 == 0) watch_->sample();
    if (index >= size(tier)) return std::nullopt;
    return Position{tier, static_cast<std::uint32_t>(index)};
  }
  void unmoves(const Position& pos, UnmoveList<TierDagGame>& out) const {
    out.clear();
    for (const Index from : {Index{pos.index} * 2, Index{pos.index} * 2 + 1}) {
      if (from >= 1 && from < size(pos.tier)) out.push_back({pos.tier, static_cast<std::uint32_t>(from)});
    }
  }

 private:
  Tier width_;
  Index tier_size_;
  std::shared_ptr<ThreadWatch> watch_;
};
static_assert(Game<TierDagGame>);

}  // namespace gs::test
