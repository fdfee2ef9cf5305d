// The retrograde engine against an independent forward fixpoint (tests/brute_force.h),
// verification, determinism across thread counts, and resuming interrupted builds.
//
// Suites ending in "Slow" build every tier up to three pieces (label "slow"); the others
// use the two-piece tiers and one three-piece tier (label "fast"), which is large enough
// for two threads to share it, so that the sanitizer builds see the parallel code.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "core/block_list.h"
#include "core/distinct.h"
#include "core/radix_sort.h"
#include "db/database.h"
#include "db/tier_file.h"
#include "games/checkers/checkers.h"
#include "games/jungle/jungle.h"
#include "games/morris/morris.h"
#include "retro/build.h"
#include "retro/tier_solver.h"
#include "retro/verify.h"
#include "tests/brute_force.h"
#include "tests/retro_util.h"
#include "tests/test_util.h"

namespace gs {
namespace {

using jungle::Jungle;
using test::Failures;
using test::TempDir;
namespace fs = std::filesystem;

using test::build;
using test::build_options;
using test::differences;
using test::expect_database_equals;

// Solves the given tiers (whose children must be built already) and writes their files,
// as retro::build does for all tiers.
void solve_tiers(const Jungle& game, const fs::path& data, const std::vector<Tier>& tiers, int threads) {
  db::Database database(db::Location::of(game, data));
  for (const Tier tier : tiers) {
    retro::TierSolver<Jungle> solver(game, database, tier, build_options(threads).solve);
    const std::vector<ValueCode> codes = solver.solve();
    db::TierHeader header;
    header.game = database.location().game;
    header.variant = database.location().variant;
    header.rules = database.location().rules;
    header.tier = tier;
    header.tier_name = game.tier_name(tier);
    db::write_tier(database.location().file(header.tier_name), header, codes);
  }
}

// Rewrites a tier file with the value at one index replaced, with correct checksums, so
// that only verification can tell. Holes are restored from the game (a file may fill
// them), so that options.fill_holes = false writes a file that keeps them.
void rewrite_with_value(const Jungle& game, const fs::path& data, Tier tier, Index index, ValueCode code,
                        const db::WriteOptions& options = {}) {
  const db::Location location = db::Location::of(game, data);
  const fs::path path = location.file(game.tier_name(tier));
  std::vector<ValueCode> codes;
  db::TierHeader header;
  {
    const auto reader = db::open_tier(path, location.expected(tier, game.size(tier)), true);
    header = reader->header();
    codes.resize(header.positions);
    for (Index i = 0; i < codes.size(); ++i) codes[i] = game.unrank(tier, i) ? reader->code(i) : kHoleCode;
  }
  codes[index] = code;
  db::write_tier(path, header, codes, options);
}

std::vector<Tier> tiers_named(const std::vector<std::string>& names) {
  std::vector<Tier> tiers;
  for (const std::string& name : names) tiers.push_back(Jungle::parse_tier(name));
  return tiers;
}

// For the fast tests: the three-piece tier RD-d and its children D-d and D-r (Black's
// dog takes White's rat), children first. RD-d is large enough for two threads to
// share its scan and levels, and its captures into child tiers exercise the depth order
// of child-tier and in-tier results.
const std::string kThreePieceTier = "RD-d";
std::vector<Tier> small_closure() { return test::closure(Jungle{}, tiers_named({kThreePieceTier})); }

const std::vector<std::pair<std::string, std::vector<std::string>>> kVariants = {
    {"elephant_takes_rat=off", {"elephant_takes_rat=off"}},
    {"stalemate=loss", {"stalemate=loss"}},
};

// ---------------------------------------------------------------------------------
// Fast: two-piece tiers and one three-piece tier.

// move_choice orders the moves to positions of any two codes as the side to move
// prefers them, and chosen_value undoes it: every code against a spread of others.
TEST(Retro, MoveChoiceOrdersMovesByPreference) {
  for (ValueCode a = 1; a < kCodeLimit; ++a) {
    const Value mine = Value::from_code(a).before_move();
    ASSERT_EQ(chosen_value(move_choice(a)), mine) << a;
    ASSERT_LT(move_choice(a), kNoMoveChoice) << a;
    for (ValueCode b = 1; b < kCodeLimit; b = static_cast<ValueCode>(b * 3 / 2 + 1)) {
      const Value theirs = Value::from_code(b).before_move();
      ASSERT_EQ(move_choice(a) < move_choice(b), mine.better_than(theirs)) << a << " " << b;
    }
  }
}

TEST(Retro, ClosureOfATier) {
  std::vector<std::string> names;
  for (const Tier tier : small_closure()) names.push_back(Jungle::tier_name(tier));
  ASSERT_EQ(names.size(), 3U);
  EXPECT_EQ(names.back(), "RD-d");
  // Without the rat, D-d; without the dog, R-d, which is named D-r by colour symmetry.
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end() - 1), (std::set<std::string>{"D-d", "D-r"}));
}

TEST(Retro, AgreesWithBruteForceOnTwoPieces) {
  const auto reference = test::brute_force(Jungle{}, Jungle::tiers(2), 2);
  EXPECT_GT(reference.rounds, 10);
  {
    TempDir dir;
    build(Jungle{}, dir.path(), 2, 2);
    expect_database_equals(Jungle{}, dir.path(), reference);
  }
  // Taking the rat away from the elephant changes values in E-r.
  const Jungle game = Jungle::from_options("", {"elephant_takes_rat=off"});
  const auto brute = test::brute_force(game, Jungle::tiers(2), 2);
  EXPECT_GT(differences(brute, reference), 0U);
  TempDir dir;
  build(game, dir.path(), 2, 2);
  expect_database_equals(game, dir.path(), brute);
}

TEST(Retro, AgreesWithBruteForceOnAThreePieceTier) {
  // Two threads share RD-d's scan and levels (the sanitizer builds check them).
  const Jungle game;
  const auto brute = test::brute_force(game, small_closure(), 2);
  TempDir dir;
  solve_tiers(game, dir.path(), small_closure(), 2);
  expect_database_equals(game, dir.path(), brute);
}

TEST(Retro, DetectsAWrongDatabase) {
  // The comparison itself can fail: a database of other rules disagrees.
  const Jungle standard;
  const Jungle other = Jungle::from_options("", {"elephant_takes_rat=off"});
  const auto brute = test::brute_force(other, Jungle::tiers(2), 1);
  TempDir dir;
  build(standard, dir.path(), 2, 1);
  db::Database database(db::Location::of(standard, dir.path()));
  std::uint64_t differ = 0;
  for (const auto& [tier, codes] : brute.codes) {
    const db::TierReader* reader = database.find(standard, tier);
    ASSERT_NE(reader, nullptr);
    for (Index i = 0; i < codes.size(); ++i) differ += reader->code(i) != codes[i] ? 1 : 0;
  }
  EXPECT_GT(differ, 0U);
}

TEST(Retro, VerifyAcceptsBruteForceValuesAndDetectsChanges) {
  // Files written from the brute force's values (not the engine's) pass verification,
  // and a changed value does not.
  const Jungle game;
  TempDir dir;
  const db::Location location = db::Location::of(game, dir.path());
  const auto brute = test::brute_force(game, small_closure(), 2);
  for (const Tier tier : small_closure()) {
    db::TierHeader header;
    header.game = location.game;
    header.variant = location.variant;
    header.rules = location.rules;
    header.tier = tier;
    header.tier_name = game.tier_name(tier);
    db::write_tier(location.file(header.tier_name), header, brute.codes.at(tier));
  }
  {
    db::Database database(location);
    for (const Tier tier : small_closure()) {
      const auto found = retro::verify_tier(game, database, tier, 2, true);
      EXPECT_TRUE(found.consistent())
          << game.tier_name(tier) << " index " << found.first.at(0).index << " " << found.first.at(0).position
          << " stores " << found.first.at(0).stored << ", expected " << found.first.at(0).expected;
    }
  }
  // A win made two plies longer, and a hole given a value, are both caught.
  const Tier tier = Jungle::parse_tier(kThreePieceTier);
  const std::vector<ValueCode>& codes = brute.codes.at(tier);
  Index win_index = 0;
  while (win_index < codes.size() &&
         (codes[win_index] == kHoleCode || !Value::from_code(codes[win_index]).is_win() ||
          Value::from_code(codes[win_index]).depth() < 3)) {
    ++win_index;
  }
  Index hole_index = 0;
  while (hole_index < codes.size() && codes[hole_index] != kHoleCode) ++hole_index;
  ASSERT_LT(win_index, codes.size());
  ASSERT_LT(hole_index, codes.size());
  const Value original = Value::from_code(codes[win_index]);
  const fs::path path = location.file(kThreePieceTier);
  const std::string good = test::read_file(path);
  {
    rewrite_with_value(game, dir.path(), tier, win_index,
                       Value::win(static_cast<Depth>(original.depth() + 2)).code());
    db::Database database(location);
    const auto found = retro::verify_tier(game, database, tier, 2, true);
    ASSERT_FALSE(found.consistent());
    ASSERT_EQ(found.first.size(), 1U);
    const retro::Inconsistency* bad = found.first.data();
    EXPECT_LE(bad->index, win_index);
    if (bad->index == win_index) {
      EXPECT_EQ(bad->stored, Value::win(static_cast<Depth>(original.depth() + 2)).to_string());
      EXPECT_EQ(bad->expected, original.to_string());
    }
  }
  test::write_file(path, good);
  {
    // (A file that fills its holes may hold anything there; this one keeps them.)
    db::WriteOptions keep_holes;
    keep_holes.fill_holes = false;
    rewrite_with_value(game, dir.path(), tier, hole_index, kDrawCode, keep_holes);
    db::Database database(location);
    const auto found = retro::verify_tier(game, database, tier, 2, true);
    ASSERT_EQ(found.inconsistent, 1U);
    ASSERT_EQ(found.first.size(), 1U);
    EXPECT_EQ(found.first[0].index, hole_index);
    EXPECT_EQ(found.first[0].stored, "draw");
  }
}

// Verification goes on after the first inconsistency: every one is counted, and the
// lowest `keep` of them by index are described, whatever the thread count.
TEST(Retro, VerifyCountsEveryInconsistency) {
  const Jungle game;
  TempDir dir;
  solve_tiers(game, dir.path(), small_closure(), 2);
  const Tier tier = Jungle::parse_tier(kThreePieceTier);
  // Holes given a value in a file that keeps its holes: each is one inconsistency, and
  // no position reads a hole, so none spreads to its neighbours. Far apart, so that they
  // fall in different threads' chunks.
  std::vector<Index> holes;
  for (Index i = 0; i < game.size(tier) && holes.size() < 7; ++i) {
    if (!game.unrank(tier, i) && (holes.empty() || i >= holes.back() + game.size(tier) / 16))
      holes.push_back(i);
  }
  ASSERT_EQ(holes.size(), 7U);
  {
    const db::Location location = db::Location::of(game, dir.path());
    const fs::path path = location.file(kThreePieceTier);
    std::vector<ValueCode> codes(game.size(tier));
    db::TierHeader header;
    {
      const auto reader = db::open_tier(path, location.expected(tier, game.size(tier)), true);
      header = reader->header();
      for (Index i = 0; i < codes.size(); ++i) codes[i] = game.unrank(tier, i) ? reader->code(i) : kHoleCode;
    }
    for (const Index hole : holes) codes[hole] = kDrawCode;
    db::WriteOptions keep_holes;
    keep_holes.fill_holes = false;
    db::write_tier(path, header, codes, keep_holes);
  }
  db::Database database(db::Location::of(game, dir.path()));
  for (const int threads : {1, 2, 3}) {
    SCOPED_TRACE(threads);
    const retro::TierVerification all = retro::verify_tier(game, database, tier, threads, true, 100);
    EXPECT_EQ(all.inconsistent, 7U);
    ASSERT_EQ(all.first.size(), 7U);
    for (std::size_t i = 0; i < holes.size(); ++i) {
      EXPECT_EQ(all.first[i].index, holes[i]);
      EXPECT_EQ(all.first[i].stored, "draw");
      EXPECT_EQ(all.first[i].expected, "no value");
    }
    const retro::TierVerification some = retro::verify_tier(game, database, tier, threads, true, 3);
    EXPECT_EQ(some.inconsistent, 7U);
    ASSERT_EQ(some.first.size(), 3U);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(some.first[i].index, holes[i]);
    const retro::TierVerification none = retro::verify_tier(game, database, tier, threads, true, 0);
    EXPECT_EQ(none.inconsistent, 7U);
    EXPECT_TRUE(none.first.empty());
  }
}

TEST(Retro, ResumeRebuildsOnlyDamagedTiers) {
  const Jungle game;
  TempDir dir;
  const auto first_reports = build(game, dir.path(), 2, 2);
  ASSERT_EQ(first_reports.size(), 10U);
  for (const auto& report : first_reports) EXPECT_TRUE(report.built) << report.name;
  const auto before = test::snapshot(dir.path());
  const db::Location location = db::Location::of(game, dir.path());
  fs::remove(location.file("R-r"));
  fs::remove(location.file("E-d"));
  fs::resize_file(location.file("T-t"), fs::file_size(location.file("T-t")) - 1);
  test::flip_byte(location.file("D-r"), db::kHeaderSize + 5);
  // The last bytes never written to the disk (a build syncs its files only at the end, so
  // a machine's crash may leave such a file under its final name): zeros in the last block.
  {
    const fs::path path = location.file("E-e");
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(fs::file_size(path) - 16));
    const std::string zeros(16, '\0');
    file.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  }
  // Temporary files: one of a killed writer (no process has that id: ids stay below
  // 2^22), one of a writer that still runs (this process).
  const std::string dead = location.file("E-e").string() + ".tmp-999999999";
  const std::string alive = location.file("E-t").string() + ".tmp-" + std::to_string(::getpid());
  test::write_file(dead, "half a file");
  test::write_file(alive, "a file being written");
  const auto reports = build(game, dir.path(), 2, 2);
  std::set<std::string> rebuilt;
  std::map<std::string, std::string> because;
  for (const auto& report : reports) {
    if (report.built) rebuilt.insert(report.name);
    because[report.name] = report.rebuilt_because;
  }
  EXPECT_EQ(rebuilt, (std::set<std::string>{"R-r", "E-d", "T-t", "D-r", "E-e"}));
  // A file that failed its checks is rebuilt with the reason; a missing one has none.
  EXPECT_EQ(because["R-r"], "");
  EXPECT_EQ(because["E-d"], "");
  EXPECT_TRUE(because["T-t"].starts_with("truncated")) << because["T-t"];
  EXPECT_EQ(because["D-r"], "block index checksum mismatch (corrupt file)");
  EXPECT_NE(because["E-e"].find("checksum mismatch"), std::string::npos) << because["E-e"];
  EXPECT_EQ(because["E-t"], "");
  for (const auto& [name, reason] : because) {
    EXPECT_EQ(reason.find(dir.path().string()), std::string::npos) << name << ": " << reason;
  }
  EXPECT_EQ(test::compare_snapshots(before, test::snapshot(dir.path())), "");
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(alive));
  // A third build has nothing to do.
  for (const auto& report : build(game, dir.path(), 2, 2)) EXPECT_FALSE(report.built) << report.name;
}

TEST(Retro, MissingChildrenAndMemoryBudgetAreErrors) {
  const Jungle game;
  TempDir dir;
  db::Database database(db::Location::of(game, dir.path()));
  try {
    retro::TierSolver<Jungle> solver(game, database, Jungle::parse_tier("RE-r"), {1, true});
    ADD_FAILURE() << "a tier was solved without its children";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not built"), std::string::npos) << e.what();
  }
  retro::BuildOptions options = build_options(1);
  options.memory_bytes = 1000;
  try {
    retro::build(game, database, 2, options);
    ADD_FAILURE() << "the memory budget was ignored";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("memory"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(test::snapshot(dir.path()).empty());
}

TEST(Retro, TiersSolvedSideBySideGiveTheSameFiles) {
  // Six Men's Morris up to 4 stones a side: 62 tiers, most small. Two threads with every
  // tier helped by an idle thread, and with no tier helped (one thread each): the same files
  // (ThreadCountsGiveIdenticalFiles compares one thread with two), reports in the order
  // of tiers_in_order.
  const morris::Morris game = morris::Morris::from_options("six", {});
  const std::vector<Tier> order = retro::tiers_in_order(game, 4);
  std::map<std::string, std::string> reference;
  for (const auto& [threads, helped] : std::vector<std::pair<int, Index>>{{2, 0}, {2, ~Index{0}}}) {
    TempDir dir;
    db::Database database(db::Location::of(game, dir.path()));
    retro::BuildOptions options = build_options(threads);
    options.helped_tier_indices = helped;
    std::set<Tier> seen;
    const auto reports = retro::build(game, database, 4, options, [&](const retro::TierReport& report) {
      EXPECT_TRUE(seen.insert(report.tier).second) << report.name;
    });
    ASSERT_EQ(reports.size(), order.size());
    for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(reports[i].tier, order[i]);
    EXPECT_EQ(seen.size(), order.size());
    const auto files = test::snapshot(dir.path());
    EXPECT_EQ(files.size(), order.size());
    if (reference.empty()) {
      reference = files;
    } else {
      EXPECT_EQ(test::compare_snapshots(reference, files), "") << threads << " threads, helped " << helped;
    }
  }
}

TEST(Retro, OpenChildTiersCountAgainstTheMemoryBudget) {
  // Checkers up to 4 pieces (positions derived from their moves: a child's blocks read
  // its own children), on 2 threads: built with room for everything, the open child
  // tiers kept for later tiers add up to far more than any one tier needs; built again
  // under a budget between the two, the build drops idle ones (to open them again when a
  // later tier reads them), counts at most the budget, and writes the same files.
  const checkers::Checkers game;
  const std::vector<Tier> order = retro::tiers_in_order(game, 4);
  TempDir roomy;
  db::Database all(db::Location::of(game, roomy.path()));
  const auto reports = retro::build(game, all, 4, build_options(2));
  std::uint64_t most_counted = 0;
  for (const retro::TierReport& report : reports) most_counted = std::max(most_counted, report.counted_bytes);
  std::uint64_t most_needed = 0;  // by one tier, without level lists
  for (const Tier tier : order) {
    most_needed = std::max(most_needed, retro::children_bytes(game, all, tier) +
                                            retro::tier_bytes(game, tier, false, build_options(2), 2));
  }
  ASSERT_LT(2 * most_needed, most_counted);
  const std::uint64_t budget = 2 * most_needed;
  TempDir tight;
  db::Database database(db::Location::of(game, tight.path()));
  retro::BuildOptions options = build_options(2);
  options.memory_bytes = budget;
  for (const retro::TierReport& report : retro::build(game, database, 4, options))
    EXPECT_LE(report.counted_bytes, budget) << report.name;
  EXPECT_EQ(test::compare_snapshots(test::snapshot(roomy.path()), test::snapshot(tight.path())), "");
  fmt::print("open child tiers counted up to {} bytes with room for all, budget {}\n", most_counted, budget);
}

TEST(Retro, UniqueShortKeepsEachValueOnce) {
  // The solver removes repeated successors and predecessors (core/distinct.h): each
  // value once, in the order of its first occurrence, for short lists (the set) and
  // longer ones (a sort), with few and many repeats, over many calls (the set's stamps).
  std::mt19937_64 random(9);
  for (int round = 0; round < 3000; ++round) {
    const std::size_t count = random() % 200;
    const std::uint64_t range = 1 + random() % (round % 2 == 0 ? 8 : 1000000);
    std::vector<std::uint64_t> list(count);
    for (std::uint64_t& x : list) x = random() % range;
    std::vector<std::uint64_t> expected = list;
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
    std::vector<std::uint64_t> got = list;
    got.resize(static_cast<std::size_t>(unique_short(got.data(), got.data() + got.size()) - got.data()));
    if (count <= 128) {
      std::vector<std::uint64_t> first;  // the order of first occurrence
      for (const std::uint64_t x : list)
        if (std::find(first.begin(), first.end(), x) == first.end()) first.push_back(x);
      ASSERT_EQ(got, first) << count << " values below " << range;
    }
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, expected) << count << " values below " << range;
  }
}

TEST(Retro, RadixSortSortsLevels) {
  // The solver sorts each level's indices (core/radix_sort.h): against std::sort, for
  // key widths of one digit, of several, and of a partial last digit, with duplicates.
  std::mt19937_64 random(7);
  for (const int bits : {1, 5, 11, 12, 22, 23, 32}) {
    for (const std::size_t count :
         {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{1000}, std::size_t{50000}}) {
      std::vector<std::uint32_t> keys(count);
      for (std::uint32_t& key : keys) key = static_cast<std::uint32_t>(random() >> (64 - bits));
      std::vector<std::uint32_t> expected = keys;
      std::sort(expected.begin(), expected.end());
      std::vector<std::uint32_t> buffer;
      radix_sort(keys, buffer, bits);
      EXPECT_EQ(keys, expected) << bits << " bits, " << count << " keys";
      // A part of a larger array, sorted in place (each thread's part of a level): an odd
      // number of passes (1 or 3 here) copies back from the buffer; the rest is untouched.
      std::vector<std::uint32_t> whole(count + 20);
      for (std::uint32_t& key : whole) key = static_cast<std::uint32_t>(random() >> (64 - bits));
      std::vector<std::uint32_t> sorted_part = whole;
      std::sort(sorted_part.begin() + 7, sorted_part.begin() + 7 + static_cast<std::ptrdiff_t>(count));
      radix_sort(std::span(whole.data() + 7, count), buffer, bits);
      EXPECT_EQ(whole, sorted_part) << bits << " bits, " << count << " keys in place";
      // Ordered by the bits above the first digit only (the solver's levels): the same
      // as a stable sort by key >> kRadixDigit, so keys equal there keep their order.
      std::vector<std::uint32_t> coarse(count);
      for (std::uint32_t& key : coarse) key = static_cast<std::uint32_t>(random() >> (64 - bits));
      std::vector<std::uint32_t> stable = coarse;
      std::stable_sort(stable.begin(), stable.end(),
                       [](std::uint32_t a, std::uint32_t b) { return a >> kRadixDigit < b >> kRadixDigit; });
      radix_sort(coarse, buffer, bits, kRadixDigit);
      EXPECT_EQ(coarse, stable) << bits << " bits, " << count << " keys by their high bits";
    }
  }
  EXPECT_EQ(key_bits(0), 0);
  EXPECT_EQ(key_bits(1), 0);
  EXPECT_EQ(key_bits(2), 1);
  EXPECT_EQ(key_bits(2048), 11);
  EXPECT_EQ(key_bits(2049), 12);
  EXPECT_EQ(key_bits(std::uint64_t{1} << 32), 32);
}

TEST(Retro, BlockListsSortAsTheirKeysConcatenated) {
  // The solver lists each depth's indices in blocks from a pool (core/block_list.h) and
  // sorts a level straight from the blocks, giving them back (radix_sort_into): the same keys in the same
  // order as a stable sort of the keys appended, for no pass (0 or 11 bits), one, two
  // and three, a list of no key, one, a part-filled block and whole blocks, and lists
  // whose blocks went back to the pool and were taken again.
  std::mt19937_64 random(8);
  BlockPool pool(64);
  for (const int low : {0, kRadixDigit}) {
    for (const int bits : {5, 11, 12, 22, 23, 32}) {
      for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{64},
                                      std::size_t{65}, std::size_t{1000}, std::size_t{50000}}) {
        BlockList list;
        std::vector<std::uint32_t> keys(count);
        for (std::uint32_t& key : keys) {
          key = static_cast<std::uint32_t>(random() >> (64 - bits));
          list.push_back(key, pool);
        }
        ASSERT_EQ(list.size(), count);
        std::vector<std::uint32_t> blocks;
        list.for_each_block(
            [&](const std::uint32_t* run, std::size_t n) { blocks.insert(blocks.end(), run, run + n); });
        EXPECT_EQ(blocks, keys) << count << " keys appended";
        std::stable_sort(keys.begin(), keys.end(),
                         [low](std::uint32_t a, std::uint32_t b) { return a >> low < b >> low; });
        std::vector<std::uint32_t> out(count + 2, 7);
        radix_sort_into(list, pool, std::span(out.data() + 1, count), bits, low);
        EXPECT_EQ(out.front(), 7U);
        EXPECT_EQ(out.back(), 7U);
        EXPECT_TRUE(std::equal(keys.begin(), keys.end(), out.begin() + 1))
            << bits << " bits from " << low << ", " << count << " keys";
        EXPECT_TRUE(list.empty());
      }
    }
  }
}

// ---------------------------------------------------------------------------------
// Slow: every tier up to three pieces.

TEST(RetroSlow, AgreesWithBruteForceUpToThreePieces) {
  const Jungle game;
  const auto brute = test::brute_force(game, game.tiers(3), default_threads());
  TempDir dir;
  const auto reports = build(game, dir.path(), 3, default_threads());
  EXPECT_EQ(reports.size(), game.tiers(3).size());
  expect_database_equals(game, dir.path(), brute);
}

TEST(RetroSlow, VariantsAgreeWithBruteForceUpToThreePieces) {
  const auto reference = test::brute_force(Jungle{}, Jungle::tiers(3), default_threads());
  for (const auto& [name, options] : kVariants) {
    SCOPED_TRACE(name);
    const Jungle game = Jungle::from_options("", options);
    const auto brute = test::brute_force(game, game.tiers(3), default_threads());
    EXPECT_GT(differences(brute, reference), 0U) << name << " changes no value";
    TempDir dir;
    build(game, dir.path(), 3, default_threads());
    EXPECT_TRUE(fs::exists(dir.path() / "jungle" / ("standard," + name)));
    expect_database_equals(game, dir.path(), brute);
  }
}

TEST(RetroSlow, VerifyPassesUpToThreePieces) {
  const Jungle game;
  TempDir dir;
  build(game, dir.path(), 3, default_threads());
  db::Database database(db::Location::of(game, dir.path()));
  for (const Tier tier : retro::tiers_in_order(game, 3)) {
    const auto found = retro::verify_tier(game, database, tier, default_threads(), true);
    EXPECT_TRUE(found.consistent()) << game.tier_name(tier) << " index " << found.first.at(0).index << " "
                                    << found.first.at(0).position << " stores " << found.first.at(0).stored
                                    << ", expected " << found.first.at(0).expected;
  }
}

TEST(RetroSlow, ThreadCountsGiveIdenticalFilesUpToThreePieces) {
  const Jungle game;
  TempDir one;
  TempDir two;
  build(game, one.path(), 3, 1);
  build(game, two.path(), 3, 2);
  const auto files = test::snapshot(one.path());
  EXPECT_EQ(files.size(), game.tiers(3).size());
  EXPECT_EQ(test::compare_snapshots(files, test::snapshot(two.path())), "");
}

TEST(RetroSlow, InterruptedBuildResumesUpToThreePieces) {
  const Jungle game;
  TempDir dir;
  build(game, dir.path(), 3, default_threads());
  const auto before = test::snapshot(dir.path());
  ASSERT_EQ(before.size(), game.tiers(3).size());
  const db::Location location = db::Location::of(game, dir.path());
  // As a killed build leaves things: some tiers never written (a two-piece one that
  // three-piece tiers depend on, and three-piece ones), a file cut short, a temporary
  // file of a write in progress.
  const std::vector<std::string> removed = {"E-r", "RE-r", "DT-r", "TE-t"};
  for (const std::string& name : removed) ASSERT_TRUE(fs::remove(location.file(name))) << name;
  const fs::path cut = location.file("RD-d");
  fs::resize_file(cut, fs::file_size(cut) / 2);
  const std::string stray = location.file("RT-t").string() + ".tmp-999999999";
  test::write_file(stray, test::read_file(location.file("RT-t")).substr(0, 1000));
  const auto reports = build(game, dir.path(), 3, default_threads());
  std::set<std::string> rebuilt;
  for (const auto& report : reports) {
    if (report.built) rebuilt.insert(report.name);
  }
  // Exactly the missing and damaged tiers are built again; the others, including those
  // that depend on a rebuilt tier, are left alone.
  std::set<std::string> expected(removed.begin(), removed.end());
  expected.insert("RD-d");
  EXPECT_EQ(rebuilt, expected);
  EXPECT_EQ(test::compare_snapshots(before, test::snapshot(dir.path())), "");
  EXPECT_TRUE(test::files_named(dir.path(), ".tmp-").empty());
}

}  // namespace
}  // namespace gs
