// Game dictionaries: one zstd dictionary per game, variant, rules and encoding, in a file
// of its own beside the tier files (db/game_dictionary.h has the layout).
#include "db/game_dictionary.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

#include "core/error.h"
#include "db/file_io.h"

namespace gs::db {

namespace {

using io::get_u64;
using io::put_u64;

constexpr std::array<char, 8> kDictionaryMagic = {'G', 'S', 'Z', 'D', '\r', '\n', '\x1a', '\n'};

std::array<std::uint8_t, kDictionaryHeaderSize> encode_header(const DictionaryOwner& owner,
                                                              DictionaryIdentity identity) {
  std::array<std::uint8_t, kDictionaryHeaderSize> bytes{};
  std::memcpy(bytes.data(), kDictionaryMagic.data(), kDictionaryMagic.size());
  bytes[8] = static_cast<std::uint8_t>(kDictionaryVersion);
  bytes[12] = static_cast<std::uint8_t>(kDictionaryHeaderSize & 0xFF);
  bytes[13] = static_cast<std::uint8_t>(kDictionaryHeaderSize >> 8);
  io::put_text(bytes.data() + 16, 16, owner.game, "game");
  io::put_text(bytes.data() + 32, 32, owner.variant, "variant");
  io::put_text(bytes.data() + 64, 64, owner.rules, "rules");
  bytes[128] = static_cast<std::uint8_t>(owner.encoding);
  put_u64(bytes.data() + 136, identity.bytes);
  put_u64(bytes.data() + 144, identity.checksum);
  io::seal_header(bytes.data());
  return bytes;
}

// What identifies one version of a file: device, inode, size, change and modification
// times (a file rewritten or replaced since it was read is read again).
using Stamp = std::array<std::int64_t, 5>;
Stamp stamp_of(const struct stat& info) {
  constexpr std::int64_t kBillion = 1'000'000'000;
  return {static_cast<std::int64_t>(info.st_dev), static_cast<std::int64_t>(info.st_ino),
          static_cast<std::int64_t>(info.st_size), info.st_ctim.tv_sec * kBillion + info.st_ctim.tv_nsec,
          info.st_mtim.tv_sec * kBillion + info.st_mtim.tv_nsec};
}

struct FileContents {
  std::vector<std::uint8_t> bytes;
  Stamp stamp{};
};

FileContents read_whole(const std::string& path, const std::string& tier_path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    fail("{}: cannot open the game dictionary that {} is compressed with: {}", path, tier_path,
         std::strerror(errno));
  FileContents contents;
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int saved = errno;
    ::close(fd);
    fail("{}: cannot read the game dictionary's size (the dictionary of {}): {}", path, tier_path,
         std::strerror(saved));
  }
  contents.stamp = stamp_of(info);
  // A dictionary file is small; anything far larger is not one.
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (size > kDictionaryHeaderSize + (std::uint64_t{64} << 20)) {
    ::close(fd);
    fail("{}: {} bytes is too large for a game dictionary (the dictionary of {})", path, size, tier_path);
  }
  contents.bytes.resize(size);
  std::size_t done = 0;
  while (done < contents.bytes.size()) {
    const ssize_t got = ::read(fd, contents.bytes.data() + done, contents.bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      const int saved = errno;
      ::close(fd);
      fail("{}: cannot read the game dictionary (the dictionary of {}): {}", path, tier_path,
           got < 0 ? std::strerror(saved) : "the file shrank while read");
    }
    done += static_cast<std::size_t>(got);
  }
  ::close(fd);
  return contents;
}

// Checks a dictionary file's bytes against the owner and identity a tier file expects;
// returns the dictionary.
std::span<const std::uint8_t> check_dictionary(const std::vector<std::uint8_t>& bytes,
                                               const DictionaryOwner& owner, DictionaryIdentity identity,
                                               const std::string& path, const std::string& tier_path) {
  auto refuse = [&](const std::string& what) {
    fail("{}: {} (the game dictionary of {})", path, what, tier_path);
  };
  if (bytes.size() < kDictionaryHeaderSize)
    refuse(fmt::format("truncated game dictionary ({} bytes, the header alone is {})", bytes.size(),
                       kDictionaryHeaderSize));
  const std::uint8_t* header = bytes.data();
  if (std::memcmp(header, kDictionaryMagic.data(), kDictionaryMagic.size()) != 0)
    refuse("not a gamesolver dictionary file (bad magic)");
  if (get_u64(header + 248) != XXH3_64bits(header, 248)) refuse("header checksum mismatch (corrupt file)");
  if (io::get_u32(header + 8) != kDictionaryVersion || io::get_u32(header + 12) != kDictionaryHeaderSize)
    refuse(fmt::format("dictionary format version {} is not supported", io::get_u32(header + 8)));
  const DictionaryOwner found{io::get_text(header + 16, 16), io::get_text(header + 32, 32),
                              io::get_text(header + 64, 64), static_cast<Encoding>(header[128])};
  if (found.game != owner.game || found.variant != owner.variant || found.rules != owner.rules ||
      found.encoding != owner.encoding)
    refuse(fmt::format("holds the dictionary of {} {} [{}] encoding {}, expected {} {} [{}] encoding {}",
                       found.game, found.variant, found.rules, static_cast<int>(found.encoding), owner.game,
                       owner.variant, owner.rules, encoding_name(owner.encoding)));
  const std::uint64_t size = get_u64(header + 136);
  if (size != bytes.size() - kDictionaryHeaderSize)
    refuse(fmt::format("truncated or extended game dictionary ({} bytes, its header says {})", bytes.size(),
                       kDictionaryHeaderSize + size));
  const std::span<const std::uint8_t> dictionary(bytes.data() + kDictionaryHeaderSize, size);
  const DictionaryIdentity actual = dictionary_identity(dictionary);
  if (actual.checksum != get_u64(header + 144)) refuse("dictionary checksum mismatch (corrupt file)");
  if (actual != identity)
    refuse(fmt::format("holds dictionary {:016x} of {} bytes, the tier file names {:016x} of {} bytes",
                       actual.checksum, actual.bytes, identity.checksum, identity.bytes));
  return dictionary;
}

// The dictionaries read so far, by file.
struct CachedDictionary {
  Stamp stamp{};
  DictionaryIdentity identity;
  std::string game, variant, rules;
  Encoding encoding = Encoding::kDepth;
  std::shared_ptr<const BlockCodec> codec;
};
std::mutex cache_mutex;
std::map<std::string, CachedDictionary> cache;

}  // namespace

std::filesystem::path game_dictionary_path(const std::filesystem::path& directory, Encoding encoding,
                                           std::uint64_t checksum) {
  return directory /
         fmt::format("dictionary-{}-{:016x}{}", encoding_name(encoding), checksum, kDictionarySuffix);
}

std::filesystem::path write_game_dictionary(const std::filesystem::path& directory,
                                            const DictionaryOwner& owner,
                                            std::span<const std::uint8_t> dictionary) {
  const DictionaryIdentity identity = dictionary_identity(dictionary);
  const auto header = encode_header(owner, identity);
  std::filesystem::path path = game_dictionary_path(directory, owner.encoding, identity.checksum);
  io::write_atomically(path, [&](int fd, const std::string& temp) {
    io::write_all(fd, header.data(), header.size(), temp);
    io::write_all(fd, dictionary.data(), dictionary.size(), temp);
  });
  return path;
}

std::shared_ptr<const BlockCodec> open_game_dictionary(const std::string& tier_path, const TierHeader& header,
                                                       std::span<const std::uint8_t> table) {
  DictionaryIdentity identity;
  try {
    identity = parse_dictionary_identity(table);
  } catch (const Error& e) {
    fail("{}: {}", tier_path, e.what());
  }
  const DictionaryOwner owner{header.game, header.variant, header.rules, header.encoding};
  const std::string path =
      game_dictionary_path(std::filesystem::path(tier_path).parent_path(), header.encoding, identity.checksum)
          .string();
  const std::lock_guard lock(cache_mutex);
  // Checked again at every tier file's open (one stat): a dictionary deleted or damaged
  // since it was read is refused like one never read.
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    fail("{}: cannot open the game dictionary that {} is compressed with: {}", path, tier_path,
         std::strerror(errno));
  if (const auto it = cache.find(path); it != cache.end()) {
    const CachedDictionary& cached = it->second;
    if (cached.stamp == stamp_of(info) && cached.identity == identity && cached.game == owner.game &&
        cached.variant == owner.variant && cached.rules == owner.rules && cached.encoding == owner.encoding)
      return cached.codec;
  }
  FileContents contents = read_whole(path, tier_path);
  const auto dictionary = check_dictionary(contents.bytes, owner, identity, path, tier_path);
  std::shared_ptr<const BlockCodec> codec;
  try {
    codec = shared_zstd_codec(dictionary, 0);
  } catch (const Error& e) {
    fail("{}: {} (the game dictionary of {})", path, e.what(), tier_path);
  }
  cache[path] = {contents.stamp, identity, owner.game, owner.variant, owner.rules, owner.encoding, codec};
  return codec;
}

std::optional<std::vector<std::uint64_t>> game_dictionaries_named(const std::filesystem::path& directory,
                                                                  Encoding encoding) {
  std::vector<std::uint64_t> named;
  std::error_code error;
  for (const auto& item : std::filesystem::directory_iterator(directory, error)) {
    if (item.path().extension() != ".gsdb") continue;
    try {
      const std::optional<NamedDictionary> dictionary = game_dictionary_of(item.path());
      if (dictionary && dictionary->encoding == encoding) named.push_back(dictionary->checksum);
    } catch (const Error&) {
      return std::nullopt;  // a file that cannot be read might name any of them
    }
  }
  if (error) return std::nullopt;
  return named;
}

std::vector<std::filesystem::path> remove_unnamed_game_dictionaries(const std::filesystem::path& directory,
                                                                    Encoding encoding) {
  std::vector<std::filesystem::path> removed;
  const auto named = game_dictionaries_named(directory, encoding);
  if (!named) return removed;
  const std::string prefix = fmt::format("dictionary-{}-", encoding_name(encoding));
  std::error_code error;
  for (const auto& item : std::filesystem::directory_iterator(directory, error)) {
    const std::string name = item.path().filename().string();
    if (!name.starts_with(prefix) || !name.ends_with(kDictionarySuffix)) continue;
    const bool kept = std::any_of(named->begin(), named->end(), [&](std::uint64_t checksum) {
      return item.path() == game_dictionary_path(directory, encoding, checksum);
    });
    if (!kept) removed.push_back(item.path());
  }
  for (const auto& path : removed) std::filesystem::remove(path);
  return removed;
}

std::vector<std::uint8_t> train_game_dictionary(const std::vector<std::vector<std::uint8_t>>& samples) {
  return train_zstd_dictionary({samples.begin(), samples.end()}, kGameDictionaryBytes);
}

}  // namespace gs::db
