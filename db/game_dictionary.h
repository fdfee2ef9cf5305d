#pragma once
// One zstd dictionary shared by every tier of a game, variant, rules and value encoding
// (docs/FORMAT.md, "Game dictionaries"). A tier of a few kilobytes cannot afford a
// dictionary of its own in its file; `gamesolver compress --dictionary game` trains one
// on samples of every tier, writes it beside the tier files, and every tier file whose
// blocks it compresses best names it by identity (Codec::kZstdShared: XXH3-64 and size)
// instead of embedding it.
//
// The file, `dictionary-<encoding>-<XXH3-64 of the dictionary, 16 hex digits>.gsdict`
// in the tier files' directory (named by its identity, so a new dictionary never
// replaces one that files still name, and a reader finds it from the tier's table):
//
//   offset  size  field
//        0     8  magic "GSZD\r\n\x1a\n"
//        8     4  version (1)
//       12     4  header size (256)
//       16    16  game name
//       32    32  variant
//       64    64  rule options that differ from the defaults ("" if none)
//      128     1  value encoding (1 = win/draw/loss, 2 = depth)
//      136     8  dictionary bytes
//      144     8  XXH3-64 of the dictionary
//      248     8  XXH3-64 of header bytes 0..247
//      256        the dictionary (zstd format, ZDICT_trainFromBuffer)
//
// Other bytes are zero. Written atomically (temporary, fsync, rename).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "db/block_codec.h"
#include "db/tier_file.h"

namespace gs::db {

inline constexpr std::uint32_t kDictionaryVersion = 1;
inline constexpr std::size_t kDictionaryHeaderSize = 256;
inline constexpr std::string_view kDictionarySuffix = ".gsdict";
// A game's dictionary is read once per process, not once per file: it may be larger
// than a tier's.
inline constexpr std::size_t kGameDictionaryBytes = 64 << 10;

// Whose dictionary it is: the game, variant and rules of the tier files, and the
// encoding of their values.
struct DictionaryOwner {
  std::string game;
  std::string variant;
  std::string rules;
  Encoding encoding = Encoding::kDepth;
};

// Where the dictionary with the given checksum lives in a directory of tier files.
std::filesystem::path game_dictionary_path(const std::filesystem::path& directory, Encoding encoding,
                                           std::uint64_t checksum);

// Writes the dictionary file into directory, atomically; returns its path.
std::filesystem::path write_game_dictionary(const std::filesystem::path& directory,
                                            const DictionaryOwner& owner,
                                            std::span<const std::uint8_t> dictionary);

// The kZstdShared codec (decompressing only) of the tier file at tier_path, whose header
// is `header` and codec table `table`: the dictionary file from the tier file's
// directory, read once per file and kept (the cache is thread-safe, and reloads a file
// that changed). Throws gs::Error naming the dictionary file and the tier file if it is
// missing, truncated or corrupt, or is not the one the table names for this game,
// variant, rules and encoding.
std::shared_ptr<const BlockCodec> open_game_dictionary(const std::string& tier_path, const TierHeader& header,
                                                       std::span<const std::uint8_t> table);

// The checksums of the game dictionaries of `encoding` that tier files (*.gsdb) in
// directory name, nullopt if a tier file there cannot be read (it might name any).
std::optional<std::vector<std::uint64_t>> game_dictionaries_named(const std::filesystem::path& directory,
                                                                  Encoding encoding);

// Removes the game dictionary files of `encoding` in directory that no tier file there
// names (none if a tier file cannot be read); returns the files removed.
std::vector<std::filesystem::path> remove_unnamed_game_dictionaries(const std::filesystem::path& directory,
                                                                    Encoding encoding);

// Trains a game's dictionary (up to kGameDictionaryBytes) on the images of every tier
// (dictionary_samples, db/tier_file.h); empty where there is too little to train on.
std::vector<std::uint8_t> train_game_dictionary(const std::vector<std::vector<std::uint8_t>>& samples);

}  // namespace gs::db
