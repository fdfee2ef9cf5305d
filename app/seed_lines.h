#pragma once
// `prove --seed-file FILE`: lines of moves from the position to prove, one line of moves
// per line of the file (moves separated by spaces; blank lines and lines starting with
// '#' are passed over). The manager works on their positions deepest first
// (prove/manager.h).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gs::app {

// The largest seed file read (its lines are held in memory).
inline constexpr std::uintmax_t kSeedFileLimit = std::uintmax_t{16} << 20;

// The lines of moves of a seed file; throws gs::Error where it cannot be read or is over
// kSeedFileLimit bytes.
std::vector<std::vector<std::string>> read_seed_lines(const std::filesystem::path& path);

}  // namespace gs::app
