#pragma once
// Bit sets of up to 32 squares or points: a set's members within another set packed
// together, and back. BMI2's pext and pdep where the build targets a machine that has
// them (GAMESOLVER_NATIVE). A portable x86-64 build asks the processor once, at start-up,
// and uses the same two instructions where it does them in hardware (kFastBmi2);
// otherwise, and on other processors, portable code giving the same results: a byte at a
// time through tables of every byte of the set within every byte of the mask.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#ifdef __BMI2__
#include <immintrin.h>
#elif defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#define GS_BMI2_AT_RUN_TIME 1
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

// extract and deposit through the tables.
inline std::uint32_t extract_by_bytes(std::uint32_t set, std::uint32_t within) {
  std::uint32_t out = 0;
  int shift = 0;
  for (; within != 0; set >>= 8, within >>= 8) {
    out |= static_cast<std::uint32_t>(kBytes.packed[within & 0xFFU][set & 0xFFU]) << shift;
    shift += std::popcount(within & 0xFFU);
  }
  return out;
}
// A byte of `within` at a time, each taking as many of the packed bits as it has
// members: four table loads and no branch on the bits, where a loop over the packed bits
// mispredicted at every member.
inline std::uint32_t deposit_by_bytes(std::uint32_t packed, std::uint32_t within) {
  std::uint32_t out = 0;
  for (int shift = 0; shift < 32; shift += 8) {
    const std::uint32_t byte = within >> shift & 0xFFU;
    out |= static_cast<std::uint32_t>(kBytes.spread[byte][packed & 0xFFU]) << shift;
    packed >>= std::popcount(byte);
  }
  return out;
}
#endif

#ifdef GS_BMI2_AT_RUN_TIME
// Whether the processor has BMI2 at all (CPUID leaf 7, EBX bit 8).
inline bool has_bmi2() {
  unsigned a = 0;
  unsigned b = 0;
  unsigned c = 0;
  unsigned d = 0;
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) != 0 && (b >> 8 & 1U) != 0;
}
// Whether it does pext and pdep in hardware: BMI2, but not on AMD's (or Hygon's)
// processors before family 19h (Zen 3), which run them as microcode of some hundred
// cycles, slower than the tables.
inline bool detect_fast_bmi2() {
  if (!has_bmi2()) return false;
  unsigned a = 0;
  std::array<unsigned, 3> vendor{};  // EBX, EDX, ECX of leaf 0: the vendor's name
  if (__get_cpuid(0, &a, &vendor[0], &vendor[2], &vendor[1]) == 0) return false;
  std::array<char, 12> name{};
  std::memcpy(name.data(), vendor.data(), name.size());
  const std::string_view maker(name.data(), name.size());
  if (maker != "AuthenticAMD" && maker != "HygonGenuine") return true;
  unsigned b = 0;
  unsigned c = 0;
  unsigned d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0) return false;
  unsigned family = a >> 8 & 0xFU;
  if (family == 0xFU) family += a >> 20 & 0xFFU;
  return family >= 0x19U;
}
inline const bool kFastBmi2 = detect_fast_bmi2();
// The instructions themselves, which the assembler takes whatever the build targets.
inline std::uint32_t pext_instruction(std::uint32_t set, std::uint32_t within) {
  std::uint32_t out = 0;
  __asm__("pextl %2, %1, %0" : "=r"(out) : "r"(set), "rm"(within));
  return out;
}
inline std::uint32_t pdep_instruction(std::uint32_t packed, std::uint32_t within) {
  std::uint32_t out = 0;
  __asm__("pdepl %2, %1, %0" : "=r"(out) : "r"(packed), "rm"(within));
  return out;
}
#endif

// The members of `set` within `within` packed together (bit i: whether the i-th member
// of `within` is in `set`), as pext does.
inline std::uint32_t extract(std::uint32_t set, std::uint32_t within) {
#ifdef __BMI2__
  return _pext_u32(set, within);
#else
#ifdef GS_BMI2_AT_RUN_TIME
  if (kFastBmi2) return pext_instruction(set, within);
#endif
  return extract_by_bytes(set, within);
#endif
}

// The inverse of extract: bit i of `packed` placed on the i-th member of `within`, as
// pdep does.
inline std::uint32_t deposit(std::uint32_t packed, std::uint32_t within) {
#ifdef __BMI2__
  return _pdep_u32(packed, within);
#else
#ifdef GS_BMI2_AT_RUN_TIME
  if (kFastBmi2) return pdep_instruction(packed, within);
#endif
  return deposit_by_bytes(packed, within);
#endif
}

}  // namespace gs
