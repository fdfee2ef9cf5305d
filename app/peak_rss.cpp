#include "app/peak_rss.h"

#include <sys/resource.h>

namespace gs::app {

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

}  // namespace gs::app
