// Compression of real databases (docs/BENCHMARKS.md): rewrites every tier of a built
// data directory with each value encoding and codec (and optionally other block sizes
// and zstd levels) into a temporary directory, and prints positions per byte per piece
// count, beside the uncompressed size (one byte per position, as format v1 stores them).
//
//   <build>/bench/bench_compression DATA PIECES [--block-bytes 1024,4096,16384] [--levels 3,9,19]
//
// DATA must hold the Jungle Checkers databases up to PIECES (gamesolver build).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/tier_file.h"
#include "games/jungle/jungle.h"
#include "retro/build.h"

namespace {

using gs::jungle::Jungle;
namespace fs = std::filesystem;

std::vector<std::uint64_t> numbers(const std::string& text) {
  std::vector<std::uint64_t> out;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) out.push_back(std::stoull(part));
  return out;
}

struct Totals {
  std::uint64_t positions = 0;  // indices that are not holes
  std::uint64_t indices = 0;
  std::uint64_t bytes = 0;
  std::uint64_t v1_bytes = 0;
  std::map<std::string, int> chosen;
  double seconds = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: bench_compression DATA PIECES [--block-bytes B,...] [--levels L,...]\n");
    return 2;
  }
  const fs::path data = argv[1];
  const int pieces = std::atoi(argv[2]);
  std::vector<std::uint64_t> block_bytes = {gs::db::kDefaultBlockBytes};
  std::vector<std::uint64_t> levels = {19};
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--block-bytes") block_bytes = numbers(argv[i + 1]);
    if (flag == "--levels") levels = numbers(argv[i + 1]);
  }
  const Jungle game;
  gs::db::Database database(gs::db::Location::of(game, data));
  const fs::path scratch = fs::temp_directory_path() / fmt::format("gamesolver-compression-{}", ::getpid());
  fs::create_directories(scratch);

  // Every tier's codes, read once.
  std::map<gs::Tier, std::vector<gs::ValueCode>> codes;
  for (const gs::Tier tier : gs::retro::tiers_in_order(game, pieces)) {
    const gs::db::TierReader* reader = database.find(game, tier);
    if (reader == nullptr) {
      fmt::print(stderr, "tier {} is not built in {}\n", game.tier_name(tier), data.string());
      return 1;
    }
    auto& values = codes[tier];
    values.resize(reader->header().positions);
    for (gs::Index i = 0; i < values.size(); ++i)
      values[i] = game.unrank(tier, i) ? reader->code(i) : gs::kHoleCode;
    database.forget(tier);
  }

  fmt::print(
      "| encoding | codec | block bytes | zstd level | pieces | positions | v1 bytes | bytes | "
      "positions/byte | codecs chosen | seconds |\n");
  fmt::print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
  using gs::db::Codec;
  using gs::db::Encoding;
  struct Choice {
    std::string name;
    std::optional<Codec> codec;
    std::optional<bool> dictionary;
  };
  const std::vector<Choice> codecs = {{"none", Codec::kNone, std::nullopt},
                                      {"rle", Codec::kRunLength, std::nullopt},
                                      {"zstd", Codec::kZstd, false},
                                      {"zstd+dictionary", Codec::kZstd, true},
                                      {"auto", std::nullopt, std::nullopt}};
  std::vector<std::string> only;
  if (const char* filter = std::getenv("CODECS")) {
    std::stringstream in(filter);
    std::string part;
    while (std::getline(in, part, ',')) only.push_back(part);
  }
  for (const Encoding encoding : {Encoding::kWinDrawLoss, Encoding::kDepth}) {
    for (const std::uint64_t bytes : block_bytes) {
      for (const std::uint64_t level : levels) {
        for (const auto& [codec_name, codec, dictionary] : codecs) {
          if (!only.empty() && std::find(only.begin(), only.end(), codec_name) == only.end()) continue;
          if (level != levels.front() && codec != Codec::kZstd && codec) continue;
          std::map<int, Totals> totals;
          for (const auto& [tier, values] : codes) {
            gs::db::TierHeader header;
            header.game = "jungle";
            header.variant = game.variant();
            header.rules = game.rule_text();
            header.tier = tier;
            header.tier_name = game.tier_name(tier);
            gs::db::WriteOptions options;
            options.encoding = encoding;
            options.codec = codec;
            options.dictionary = dictionary;
            const unsigned bits = encoding == Encoding::kWinDrawLoss ? 2 : 8;
            options.block_positions = bytes * 8 / bits;
            options.zstd_level = static_cast<int>(level);
            const fs::path path = scratch / (header.tier_name + ".gsdb");
            const auto start = std::chrono::steady_clock::now();
            const gs::db::TierHeader written = gs::db::write_tier(path, header, values, options);
            Totals& t = totals[game.tier_pieces(tier)];
            t.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            t.positions += written.positions - written.holes;
            t.indices += written.positions;
            t.bytes += fs::file_size(path);
            t.v1_bytes += gs::db::kHeaderSize +
                          values.size() * (written.longest_win < 127 && written.longest_loss < 126 ? 1 : 2);
            ++t.chosen[written.codec == Codec::kZstd && written.table_bytes > 0
                           ? "zstd+dictionary"
                           : gs::db::codec_name(written.codec)];
          }
          for (const auto& [n, t] : totals) {
            std::string chosen;
            for (const auto& [c, count] : t.chosen)
              chosen += fmt::format("{}{} {}", chosen.empty() ? "" : ", ", count, c);
            fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} | {:.1f} | {} | {:.2f} |\n",
                       gs::db::encoding_name(encoding), codec_name, bytes,
                       codec == Codec::kZstd || !codec ? std::to_string(level) : "-", n, t.positions,
                       t.v1_bytes, t.bytes, static_cast<double>(t.positions) / static_cast<double>(t.bytes),
                       chosen, t.seconds);
          }
          std::fflush(stdout);
        }
      }
    }
  }
  fs::remove_all(scratch);
  return 0;
}
