// Compression of real databases (docs/BENCHMARKS.md): rewrites every tier of a built
// data directory with each value encoding and codec (and optionally other block sizes
// and zstd levels) into a temporary directory, and prints positions per byte per piece
// count, beside the uncompressed size (one byte per position, as format v1 stores them).
//
//   <build>/bench/bench_compression DATA PIECES [--game jungle|morris|checkers] [--variant V]
//       [--block-bytes 0,1024,4096,16384] [--levels 3,9,19] [--per-tier]
//
// DATA must hold the game's databases up to PIECES (gamesolver build). Block bytes 0:
// chosen per file (what build and compress do). For a game with derivable positions
// (checkers) every row is written with them as don't-cares ("dc") and without ("all").
// --per-tier prints positions per byte of every file of the "auto" rows.
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
#include "db/derivable.h"
#include "db/tier_file.h"
#include "games/checkers/checkers.h"
#include "games/jungle/jungle.h"
#include "games/morris/morris.h"
#include "retro/build.h"

namespace {

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
  std::map<std::string, int> block_sizes;
  double seconds = 0;
};

struct Arguments {
  fs::path data;
  int pieces = 0;
  std::string variant;
  std::vector<std::uint64_t> block_bytes = {0};
  std::vector<std::uint64_t> levels = {19};
  bool per_tier = false;
};

template <class Game>
int run(const Arguments& arguments) {
  const fs::path& data = arguments.data;
  const int pieces = arguments.pieces;
  const auto& block_bytes = arguments.block_bytes;
  const auto& levels = arguments.levels;
  const Game game = arguments.variant.empty() ? Game() : Game::from_options(arguments.variant, {});
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
      "| encoding | codec | don't-cares | block bytes | zstd level | pieces | positions | v1 bytes | bytes | "
      "positions/byte | codecs chosen | block sizes chosen | seconds |\n");
  fmt::print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|\n");
  std::vector<bool> derivable_choices = {false};
  if (gs::db::derivable_positions(game)) derivable_choices = {true, false};
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
          for (const bool dont_care : derivable_choices) {
            if (!only.empty() && std::find(only.begin(), only.end(), codec_name) == only.end()) continue;
            if (level != levels.front() && codec != Codec::kZstd && codec) continue;
            std::map<int, Totals> totals;
            for (const auto& [tier, values] : codes) {
              gs::db::TierHeader header;
              header.game = std::string(Game::kName);
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
              if (dont_care) options.derivable = gs::db::derivable_positions(game);
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
              const std::string chosen_codec = written.codec == Codec::kZstd && written.table_bytes > 0
                                                   ? "zstd+dictionary"
                                                   : gs::db::codec_name(written.codec);
              ++t.chosen[chosen_codec];
              const std::uint64_t written_block_bytes = written.block_positions * written.image_bits / 8;
              ++t.block_sizes[fmt::format("{} KiB", static_cast<double>(written_block_bytes) / 1024)];
              if (arguments.per_tier && !codec) {
                const auto file_bytes = fs::file_size(path);
                fmt::print(
                    "tier | {} | {} | {} | {} | {} | {} | {:.1f} | {} | {} |\n",
                    gs::db::encoding_name(encoding), dont_care ? "dc" : "all", game.tier_pieces(tier),
                    header.tier_name, written.positions - written.holes, file_bytes,
                    static_cast<double>(written.positions - written.holes) / static_cast<double>(file_bytes),
                    chosen_codec, written_block_bytes);
              }
            }
            for (const auto& [n, t] : totals) {
              std::string sizes;
              for (const auto& [size, count] : t.block_sizes)
                sizes += fmt::format("{}{} x {}", sizes.empty() ? "" : ", ", count, size);
              std::string chosen;
              for (const auto& [c, count] : t.chosen)
                chosen += fmt::format("{}{} {}", chosen.empty() ? "" : ", ", count, c);
              fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1f} | {} | {} | {:.2f} |\n",
                         gs::db::encoding_name(encoding), codec_name, dont_care ? "dc" : "all",
                         bytes == 0 ? std::string("auto") : std::to_string(bytes),
                         codec == Codec::kZstd || !codec ? std::to_string(level) : "-", n, t.positions,
                         t.v1_bytes, t.bytes, static_cast<double>(t.positions) / static_cast<double>(t.bytes),
                         chosen, sizes, t.seconds);
            }
            std::fflush(stdout);
          }
        }
      }
    }
  }
  fs::remove_all(scratch);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr,
               "usage: bench_compression DATA PIECES [--game G] [--variant V] [--block-bytes B,...] "
               "[--levels L,...] [--per-tier]\n");
    return 2;
  }
  Arguments arguments;
  arguments.data = argv[1];
  arguments.pieces = std::atoi(argv[2]);
  std::string game = "jungle";
  for (int i = 3; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--per-tier") {
      arguments.per_tier = true;
      continue;
    }
    if (i + 1 >= argc) break;
    if (flag == "--block-bytes") arguments.block_bytes = numbers(argv[i + 1]);
    if (flag == "--levels") arguments.levels = numbers(argv[i + 1]);
    if (flag == "--game") game = argv[i + 1];
    if (flag == "--variant") arguments.variant = argv[i + 1];
    ++i;
  }
  if (game == "jungle") return run<gs::jungle::Jungle>(arguments);
  if (game == "morris") return run<gs::morris::Morris>(arguments);
  if (game == "checkers") return run<gs::checkers::Checkers>(arguments);
  fmt::print(stderr, "bench_compression: unknown game {}\n", game);
  return 2;
}
