#pragma once
// A vector with a fixed capacity on the stack, for move and unmove lists in the inner
// loops, where a heap allocation per position would dominate.
#include <array>
#include <cassert>
#include <cstddef>

namespace gs {

template <class T, std::size_t Capacity>
class SmallVector {
 public:
  void push_back(const T& item) {
    assert(size_ < Capacity);
    items_[size_++] = item;
  }
  // A new last item, value-initialized, to be filled in place.
  T& emplace_back() {
    assert(size_ < Capacity);
    items_[size_] = T{};
    return items_[size_++];
  }
  void clear() { size_ = 0; }
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return items_[i]; }
  const T& operator[](std::size_t i) const { return items_[i]; }
  T* begin() { return items_.data(); }
  T* end() { return items_.data() + size_; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }
  void resize(std::size_t size) {
    assert(size <= Capacity);
    size_ = size;
  }

 private:
  std::array<T, Capacity> items_{};
  std::size_t size_ = 0;
};

}  // namespace gs
