#pragma once
// Ultra database files (docs/FORMAT.md, "Ultra files"): one file per tier with the
// multi-valued retrograde analysis' values (retro/ultra_value.h), beside the strong
// databases in <variant directory>/ultra-<heuristic>/, with the sector ranks of the
// heuristic in ranks.txt there.
//
//   bytes   field
//   0..7    magic "GSULTRA\n"
//   8..11   format version (1), little-endian
//   12..15  length T of the header text
//   16..    header text: "key=value" lines (game, variant, rules, heuristic, tier,
//           tier_name, positions, win, ranks_checksum)
//   16+T    XXH3-64 of bytes 0..16+T-1
//   +8      compressed size C of the values
//   +8      XXH3-64 of the uncompressed values
//   +8      the values, zstd-compressed: one little-endian 32-bit word per index, the
//           relative first key (int16) in the high half and the depth (int16) in the
//           low half; 0x80000000 for a hole
//
// Files are written atomically; a reader checks both checksums and every field against
// what it expects, and throws gs::Error naming the file otherwise.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/value.h"

namespace gs::db {

inline constexpr std::string_view kUltraSuffix = ".gsultra";

struct UltraHeader {
  std::string game;
  std::string variant;
  std::string rules;
  std::string heuristic;
  Tier tier = 0;
  std::string tier_name;
  std::uint64_t positions = 0;
  std::int32_t win = 0;              // the win key M (retro/ultra_value.h)
  std::uint64_t ranks_checksum = 0;  // XXH3-64 of ranks.txt's text
  bool operator==(const UltraHeader&) const = default;
};

struct UltraFile {
  UltraHeader header;
  std::vector<std::uint32_t> cells;
};

// XXH3-64 of a text (the ranks file's checksum).
std::uint64_t ultra_text_checksum(const std::string& text);

// Writes a tier's values atomically.
void write_ultra_tier(const std::filesystem::path& path, const UltraHeader& header,
                      std::span<const std::uint32_t> cells);

// Reads a whole file; throws gs::Error naming the file where it is damaged or its header
// differs from `expected`.
UltraFile read_ultra_tier(const std::filesystem::path& path, const UltraHeader& expected);

// Reads the header only (checked by its checksum), for a build that skips good files.
UltraHeader read_ultra_header(const std::filesystem::path& path);

}  // namespace gs::db
