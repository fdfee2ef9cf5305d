#pragma once
// Sorting 32-bit keys by their digits, least significant first (LSD radix sort): a few
// passes of counting and scattering, linear in the number of keys, where a comparison
// sort makes log2(n) passes. The retrograde solver sorts each level's indices with it.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "core/block_list.h"

namespace gs {

inline constexpr int kRadixDigit = 11;

// One pass: the keys of `from`, which calls visit(keys, count) for each of its runs of
// keys in order, scattered into `to` by their digit at `shift`.
template <class Runs>
void radix_pass_runs(const Runs& from, std::uint32_t* to, int shift) {
  constexpr std::uint32_t kBuckets = 1U << kRadixDigit;
  std::array<std::size_t, kBuckets> start{};
  from([&](const std::uint32_t* keys, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) ++start[(keys[i] >> shift) & (kBuckets - 1)];
  });
  std::size_t total = 0;
  for (std::size_t& count : start) total += std::exchange(count, total);
  from([&](const std::uint32_t* keys, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) to[start[(keys[i] >> shift) & (kBuckets - 1)]++] = keys[i];
  });
}

// One pass: the n keys of `from` scattered into `to` by their digit at `shift`.
inline void radix_pass(const std::uint32_t* from, std::uint32_t* to, std::size_t n, int shift) {
  radix_pass_runs([&](auto&& visit) { visit(from, n); }, to, shift);
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

// The keys of `list` sorted into `out` (of the list's size), ordered as radix_sort orders
// them; the list's blocks go back to `pool` once read. The first pass reads the blocks,
// and the passes alternate between `out` and a buffer of the list's size (not zeroed) so
// that the last one writes `out`: no copy is made of the list first, nor of the buffer after,
// and the keys are held at most twice at any time (blocks and one array, then both
// arrays).
inline void radix_sort_into(BlockList& list, BlockPool& pool, std::span<std::uint32_t> out, int bits,
                            int low = 0) {
  const int passes = low >= bits ? 0 : (bits - low + kRadixDigit - 1) / kRadixDigit;
  if (passes == 0 || list.size() < 2) {
    std::uint32_t* to = out.data();
    list.for_each_block(
        [&](const std::uint32_t* keys, std::size_t n) { to = std::copy(keys, keys + n, to); });
    list.release(pool);
    return;
  }
  const std::size_t size = list.size();
  const auto buffer = std::make_unique_for_overwrite<std::uint32_t[]>(passes > 1 ? size : 0);
  // With an odd number of passes the first writes `out`, with an even one `buffer`.
  std::uint32_t* to = passes % 2 == 1 ? out.data() : buffer.get();
  std::uint32_t* other = passes % 2 == 1 ? buffer.get() : out.data();
  radix_pass_runs([&](auto&& visit) { list.for_each_block(visit); }, to, low);
  list.release(pool);
  for (int shift = low + kRadixDigit; shift < bits; shift += kRadixDigit) {
    radix_pass(to, other, size, shift);
    std::swap(to, other);
  }
}

// The number of bits of the largest key below `limit`.
inline int key_bits(std::uint64_t limit) {
  return limit < 2 ? 0 : static_cast<int>(std::bit_width(limit - 1));
}

}  // namespace gs
