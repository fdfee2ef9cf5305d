// Database files (db/tier_file.h, db/database.h): values and headers round-trip (format
// v1 where a test says so: such files must stay readable), and every kind of damage (missing, truncated,
// extended, a flipped byte in the values or the header, a file of another tier, game or rules) is refused
// with a gs::Error that names the file, while check_tier_file() says what is wrong. The lock of a
// database directory (db/directory_lock.h) refuses a second holder and goes with a killed one.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <array>

#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "db/block_codec.h"
#include "db/database.h"
#include "db/directory_lock.h"
#include "db/stored_symbols.h"
#include "db/tier_file.h"
#include "games/jungle/jungle.h"
#include "retro/build.h"
#include "tests/test_util.h"

namespace gs::db {
namespace {

using jungle::Jungle;
using test::TempDir;
namespace fs = std::filesystem;

TierHeader header_for(Tier tier, const std::string& name) {
  TierHeader header;
  header.game = "jungle";
  header.variant = "standard";
  header.tier = tier;
  header.tier_name = name;
  return header;
}

Expected expected_for(Tier tier, std::uint64_t positions) {
  return {"jungle", "standard", "", tier, positions, {}};
}

// Opening must fail with a message naming the file and containing `what`.
void expect_refused(const fs::path& path, const Expected& expected, const std::string& what) {
  try {
    (void)open_tier(path, expected, true);
    ADD_FAILURE() << path << " was accepted (expected: " << what << ")";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path.string()), std::string::npos)
        << "message does not name the file: " << message;
    EXPECT_NE(message.find(what), std::string::npos) << "message lacks '" << what << "': " << message;
  }
  EXPECT_FALSE(tier_file_good(path, expected));
  // A build says why it rebuilds a file that is there: the reader's reason, without the
  // file's name in front (the build's line names the tier).
  const TierFileCheck check = check_tier_file(path, expected);
  if (!fs::exists(path)) {
    EXPECT_EQ(check.state, TierFileCheck::State::kAbsent);
    EXPECT_EQ(check.problem, "");
    return;
  }
  EXPECT_EQ(check.state, TierFileCheck::State::kDamaged);
  EXPECT_NE(check.problem.find(what), std::string::npos) << check.problem;
  EXPECT_FALSE(check.problem.starts_with(path.string())) << check.problem;
}

std::vector<ValueCode> sample_codes(std::size_t n, ValueCode largest) {
  std::vector<ValueCode> codes(n);
  for (std::size_t i = 0; i < n; ++i) codes[i] = static_cast<ValueCode>((i * 7919) % (largest + 1));
  codes[n / 2] = largest;
  return codes;
}

TEST(TierFile, WriteAndReadBack) {
  TempDir dir;
  for (const ValueCode largest : {ValueCode{200}, ValueCode{301}}) {
    const fs::path path = dir / ("t" + std::to_string(largest) + ".gsdb");
    const std::vector<ValueCode> codes = sample_codes(5000, largest);
    const TierHeader written = write_tier_v1(path, header_for(7, "R-r"), codes);
    const std::uint8_t bytes = largest < 256 ? 1 : 2;
    EXPECT_EQ(written.value_bytes, bytes);
    EXPECT_EQ(fs::file_size(path), kHeaderSize + codes.size() * bytes);
    std::uint64_t wins = 0, draws = 0, losses = 0, holes = 0;
    Depth longest_win = 0, longest_loss = 0;
    for (const ValueCode code : codes) {
      if (code == kHoleCode) {
        ++holes;
        continue;
      }
      const Value value = Value::from_code(code);
      if (value.is_win()) {
        ++wins;
        longest_win = std::max(longest_win, value.depth());
      } else if (value.is_loss()) {
        ++losses;
        longest_loss = std::max(longest_loss, value.depth());
      } else {
        ++draws;
      }
    }
    const auto reader = open_tier(path, expected_for(7, codes.size()), true);
    const TierHeader& h = reader->header();
    EXPECT_EQ(h.game, "jungle");
    EXPECT_EQ(h.variant, "standard");
    EXPECT_EQ(h.rules, "");
    EXPECT_EQ(h.tier, 7U);
    EXPECT_EQ(h.tier_name, "R-r");
    EXPECT_EQ(h.positions, codes.size());
    EXPECT_EQ(h.wins, wins);
    EXPECT_EQ(h.draws, draws);
    EXPECT_EQ(h.losses, losses);
    EXPECT_EQ(h.holes, holes);
    EXPECT_EQ(h.longest_win, longest_win);
    EXPECT_EQ(h.longest_loss, longest_loss);
    EXPECT_EQ(h.values_checksum, written.values_checksum);
    EXPECT_EQ(reader->file_bytes(), fs::file_size(path));
    for (std::size_t i = 0; i < codes.size(); ++i) ASSERT_EQ(reader->code(i), codes[i]) << i;
    EXPECT_TRUE(tier_file_good(path, expected_for(7, codes.size())));
  }
  EXPECT_TRUE(test::files_named(dir.path(), ".tmp-").empty());
}

TEST(StoredSymbols, AnyRangeAsInTheWholeTier) {
  // Values with runs of holes and of derivable positions, some longer than the stretches
  // whose handed-on symbol is kept (4096): every range, made on its own, holds what one
  // pass over the whole tier gives (a don't-care takes the symbol before it, those at
  // the start the first symbol), with either encoding and holes filled or not.
  std::mt19937_64 random(17);
  const std::uint64_t positions = 40000;
  std::vector<ValueCode> codes(positions);
  std::vector<bool> derivable(positions, false);
  for (std::uint64_t i = 0; i < positions;) {
    const std::uint64_t run = 1 + random() % (random() % 8 == 0 ? 9000 : 40);
    const int kind = static_cast<int>(random() % 4);  // 0: holes, 1: derivable, else values
    for (std::uint64_t k = 0; k < run && i < positions; ++k, ++i) {
      codes[i] = kind == 0 ? kHoleCode : static_cast<ValueCode>(random() % 300);
      derivable[i] = kind == 1;
    }
  }
  for (std::uint64_t i = 0; i < 5000; ++i) codes[i] = kHoleCode;  // a leading run of holes
  for (const Encoding encoding : {Encoding::kDepth, Encoding::kWinDrawLoss}) {
    for (const bool fill_holes : {true, false}) {
      WriteOptions options;
      options.encoding = encoding;
      options.fill_holes = fill_holes;
      options.derivable = [&](Tier, Index i) { return derivable[i]; };
      auto dont_care = [&](std::uint64_t i) {
        return (fill_holes && codes[i] == kHoleCode) || (codes[i] != kHoleCode && derivable[i]);
      };
      auto stored = [&](std::uint64_t i) {
        return encoding == Encoding::kWinDrawLoss ? win_draw_loss(codes[i]) : codes[i];
      };
      std::vector<ValueCode> whole(positions);
      ValueCode previous = kHoleCode;
      for (std::uint64_t i = 0; i < positions; ++i) {
        if (!dont_care(i)) {
          previous = stored(i);
          break;
        }
      }
      std::uint64_t derivable_count = 0;
      for (std::uint64_t i = 0; i < positions; ++i) {
        if (codes[i] != kHoleCode && derivable[i]) ++derivable_count;
        if (!dont_care(i)) previous = stored(i);
        whole[i] = previous;
      }
      const StoredSymbols symbols(3, codes, options, 3);
      EXPECT_EQ(symbols.derivable_count(), derivable_count);
      std::vector<ValueCode> part;
      for (int trial = 0; trial < 300; ++trial) {
        std::uint64_t first = random() % positions;
        std::uint64_t last = random() % (positions + 1);
        if (first > last) std::swap(first, last);
        if (trial == 0) first = 0, last = positions;
        symbols.fill(first, last, part);
        ASSERT_EQ(part.size(), last - first);
        for (std::uint64_t i = first; i < last; ++i)
          ASSERT_EQ(part[i - first], whole[i]) << "position " << i << " of [" << first << ", " << last << ")";
      }
    }
  }
}

TEST(TierFile, BlocksWrittenInBatchesReadBack) {
  // A tier of many small blocks (several of the writer's batches, which go to the file
  // one after another): every value reads back, every block's checksum holds, and the
  // file is the same byte for byte on one thread and on three.
  TempDir dir;
  std::mt19937_64 random(5);
  std::vector<ValueCode> codes(50000);
  for (ValueCode& code : codes) code = random() % 16 == 0 ? kHoleCode : static_cast<ValueCode>(random() % 40);
  std::vector<std::string> contents;
  for (const int threads : {1, 3}) {
    WriteOptions options;
    options.codec = Codec::kZstd;
    options.dictionary = false;
    options.block_positions = 64;  // 782 blocks
    options.fill_holes = false;
    options.threads = threads;
    const fs::path path = dir / fmt::format("t{}.gsdb", threads);
    const TierHeader written = write_tier(path, header_for(7, "R-r"), codes, options);
    EXPECT_EQ(written.blocks, (codes.size() + 63) / 64);
    const auto reader = open_tier(path, expected_for(7, codes.size()), true);
    for (std::size_t i = 0; i < codes.size(); ++i) ASSERT_EQ(reader->code(i), codes[i]) << i;
    EXPECT_TRUE(tier_file_good(path, expected_for(7, codes.size())));
    contents.push_back(test::read_file(path));
  }
  EXPECT_EQ(contents[0], contents[1]);
  EXPECT_TRUE(test::files_named(dir.path(), ".tmp-").empty());
}

TEST(TierFile, MissingFile) {
  TempDir dir;
  const fs::path path = dir / "absent.gsdb";
  expect_refused(path, expected_for(1, 10), "cannot open");
  const Jungle game;
  Database database(Location::of(game, dir.path()));
  EXPECT_EQ(database.find(game, Jungle::parse_tier("R-r")), nullptr);
  EXPECT_FALSE(probe(game, database, game.parse_position("7/7/2r4/7/3R3/7/7 w")).has_value());
  // A position that is over needs no file.
  EXPECT_EQ(probe(game, database, game.parse_position("7/7/7/7/7/7/2Rr3 w")), Value::loss(0));
}

TEST(TierFile, TruncatedOrExtended) {
  TempDir dir;
  const fs::path path = dir / "t.gsdb";
  const std::vector<ValueCode> codes = sample_codes(1000, 99);
  write_tier(path, header_for(3, "R-r"), codes);
  const std::string good = test::read_file(path);
  const Expected expected = expected_for(3, codes.size());
  test::write_file(path, good.substr(0, good.size() - 1));
  expect_refused(path, expected, "truncated");
  test::write_file(path, good.substr(0, 100));
  expect_refused(path, expected, "truncated");
  test::write_file(path, "");
  expect_refused(path, expected, "truncated");
  test::write_file(path, good + "x");
  expect_refused(path, expected, "extended");
  test::write_file(path, good);
  EXPECT_TRUE(tier_file_good(path, expected));
}

// A build reads its child tiers through their whole images (TierReader::load_image): they
// give what code() gives at every index, for each value width, and a damaged block fails
// there as it would in code(). A v1 file keeps no image.
TEST(TierFile, LoadedImageReadsAsCode) {
  TempDir dir;
  const std::vector<ValueCode> codes = sample_codes(5000, 301);
  const std::vector<ValueCode> narrow = sample_codes(5000, 200);
  for (const auto& [values, encoding] :
       {std::pair{&codes, Encoding::kDepth}, std::pair{&narrow, Encoding::kDepth},
        std::pair{&codes, Encoding::kWinDrawLoss}}) {
    const fs::path path = dir / "t.gsdb";
    WriteOptions options;
    options.encoding = encoding;
    options.block_positions = 256;
    options.threads = 2;
    write_tier(path, header_for(7, "R-r"), *values, options);
    const auto reader = open_tier(path, expected_for(7, values->size()), true);
    const std::uint8_t* image = reader->load_image(2);
    ASSERT_NE(image, nullptr);
    const unsigned bits = reader->header().image_bits;
    EXPECT_EQ(bits, encoding == Encoding::kWinDrawLoss ? 2U : (values == &narrow ? 8U : 16U));
    for (std::size_t i = 0; i < values->size(); ++i)
      ASSERT_EQ(image_symbol(image, bits, i), reader->code(i)) << i;

    test::flip_byte(path, fs::file_size(path) - 1);  // in the last block
    const auto damaged = open_tier(path, expected_for(7, values->size()), false);
    try {
      (void)damaged->load_image(2);
      ADD_FAILURE() << "a damaged block was loaded";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("checksum mismatch"), std::string::npos) << e.what();
    }
  }
  const fs::path old = dir / "v1.gsdb";
  write_tier_v1(old, header_for(7, "R-r"), codes);
  EXPECT_EQ(open_tier(old, expected_for(7, codes.size()), true)->load_image(2), nullptr);
}

TEST(TierFile, FlippedValueByte) {
  TempDir dir;
  const fs::path path = dir / "t.gsdb";
  const std::vector<ValueCode> codes = sample_codes(1000, 99);
  write_tier_v1(path, header_for(3, "R-r"), codes);
  const Expected expected = expected_for(3, codes.size());
  for (const std::size_t at : {kHeaderSize, kHeaderSize + 500, kHeaderSize + 999}) {
    const std::string good = test::read_file(path);
    test::flip_byte(path, at);
    expect_refused(path, expected, "checksum mismatch in the values");
    // Opening without the values' checksum is the cheap check of the header alone.
    EXPECT_NO_THROW((void)open_tier(path, expected, false));
    test::write_file(path, good);
  }
}

TEST(TierFile, FlippedHeaderByte) {
  TempDir dir;
  const fs::path path = dir / "t.gsdb";
  const std::vector<ValueCode> codes = sample_codes(1000, 99);
  write_tier(path, header_for(3, "R-r"), codes);
  const std::string good = test::read_file(path);
  const Expected expected = expected_for(3, codes.size());
  struct Case {
    std::size_t offset;
    const char* what;
  };
  const Case cases[] = {
      {0, "bad magic"},         {7, "bad magic"},         {8, "format version"},    {12, "header checksum"},
      {16, "header checksum"},  {40, "header checksum"},  {64, "header checksum"},  {128, "header checksum"},
      {140, "header checksum"}, {160, "header checksum"}, {170, "header checksum"}, {200, "header checksum"},
      {204, "header checksum"}, {208, "header checksum"}, {230, "header checksum"}, {248, "header checksum"},
      {255, "header checksum"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("byte " + std::to_string(c.offset));
    test::write_file(path, good);
    test::flip_byte(path, c.offset);
    expect_refused(path, expected, c.what);
  }
}

TEST(TierFile, FileOfAnotherTierGameOrRules) {
  const Jungle game;
  TempDir dir;
  {
    db::Database database(Location::of(game, dir.path()));
    retro::BuildOptions options;
    options.solve.threads = 1;
    options.solve.quiet = true;
    retro::build(game, database, 2, options);
  }
  const Location location = Location::of(game, dir.path());
  const Tier rr = Jungle::parse_tier("R-r");
  const Tier dr = Jungle::parse_tier("D-r");
  const Tier er = Jungle::parse_tier("E-r");
  ASSERT_EQ(Jungle::size(rr), 1091U);  // colour-symmetric: White to move only
  ASSERT_EQ(Jungle::size(dr), 2182U);
  // D-r's file in the place of E-r's: same size, another tier.
  fs::copy_file(location.file("D-r"), location.file("E-r"), fs::copy_options::overwrite_existing);
  expect_refused(location.file("E-r"), location.expected(er, Jungle::size(er)), "holds");
  // Through a database, which knows the game, the tiers go by their names.
  try {
    db::Database database(location);
    (void)database.find(game, er);
    ADD_FAILURE() << "D-r's file was taken for E-r";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("tier D-r, expected jungle standard [] tier E-r"),
              std::string::npos)
        << error.what();
  }
  // Another game, variant or rules than the reader expects.
  const fs::path d_r = location.file("D-r");
  Expected other = location.expected(dr, Jungle::size(dr));
  other.game = "checkers";
  expect_refused(d_r, other, "expected checkers");
  other = location.expected(dr, Jungle::size(dr));
  other.rules = "elephant_takes_rat=off";
  expect_refused(d_r, other, "elephant_takes_rat=off");
  other = location.expected(dr, Jungle::size(dr));
  other.variant = "big";
  expect_refused(d_r, other, "big");
  other = location.expected(dr, Jungle::size(dr) + 1);
  expect_refused(d_r, other, "positions");
  EXPECT_TRUE(tier_file_good(d_r, location.expected(dr, Jungle::size(dr))));
  // Through the database: finding or probing the damaged tier throws, naming the file.
  db::Database database(location);
  try {
    (void)database.find(game, er);
    ADD_FAILURE() << "a file of another tier was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(location.file("E-r").string()), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)probe(game, database, game.parse_position("7/7/2r4/7/3E3/7/7 w")), Error);
  EXPECT_EQ(database.find(game, dr)->header().tier_name, "D-r");
}

TEST(TierFile, WriteFailureLeavesNothing) {
  TempDir dir;
  test::write_file(dir / "file", "not a directory");
  const fs::path path = dir / "file" / "t.gsdb";
  EXPECT_THROW(write_tier(path, header_for(3, "R-r"), sample_codes(10, 9)), Error);
  EXPECT_FALSE(fs::exists(path));
  // Header text longer than its field.
  TierHeader long_name = header_for(3, std::string(30, 'x'));
  EXPECT_THROW(write_tier(dir / "u.gsdb", long_name, sample_codes(10, 9)), Error);
  EXPECT_FALSE(fs::exists(dir / "u.gsdb"));
  EXPECT_TRUE(test::files_named(dir.path(), ".tmp-").empty());
}

TEST(TierFile, StaleTemporariesAreRemoved) {
  TempDir dir;
  const fs::path path = dir / "R-r.gsdb";
  const std::string self = std::to_string(::getpid());
  std::array<char, 256> host{};
  ASSERT_EQ(::gethostname(host.data(), host.size() - 1), 0);
  const std::string here = host.data();
  const std::vector<std::string> removed = {"R-r.gsdb.tmp-999999999",  // no process has that id
                                            "R-r.gsdb.tmp-999999998@" + here};
  const std::vector<std::string> kept = {"R-r.gsdb.tmp-" + self,                  // a writer that still runs
                                         "R-r.gsdb.tmp-" + self + "@" + here,     //
                                         "R-r.gsdb.tmp-999999999@other-machine",  // cannot be seen from here
                                         "R-r.gsdb.tmp-12ab",                     // not a process id
                                         "R-r.gsdb.tmp-",                         //
                                         "D-r.gsdb.tmp-999999999",                // another tier's
                                         "R-r.gsdb"};
  for (const auto& name : removed) test::write_file(dir / name, "x");
  for (const auto& name : kept) test::write_file(dir / name, "x");
  remove_stale_temporaries(path);
  for (const auto& name : removed) EXPECT_FALSE(fs::exists(dir / name)) << name;
  for (const auto& name : kept) EXPECT_TRUE(fs::exists(dir / name)) << name;
  // Writing the tier removes them too.
  test::write_file(dir / removed[0], "x");
  write_tier(path, header_for(3, "R-r"), sample_codes(10, 9));
  EXPECT_FALSE(fs::exists(dir / removed[0]));
  // Every tier's at once (what `build --mpi` does when it starts).
  remove_stale_temporaries_in(dir.path());
  EXPECT_FALSE(fs::exists(dir / "D-r.gsdb.tmp-999999999"));
  EXPECT_TRUE(fs::exists(dir / "R-r.gsdb.tmp-999999999@other-machine"));
  EXPECT_TRUE(fs::exists(dir / ("R-r.gsdb.tmp-" + self)));
  EXPECT_TRUE(fs::exists(dir / "R-r.gsdb"));
}

TEST(TierFile, CheckSaysGoodAbsentOrWhatIsWrong) {
  TempDir dir;
  const fs::path path = dir / "t.gsdb";
  const std::vector<ValueCode> codes = sample_codes(1000, 99);
  const Expected expected = expected_for(3, codes.size());
  EXPECT_EQ(check_tier_file(path, expected).state, TierFileCheck::State::kAbsent);
  write_tier(path, header_for(3, "R-r"), codes);
  EXPECT_TRUE(check_tier_file(path, expected).good());
  EXPECT_EQ(check_tier_file(path, expected_for(4, codes.size())).problem,
            "holds jungle standard [] tier 3, expected jungle standard [] tier 4");
  fs::remove(path);
  fs::create_directory(path);
  EXPECT_EQ(check_tier_file(path, expected).state, TierFileCheck::State::kDamaged);
  EXPECT_EQ(check_tier_file(path, expected).problem, "not a regular file");
}

// The error of a second holder names the directory and the holder.
void expect_locked(const fs::path& directory, const std::string& holder) {
  try {
    const DirectoryLock second(directory, "second");
    ADD_FAILURE() << "a second lock of " << directory << " was taken";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the database directory " + directory.string() + " is in use"), std::string::npos)
        << message;
    EXPECT_NE(message.find(holder), std::string::npos) << message;
  }
}

TEST(DirectoryLock, OneHolderAtATime) {
  TempDir dir;
  const fs::path directory = dir / "data" / "jungle" / "standard";  // made by the lock
  {
    const DirectoryLock lock(directory, "build");
    EXPECT_EQ(lock.path(), directory / "gamesolver.lock");
    const std::string holder = fmt::format("pid {} on ", ::getpid());
    EXPECT_TRUE(DirectoryLock::holder(directory).starts_with(holder)) << DirectoryLock::holder(directory);
    EXPECT_TRUE(DirectoryLock::holder(directory).ends_with(": build")) << DirectoryLock::holder(directory);
    // Another open file of the same process is refused too (flock locks open files).
    expect_locked(directory, holder);
    // Another directory is free.
    const DirectoryLock other(dir / "data" / "jungle" / "standard,stalemate=loss", "build");
  }
  // Released: the file stays, naming nobody, and the next holder takes it.
  EXPECT_TRUE(fs::exists(directory / "gamesolver.lock"));
  EXPECT_EQ(DirectoryLock::holder(directory), "");
  const DirectoryLock again(directory, "compress");
  EXPECT_TRUE(DirectoryLock::holder(directory).ends_with(": compress"));
}

// A holder killed with SIGKILL cannot clean up: the kernel releases its lock.
TEST(DirectoryLock, KilledHolderReleasesIt) {
  TempDir dir;
  const fs::path directory = dir / "data";
  std::array<int, 2> ready{};
  ASSERT_EQ(::pipe(ready.data()), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    try {
      const DirectoryLock lock(directory, "build");
      const char byte = 1;
      if (::write(ready[1], &byte, 1) != 1) ::_exit(2);
      while (true) ::pause();
    } catch (...) {
      ::_exit(1);
    }
  }
  ::close(ready[1]);
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1) << "the child did not take the lock";
  ::close(ready[0]);
  expect_locked(directory, fmt::format("pid {} on ", child));
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status));
  // Its pid is still written in the file, but the lock is free.
  std::optional<DirectoryLock> lock;
  EXPECT_NO_THROW(lock.emplace(directory, "build"));
}

}  // namespace
}  // namespace gs::db
