#pragma once
// Sorting 32-bit keys by their digits, least significant first (LSD radix sort): a few
// passes of counting and scattering, linear in the number of keys, where a comparison
// sort makes log2(n) passes. The retrograde solver sorts each level's indices with it.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace gs {

inline constexpr int kRadixDigit = 11;

// One pass: the n keys of `from` scattered into `to` by their digit at `shift`.
inline void radix_pass(const std::uint32_t* from, std::uint32_t* to, std::size_t n, int shift) {
  constexpr std::uint32_t kBuckets = 1U << kRadixDigit;
  std::array<std::size_t, kBuckets> start{};
  for (std::size_t i = 0; i < n; ++i) ++start[(from[i] >> shift) & (kBuckets - 1)];
  std::size_t total = 0;
  for (std::size_t& count : start) total += std::exchange(count, total);
  for (std::size_t i = 0; i < n; ++i) to[start[(from[i] >> shift) & (kBuckets - 1)]++] = from[i];
}

// Sorts keys ascending in place (a whole vector, or a part of a larger array); every key
// must be below 2^bits. buffer is scratch, resized to keys' size (kept by the caller to
// save allocations); an odd number of passes ends with a copy back from it. With `low`
// above 0, the keys are ordered by their bits from `low` up only, keys equal there
// keeping their order (fewer passes, where nearness is all the caller needs).
inline void radix_sort(std::span<std::uint32_t> keys, std::vector<std::uint32_t>& buffer, int bits,
                       int low = 0) {
  if (keys.size() < 2 || low >= bits) return;
  buffer.resize(keys.size());
  std::uint32_t* from = keys.data();
  std::uint32_t* to = buffer.data();
  for (int shift = low; shift < bits; shift += kRadixDigit) {
    radix_pass(from, to, keys.size(), shift);
    std::swap(from, to);
  }
  if (from != keys.data()) std::copy(from, from + keys.size(), keys.data());
}

// The number of bits of the largest key below `limit`.
inline int key_bits(std::uint64_t limit) {
  return limit < 2 ? 0 : static_cast<int>(std::bit_width(limit - 1));
}

}  // namespace gs
