#pragma once
// A duration for progress lines: "0m07s", "1m20s", "2h03m", "3d04h".
#include <fmt/format.h>

#include <string>

namespace gs {

inline std::string duration_text(double seconds) {
  const auto s = seconds > 0 ? static_cast<long long>(seconds) : 0LL;
  if (s >= 86400) return fmt::format("{}d{:02}h", s / 86400, s / 3600 % 24);
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, s / 60 % 60);
  return fmt::format("{}m{:02}s", s / 60, s % 60);
}

}  // namespace gs
