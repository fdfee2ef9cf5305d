#include "app/verify_journal.h"

#include <fstream>
#include <system_error>
#include <utility>

#include "core/error.h"

namespace gs::app {

VerifyJournal::VerifyJournal(std::filesystem::path path) : path_(std::move(path)) {
  if (path_.empty()) return;
  std::error_code error;
  if (!std::filesystem::exists(path_, error)) return;
  std::ifstream in(path_);
  if (!in) fail("cannot read the verify journal {}", path_.string());
  std::string line;
  while (std::getline(in, line)) {
    lines_.insert(line);
    cut_short_ = in.eof();  // the last line had no newline
  }
  if (in.bad()) fail("cannot read the verify journal {}", path_.string());
}

void VerifyJournal::add(const std::string& line) {
  if (path_.empty()) return;
  std::ofstream out(path_, std::ios::app);
  if (cut_short_) out << '\n';
  out << line << '\n';
  out.flush();
  if (!out) fail("cannot write the verify journal {} (a full disk?)", path_.string());
  cut_short_ = false;
  lines_.insert(line);
}

}  // namespace gs::app
