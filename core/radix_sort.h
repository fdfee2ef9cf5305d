#pragma once
// Sorting 32-bit keys by their digits, least significant first (LSD radix sort): a few
// passes of counting and scattering, linear in the number of keys, where a comparison
// sort makes log2(n) passes. The retrograde solver sorts each level's indices with it.
#include <array>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

namespace gs {

// Sorts keys ascending; every key must be below 2^bits. buffer is scratch, resized to
// keys' size (kept by the caller to save allocations).
inline void radix_sort(std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& buffer, int bits) {
  constexpr int kDigit = 11;
  constexpr std::uint32_t kBuckets = 1U << kDigit;
  if (keys.size() < 2) return;
  buffer.resize(keys.size());
  for (int shift = 0; shift < bits; shift += kDigit) {
    std::array<std::size_t, kBuckets> start{};
    for (const std::uint32_t key : keys) ++start[(key >> shift) & (kBuckets - 1)];
    std::size_t total = 0;
    for (std::size_t& count : start) total += std::exchange(count, total);
    for (const std::uint32_t key : keys) buffer[start[(key >> shift) & (kBuckets - 1)]++] = key;
    keys.swap(buffer);
  }
}

// The number of bits of the largest key below `limit`.
inline int key_bits(std::uint64_t limit) {
  return limit < 2 ? 0 : static_cast<int>(std::bit_width(limit - 1));
}

}  // namespace gs
