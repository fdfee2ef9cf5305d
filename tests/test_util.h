#pragma once
// Helpers shared by the tests: temporary directories, whole-file reads and writes,
// snapshots of database directories, a thread-safe collector of failures (for checks
// run inside gs::parallel_for, where a gtest assertion per index would flood the log),
// and running the gamesolver binary as a child process.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace gs::test {

namespace fs = std::filesystem;

// A fresh, uniquely named directory under the test temp directory, removed with
// everything in it when the object goes out of scope.
class TempDir {
 public:
  TempDir() {
    fs::path base = ::testing::TempDir();
    if (base.empty() || !fs::is_directory(base)) base = fs::temp_directory_path();
    std::string pattern = (base / "gamesolver-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }
  [[nodiscard]] fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

inline std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("write failed: " + path.string());
}

// Flips every bit of the byte at `offset`.
inline void flip_byte(const fs::path& path, std::size_t offset) {
  std::string bytes = read_file(path);
  if (offset >= bytes.size()) throw std::runtime_error("offset past the end of " + path.string());
  bytes[offset] = static_cast<char>(~static_cast<unsigned char>(bytes[offset]));
  write_file(path, bytes);
}

// Relative path -> contents of every regular file under dir whose name ends in suffix.
inline std::map<std::string, std::string> snapshot(const fs::path& dir, const std::string& suffix = ".gsdb") {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = entry.path().filename().string();
    if (name.size() < suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    files[fs::relative(entry.path(), dir).string()] = read_file(entry.path());
  }
  return files;
}

// Names of the regular files under dir containing `part` in their name.
inline std::vector<std::string> files_named(const fs::path& dir, const std::string& part) {
  std::vector<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().filename().string().find(part) != std::string::npos) {
      names.push_back(fs::relative(entry.path(), dir).string());
    }
  }
  return names;
}

// Compares two snapshots; returns "" when equal, else a description of the first
// differences.
inline std::string compare_snapshots(const std::map<std::string, std::string>& want,
                                     const std::map<std::string, std::string>& got) {
  std::ostringstream out;
  int reported = 0;
  for (const auto& [name, bytes] : want) {
    auto it = got.find(name);
    if (it == got.end()) {
      out << "missing " << name << "\n";
    } else if (it->second != bytes) {
      std::size_t at = 0;
      while (at < bytes.size() && at < it->second.size() && bytes[at] == it->second[at]) ++at;
      out << name << " differs (sizes " << bytes.size() << " and " << it->second.size()
          << ", first difference at byte " << at << ")\n";
    } else {
      continue;
    }
    if (++reported >= 10) break;
  }
  for (const auto& [name, bytes] : got) {
    if (!want.contains(name)) out << "unexpected " << name << "\n";
  }
  return out.str();
}

// Collects failures from many threads; keeps the first few messages.
class Failures {
 public:
  void add(const std::string& message) {
    if (count_.fetch_add(1, std::memory_order_relaxed) < kKept) {
      const std::lock_guard lock(mutex_);
      messages_.push_back(message);
    }
  }
  [[nodiscard]] std::uint64_t count() const { return count_.load(); }
  [[nodiscard]] std::string text() const {
    const std::lock_guard lock(mutex_);
    std::string text = std::to_string(count_.load()) + " failures; the first:\n";
    for (const std::string& message : messages_) text += "  " + message + "\n";
    return text;
  }

 private:
  static constexpr std::uint64_t kKept = 12;
  std::atomic<std::uint64_t> count_{0};
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
};

#define GS_EXPECT_NO_FAILURES(failures) EXPECT_EQ((failures).count(), 0U) << (failures).text()

// A child process running a command with stdout and stderr captured in files.
struct RunResult {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  std::string out;
  std::string err;
};

class Child {
 public:
  Child(const std::vector<std::string>& args, const fs::path& capture_dir) {
    static std::atomic<int> serial{0};
    const int n = serial.fetch_add(1);
    out_path_ = capture_dir / ("child-" + std::to_string(n) + ".out");
    err_path_ = capture_dir / ("child-" + std::to_string(n) + ".err");
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    const std::string out = out_path_.string();
    const std::string err = err_path_.string();
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int in_fd = ::open("/dev/null", O_RDONLY);
      if (out_fd < 0 || err_fd < 0 || in_fd < 0) ::_exit(126);
      ::dup2(in_fd, 0);
      ::dup2(out_fd, 1);
      ::dup2(err_fd, 2);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (pid_ > 0 && !waited_) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
  }

  // Whether the child has exited; collects it if so.
  bool finished() {
    if (waited_) return true;
    const pid_t done = ::waitpid(pid_, &status_, WNOHANG);
    if (done == pid_) waited_ = true;
    return waited_;
  }
  void kill(int signal) { ::kill(pid_, signal); }
  [[nodiscard]] pid_t pid() const { return pid_; }
  RunResult wait() {
    if (!waited_) {
      while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
      }
      waited_ = true;
    }
    RunResult result;
    if (WIFEXITED(status_)) result.exit_code = WEXITSTATUS(status_);
    if (WIFSIGNALED(status_)) result.signal = WTERMSIG(status_);
    result.out = read_file(out_path_);
    result.err = read_file(err_path_);
    return result;
  }

 private:
  pid_t pid_ = -1;
  int status_ = 0;
  bool waited_ = false;
  fs::path out_path_;
  fs::path err_path_;
};

inline RunResult run(const std::vector<std::string>& args, const fs::path& capture_dir) {
  Child child(args, capture_dir);
  return child.wait();
}

}  // namespace gs::test
