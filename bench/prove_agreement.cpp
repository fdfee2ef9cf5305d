// The proof-tree manager against retrograde analysis, at the scale of issue 19's
// acceptance test: a sample of Jungle Checkers positions of exactly --pieces pieces, each
// proven by the manager over the databases of one piece fewer (which lack the position's
// tier), its answer compared with the value the full databases hold, and every store run
// through the independent checker (prove/checker.h, as `prove --check`).
//
//   prove_agreement --full D4 --small D3 --pieces 4 [--count 200] [--draws 40] [--seed 1]
//                   [--prover-nodes 2000] [--workers 1] [--seconds 0] [--check-nodes 100000]
//                   [--job-memory 16]
//
// D4 holds `gamesolver build jungle --pieces 4`, D3 `... --pieces 3`. The sample: a
// random tier of the piece count, then a random index of it, positions whose game is over
// left out, at least --draws of them draws (the values that hang on repetitions). Jobs
// are budgeted in nodes only, so every run of the same sample gives the same stores.
// --seconds caps each position's run (0: none); a position left unanswered is listed and
// counted apart. Prints each disagreement, unanswered position and failed check, then a
// summary; exits 1 if there was any.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "core/error.h"
#include "db/database.h"
#include "games/jungle/jungle.h"
#include "prove/checker.h"
#include "prove/manager.h"
#include "prove/store.h"

namespace {

namespace fs = std::filesystem;
using gs::Tier;
using gs::Value;
using gs::jungle::Jungle;

struct Sampled {
  Jungle::Position pos;
  Value truth;
};

// The value the databases hold for pos, which must be there.
Value stored_value(const Jungle& game, gs::db::Database& database, const Jungle::Position& pos) {
  const gs::Ranked ranked = game.rank(pos);
  const gs::db::TierReader* reader = database.find(game, ranked.tier);
  if (reader == nullptr) gs::fail("tier {} is not in the full databases", game.tier_name(ranked.tier));
  const gs::ValueCode code = reader->code(ranked.index);
  if (code >= gs::kCodeLimit) gs::fail("{}: index {} holds no value", reader->path(), ranked.index);
  return Value::from_code(code);
}

std::vector<Sampled> sample(const Jungle& game, gs::db::Database& full, int pieces, int count, int draws,
                            std::uint64_t seed) {
  std::vector<Tier> tiers;
  for (const Tier tier : game.tiers(pieces)) {
    if (Jungle::tier_pieces(tier) == pieces) tiers.push_back(tier);
  }
  if (tiers.empty()) gs::fail("Jungle has no tier of {} pieces", pieces);
  std::mt19937_64 random(seed);
  std::vector<Sampled> out;
  int drawn = 0;
  while (static_cast<int>(out.size()) < count) {
    const Tier tier = tiers[random() % tiers.size()];
    const auto pos = game.unrank(tier, random() % game.size(tier));
    if (!pos || game.terminal(*pos)) continue;
    const Value truth = stored_value(game, full, *pos);
    // The last places are kept for draws until there are enough of them.
    if (!truth.is_draw() && count - static_cast<int>(out.size()) <= draws - drawn) continue;
    drawn += truth.is_draw() ? 1 : 0;
    out.push_back({*pos, truth});
  }
  return out;
}

int run(int argc, char** argv) {
  CLI::App app{"the proof-tree manager against the Jungle databases on a sample of positions"};
  std::string full_dir;
  std::string small_dir;
  int pieces = 4;
  int count = 200;
  int draws = 40;
  std::uint64_t seed = 1;
  std::uint64_t prover_nodes = 2000;
  int workers = 1;
  std::uint64_t check_nodes = 100000;
  double seconds = 0;
  std::uint64_t job_mib = 16;
  app.add_option("--full", full_dir, "databases up to --pieces (the truth)")->required();
  app.add_option("--small", small_dir, "databases up to --pieces - 1 (the manager's leaves)")->required();
  app.add_option("--pieces", pieces, "pieces of every sampled position")->check(CLI::Range(3, 6));
  app.add_option("--count", count, "positions")->check(CLI::Range(1, 100000));
  app.add_option("--draws", draws, "draws among them, at least")->check(CLI::Range(0, 100000));
  app.add_option("--seed", seed, "the sample's random seed");
  app.add_option("--prover-nodes", prover_nodes, "nodes per back-end job")->check(CLI::Range(1, 1 << 30));
  app.add_option("--workers", workers, "back-end provers side by side")->check(CLI::Range(1, 1024));
  app.add_option("--check-nodes", check_nodes,
                 "the checker's nodes per back-end answer (positions per closure answer)");
  app.add_option("--job-memory", job_mib, "MiB per job: its search tables, or a stuck job's closure")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--seconds", seconds, "each position's run at most (0: until answered)")
      ->check(CLI::Range(0.0, 1e9));
  CLI11_PARSE(app, argc, argv);
  if (draws > count) gs::fail("--draws {} is more than --count {}", draws, count);

  const Jungle game;
  gs::db::Database full(gs::db::Location::of(game, full_dir));
  gs::db::Database small(gs::db::Location::of(game, small_dir));
  for (const Tier tier : game.tiers(pieces - 1)) {
    if (small.find(game, tier) == nullptr)
      gs::fail("{} lacks tier {}: build jungle --pieces {} there", small_dir, game.tier_name(tier),
               pieces - 1);
  }
  const std::vector<Sampled> positions = sample(game, full, pieces, count, draws, seed);

  gs::prove::ProveOptions options;
  options.workers = workers;
  options.prover_seconds = 0;  // nodes only: reproducible
  options.prover_nodes = prover_nodes;
  options.job_memory = job_mib << 20;
  options.seconds = seconds;

  const fs::path dir = fs::temp_directory_path() / fmt::format("prove_agreement.{}", ::getpid());
  fs::create_directories(dir);
  int agreed = 0;
  int wrong = 0;
  int unanswered = 0;
  int drawn_agreed = 0;
  int failed_checks = 0;
  int drawn = 0;
  std::uint64_t jobs = 0;
  std::uint64_t job_nodes = 0;
  std::uint64_t tree_nodes = 0;
  std::uint64_t checked = 0;
  std::uint64_t confirmed = 0;
  std::uint64_t unconfirmed = 0;
  double proving = 0;
  double most_seconds = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const auto& [pos, truth] = positions[i];
    const fs::path file = dir / "proof.db";
    fs::remove(file);
    gs::prove::ProveSummary summary;
    {
      gs::prove::Store store(file, true, false);
      gs::prove::Manager<Jungle> manager(game, &small, store, options, pos, "prove_agreement");
      summary = manager.run();
    }
    const std::string expected = gs::outcome_name(truth.outcome());
    drawn += truth.is_draw() ? 1 : 0;
    if (summary.answer == expected) {
      ++agreed;
      drawn_agreed += truth.is_draw() ? 1 : 0;
    } else if (!summary.stopped.empty()) {
      ++unanswered;
      fmt::print("UNANSWERED: {} is {} ({}), the manager says {} after {:.1f} s ({})\n",
                 game.position_text(pos), expected, truth.to_string(), summary.answer, summary.seconds,
                 summary.stopped);
    } else {
      ++wrong;
      fmt::print("DISAGREES: {} is {} ({}), the manager says {}\n", game.position_text(pos), expected,
                 truth.to_string(), summary.answer);
    }
    const gs::prove::Store store(file, false);
    const gs::prove::CheckSummary check = gs::prove::check_store(game, &small, store, check_nodes);
    checked += check.nodes;
    confirmed += check.confirmed;
    unconfirmed += check.unconfirmed;
    if (!check.ok()) {
      ++failed_checks;
      fmt::print("CHECK FAILED: {}: {}\n", game.position_text(pos), check.errors.front());
    }
    jobs += summary.jobs;
    job_nodes += summary.job_nodes;
    tree_nodes += summary.nodes;
    proving += summary.seconds;
    most_seconds = std::max(most_seconds, summary.seconds);
    if ((i + 1) % 20 == 0) fmt::print("{} of {} positions: {} agree\n", i + 1, positions.size(), agreed);
    std::fflush(stdout);
  }
  fs::remove_all(dir);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(
      "{} positions of {} pieces ({} draws), seed {}, {}-node jobs, {} worker(s): {} agree ({} of them "
      "draws), "
      "{} disagree, {} unanswered; checker: {} stores with {} nodes, {} failed, back-end answers {} "
      "confirmed and {} unconfirmed\n",
      positions.size(), pieces, drawn, seed, prover_nodes, workers, agreed, drawn_agreed, wrong, unanswered,
      positions.size(), checked, failed_checks, confirmed, unconfirmed);
  fmt::print(
      "proving: {:.1f} s ({:.2f} s a position, at most {:.1f}), {} jobs, {} job nodes, {} tree nodes; "
      "{:.1f} s wall with the checks\n",
      proving, proving / static_cast<double>(positions.size()), most_seconds, jobs, job_nodes, tree_nodes,
      wall);
  return wrong == 0 && unanswered == 0 && failed_checks == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "prove_agreement: {}\n", e.what());
    return 2;
  }
}
