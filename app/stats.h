#pragma once
// `stats` for any game: per tier its positions, wins, draws, losses, longest win and
// loss and file size, from the tier files' headers (counted when the file was written).
// Opening a file checks the header's and the block index's checksums and the file's
// size; no block is read, so stats is quick and does not notice a damaged block
// (`verify --checksums` does). The summary says so (headers_only).
#include <algorithm>

#include "app/requests.h"
#include "app/results.h"
#include "core/game.h"
#include "db/database.h"
#include "retro/build.h"

namespace gs::app {

template <Game G>
StatsSummary stats(const G& game, const CommonOptions& options, const TierScope& scope) {
  db::Database database(db::Location::of(game, options.data), false);
  StatsSummary summary;
  summary.label = {std::string(G::kName), game.variant(), game.rule_text()};
  summary.total.tier = "total";
  summary.total.built = true;
  summary.headers_only = true;  // the database reads no block (check_values false)
  for (const Tier tier : retro::tiers_in_order(game, scope)) {
    TierStats row;
    row.tier = game.tier_name(tier);
    row.pieces = game.tier_pieces(tier);
    const db::TierReader* reader = database.find(game, tier);
    if (reader == nullptr) {
      ++summary.missing;
      summary.total.built = false;
      summary.tiers.push_back(row);
      continue;
    }
    const db::TierHeader& h = reader->header();
    row.tier = h.tier_name;
    row.built = true;
    row.indices = h.positions;
    row.positions = h.positions - h.holes;
    row.wins = h.wins;
    row.draws = h.draws;
    row.losses = h.losses;
    row.longest_win = h.longest_win;
    row.longest_loss = h.longest_loss;
    row.file_bytes = reader->file_bytes();
    summary.total.add(row);
    summary.total.file_bytes += row.file_bytes;
    summary.tiers.push_back(row);
  }
  return summary;
}

}  // namespace gs::app
