#pragma once
// The largest piece count among the tier files of a database directory, listed again
// only when the directory changes. A report of a position without a value says whether
// its tier is missing or beyond the databases (app/position_report.h, explain_missing):
// without this a server would list a directory of thousands of tier files for every
// request of a position past the databases.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>

#include "core/error.h"
#include "core/game.h"
#include "db/tier_file.h"

namespace gs::app {

class TierListing {
 public:
  // The most pieces of a tier whose file is in the directory; -1 if none (or no
  // directory). Thread-safe. A listing is kept while the directory's modification time
  // stays what it was (writing or removing a tier file changes it), and only when that
  // time was at least a second old when listed: a file renamed in within the clock's
  // granularity of the listing is not missed.
  template <Game G>
  int most_pieces(const G& game, const std::filesystem::path& directory) {
    std::error_code error;
    const auto changed = std::filesystem::last_write_time(directory, error);
    if (error) return -1;
    {
      const std::lock_guard lock(mutex_);
      if (valid_ && directory == directory_ && changed == changed_) return most_;
    }
    int most = -1;
    for (std::filesystem::directory_iterator it(directory, error), end; !error && it != end;
         it.increment(error)) {
      const std::filesystem::path& path = it->path();
      if (path.extension().string() != db::kFileSuffix) continue;
      try {
        most = std::max(most, game.tier_pieces(game.parse_tier(path.stem().string())));
      } catch (const Error&) {
        continue;  // not a tier's file
      }
    }
    const bool settled = std::filesystem::file_time_type::clock::now() - changed > std::chrono::seconds(1);
    const std::lock_guard lock(mutex_);
    valid_ = settled && !error;
    directory_ = directory;
    changed_ = changed;
    most_ = most;
    return most;
  }

 private:
  std::mutex mutex_;
  bool valid_ = false;
  std::filesystem::path directory_;
  std::filesystem::file_time_type changed_{};
  int most_ = -1;
};

}  // namespace gs::app
