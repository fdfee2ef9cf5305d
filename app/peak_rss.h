#pragma once
// The peak resident memory of this process, reported by build (the memory budget's
// check against reality).
#include <cstdint>

namespace gs::app {

// Peak resident memory of this process so far, in bytes.
std::uint64_t peak_rss_bytes();

}  // namespace gs::app
