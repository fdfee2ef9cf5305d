#pragma once
// The two identities of a position in the search, and the path of the current line.
//
//   key(pos)     the table key: a 64-bit mix of rank(pos) = {tier, index}. Ranking maps
//                every symmetric copy of a position to one canonical index, so copies
//                share a key (and their value): the table serves all of them. Within a
//                tier the key is exact (the mix is a bijection of the index); across
//                tiers two keys collide with probability 2^-64, as Zobrist keys do.
//                Only positions that are not over have one (rank's precondition).
//   exact(pos)   a hash of the position itself. Repetition is a rule about the same
//                position, not about a mirror image of it, so the path compares these
//                (and the positions themselves where they can be compared).
//
// The path of the current line keeps the positions from the root, their exact hashes
// and a hash of the whole line so far: a result that depends on the line (docs/SEARCH.md)
// is stored under that hash, and read back only on the very same line.
#include <concepts>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/game.h"

namespace gs::search {

// The splitmix64 finalizer: a bijection of 64-bit words that spreads every input bit.
inline constexpr std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

inline std::uint64_t key_of(const Ranked& ranked) {
  const std::uint64_t k = mix(ranked.index ^ mix(ranked.tier + 0x9e3779b97f4a7c15ULL));
  return k == 0 ? 1 : k;  // 0 marks an empty table slot
}

template <Game G>
std::uint64_t key(const G& game, const typename G::Position& pos) {
  return key_of(game.rank(pos));
}

template <Game G>
std::uint64_t exact(const G& game, const typename G::Position& pos) {
  using Position = typename G::Position;
  if constexpr (std::has_unique_object_representations_v<Position>) {
    // Equal positions have equal bytes: hash the bytes, eight at a time.
    unsigned char bytes[sizeof(Position)];
    std::memcpy(bytes, &pos, sizeof(Position));
    std::uint64_t h = sizeof(Position);
    for (std::size_t at = 0; at < sizeof(Position); at += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes + at, std::min<std::size_t>(8, sizeof(Position) - at));
      h = mix(h ^ word) + at;
    }
    return mix(h);
  } else {
    // Padding bytes may differ between equal positions: the text is exact.
    return mix(std::hash<std::string>{}(game.position_text(pos)));
  }
}

template <Game G>
bool same_position(const typename G::Position& a, const typename G::Position& b) {
  if constexpr (std::equality_comparable<typename G::Position>) {
    return a == b;
  } else {
    return true;  // the exact hashes agreed
  }
}

// The line from the root to the current node.
template <Game G>
class Path {
 public:
  using Position = typename G::Position;
  static constexpr int kNone = -1;

  void clear() { entries_.clear(); }
  void push(const Position& pos, std::uint64_t exact_hash) {
    const std::uint64_t before = entries_.empty() ? 0x2545f4914f6cdd1dULL : entries_.back().line;
    entries_.push_back({pos, exact_hash, mix(before + exact_hash)});
  }
  void pop() { entries_.pop_back(); }
  [[nodiscard]] int size() const { return static_cast<int>(entries_.size()); }
  [[nodiscard]] const Position& at(int ply) const { return entries_[static_cast<std::size_t>(ply)].pos; }
  // The hash of the line so far, and of the line extended by a position.
  [[nodiscard]] std::uint64_t line() const { return entries_.empty() ? 0 : entries_.back().line; }
  [[nodiscard]] std::uint64_t line_with(std::uint64_t exact_hash) const {
    const std::uint64_t before = entries_.empty() ? 0x2545f4914f6cdd1dULL : entries_.back().line;
    return mix(before + exact_hash);
  }

  // The ply of the earlier occurrence of pos on the line, or kNone.
  [[nodiscard]] int repetition(const Position& pos, std::uint64_t exact_hash) const {
    for (int ply = size() - 1; ply >= 0; --ply) {
      const Entry& entry = entries_[static_cast<std::size_t>(ply)];
      if (entry.exact == exact_hash && same_position<G>(entry.pos, pos)) return ply;
    }
    return kNone;
  }

  [[nodiscard]] std::vector<Position> positions() const {
    std::vector<Position> out;
    out.reserve(entries_.size());
    for (const Entry& entry : entries_) out.push_back(entry.pos);
    return out;
  }

 private:
  struct Entry {
    Position pos;
    std::uint64_t exact;
    std::uint64_t line;
  };
  std::vector<Entry> entries_;
};

}  // namespace gs::search
