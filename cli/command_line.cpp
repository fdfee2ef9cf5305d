#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/command_line.h"

#include "app/registry.h"
#include "cli/commands.h"
#include "core/error.h"
#include "core/quote.h"

namespace gs::cli {

namespace {

std::string games_help() {
  std::string text = "games:";
  for (const auto& game : app::registered_games()) {
    text += fmt::format("\n  {:<10} {}", game.name, game.description);
    // A line that names its own option (morris: --variant) is not a rule option.
    for (const auto& option : game.option_help)
      text += fmt::format("\n    {}{}", option.starts_with("--") ? "" : "--rule ", option);
  }
  return text;
}

// A number option's check: a finite number within [low, high] (CLI::Range lets NaN
// through). CLI11 puts the option's name before the message.
CLI::Validator number_in(double low, double high) {
  return {[low, high](std::string& text) -> std::string {
            double value = 0;
            if (!CLI::detail::lexical_cast(text, value))
              return fmt::format("{} is not a number", quote_input(text));
            if (!std::isfinite(value) || value < low || value > high)
              return fmt::format("{} is not a number from {} to {}", text, low, high);
            return {};
          },
          fmt::format("NUMBER in [{} - {}]", low, high)};
}

CLI::App* add_command(CLI::App& app, const std::string& name, const std::string& description,
                      Invocation& command, bool with_pieces) {
  CLI::App* sub = app.add_subcommand(name, description);
  sub->add_option("game", command.game, "the game (see gamesolver --help)")->required();
  sub->add_option("--data", command.common.data, "database directory")->capture_default_str();
  sub->add_option("--variant", command.variant, "the game's variant (default: its standard rules)");
  sub->add_option("--rule", command.rules, "a rule option key=value (repeatable)");
  sub->add_flag("--quiet", command.common.quiet, "no progress on stderr");
  if (with_pieces) {
    sub->add_option("--pieces", command.pieces,
                    "tiers with up to this many pieces (mill games: stones a side, on the board and in hand; "
                    "default 4, or all pieces of a game that is one tier, e.g. dobutsu)")
        ->check(CLI::Range(2, 64));
  }
  return sub;
}

// --start and --tier, which exclude --pieces and each other (the commands that read or
// write a set of tiers).
void add_start_flag(CLI::App* sub, Invocation& command) {
  CLI::Option* start =
      sub->add_flag(
             "--start", command.start,
             "instead of every tier up to --pieces, only the tiers the start position needs (mill games: "
             "the start with the variant's stones, e.g. 9 a side; not with --ultra)")
          ->excludes("--pieces");
  sub->add_option("--tier", command.tiers,
                  "instead of every tier up to --pieces, only this tier (a name as stats prints it, e.g. "
                  "8-7-0-0) and the tiers it needs; repeatable; not with --ultra")
      ->excludes("--pieces")
      ->excludes(start);
}

}  // namespace

CommandLine::CommandLine(CLI::App& app) {
  app.footer(games_help());
  // Each subcommand's callback names the command it selected.
  auto select = [this](CLI::App* sub) { sub->callback([this, sub] { command_.command = sub->get_name(); }); };

  CLI::App* build =
      add_command(app, "build", "build the databases of every tier up to --pieces", command_, true);
  build->add_option("--threads", command_.common.threads, "threads (default: every core)")
      ->check(CLI::Range(1, 1024));
  build->add_option("--memory", command_.common.memory_gib, "working-memory budget in GiB")
      ->capture_default_str()
      ->check(number_in(1e-5, 1e6));
  build->add_flag("--mpi", command_.build.mpi,
                  "run under mpirun: rank 0 hands out tiers, the other ranks build them (--threads and "
                  "--memory per rank); finished tiers are logged, so a restarted run skips them");
  build
      ->add_option("--mpi-timeout", command_.build.mpi_timeout,
                   "seconds a building rank may stay silent before its tier goes to another rank")
      ->capture_default_str()
      ->check(number_in(0.5, 1e6));
  build
      ->add_option(
          "--ultra", command_.build.ultra,
          "then the ultra-strong databases with this heuristic for the sectors' values: ratio (their "
          "win/draw/loss ratios) or stones (the stone difference); docs/ULTRA.md")
      ->check(CLI::IsMember({"ratio", "stones"}));
  add_start_flag(build, command_);
  select(build);

  CLI::App* extended = add_command(
      app, "extended",
      "mill games: build what the empty-board starts need and print their values (stones to place 3..K)",
      command_, false);
  extended->add_option("--max-in-hand", command_.max_in_hand, "the most stones to place for either side (K)")
      ->required()
      ->check(CLI::Range(3, 12));
  extended->add_option("--threads", command_.common.threads, "threads (default: every core)")
      ->check(CLI::Range(1, 1024));
  extended->add_option("--memory", command_.common.memory_gib, "working-memory budget in GiB")
      ->capture_default_str()
      ->check(number_in(1e-5, 1e6));
  extended->add_flag("--json", command_.json, "JSON output (the build's report goes to stderr)");
  select(extended);

  CLI::App* probe = add_command(
      app, "probe", "the value of a position and of every move, or of every ply of a game (--pdn)", command_,
      false);
  CLI::Option* probe_position = probe->add_option("position", command_.position, "position text, or 'start'");
  CLI::Option* probe_pdn =
      probe->add_option("--pdn", command_.pdn,
                        "a PDN game file: every ply with the values before and after it, moves that change "
                        "the theoretical value marked as errors");
  probe_pdn->excludes(probe_position);
  probe->add_option("--game", command_.game_number, "with --pdn: the game in the file, from 1")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->needs(probe_pdn);
  probe->add_flag("--json", command_.json, "JSON output");
  probe
      ->add_option(
          "--ultra", command_.common.ultra,
          "rank the moves by the ultra databases of this heuristic (default: ratio where built, else "
          "stones)")
      ->check(CLI::IsMember({"ratio", "stones"}));
  probe->callback([this, probe_position] {
    if (!command_.pdn && probe_position->count() == 0)
      throw CLI::RequiredError("probe: a position or --pdn FILE");
    command_.command = "probe";
  });

  CLI::App* verify =
      add_command(app, "verify", "re-derive every stored value from its successors", command_, true);
  verify->add_option("--threads", command_.common.threads, "threads (default: every core)")
      ->check(CLI::Range(1, 1024));
  verify
      ->add_option("--memory", command_.common.memory_gib,
                   "memory budget in GiB for each tier's check: its file and its children's, each "
                   "decompressed whole, or with --ultra its values, its children's and its strong values (a "
                   "tier that needs more is reported and not verified)")
      ->capture_default_str()
      ->check(number_in(1e-5, 1e6));
  verify->add_flag(
      "--checksums", command_.verify.checksums,
      "check every block's checksum and the file checksums only (fast), without re-deriving values");
  verify
      ->add_option("--max-errors", command_.verify.max_errors,
                   "the most inconsistent positions described (the first in build order, by index within a "
                   "tier; 0: none); verify always checks every tier and counts every inconsistent position, "
                   "and exits 1 if it finds any or a tier it cannot read")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  verify
      ->add_option("--ultra", command_.verify.ultra,
                   "verify the ultra databases of this heuristic (ratio or stones)")
      ->check(CLI::IsMember({"ratio", "stones"}));
  verify->add_option("--journal", command_.verify.journal,
                     "record each tier found consistent in this file, and pass over the tiers it records "
                     "(their files and their children's unchanged): a long verify cut short goes on where it "
                     "stopped when run again");
  add_start_flag(verify, command_);
  select(verify);

  CLI::App* compress =
      add_command(app, "compress", "rewrite the databases in format v2 with another value encoding or codec",
                  command_, true);
  compress->add_option("--encoding", command_.compress.encoding, "wdl (win/draw/loss, for probing) or depth")
      ->capture_default_str()
      ->check(CLI::IsMember({"wdl", "depth"}));
  compress->add_option("--codec", command_.compress.codec, "auto (the smallest file), rle, zstd or none")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "rle", "zstd", "none"}));
  compress
      ->add_option("--dictionary", command_.compress.dictionary,
                   "zstd dictionaries: tier (one in a file where it pays), game (one shared by every tier, "
                   "in a file beside them) or none")
      ->capture_default_str()
      ->check(CLI::IsMember({"tier", "game", "none"}));
  compress->add_option("--level", command_.compress.zstd_level, "zstd compression level")
      ->capture_default_str()
      ->check(CLI::Range(1, 22));
  compress->add_option("--threads", command_.common.threads, "threads (default: every core)")
      ->check(CLI::Range(1, 1024));
  add_start_flag(compress, command_);
  select(compress);

  CLI::App* stats = add_command(
      app, "stats",
      "per tier: positions, wins, draws, losses, depths, file size, from the files' headers only (their "
      "checksum checked; no block is read: verify --checksums checks the blocks)",
      command_, true);
  stats->add_flag("--json", command_.json, "JSON output");
  stats
      ->add_option(
          "--ultra", command_.stats_ultra,
          "instead: the draws of the ultra databases of this heuristic (ratio or stones) by class, the rank "
          "of the sector perfect play finally stays in")
      ->check(CLI::IsMember({"ratio", "stones"}));
  stats
      ->add_flag("--sectors", command_.stats_sectors,
                 "mill games: a row per sector (a paired tier's two sectors apart) with its outcomes in "
                 "percent, every value read (blocks decompressed, their checksums checked)")
      ->excludes("--ultra");
  stats->add_option("--threads", command_.common.threads, "threads for --sectors (default: every core)")
      ->check(CLI::Range(1, 1024));
  add_start_flag(stats, command_);
  select(stats);

  CLI::App* count =
      add_command(app, "count", "count positions from the rules, without databases", command_, true);
  count->add_flag("--json", command_.json, "JSON output");
  count->add_flag("--tiers", command_.per_tier, "a row per tier too");
  count->add_flag("--materials", command_.count.per_material,
                  "a row per material too (checkers: nbk nwk nbp nwp, e.g. 2211; with the end positions of "
                  "each material, so that a piece count's rows add up to its boards)");
  count->add_flag("--sizes", command_.count.sizes_only,
                  "only the index sizes against the game's baseline (fast: no positions enumerated)");
  count->add_option("--threads", command_.common.threads, "threads (default: every core)")
      ->check(CLI::Range(1, 1024));
  select(count);

  CLI::App* play =
      add_command(app, "play", "play against the perfect player in the terminal", command_, false);
  CLI::Option* play_from =
      play->add_option("--from", command_.play.from, "start from this position (or 'start')");
  CLI::Option* play_pdn =
      play->add_option("--pdn", command_.play.pdn, "start from the end of a game in this PDN file");
  play_pdn->excludes(play_from);
  play->add_option("--game", command_.play.game, "with --pdn: the game in the file, from 1")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->needs(play_pdn);
  play->add_option("--save", command_.play_options.save,
                   "write the game (from its start, or the --pdn game's, to where play ended) to this PDN "
                   "file when play ends");
  play->add_option("--human", command_.play_options.human,
                   "the side you play: white, black, or auto (the side to move)")
      ->check(CLI::IsMember({"white", "black", "auto"}));
  select(play);

  CLI::App* solve =
      add_command(app, "solve",
                  "prove the value of a position by search (df-pn, PNS or alpha-beta), probing the databases",
                  command_, false);
  solve->add_option("position", command_.position, "position text, or 'start'")->required();
  solve->add_option("--algorithm", command_.solve.algorithm, "df-pn, pns or alphabeta")
      ->capture_default_str();
  solve
      ->add_option("--question", command_.solve.question,
                   "win (is it a win for the side to move?), draw (is it at least a draw?) or value (both)")
      ->capture_default_str();
  solve->add_option("--time", command_.solve.seconds, "time limit in seconds (0: none)")
      ->capture_default_str()
      ->check(number_in(0, 1e9));
  solve
      ->add_option("--memory", command_.solve.memory_gib,
                   "memory for the search's tables and tree, in GiB (at most the machine's memory)")
      ->capture_default_str()
      ->check(number_in(1e-5, 1e6));
  solve->add_flag("--json", command_.json, "JSON output");
  select(solve);

  CLI::App* prove = add_command(
      app, "prove",
      "prove a position with the proof-tree manager: a persistent tree, heuristic thresholds and back-end "
      "provers on worker threads or MPI ranks (docs/PROVE.md)",
      command_, false);
  prove->add_option("position", command_.position, "position text, or 'start'")->required();
  prove->add_option("--store", command_.prove.store, "the proof store (an SQLite file; created if missing)")
      ->required();
  prove->add_option("--seed", command_.prove.seed, "a line of moves from the position, proven from its end")
      ->delimiter(' ');
  prove->add_option("--seed-file", command_.prove.seed_file,
                    "more lines of moves from the position, one a line ('#' starts a comment line); the "
                    "positions of every line are worked on deepest first");
  CLI::Option* workers =
      prove->add_option("--workers", command_.prove.workers, "back-end provers side by side (0: every core)")
          ->capture_default_str()
          ->check(CLI::Range(0, 1024));
  prove->add_option("--threshold", command_.prove.threshold, "the first heuristic threshold")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000000));
  prove->add_option("--threshold-step", command_.prove.threshold_step, "how much the threshold rises")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000000));
  prove->add_option("--prover-time", command_.prove.prover_seconds, "seconds per back-end job (0: none)")
      ->capture_default_str()
      ->check(number_in(0, 1e9));
  prove
      ->add_option("--prover-nodes", command_.prove.prover_nodes,
                   "nodes per back-end job (0: none; with --prover-time 0 a run is reproducible)")
      ->capture_default_str();
  prove
      ->add_option("--prover-retries", command_.prove.prover_retries,
                   "jobs, each with twice the budget of the last, on a leaf whose first job failed, before "
                   "it is expanded")
      ->capture_default_str()
      ->check(CLI::Range(0, 30));
  prove->add_flag("--unit-leaves", command_.prove.unit_leaves,
                  "start every leaf of the tree at proof and disproof numbers 1 and 1 (by default a leaf "
                  "starts with the numbers its own or its parent's back-end df-pn left)");
  prove->add_option("--time", command_.prove.seconds, "seconds for the whole run (0: until solved)")
      ->capture_default_str()
      ->check(number_in(0, 1e9));
  prove->add_option("--memory", command_.prove.memory_gib, "GiB for the workers' search tables together")
      ->capture_default_str()
      ->check(number_in(1e-5, 1e6));
  CLI::Option* status = prove->add_flag("--status", command_.prove.status,
                                        "read the store and print its state, without running");
  CLI::Option* check = prove->add_flag(
      "--check", command_.prove.check,
      "check every answer of the store against the rules and the databases (exit 1 if wrong)");
  prove
      ->add_flag("--mpi", command_.prove.mpi,
                 "run under mpirun: rank 0 runs the manager and its store, the other ranks the back-end jobs "
                 "(as many workers as they are; --memory for them all)")
      ->excludes(workers)
      ->excludes(status)
      ->excludes(check);
  prove
      ->add_option("--mpi-timeout", command_.prove.mpi_timeout,
                   "seconds a rank with a job may stay silent before its job goes to another rank; with "
                   "--prover-time, a job not answered within 3 x its time plus this goes to another rank too")
      ->capture_default_str()
      ->check(number_in(0.5, 1e6));
  prove
      ->add_option("--check-nodes", command_.prove.check_nodes,
                   "the checker's nodes per back-end answer (positions per closure answer)")
      ->capture_default_str();
  prove->add_flag("--json", command_.json, "JSON output");
  select(prove);

  CLI::App* match = add_command(app, "match",
                                "play games between two players: ultra[:ratio|:stones], strong, random or "
                                "alphabeta:DEPTH (docs/ULTRA.md)",
                                command_, false);
  match->add_option("--white", command_.match.white, "player A, who moves first in the odd games")
      ->capture_default_str();
  match->add_option("--black", command_.match.black, "player B")->capture_default_str();
  match->add_option("--games", command_.match.games, "games to play (each start twice, colours swapped)")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  match
      ->add_option("--from", command_.match.from,
                   "start (the game's start) or random-draws (drawn positions of the databases)")
      ->capture_default_str()
      ->check(CLI::IsMember({"start", "random-draws"}));
  match->add_option("--pieces", command_.match.pieces, "random-draws: from the tiers up to this many pieces")
      ->capture_default_str()
      ->check(CLI::Range(2, 64));
  match->add_option("--seed", command_.match.seed, "random seed")->capture_default_str();
  match->add_option("--pdn", command_.match.pdn, "write every game to this PDN file");
  match->add_flag("--json", command_.json, "JSON output");
  select(match);

  CLI::App* perft = add_command(
      app, "perft", "count the leaves of the move tree to a depth (checks move generation)", command_, false);
  perft->add_option("--from", command_.perft.from, "from this position (default: the start)");
  perft->add_option("--depth", command_.perft.depth, "plies")->required()->check(CLI::Range(0, 64));
  perft->add_flag("--divide", command_.perft.divide, "the count below each first move too");
  perft->add_flag("--json", command_.json, "JSON output");
  select(perft);
}

int CommandLine::run() {
  const auto& game = app::find_game(command_.game);
  const auto service = game.make(command_.variant, command_.rules);
  return cli::run(command_, *service, {std::cin, std::cout, std::cerr});
}

}  // namespace gs::cli
