#pragma once
// `stats --sectors` for games with sectors (core/game.h, HasSectors; the mill games):
// per sector its positions, wins, draws, losses and longest win and loss, the table of
// Gévay & Danner's papers. A tier that pairs a sector with its colour-swapped twin
// counts the two apart. Unlike the header-only `stats`, this reads every value: each
// block is decompressed (its checksum checked), and holes are told from positions by
// stepping through the tier in index order (unrank_next). The sectors of a tier must
// add up to the counts its header holds; a file where they do not is reported as
// damaged.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "app/requests.h"
#include "app/results.h"
#include "core/error.h"
#include "core/game.h"
#include "core/parallel.h"
#include "core/progress.h"
#include "db/database.h"
#include "retro/build.h"

namespace gs::app {

namespace detail {

// The outcomes and longest results of the positions in [begin, end) of a tier.
template <Game G>
requires UnranksInOrder<G>
void count_sector_part(const G& game, const db::TierReader& reader, Tier tier, Index begin, Index end,
                       TierStats& into) {
  typename G::Position pos{};
  bool have = false;  // pos is the position of the index before
  for (Index i = begin; i < end; ++i) {
    bool is_position = false;
    if (have) {
      is_position = game.unrank_next(tier, i, pos);
    } else if (const auto first = game.unrank(tier, i)) {
      pos = *first;
      is_position = true;
    }
    have = is_position;
    if (!is_position) continue;
    const ValueCode code = reader.code(i);
    if (code == kHoleCode || code >= kCodeLimit)
      fail("{}: index {} is a position but holds no value (corrupt file?)", reader.path(), i);
    const Value value = Value::from_code(code);
    ++into.positions;
    if (value.is_win()) {
      ++into.wins;
      into.longest_win = std::max<std::uint64_t>(into.longest_win, value.depth());
    } else if (value.is_loss()) {
      ++into.losses;
      into.longest_loss = std::max<std::uint64_t>(into.longest_loss, value.depth());
    } else {
      ++into.draws;
    }
  }
}

}  // namespace detail

template <Game G>
requires HasSectors<G> && UnranksInOrder<G> StatsSummary sector_stats(const G& game,
                                                                      const CommonOptions& options,
                                                                      const TierScope& scope, int threads) {
  db::Database database(db::Location::of(game, options.data), false);
  StatsSummary summary;
  summary.label = {std::string(G::kName), game.variant(), game.rule_text()};
  summary.by_sector = true;
  summary.headers_only = false;
  summary.total.tier = "total";
  summary.total.built = true;
  for (const Tier tier : retro::tiers_in_order(game, scope)) {
    const db::TierReader* reader = database.find(game, tier);
    if (reader == nullptr) {
      TierStats row;
      row.tier = row.of_tier = game.tier_name(tier);
      row.pieces = game.tier_pieces(tier);
      ++summary.missing;
      summary.total.built = false;
      summary.tiers.push_back(row);
      continue;
    }
    const db::TierHeader& header = reader->header();
    TierStats whole;  // the tier's sectors together, against its header
    for (const SectorRange& range : game.sectors(tier)) {
      TierStats row;
      row.tier = game.sector_name(range.code);
      row.of_tier = header.tier_name;
      row.pieces = game.tier_pieces(tier);
      row.built = true;
      row.indices = range.end - range.begin;
      std::vector<TierStats> parts(static_cast<std::size_t>(std::max(threads, 1)));
      Progress progress("sectors " + row.tier, row.indices, options.quiet);
      parallel_for(range.begin, range.end, threads, 1 << 16, [&](Index begin, Index end, int thread) {
        detail::count_sector_part(game, *reader, tier, begin, end, parts[static_cast<std::size_t>(thread)]);
        progress.add(end - begin);
      });
      for (const TierStats& part : parts) row.add(part);
      if (!header.depths()) row.longest_win = row.longest_loss = 0;  // outcomes only
      whole.add(row);
      summary.tiers.push_back(row);
    }
    if (whole.indices != header.positions || whole.positions != header.positions - header.holes ||
        whole.wins != header.wins || whole.draws != header.draws || whole.losses != header.losses ||
        whole.longest_win != header.longest_win || whole.longest_loss != header.longest_loss)
      fail("{}: its values do not add up to the counts of its header (corrupt file?)", reader->path());
    whole.file_bytes = reader->file_bytes();
    summary.total.file_bytes += whole.file_bytes;
    summary.total.add(whole);
    database.forget(tier);  // its decompressed blocks
  }
  return summary;
}

}  // namespace gs::app
