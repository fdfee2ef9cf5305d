#pragma once
// A tier's values for reads at random (the retrograde engine's child tiers, verify's
// successors): the image of the whole tier where its reader gives one
// (TierReader::load_image, every block decompressed at once), read in place without a
// call per value; through code() otherwise.
#include <cstdint>

#include "core/game.h"
#include "db/block_codec.h"
#include "db/tier_file.h"

namespace gs::db {

struct TierValues {
  Tier tier = 0;
  const TierReader* reader = nullptr;
  const std::uint8_t* image = nullptr;
  unsigned bits = 0;

  // Decompresses every block of the reader's tier on `threads` threads.
  static TierValues load(Tier tier, const TierReader& reader, int threads) {
    return {tier, &reader, reader.load_image(threads), reader.header().image_bits};
  }
  [[nodiscard]] ValueCode code(Index index) const {
    return image != nullptr ? image_symbol(image, bits, index) : reader->code(index);
  }
  void prefetch(Index index) const {
    if (image != nullptr) {
      __builtin_prefetch(image + (index * bits >> 3));
    } else {
      reader->prefetch(index);
    }
  }
};

}  // namespace gs::db
