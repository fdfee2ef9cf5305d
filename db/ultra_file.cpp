#include "db/ultra_file.h"

#include <fmt/format.h>
#include <xxhash.h>
#include <zstd.h>

#include <cstring>
#include <map>
#include <string_view>

#include "core/error.h"
#include "db/file_io.h"

namespace gs::db {

namespace {

constexpr std::array<char, 8> kUltraMagic = {'G', 'S', 'U', 'L', 'T', 'R', 'A', '\n'};
constexpr std::uint32_t kUltraVersion = 1;
constexpr std::size_t kPrefix = 16;  // magic, version, text length
constexpr std::uint64_t kMaxHeaderText = 1 << 16;

void put_u32(std::uint8_t* at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) at[i] = static_cast<std::uint8_t>(value >> (8 * i));
}

std::string header_text(const UltraHeader& h) {
  return fmt::format(
      "game={}\nvariant={}\nrules={}\nheuristic={}\ntier={}\ntier_name={}\npositions={}\nwin={}\n"
      "ranks_checksum={}\n",
      h.game, h.variant, h.rules, h.heuristic, h.tier, h.tier_name, h.positions, h.win, h.ranks_checksum);
}

UltraHeader parse_header_text(std::string_view text, const std::string& file) {
  std::map<std::string, std::string, std::less<>> fields;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    if (end == std::string_view::npos) fail("{}: damaged header (a line without its end)", file);
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end + 1);
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos) fail("{}: damaged header line '{}'", file, line);
    fields[std::string(line.substr(0, equals))] = std::string(line.substr(equals + 1));
  }
  auto field = [&](const char* key) -> const std::string& {
    const auto it = fields.find(key);
    if (it == fields.end()) fail("{}: the header has no {}", file, key);
    return it->second;
  };
  auto number = [&](const char* key) {
    try {
      return std::stoll(field(key));
    } catch (const std::exception&) {
      fail("{}: the header's {} is not a number", file, key);
    }
  };
  UltraHeader header;
  header.game = field("game");
  header.variant = field("variant");
  header.rules = field("rules");
  header.heuristic = field("heuristic");
  header.tier = static_cast<Tier>(number("tier"));
  header.tier_name = field("tier_name");
  header.positions = static_cast<std::uint64_t>(number("positions"));
  header.win = static_cast<std::int32_t>(number("win"));
  try {
    header.ranks_checksum = std::stoull(field("ranks_checksum"));
  } catch (const std::exception&) {
    fail("{}: the header's ranks_checksum is not a number", file);
  }
  return header;
}

// Reads and checks the header; returns the offset of the compressed size field.
UltraHeader decode_header(const io::MappedFile& mapped, const std::string& file, std::size_t& offset) {
  const std::uint8_t* data = mapped.data();
  const std::uint64_t size = mapped.size();
  if (size < kPrefix || std::memcmp(data, kUltraMagic.data(), kUltraMagic.size()) != 0)
    fail("{}: not an ultra database file", file);
  const std::uint32_t version = io::get_u32(data + 8);
  if (version != kUltraVersion)
    fail("{}: ultra format version {} (this program reads {})", file, version, kUltraVersion);
  const std::uint32_t text_size = io::get_u32(data + 12);
  if (text_size > kMaxHeaderText || kPrefix + text_size + 24 > size)
    fail("{}: damaged header (truncated)", file);
  const std::uint64_t checksum = io::get_u64(data + kPrefix + text_size);
  if (XXH3_64bits(data, kPrefix + text_size) != checksum) fail("{}: damaged header (checksum)", file);
  offset = kPrefix + text_size + 8;
  return parse_header_text(std::string_view(reinterpret_cast<const char*>(data + kPrefix), text_size), file);
}

}  // namespace

std::uint64_t ultra_text_checksum(const std::string& text) { return XXH3_64bits(text.data(), text.size()); }

void write_ultra_tier(const std::filesystem::path& path, const UltraHeader& header,
                      std::span<const std::uint32_t> cells) {
  if (cells.size() != header.positions)
    fail("{}: {} values for {} positions", path.string(), cells.size(), header.positions);
  std::vector<std::uint8_t> raw(cells.size() * 4);
  for (std::size_t i = 0; i < cells.size(); ++i) put_u32(raw.data() + 4 * i, cells[i]);
  std::vector<std::uint8_t> packed(ZSTD_compressBound(raw.size()));
  const std::size_t packed_size = ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), 1);
  if (ZSTD_isError(packed_size) != 0U)
    fail("{}: compression failed: {}", path.string(), ZSTD_getErrorName(packed_size));
  const std::string text = header_text(header);
  std::vector<std::uint8_t> head(kPrefix + text.size() + 24);
  std::memcpy(head.data(), kUltraMagic.data(), kUltraMagic.size());
  put_u32(head.data() + 8, kUltraVersion);
  put_u32(head.data() + 12, static_cast<std::uint32_t>(text.size()));
  std::memcpy(head.data() + kPrefix, text.data(), text.size());
  io::put_u64(head.data() + kPrefix + text.size(), XXH3_64bits(head.data(), kPrefix + text.size()));
  io::put_u64(head.data() + kPrefix + text.size() + 8, packed_size);
  io::put_u64(head.data() + kPrefix + text.size() + 16, XXH3_64bits(raw.data(), raw.size()));
  io::write_atomically(path, [&](int fd, const std::string& temp) {
    io::write_all(fd, head.data(), head.size(), temp);
    io::write_all(fd, packed.data(), packed_size, temp);
  });
}

UltraHeader read_ultra_header(const std::filesystem::path& path) {
  const io::MappedFile mapped(path.string());
  std::size_t offset = 0;
  return decode_header(mapped, path.string(), offset);
}

UltraFile read_ultra_tier(const std::filesystem::path& path, const UltraHeader& expected) {
  const std::string file = path.string();
  const io::MappedFile mapped(file);
  std::size_t offset = 0;
  UltraFile result;
  result.header = decode_header(mapped, file, offset);
  if (result.header != expected) {
    fail(
        "{}: holds {} {} ({}) tier {} of heuristic {} (ranks {:016x}), not {} {} ({}) tier {} of {} (ranks "
        "{:016x})",
        file, result.header.game, result.header.variant, result.header.rules, result.header.tier_name,
        result.header.heuristic, result.header.ranks_checksum, expected.game, expected.variant,
        expected.rules, expected.tier_name, expected.heuristic, expected.ranks_checksum);
  }
  const std::uint64_t packed_size = io::get_u64(mapped.data() + offset);
  const std::uint64_t checksum = io::get_u64(mapped.data() + offset + 8);
  const std::uint64_t start = offset + 16;
  if (start + packed_size != mapped.size()) fail("{}: damaged (its size is not what the header says)", file);
  std::vector<std::uint8_t> raw(result.header.positions * 4);
  const std::size_t got = ZSTD_decompress(raw.data(), raw.size(), mapped.data() + start, packed_size);
  if (ZSTD_isError(got) != 0U || got != raw.size()) fail("{}: damaged values (they do not decompress)", file);
  if (XXH3_64bits(raw.data(), raw.size()) != checksum) fail("{}: damaged values (checksum)", file);
  result.cells.resize(result.header.positions);
  for (std::size_t i = 0; i < result.cells.size(); ++i) result.cells[i] = io::get_u32(raw.data() + 4 * i);
  return result;
}

}  // namespace gs::db
