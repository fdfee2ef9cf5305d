#include "gamesolver/database.h"

#include <fmt/format.h>

#include <atomic>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "app/game_service.h"
#include "app/registry.h"
#include "db/database.h"
#include "lib/report_data.h"
#include "lib/translate.h"

namespace gamesolver {

using detail::translated;

struct Database::State {
  std::unique_ptr<gs::app::GameService> service;
  std::unique_ptr<gs::db::Database> database;
  gs::app::GameLabel label;
  std::filesystem::path data;
  // The directory was there at a probe: later probes do not look again.
  mutable std::atomic<bool> directory_seen{false};

  [[nodiscard]] gs::app::CommonOptions common() const {
    gs::app::CommonOptions options;
    options.data = data;
    options.quiet = true;
    return options;
  }
  // Refuses a piece count the command line refuses (--pieces 2..64, at most the game's).
  void check_pieces(int pieces) const {
    if (pieces < 2 || pieces > 64)
      throw Error(ErrorKind::kInput, fmt::format("pieces must be from 2 to 64, not {}", pieces));
    const std::optional<int> most = service->max_pieces();
    if (most && pieces > *most) {
      throw Error(ErrorKind::kInput,
                  fmt::format("--pieces {} is more than {} ({}) has: its tiers hold at most {}", pieces,
                              label.game, label.variant, *most));
    }
  }
};

Database::Database(std::unique_ptr<State> state) : state_(std::move(state)) {}
Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;
Database::~Database() = default;

Database Database::open(const std::string& data, const std::string& game, const std::string& variant,
                        const std::vector<std::string>& rules, const OpenOptions& options) {
  return translated(ErrorKind::kNotFound, [&] {
    auto state = std::make_unique<State>();
    state->service = gs::app::find_game(game).make(variant, rules);
    state->label = state->service->label();
    state->data = data;
    gs::db::ProberOptions probing;
    probing.block_cache_bytes = options.block_cache_bytes;
    probing.position_cache_entries = options.position_cache_entries;
    state->database =
        std::make_unique<gs::db::Database>(state->service->database_location(state->data), true, probing);
    // Without require_databases the directory is never looked for: probes see its
    // tiers missing.
    state->directory_seen.store(!options.require_databases, std::memory_order_relaxed);
    return Database(std::move(state));
  });
}

std::string Database::game() const { return state_->label.game; }
std::string Database::variant() const { return state_->label.variant; }
std::string Database::rules() const { return state_->label.rules; }
std::string Database::directory() const { return state_->database->location().directory().string(); }
std::string Database::start() const {
  return translated(ErrorKind::kInternal,
                    [&] { return state_->service->describe().at("start").get<std::string>(); });
}

std::string Database::description_json() const {
  return translated(ErrorKind::kInternal, [&] { return state_->service->describe().dump(); });
}
std::string Database::inventory_json() const {
  return translated(ErrorKind::kDatabase, [&] { return state_->service->databases(state_->data).dump(); });
}

Report Database::probe(const std::string& position) const {
  return translated(ErrorKind::kDatabase, [&] {
    const bool check = !state_->directory_seen.load(std::memory_order_relaxed);
    auto data = std::make_shared<detail::ReportData>();
    data->report = state_->service->probe(*state_->database, position, std::nullopt, check);
    if (check) state_->directory_seen.store(true, std::memory_order_relaxed);
    return make_report(std::move(data));
  });
}

Report Database::probe(const std::string& position, const std::string& move) const {
  return translated(ErrorKind::kDatabase, [&] {
    const bool check = !state_->directory_seen.load(std::memory_order_relaxed);
    auto data = std::make_shared<detail::ReportData>();
    data->report = state_->service->probe(*state_->database, position, move, check);
    if (check) state_->directory_seen.store(true, std::memory_order_relaxed);
    return make_report(std::move(data));
  });
}

PositionValue Database::value(const std::string& position) const {
  return translated(ErrorKind::kDatabase, [&] {
    const bool check = !state_->directory_seen.load(std::memory_order_relaxed);
    const gs::app::ProbedValue probed = state_->service->probe_value(*state_->database, position, check);
    if (check) state_->directory_seen.store(true, std::memory_order_relaxed);
    return PositionValue{detail::public_value(probed.value, probed.depth), probed.terminal};
  });
}

Stats Database::stats(int pieces) const {
  state_->check_pieces(pieces);
  return translated(ErrorKind::kDatabase, [&] {
    const gs::app::StatsSummary summary = state_->service->stats(state_->common(), pieces, false);
    auto convert = [](const gs::app::TierStats& row) {
      return TierStats{row.tier,  row.built,  row.pieces,      row.indices,      row.positions, row.wins,
                       row.draws, row.losses, row.longest_win, row.longest_loss, row.file_bytes};
    };
    Stats stats;
    for (const gs::app::TierStats& row : summary.tiers) stats.tiers.push_back(convert(row));
    stats.total = convert(summary.total);
    stats.missing = summary.missing;
    return stats;
  });
}

BuildResult Database::build(const BuildOptions& options) {
  state_->check_pieces(options.pieces);
  return translated(ErrorKind::kDatabase, [&] {
    gs::app::CommonOptions common = state_->common();
    common.threads = options.threads;
    common.memory_gib = options.memory_gib;
    gs::app::BuildRequest request;
    request.pieces = options.pieces;
    BuildResult result;
    state_->service->build(
        common, request, [](const gs::app::BuiltTier&) {},
        [&](const gs::app::BuildSummary& summary) {
          result = {summary.built,   summary.skipped,        summary.built_positions,
                    summary.seconds, summary.peak_rss_bytes, summary.directory};
        });
    return result;
  });
}

VerifyResult Database::verify(const VerifyOptions& options) const {
  state_->check_pieces(options.pieces);
  return translated(ErrorKind::kDatabase, [&] {
    gs::app::VerifyRequest request;
    request.pieces = options.pieces;
    request.checksums = options.checksums;
    request.max_errors = 0;
    const gs::app::VerifySummary summary =
        state_->service->verify(state_->common(), request, [](const gs::app::VerifiedTier&) {});
    return VerifyResult{summary.ok(),         summary.positions,     summary.bytes,  summary.inconsistent,
                        summary.failed_tiers, summary.first_failure, summary.seconds};
  });
}

Report Database::make_report(std::shared_ptr<detail::ReportData> data) {
  const gs::app::PositionReport& from = data->report;
  Report report;
  report.game = from.game;
  report.variant = from.variant;
  report.rules = from.rules;
  report.position = from.position;
  report.side = from.side;
  report.terminal = from.terminal;
  report.no_legal_move = from.no_legal_move;
  report.value = detail::public_value(from.value, from.depth);
  report.tier = from.tier;
  if (from.ranked) report.index = from.ranked->index;
  report.moves.reserve(from.moves.size());
  for (const auto& row : from.moves)
    report.moves.push_back({row.move, row.position, detail::public_value(row.value, row.depth)});
  report.best = from.best;
  report.missing_tier = from.missing_tier;
  report.beyond = from.beyond;
  report.played = from.played;
  report.data_ = std::move(data);
  return report;
}

std::vector<GameInfo> games() {
  return translated(ErrorKind::kInternal, [] {
    std::vector<GameInfo> out;
    for (const gs::app::GameEntry& game : gs::app::registered_games())
      out.push_back({game.name, game.description, game.option_help});
    return out;
  });
}

}  // namespace gamesolver
