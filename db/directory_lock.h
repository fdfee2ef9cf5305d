#pragma once
// An advisory lock on a database directory (db/location.h: one game variant's), taken by
// every command that writes there (build, extended, compress; an MPI build's manager rank
// for the whole run), so that two of them never write one directory at once.
//
// The lock is flock(2) on the file gamesolver.lock in the directory: the kernel releases
// it when the holder's process ends, however it ends (a killed build leaves no stale
// lock), and the file itself stays. The holder writes its pid, host and command into the
// file; a second writer is refused at once with an error naming the directory and the
// holder. Readers (probe, verify, stats, serve) take no lock: files are replaced by
// atomic renames, so a reader sees a file whole, old or new.
//
// flock works between processes of one machine, and on NFS (Linux maps it onto NFS
// byte-range locks) between machines; a file system without locks (ENOLCK) is an error.
#include <filesystem>
#include <string>
#include <string_view>

namespace gs::db {

inline constexpr std::string_view kLockFileName = "gamesolver.lock";

class DirectoryLock {
 public:
  // Creates the directory if it is not there, then takes its lock for `command` (written
  // into the lock file). Throws gs::Error naming the directory if another process holds
  // it (with that process's pid, host and command where it wrote them), or if the lock
  // file cannot be made or locked.
  DirectoryLock(const std::filesystem::path& directory, const std::string& command);
  // Releases the lock (and empties the file, so that it names no holder).
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  // What the holder of the lock at `directory` wrote ("pid 1234 on host x: build"), or
  // "" when it is empty or cannot be read.
  static std::string holder(const std::filesystem::path& directory);

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

}  // namespace gs::db
