#include "db/directory_lock.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include "core/error.h"
#include "core/host.h"

namespace gs::db {

namespace {

// The first line of what fd holds (a holder's description), or "".
std::string read_holder(int fd) {
  std::array<char, 512> text{};
  const ssize_t size = ::pread(fd, text.data(), text.size() - 1, 0);
  if (size <= 0) return "";
  std::string line(text.data(), static_cast<std::size_t>(size));
  line = line.substr(0, line.find('\n'));
  return line;
}

}  // namespace

DirectoryLock::DirectoryLock(const std::filesystem::path& directory, const std::string& command)
    : path_(directory / kLockFileName) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) fail("{}: cannot create the database directory: {}", directory.string(), error.message());
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("{}: cannot open the lock file: {}", path_.string(), std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int saved = errno;
    const std::string holder = saved == EWOULDBLOCK ? read_holder(fd_) : "";
    ::close(fd_);
    fd_ = -1;
    if (saved == EWOULDBLOCK) {
      fail(
          "the database directory {} is in use by another gamesolver ({}): one process at a time may "
          "write there; wait for it to end, or stop it (lock file {})",
          directory.string(), holder.empty() ? "its pid is not known yet" : holder, path_.string());
    }
    fail("{}: cannot lock the database directory: {}", path_.string(), std::strerror(saved));
  }
  // Who holds the lock, for the error of a second writer. Best effort: a full disk must
  // not stop a build that writes nothing here.
  const std::string text = fmt::format("pid {} on {}: {}\n", ::getpid(), host_name("?"), command);
  if (::ftruncate(fd_, 0) == 0) {
    [[maybe_unused]] const ssize_t written = ::pwrite(fd_, text.data(), text.size(), 0);
  }
}

DirectoryLock::~DirectoryLock() {
  if (fd_ < 0) return;
  [[maybe_unused]] const int emptied = ::ftruncate(fd_, 0);
  ::close(fd_);  // releases the lock
}

std::string DirectoryLock::holder(const std::filesystem::path& directory) {
  const std::filesystem::path path = directory / kLockFileName;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string text = read_holder(fd);
  ::close(fd);
  return text;
}

}  // namespace gs::db
