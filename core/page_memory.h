#pragma once
// Memory for large arrays read or written at random places: a tier's cells while it is
// solved, a child tier's decompressed values. Where the kernel offers transparent huge
// pages on request (Linux's "madvise" mode), such arrays ask for 2 MiB pages, so that a
// random access misses the TLB far less often.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gs {

// Asks for huge pages for the whole 2 MiB pages inside [data, data + bytes). Pages
// already touched keep their size until the kernel collapses them, so call it before
// the memory is first written. Does nothing where the kernel cannot.
void advise_huge_pages(void* data, std::size_t bytes);

// Makes `cells` `size` copies of `value` in fresh memory advised as above.
template <typename T>
void assign_on_huge_pages(std::vector<T>& cells, std::size_t size, const T& value) {
  std::vector<T>().swap(cells);
  cells.reserve(size);
  advise_huge_pages(cells.data(), size * sizeof(T));
  cells.assign(size, value);
}

// A zero-filled anonymous mapping of `bytes` (untouched pages take no memory), advised
// as above. Throws gs::Error if the mapping fails.
class PageMemory {
 public:
  PageMemory() = default;
  explicit PageMemory(std::size_t bytes);
  ~PageMemory();
  PageMemory(PageMemory&& other) noexcept;
  PageMemory& operator=(PageMemory&& other) noexcept;
  PageMemory(const PageMemory&) = delete;
  PageMemory& operator=(const PageMemory&) = delete;

  [[nodiscard]] std::uint8_t* data() const { return data_; }
  [[nodiscard]] std::size_t size() const { return size_; }

 private:
  void release();

  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace gs
