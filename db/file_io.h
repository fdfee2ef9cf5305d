#pragma once
// What the readers and writers of both file versions share: little-endian fields,
// fixed-size text fields, a read-only file mapping and atomic writing.
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "db/tier_file.h"

namespace gs::db::io {

inline constexpr std::array<char, 8> kMagic = {'G', 'S', 'D', 'B', '\r', '\n', '\x1a', '\n'};

inline void put_u64(std::uint8_t* at, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) at[i] = static_cast<std::uint8_t>(value >> (8 * i));
}
inline std::uint64_t get_u64(const std::uint8_t* at) {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value |= static_cast<std::uint64_t>(at[i]) << (8 * i);
  return value;
}
inline void put_u16(std::uint8_t* at, std::uint16_t value) {
  at[0] = static_cast<std::uint8_t>(value & 0xFF);
  at[1] = static_cast<std::uint8_t>(value >> 8);
}
inline std::uint16_t get_u16(const std::uint8_t* at) {
  return static_cast<std::uint16_t>(at[0] | (at[1] << 8));
}
inline std::uint32_t get_u32(const std::uint8_t* at) {
  return at[0] | (at[1] << 8) | (at[2] << 16) | (static_cast<std::uint32_t>(at[3]) << 24);
}
// Writes text into a zero-filled field; throws gs::Error if it does not fit.
void put_text(std::uint8_t* at, std::size_t size, const std::string& text, const char* field);
inline std::string get_text(const std::uint8_t* at, std::size_t size) {
  const auto* begin = reinterpret_cast<const char*>(at);
  return {begin, strnlen(begin, size)};
}

// The header fields both versions share (bytes 0..203: magic, version, header size,
// names, tier, counts, longest win and loss) and the header checksum (bytes 248..255).
void encode_common_header(const TierHeader& header, std::uint32_t version, std::uint8_t* bytes);
void seal_header(std::uint8_t* bytes);
// Checks the header checksum and reads the shared fields; throws gs::Error naming file.
TierHeader decode_common_header(const std::uint8_t* bytes, const std::string& file);

// A whole file mapped read-only; throws gs::Error naming the file if it cannot be.
class MappedFile {
 public:
  explicit MappedFile(const std::string& name);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  [[nodiscard]] const std::uint8_t* data() const { return data_; }
  [[nodiscard]] std::uint64_t size() const { return size_; }

 private:
  const std::uint8_t* data_ = nullptr;
  std::uint64_t size_ = 0;
};

// Writes all bytes to fd; throws gs::Error naming the file.
void write_all(int fd, const std::uint8_t* data, std::size_t size, const std::string& file);
// Writes all bytes to fd at `offset` (the file's position unchanged); throws gs::Error
// naming the file.
void write_all_at(int fd, const std::uint8_t* data, std::size_t size, std::uint64_t offset,
                  const std::string& file);

// Creates path's directory, calls write(fd, temp name) on a temporary file beside path,
// syncs it and renames it to path (then syncs the directory). On any error the temporary
// is removed and gs::Error thrown; path is then untouched. Within a SyncBatch the file
// is renamed without waiting for the disk.
void write_atomically(const std::filesystem::path& path,
                      const std::function<void(int, const std::string&)>& write);

// While a SyncBatch lives, write_atomically renames files without syncing them (a
// process killed at any moment still leaves each file whole or absent: the rename comes
// after the last write); finish() then syncs every file system written to (syncfs) and
// the directories, waiting for the disk once instead of twice per file. A machine that
// crashes before finish() may keep a damaged file under its final name: readers check
// every block's checksum (an error, never a wrong value) and a resumed build checks
// every block of a file before it keeps the file (tier_file_good). Batches may overlap
// (two builds in one process): files are synced once every batch open when they were
// written has finished.
class SyncBatch {
 public:
  SyncBatch();
  ~SyncBatch();  // without finish(): syncs, ignoring errors
  SyncBatch(const SyncBatch&) = delete;
  SyncBatch& operator=(const SyncBatch&) = delete;
  // Syncs what the batch wrote; throws gs::Error naming a directory that fails.
  void finish();

 private:
  bool finished_ = false;
};

// Throws gs::Error naming the file if the header is not of the expected tier.
void check_expected(const TierHeader& header, const Expected& expected, const std::string& name);
// Sets the header's position count, outcome counts and longest depths from the codes.
void count_values(TierHeader& header, std::span<const ValueCode> codes);
// The reader of a format v2 file whose magic and version have been read (block_file.cpp).
// Reads versions 2 and 3 (the same layout).
std::unique_ptr<TierReader> open_tier_v2(std::string name, std::unique_ptr<MappedFile> file,
                                         const Expected& expected, bool check_values, Resolver resolver);

}  // namespace gs::db::io
