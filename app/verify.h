#pragma once
// `verify` for any game: every stored value re-derived from its successors
// (retro/verify.h), tier by tier in build order, stopping at the first inconsistency;
// or every block's checksum only.
#include <chrono>
#include <functional>
#include <map>
#include <vector>

#include "app/requests.h"
#include "app/results.h"
#include "core/error.h"
#include "core/game.h"
#include "db/database.h"
#include "retro/build.h"
#include "retro/verify.h"

namespace gs::app {

template <Game G>
VerifySummary verify(const G& game, const CommonOptions& options, const VerifyRequest& request, int threads,
                     const std::function<void(const VerifiedTier&)>& on_tier) {
  VerifySummary summary;
  summary.checksums_only = request.checksums;
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Tier> order = retro::tiers_in_order(game, request.pieces);
  if (request.checksums) {
    // The header's, the block index's and every block's checksum, and that every block
    // decompresses to the values' checksum.
    db::Database database(db::Location::of(game, options.data), false);
    for (const Tier tier : order) {
      const db::TierReader* reader = database.find(game, tier);
      if (reader == nullptr) fail("tier {} is not built", game.tier_name(tier));
      reader->check(true);
      summary.bytes += reader->file_bytes();
      if (on_tier) on_tier({game.tier_name(tier), true});
      database.forget(tier);
    }
  } else {
    db::Database database(db::Location::of(game, options.data));
    std::map<Tier, std::vector<Tier>> released = retro::released_after(game, order);
    for (const Tier tier : order) {
      const auto bad = retro::verify_tier(game, database, tier, threads, options.quiet);
      for (const Tier done : released[tier]) database.forget(done);  // their decompressed blocks
      if (bad) {
        summary.inconsistency =
            Inconsistency{game.tier_name(tier), bad->index, bad->position, bad->stored, bad->expected};
        break;
      }
      summary.positions += game.size(tier);
      if (on_tier) on_tier({game.tier_name(tier), false});
    }
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace gs::app
