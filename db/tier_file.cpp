// Format v1 (read, and written for tests), what both versions share, and open_tier.
#include "db/tier_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/host.h"
#include "db/file_io.h"

namespace gs::db {

namespace {
// The SyncBatches open in the process, and the directories written while any was.
std::mutex batch_mutex;
int open_batches = 0;
std::set<std::filesystem::path> batch_directories;

// Whether a SyncBatch is open; if so, notes the directory to sync at its end.
bool batched(const std::filesystem::path& directory) {
  const std::lock_guard lock(batch_mutex);
  if (open_batches == 0) return false;
  batch_directories.insert(directory);
  return true;
}

// syncfs and fsync on a directory; false (errno set) on failure.
bool sync_directory(const std::filesystem::path& directory, bool whole_file_system) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool good = (!whole_file_system || ::syncfs(fd) == 0) && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  errno = saved;
  return good;
}

// This machine's name, for the names of temporary files.
std::string this_host() { return host_name("unknown"); }
}  // namespace

namespace io {

void put_text(std::uint8_t* at, std::size_t size, const std::string& text, const char* field) {
  if (text.size() >= size) fail("internal error: {} '{}' is too long for the file header", field, text);
  std::copy(text.begin(), text.end(), at);  // the rest of the field stays zero
}

MappedFile::MappedFile(const std::string& name) {
  const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("{}: cannot open database file: {}", name, std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int saved = errno;
    ::close(fd);
    fail("{}: cannot read file size: {}", name, std::strerror(saved));
  }
  size_ = static_cast<std::uint64_t>(info.st_size);
  if (size_ == 0) {
    ::close(fd);
    return;
  }
  void* map = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) fail("{}: cannot map database file: {}", name, std::strerror(errno));
  data_ = static_cast<const std::uint8_t*>(map);
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
}

void write_all(int fd, const std::uint8_t* data, std::size_t size, const std::string& file) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, std::min<std::size_t>(size, std::size_t{1} << 30));
    if (written < 0) {
      if (errno == EINTR) continue;
      fail("{}: write failed: {}", file, std::strerror(errno));
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

void write_all_at(int fd, const std::uint8_t* data, std::size_t size, std::uint64_t offset,
                  const std::string& file) {
  while (size > 0) {
    const ssize_t written =
        ::pwrite(fd, data, std::min<std::size_t>(size, std::size_t{1} << 30), static_cast<off_t>(offset));
    if (written < 0) {
      if (errno == EINTR) continue;
      fail("{}: write failed: {}", file, std::strerror(errno));
    }
    data += written;
    size -= static_cast<std::size_t>(written);
    offset += static_cast<std::uint64_t>(written);
  }
}

void write_atomically(const std::filesystem::path& path,
                      const std::function<void(int, const std::string&)>& write) {
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error) fail("{}: cannot create directory: {}", path.parent_path().string(), error.message());
  remove_stale_temporaries(path);
  // Named after the writing process and its machine: a cleaner on a machine sharing the
  // directory removes only the temporaries of its own dead processes.
  const std::string temp = fmt::format("{}.tmp-{}@{}", path.string(), ::getpid(), this_host());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("{}: cannot create: {}", temp, std::strerror(errno));
  const bool deferred = batched(path.parent_path());
  try {
    write(fd, temp);
    if (!deferred && ::fsync(fd) != 0) fail("{}: fsync failed: {}", temp, std::strerror(errno));
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    const int saved = errno;
    ::unlink(temp.c_str());
    fail("{}: close failed: {}", temp, std::strerror(saved));
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temp.c_str());
    fail("{}: rename failed: {}", path.string(), std::strerror(saved));
  }
  if (!deferred) sync_directory(path.parent_path(), false);
}

SyncBatch::SyncBatch() {
  const std::lock_guard lock(batch_mutex);
  ++open_batches;
}

void SyncBatch::finish() {
  std::set<std::filesystem::path> directories;
  {
    const std::lock_guard lock(batch_mutex);
    if (finished_) return;
    finished_ = true;
    directories = batch_directories;  // a batch open beside this one syncs them again at its end
    if (--open_batches == 0) batch_directories.clear();
  }
  for (const auto& directory : directories) {
    if (!sync_directory(directory, true))
      fail("{}: cannot sync the database files written: {}", directory.string(), std::strerror(errno));
  }
}

SyncBatch::~SyncBatch() {
  try {
    finish();
  } catch (const Error&) {  // the caller is already failing, or did not ask
  }
}

void encode_common_header(const TierHeader& h, std::uint32_t version, std::uint8_t* bytes) {
  std::memcpy(bytes, kMagic.data(), kMagic.size());
  bytes[8] = static_cast<std::uint8_t>(version);
  bytes[12] = static_cast<std::uint8_t>(kHeaderSize & 0xFF);
  bytes[13] = static_cast<std::uint8_t>(kHeaderSize >> 8);
  put_text(bytes + 16, 16, h.game, "game");
  put_text(bytes + 32, 32, h.variant, "variant");
  put_text(bytes + 64, 64, h.rules, "rules");
  put_u64(bytes + 128, h.tier);
  put_text(bytes + 136, 24, h.tier_name, "tier name");
  put_u64(bytes + 160, h.positions);
  put_u64(bytes + 168, h.wins);
  put_u64(bytes + 176, h.draws);
  put_u64(bytes + 184, h.losses);
  put_u64(bytes + 192, h.holes);
  put_u16(bytes + 200, h.longest_win);
  put_u16(bytes + 202, h.longest_loss);
}

void seal_header(std::uint8_t* bytes) { put_u64(bytes + 248, XXH3_64bits(bytes, 248)); }

TierHeader decode_common_header(const std::uint8_t* bytes, const std::string& file) {
  if (get_u64(bytes + 248) != XXH3_64bits(bytes, 248))
    fail("{}: header checksum mismatch (corrupt file)", file);
  TierHeader h;
  h.game = get_text(bytes + 16, 16);
  h.variant = get_text(bytes + 32, 32);
  h.rules = get_text(bytes + 64, 64);
  h.tier = get_u64(bytes + 128);
  h.tier_name = get_text(bytes + 136, 24);
  h.positions = get_u64(bytes + 160);
  h.wins = get_u64(bytes + 168);
  h.draws = get_u64(bytes + 176);
  h.losses = get_u64(bytes + 184);
  h.holes = get_u64(bytes + 192);
  h.longest_win = get_u16(bytes + 200);
  h.longest_loss = get_u16(bytes + 202);
  return h;
}

}  // namespace io

namespace {

using io::get_u64;
using io::kMagic;
using io::put_u64;

std::array<std::uint8_t, kHeaderSize> encode_v1(const TierHeader& h) {
  std::array<std::uint8_t, kHeaderSize> bytes{};
  io::encode_common_header(h, kFormatVersion1, bytes.data());
  bytes[204] = h.value_bytes;
  put_u64(bytes.data() + 208, h.values_checksum);
  io::seal_header(bytes.data());
  return bytes;
}

TierHeader decode_v1(const std::uint8_t* bytes, const std::string& file) {
  TierHeader h = io::decode_common_header(bytes, file);
  h.version = kFormatVersion1;
  h.value_bytes = bytes[204];
  h.values_checksum = get_u64(bytes + 208);
  h.image_bits = static_cast<std::uint8_t>(8 * h.value_bytes);
  if (h.value_bytes != 1 && h.value_bytes != 2)
    fail("{}: {} bytes per value is not supported", file, h.value_bytes);
  return h;
}

class MappedTier final : public TierReader {
 public:
  MappedTier(std::string name, std::unique_ptr<io::MappedFile> file, const Expected& expected,
             bool check_values)
      : name_(std::move(name)), file_(std::move(file)) {
    header_ = decode_v1(file_->data(), name_);
    check_header(expected);
    values_ = file_->data() + kHeaderSize;
    if (check_values) check(false);
  }

  [[nodiscard]] ValueCode code(Index index) const override {
    if (header_.value_bytes == 1) return values_[index];
    return static_cast<ValueCode>(values_[2 * index] | (values_[2 * index + 1] << 8));
  }
  [[nodiscard]] const TierHeader& header() const override { return header_; }
  [[nodiscard]] const std::string& path() const override { return name_; }
  [[nodiscard]] std::uint64_t file_bytes() const override { return file_->size(); }
  [[nodiscard]] std::uint64_t memory_bytes() const override { return file_->size(); }
  void read_block(std::uint64_t /*block*/, std::vector<std::uint8_t>& /*image*/) const override {
    fail("{}: a format v1 file has no blocks", name_);
  }
  void check(bool /*decompress*/) const override {
    if (XXH3_64bits(values_, file_->size() - kHeaderSize) != header_.values_checksum) {
      fail("{}: checksum mismatch in the values (corrupt file)", name_);
    }
  }

 private:
  void check_header(const Expected& expected) const {
    io::check_expected(header_, expected, name_);
    const std::uint64_t want = kHeaderSize + header_.positions * header_.value_bytes;
    if (file_->size() != want)
      fail("{}: truncated or extended database file ({} bytes, expected {})", name_, file_->size(), want);
  }

  std::string name_;
  std::unique_ptr<io::MappedFile> file_;
  const std::uint8_t* values_ = nullptr;
  TierHeader header_;
};

}  // namespace

void io::check_expected(const TierHeader& h, const Expected& expected, const std::string& name) {
  if (h.game != expected.game || h.variant != expected.variant || h.rules != expected.rules ||
      h.tier != expected.tier) {
    // Tiers by the game's names where the file is of the same game (a name taken from
    // another game's numbering would mislead), else by number.
    auto tier_text = [&](Tier tier) {
      if (expected.tier_name && h.game == expected.game) {
        try {
          return expected.tier_name(tier);
        } catch (const Error&) {
        }
      }
      return std::to_string(tier);
    };
    fail("{}: holds {} {} [{}] tier {}, expected {} {} [{}] tier {}", name, h.game, h.variant, h.rules,
         tier_text(h.tier), expected.game, expected.variant, expected.rules, tier_text(expected.tier));
  }
  if (h.positions != expected.positions) {
    fail("{}: holds {} positions, the tier has {}", name, h.positions, expected.positions);
  }
}

namespace {
// Removes the temporaries `<tier file>.tmp-<pid>[@<host>]` in a directory whose names
// start with `prefix` and whose writing process is gone from this machine (a temporary
// named after another machine is left alone: its writer cannot be seen from here).
void remove_dead_temporaries(const std::filesystem::path& directory, const std::string& prefix) {
  const std::string here = this_host();
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::size_t mark = name.rfind(".tmp-");
    if (mark == std::string::npos) continue;
    if (prefix.empty() && !name.substr(0, mark).ends_with(kFileSuffix)) continue;
    std::string pid = name.substr(mark + 5);
    if (const std::size_t at = pid.find('@'); at != std::string::npos) {
      if (pid.substr(at + 1) != here) continue;
      pid.resize(at);
    }
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code ignored;
    if (std::filesystem::exists("/proc/" + pid, ignored)) continue;
    std::filesystem::remove(entry.path(), ignored);
  }
}
}  // namespace

void remove_stale_temporaries(const std::filesystem::path& path) {
  remove_dead_temporaries(path.parent_path(), path.filename().string() + ".tmp-");
}

void remove_stale_temporaries_in(const std::filesystem::path& directory) {
  remove_dead_temporaries(directory, "");
}

std::unique_ptr<TierReader> open_tier(const std::filesystem::path& path, const Expected& expected,
                                      bool check_values, Resolver resolver) {
  std::string name = path.string();
  auto file = std::make_unique<io::MappedFile>(name);
  if (file->size() < kHeaderSize) {
    fail("{}: truncated database file ({} bytes, the header alone is {})", name, file->size(), kHeaderSize);
  }
  const std::uint8_t* bytes = file->data();
  if (std::memcmp(bytes, kMagic.data(), kMagic.size()) != 0) {
    fail("{}: not a gamesolver database file (bad magic)", name);
  }
  const std::uint32_t version = io::get_u32(bytes + 8);
  if (version == kFormatVersion1)
    return std::make_unique<MappedTier>(name, std::move(file), expected, check_values);
  if (version == kFormatVersion || version == kFormatVersion3)
    return io::open_tier_v2(name, std::move(file), expected, check_values, std::move(resolver));
  fail("{}: format version {} is not supported (this build reads {} to {})", name, version, kFormatVersion1,
       kFormatVersion3);
}

TierFileCheck check_tier_file(const std::filesystem::path& path, const Expected& expected) {
  TierFileCheck check;
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) return check;  // kAbsent
  check.state = TierFileCheck::State::kDamaged;
  if (!std::filesystem::is_regular_file(status)) {
    check.problem = "not a regular file";
    return check;
  }
  try {
    open_tier(path, expected, true);
    check.state = TierFileCheck::State::kGood;
  } catch (const Error& e) {
    // The reader's errors start with the file's name, which the caller knows.
    std::string_view problem = e.what();
    const std::string prefix = path.string() + ": ";
    if (problem.starts_with(prefix)) problem.remove_prefix(prefix.size());
    check.problem = std::string(problem);
  }
  return check;
}

void io::count_values(TierHeader& header, std::span<const ValueCode> codes) {
  header.positions = codes.size();
  header.wins = header.draws = header.losses = header.holes = 0;
  header.longest_win = header.longest_loss = 0;
  for (const ValueCode code : codes) {
    if (code == kHoleCode) {
      ++header.holes;
      continue;
    }
    const Value value = Value::from_code(code);
    if (value.is_win()) {
      ++header.wins;
      header.longest_win = std::max(header.longest_win, value.depth());
    } else if (value.is_loss()) {
      ++header.losses;
      header.longest_loss = std::max(header.longest_loss, value.depth());
    } else {
      ++header.draws;
    }
  }
}

TierHeader write_tier_v1(const std::filesystem::path& path, TierHeader header,
                         std::span<const ValueCode> codes) {
  io::count_values(header, codes);
  header.version = kFormatVersion1;
  const ValueCode largest = codes.empty() ? 0 : *std::max_element(codes.begin(), codes.end());
  header.value_bytes = largest < 256 ? 1 : 2;
  header.image_bits = static_cast<std::uint8_t>(8 * header.value_bytes);
  // The values are converted and written a chunk at a time, so writing needs no second
  // copy of the tier in memory; the checksum is streamed alongside.
  auto encode_chunk = [&](std::size_t begin, std::size_t end, std::vector<std::uint8_t>& out) {
    out.resize((end - begin) * header.value_bytes);
    for (std::size_t i = begin; i < end; ++i) {
      if (header.value_bytes == 1) {
        out[i - begin] = static_cast<std::uint8_t>(codes[i]);
      } else {
        io::put_u16(out.data() + 2 * (i - begin), codes[i]);
      }
    }
  };
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::vector<std::uint8_t> chunk;
  {
    XXH3_state_t* state = XXH3_createState();
    XXH3_64bits_reset(state);
    for (std::size_t begin = 0; begin < codes.size(); begin += kChunk) {
      encode_chunk(begin, std::min(codes.size(), begin + kChunk), chunk);
      XXH3_64bits_update(state, chunk.data(), chunk.size());
    }
    header.values_checksum = XXH3_64bits_digest(state);
    XXH3_freeState(state);
  }
  const auto bytes = encode_v1(header);
  io::write_atomically(path, [&](int fd, const std::string& temp) {
    io::write_all(fd, bytes.data(), bytes.size(), temp);
    for (std::size_t begin = 0; begin < codes.size(); begin += kChunk) {
      encode_chunk(begin, std::min(codes.size(), begin + kChunk), chunk);
      io::write_all(fd, chunk.data(), chunk.size(), temp);
    }
  });
  return header;
}

}  // namespace gs::db
