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
#include <algorithm>
#include <concepts>
#include <cstddef>
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

  void clear() {
    entries_.clear();
    std::fill(slots_.begin(), slots_.end(), Slot{});
  }
  void push(const Position& pos, std::uint64_t exact_hash) {
    const std::uint64_t before = entries_.empty() ? 0x2545f4914f6cdd1dULL : entries_.back().line;
    if (2 * (entries_.size() + 1) > slots_.size()) grow();
    entries_.push_back({pos, exact_hash, mix(before + exact_hash), kNone, 0});
    index(entries_.size() - 1);
  }
  void pop() {
    // The push changed one slot only: putting it back undoes it (pushes and pops come
    // in stack order, so the index is then as it was before the push).
    const Entry& entry = entries_.back();
    Slot& slot = slots_[entry.slot];
    slot.ply = entry.earlier;  // kNone frees it
    entries_.pop_back();
  }
  [[nodiscard]] int size() const { return static_cast<int>(entries_.size()); }
  [[nodiscard]] const Position& at(int ply) const { return entries_[static_cast<std::size_t>(ply)].pos; }
  // The hash of the line so far, and of the line extended by a position.
  [[nodiscard]] std::uint64_t line() const { return entries_.empty() ? 0 : entries_.back().line; }
  [[nodiscard]] std::uint64_t line_with(std::uint64_t exact_hash) const {
    const std::uint64_t before = entries_.empty() ? 0x2545f4914f6cdd1dULL : entries_.back().line;
    return mix(before + exact_hash);
  }

  // The ply of the last occurrence of pos on the line, or kNone. A line without a horizon
  // can be thousands of plies long, and every child is looked for: the line's positions
  // are indexed by their exact hashes, and only those with pos's hash are compared.
  [[nodiscard]] int repetition(const Position& pos, std::uint64_t exact_hash) const {
    if (slots_.empty()) return kNone;
    int ply = slots_[find(exact_hash)].ply;
    while (ply != kNone && !same_position<G>(entries_[static_cast<std::size_t>(ply)].pos, pos))
      ply = entries_[static_cast<std::size_t>(ply)].earlier;
    return ply;
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
    int earlier;         // the ply of the last entry before this one with the same hash
    std::uint32_t slot;  // where the index keeps this entry's hash
  };
  // An open-addressing index from an exact hash to the last ply with it (kNone: free).
  struct Slot {
    std::uint64_t exact = 0;
    int ply = kNone;
  };

  // The slot of exact_hash: where it is, or the free slot where it would go. Exact
  // hashes come out of mix() (exact above): their low bits serve as they are.
  [[nodiscard]] std::size_t find(std::uint64_t exact_hash) const {
    const std::size_t mask = slots_.size() - 1;
    std::size_t at = static_cast<std::size_t>(exact_hash) & mask;
    while (slots_[at].ply != kNone && slots_[at].exact != exact_hash) at = (at + 1) & mask;
    return at;
  }
  void index(std::size_t ply) {
    Entry& entry = entries_[ply];
    const std::size_t at = find(entry.exact);
    entry.slot = static_cast<std::uint32_t>(at);
    entry.earlier = slots_[at].ply;
    slots_[at] = {entry.exact, static_cast<int>(ply)};
  }
  // Twice the slots, the line indexed again from its root.
  void grow() {
    slots_.assign(std::max<std::size_t>(256, 2 * slots_.size()), Slot{});
    for (std::size_t ply = 0; ply < entries_.size(); ++ply) index(ply);
  }

  std::vector<Entry> entries_;
  std::vector<Slot> slots_;  // a power of two, at least twice the entries
};

}  // namespace gs::search
