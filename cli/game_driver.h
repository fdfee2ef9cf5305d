#pragma once
// The CLI commands over any game type.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/driver.h"
#include "cli/game_extras.h"
#include "cli/game_info.h"
#include "cli/pdn_game.h"
#include "cli/position_report.h"
#include "cli/solve_command.h"
#include "core/error.h"
#include "core/game.h"
#include "core/parallel.h"
#include "core/pdn.h"
#include "core/progress.h"
#include "db/database.h"
#include "db/game_dictionary.h"
#include "dist/mpi.h"
#include "retro/build.h"
#include "retro/verify.h"

namespace gs::cli {

// Peak resident memory of this process so far, in bytes.
inline std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

template <Game G>
class GameDriver final : public Driver {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;

  explicit GameDriver(G game, GameExtras<G> extras = {})
      : game_(std::move(game)), extras_(std::move(extras)) {}

  int build(const CommonOptions& options, int pieces) override {
    run_build(options, pieces, stdout);
    return 0;
  }

  // The extended solution of a mill game: the value of every empty-board start with
  // 3..max_in_hand stones to place per side, White to move, after building what it needs.
  int extended(const CommonOptions& options, int max_in_hand) override {
    if constexpr (requires(const G& game) { game.start(3, 3); }) {
      // The build's report goes to stderr when stdout carries JSON.
      run_build(options, max_in_hand, options.json ? stderr : stdout);
      db::Database database(location(options));
      nlohmann::json table = nlohmann::json::array();
      std::string text = fmt::format(
          "extended solution of {} {}{}: empty board, White to move; rows: White's stones to place, "
          "columns: Black's; values for White, depths in plies\n{:>6}",
          G::kName, game_.variant(), game_.rule_text().empty() ? "" : " (" + game_.rule_text() + ")", "");
      for (int black = 3; black <= max_in_hand; ++black) text += fmt::format("{:>12}", black);
      text += "\n";
      for (int white = 3; white <= max_in_hand; ++white) {
        text += fmt::format("{:>6}", white);
        for (int black = 3; black <= max_in_hand; ++black) {
          const Position start = game_.start(white, black);
          const std::optional<Value> value = db::probe(game_, database, start);
          if (!value) fail("no database holds the start {}", game_.position_text(start));
          table.push_back(
              {{"white", white},
               {"black", black},
               {"position", game_.position_text(start)},
               {"value", outcome_name(*value)},
               {"depth", value->is_draw() ? nlohmann::json(nullptr) : nlohmann::json(value->depth())}});
          text += fmt::format("{:>12}", value->to_string());
        }
        text += "\n";
      }
      if (options.json) {
        const nlohmann::json out = {{"game", std::string(G::kName)},
                                    {"variant", game_.variant()},
                                    {"rules", game_.rule_text()},
                                    {"max_in_hand", max_in_hand},
                                    {"starts", table}};
        fmt::print("{}\n", out.dump(2));
      } else {
        fmt::print("{}", text);
      }
      return 0;
    } else {
      (void)options;
      (void)max_in_hand;
      fail("{} has no extended solutions: they are defined for the mill games (morris)", G::kName);
    }
  }

 private:
  static std::string outcome_name(const Value& value) {
    if (value.is_win()) return "win";
    if (value.is_loss()) return "loss";
    return "draw";
  }

  retro::BuildOptions build_options_of(const CommonOptions& options, int threads) const {
    retro::BuildOptions build_options;
    // Every value stored: the derivable don't-cares (docs/FORMAT.md) cost a pass over
    // every position on writing and a derivation of each on reading a child tier; they
    // are for probing, and `gamesolver compress` adds them.
    build_options.solve.threads = threads;
    build_options.solve.quiet = options.quiet;
    build_options.memory_bytes = static_cast<std::uint64_t>(options.memory_gib * (1ULL << 30));
    return build_options;
  }

  // `build --mpi` on every rank: rank 0 hands out tiers, the others build them; with one
  // rank, the ordinary build. Threads and memory are per rank; without --threads the
  // ranks on a machine share its cores.
  void run_mpi_build(const CommonOptions& options, int pieces, std::FILE* out) {
    dist::Session session;
    const int rank_threads =
        options.threads > 0 ? options.threads : std::max(1, default_threads() / session.local_ranks());
    if (session.ranks() == 1) {
      CommonOptions single = options;
      single.mpi = false;
      single.threads = rank_threads;
      run_build(single, pieces, out);
      return;
    }
    db::Database database(location(options));
    const retro::BuildOptions build_options = build_options_of(options, rank_threads);
    if (!session.manager()) {
      dist::run_worker(session, {}, [&](Tier tier) {
        retro::require_memory(game_, database, tier, build_options);
        const retro::TierReport report =
            retro::build_tier(game_, database, tier, build_options, rank_threads, true);
        // Nothing is kept between tiers: a rank's memory is that of one tier at a time.
        for (const Tier child : game_.children(tier)) database.forget(child);
        database.forget(tier);
        dist::JobResult result;
        result.built = report.built;
        result.positions = report.header.positions;
        result.seconds = report.seconds;
        return result;
      });
      return;
    }
    try {
      std::vector<dist::Job> jobs;
      for (const Tier tier : retro::tiers_in_order(game_, pieces)) {
        jobs.push_back({tier, game_.tier_name(tier), game_.size(tier), game_.children(tier)});
      }
      std::filesystem::create_directories(database.location().directory());
      // What killed writers of an earlier run left behind (this machine's only).
      db::remove_stale_temporaries_in(database.location().directory());
      dist::ManagerOptions manager;
      manager.timeout_seconds = options.mpi_timeout;
      manager.progress_log = database.location().directory() / "build-progress.log";
      manager.quiet = options.quiet;
      const auto start = std::chrono::steady_clock::now();
      const dist::ManagerSummary summary = dist::run_manager(
          session, jobs, manager,
          [&](const dist::Job& job) {
            return db::tier_file_good(database.location().file(job.name),
                                      database.location().expected(job.tier, job.positions));
          },
          [&](const dist::Job& job, const dist::JobResult& result) {
            if (result.built) {
              fmt::print(out, "{:<12} {:>12} indices  built in {:.2f}s  ({:.2f}M indices/s) on rank {}\n",
                         job.name, result.positions, result.seconds,
                         static_cast<double>(result.positions) / std::max(result.seconds, 1e-9) / 1e6,
                         result.rank);
            } else if (!options.quiet) {
              fmt::print(out, "{:<12} {:>12} indices  already built\n", job.name, result.positions);
            }
            std::fflush(out);
          });
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      fmt::print(
          out,
          "built {} tiers ({} indices) in {:.2f}s, {:.2f}M indices/s on {} worker ranks of {} threads; {} "
          "tiers were already complete, {} finished in an earlier run; databases in {}\n",
          summary.built, summary.built_positions, seconds,
          static_cast<double>(summary.built_positions) / std::max(seconds, 1e-9) / 1e6, session.ranks() - 1,
          rank_threads, summary.present, summary.skipped, database.location().directory().string());
      if (!summary.lost_ranks.empty()) {
        fmt::print(out, "ranks given up: {}; their tiers were built by others\n",
                   fmt::join(summary.lost_ranks, ", "));
      }
      std::fflush(out);
      if (!summary.hung_ranks.empty()) {
        // Every tier is complete, but MPI_Finalize would wait for the hung ranks forever.
        fmt::print(stderr, "gamesolver: ranks {} stopped answering and may still run: ending the job\n",
                   fmt::join(summary.hung_ranks, ", "));
        std::fflush(stderr);
        dist::Session::abort(0);
      }
    } catch (const std::exception& error) {
      // The workers may be building: end them all rather than wait in MPI_Finalize.
      std::fflush(stdout);
      fmt::print(stderr, "gamesolver: error: {}\n", error.what());
      std::fflush(stderr);
      dist::Session::abort(1);
    }
  }

  void run_build(const CommonOptions& options, int pieces, std::FILE* out) {
    if (options.mpi) {
      run_mpi_build(options, pieces, out);
      return;
    }
    db::Database database(location(options));
    const retro::BuildOptions build_options = build_options_of(options, threads(options));
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t built_positions = 0;
    int built = 0;
    int skipped = 0;
    double tier_seconds = 0;
    double write_seconds = 0;
    retro::build(game_, database, pieces, build_options, [&](const retro::TierReport& report) {
      if (report.built) {
        ++built;
        built_positions += report.header.positions;
        tier_seconds += report.seconds;
        write_seconds += report.write_seconds;
        fmt::print(out, "{:<12} {:>12} indices  built in {:.2f}s  ({:.2f}M indices/s)\n", report.name,
                   report.header.positions, report.seconds,
                   static_cast<double>(report.header.positions) / std::max(report.seconds, 1e-9) / 1e6);
      } else {
        ++skipped;
        if (!options.quiet)
          fmt::print(out, "{:<12} {:>12} indices  already built\n", report.name, report.header.positions);
      }
      std::fflush(out);
    });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print(out,
               "built {} tiers ({} indices) in {:.2f}s, {:.2f}M indices/s on {} threads; {} tiers were "
               "already complete; writing files took {:.0f}% of the tiers' time; peak RSS {:.1f} MiB; "
               "databases in {}\n",
               built, built_positions, seconds,
               static_cast<double>(built_positions) / std::max(seconds, 1e-9) / 1e6, threads(options),
               skipped, 100 * write_seconds / std::max(tier_seconds, 1e-9),
               static_cast<double>(peak_rss_bytes()) / (1 << 20), database.location().directory().string());
  }

 public:
  int probe(const CommonOptions& options, const std::string& text) override {
    db::Database database(location(options));
    const Position pos = game_.parse_position(text);
    const PositionReport<G> report = report_position(game_, database, pos);
    if (options.json) {
      fmt::print("{}\n", to_json(game_, report).dump(2));
      return 0;
    }
    fmt::print("{}\n", game_.position_text(pos));
    if constexpr (requires { game_.board_text(pos); }) fmt::print("{}", game_.board_text(pos));
    if (game_.terminal(pos)) {
      fmt::print("value: {} (the game is over)\n", report.value->to_string());
      return 0;
    }
    fmt::print("tier {} index {}\n", game_.tier_name(report.ranked->tier), report.ranked->index);
    fmt::print("value: {}\n", cli::value_text(report.value, report.depth));
    if (report.moves.empty()) fmt::print("no legal move\n");
    for (const auto& row : report.moves)
      fmt::print("  {:<8} {:<16} {}\n", row.move, cli::value_text(row.value, row.depth), row.position);
    return 0;
  }

  int verify(const CommonOptions& options, int pieces) override {
    if (options.checksums) return verify_checksums(options, pieces);
    db::Database database(location(options));
    std::uint64_t positions = 0;
    const auto start = std::chrono::steady_clock::now();
    const std::vector<Tier> order = retro::tiers_in_order(game_, pieces);
    std::map<Tier, std::vector<Tier>> released = retro::released_after(game_, order);
    for (const Tier tier : order) {
      const auto bad = retro::verify_tier(game_, database, tier, threads(options), options.quiet);
      for (const Tier done : released[tier]) database.forget(done);  // their decompressed blocks
      if (bad) {
        fmt::print(stderr,
                   "gamesolver: error: verify: tier {} index {} is inconsistent: position {} stores {}, its "
                   "successors give {}\n",
                   game_.tier_name(tier), bad->index, bad->position, bad->stored, bad->expected);
        return 1;
      }
      positions += game_.size(tier);
      if (!options.quiet) fmt::print("{:<12} ok\n", game_.tier_name(tier));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print(
        "verified {} indices of {} up to {} pieces in {:.2f}s: every value agrees with its successors\n",
        positions, G::kName, pieces, seconds);
    return 0;
  }

  // Every block's checksum, the header's and the block index's, and that every block
  // decompresses to the values' checksum: no value is re-derived.
  int verify_checksums(const CommonOptions& options, int pieces) {
    db::Database database(location(options), false);
    std::uint64_t bytes = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const Tier tier : retro::tiers_in_order(game_, pieces)) {
      const db::TierReader* reader = database.find(game_, tier);
      if (reader == nullptr) fail("tier {} is not built", game_.tier_name(tier));
      reader->check(true);
      bytes += reader->file_bytes();
      if (!options.quiet) fmt::print("{:<12} checksums ok\n", game_.tier_name(tier));
      database.forget(tier);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("verified the checksums of {} bytes of {} databases up to {} pieces in {:.2f}s\n", bytes,
               G::kName, pieces, seconds);
    return 0;
  }

  // The codes of a tier as its reader gives them, holes told by the game: a file that
  // fills them holds a neighbour's value there.
  std::vector<ValueCode> tier_codes(const db::TierReader& reader, Tier tier, int threads) const {
    const bool holes_filled = reader.header().holes_filled;
    std::vector<ValueCode> codes(reader.header().positions);
    parallel_for(0, codes.size(), threads, 1 << 16, [&](Index begin, Index end, int) {
      for (Index i = begin; i < end; ++i)
        codes[i] = holes_filled && !game_.unrank(tier, i) ? kHoleCode : reader.code(i);
    });
    return codes;
  }

  // compress --dictionary game: one dictionary trained on images of every built tier up
  // to `pieces`, as `write` would store them: kGameTrainingBytes in all, every tier
  // with a piece of up to kDictionarySampleBytes, the rest in proportion to its size.
  // Writes the dictionary file and returns its codec and path, or a null codec when
  // there is too little to train on.
  static constexpr std::uint64_t kGameTrainingBytes = std::uint64_t{4} << 20;
  struct TrainedDictionary {
    std::shared_ptr<const db::BlockCodec> codec;
    std::filesystem::path path;
  };
  TrainedDictionary game_dictionary(db::Database& database, const CommonOptions& options, int pieces,
                                    const db::WriteOptions& write) {
    const unsigned bits = write.encoding == db::Encoding::kWinDrawLoss ? 2 : 8;
    std::vector<std::pair<Tier, std::uint64_t>> images;  // built tiers and their image bytes
    for (const Tier tier : retro::tiers_in_order(game_, pieces)) {
      const db::TierReader* reader = database.find(game_, tier);
      if (reader != nullptr) images.emplace_back(tier, db::image_bytes(reader->header().positions, bits));
    }
    if (images.empty()) return {};
    const std::uint64_t least =
        std::min<std::uint64_t>(db::kDictionarySampleBytes, kGameTrainingBytes / images.size());
    std::uint64_t reserved = 0;
    std::uint64_t rest = 0;
    for (const auto& [tier, bytes] : images) {
      reserved += std::min(bytes, least);
      rest += bytes - std::min(bytes, least);
    }
    const double share =
        rest == 0 ? 0.0 : static_cast<double>(kGameTrainingBytes - reserved) / static_cast<double>(rest);
    std::vector<std::vector<std::uint8_t>> samples;
    std::uint64_t sampled = 0;
    for (const auto& [tier, bytes] : images) {
      const db::TierReader* reader = database.find(game_, tier);
      const std::uint64_t budget =
          std::min(bytes, least) +
          static_cast<std::uint64_t>(static_cast<double>(bytes - std::min(bytes, least)) *
                                     std::min(share, 1.0));
      const auto codes = tier_codes(*reader, tier, write.threads);
      for (auto& sample : db::dictionary_samples(reader->header(), codes, write, budget)) {
        sampled += sample.size();
        samples.push_back(std::move(sample));
      }
      database.forget(tier);
    }
    const std::vector<std::uint8_t> dictionary = db::train_game_dictionary(samples);
    if (dictionary.empty()) {
      if (!options.quiet) fmt::print("too little to train a game dictionary on: none written\n");
      return {};
    }
    const db::Location where = location(options);
    const auto path = db::write_game_dictionary(
        where.directory(), {where.game, where.variant, where.rules, write.encoding}, dictionary);
    if (!options.quiet) {
      fmt::print("game dictionary {} ({} bytes) trained on {} bytes of {} tiers\n", path.string(),
                 dictionary.size(), sampled, images.size());
    }
    return {db::shared_zstd_codec(dictionary, write.zstd_level), path};
  }

  // Rewrites every tier in format v2 with the chosen encoding and codec, a tier at a time,
  // each atomically: an interrupted run leaves every file whole, old or new. With
  // --dictionary game, the game dictionary's file is written first (under a name of its
  // own: files still naming an older one stay readable); if the files that chose it save
  // less than the dictionary file's size (by write_tier's estimates), they are written
  // again without it and its file is removed. Last, the game dictionaries of this
  // encoding that no tier file in the directory names any more are removed.
  int compress(const CommonOptions& options, int pieces) override {
    db::Database database(location(options));
    db::WriteOptions write;
    write.encoding = options.encoding == "wdl" ? db::Encoding::kWinDrawLoss : db::Encoding::kDepth;
    if (options.codec == "rle") write.codec = db::Codec::kRunLength;
    if (options.codec == "zstd") write.codec = db::Codec::kZstd;
    if (options.codec == "none") write.codec = db::Codec::kNone;
    write.threads = threads(options);
    write.zstd_level = options.zstd_level;
    write.derivable = db::derivable_positions(game_);
    if (options.dictionary != "tier") write.dictionary = false;
    TrainedDictionary dictionary;
    if (options.dictionary == "game" && (options.codec == "auto" || options.codec == "zstd")) {
      dictionary = game_dictionary(database, options, pieces, write);
      write.game_dictionary = dictionary.codec;
    }
    std::uint64_t before = 0;
    std::uint64_t after = 0;
    std::uint64_t positions = 0;
    int missing = 0;
    std::vector<Tier> shared;          // tiers that chose the game dictionary
    std::uint64_t shared_savings = 0;  // estimated bytes they save with it
    const auto start = std::chrono::steady_clock::now();
    // Rewrites one tier (opened in database) with `write`; returns its positions (holes
    // excepted) and its new size.
    auto rewrite = [&](Tier tier, const db::TierReader& reader) -> std::pair<std::uint64_t, std::uint64_t> {
      const db::TierHeader header = reader.header();
      const std::vector<ValueCode> codes = tier_codes(reader, tier, write.threads);
      database.forget(tier);
      const auto path = location(options).file(header.tier_name);
      db::WriteChoice choice;
      const db::TierHeader written = db::write_tier(path, header, codes, write, &choice);
      if (written.codec == db::Codec::kZstdShared) {
        shared.push_back(tier);
        shared_savings +=
            choice.without_game_dictionary - std::min(choice.without_game_dictionary, choice.bytes);
      }
      const auto bytes = std::filesystem::file_size(path);
      if (!options.quiet) {
        fmt::print("{:<12} {:>12} positions  {:>10} bytes  {} {}{}  {:.1f} positions/byte\n",
                   header.tier_name, written.positions - written.holes, bytes,
                   db::encoding_name(written.encoding), db::codec_name(written.codec),
                   written.codec == db::Codec::kZstd && written.table_bytes > 0 ? "+dictionary" : "",
                   static_cast<double>(written.positions - written.holes) / static_cast<double>(bytes));
      }
      return {written.positions - written.holes, bytes};
    };
    for (const Tier tier : retro::tiers_in_order(game_, pieces)) {
      const db::TierReader* reader = database.find(game_, tier);
      if (reader == nullptr) {
        ++missing;
        if (!options.quiet) fmt::print("{:<12} not built\n", game_.tier_name(tier));
        continue;
      }
      if (!reader->header().depths() && write.encoding == db::Encoding::kDepth)
        fail("{} keeps wins, draws and losses only: its depths cannot be restored (rebuild it)",
             reader->path());
      before += reader->file_bytes();
      const auto [stored, bytes] = rewrite(tier, *reader);
      positions += stored;
      after += bytes;
    }
    if (dictionary.codec != nullptr && !shared.empty()) {
      const std::uint64_t cost = std::filesystem::file_size(dictionary.path);
      if (shared_savings < cost) {
        if (!options.quiet) {
          fmt::print("the game dictionary saves {} bytes in {} tiers, less than its {}: not kept\n",
                     shared_savings, shared.size(), cost);
        }
        write.game_dictionary = nullptr;
        for (const Tier tier : std::vector<Tier>(std::move(shared))) {
          const db::TierReader* reader = database.find(game_, tier);
          after -= reader->file_bytes();
          after += rewrite(tier, *reader).second;
        }
      } else {
        after += cost;
      }
    }
    for (const auto& removed :
         db::remove_unnamed_game_dictionaries(location(options).directory(), write.encoding)) {
      if (!options.quiet) fmt::print("removed {}: no tier file names it\n", removed.string());
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print(
        "compressed {} positions of {} up to {} pieces from {} to {} bytes ({:.1f} positions/byte) in "
        "{:.2f}s; {} "
        "tiers are not built\n",
        positions, G::kName, pieces, before, after,
        static_cast<double>(positions) / static_cast<double>(std::max<std::uint64_t>(after, 1)), seconds,
        missing);
    return 0;
  }

  int stats(const CommonOptions& options, int pieces) override {
    db::Database database(location(options), false);
    nlohmann::json tiers = nlohmann::json::array();
    std::uint64_t total[6] = {};
    int missing = 0;
    if (!options.json) {
      fmt::print("{:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8} {:>12}\n", "tier", "positions", "wins",
                 "draws", "losses", "max win", "max loss", "file bytes");
    }
    for (const Tier tier : retro::tiers_in_order(game_, pieces)) {
      const db::TierReader* reader = database.find(game_, tier);
      if (reader == nullptr) {
        ++missing;
        if (options.json) {
          tiers.push_back({{"tier", game_.tier_name(tier)}, {"built", false}});
        } else {
          fmt::print("{:<12} not built\n", game_.tier_name(tier));
        }
        continue;
      }
      const db::TierHeader& h = reader->header();
      const std::uint64_t positions = h.positions - h.holes;
      total[0] += positions;
      total[1] += h.wins;
      total[2] += h.draws;
      total[3] += h.losses;
      total[4] = std::max<std::uint64_t>(total[4], h.longest_win);
      total[5] += reader->file_bytes();
      if (options.json) {
        tiers.push_back({{"tier", h.tier_name},
                         {"built", true},
                         {"pieces", game_.tier_pieces(tier)},
                         {"indices", h.positions},
                         {"positions", positions},
                         {"wins", h.wins},
                         {"draws", h.draws},
                         {"losses", h.losses},
                         {"longest_win", h.longest_win},
                         {"longest_loss", h.longest_loss},
                         {"file_bytes", reader->file_bytes()}});
      } else {
        fmt::print("{:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8} {:>12}\n", h.tier_name, positions, h.wins,
                   h.draws, h.losses, h.longest_win, h.longest_loss, reader->file_bytes());
      }
    }
    if (options.json) {
      nlohmann::json out = {{"game", std::string(G::kName)},
                            {"variant", game_.variant()},
                            {"rules", game_.rule_text()},
                            {"tiers", tiers},
                            {"total",
                             {{"positions", total[0]},
                              {"wins", total[1]},
                              {"draws", total[2]},
                              {"losses", total[3]},
                              {"longest_win", total[4]},
                              {"file_bytes", total[5]}}}};
      fmt::print("{}\n", out.dump(2));
    } else {
      fmt::print("{:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8} {:>12}\n", "total", total[0], total[1],
                 total[2], total[3], total[4], "", total[5]);
    }
    if (missing > 0) {
      std::fflush(stdout);
      fmt::print(stderr, "gamesolver: error: {} tiers are not built: run gamesolver build {} --pieces {}\n",
                 missing, G::kName, pieces);
      return 1;
    }
    return 0;
  }

  int count(const CommonOptions& options, int pieces) override {
    // Positions are counted from the rules: every canonical index stands for the
    // positions of its symmetry class.
    static_assert(HasSymmetries<G>, "count needs the game's symmetries");
    struct Counts {
      std::uint64_t positions = 0, stalemates = 0, terminal = 0, classes = 0, indices = 0, baseline = 0;
      void add(const Counts& other) {
        positions += other.positions;
        stalemates += other.stalemates;
        terminal += other.terminal;
        classes += other.classes;
        indices += other.indices;
        baseline += other.baseline;
      }
    };
    const bool per_material = options.per_material;
    if (per_material && extras_.material == nullptr) {
      fail("{} groups no positions by material: its tiers are its materials (use --tiers)", G::kName);
    }
    if (per_material && options.sizes_only) fail("--materials counts positions: it does not go with --sizes");
    // Per material: its code and counts, a short list per thread (a tier holds few).
    using MaterialCounts = std::vector<std::pair<std::uint32_t, Counts>>;
    auto material_entry = [](MaterialCounts& list, std::uint32_t code) -> Counts& {
      for (auto& [key, counts] : list) {
        if (key == code) return counts;
      }
      return list.emplace_back(code, Counts{}).second;
    };
    std::map<int, Counts> by_pieces;
    std::vector<std::pair<Tier, Counts>> by_tier;
    std::map<std::pair<int, std::uint32_t>, Counts> by_material;
    for (const Tier tier : game_.tiers(pieces)) {
      const Index size = game_.size(tier);
      const int workers = options.sizes_only ? 1 : threads(options);
      std::vector<Counts> partial(static_cast<std::size_t>(workers));
      std::vector<MaterialCounts> partial_materials(static_cast<std::size_t>(workers));
      Progress progress("count " + game_.tier_name(tier), size, options.quiet || options.sizes_only);
      parallel_for(0, options.sizes_only ? 0 : size, workers, 1 << 14,
                   [&](Index begin, Index end, int thread) {
                     Counts& c = partial[static_cast<std::size_t>(thread)];
                     MaterialCounts& materials = partial_materials[static_cast<std::size_t>(thread)];
                     std::vector<Position> symmetric;
                     MoveList<G> moves;
                     for (Index i = begin; i < end; ++i) {
                       const auto pos = game_.unrank(tier, i);
                       if (!pos) continue;
                       game_.symmetric(*pos, symmetric);
                       Counts one;
                       const auto orbit = static_cast<std::uint64_t>(symmetric.size());
                       one.classes = 1;
                       one.positions = orbit;
                       if (game_.terminal(*pos)) {
                         one.terminal = orbit;
                       } else {
                         game_.moves(*pos, moves);
                         if (moves.empty()) one.stalemates = orbit;
                       }
                       c.add(one);
                       if (per_material) material_entry(materials, extras_.material(*pos)).add(one);
                     }
                     progress.add(end - begin);
                   });
      Counts sum;
      for (const Counts& c : partial) sum.add(c);
      sum.indices = size;
      if constexpr (HasBaselineSize<G>) sum.baseline = game_.baseline_size(tier);
      by_pieces[game_.tier_pieces(tier)].add(sum);
      by_tier.emplace_back(tier, sum);
      for (const MaterialCounts& list : partial_materials) {
        for (const auto& [code, counts] : list) by_material[{game_.tier_pieces(tier), code}].add(counts);
      }
    }
    // The end positions (in no tier) of each material.
    std::map<std::pair<int, std::uint32_t>, std::uint64_t> material_ends;
    if (per_material && extras_.end_positions_by_material != nullptr) {
      for (int n = 1; n <= pieces; ++n) {
        for (const auto& [code, count] : extras_.end_positions_by_material(n)) {
          material_ends[{n, code}] += count;
          by_material[{n, code}];  // a row even where no tier holds the material
        }
      }
    }
    auto row = [&](const std::string& key, const nlohmann::json& label, const Counts& c,
                   std::uint64_t end_positions) {
      nlohmann::json out = {{key, label},
                            {"positions", c.positions},
                            {"stalemates", c.stalemates},
                            {"classes", c.classes},
                            {"indices", c.indices}};
      if (end_positions > 0) out["end_positions"] = end_positions;
      if constexpr (HasBaselineSize<G>) out["baseline_indices"] = c.baseline;
      return out;
    };
    nlohmann::json pieces_rows = nlohmann::json::array();
    nlohmann::json tier_rows = nlohmann::json::array();
    for (const auto& [n, c] : by_pieces) {
      std::uint64_t end_positions = c.terminal;
      if constexpr (HasEndPositionCount<G>) end_positions += game_.end_positions(n);
      pieces_rows.push_back(row("pieces", n, c, end_positions));
    }
    for (const auto& [tier, c] : by_tier) tier_rows.push_back(row("tier", game_.tier_name(tier), c, 0));
    nlohmann::json material_rows = nlohmann::json::array();
    for (const auto& [key, c] : by_material) {
      const auto ends = material_ends.find(key);
      const std::uint64_t end_positions = c.terminal + (ends == material_ends.end() ? 0 : ends->second);
      material_rows.push_back({{"pieces", key.first},
                               {"material", extras_.material_name(key.second)},
                               {"positions", c.positions},
                               {"end_positions", end_positions},
                               {"stalemates", c.stalemates},
                               {"classes", c.classes}});
    }
    if (options.json) {
      nlohmann::json out = {{"game", std::string(G::kName)}, {"counts", pieces_rows}};
      if (options.per_tier) out["tiers"] = tier_rows;
      if (per_material) out["materials"] = material_rows;
      if constexpr (HasBaselineSize<G>) out["baseline"] = G::baseline_name();
      fmt::print("{}\n", out.dump(2));
      return 0;
    }
    // classes: positions up to symmetry (the index entries that are not holes);
    // indices: the size of the index; baseline: the published index it is compared with.
    auto print = [](const nlohmann::json& r, const std::string& key) {
      const std::string label = r[key].is_string() ? r[key].get<std::string>() : r[key].dump();
      fmt::print("{:>8} {:>16} {:>14} {:>11} {:>14} {:>14} {:>14}\n", label,
                 r["positions"].get<std::uint64_t>(), r.value("end_positions", std::uint64_t{0}),
                 r["stalemates"].get<std::uint64_t>(), r["classes"].get<std::uint64_t>(),
                 r["indices"].get<std::uint64_t>(), r.value("baseline_indices", std::uint64_t{0}));
    };
    std::string baseline = "baseline";
    if constexpr (HasBaselineSize<G>) baseline = G::baseline_name();
    const auto header = [&](const std::string& first, const std::string& end) {
      fmt::print("{:>8} {:>16} {:>14} {:>11} {:>14} {:>14} {:>14}\n", first, "positions", end, "stalemates",
                 "classes", "indices", baseline);
    };
    if (options.sizes_only) {
      // The index against the baseline, without enumerating positions.
      fmt::print("{:>12} {:>16} {:>16} {:>8}\n", options.per_tier ? "tier" : "pieces", "indices", baseline,
                 "ratio");
      for (const auto& r : options.per_tier ? tier_rows : pieces_rows) {
        const std::string key = options.per_tier ? "tier" : "pieces";
        const std::string label = r[key].is_string() ? r[key].get<std::string>() : r[key].dump();
        const auto indices = r["indices"].get<std::uint64_t>();
        const auto base = r.value("baseline_indices", std::uint64_t{0});
        fmt::print("{:>12} {:>16} {:>16} {:>8.4f}\n", label, indices, base,
                   base == 0 ? 0.0 : static_cast<double>(indices) / static_cast<double>(base));
      }
      return 0;
    }
    if (options.per_tier) {
      header("tier", "");
      for (const auto& r : tier_rows) print(r, "tier");
      fmt::print("\n");
    }
    if (per_material) {
      // classes: boards (positions up to symmetry); with the end positions they add up
      // to the boards of each piece count.
      fmt::print("{:>8} {:>8} {:>16} {:>14} {:>11} {:>14}\n", "pieces", "material", "positions",
                 "end positions", "stalemates", "classes");
      for (const auto& r : material_rows) {
        fmt::print("{:>8} {:>8} {:>16} {:>14} {:>11} {:>14}\n", r["pieces"].get<int>(),
                   r["material"].get<std::string>(), r["positions"].get<std::uint64_t>(),
                   r["end_positions"].get<std::uint64_t>(), r["stalemates"].get<std::uint64_t>(),
                   r["classes"].get<std::uint64_t>());
      }
      fmt::print("\n");
    }
    header("pieces", "end positions");
    for (const auto& r : pieces_rows) print(r, "pieces");
    return 0;
  }

  int play(const CommonOptions& options, const PlayRequest& request) override {
    if (request.from && request.pdn) fail("play: give --from or --pdn, not both");
    std::error_code same_error;
    if (request.save && request.pdn && std::filesystem::equivalent(*request.save, *request.pdn, same_error))
      fail("play: --save {} would overwrite the game file read with --pdn", request.save->string());
    db::Database database(location(options));
    PlayedGame<G> played;
    if (request.pdn) {
      const std::string source = request.pdn->string();
      played = replay(game_, game_in(pdn::read_file(*request.pdn), request.game, source), source, extras_);
      fmt::print("{} moves of game {} of {} replayed\n", played.moves.size(), request.game, source);
    } else {
      played.start = request.from ? game_.parse_position(*request.from) : game_.start();
      played.positions.push_back(played.start);
      played.second_half = side_to_move<G>(played.start) != side_to_move<G>(game_.start());
    }
    // The game played so far is saved however the session ends.
    auto finish = [&]() {
      if (request.save) {
        pdn::write_file(*request.save, pdn_text(game_, played, extras_));
        fmt::print("game saved to {}\n", request.save->string());
      }
      return 0;
    };
    auto play_move = [&](const Position& from, const Move& move) {
      played.moves.push_back(move);
      played.move_texts.push_back(game_.move_text(from, move));
      const Position next = game_.play(from, move);
      played.positions.push_back(next);
      return next;
    };
    Position pos = played.positions.back();
    int human_side = -1;  // -1: the side to move at the start
    if (request.human == extras_.side_names[0]) human_side = 0;
    if (request.human == extras_.side_names[1]) human_side = 1;
    if (human_side < 0) human_side = side_of(pos);
    std::string line;
    while (true) {
      fmt::print("\n{}", board(pos));
      if (const auto over = game_.terminal(pos)) {
        fmt::print("game over: {} for the side to move\n", over->to_string());
        return finish();
      }
      const std::optional<Value> value = db::probe(game_, database, pos);
      fmt::print("value: {}\n", cli::value_text(value, depth_known(game_, database, pos)));
      MoveList<G> moves;
      game_.moves(pos, moves);
      if (moves.empty()) {
        fmt::print("no legal move: {}\n", game_.no_move_value().to_string());
        return finish();
      }
      if (side_of(pos) == human_side) {
        fmt::print("your move (or 'quit'): ");
        std::fflush(stdout);
        if (!std::getline(std::cin, line) || line == "quit") return finish();
        try {
          pos = play_move(pos, game_.parse_move(pos, line));
        } catch (const Error& error) {
          fmt::print("{}\n", error.what());
        }
        continue;
      }
      if (!value) {
        fmt::print(
            "this position is beyond the databases ({} is not built): the perfect player "
            "cannot move from here\n",
            game_.tier_name(game_.rank(pos).tier));
        return finish();
      }
      // The perfect move: the shortest win, else a draw, else the longest loss.
      const Move* best = nullptr;
      std::optional<Value> best_value;
      for (const Move& move : moves) {
        const auto child = db::probe(game_, database, game_.play(pos, move));
        if (!child) continue;
        const Value mine = child->before_move();
        if (!best_value || mine.better_than(*best_value)) {
          best_value = mine;
          best = &move;
        }
      }
      fmt::print("gamesolver plays {} ({})\n", game_.move_text(pos, *best), best_value->to_string());
      pos = play_move(pos, *best);
    }
  }

  int probe_game(const CommonOptions& options, const std::filesystem::path& file, int number) override {
    const std::string source = file.string();
    const std::vector<pdn::Game> games = pdn::read_file(file);
    const PlayedGame<G> played = replay(game_, game_in(games, number, source), source, extras_);
    db::Database database(location(options));
    struct Known {
      std::optional<Value> value;
      bool depth = true;
    };
    std::vector<Known> known;
    for (const Position& pos : played.positions)
      known.push_back({db::probe(game_, database, pos), depth_known(game_, database, pos)});
    // Outcomes in order of preference: a move that lowers its mover's outcome is an error.
    auto rank = [](const Value& value) { return value.is_win() ? 2 : value.is_draw() ? 1 : 0; };
    nlohmann::json plies = nlohmann::json::array();
    std::vector<std::string> errors;
    std::string text = fmt::format("{:<6} {:<14} {:<24} {:<24} {}\n", "ply", "move", "before (mover)",
                                   "after (mover)", "position before");
    for (std::size_t i = 0; i < played.moves.size(); ++i) {
      const Known& before = known[i];
      const Known& after = known[i + 1];
      const std::optional<Value> mover_after =
          after.value ? std::optional<Value>(after.value->before_move()) : std::nullopt;
      std::string change;
      if (before.value && mover_after && rank(*mover_after) < rank(*before.value)) {
        change = fmt::format("{} -> {}", outcome_name(*before.value), outcome_name(*mover_after));
        errors.push_back(fmt::format("{} {} ({})", played.number(i), played.move_texts[i], change));
      }
      plies.push_back({{"ply", i + 1},
                       {"number", played.number(i)},
                       {"move", played.move_texts[i]},
                       {"position", game_.position_text(played.positions[i])},
                       {"value", json_value(before.value, before.depth)},
                       {"after", game_.position_text(played.positions[i + 1])},
                       {"value_after", json_value(after.value, after.depth)},
                       {"mover_value_after", json_value(mover_after, after.depth)},
                       {"error", !change.empty()},
                       {"change", change.empty() ? nlohmann::json(nullptr) : nlohmann::json(change)}});
      text +=
          fmt::format("{:<6} {:<14} {:<24} {:<24} {}{}\n", played.number(i), played.move_texts[i],
                      cli::value_text(before.value, before.depth), cli::value_text(mover_after, after.depth),
                      game_.position_text(played.positions[i]), change.empty() ? "" : "  error: " + change);
    }
    const Position& last = played.positions.back();
    const Known& final_value = known.back();
    nlohmann::json tags = nlohmann::json::object();
    for (const pdn::Tag& tag : played.record.tags) tags[tag.name] = tag.value;
    if (options.json) {
      const nlohmann::json out = {{"game", std::string(G::kName)},
                                  {"file", source},
                                  {"number", number},
                                  {"tags", tags},
                                  {"start", game_.position_text(played.start)},
                                  {"result", played.record.result},
                                  {"plies", plies},
                                  {"final",
                                   {{"position", game_.position_text(last)},
                                    {"terminal", game_.terminal(last).has_value()},
                                    {"value", json_value(final_value.value, final_value.depth)}}},
                                  {"errors", errors.size()}};
      fmt::print("{}\n", out.dump(2));
      return 0;
    }
    fmt::print("game {} of {}: {} {} from {}, result {}\n", number, source, played.moves.size(),
               played.moves.size() == 1 ? "ply" : "plies", game_.position_text(played.start),
               played.record.result);
    fmt::print("values are for the side making the move; an error is a move that loses a win or a draw\n");
    fmt::print("{}", text);
    fmt::print("final position {}: {}{}\n", game_.position_text(last),
               cli::value_text(final_value.value, final_value.depth),
               game_.terminal(last) ? " (the game is over)" : "");
    if (errors.empty()) {
      fmt::print("no move changes the value known to the databases\n");
    } else {
      fmt::print("{} error{}:", errors.size(), errors.size() == 1 ? "" : "s");
      for (const std::string& error : errors) fmt::print(" {};", error);
      fmt::print("\n");
    }
    return 0;
  }

  int solve(const CommonOptions& options, const SolveRequest& request, const std::string& position) override {
    return solve_command(game_, options, request, position);
  }

  int perft(const CommonOptions& options, const std::optional<std::string>& from, int depth,
            bool divide) override {
    const Position pos = from ? game_.parse_position(*from) : game_.start();
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    nlohmann::json rows = nlohmann::json::array();
    if (divide && depth > 0 && !game_.terminal(pos)) {
      MoveList<G> moves;
      game_.moves(pos, moves);
      for (const Move& move : moves) {
        const std::uint64_t count = perft_count(game_.play(pos, move), depth - 1);
        total += count;
        rows.push_back({{"move", game_.move_text(pos, move)}, {"nodes", count}});
        if (!options.json) fmt::print("{:<12} {}\n", game_.move_text(pos, move), count);
      }
    } else {
      total = perft_count(pos, depth);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (options.json) {
      nlohmann::json out = {{"game", std::string(G::kName)},
                            {"position", game_.position_text(pos)},
                            {"depth", depth},
                            {"nodes", total},
                            {"seconds", seconds}};
      if (divide) out["moves"] = rows;
      fmt::print("{}\n", out.dump(2));
    } else {
      fmt::print("perft {} from {} depth {}: {} nodes in {:.3f}s\n", G::kName, game_.position_text(pos),
                 depth, total, seconds);
    }
    return 0;
  }

  // The leaves of the move tree below pos at `depth` plies; a terminal position ends a line.
  std::uint64_t perft_count(const Position& pos, int depth) const {
    if (depth == 0) return 1;
    if (game_.terminal(pos)) return 0;
    MoveList<G> moves;
    game_.moves(pos, moves);
    if (depth == 1) return moves.size();
    std::uint64_t total = 0;
    for (const Move& move : moves) total += perft_count(game_.play(pos, move), depth - 1);
    return total;
  }

  nlohmann::json describe() const override { return describe_game(game_); }
  nlohmann::json databases(const std::filesystem::path& data) const override {
    return databases_present(game_, db::Location::of(game_, data));
  }
  db::Location database_location(const std::filesystem::path& data) const override {
    return db::Location::of(game_, data);
  }
  nlohmann::json report(db::Database& database, const std::string& text,
                        const std::optional<std::string>& move) const override {
    Position pos;
    try {
      pos = game_.parse_position(text);
      if (move) {
        if (game_.terminal(pos)) fail("no move can be played: the game is over");
        pos = game_.play(pos, game_.parse_move(pos, *move));
      }
    } catch (const Error& error) {
      throw InputError(error.what());
    }
    return to_json(game_, report_position(game_, database, pos));
  }

 private:
  static int threads(const CommonOptions& options) {
    return options.threads > 0 ? options.threads : default_threads();
  }
  db::Location location(const CommonOptions& options) const { return db::Location::of(game_, options.data); }
  static std::string value_text(const std::optional<Value>& value) {
    return value ? value->to_string() : "not in the databases";
  }
  std::string board(const Position& pos) const {
    if constexpr (requires { game_.board_text(pos); }) {
      return game_.board_text(pos);
    } else {
      return game_.position_text(pos) + "\n";
    }
  }
  static int side_of(const Position& pos) {
    if constexpr (requires { pos.side; }) {
      return pos.side;
    } else {
      return 0;
    }
  }

  G game_;
  GameExtras<G> extras_;
};

// A game's entry in the registry, with what the CLI knows of it beyond core/game.h.
// `make` is a plain function pointer: the extras of each game type are a template
// argument's static, set before the entry is made.
template <Game G>
GameExtras<G>& extras_of() {
  static GameExtras<G> extras;
  return extras;
}

template <Game G>
GameEntry entry(std::string description, GameExtras<G> extras = {}) {
  extras_of<G>() = std::move(extras);
  std::vector<std::string> help;
  if constexpr (requires { G::option_help(); }) help = G::option_help();
  return {std::string(G::kName), std::move(description), std::move(help),
          [](const std::string& variant, const std::vector<std::string>& rules) -> std::unique_ptr<Driver> {
            return std::make_unique<GameDriver<G>>(G::from_options(variant, rules), extras_of<G>());
          }};
}

}  // namespace gs::cli
