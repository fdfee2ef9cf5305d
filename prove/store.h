#pragma once
// The proof tree's store: one SQLite file per proof (docs/PROVE.md).
//
//   meta(name, value)   the game label, the root position, the current threshold, the
//                       next sequence number, the stuck jobs run and the effort since the
//                       last, the explorer's view (prove/view.h), and per position whose
//                       closure ran out of memory ("closure-full POSITION") the bytes it had
//   nodes(key, ...)     one row per position of the tree that is not over: its key (the
//                       canonical rank's mix, search/key.h), the position's text, whether
//                       it was expanded, its heuristic score, the threshold at which a
//                       back-end prover last failed on it, how many times a failed job
//                       was retried on it, and per binary question
//                       ("win?", "at least a draw?") the answer (-1 unknown, 0 no, 1 yes),
//                       where it came from (rules, database, alphabeta, df-pn, tree,
//                       implied, cycle, closure) and its sequence number (the order answers were found in,
//                       which the checker uses to refuse circular support) and a back
//                       end's proof and disproof numbers (0 and 0: none). A store written
//                       before the retries or the numbers read 0 for them; a writer adds
//                       the columns.
//
// Every change of a pass is written in one transaction (WAL journal, synchronous=FULL):
// a process killed at any moment leaves the store as it was after the last committed
// pass. One writer at a time: a writer holds flock(2) on FILE.lock for its life (the
// kernel releases it however the process ends); a second writer is refused with an
// error naming the holder. Readers (--status, --check) take no lock.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace gs::prove {

// The answer to one binary question: unknown, no or yes.
enum Answer : std::int8_t { kUnknown = -1, kNo = 0, kYes = 1 };

// The two binary questions of the front end, for the side to move: "is it a win?"
// (value >= win) and "is it at least a draw?" (value >= draw).
enum Question : std::uint8_t { kWin = 0, kDraw = 1 };

// A child's question below a node's: after a move, "win?" for the mover becomes "at
// least a draw?" for the side to move, and the other way round.
inline Question other(Question q) { return q == kWin ? kDraw : kWin; }

struct StoredNode {
  std::uint64_t key = 0;
  std::string position;
  bool expanded = false;
  bool scored = false;
  std::int32_t score = 0;    // heuristic, for the side to move
  std::int32_t tried = 0;    // the highest threshold at which a back end failed (0: none)
  std::int32_t retries = 0;  // inside the threshold: jobs retried after its first failed
  // A leaf's proof and disproof numbers per question, from a back end's df-pn that ended
  // with the question open there (or at its parent's, for a child): 0 and 0, none.
  std::uint32_t proof[2] = {0, 0};
  std::uint32_t disproof[2] = {0, 0};
  Answer answer[2] = {kUnknown, kUnknown};
  std::string source[2];
  std::int64_t seq[2] = {0, 0};
};

class Store {
 public:
  // Opens (creating where `write` and it is missing) the store at `path`. A writer takes
  // the lock first and throws gs::Error naming the holder if another process has it.
  // `durable` false (for tests) does not wait for the disk at commits.
  Store(const std::filesystem::path& path, bool write, bool durable = true);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  [[nodiscard]] std::optional<std::string> meta(const std::string& name) const;
  [[nodiscard]] std::vector<StoredNode> nodes() const;
  [[nodiscard]] std::uint64_t node_count() const;

  // Writes nodes (inserted or replaced whole) and meta values in one transaction.
  void commit(const std::vector<StoredNode>& nodes, const std::map<std::string, std::string>& meta);

  // Moves the write-ahead log's pages into the store file and empties the log, so that
  // the file alone holds the store and its size is the store's (a log of up to SQLite's
  // 1,000-page auto-checkpoint otherwise sits beside it). A writer's only.
  void checkpoint();

  // For the tests of the checker: runs one statement.
  void execute(const std::string& sql);

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
  std::string added_;  // the columns added since the first stores, or "0" for each where absent
  int lock_fd_ = -1;
};

// The rows that the stores of this process have read so far (every row a query of theirs
// stepped to): a hook for tests that a reader reads a bounded number of rows.
std::uint64_t rows_read();

// Whether the store at `path` exists.
bool store_exists(const std::filesystem::path& path);

}  // namespace gs::prove
