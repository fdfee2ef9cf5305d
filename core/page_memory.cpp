#include "core/page_memory.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/error.h"

namespace gs {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
}  // namespace

void advise_huge_pages(void* data, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::size_t skip = (kHugePage - begin % kHugePage) % kHugePage;  // to the first whole page
  if (bytes <= skip) return;
  const std::size_t length = (bytes - skip) & ~(kHugePage - 1);
  // A refusal (no transparent huge pages here) costs nothing but the speed asked for.
  if (length > 0) (void)madvise(static_cast<std::uint8_t*>(data) + skip, length, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

PageMemory::PageMemory(std::size_t bytes) : size_(bytes) {
  if (bytes == 0) return;
  void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) fail("cannot map {} bytes of memory: {}", bytes, std::strerror(errno));
  data_ = static_cast<std::uint8_t*>(mapped);
  advise_huge_pages(data_, bytes);
}

PageMemory::~PageMemory() { release(); }

PageMemory::PageMemory(PageMemory&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

PageMemory& PageMemory::operator=(PageMemory&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void PageMemory::release() {
  if (data_ != nullptr) munmap(data_, size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace gs
