#include "cli/commands.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "app/position_report.h"
#include "cli/output.h"
#include "core/error.h"
#include "core/quote.h"
#include "gamesolver/database.h"

namespace gs::cli {

namespace {

std::ostream& error_line(const Streams& streams) {
  streams.out.flush();
  return streams.err << "gamesolver: error: ";
}

// The commands that take --pieces (cli/command_line.cpp).
bool takes_pieces(const std::string& command) {
  return command == "build" || command == "verify" || command == "compress" || command == "stats" ||
         command == "count";
}

// Refuses --pieces over the most pieces of any tier of the game: such a count names no
// more tiers, and walking the index space it would span only costs time and memory.
void check_pieces(const Invocation& invocation, const app::GameService& service, int pieces) {
  const std::optional<int> most = service.max_pieces();
  if (!takes_pieces(invocation.command) || !most || pieces <= *most) return;
  const app::GameLabel label = service.label();
  throw UsageError(fmt::format("--pieces {} is more than {} ({}) has: its tiers hold at most {}", pieces,
                               label.game, label.variant, *most));
}

// The option that names a command's tiers again: --start, --tier NAME ... or --pieces N.
std::string scope_option(const Invocation& invocation, int pieces) {
  if (invocation.start) return "--start";
  if (invocation.tiers.empty()) return fmt::format("--pieces {}", pieces);
  std::string text;
  for (const std::string& tier : invocation.tiers) text += (text.empty() ? "--tier " : " --tier ") + tier;
  return text;
}

}  // namespace

int run(const Invocation& invocation, app::GameService& service, const Streams& streams) {
  const std::string& command = invocation.command;
  const app::CommonOptions& common = invocation.common;
  std::ostream& out = streams.out;
  const std::string game = service.label().game;
  const int pieces = invocation.pieces.value_or(service.default_pieces());
  check_pieces(invocation, service, pieces);
  if ((invocation.start || !invocation.tiers.empty()) &&
      (invocation.build.ultra || invocation.verify.ultra || invocation.stats_ultra))
    throw UsageError(
        fmt::format("{} is for the strong databases: the ultra ones are made for every tier up to --pieces",
                    invocation.start ? "--start" : "--tier"));
  if (command == "build") {
    app::BuildRequest request = invocation.build;
    request.pieces = pieces;
    request.start = invocation.start;
    request.tiers = invocation.tiers;
    service.build(
        common, request, [&](const app::BuiltTier& tier) { print_built_tier(out, tier, common.quiet); },
        [&](const app::BuildSummary& summary) { print_build_summary(out, summary); });
    return 0;
  }
  if (command == "extended") {
    // The build's report goes to stderr when stdout carries JSON.
    std::ostream& report = invocation.json ? streams.err : out;
    app::BuildSummary built;
    const app::ExtendedTable table = service.extended(
        common, invocation.max_in_hand,
        [&](const app::BuiltTier& tier) { print_built_tier(report, tier, common.quiet); }, built);
    print_build_summary(report, built);
    print_extended(out, table, invocation.json);
    return 0;
  }
  if (command == "probe") {
    if (invocation.pdn) {
      print_analysis(out, service.analyse(common, *invocation.pdn, invocation.game_number), invocation.json);
    } else if (!common.ultra.empty()) {
      // probe --ultra H: the moves ranked by the ultra databases of that heuristic.
      const app::PositionReport report = service.probe(common, invocation.position);
      out << (invocation.json ? app::to_json(report).dump(2) + "\n" : app::report_text(report));
    } else {
      // Through the library other programs use (gamesolver/database.h), so that it
      // answers as this command does.
      const gamesolver::Database database = gamesolver::Database::open(common.data.string(), invocation.game,
                                                                       invocation.variant, invocation.rules);
      const gamesolver::Report report = database.probe(invocation.position);
      out << (invocation.json ? report.json() + "\n" : report.text());
    }
    return 0;
  }
  if (command == "verify") {
    app::VerifyRequest request = invocation.verify;
    request.pieces = pieces;
    request.start = invocation.start;
    request.tiers = invocation.tiers;
    const app::VerifySummary summary = service.verify(common, request, [&](const app::VerifiedTier& tier) {
      print_verified_tier(out, tier, common.quiet);
    });
    print_verify_summary(out, summary, game, request);
    if (!summary.ok()) {
      error_line(streams) << verify_failure_text(summary) << "\n";
      return 1;
    }
    return 0;
  }
  if (command == "compress") {
    app::CompressRequest request = invocation.compress;
    request.pieces = pieces;
    request.start = invocation.start;
    request.tiers = invocation.tiers;
    const db::CompressSummary summary =
        service.compress(common, request, compress_printer(out, common.quiet));
    print_compress_summary(out, summary, game, request.scope());
    return 0;
  }
  if (command == "stats" && invocation.stats_ultra) {
    print_ultra_classes(out, service.ultra_classes(common, pieces, *invocation.stats_ultra), invocation.json);
    return 0;
  }
  if (command == "stats") {
    const app::StatsSummary stats = service.stats(
        common, TierScope::of(pieces, invocation.start, invocation.tiers), invocation.stats_sectors);
    print_stats(out, stats, invocation.json);
    if (stats.missing > 0) {
      error_line(streams) << fmt::format("{} tiers are not built: run gamesolver build {} {}\n",
                                         stats.missing, game, scope_option(invocation, pieces));
      return 1;
    }
    return 0;
  }
  if (command == "count") {
    app::CountRequest request = invocation.count;
    request.pieces = pieces;
    print_count(out, service.count(common, request), game,
                {invocation.json, invocation.per_tier, request.per_material, request.sizes_only});
    return 0;
  }
  if (command == "play")
    return play_loop(service, common, invocation.play, invocation.play_options, streams.in, out);
  if (command == "solve") {
    print_solve(out, service.solve(common, invocation.solve, invocation.position), invocation.json);
    return 0;
  }
  if (command == "prove") {
    int code = 0;
    service.prove(common, invocation.prove, invocation.position, [&](const app::ProveResult& result) {
      print_prove(out, result, invocation.json);
      if (result.check && !result.check->ok()) {
        error_line(streams) << fmt::format("the proof store {} failed its check ({} errors)\n", result.store,
                                           result.check->errors.size());
        code = 1;
      }
      out.flush();
    });
    return code;
  }
  if (command == "match") {
    print_match(out, service.match(common, invocation.match), invocation.json);
    return 0;
  }
  if (command == "perft") {
    print_perft(out, service.perft(invocation.perft), invocation.json);
    return 0;
  }
  fail("unknown command {}", quote_input(command));
}

}  // namespace gs::cli
