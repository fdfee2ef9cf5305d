#pragma once
// The compression policy of `gamesolver compress`: every tier rewritten in format v2
// with the chosen encoding and codec, a tier at a time, each atomically, so that an
// interrupted run leaves every file whole, old or new.
//
// With a game dictionary (one zstd dictionary shared by every tier of a variant), the
// dictionary is trained on samples of every built tier's image first and written under a
// name of its own (files still naming an older one stay readable). If the tiers that
// chose it save fewer bytes than the dictionary file's size (by write_tier's estimates),
// they are written again without it and its file is removed. Last, the game
// dictionaries of this encoding that no tier file in the directory names are removed.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/parallel.h"
#include "db/database.h"
#include "db/derivable.h"
#include "db/game_dictionary.h"
#include "db/tier_file.h"

namespace gs::db {

// The codes of a tier as its reader gives them, holes told by the game: a file that
// fills them holds a neighbour's value there.
template <Game G>
std::vector<ValueCode> tier_codes(const G& game, const TierReader& reader, Tier tier, int threads) {
  const bool holes_filled = reader.header().holes_filled;
  std::vector<ValueCode> codes(reader.header().positions);
  parallel_for(0, codes.size(), threads, 1 << 16, [&](Index begin, Index end, int) {
    for (Index i = begin; i < end; ++i)
      codes[i] = holes_filled && !game.unrank(tier, i) ? kHoleCode : reader.code(i);
  });
  return codes;
}

struct CompressOptions {
  WriteOptions write;            // encoding, codec, level, threads
  bool game_dictionary = false;  // train one dictionary for every tier (needs zstd)
};

// What happened to one tier.
struct CompressedTier {
  std::string name;
  bool built = true;            // false: no file (nothing done)
  std::uint64_t positions = 0;  // holes excepted
  std::uint64_t bytes = 0;      // the new file's size
  TierHeader header;            // as written
};

struct TrainedGameDictionary {
  std::filesystem::path path;  // empty: too little to train on, none written
  std::uint64_t bytes = 0;
  std::uint64_t sampled = 0;  // bytes of samples
  std::size_t tiers = 0;      // tiers sampled
};

// Events in the order they happen, for progress lines.
struct CompressEvents {
  std::function<void(const TrainedGameDictionary&)> dictionary_trained;
  std::function<void(const CompressedTier&)> tier;
  // The dictionary saves `savings` bytes in `tiers` tiers, less than its `cost`: dropped.
  std::function<void(std::uint64_t savings, std::size_t tiers, std::uint64_t cost)> dictionary_dropped;
  std::function<void(const std::filesystem::path&)> dictionary_removed;  // named by no tier
};

struct CompressSummary {
  std::uint64_t positions = 0;
  std::uint64_t bytes_before = 0;
  std::uint64_t bytes_after = 0;
  int missing = 0;  // tiers not built
  double seconds = 0;
};

// kGameTrainingBytes of samples in all, every tier with a piece of up to
// kDictionarySampleBytes, the rest in proportion to its size.
inline constexpr std::uint64_t kGameTrainingBytes = std::uint64_t{4} << 20;

// Trains the game dictionary on images of the built tiers among `tiers`, as `write`
// would store them, and writes its file; a null codec when there is too little to train on.
template <Game G>
std::pair<std::shared_ptr<const BlockCodec>, TrainedGameDictionary> train_dictionary(
    const G& game, Database& database, const std::vector<Tier>& tiers, const WriteOptions& write) {
  const unsigned bits = write.encoding == Encoding::kWinDrawLoss ? 2 : 8;
  std::vector<std::pair<Tier, std::uint64_t>> images;  // built tiers and their image bytes
  for (const Tier tier : tiers) {
    const TierReader* reader = database.find(game, tier);
    if (reader != nullptr) images.emplace_back(tier, image_bytes(reader->header().positions, bits));
  }
  TrainedGameDictionary trained;
  if (images.empty()) return {nullptr, trained};
  const std::uint64_t least =
      std::min<std::uint64_t>(kDictionarySampleBytes, kGameTrainingBytes / images.size());
  std::uint64_t reserved = 0;
  std::uint64_t rest = 0;
  for (const auto& [tier, bytes] : images) {
    reserved += std::min(bytes, least);
    rest += bytes - std::min(bytes, least);
  }
  const double share =
      rest == 0 ? 0.0 : static_cast<double>(kGameTrainingBytes - reserved) / static_cast<double>(rest);
  std::vector<std::vector<std::uint8_t>> samples;
  for (const auto& [tier, bytes] : images) {
    const TierReader* reader = database.find(game, tier);
    const std::uint64_t budget =
        std::min(bytes, least) +
        static_cast<std::uint64_t>(static_cast<double>(bytes - std::min(bytes, least)) *
                                   std::min(share, 1.0));
    const auto codes = tier_codes(game, *reader, tier, write.threads);
    for (auto& sample : dictionary_samples(reader->header(), codes, write, budget)) {
      trained.sampled += sample.size();
      samples.push_back(std::move(sample));
    }
    database.forget(tier);
  }
  const std::vector<std::uint8_t> dictionary = train_game_dictionary(samples);
  trained.tiers = images.size();
  if (dictionary.empty()) return {nullptr, trained};
  const Location& where = database.location();
  trained.path = write_game_dictionary(where.directory(),
                                       {where.game, where.variant, where.rules, write.encoding}, dictionary);
  trained.bytes = dictionary.size();
  return {shared_zstd_codec(dictionary, write.zstd_level), trained};
}

// Rewrites the built tiers among `tiers` (in that order) as options say.
template <Game G>
CompressSummary compress_tiers(const G& game, Database& database, const std::vector<Tier>& tiers,
                               CompressOptions options, const CompressEvents& events = {}) {
  WriteOptions& write = options.write;
  write.derivable = derivable_positions(game);
  const auto start = std::chrono::steady_clock::now();
  std::filesystem::path dictionary_path;
  if (options.game_dictionary) {
    auto [codec, trained] = train_dictionary(game, database, tiers, write);
    write.game_dictionary = codec;
    dictionary_path = trained.path;
    if (events.dictionary_trained) events.dictionary_trained(trained);
  }
  CompressSummary summary;
  std::vector<Tier> shared;          // tiers that chose the game dictionary
  std::uint64_t shared_savings = 0;  // estimated bytes they save with it
  // Rewrites one tier (opened in database) with `write`.
  auto rewrite = [&](Tier tier, const TierReader& reader) {
    const TierHeader header = reader.header();
    const std::vector<ValueCode> codes = tier_codes(game, reader, tier, write.threads);
    database.forget(tier);
    const auto path = database.location().file(header.tier_name);
    WriteChoice choice;
    CompressedTier done;
    done.name = header.tier_name;
    done.header = write_tier(path, header, codes, write, &choice);
    if (done.header.codec == Codec::kZstdShared) {
      shared.push_back(tier);
      shared_savings +=
          choice.without_game_dictionary - std::min(choice.without_game_dictionary, choice.bytes);
    }
    done.bytes = std::filesystem::file_size(path);
    done.positions = done.header.positions - done.header.holes;
    if (events.tier) events.tier(done);
    return done;
  };
  for (const Tier tier : tiers) {
    const TierReader* reader = database.find(game, tier);
    if (reader == nullptr) {
      ++summary.missing;
      if (events.tier) {
        CompressedTier missing;
        missing.name = game.tier_name(tier);
        missing.built = false;
        events.tier(missing);
      }
      continue;
    }
    if (!reader->header().depths() && write.encoding == Encoding::kDepth)
      fail("{} keeps wins, draws and losses only: its depths cannot be restored (rebuild it)",
           reader->path());
    summary.bytes_before += reader->file_bytes();
    const CompressedTier done = rewrite(tier, *reader);
    summary.positions += done.positions;
    summary.bytes_after += done.bytes;
  }
  if (write.game_dictionary != nullptr && !shared.empty()) {
    const std::uint64_t cost = std::filesystem::file_size(dictionary_path);
    if (shared_savings < cost) {
      if (events.dictionary_dropped) events.dictionary_dropped(shared_savings, shared.size(), cost);
      write.game_dictionary = nullptr;
      for (const Tier tier : std::vector<Tier>(std::move(shared))) {
        const TierReader* reader = database.find(game, tier);
        summary.bytes_after -= reader->file_bytes();
        summary.bytes_after += rewrite(tier, *reader).bytes;
      }
    } else {
      summary.bytes_after += cost;
    }
  }
  for (const auto& removed :
       remove_unnamed_game_dictionaries(database.location().directory(), write.encoding)) {
    if (events.dictionary_removed) events.dictionary_removed(removed);
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace gs::db
