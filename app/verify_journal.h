#pragma once
// verify --journal FILE: the tiers a long verify has found consistent, so that a run cut
// short can go on where it stopped. A line per tier names it and the values checksum of
// its file and of each child's file (db/tier_file.h); a tier is passed over only where
// its line is in the journal as it would be written now, so a tier or a child rebuilt
// since is verified again. Lines are appended and flushed as tiers are verified; a line
// cut short by a killed run matches nothing, and the next one starts on a line of its own.
#include <filesystem>
#include <set>
#include <string>

namespace gs::app {

class VerifyJournal {
 public:
  // Reads the journal at path where there is one (an empty path: no journal, nothing
  // recorded). Throws gs::Error where it exists but cannot be read.
  explicit VerifyJournal(std::filesystem::path path);

  [[nodiscard]] bool active() const { return !path_.empty(); }
  [[nodiscard]] bool has(const std::string& line) const { return lines_.contains(line); }
  // Appends a line and flushes it; throws gs::Error where it cannot be written.
  void add(const std::string& line);

 private:
  std::filesystem::path path_;
  std::set<std::string> lines_;
  bool cut_short_ = false;  // the file ends inside a line: the next line starts a new one
};

}  // namespace gs::app
