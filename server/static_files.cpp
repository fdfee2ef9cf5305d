#include "server/static_files.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <system_error>

#include "core/error.h"

namespace gs::server {

namespace fs = std::filesystem;

namespace {

StaticFile refuse(int status, std::string message) { return {status, std::move(message), ""}; }

// Whether `inner` is `outer` or lies under it (both canonical).
bool inside(const fs::path& outer, const fs::path& inner) {
  auto [end_outer, end_inner] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
  return end_outer == outer.end();
}

}  // namespace

StaticFiles::StaticFiles(const fs::path& root) {
  std::error_code error;
  root_ = fs::canonical(root, error);
  if (error || !fs::is_directory(root_, error)) fail("web folder {} is not a directory", root.string());
}

std::string StaticFiles::content_type(const fs::path& file) {
  static const std::map<std::string, std::string> types = {{".html", "text/html; charset=utf-8"},
                                                           {".js", "text/javascript; charset=utf-8"},
                                                           {".mjs", "text/javascript; charset=utf-8"},
                                                           {".css", "text/css; charset=utf-8"},
                                                           {".svg", "image/svg+xml"},
                                                           {".png", "image/png"},
                                                           {".ico", "image/x-icon"},
                                                           {".json", "application/json"},
                                                           {".txt", "text/plain; charset=utf-8"}};
  const auto it = types.find(file.extension().string());
  return it != types.end() ? it->second : "application/octet-stream";
}

StaticFile StaticFiles::get(std::string_view path) const {
  if (path.empty() || path.front() != '/' || path.size() > 1024) return refuse(400, "malformed path");
  std::string relative(path.substr(1));
  if (relative.empty() || relative.back() == '/') relative += "index.html";
  // Every segment must be a plain name.
  std::size_t start = 0;
  while (start <= relative.size()) {
    std::size_t end = relative.find('/', start);
    if (end == std::string::npos) end = relative.size();
    const std::string_view segment = std::string_view(relative).substr(start, end - start);
    if (segment.empty() || segment.front() == '.' || segment.find('\\') != std::string_view::npos ||
        segment.find('\0') != std::string_view::npos) {
      return refuse(400, "malformed path: only plain names under the web folder are served");
    }
    start = end + 1;
  }
  std::error_code error;
  const fs::path file = fs::canonical(root_ / relative, error);
  if (error || !inside(root_, file) || !fs::is_regular_file(file, error)) return refuse(404, "not found");
  const auto size = fs::file_size(file, error);
  if (error || size > kMaxStaticFileBytes) return refuse(404, "not found");
  std::ifstream in(file, std::ios::binary);
  if (!in) return refuse(404, "not found");
  return {200, std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()),
          content_type(file)};
}

}  // namespace gs::server
