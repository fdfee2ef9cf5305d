#pragma once
// Removing repeated indices from the short lists of the retrograde solver's inner loops
// (a position's successors or predecessors where a symmetry may make two coincide): in
// time linear in the list's length, through a small open-addressed set per thread, where
// a sort of tens of elements would cost more than the moves themselves.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace gs {

// Moves each distinct value of [begin, end) to the front once, in the order of its first
// occurrence, and returns the end of those.
template <class T>
T* unique_short(T* begin, T* end) {
  if (end - begin < 2) return end;  // often: a list of none or one needs no set
  constexpr int kBits = 8;
  constexpr std::size_t kSlots = std::size_t{1} << kBits;
  // Longer lists than this fill the set too far: sorted instead.
  if (static_cast<std::size_t>(end - begin) > kSlots / 2) {
    std::sort(begin, end);
    return std::unique(begin, end);
  }
  // A slot is in use when its stamp is this call's: nothing is cleared between calls.
  struct Set {
    std::array<T, kSlots> value{};
    std::array<std::uint32_t, kSlots> stamp{};
    std::uint32_t now = 0;
  };
  thread_local Set set;
  if (++set.now == 0) {
    set.stamp.fill(0);
    set.now = 1;
  }
  T* out = begin;
  for (T* it = begin; it != end; ++it) {
    const T x = *it;
    std::size_t slot =
        static_cast<std::size_t>((static_cast<std::uint64_t>(x) * 0x9E3779B97F4A7C15ULL) >> (64 - kBits));
    bool seen = false;
    while (set.stamp[slot] == set.now) {
      if (set.value[slot] == x) {
        seen = true;
        break;
      }
      slot = (slot + 1) & (kSlots - 1);
    }
    if (seen) continue;
    set.stamp[slot] = set.now;
    set.value[slot] = x;
    *out++ = x;
  }
  return out;
}

}  // namespace gs
