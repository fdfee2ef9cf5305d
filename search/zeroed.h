#pragma once
// Zero-filled arrays for the search's tables, in an anonymous mapping (core/page_memory.h):
// the kernel hands out zero pages as they are first touched, so a table of a GiB costs
// nothing until it fills, where value-initializing it would write every byte before the
// search starts. T must be an implicit-lifetime type (an aggregate) whose all-zero bytes
// mean "empty".
//
// The tables are read and written at random. The mapping asks for huge pages, so that a
// probe misses the TLB far less often, and starts on a page, so that a bucket of entries
// spans no more cache lines than it must (from calloc, 16 bytes past a page, a 128-byte
// bucket spanned three). df-pn spent most of its time waiting on its first probe of a
// GiB table.
#include <cstddef>

#include "core/page_memory.h"

namespace gs::search {

template <class T>
class Zeroed {
 public:
  Zeroed() = default;
  explicit Zeroed(std::size_t count) : memory_(count * sizeof(T)) {}

  T& operator[](std::size_t i) const { return static_cast<T*>(static_cast<void*>(memory_.data()))[i]; }

 private:
  PageMemory memory_;
};

template <class T>
Zeroed<T> zeroed(std::size_t count) {
  return Zeroed<T>(count);
}

}  // namespace gs::search
