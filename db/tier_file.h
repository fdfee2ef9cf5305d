#pragma once
// Database files: one file per tier. Two formats are read, one is written:
//
// Format v2 (docs/FORMAT.md, written by build and compress): a header, a block index
// with an XXH3 checksum per block, a per-file codec table and independently compressed
// blocks of values, so that a probe decompresses one block. The table is the codec's
// (run-length alphabet, zstd dictionary), or with Codec::kZstdShared only the identity
// of a dictionary shared by the game's tiers, in a file beside them
// (db/game_dictionary.h), which open_tier reads and checks. Values are either full
// codes with depth or win/draw/loss only (db/block_codec.h). Holes may hold any value
// (the value before them, which compresses best): a reader tells a hole only by asking
// the game (unrank), never from the file. Format v3 is v2 with derivable don't-cares
// (positions the game derives from their moves, db/derivable.h, also holding a
// neighbour's value): its own version, so that a reader of v2 refuses it.
//
// Format v1 (the first engine's files, still read, converted by `gamesolver compress`):
// a fixed header and one value code per index, uncompressed:
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
// the checksums and that the header names the game, rules and tier it expects.
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/value.h"
#include "db/block_codec.h"

namespace gs::db {

inline constexpr std::uint32_t kFormatVersion = 2;  // what write_tier writes
inline constexpr std::uint32_t kFormatVersion1 = 1;
// Format v2's layout with derivable don't-cares (docs/FORMAT.md): a reader that does not
// know the game's fallback must not read such a file, so it carries a version of its own.
inline constexpr std::uint32_t kFormatVersion3 = 3;
inline constexpr std::size_t kHeaderSize = 256;  // both versions
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
  std::uint32_t version = kFormatVersion;
  std::uint8_t value_bytes = 1;       // v1: bytes per code
  std::uint64_t values_checksum = 0;  // v1: of the values; v2: of the block images
  // v2 only.
  Encoding encoding = Encoding::kDepth;
  Codec codec = Codec::kNone;
  std::uint8_t image_bits = 8;    // bits per position in a block image (2, 8 or 16)
  bool holes_filled = false;      // holes hold a neighbour's value, not kHoleCode
  bool derivable_filled = false;  // v3: the game's derivable positions hold a neighbour's value
  std::uint64_t block_positions = 0;
  std::uint64_t blocks = 0;
  std::uint64_t table_bytes = 0;  // the codec's table (run-length alphabet, zstd dictionary or its identity)
  std::uint64_t index_checksum = 0;

  // Whether the values keep their depths (a v1 file, or v2 with depth encoding).
  [[nodiscard]] bool depths() const { return version == kFormatVersion1 || encoding == Encoding::kDepth; }
};

// How write_tier stores a tier.
struct WriteOptions {
  Encoding encoding = Encoding::kDepth;
  std::optional<Codec> codec;         // nullopt: whichever gives the smallest file ("auto")
  std::uint64_t block_positions = 0;  // a power of two; 0: block_bytes
  std::size_t block_bytes = 0;        // bytes of image per block; 0: chosen per file, kBlockBytesChoices
  int zstd_level = 19;
  std::optional<bool> dictionary;  // zstd with a dictionary trained on the tier; nullopt: if smaller
  // A game dictionary's codec (shared_zstd_codec, of this encoding, at zstd_level; its
  // file written beside the tier's, db/game_dictionary.h): tried beside zstd's other
  // forms, the file then names it (Codec::kZstdShared). Null: not tried.
  std::shared_ptr<const BlockCodec> game_dictionary;
  bool fill_holes = true;  // give holes the value before them (else they stay kHoleCode)
  // The game's derivable positions (core/game.h) by tier and index, given the value
  // before them like holes (the file is then format v3); empty: every value is stored.
  // Called from several threads at once.
  std::function<bool(Tier, Index)> derivable;
  int threads = 0;  // 0: every core; the file is the same for any count
};
inline constexpr std::size_t kDefaultBlockBytes = 16384;
// The block sizes (bytes of image) write_tier tries when it chooses: the one giving the
// smallest file (blocks, index and table) wins; the largest is kDefaultBlockBytes, which
// bounds what a cold probe decompresses.
inline constexpr std::array<std::size_t, 3> kBlockBytesChoices = {1024, 4096, 16384};

// Gives the derivable positions of a block their values (the reader of a file with
// derivable don't-cares, db/database.h): called with the first index of a block and
// its codes, it replaces the codes of the derivable positions with their values.
using Resolver = std::function<void(Index first, std::span<ValueCode> codes)>;

// What a reader must find in a header.
struct Expected {
  std::string game;
  std::string variant;
  std::string rules;
  Tier tier = 0;
  std::uint64_t positions = 0;
  // The game's names of tiers, for errors ("holds tier D-r, expected tier E-r"); without
  // it, tiers are named by number.
  std::function<std::string(Tier)> tier_name;
};

// Random access to the values of one tier, in either format.
//
// code(index) serves the retrograde engine and verification, which read child tiers at
// random: a v2 reader decompresses a block on its first use into its place in one
// mapping of the whole tier's values (asking for huge pages, core/page_memory.h) and
// keeps it for the reader's life (one atomic state per block: a thread that asks for a
// block another is decompressing waits for it), so memory_bytes() is what a reader may
// hold. The Prober (db/prober.h) reads blocks through its own bounded cache
// instead, with read_block().
//
// A damaged block is reported when it is first read: gs::Error naming the file and the
// block, never a wrong value. Holes may read as any value in v2 files.
class TierReader {
 public:
  virtual ~TierReader() = default;
  [[nodiscard]] virtual ValueCode code(Index index) const = 0;
  // A hint that code(index) is asked for soon: starts loading its memory where that is
  // at hand (a block already decompressed, a mapped file). Never fails, reads nothing.
  virtual void prefetch(Index index) const { (void)index; }
  [[nodiscard]] virtual const TierHeader& header() const = 0;
  [[nodiscard]] virtual const std::string& path() const = 0;
  [[nodiscard]] virtual std::uint64_t file_bytes() const = 0;
  // The memory reading every value may take: the mapped file and decompressed blocks.
  [[nodiscard]] virtual std::uint64_t memory_bytes() const = 0;
  // Decompresses every block (on `threads` threads) and gives the image of the whole
  // tier, header().image_bits per index in index order, so that code(i) is
  // image_symbol(image, bits, i) without a call per value; nullptr where the reader keeps
  // no such image (it is then read through code()). The image lives as long as the
  // reader. Fails as code() does on a damaged block.
  [[nodiscard]] virtual const std::uint8_t* load_image(int threads) const {
    (void)threads;
    return nullptr;
  }

  // Blocks (v2). A v1 file has no blocks: its mapped values are read by code() directly.
  [[nodiscard]] bool has_blocks() const { return header().version != kFormatVersion1; }
  // Decompresses block `block` (checking its checksum) into image (resized to fit).
  virtual void read_block(std::uint64_t block, std::vector<std::uint8_t>& image) const = 0;
  // Checks every block's checksum and, with decompress, that every block decompresses
  // to images with the checksum of the header (v1: the values' checksum); throws
  // gs::Error naming the file and the first bad block.
  virtual void check(bool decompress) const = 0;
};

// Opens a tier file of either version and checks the header, its checksum, the file's
// size and (v2) the block index; throws gs::Error naming the file and what is wrong.
// With check_values every block's (v1: the values') checksum is verified too, one pass
// over the file.
//
// A file with derivable don't-cares (v3) read without a resolver hands out what it
// stores there, like a hole's filler (the Prober derives those values itself); with
// one, code() gives every position its value: each block is resolved once, on load.
std::unique_ptr<TierReader> open_tier(const std::filesystem::path& path, const Expected& expected,
                                      bool check_values, Resolver resolver = {});

// Writes a tier file in format v2, atomically. The header's counts and checksums are
// computed here from the codes (one per index, kHoleCode for holes); with the win/draw/
// loss encoding only outcomes are kept. Every block is decompressed again and compared
// before the file is renamed into place. Throws gs::Error (a full disk among others)
// and leaves no file.
//
// choice, if not null, receives what the chosen codec saves over the others, as estimated
// from the sample the choice was made on (compress --dictionary game keeps the game
// dictionary only if the files that chose it save more than its own file costs).
struct WriteChoice {
  std::uint64_t bytes = 0;  // the chosen codec's estimate of the file (header excepted)
  // The smallest estimate without the game dictionary; max if nothing else was tried.
  std::uint64_t without_game_dictionary = 0;
};
TierHeader write_tier(const std::filesystem::path& path, TierHeader header, std::span<const ValueCode> codes,
                      const WriteOptions& options = {}, WriteChoice* choice = nullptr);
// The memory write_tier holds beside the codes, at most: the blocks being made (a batch
// of images and their compressed forms), the index, the samples on which the codec and
// block size are chosen, and a bit per position for the game's derivable positions.
std::uint64_t write_tier_bytes(std::uint64_t positions, const WriteOptions& options);

// What a game dictionary is trained on from one tier (db/game_dictionary.h): images of
// pieces of up to kDictionarySampleBytes, evenly spaced, budget_bytes in all at most (one
// piece at least), of the values as write_tier with these options would store them.
inline constexpr std::uint64_t kDictionarySampleBytes = 4096;
std::vector<std::vector<std::uint8_t>> dictionary_samples(const TierHeader& header,
                                                          std::span<const ValueCode> codes,
                                                          const WriteOptions& options,
                                                          std::uint64_t budget_bytes);

// Writes a tier file in format v1 (for tests of old files and of their conversion).
TierHeader write_tier_v1(const std::filesystem::path& path, TierHeader header,
                         std::span<const ValueCode> codes);

// Removes the temporary files that killed writers of the file at path left behind; the
// temporary of a process that still runs is left alone.
void remove_stale_temporaries(const std::filesystem::path& path);
// The same for every tier file's temporaries in a directory.
void remove_stale_temporaries_in(const std::filesystem::path& directory);

// The game dictionary (db/game_dictionary.h) a tier file names: its encoding and the
// XXH3 of the dictionary; nullopt where the file uses another codec (or is of format v1).
// Reads the header and the codec's table; throws where they are missing or damaged.
struct NamedDictionary {
  Encoding encoding = Encoding::kDepth;
  std::uint64_t checksum = 0;
};
std::optional<NamedDictionary> game_dictionary_of(const std::filesystem::path& path);

// What is at the path of a tier's file: nothing, a complete and consistent file for the
// expected tier (open_tier with every block's checksum checked), or a file that fails
// those checks, with the reader's reason (a truncated file, a bad header or block
// checksum, another tier's or game's header, ...) without the file's name in front.
struct TierFileCheck {
  enum class State { kAbsent, kGood, kDamaged };
  State state = State::kAbsent;
  std::string problem;  // kDamaged only

  [[nodiscard]] bool good() const { return state == State::kGood; }
};
TierFileCheck check_tier_file(const std::filesystem::path& path, const Expected& expected);

// Whether a complete, consistent file for the expected tier is at path.
inline bool tier_file_good(const std::filesystem::path& path, const Expected& expected) {
  return check_tier_file(path, expected).good();
}

}  // namespace gs::db
