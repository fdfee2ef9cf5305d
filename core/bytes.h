#pragma once
// An amount of memory or disk for messages: "512 bytes", "10.0 KiB", "3.5 MiB", "1.25 GiB",
// so that a small budget does not read "0.000 GiB".
#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace gs {

inline std::string bytes_text(std::uint64_t bytes) {
  constexpr std::uint64_t kKiB = 1024;
  const auto in = [bytes](std::uint64_t unit) {
    return static_cast<double>(bytes) / static_cast<double>(unit);
  };
  if (bytes < kKiB) return fmt::format("{} bytes", bytes);
  if (bytes < kKiB * kKiB) return fmt::format("{:.1f} KiB", in(kKiB));
  if (bytes < kKiB * kKiB * kKiB) return fmt::format("{:.1f} MiB", in(kKiB * kKiB));
  return fmt::format("{:.2f} GiB", in(kKiB * kKiB * kKiB));
}

}  // namespace gs
