#pragma once
// Database files, format version 1: one file per tier, a fixed header and one value
// code per index, uncompressed.
//
//   offset  size  field
//        0     8  magic "GSDB\r\n\x1a\n"
//        8     4  format version (1)
//       12     4  header size (256)
//       16    16  game name
//       32    32  variant
//       64    64  rule options that differ from the defaults ("" if none)
//      128     8  tier id
//      136    24  tier name
//      160     8  number of indices
//      168    32  wins, draws, losses, holes (8 bytes each)
//      200     2  longest win (plies)
//      202     2  longest loss (plies)
//      204     1  bytes per value code (1 or 2, little-endian)
//      208     8  XXH3-64 of the values
//      248     8  XXH3-64 of header bytes 0..247
//      256        values, one code per index (core/value.h)
//
// All integers are little-endian. A file is written to a temporary name, synced and then
// renamed, so a file under its final name is always complete; a reader checks the size,
// both checksums and that the header names the game, rules and tier it expects.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

#include "core/value.h"

namespace gs::db {

inline constexpr std::uint32_t kFormatVersion = 1;
inline constexpr std::size_t kHeaderSize = 256;
inline constexpr std::string_view kFileSuffix = ".gsdb";

struct TierHeader {
  std::string game;
  std::string variant;
  std::string rules;
  Tier tier = 0;
  std::string tier_name;
  std::uint64_t positions = 0;  // indices, holes included
  std::uint64_t wins = 0;
  std::uint64_t draws = 0;
  std::uint64_t losses = 0;
  std::uint64_t holes = 0;
  Depth longest_win = 0;
  Depth longest_loss = 0;
  std::uint8_t value_bytes = 1;
  std::uint64_t values_checksum = 0;
};

// What a reader must find in a header.
struct Expected {
  std::string game;
  std::string variant;
  std::string rules;
  Tier tier = 0;
  std::uint64_t positions = 0;
};

// Random access to the values of one tier. The retrograde engine, verification and
// probing only use this interface, so the block-compressed format can replace the
// plain one behind it.
class TierReader {
 public:
  virtual ~TierReader() = default;
  [[nodiscard]] virtual ValueCode code(Index index) const = 0;
  [[nodiscard]] virtual const TierHeader& header() const = 0;
  [[nodiscard]] virtual std::uint64_t file_bytes() const = 0;
};

// Opens a tier file and checks it; throws gs::Error naming the file and what is wrong.
// With check_values the values' checksum is verified too (one pass over the file).
std::unique_ptr<TierReader> open_tier(const std::filesystem::path& path, const Expected& expected,
                                      bool check_values);

// Writes a tier file atomically. The header's counts and checksum are computed here
// from the codes. Throws gs::Error (a full disk among others) and leaves no file.
TierHeader write_tier(const std::filesystem::path& path, TierHeader header, std::span<const ValueCode> codes);

// Removes the temporary files that killed writers of the file at path left behind; the
// temporary of a process that still runs is left alone.
void remove_stale_temporaries(const std::filesystem::path& path);

// Whether a complete, consistent file for the expected tier is at path.
bool tier_file_good(const std::filesystem::path& path, const Expected& expected);

}  // namespace gs::db
