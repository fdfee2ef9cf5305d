#pragma once
// Epoch-based reclamation (Fraser, "Practical lock-freedom", 2004, section 5.2.3): lets
// readers follow pointers to shared objects without locks or reference counts, while
// writers unlink objects and free them only once no reader can still hold them.
//
//   reader                                   writer (under its own lock)
//   Pin pin;   announce the global epoch     unlink the object (store null)
//   p = shared.load(seq_cst)                 retired = advance()  (epoch r -> r + 1)
//   ... use *p ...                           later: free it once oldest_pinned() > retired
//   ~Pin       announce nothing
//
// A reader that still sees the object announced an epoch of at most r before it loaded
// the pointer (all of these operations are sequentially consistent), so the writer sees
// that announcement until the reader is done; a reader that announced r + 1 or later
// loaded the pointer after it was unlinked. Each thread announces in its own cache line
// (Record), so a pin writes nothing that other threads read often: the writer scans the
// records only when it frees.
//
// One domain per process. Records are made as threads first pin, kept in a list that
// only grows, and reused after their thread exits; Record::id is dense from 0, so that
// per-thread counters can be indexed by it (BlockCache's hits).
#include <atomic>
#include <cstdint>
#include <limits>

namespace gs::db::epoch {

inline constexpr std::uint64_t kIdle = std::numeric_limits<std::uint64_t>::max();

struct alignas(64) Record {
  std::atomic<std::uint64_t> announced{kIdle};  // the epoch pinned, kIdle when none
  std::atomic<bool> in_use{false};              // owned by a live thread
  Record* next = nullptr;                       // the domain's list, set before publishing
  unsigned id = 0;
};

// The calling thread's record, made or reused on first use and given back at thread exit.
Record& acquire_record();
inline constinit thread_local Record* current = nullptr;
inline Record& this_thread() { return current != nullptr ? *current : acquire_record(); }

// The epoch now; advance() returns it and starts the next (an object unlinked before the
// call is retired at the epoch it returns).
std::uint64_t advance();
// The oldest epoch any thread has pinned now, kIdle when none.
std::uint64_t oldest_pinned();

namespace detail {
// Read at every pin, written at every advance: a line of its own.
struct alignas(64) GlobalEpoch {
  std::atomic<std::uint64_t> value{0};
};
inline constinit GlobalEpoch global;
}  // namespace detail

// Announces the global epoch while it lives. Pins nest: an inner one (the thread's
// record already announces) does nothing.
class Pin {
 public:
  Pin() : record_(this_thread()) {
    if (record_.announced.load(std::memory_order_relaxed) != kIdle) return;
    outer_ = true;
    record_.announced.store(detail::global.value.load(std::memory_order_seq_cst), std::memory_order_seq_cst);
  }
  ~Pin() {
    if (outer_) record_.announced.store(kIdle, std::memory_order_release);
  }
  Pin(const Pin&) = delete;
  Pin& operator=(const Pin&) = delete;

  [[nodiscard]] unsigned thread_id() const { return record_.id; }

 private:
  Record& record_;
  bool outer_ = false;
};

}  // namespace gs::db::epoch
