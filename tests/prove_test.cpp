// The proof-tree manager (prove/): its store, its answers against retrograde analysis,
// and its checker.
//
// - The store: a second writer is refused while the first holds the lock; the state
//   survives closing and reopening.
// - Random cyclic graphs (tests/graph_game.h): every node proven with a back end too
//   small to answer alone, so the front end's tree, its thresholds, the fixpoint over
//   its cycles and the stuck path (a repetition keeps the tree open and the fixpoint
//   settles nothing) all work; the answers agree with the brute-force fixpoint, draws by
//   repetition included. The checker passes every store.
// - Jungle: three-piece positions one piece above the two-piece databases agree with the
//   databases (Slow: 200 of them, 40 draws).
// - The checker catches a store whose answers were changed.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/value.h"
#include "db/database.h"
#include "games/jungle/jungle.h"
#include "prove/assign.h"
#include "prove/backend.h"
#include "prove/checker.h"
#include "prove/closure.h"
#include "prove/job.h"
#include "prove/manager.h"
#include "prove/store.h"
#include "prove/view.h"
#include "search/databases.h"
#include "search/key.h"
#include "search/report.h"
#include "tests/brute_force.h"
#include "tests/db_fixture.h"
#include "tests/graph_game.h"
#include "tests/test_util.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using jungle::Jungle;
using test::GraphGame;

std::string outcome_text(Value value) { return outcome_name(value.outcome()); }

prove::ProveOptions small_options(std::uint64_t prover_nodes, int workers = 1) {
  prove::ProveOptions o;
  o.workers = workers;
  o.prover_seconds = 0;
  o.prover_nodes = prover_nodes;
  o.job_memory = std::uint64_t{1} << 20;
  o.threshold = 20;
  o.threshold_step = 20;
  return o;
}

template <class G>
prove::ProveSummary prove_position(const G& game, db::Database* database, const fs::path& file,
                                   const typename G::Position& pos, const prove::ProveOptions& options) {
  prove::Store store(file, true, false);
  prove::Manager<G> manager(game, database, store, options, pos, "test");
  return manager.run();
}

TEST(ProveStore, SecondWriterIsRefused) {
  test::TempDir dir;
  const fs::path file = dir.path() / "proof.db";
  const prove::Store first(file, true, false);
  try {
    const prove::Store second(file, true, false);
    FAIL() << "a second writer opened the store";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("in use by another run"), std::string::npos) << e.what();
  }
  // A reader is let in.
  const prove::Store reader(file, false);
  EXPECT_EQ(reader.node_count(), 0U);
}

TEST(ProveStore, KeepsNodesAndMeta) {
  test::TempDir dir;
  const fs::path file = dir.path() / "proof.db";
  {
    prove::Store store(file, true, false);
    prove::StoredNode node;
    node.key = 0xFEDCBA9876543210ULL;
    node.position = "n3";
    node.expanded = true;
    node.answer[prove::kWin] = prove::kNo;
    node.source[prove::kWin] = "tree";
    node.seq[prove::kWin] = 7;
    node.retries = 2;
    node.proof[prove::kDraw] = 4000000000U;
    node.disproof[prove::kDraw] = 17;
    store.commit({node}, {{"root", "n3"}});
  }
  const prove::Store store(file, false);
  const auto nodes = store.nodes();
  ASSERT_EQ(nodes.size(), 1U);
  EXPECT_EQ(nodes[0].key, 0xFEDCBA9876543210ULL);
  EXPECT_EQ(nodes[0].answer[prove::kWin], prove::kNo);
  EXPECT_EQ(nodes[0].answer[prove::kDraw], prove::kUnknown);
  EXPECT_EQ(nodes[0].seq[prove::kWin], 7);
  EXPECT_EQ(nodes[0].retries, 2);
  EXPECT_EQ(nodes[0].proof[prove::kDraw], 4000000000U);
  EXPECT_EQ(nodes[0].disproof[prove::kDraw], 17U);
  EXPECT_EQ(nodes[0].proof[prove::kWin], 0U);
  EXPECT_EQ(store.meta("root"), std::optional<std::string>("n3"));
  EXPECT_FALSE(store.meta("threshold"));
  EXPECT_THROW(prove::Store(dir.path() / "missing.db", false), Error);
}

// A store written before retries were counted or back-end numbers kept (no such
// columns; the second form has retries only) reads 0 for them; a writer adds the
// columns and keeps the rest.
TEST(ProveStore, ReadsAStoreWithoutTheLaterColumns) {
  const std::vector<std::string> numbers = {"win_proof", "win_disproof", "draw_proof", "draw_disproof"};
  for (const bool with_retries : {false, true}) {
    test::TempDir dir;
    const fs::path file = dir.path() / "proof.db";
    {
      prove::Store store(file, true, false);
      prove::StoredNode node;
      node.key = 5;
      node.position = "n5";
      node.retries = 1;
      node.proof[prove::kWin] = 9;
      node.disproof[prove::kWin] = 8;
      store.commit({node}, {{"root", "n5"}});
      if (!with_retries) store.execute("ALTER TABLE nodes DROP COLUMN retries");
      for (const std::string& column : numbers)
        store.execute(fmt::format("ALTER TABLE nodes DROP COLUMN {}", column));
    }
    {
      const prove::Store reader(file, false);
      const auto nodes = reader.nodes();
      ASSERT_EQ(nodes.size(), 1U);
      EXPECT_EQ(nodes[0].position, "n5");
      EXPECT_EQ(nodes[0].retries, with_retries ? 1 : 0);
      EXPECT_EQ(nodes[0].proof[prove::kWin], 0U);
      EXPECT_EQ(nodes[0].disproof[prove::kWin], 0U);
    }
    {
      prove::Store writer(file, true, false);
      auto nodes = writer.nodes();
      ASSERT_EQ(nodes.size(), 1U);
      nodes[0].retries = 3;
      nodes[0].proof[prove::kWin] = 5;
      nodes[0].disproof[prove::kWin] = 6;
      writer.commit(nodes, {});
    }
    const prove::Store reader(file, false);
    EXPECT_EQ(reader.nodes().at(0).retries, 3);
    EXPECT_EQ(reader.nodes().at(0).proof[prove::kWin], 5U);
    EXPECT_EQ(reader.nodes().at(0).disproof[prove::kWin], 6U);
    EXPECT_EQ(reader.meta("root"), std::optional<std::string>("n5"));
  }
}

// Every node of random cyclic graphs, proven with back ends of a few nodes.
TEST(ProveGraph, AgreesWithRetrogradeAnalysis) {
  std::mt19937_64 random(7);
  int draws = 0;
  int with_jobs = 0;
  int tree = 0;     // answers found by the front end
  int backend = 0;  // and by the back end
  int cycle = 0;    // and by the fixpoint over the tree's cycles
  int stuck = 0;    // runs that gave a stuck target to the back end
  int closure = 0;  // answers of the closure prover on stuck targets
  for (int g = 0; g < 24; ++g) {
    const GraphGame game(test::random_graph(random, 14, 6));
    const auto truth = test::brute_force(game, {0}, 1).codes.at(0);
    for (std::size_t vertex = 0; vertex < game.graph().size(); ++vertex) {
      const auto n = static_cast<std::uint8_t>(vertex);
      const GraphGame::Position pos{n};
      if (game.terminal(pos)) continue;
      test::TempDir dir;
      const fs::path file = dir.path() / "proof.db";
      // Every other graph's workers keep their tables from job to job; a failed job is
      // retried up to 0, 1 or 2 times; leaves start with their jobs' numbers in half the
      // graphs and at 1 and 1 in the others.
      prove::ProveOptions options = small_options(2, 1 + (n % 2));
      options.keep_tables = g % 2 == 1;
      options.retries = g % 3;  // expanded at once, or after one or two retries
      options.search_numbers = g % 4 < 2;
      const prove::ProveSummary summary = prove_position(game, nullptr, file, pos, options);
      const Value value = Value::from_code(truth[n]);
      draws += value.is_draw() ? 1 : 0;
      ASSERT_EQ(summary.answer, outcome_text(value)) << "graph " << g << " node " << int{n};
      with_jobs += summary.jobs > 0 ? 1 : 0;
      const prove::Store store(file, false);
      stuck += store.meta("stuck").has_value() ? 1 : 0;
      for (const prove::StoredNode& node : store.nodes()) {
        for (const std::string& source : node.source) {
          tree += source == "tree" ? 1 : 0;
          backend += source == "df-pn" || source == "alphabeta" ? 1 : 0;
          cycle += source == "cycle" ? 1 : 0;
          closure += source == "closure" ? 1 : 0;
        }
      }
      const prove::CheckSummary check = prove::check_store(game, nullptr, store, 100000);
      EXPECT_TRUE(check.ok()) << "graph " << g << " node " << int{n} << ": " << check.errors.front();
      EXPECT_EQ(check.unconfirmed, 0U);
    }
  }
  EXPECT_GT(draws, 10);  // repetition draws among them
  EXPECT_GT(with_jobs, 60);
  EXPECT_GT(tree, 100);
  EXPECT_GT(backend, 25);
  EXPECT_GT(cycle, 10);
  EXPECT_GT(stuck, 0);
  EXPECT_GT(closure, 0);
  fmt::print(
      "{} draws; answers from the tree {}, from the back end {}, from cycles {}, from closures {}; {} runs "
      "stuck\n",
      draws, tree, backend, cycle, closure, stuck);
}

// The closure prover (prove/closure.h) and the checker's value iteration
// (region_outcome) solve every node of random cyclic graphs as the brute-force fixpoint
// does; a region larger than the limit, or than the checker's budget, gives no answer.
TEST(ProveClosure, AgreesWithRetrogradeAnalysis) {
  std::mt19937_64 random(11);
  int draws = 0;
  int limited = 0;
  for (int g = 0; g < 24; ++g) {
    const GraphGame game(test::random_graph(random, 14, 6));
    const auto truth = test::brute_force(game, {0}, 1).codes.at(0);
    search::Databases<GraphGame> probes(game, nullptr);
    for (std::size_t vertex = 0; vertex < game.graph().size(); ++vertex) {
      const auto n = static_cast<std::uint8_t>(vertex);
      const GraphGame::Position pos{n};
      if (game.terminal(pos)) continue;
      const Outcome expected = Value::from_code(truth[n]).outcome();
      draws += expected == Outcome::kDraw ? 1 : 0;
      const prove::ClosureResult closure = prove::close_region(game, probes, pos, {});
      ASSERT_TRUE(closure.outcome.has_value());
      EXPECT_EQ(*closure.outcome, expected) << "graph " << g << " node " << int{n};
      EXPECT_EQ(prove::region_outcome(game, nullptr, pos, 1000), std::optional<Outcome>(expected));
      if (closure.positions > 1) {
        ++limited;
        prove::ClosureLimits limits;
        limits.positions = closure.positions - 1;
        EXPECT_FALSE(prove::close_region(game, probes, pos, limits).outcome.has_value());
        EXPECT_FALSE(prove::region_outcome(game, nullptr, pos, closure.positions - 1).has_value());
      }
    }
  }
  EXPECT_GT(draws, 10);
  EXPECT_GT(limited, 100);
}

// A worker's kept tables carry results from job to job: jobs from every node of random
// cyclic graphs, one after another on one worker's tables, answer as the brute-force
// fixpoint does (results found through repetitions on one job's lines are not taken for
// another's), and a job asked again answers from the table.
TEST(ProveJobs, KeptTablesCarryResultsToTheNextJob) {
  std::mt19937_64 random(23);
  prove::ProveOptions options = small_options(0);
  options.job_memory = std::uint64_t{1} << 16;  // small: entries are replaced
  int answered = 0;
  int from_table = 0;
  int draws = 0;
  for (int g = 0; g < 600; ++g) {
    const GraphGame game(test::random_graph(random, g < 400 ? 16 : 24, 8));
    const auto truth = test::brute_force(game, {0}, 1).codes.at(0);
    prove::Tables tables(options.job_memory);
    for (int round = 0; round < 2; ++round) {
      for (std::size_t vertex = 0; vertex < game.graph().size(); ++vertex) {
        const auto n = static_cast<std::uint8_t>(vertex);
        const GraphGame::Position pos{n};
        if (game.terminal(pos)) continue;
        const Value value = Value::from_code(truth[n]);
        for (const prove::Question q : {prove::kWin, prove::kDraw}) {
          prove::JobSpec job;
          job.kind = prove::JobSpec::kRetry;  // df-pn on the question (a stuck job tries the closure first)
          job.question = q;
          const prove::JobAnswer first = prove::run_job(game, nullptr, options, pos, job, &tables);
          ASSERT_EQ(first.answer[q], prove::answer_for(value, q))
              << "graph " << g << " node " << int{n} << " question " << int{q} << " round " << round;
          ++answered;
          draws += value.is_draw() ? 1 : 0;
          // The same job again: its root is in the table (unless its result holds only
          // on its own lines, where the root's entry is not kept for anywhere).
          const prove::JobAnswer again = prove::run_job(game, nullptr, options, pos, job, &tables);
          ASSERT_EQ(again.answer[q], first.answer[q]);
          from_table += again.nodes == 0 ? 1 : 0;
        }
      }
    }
  }
  EXPECT_GT(draws, 40);
  EXPECT_GT(from_table, answered / 2);
  fmt::print("{} answers, {} draws, {} asked again answered from the table\n", answered, draws, from_table);
}

// A stuck job whose closure outgrows its memory says how much it had; a stuck job told
// that an earlier closure of its position ran out of as much skips the closure (df-pn
// alone), and one with more memory tries it again. In a run, the manager keeps the
// failed bytes in the store and the answers stay right.
TEST(ProveJobs, ClosureOutOfMemoryIsNotRepeated) {
  std::mt19937_64 random(29);
  int failed = 0;
  int remembered = 0;
  for (int g = 0; g < 12; ++g) {
    const GraphGame game(test::random_graph(random, 14, 6));
    const auto truth = test::brute_force(game, {0}, 1).codes.at(0);
    for (std::size_t vertex = 0; vertex < game.graph().size(); ++vertex) {
      const auto n = static_cast<std::uint8_t>(vertex);
      const GraphGame::Position pos{n};
      if (game.terminal(pos)) continue;
      prove::ProveOptions options = small_options(1000);
      options.job_memory = 64;  // less than any region of two positions or more
      prove::JobSpec job;
      job.kind = prove::JobSpec::kStuck;
      const prove::JobAnswer tight = prove::run_job(game, nullptr, options, pos, job);
      if (tight.closure_failed_bytes == 0) continue;  // a region of one position
      ++failed;
      EXPECT_EQ(tight.closure_failed_bytes, 64U);
      EXPECT_NE(tight.source[prove::kWin], "closure");
      job.closure_failed_bytes = tight.closure_failed_bytes;
      const prove::JobAnswer skipped = prove::run_job(game, nullptr, options, pos, job);
      EXPECT_EQ(skipped.closure_failed_bytes, 0U);
      EXPECT_NE(skipped.source[prove::kWin], "closure");
      options.job_memory = std::uint64_t{1} << 20;
      const prove::JobAnswer roomy = prove::run_job(game, nullptr, options, pos, job);
      EXPECT_EQ(roomy.closure_failed_bytes, 0U);
      const Value value = Value::from_code(truth[n]);
      EXPECT_EQ(roomy.source[prove::kWin], "closure");
      EXPECT_EQ(roomy.answer[prove::kWin], prove::answer_for(value, prove::kWin));
      EXPECT_EQ(roomy.answer[prove::kDraw], prove::answer_for(value, prove::kDraw));
      // A whole run on that memory, with jobs of 2 nodes.
      test::TempDir dir;
      const fs::path file = dir.path() / "proof.db";
      prove::ProveOptions run = small_options(2);
      run.job_memory = 64;
      const prove::ProveSummary summary = prove_position(game, nullptr, file, pos, run);
      ASSERT_EQ(summary.answer, outcome_text(value)) << "graph " << g << " node " << int{n};
      const prove::Store store(file, false);
      remembered += store.meta("closure-full " + game.position_text(pos)) == std::optional<std::string>("64");
    }
  }
  EXPECT_GT(failed, 50);
  EXPECT_GT(remembered, 20);
  fmt::print("{} closures out of memory; {} runs kept the target's in the store\n", failed, remembered);
}

// A run's --time holds whatever its jobs' budgets: a job ends with the run's time.
TEST(ProveJungle, JobsEndWithTheRunsTime) {
  const Jungle game;
  test::TempDir dir;
  prove::ProveOptions options = small_options(0);
  options.prover_seconds = 60;  // far more than the run has
  options.seconds = 1;
  const auto start = std::chrono::steady_clock::now();
  const prove::ProveSummary summary =
      prove_position(game, nullptr, dir.path() / "proof.db", game.start(), options);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(summary.answer, "unknown");
  EXPECT_EQ(summary.stopped, "time limit");
  EXPECT_LT(took, 30.0);  // not the job's 60 s (a bound, not a timing: the run takes about 1 s)
  // The size reported is the store's, its log folded in: what the file holds once closed.
  EXPECT_GT(summary.store_bytes, 0U);
  EXPECT_EQ(summary.store_bytes, fs::file_size(dir.path() / "proof.db"));
}

// A run resumed from its store ends as one run does.
TEST(ProveGraph, ResumedRunsEndAlike) {
  std::mt19937_64 random(11);
  for (int g = 0; g < 10; ++g) {
    const GraphGame game(test::random_graph(random, 16, 6));
    if (game.terminal({0})) continue;
    test::TempDir dir;
    const prove::ProveSummary whole =
        prove_position(game, nullptr, dir.path() / "a.db", {0}, small_options(1));
    // Stopped after each pass (a time limit that has always passed), then finished.
    prove::ProveOptions stopping = small_options(1);
    stopping.passes = 1 + static_cast<std::uint64_t>(g % 3);
    for (int run = 0; run < 6; ++run) prove_position(game, nullptr, dir.path() / "b.db", {0}, stopping);
    const prove::ProveSummary resumed =
        prove_position(game, nullptr, dir.path() / "b.db", {0}, small_options(1));
    EXPECT_EQ(resumed.answer, whole.answer);
    const prove::Store a(dir.path() / "a.db", false);
    const prove::Store b(dir.path() / "b.db", false);
    const auto na = a.nodes();
    const auto nb = b.nodes();
    ASSERT_EQ(na.size(), nb.size()) << "graph " << g;
    for (std::size_t i = 0; i < na.size(); ++i) {
      EXPECT_EQ(na[i].key, nb[i].key);
      EXPECT_EQ(na[i].answer[0], nb[i].answer[0]);
      EXPECT_EQ(na[i].answer[1], nb[i].answer[1]);
      EXPECT_EQ(na[i].seq[0], nb[i].seq[0]);
      EXPECT_EQ(na[i].seq[1], nb[i].seq[1]);
    }
  }
}

// Jungle databases: every two-piece tier and three three-piece tiers, whose own files are
// then removed (as tests/search_test.cpp does).
struct JungleData {
  Jungle game;
  test::TempDir dir;
  test::SolvedTiers<Jungle> solved;
  std::unique_ptr<db::Database> database;
  std::vector<std::string> tiers;

  explicit JungleData(std::vector<std::string> names) : tiers(std::move(names)) {
    solved = test::solve_tiers(game, tiers, dir.path());
    const db::Location location = db::Location::of(game, dir.path());
    for (const std::string& name : tiers) fs::remove(location.file(name));
    database = std::make_unique<db::Database>(location);
  }
  [[nodiscard]] Value truth(const Jungle::Position& pos) const {
    const Ranked ranked = game.rank(pos);
    return Value::from_code(solved.codes.at(ranked.tier).at(ranked.index));
  }
  // count positions (not over), with at least `draws` draws among them.
  [[nodiscard]] std::vector<Jungle::Position> sample(std::uint64_t seed, int count, int draws) const {
    std::mt19937_64 random(seed);
    std::vector<Jungle::Position> positions;
    int drawn = 0;
    while (static_cast<int>(positions.size()) < count) {
      const Tier tier = game.parse_tier(tiers[random() % tiers.size()]);
      const auto pos = game.unrank(tier, random() % game.size(tier));
      if (!pos || game.terminal(*pos)) continue;
      const bool draw = truth(*pos).is_draw();
      if (!draw && count - static_cast<int>(positions.size()) <= draws - drawn) continue;
      drawn += draw ? 1 : 0;
      positions.push_back(*pos);
    }
    return positions;
  }
};

void expect_agreement(JungleData& data, const std::vector<Jungle::Position>& positions,
                      std::uint64_t prover_nodes) {
  int drawn = 0;
  std::size_t done = 0;
  for (const Jungle::Position& pos : positions) {
    test::TempDir dir;
    const fs::path file = dir.path() / "proof.db";
    const prove::ProveSummary summary =
        prove_position(data.game, data.database.get(), file, pos, small_options(prover_nodes, 2));
    const Value truth = data.truth(pos);
    drawn += truth.is_draw() ? 1 : 0;
    EXPECT_EQ(summary.answer, outcome_text(truth))
        << data.game.position_text(pos) << " is " << truth.to_string();
    if (++done % 20 == 0) fmt::print("{} of {} positions proven\n", done, positions.size());
  }
  EXPECT_GT(drawn, 0);
}

TEST(ProveJungle, OnePieceAboveTheDatabases) {
  JungleData data({"T-rd", "RD-d", "E-rd"});
  expect_agreement(data, data.sample(5, 12, 4), 2000);
}

// A job whose df-pn ends open hands back its root's numbers and its children's (for the
// children's question, in the order of the moves), and the manager starts the children
// of the node it then expands with them; with unit leaves it keeps none.
TEST(ProveJungle, ExpandedLeavesStartWithTheirJobsNumbers) {
  JungleData data({"T-rd", "RD-d", "E-rd"});
  prove::ProveOptions options = small_options(60);
  options.retries = 0;
  options.passes = 1;
  options.threshold = prove::kProvenScore;  // no likely node: a failed job expands its node
  std::optional<Jungle::Position> open;
  prove::JobAnswer answer;
  for (const Jungle::Position& pos : data.sample(3, 40, 0)) {
    prove::JobSpec job;
    job.position = data.game.position_text(pos);
    answer = prove::run_job(data.game, data.database.get(), options, pos, job);
    if (answer.answer[prove::kWin] == prove::kUnknown && answer.answer[prove::kDraw] == prove::kUnknown) {
      open = pos;
      break;
    }
  }
  ASSERT_TRUE(open) << "no position left open by a job of 60 nodes";
  MoveList<Jungle> moves;
  data.game.moves(*open, moves);
  ASSERT_EQ(answer.children.size(), moves.size());
  const prove::Question asked = prove::other(answer.children_question);
  EXPECT_GT(answer.proof[asked], 0U);
  EXPECT_GT(answer.disproof[asked], 0U);
  int looked_at = 0;  // children whose numbers are not df-pn's 1 and 1 of a new leaf
  for (const auto& [proof, disproof] : answer.children) looked_at += proof != 1 || disproof != 1 ? 1 : 0;
  EXPECT_GT(looked_at, 0);
  for (const bool unit : {false, true}) {
    test::TempDir dir;
    options.search_numbers = !unit;
    prove_position(data.game, data.database.get(), dir.path() / "proof.db", *open, options);
    const prove::Store store(dir.path() / "proof.db", false);
    std::map<std::uint64_t, prove::StoredNode> nodes;
    for (prove::StoredNode& node : store.nodes()) nodes.emplace(node.key, std::move(node));
    const prove::StoredNode& root = nodes.at(search::key_of(data.game.rank(*open)));
    EXPECT_TRUE(root.expanded);
    EXPECT_EQ(root.proof[asked], 0U);  // an expanded node's numbers are its children's
    int kept = 0;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const Jungle::Position child = data.game.play(*open, moves[i]);
      if (data.game.terminal(child)) continue;
      const prove::StoredNode& node = nodes.at(search::key_of(data.game.rank(child)));
      const auto [proof, disproof] = answer.children[i];
      const bool numbers = !unit && proof != 0 && disproof != 0 && proof != search::kInfinite &&
                           disproof != search::kInfinite &&
                           node.answer[answer.children_question] == prove::kUnknown;
      EXPECT_EQ(node.proof[answer.children_question], numbers ? proof : 0U) << data.game.position_text(child);
      EXPECT_EQ(node.disproof[answer.children_question], numbers ? disproof : 0U);
      kept += node.proof[answer.children_question] != 0 ? 1 : 0;
    }
    // Unit leaves: the numbers are not kept; otherwise they are, for a child at least.
    if (unit) {
      EXPECT_EQ(kept, 0);
    } else {
      EXPECT_GT(kept, 0);
    }
  }
}

// A back-end job and its answer travel as text (to MPI ranks) and come back whole.
// Jobs of a pass on workers that keep their tables: loads even in budgets (a retry of
// four budgets weighs four jobs), the preferred worker where it fits.
TEST(ProveJobs, AssignmentEvensTheBudgets) {
  using prove::assign_jobs;
  using Lists = std::vector<std::vector<std::size_t>>;
  // Counted in jobs, the retry and one more job would have gone to worker 0: 5 budgets
  // against 2.
  EXPECT_EQ(assign_jobs({4, 1, 1, 1}, {0, 0, 1, 1}, 2), (Lists{{0}, {2, 3, 1}}));
  // Each where it was before, as the loads allow.
  EXPECT_EQ(assign_jobs({1, 1, 1, 1}, {1, 0, 1, 0}, 2), (Lists{{1, 3}, {0, 2}}));
  // No preference, or a worker that is not there: the largest first to the least loaded.
  EXPECT_EQ(assign_jobs({1, 2, 8, 2}, {-1, -1, 5, -1}, 3), (Lists{{2}, {1, 0}, {3}}));
  // One worker takes everything, in order.
  EXPECT_EQ(assign_jobs({2, 1}, {0, -1}, 1), (Lists{{0, 1}}));
  EXPECT_EQ(assign_jobs({}, {}, 2), (Lists{{}, {}}));
}

TEST(ProveJobs, TextRoundTrip) {
  prove::JobSpec job;
  job.kind = prove::JobSpec::kStuck;
  job.question = prove::kDraw;
  job.budget = std::uint64_t{1} << 30;
  job.score = -123;
  job.closure_failed_bytes = std::uint64_t{5} << 32;
  job.seconds_left = 12.5;
  job.position = "W:a1,d2 B:g7 w 7 8";  // spaces in a position's text
  const prove::JobSpec back = prove::decode_job(prove::encode(job));
  EXPECT_EQ(back.kind, job.kind);
  EXPECT_EQ(back.question, job.question);
  EXPECT_EQ(back.budget, job.budget);
  EXPECT_EQ(back.score, job.score);
  EXPECT_EQ(back.closure_failed_bytes, job.closure_failed_bytes);
  EXPECT_DOUBLE_EQ(back.seconds_left, 12.5);
  EXPECT_EQ(back.position, job.position);
  prove::JobAnswer answer;
  answer.answer[prove::kWin] = prove::kNo;
  answer.source[prove::kWin] = "df-pn";
  answer.scored = true;
  answer.score = 77;
  answer.nodes = 123456789;
  answer.seconds = 0.25;
  answer.closure_failed_bytes = 123;
  answer.proof[prove::kDraw] = 4000000000U;
  answer.disproof[prove::kDraw] = 3;
  answer.children_question = prove::kWin;
  answer.children = {{1, 1}, {7, 4000000001U}};
  const prove::JobAnswer got = prove::decode_answer(prove::encode(answer));
  EXPECT_EQ(got.proof[prove::kDraw], 4000000000U);
  EXPECT_EQ(got.disproof[prove::kDraw], 3U);
  EXPECT_EQ(got.proof[prove::kWin], 0U);
  EXPECT_EQ(got.children_question, prove::kWin);
  EXPECT_EQ(got.children, answer.children);
  EXPECT_EQ(got.answer[prove::kWin], prove::kNo);
  EXPECT_EQ(got.answer[prove::kDraw], prove::kUnknown);
  EXPECT_EQ(got.source[prove::kWin], "df-pn");
  EXPECT_EQ(got.source[prove::kDraw], "");
  EXPECT_TRUE(got.scored);
  EXPECT_EQ(got.score, 77);
  EXPECT_EQ(got.nodes, 123456789U);
  EXPECT_DOUBLE_EQ(got.seconds, 0.25);
  EXPECT_EQ(got.closure_failed_bytes, 123U);
  EXPECT_THROW(prove::decode_job("job 7 0 1 0 0 0\nR w"), Error);
  EXPECT_THROW(prove::decode_job("job 0 0 1 0 0"), Error);     // no position
  EXPECT_THROW(prove::decode_job("job 0 0 1 0\nR w"), Error);  // no closure bytes
  EXPECT_THROW(prove::decode_answer("answer 2 0 - - 0 0 0 0 0 0 0 0 0 0 0"), Error);
  EXPECT_THROW(prove::decode_answer("answer 1 1 - - 0 0 0 0"), Error);                    // no numbers
  EXPECT_THROW(prove::decode_answer("answer 1 1 - - 0 0 0 0 0 0 0 0 0 0 2 1 1"), Error);  // one pair of two
  EXPECT_THROW(prove::decode_answer("answer 1 1 - - 0 0 0 0 0 0 0 0 0 0 99999999999"), Error);
  EXPECT_THROW(prove::decode_answer("nonsense"), Error);
}

// Jobs sent through a runner as text, parsed and run elsewhere in any order (as MPI
// ranks do), give the store of the manager's own worker threads.
TEST(ProveJungle, JobsRunElsewhereGiveTheSameStore) {
  JungleData data({"T-rd", "RD-d", "E-rd"});
  const prove::ProveOptions options = small_options(20, 2);
  test::TempDir dir;
  // The first of the sample whose proof takes a few passes.
  std::optional<Jungle::Position> pos;
  for (const Jungle::Position& candidate : data.sample(9, 20, 0)) {
    fs::remove(dir.path() / "threads.db");
    if (prove_position(data.game, data.database.get(), dir.path() / "threads.db", candidate, options)
            .passes >= 4) {
      pos = candidate;
      break;
    }
  }
  ASSERT_TRUE(pos);
  std::uint64_t batches = 0;
  {
    prove::Store store(dir.path() / "runner.db", true, false);
    prove::Manager<Jungle> manager(data.game, data.database.get(), store, options, *pos, "test");
    manager.set_runner([&](const std::vector<prove::JobSpec>& jobs) {
      ++batches;
      std::vector<prove::JobAnswer> answers(jobs.size());
      for (std::size_t i = jobs.size(); i-- > 0;) {
        const prove::JobSpec job = prove::decode_job(prove::encode(jobs[i]));
        answers[i] = prove::decode_answer(prove::encode(prove::run_job(
            data.game, data.database.get(), options, data.game.parse_position(job.position), job)));
      }
      return answers;
    });
    (void)manager.run();
  }
  EXPECT_GT(batches, 3U);
  const prove::Store a(dir.path() / "threads.db", false);
  const prove::Store b(dir.path() / "runner.db", false);
  const auto na = a.nodes();
  const auto nb = b.nodes();
  ASSERT_EQ(na.size(), nb.size());
  for (std::size_t i = 0; i < na.size(); ++i) {
    EXPECT_EQ(na[i].key, nb[i].key);
    EXPECT_EQ(na[i].expanded, nb[i].expanded);
    EXPECT_EQ(na[i].score, nb[i].score);
    for (const prove::Question q : {prove::kWin, prove::kDraw}) {
      EXPECT_EQ(na[i].answer[q], nb[i].answer[q]);
      EXPECT_EQ(na[i].source[q], nb[i].source[q]);
      EXPECT_EQ(na[i].seq[q], nb[i].seq[q]);
    }
  }
  EXPECT_EQ(a.meta("seq"), b.meta("seq"));
  EXPECT_EQ(a.meta("threshold"), b.meta("threshold"));
}

// Seed lines (random walks from the root, some through the same positions): every
// position on them is proven, each as the brute force has it, and the root too.
TEST(ProveGraph, SeedLinesAreProvenEveryPosition) {
  std::mt19937_64 random(11);
  int seeded = 0;
  for (int g = 0; g < 16; ++g) {
    const GraphGame game(test::random_graph(random, 14, 6));
    if (game.terminal({0})) continue;
    const auto truth = test::brute_force(game, {0}, 1).codes.at(0);
    prove::ProveOptions options = small_options(2);
    std::set<std::uint8_t> on_lines;
    for (int l = 0; l < 3; ++l) {
      std::vector<std::string> line;
      GraphGame::Position at{0};
      for (int ply = 0; ply < 8 && !game.terminal(at); ++ply) {
        MoveList<GraphGame> moves;
        game.moves(at, moves);
        if (moves.empty()) break;
        const auto move = moves[random() % moves.size()];
        line.push_back(GraphGame::move_text(at, move));
        at = game.play(at, move);
        if (!game.terminal(at)) on_lines.insert(at.node);
      }
      options.seeds.push_back(line);
    }
    test::TempDir dir;
    const fs::path file = dir.path() / "proof.db";
    const prove::ProveSummary summary = prove_position(game, nullptr, file, {0}, options);
    EXPECT_EQ(summary.answer, outcome_text(Value::from_code(truth[0]))) << "graph " << g;
    const prove::Store store(file, false);
    std::map<std::string, const prove::StoredNode*> by_position;
    const std::vector<prove::StoredNode> nodes = store.nodes();
    for (const prove::StoredNode& node : nodes) by_position[node.position] = &node;
    for (const std::uint8_t n : on_lines) {
      const std::string text = game.position_text({n});
      ASSERT_TRUE(by_position.contains(text)) << "graph " << g << " node " << int{n};
      const prove::StoredNode& node = *by_position[text];
      EXPECT_EQ(prove::answer_text(node.answer[prove::kWin], node.answer[prove::kDraw]),
                outcome_text(Value::from_code(truth[n])))
          << "graph " << g << " node " << int{n};
      ++seeded;
    }
    EXPECT_TRUE(prove::check_store(game, nullptr, store, 100000).ok()) << "graph " << g;
  }
  EXPECT_GT(seeded, 20);
  // A move that is not one: refused, naming the line.
  const GraphGame game(test::random_graph(random, 14, 6));
  test::TempDir dir;
  prove::ProveOptions options = small_options(2);
  options.seeds = {{}, {"n99"}};
  prove::Store store(dir.path() / "proof.db", true, false);
  try {
    prove::Manager<GraphGame> manager(game, nullptr, store, options, {0}, "test");
    ADD_FAILURE() << "a bad seed move was taken";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("seed move n99 of seed line 2"), std::string::npos)
        << error.what();
  }
}

// The best line follows, below a node the tree proved, a child that proves it: a win
// goes to a child that is no draw for its side, a loss to a child that wins, a draw to a
// child that is no win.
TEST(ProveGraph, BestLineFollowsTheProof) {
  std::mt19937_64 random(5);
  int followed = 0;
  for (int g = 0; g < 12; ++g) {
    const GraphGame game(test::random_graph(random, 14, 6));
    if (game.terminal({0})) continue;
    test::TempDir dir;
    prove::Store store(dir.path() / "proof.db", true, false);
    const prove::ProveOptions options = small_options(2);  // the manager keeps a reference
    prove::Manager<GraphGame> manager(game, nullptr, store, options, {0}, "test");
    (void)manager.run();
    const std::vector<prove::LineStep> line = manager.best_line(64);
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line[0].position, game.position_text({0}));
    for (std::size_t i = 0; i + 1 < line.size(); ++i) {
      const prove::LineStep& at = line[i];
      const prove::LineStep& next = line[i + 1];
      SCOPED_TRACE(fmt::format("graph {}: {} then {}", g, at.position, next.move));
      // The move, played from this step, gives the next step's position.
      const GraphGame::Position here = game.parse_position(at.position);
      EXPECT_EQ(game.position_text(game.play(here, game.parse_move(here, next.move))), next.position);
      if (at.win == prove::kYes && at.source[prove::kWin] == "tree") {
        EXPECT_EQ(next.draw, prove::kNo);
        ++followed;
      } else if (at.draw == prove::kNo && at.source[prove::kDraw] == "tree") {
        EXPECT_EQ(next.win, prove::kYes);
        ++followed;
      } else if (at.draw == prove::kYes && at.source[prove::kDraw] == "tree") {
        EXPECT_EQ(next.win, prove::kNo);
        ++followed;
      }
    }
  }
  EXPECT_GT(followed, 0);
}

// What a run records for the explorer at each commit (prove/view.h) is what the manager
// computes from the whole tree: the root's answers and numbers, the counts and the best
// line, read back from the store's meta table alone. Runs stopped after a few passes
// leave open roots, with proof numbers along their lines.
TEST(ProveGraph, RecordedViewIsTheManagers) {
  std::mt19937_64 random(11);
  int open = 0;
  int numbered = 0;
  for (int g = 0; g < 16; ++g) {
    const GraphGame game(test::random_graph(random, 16, 5));
    if (game.terminal({0})) continue;
    SCOPED_TRACE(fmt::format("graph {}", g));
    test::TempDir dir;
    prove::Store store(dir.path() / "proof.db", true, false);
    prove::ProveOptions options = small_options(2);
    options.passes = static_cast<std::uint64_t>(g % 4) * 2;  // 0: to the end
    prove::Manager<GraphGame> manager(game, nullptr, store, options, {0}, "test");
    (void)manager.run();
    const prove::ProveSummary expected = manager.status();
    const std::vector<prove::LineStep> line = manager.best_line(prove::kViewLine);
    const std::uint64_t before = prove::rows_read();
    const std::optional<prove::ProofState> view = prove::read_view(store, prove::kViewLine);
    EXPECT_LE(prove::rows_read() - before, 3U);  // meta: the view, the root, the threshold
    ASSERT_TRUE(view.has_value());
    const prove::ProveSummary& s = view->summary;
    EXPECT_EQ(s.position, expected.position);
    EXPECT_EQ(s.answer, expected.answer);
    EXPECT_EQ(s.win, expected.win);
    EXPECT_EQ(s.draw, expected.draw);
    EXPECT_EQ(s.nodes, expected.nodes);
    EXPECT_EQ(s.proven, expected.proven);
    EXPECT_EQ(s.open, expected.open);
    EXPECT_EQ(s.likely, expected.likely);
    EXPECT_EQ(s.root_proof, expected.root_proof);
    EXPECT_EQ(s.root_disproof, expected.root_disproof);
    EXPECT_EQ(s.threshold, expected.threshold);
    ASSERT_EQ(view->line.size(), line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
      const prove::LineStep& a = view->line[i];
      const prove::LineStep& b = line[i];
      EXPECT_EQ(a.move, b.move) << i;
      EXPECT_EQ(a.position, b.position) << i;
      EXPECT_EQ(a.win, b.win) << i;
      EXPECT_EQ(a.draw, b.draw) << i;
      EXPECT_EQ(a.answer, b.answer) << i;
      EXPECT_EQ(a.source[0], b.source[0]) << i;
      EXPECT_EQ(a.source[1], b.source[1]) << i;
      EXPECT_EQ(a.over, b.over) << i;
      EXPECT_EQ(a.expanded, b.expanded) << i;
      EXPECT_EQ(a.repeated, b.repeated) << i;
      EXPECT_EQ(a.scored, b.scored) << i;
      EXPECT_EQ(a.score, b.score) << i;
      EXPECT_EQ(a.proof, b.proof) << i;
      EXPECT_EQ(a.disproof, b.disproof) << i;
      numbered += b.proof != 0 ? 1 : 0;
    }
    open += expected.answer == "win" || expected.answer == "loss" || expected.answer == "draw" ? 0 : 1;
    // A line shorter than recorded is cut.
    EXPECT_EQ(prove::read_view(store, 1)->line.size(), 1U);
  }
  EXPECT_GT(open, 0);
  EXPECT_GT(numbered, 0);
}

// A view's text refuses what it cannot hold, and text that is no view.
TEST(ProveView, EncodingRoundTripsAndRefusesBadText) {
  prove::ProveSummary summary;
  summary.nodes = 7;
  summary.answer = "at least a draw";
  summary.draw = 1;
  prove::LineStep step;
  step.position = "7/2e4/7/3d3/7/7/R6 w";
  step.answer = "unknown";
  step.proof = std::uint64_t{1} << 62;
  const prove::ProofState state = prove::decode_view(prove::encode_view(summary, {step, step}));
  EXPECT_EQ(state.summary.nodes, 7U);
  EXPECT_EQ(state.summary.answer, "at least a draw");
  EXPECT_EQ(state.summary.draw, 1);
  ASSERT_EQ(state.line.size(), 2U);
  EXPECT_EQ(state.line[1].position, step.position);
  EXPECT_EQ(state.line[1].proof, step.proof);
  step.position = "a\tb";
  step.position[1] = '\t';
  EXPECT_THROW((void)prove::encode_view(summary, {step}), Error);
  for (const char* bad : {"", "view\t1", "view\t1\t2\t3\t4\t5\t6\t7\t8\tx", "step\t1",
                          "view\t1\t2\t3\t4\t5\t6\t-1\t-1\tunknown\nstep\t1"}) {
    EXPECT_THROW((void)prove::decode_view(bad), Error) << bad;
  }
}

// The checker finds answers changed in a store.
TEST(ProveJungle, CheckerCatchesACorruptedStore) {
  JungleData data({"E-rd"});
  const Jungle::Position pos = data.game.parse_position("7/7/7/2rd3/7/3E3/7 w");
  test::TempDir dir;
  const fs::path file = dir.path() / "proof.db";
  const prove::ProveSummary summary =
      prove_position(data.game, data.database.get(), file, pos, small_options(20));
  ASSERT_EQ(summary.answer, outcome_text(data.truth(pos)));
  {
    int tree = 0;
    int database = 0;
    for (const prove::StoredNode& node : prove::Store(file, false).nodes()) {
      tree += node.source[prove::kWin] == "tree" ? 1 : 0;
      database += node.source[prove::kWin] == "database" ? 1 : 0;
    }
    ASSERT_GT(tree, 0);
    ASSERT_GT(database, 0);
  }
  {
    const prove::Store store(file, false);
    const prove::CheckSummary check = prove::check_store(data.game, data.database.get(), store, 1000000);
    ASSERT_TRUE(check.ok()) << check.errors.front();
    EXPECT_GT(check.answers, 0U);
  }
  for (const char* sql :
       {"UPDATE nodes SET win = 1 - win WHERE win >= 0 AND win_source = 'tree'",
        "UPDATE nodes SET win = 1 - win WHERE win >= 0 AND win_source = 'database'",
        "UPDATE nodes SET win_seq = 0 WHERE win_source = 'tree'",
        // Losses passed off as draws that a cycle holds (win? no from a cycle is true
        // there: every child is the opponent's win), and a win from a cycle.
        "UPDATE nodes SET draw = 1, draw_source = 'cycle', win_source = 'cycle' WHERE draw = 0",
        "UPDATE nodes SET win_source = 'cycle' WHERE win = 1",
        // An answer passed off as the closure prover's, the other way round.
        "UPDATE nodes SET win = 1 - win, win_source = 'closure' WHERE win >= 0 AND win_source = 'database'",
        "UPDATE nodes SET position = '7/7/7/2rd3/7/4E2/7 w' WHERE key = (SELECT MIN(key) FROM nodes)"}) {
    const fs::path copy = dir.path() / "copy.db";
    fs::remove(copy);
    fs::remove(copy.string() + "-wal");
    fs::remove(copy.string() + "-shm");
    {
      // A checkpoint first, so that the copy is the whole store.
      prove::Store writer(file, true, false);
      writer.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    }
    fs::copy_file(file, copy);
    {
      prove::Store store(copy, true, false);
      store.execute(sql);
    }
    const prove::Store store(copy, false);
    const prove::CheckSummary check = prove::check_store(data.game, data.database.get(), store, 1000000);
    EXPECT_FALSE(check.ok()) << sql;
    for (const std::string source : {"cycle", "closure"}) {
      if (std::string(sql).find("'" + source + "'") == std::string::npos) continue;
      // Refused by the check of that source itself, not only by answers resting on it.
      EXPECT_TRUE(std::any_of(check.errors.begin(), check.errors.end(), [&](const std::string& e) {
        return e.find("(" + source + ")") != std::string::npos;
      })) << sql;
    }
  }
}

// 200 three-piece positions (40 of them draws) one piece above the two-piece databases.
// (Four-piece positions above the three-piece databases took over ten minutes for their
// first twenty with 100,000-node jobs: too slow for the slow label's limit.)
TEST(ProveJungleSlow, TwoHundredPositionsAboveTheDatabases) {
  JungleData data({"T-rd", "RD-d", "E-rd"});
  expect_agreement(data, data.sample(29, 200, 40), 2000);
}

}  // namespace
}  // namespace gs
