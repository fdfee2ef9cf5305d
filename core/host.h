#pragma once
// This machine's name (gethostname), or `fallback` where the system gives none: for
// temporary files' names, the holder of a directory lock, and MPI ranks' hosts.
#include <unistd.h>

#include <array>
#include <string>

namespace gs {

inline std::string host_name(const char* fallback) {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return fallback;
  return name.data();
}

}  // namespace gs
