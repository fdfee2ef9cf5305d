#include "db/epoch.h"

#include <algorithm>

namespace gs::db::epoch {

namespace {

std::atomic<Record*> records{nullptr};  // never shrinks: records are reused, not freed
std::atomic<unsigned> record_count{0};

// Gives the thread's record back when the thread exits.
struct Release {
  bool armed = false;
  Release() = default;
  Release(const Release&) = delete;
  Release& operator=(const Release&) = delete;
  ~Release() {
    if (current == nullptr) return;
    current->in_use.store(false, std::memory_order_release);
    current = nullptr;
  }
};

}  // namespace

Record& acquire_record() {
  thread_local Release release;
  release.armed = true;
  for (Record* record = records.load(std::memory_order_acquire); record != nullptr; record = record->next) {
    bool free = false;
    if (!record->in_use.load(std::memory_order_relaxed) &&
        record->in_use.compare_exchange_strong(free, true, std::memory_order_acquire)) {
      current = record;
      return *record;
    }
  }
  auto* record = new Record;
  record->id = record_count.fetch_add(1, std::memory_order_relaxed);
  record->in_use.store(true, std::memory_order_relaxed);
  Record* head = records.load(std::memory_order_relaxed);
  do {
    record->next = head;
  } while (
      !records.compare_exchange_weak(head, record, std::memory_order_release, std::memory_order_relaxed));
  current = record;
  return *record;
}

std::uint64_t advance() { return detail::global.value.fetch_add(1, std::memory_order_seq_cst); }

std::uint64_t oldest_pinned() {
  std::uint64_t oldest = kIdle;
  for (Record* record = records.load(std::memory_order_acquire); record != nullptr; record = record->next) {
    oldest = std::min(oldest, record->announced.load(std::memory_order_seq_cst));
  }
  return oldest;
}

}  // namespace gs::db::epoch
