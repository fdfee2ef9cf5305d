#pragma once
// Bit sets of up to 32 squares or points: a set's members within another set packed
// together, and back. BMI2's pext and pdep where the build targets a machine that has
// them (GAMESOLVER_NATIVE); portable code, giving the same results, otherwise.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#ifdef __BMI2__
#include <immintrin.h>
#endif

namespace gs {

#ifndef __BMI2__
// extract by bytes: [within byte][set byte] (64 KiB, made at start-up: too long a loop
// for a compiler's constant evaluation).
struct ExtractTable {
  std::array<std::array<std::uint8_t, 256>, 256> packed{};
  ExtractTable() {
    for (std::size_t within = 0; within < 256; ++within) {
      for (std::size_t set = 0; set < 256; ++set) {
        unsigned out = 0;
        int k = 0;
        for (int t = 0; t < 8; ++t) {
          if ((within >> t & 1U) == 0) continue;
          if ((set >> t & 1U) != 0) out |= 1U << k;
          ++k;
        }
        packed[within][set] = static_cast<std::uint8_t>(out);
      }
    }
  }
};
inline const ExtractTable kExtract;
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
    out |= static_cast<std::uint32_t>(kExtract.packed[within & 0xFFU][set & 0xFFU]) << shift;
    shift += std::popcount(within & 0xFFU);
  }
  return out;
#endif
}

// The inverse of extract: bit i of `packed` placed on the i-th member of `within`, as
// pdep does (a loop over the packed bits without BMI2).
inline std::uint32_t deposit(std::uint32_t packed, std::uint32_t within) {
#ifdef __BMI2__
  return _pdep_u32(packed, within);
#else
  std::uint32_t out = 0;
  for (; packed != 0 && within != 0; packed >>= 1, within &= within - 1) {
    if ((packed & 1U) != 0) out |= within & (~within + 1);
  }
  return out;
#endif
}

}  // namespace gs
