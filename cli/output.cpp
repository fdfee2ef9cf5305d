#include "cli/output.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "core/duration.h"
#include "db/block_codec.h"
#include "db/tier_file.h"

namespace gs::cli {

namespace {

double millions_per_second(std::uint64_t count, double seconds) {
  return static_cast<double>(count) / std::max(seconds, 1e-9) / 1e6;
}

// "up to N pieces", or what --start or --tier covers.
std::string scope_text(const TierScope& scope) {
  if (!scope.named.empty()) return fmt::format("for {} and the tiers needed", fmt::join(scope.named, ", "));
  return scope.from_start ? std::string("for the start position")
                          : fmt::format("up to {} pieces", scope.pieces);
}

}  // namespace

void print_built_tier(std::ostream& out, const app::BuiltTier& tier, bool quiet) {
  if (tier.built) {
    out << fmt::format("{:<12} {:>12} indices  built in {:.2f}s  ({:.2f}M indices/s){}{}\n", tier.name,
                       tier.positions, tier.seconds, millions_per_second(tier.positions, tier.seconds),
                       tier.rank >= 0 ? fmt::format(" on rank {}", tier.rank) : "",
                       tier.rebuilt_because.empty() ? "" : "  rebuilt: " + tier.rebuilt_because);
  } else if (!quiet) {
    out << fmt::format("{:<12} {:>12} indices  already built\n", tier.name, tier.positions);
  }
  const app::BuildProgress& progress = tier.progress;
  if (!quiet && progress.tiers > 0) {
    const double percent = progress.indices == 0 ? 100.0
                                                 : 100.0 * static_cast<double>(progress.indices_done) /
                                                       static_cast<double>(progress.indices);
    std::string eta = "ETA unknown";
    if (progress.tiers_done >= progress.tiers) {
      eta = "done";
    } else if (progress.eta_seconds) {
      eta = "ETA " + duration_text(*progress.eta_seconds);
    }
    out << fmt::format("tier {} of {}, {:.1f}% of indices, {}\n", progress.tiers_done, progress.tiers,
                       percent, eta);
  }
  out.flush();
}

void print_build_summary(std::ostream& out, const app::BuildSummary& summary) {
  if (summary.mpi) {
    out << fmt::format(
        "built {} tiers ({} indices) in {:.2f}s, {:.2f}M indices/s on {} worker ranks of {} threads; {} "
        "tiers were already complete, {} finished in an earlier run; databases in {}\n",
        summary.built, summary.built_positions, summary.seconds,
        millions_per_second(summary.built_positions, summary.seconds), summary.worker_ranks, summary.threads,
        summary.skipped, summary.finished_earlier, summary.directory);
    if (!summary.lost_ranks.empty()) {
      out << fmt::format("ranks given up: {}; their tiers were built by others\n",
                         fmt::join(summary.lost_ranks, ", "));
    }
  } else {
    out << fmt::format(
        "built {} tiers ({} indices) in {:.2f}s, {:.2f}M indices/s on {} threads; {} tiers were "
        "already complete; writing files took {:.0f}% of the tiers' time; peak RSS {:.1f} MiB; "
        "databases in {}\n",
        summary.built, summary.built_positions, summary.seconds,
        millions_per_second(summary.built_positions, summary.seconds), summary.threads, summary.skipped,
        100 * summary.write_fraction, static_cast<double>(summary.peak_rss_bytes) / (1 << 20),
        summary.directory);
  }
  out.flush();
}

void print_extended(std::ostream& out, const app::ExtendedTable& table, bool json) {
  if (json) {
    nlohmann::json starts = nlohmann::json::array();
    for (const auto& cell : table.starts) {
      starts.push_back(
          {{"white", cell.white},
           {"black", cell.black},
           {"position", cell.position},
           {"value", app::outcome_name(cell.value)},
           {"depth", cell.value.is_draw() ? nlohmann::json(nullptr) : nlohmann::json(cell.value.depth())}});
    }
    const nlohmann::json body = {{"game", table.label.game},
                                 {"variant", table.label.variant},
                                 {"rules", table.label.rules},
                                 {"max_in_hand", table.max_in_hand},
                                 {"starts", starts}};
    out << body.dump(2) << "\n";
    return;
  }
  std::string text = fmt::format(
      "extended solution of {} {}{}: empty board, White to move; rows: White's stones to place, "
      "columns: Black's; values for White, depths in plies\n{:>6}",
      table.label.game, table.label.variant, table.label.rules.empty() ? "" : " (" + table.label.rules + ")",
      "");
  for (int black = 3; black <= table.max_in_hand; ++black) text += fmt::format("{:>12}", black);
  text += "\n";
  int row = 0;
  for (const auto& cell : table.starts) {
    if (cell.white != row) {
      if (row != 0) text += "\n";
      row = cell.white;
      text += fmt::format("{:>6}", row);
    }
    text += fmt::format("{:>12}", cell.value.to_string());
  }
  if (row != 0) text += "\n";
  out << text;
}

void print_analysis(std::ostream& out, const app::GameAnalysis& analysis, bool json) {
  if (json) {
    nlohmann::json plies = nlohmann::json::array();
    std::size_t index = 0;
    for (const auto& ply : analysis.plies) {
      plies.push_back(
          {{"ply", ++index},
           {"number", ply.number},
           {"move", ply.move},
           {"position", ply.position},
           {"value", app::json_value(ply.value, ply.depth)},
           {"after", ply.after},
           {"value_after", app::json_value(ply.value_after, ply.depth_after)},
           {"mover_value_after", app::json_value(ply.mover_value_after, ply.depth_after)},
           {"error", !ply.change.empty()},
           {"change", ply.change.empty() ? nlohmann::json(nullptr) : nlohmann::json(ply.change)}});
    }
    nlohmann::json tags = nlohmann::json::object();
    for (const auto& [name, value] : analysis.tags) tags[name] = value;
    const nlohmann::json body = {{"game", analysis.game},
                                 {"file", analysis.file},
                                 {"number", analysis.number},
                                 {"tags", tags},
                                 {"start", analysis.start},
                                 {"result", analysis.result},
                                 {"plies", plies},
                                 {"final",
                                  {{"position", analysis.last},
                                   {"terminal", analysis.last_terminal},
                                   {"value", app::json_value(analysis.last_value, analysis.last_depth)}}},
                                 {"errors", analysis.errors.size()}};
    out << body.dump(2) << "\n";
    return;
  }
  out << fmt::format("game {} of {}: {} {} from {}, result {}\n", analysis.number, analysis.file,
                     analysis.plies.size(), analysis.plies.size() == 1 ? "ply" : "plies", analysis.start,
                     analysis.result);
  out << "values are for the side making the move; an error is a move that loses a win or a draw\n";
  out << fmt::format("{:<6} {:<14} {:<24} {:<24} {}\n", "ply", "move", "before (mover)", "after (mover)",
                     "position before");
  for (const auto& ply : analysis.plies) {
    out << fmt::format("{:<6} {:<14} {:<24} {:<24} {}{}\n", ply.number, ply.move,
                       app::value_text(ply.value, ply.depth),
                       app::value_text(ply.mover_value_after, ply.depth_after), ply.position,
                       ply.change.empty() ? "" : "  error: " + ply.change);
  }
  out << fmt::format("final position {}: {}{}\n", analysis.last,
                     app::value_text(analysis.last_value, analysis.last_depth),
                     analysis.last_terminal ? " (the game is over)" : "");
  if (analysis.errors.empty()) {
    out << "no move changes the value known to the databases\n";
  } else {
    out << fmt::format("{} error{}:", analysis.errors.size(), analysis.errors.size() == 1 ? "" : "s");
    for (const std::string& error : analysis.errors) out << fmt::format(" {};", error);
    out << "\n";
  }
}

void print_verified_tier(std::ostream& out, const app::VerifiedTier& tier, bool quiet) {
  if (!tier.failure.empty()) {
    out << fmt::format("{:<12} not verified: {}\n", tier.name, tier.failure);
  } else if (tier.inconsistent > 0) {
    out << fmt::format("{:<12} {} inconsistent position{}\n", tier.name, tier.inconsistent,
                       tier.inconsistent == 1 ? "" : "s");
    for (const app::Inconsistency& bad : tier.listed) {
      out << fmt::format(
          "  tier {} index {} is inconsistent: position {} stores {}, its successors give {}\n", bad.tier,
          bad.index, bad.position, bad.stored, bad.expected);
    }
  } else if (!quiet) {
    out << fmt::format(
        "{:<12} {}\n", tier.name,
        tier.checksums_only ? "checksums ok" : (tier.from_journal ? "ok (the journal)" : "ok"));
  }
  out.flush();
}

void print_verify_summary(std::ostream& out, const app::VerifySummary& summary, const std::string& game,
                          const app::VerifyRequest& request) {
  if (!summary.ok()) {
    if (summary.listed < summary.inconsistent) {
      out << fmt::format("... and {} more inconsistent positions, not listed (--max-errors {})\n",
                         summary.inconsistent - summary.listed, request.max_errors);
    }
    return;
  }
  if (summary.checksums_only) {
    out << fmt::format("verified the checksums of {} bytes of {} databases {} in {:.2f}s\n", summary.bytes,
                       game, scope_text(request.scope()), summary.seconds);
  } else {
    out << fmt::format("verified {} indices of {} {} in {:.2f}s: every value agrees with its successors{}\n",
                       summary.positions, game, scope_text(request.scope()), summary.seconds,
                       summary.journaled_tiers == 0
                           ? ""
                           : fmt::format(" ({} tiers found consistent by an earlier run, --journal)",
                                         summary.journaled_tiers));
  }
}

std::string verify_failure_text(const app::VerifySummary& summary) {
  const auto plural = [](std::uint64_t count, const char* word) {
    return fmt::format("{} {}{}", count, word, count == 1 ? "" : "s");
  };
  std::string text = "verify: ";
  if (summary.inconsistent > 0) {
    text += fmt::format("{} in {}", plural(summary.inconsistent, "inconsistent position"),
                        plural(static_cast<std::uint64_t>(summary.inconsistent_tiers), "tier"));
  }
  if (summary.failed_tiers > 0) {
    if (summary.inconsistent > 0) text += "; ";
    text +=
        fmt::format("{} could not be verified (the first: {})",
                    plural(static_cast<std::uint64_t>(summary.failed_tiers), "tier"), summary.first_failure);
  }
  return text;
}

db::CompressEvents compress_printer(std::ostream& out, bool quiet) {
  db::CompressEvents events;
  if (quiet) return events;
  events.dictionary_trained = [&out](const db::TrainedGameDictionary& trained) {
    if (trained.path.empty()) {
      if (trained.tiers > 0) out << "too little to train a game dictionary on: none written\n";
      return;
    }
    out << fmt::format("game dictionary {} ({} bytes) trained on {} bytes of {} tiers\n",
                       trained.path.string(), trained.bytes, trained.sampled, trained.tiers);
  };
  events.tier = [&out](const db::CompressedTier& tier) {
    if (!tier.built) {
      out << fmt::format("{:<12} not built\n", tier.name);
      return;
    }
    const db::TierHeader& written = tier.header;
    out << fmt::format("{:<12} {:>12} positions  {:>10} bytes  {} {}{}  {:.1f} positions/byte\n", tier.name,
                       tier.positions, tier.bytes, db::encoding_name(written.encoding),
                       db::codec_name(written.codec),
                       written.codec == db::Codec::kZstd && written.table_bytes > 0 ? "+dictionary" : "",
                       static_cast<double>(tier.positions) / static_cast<double>(tier.bytes));
  };
  events.dictionary_dropped = [&out](std::uint64_t savings, std::size_t tiers, std::uint64_t cost) {
    out << fmt::format("the game dictionary saves {} bytes in {} tiers, less than its {}: not kept\n",
                       savings, tiers, cost);
  };
  events.dictionary_removed = [&out](const std::filesystem::path& path) {
    out << fmt::format("removed {}: no tier file names it\n", path.string());
  };
  return events;
}

void print_compress_summary(std::ostream& out, const db::CompressSummary& summary, const std::string& game,
                            const TierScope& scope) {
  out << fmt::format(
      "compressed {} positions of {} {} from {} to {} bytes ({:.1f} positions/byte) in {:.2f}s; "
      "{} "
      "tiers are not built\n",
      summary.positions, game, scope_text(scope), summary.bytes_before, summary.bytes_after,
      static_cast<double>(summary.positions) /
          static_cast<double>(std::max<std::uint64_t>(summary.bytes_after, 1)),
      summary.seconds, summary.missing);
}

namespace {

// A stats row's counts.
nlohmann::json counts_json(const app::TierStats& t) {
  return {{"indices", t.indices},
          {"positions", t.positions},
          {"wins", t.wins},
          {"draws", t.draws},
          {"losses", t.losses},
          {"longest_win", t.longest_win},
          {"longest_loss", t.longest_loss}};
}

// The JSON of stats: its label, its rows under `key` and its total.
nlohmann::json stats_json(const app::StatsSummary& stats, const char* key, nlohmann::json rows) {
  const app::TierStats& total = stats.total;
  return {{"game", stats.label.game},
          {"variant", stats.label.variant},
          {"rules", stats.label.rules},
          {"headers_only", stats.headers_only},
          {key, std::move(rows)},
          {"total",
           {{"positions", total.positions},
            {"wins", total.wins},
            {"draws", total.draws},
            {"losses", total.losses},
            {"longest_win", total.longest_win},
            {"longest_loss", total.longest_loss},
            {"file_bytes", total.file_bytes}}}};
}

// stats --sectors: a row per sector, its outcomes in percent of its positions too.
void print_sector_stats(std::ostream& out, const app::StatsSummary& stats, bool json) {
  const app::TierStats& total = stats.total;
  if (json) {
    nlohmann::json sectors = nlohmann::json::array();
    for (const app::TierStats& t : stats.tiers) {
      if (!t.built) {
        sectors.push_back({{"tier", t.of_tier}, {"built", false}});
        continue;
      }
      nlohmann::json row = counts_json(t);
      row.update({{"sector", t.tier}, {"tier", t.of_tier}, {"built", true}});
      sectors.push_back(std::move(row));
    }
    out << stats_json(stats, "sectors", std::move(sectors)).dump(2) << "\n";
    return;
  }
  const auto percent = [](std::uint64_t part, std::uint64_t whole) {
    return fmt::format(
        "{:.2f}", 100.0 * static_cast<double>(part) / static_cast<double>(std::max<std::uint64_t>(whole, 1)));
  };
  const auto row = [&out](const std::string& sector, const std::string& tier, auto positions, auto wins,
                          auto draws, auto losses, auto max_win, auto max_loss) {
    out << fmt::format("{:<10} {:<10} {:>12} {:>7} {:>7} {:>7} {:>8} {:>8}\n", sector, tier, positions, wins,
                       draws, losses, max_win, max_loss);
  };
  row("sector", "tier", "positions", "win %", "draw %", "loss %", "max win", "max loss");
  for (const app::TierStats& t : stats.tiers) {
    if (!t.built) {
      out << fmt::format("{:<10} {:<10} not built\n", "", t.of_tier);
      continue;
    }
    row(t.tier, t.of_tier, t.positions, percent(t.wins, t.positions), percent(t.draws, t.positions),
        percent(t.losses, t.positions), t.longest_win, t.longest_loss);
  }
  row("total", "", total.positions, percent(total.wins, total.positions),
      percent(total.draws, total.positions), percent(total.losses, total.positions), total.longest_win,
      total.longest_loss);
  out << fmt::format(
      "{} wins, {} draws, {} losses; every value read, each tier's sectors checked against its header\n",
      total.wins, total.draws, total.losses);
}

}  // namespace

void print_stats(std::ostream& out, const app::StatsSummary& stats, bool json) {
  if (stats.by_sector) {
    print_sector_stats(out, stats, json);
    return;
  }
  if (json) {
    nlohmann::json tiers = nlohmann::json::array();
    for (const app::TierStats& t : stats.tiers) {
      if (!t.built) {
        tiers.push_back({{"tier", t.tier}, {"built", false}});
        continue;
      }
      nlohmann::json row = counts_json(t);
      row.update({{"tier", t.tier}, {"built", true}, {"pieces", t.pieces}, {"file_bytes", t.file_bytes}});
      tiers.push_back(std::move(row));
    }
    out << stats_json(stats, "tiers", std::move(tiers)).dump(2) << "\n";
    return;
  }
  const auto row = [&out](const std::string& tier, auto positions, auto wins, auto draws, auto losses,
                          auto max_win, auto max_loss, auto bytes) {
    out << fmt::format("{:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8} {:>12}\n", tier, positions, wins,
                       draws, losses, max_win, max_loss, bytes);
  };
  row("tier", "positions", "wins", "draws", "losses", "max win", "max loss", "file bytes");
  for (const app::TierStats& t : stats.tiers) {
    if (!t.built) {
      out << fmt::format("{:<12} not built\n", t.tier);
      continue;
    }
    row(t.tier, t.positions, t.wins, t.draws, t.losses, t.longest_win, t.longest_loss, t.file_bytes);
  }
  const app::TierStats& total = stats.total;
  row("total", total.positions, total.wins, total.draws, total.losses, total.longest_win, total.longest_loss,
      total.file_bytes);
  if (stats.headers_only) {
    out << "read from the files' headers only (their checksums checked): no block was read or checked; "
           "gamesolver verify --checksums checks every block\n";
  }
}

void print_perft(std::ostream& out, const app::PerftResult& perft, bool json) {
  if (json) {
    nlohmann::json body = {{"game", perft.game},
                           {"position", perft.position},
                           {"depth", perft.depth},
                           {"nodes", perft.division.nodes},
                           {"seconds", perft.seconds}};
    if (perft.divide) {
      nlohmann::json rows = nlohmann::json::array();
      for (const auto& row : perft.division.moves) rows.push_back({{"move", row.move}, {"nodes", row.nodes}});
      body["moves"] = rows;
    }
    out << body.dump(2) << "\n";
    return;
  }
  for (const auto& row : perft.division.moves) out << fmt::format("{:<12} {}\n", row.move, row.nodes);
  out << fmt::format("perft {} from {} depth {}: {} nodes in {:.3f}s\n", perft.game, perft.position,
                     perft.depth, perft.division.nodes, perft.seconds);
}

}  // namespace gs::cli

namespace gs::cli {

void print_match(std::ostream& out, const app::MatchResult& match, bool json) {
  auto label = [](const std::string& player, const std::string& heuristic) {
    return heuristic.empty() ? player : player + " (" + heuristic + ")";
  };
  if (json) {
    const nlohmann::json body = {{"a", match.white},
                                 {"b", match.black},
                                 {"a_heuristic", match.white_heuristic},
                                 {"b_heuristic", match.black_heuristic},
                                 {"from", match.from},
                                 {"seed", match.seed},
                                 {"games", match.games},
                                 {"wins", match.wins},
                                 {"draws", match.draws},
                                 {"losses", match.losses},
                                 {"wins_moving_first", match.first_wins},
                                 {"games_moving_first", match.first_games},
                                 {"wins_moving_second", match.second_wins},
                                 {"games_moving_second", match.second_games},
                                 {"adjudicated", match.adjudicated},
                                 {"plies", match.plies},
                                 {"win_rate_95", {match.win_interval.first, match.win_interval.second}},
                                 {"loss_rate_95", {match.loss_interval.first, match.loss_interval.second}},
                                 {"score", match.score},
                                 {"score_95", {match.score_interval.first, match.score_interval.second}},
                                 {"seconds", match.seconds}};
    out << body.dump(2) << "\n";
    return;
  }
  const double n = static_cast<double>(std::max<std::uint64_t>(match.games, 1));
  out << fmt::format("{} games, A = {} against B = {}, from {} (seed {}), {:.1f} s\n", match.games,
                     label(match.white, match.white_heuristic), label(match.black, match.black_heuristic),
                     match.from, match.seed, match.seconds);
  out << fmt::format(
      "A: {} wins ({:.1f}%, 95% CI {:.1f}-{:.1f}%), {} draws, {} losses ({:.1f}%, 95% CI {:.1f}-{:.1f}%)\n",
      match.wins, 100 * static_cast<double>(match.wins) / n, 100 * match.win_interval.first,
      100 * match.win_interval.second, match.draws, match.losses, 100 * static_cast<double>(match.losses) / n,
      100 * match.loss_interval.first, 100 * match.loss_interval.second);
  out << fmt::format(
      "A's score {:.3f} (95% CI {:.3f}-{:.3f}); A won {} of {} moving first, {} of {} moving second; "
      "{} draws adjudicated; {:.1f} plies a game\n",
      match.score, match.score_interval.first, match.score_interval.second, match.first_wins,
      match.first_games, match.second_wins, match.second_games, match.adjudicated,
      static_cast<double>(match.plies) / n);
}

void print_ultra_classes(std::ostream& out, const app::UltraClasses& classes, bool json) {
  if (json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : classes.rows)
      rows.push_back({{"rank", row.rank}, {"draws", row.draws}, {"sectors", row.sectors}});
    const nlohmann::json body = {{"heuristic", classes.heuristic}, {"directory", classes.directory},
                                 {"positions", classes.positions}, {"wins", classes.wins},
                                 {"draws", classes.draws},         {"losses", classes.losses},
                                 {"stable", classes.stable},       {"classes", rows}};
    out << body.dump(2) << "\n";
    return;
  }
  out << fmt::format(
      "{} positions: {} wins, {} draws ({} stable in their own sector), {} losses; ultra ({}) in {}\n",
      classes.positions, classes.wins, classes.draws, classes.stable, classes.losses, classes.heuristic,
      classes.directory);
  const double draws = static_cast<double>(std::max<std::uint64_t>(classes.draws, 1));
  out << fmt::format("{:>6} {:>14} {:>8}  sectors of the rank\n", "rank", "draws", "%");
  for (const auto& row : classes.rows) {
    std::string sectors = fmt::format(
        "{}", fmt::join(row.sectors.begin(),
                        row.sectors.begin() +
                            static_cast<std::ptrdiff_t>(std::min<std::size_t>(row.sectors.size(), 6)),
                        " "));
    if (row.sectors.size() > 6) sectors += fmt::format(" and {} more", row.sectors.size() - 6);
    if (row.sectors.empty()) sectors = "(a draw by the rules)";
    out << fmt::format("{:>6} {:>14} {:>8.3f}  {}\n", row.rank, row.draws,
                       100 * static_cast<double>(row.draws) / draws, sectors);
  }
}

}  // namespace gs::cli
