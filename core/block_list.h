#pragma once
// Append-only lists of 32-bit keys held in blocks of one size that come from, and go back
// to, a pool. Appending never moves what is listed (a vector's growth copies it all, into
// fresh memory the kernel faults in page by page), and a block a list gives back is
// reused by the next list that grows. The retrograde solver lists the cells decided at
// each depth in them (retro/tier_solver.h).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace gs {

class BlockPool {
 public:
  explicit BlockPool(std::size_t block_keys = 0) : block_keys_(block_keys) {}
  [[nodiscard]] std::size_t block_keys() const { return block_keys_; }
  std::unique_ptr<std::uint32_t[]> take() {
    if (free_.empty()) return std::make_unique_for_overwrite<std::uint32_t[]>(block_keys_);
    std::unique_ptr<std::uint32_t[]> block = std::move(free_.back());
    free_.pop_back();
    return block;
  }
  void give(std::unique_ptr<std::uint32_t[]> block) { free_.push_back(std::move(block)); }

 private:
  std::size_t block_keys_;
  std::vector<std::unique_ptr<std::uint32_t[]>> free_;
};

class BlockList {
 public:
  // Appends a key, taking a block from `pool` (always the same pool) when the last is full.
  void push_back(std::uint32_t key, BlockPool& pool) {
    if (used_ == capacity_) grow(pool);
    tail_[used_++] = key;
  }
  [[nodiscard]] std::size_t size() const {
    return blocks_.empty() ? 0 : (blocks_.size() - 1) * capacity_ + used_;
  }
  [[nodiscard]] bool empty() const { return size() == 0; }
  // Calls visit(keys, count) for each block in order.
  template <class Visit>
  void for_each_block(Visit&& visit) const {
    for (std::size_t b = 0; b < blocks_.size(); ++b)
      visit(static_cast<const std::uint32_t*>(blocks_[b].get()), b + 1 < blocks_.size() ? capacity_ : used_);
  }
  // Gives every block back to `pool`, leaving the list empty.
  void release(BlockPool& pool) {
    for (auto& block : blocks_) pool.give(std::move(block));
    blocks_.clear();
    tail_ = nullptr;
    used_ = 0;
    capacity_ = 0;
  }

 private:
  void grow(BlockPool& pool) {
    blocks_.push_back(pool.take());
    tail_ = blocks_.back().get();
    used_ = 0;
    capacity_ = pool.block_keys();
  }

  std::vector<std::unique_ptr<std::uint32_t[]>> blocks_;
  std::uint32_t* tail_ = nullptr;
  std::size_t used_ = 0;      // keys in the last block
  std::size_t capacity_ = 0;  // keys a block holds (0 before the first)
};

}  // namespace gs
