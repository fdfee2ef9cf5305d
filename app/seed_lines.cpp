#include "app/seed_lines.h"

#include <fstream>
#include <sstream>
#include <system_error>

#include "core/bytes.h"
#include "core/error.h"

namespace gs::app {

std::vector<std::vector<std::string>> read_seed_lines(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    fail("cannot read the seed file {}: {}", path.string(), error ? error.message() : "not a file");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) fail("cannot read the seed file {}: {}", path.string(), error.message());
  if (size > kSeedFileLimit)
    fail("the seed file {} holds {}, over the {} a seed file may hold", path.string(), bytes_text(size),
         bytes_text(kSeedFileLimit));
  std::ifstream in(path);
  if (!in) fail("cannot read the seed file {}", path.string());
  std::vector<std::vector<std::string>> lines;
  std::string text;
  while (std::getline(in, text)) {
    std::istringstream words(text);
    std::vector<std::string> moves;
    for (std::string move; words >> move;) moves.push_back(move);
    if (moves.empty() || moves.front().starts_with('#')) continue;
    lines.push_back(std::move(moves));
  }
  if (in.bad()) fail("cannot read the seed file {}", path.string());
  return lines;
}

}  // namespace gs::app
