#pragma once
// Value encodings and block codecs of database format v2 (docs/FORMAT.md).
//
// A tier's values are cut into blocks of 2^k positions. A block's *image* is its values
// before compression, one symbol per position:
//
//   encoding       symbol                                  image bits per position
//   win/draw/loss  0 hole, 1 draw, 2 win, 3 loss           2 (four to a byte, low bits first)
//   depth          the value code itself (core/value.h)    8, or 16 (little-endian) when a
//                                                          code of the tier is above 255
//
// The win/draw/loss symbols are the codes of depth 0, so a reader hands out codes in
// both encodings; the header says whether their depths mean anything.
//
// A codec turns an image into bytes and back. Each block is compressed on its own, so a
// probe decompresses one block. A codec may keep a table per file (the run-length
// alphabet, a zstd dictionary), stored in the file beside the block index. The shared-
// dictionary codec (kZstdShared) keeps only the identity of a dictionary shared by all
// tiers of a game, variant, rules and encoding, which lives in a file of its own beside
// the tier files (db/game_dictionary.h).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/value.h"

namespace gs::db {

enum class Encoding : std::uint8_t { kWinDrawLoss = 1, kDepth = 2 };
enum class Codec : std::uint8_t { kNone = 0, kRunLength = 1, kZstd = 2, kZstdShared = 3 };

std::string encoding_name(Encoding encoding);  // "wdl", "depth"
std::string codec_name(Codec codec);           // "none", "rle", "zstd", "zstd+game"

// The win/draw/loss symbol of a value code.
constexpr ValueCode win_draw_loss(ValueCode code) {
  return code < 2 ? code : static_cast<ValueCode>(2 | (code & 1));
}

// Bytes of the image of `positions` positions at `bits` per position.
constexpr std::size_t image_bytes(std::uint64_t positions, unsigned bits) {
  return static_cast<std::size_t>((positions * bits + 7) / 8);
}

// The symbol of position i of an image.
inline ValueCode image_symbol(const std::uint8_t* image, unsigned bits, std::uint64_t i) {
  if (bits == 2) return static_cast<ValueCode>((image[i >> 2] >> ((i & 3) * 2)) & 3);
  if (bits == 8) return image[i];
  return static_cast<ValueCode>(image[2 * i] | (image[2 * i + 1] << 8));
}

// Writes the symbols of a block as an image (image.size() == image_bytes(...)).
void pack_image(std::span<const ValueCode> symbols, unsigned bits, std::span<std::uint8_t> image);
// Reads every symbol of an image.
void unpack_image(std::span<const std::uint8_t> image, unsigned bits, std::span<ValueCode> symbols);

class BlockCodec {
 public:
  virtual ~BlockCodec() = default;
  [[nodiscard]] virtual Codec id() const = 0;
  // The per-file table (empty if none), stored in the file and given back to make_codec.
  [[nodiscard]] virtual const std::vector<std::uint8_t>& table() const = 0;
  // Replaces out with the compressed image.
  virtual void compress(std::span<const std::uint8_t> image, std::vector<std::uint8_t>& out) const = 0;
  // Decompresses data into image, whose size is the block's image size. Returns false if
  // data is not a valid compressed image of exactly that size; never reads or writes
  // out of bounds, whatever data holds.
  [[nodiscard]] virtual bool decompress(std::span<const std::uint8_t> data,
                                        std::span<std::uint8_t> image) const = 0;
};

// The codec of a file being read, from its table; throws gs::Error (without a file
// name: the caller adds it) if the table is malformed. Not for kZstdShared, whose
// dictionary is in another file (db/game_dictionary.h: open_game_dictionary).
std::unique_ptr<BlockCodec> make_codec(Codec codec, unsigned bits, std::span<const std::uint8_t> table);

// The codec to write a file with, fitted to sample images of the file's blocks (the run-
// length alphabet, a zstd dictionary when `dictionary` is set). Deterministic: the
// same samples give the same codec.
std::unique_ptr<BlockCodec> fit_codec(Codec codec, unsigned bits,
                                      const std::vector<std::span<const std::uint8_t>>& samples,
                                      bool dictionary, int zstd_level);

// A dictionary trained on sample images (ZDICT_trainFromBuffer, up to `max_bytes`, from
// up to 4 MiB of the samples), empty where they are too few or too uniform to train on;
// and a zstd codec for writing with it (an empty dictionary: none). fit_codec(kZstd, ...,
// dictionary = true) is the two together; write_tier trains once per tier and tries the
// dictionary with every block size.
inline constexpr std::size_t kTierDictionaryBytes = 16 << 10;
std::vector<std::uint8_t> train_zstd_dictionary(const std::vector<std::span<const std::uint8_t>>& samples,
                                                std::size_t max_bytes = kTierDictionaryBytes);
std::unique_ptr<BlockCodec> zstd_codec(std::span<const std::uint8_t> dictionary, int zstd_level);

// A game's shared dictionary: what a kZstdShared file's table holds instead of the
// dictionary, 16 bytes: XXH3-64 of the dictionary, then its size (little-endian).
struct DictionaryIdentity {
  std::uint64_t checksum = 0;
  std::uint64_t bytes = 0;
  bool operator==(const DictionaryIdentity&) const = default;
};
inline constexpr std::size_t kDictionaryIdentityBytes = 16;
DictionaryIdentity dictionary_identity(std::span<const std::uint8_t> dictionary);
// Throws gs::Error (without a file name) if the table is not an identity.
DictionaryIdentity parse_dictionary_identity(std::span<const std::uint8_t> table);
// The kZstdShared codec of a shared dictionary (not empty): its table is the identity.
// zstd_level 0 makes a codec that only decompresses. Throws gs::Error (without a file
// name) if zstd cannot load the dictionary.
std::unique_ptr<BlockCodec> shared_zstd_codec(std::span<const std::uint8_t> dictionary, int zstd_level);

}  // namespace gs::db
