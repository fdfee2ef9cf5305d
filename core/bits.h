#pragma once
// Bit sets of up to 32 squares or points: a set's members within another set packed
// together, and back. BMI2's pext and pdep where the build targets a machine that has
// them (GAMESOLVER_NATIVE); portable code, giving the same results, otherwise: a byte at a
// time through tables of every byte of the set within every byte of the mask.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#ifdef __BMI2__
#include <immintrin.h>
#endif

namespace gs {

#ifndef __BMI2__
// Both directions by bytes, made at start-up in one loop (128 KiB: too long a loop for a
// compiler's constant evaluation): packed[within][set] is extract's byte, the members of
// `set` within `within` packed together; spread[within][bits] is deposit's, the low bits
// of `bits` placed on the members of `within` in order.
struct ByteTables {
  std::array<std::array<std::uint8_t, 256>, 256> packed{};
  std::array<std::array<std::uint8_t, 256>, 256> spread{};
  ByteTables() {
    for (std::size_t within = 0; within < 256; ++within) {
      for (std::size_t value = 0; value < 256; ++value) {
        unsigned pack = 0;
        unsigned place = 0;
        int k = 0;  // the members of `within` below t
        for (int t = 0; t < 8; ++t) {
          if ((within >> t & 1U) == 0) continue;
          if ((value >> t & 1U) != 0) pack |= 1U << k;
          if ((value >> k & 1U) != 0) place |= 1U << t;
          ++k;
        }
        packed[within][value] = static_cast<std::uint8_t>(pack);
        spread[within][value] = static_cast<std::uint8_t>(place);
      }
    }
  }
};
inline const ByteTables kBytes;
#endif

// The members of `set` within `within` packed together (bit i: whether the i-th member
// of `within` is in `set`), as pext does.
inline std::uint32_t extract(std::uint32_t set, std::uint32_t within) {
#ifdef __BMI2__
  return _pext_u32(set, within);
#else
  std::uint32_t out = 0;
  int shift = 0;
  for (; within != 0; set >>= 8, within >>= 8) {
    out |= static_cast<std::uint32_t>(kBytes.packed[within & 0xFFU][set & 0xFFU]) << shift;
    shift += std::popcount(within & 0xFFU);
  }
  return out;
#endif
}

// The inverse of extract: bit i of `packed` placed on the i-th member of `within`, as
// pdep does. Without BMI2, a byte of `within` at a time, each taking as many of the packed
// bits as it has members: four table loads and no branch on the bits, where a loop over
// the packed bits mispredicted at every member.
inline std::uint32_t deposit(std::uint32_t packed, std::uint32_t within) {
#ifdef __BMI2__
  return _pdep_u32(packed, within);
#else
  std::uint32_t out = 0;
  for (int shift = 0; shift < 32; shift += 8) {
    const std::uint32_t byte = within >> shift & 0xFFU;
    out |= static_cast<std::uint32_t>(kBytes.spread[byte][packed & 0xFFU]) << shift;
    packed >>= std::popcount(byte);
  }
  return out;
#endif
}

}  // namespace gs
