#pragma once
// The explorer's static files: a request path is answered from the web folder and from
// nothing else. Paths with "..", ".", hidden names, backslashes or NUL bytes are refused
// before they touch the file system, and what they name is resolved (symbolic links
// included) and must still lie inside the folder.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace gs::server {

struct StaticFile {
  int status = 200;  // 400 for a malformed path, 404 for no such file
  std::string body;  // the file, or an error message
  std::string content_type;
};

// Largest file served; the page's files are a few kilobytes.
inline constexpr std::size_t kMaxStaticFileBytes = std::size_t{16} << 20;

class StaticFiles {
 public:
  // Throws gs::Error when root is not a directory.
  explicit StaticFiles(const std::filesystem::path& root);
  [[nodiscard]] const std::filesystem::path& root() const { return root_; }
  // path: the request's decoded path, "/" or "/dir/name.ext".
  [[nodiscard]] StaticFile get(std::string_view path) const;
  [[nodiscard]] static std::string content_type(const std::filesystem::path& file);

 private:
  std::filesystem::path root_;  // canonical
};

}  // namespace gs::server
