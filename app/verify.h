#pragma once
// `verify` for any game: every stored value re-derived from its successors
// (retro/verify.h), or every block's checksum only, tier by tier in build order. It
// goes on to the end whatever it finds: every inconsistent position is counted (the
// first request.max_errors described), and a tier that cannot be verified (its file or
// a child's missing or damaged) is reported with its error and passed over. With a
// journal (app/verify_journal.h) the tiers an earlier run found consistent, their files
// and their children's unchanged since, are passed over too, and each tier found
// consistent is recorded. Each tier's check holds its file and its children's, each
// decompressed whole, within the memory budget (--memory): the tiers kept open for later
// tiers are let go first where they and the tier's would not fit together.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/requests.h"
#include "app/results.h"
#include "app/verify_journal.h"
#include "core/error.h"
#include "core/game.h"
#include "db/database.h"
#include "retro/build.h"
#include "retro/verify.h"

namespace gs::app {

// A tier's line in the verify journal: its name and the values checksum of its file and
// its children's files. Throws where one of them is missing or damaged.
template <Game G>
std::string journal_line(const G& game, db::Database& database, Tier tier) {
  std::string line = game.tier_name(tier);
  const auto add = [&](Tier t) {
    const db::TierReader* reader = database.find(game, t);
    if (reader == nullptr) fail("tier {} is not built", game.tier_name(t));
    line += fmt::format(" {}={:016x}", game.tier_name(t), reader->header().values_checksum);
  };
  add(tier);
  for (const Tier child : game.children(tier)) add(child);
  return line;
}

// Lets go of the open tiers that `tier`'s check does not read when they and the files
// and images it reads would not fit the budget together (they are opened again when a
// later tier needs them).
template <Game G>
void make_room_to_verify(const G& game, db::Database& database, Tier tier, std::uint64_t budget) {
  const std::vector<Tier> reading = retro::tiers_verified_with(game, tier);
  for (const Tier t : reading) (void)database.find(game, t);  // opened, so counted below
  const std::set<Tier> needed(reading.begin(), reading.end());
  std::uint64_t open = 0;
  std::vector<Tier> others;
  for (const auto& [t, bytes] : database.open_memory()) {
    open += bytes;
    if (!needed.contains(t)) others.push_back(t);
  }
  if (open <= budget) return;
  for (const Tier t : others) database.forget(t);
}

template <Game G>
VerifySummary verify(const G& game, const CommonOptions& options, const VerifyRequest& request, int threads,
                     const std::function<void(const VerifiedTier&)>& on_tier) {
  VerifySummary summary;
  summary.checksums_only = request.checksums;
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Tier> order = retro::tiers_in_order(game, request.scope());
  // Checksums only: the header's, the block index's and every block's checksum, and that
  // every block decompresses to the values' checksum; no block is read twice.
  db::Database database(db::Location::of(game, options.data), !request.checksums);
  const auto budget = static_cast<std::uint64_t>(options.memory_gib * static_cast<double>(1ULL << 30));
  std::map<Tier, std::vector<Tier>> released = retro::released_after(game, order);
  VerifyJournal journal(request.checksums ? std::filesystem::path() : request.journal);
  for (const Tier tier : order) {
    VerifiedTier row;
    row.name = game.tier_name(tier);
    row.checksums_only = request.checksums;
    try {
      if (request.checksums) {
        const db::TierReader* reader = database.find(game, tier);
        if (reader == nullptr) fail("tier {} is not built", row.name);
        reader->check(true);
        summary.bytes += reader->file_bytes();
      } else if (const std::string line = journal.active() ? journal_line(game, database, tier) : "";
                 journal.has(line)) {
        row.from_journal = true;
        summary.positions += game.size(tier);
      } else {
        const std::uint64_t room = request.max_errors - std::min(summary.listed, request.max_errors);
        make_room_to_verify(game, database, tier, budget);
        const retro::TierVerification found =
            retro::verify_tier(game, database, tier, threads, options.quiet, room, budget);
        row.inconsistent = found.inconsistent;
        for (const retro::Inconsistency& bad : found.first)
          row.listed.push_back({row.name, bad.index, bad.position, bad.stored, bad.expected});
        summary.positions += game.size(tier);
        if (found.consistent()) journal.add(line);
      }
    } catch (const Error& error) {
      row.failure = error.what();
    }
    if (request.checksums) {
      database.forget(tier);
    } else {
      for (const Tier done : released[tier]) database.forget(done);  // their decompressed blocks
    }
    summary.add(row);
    if (on_tier) on_tier(row);
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace gs::app
