#pragma once
// Zero-filled arrays for the search's tables, from calloc: the kernel hands out zero pages
// as they are first touched, so a table of a GiB costs nothing until it fills, where
// value-initializing it would write every byte before the search starts. T must be an
// implicit-lifetime type (an aggregate) whose all-zero bytes mean "empty".
#include <cstdlib>
#include <memory>
#include <new>

namespace gs::search {

struct FreeDeleter {
  void operator()(void* pointer) const { std::free(pointer); }
};

template <class T>
using Zeroed = std::unique_ptr<T[], FreeDeleter>;

template <class T>
Zeroed<T> zeroed(std::size_t count) {
  void* memory = std::calloc(count, sizeof(T));
  if (memory == nullptr) throw std::bad_alloc();
  return Zeroed<T>(static_cast<T*>(memory));
}

}  // namespace gs::search
