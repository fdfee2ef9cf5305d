#include "prove/store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <string>

#include "core/error.h"
#include "core/host.h"

namespace gs::prove {

namespace {

std::string lock_path(const std::filesystem::path& path) { return path.string() + ".lock"; }

std::atomic<std::uint64_t> rows{0};  // rows_read()

class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &statement_, nullptr) != SQLITE_OK)
      fail("proof store: {} ({})", sqlite3_errmsg(db), sql);
  }
  ~Statement() { sqlite3_finalize(statement_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int at, std::int64_t value) { sqlite3_bind_int64(statement_, at, value); }
  void bind(int at, const std::string& text) {
    sqlite3_bind_text(statement_, at, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  }
  // True while a row is there.
  bool step() {
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW) {
      rows.fetch_add(1, std::memory_order_relaxed);
      return true;
    }
    if (rc != SQLITE_DONE) fail("proof store: {}", sqlite3_errmsg(db_));
    return false;
  }
  void reset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  [[nodiscard]] std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }
  [[nodiscard]] std::string text(int column) const {
    const auto* chars = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
    return chars == nullptr ? std::string() : std::string(chars);
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
};

void exec(sqlite3* db, const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string text = message == nullptr ? "unknown error" : message;
    sqlite3_free(message);
    fail("proof store: {} ({})", text, sql);
  }
}

// Whether a table has a column (a store written by an older version lacks the newer
// ones): a query naming it compiles. Nothing is read.
bool has_column(sqlite3* db, const char* table, const char* column) {
  const std::string sql = fmt::format("SELECT {} FROM {} LIMIT 0", column, table);
  sqlite3_stmt* statement = nullptr;
  const bool ok = sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK;
  sqlite3_finalize(statement);
  return ok;
}

// The nodes' columns added after the first stores, in the order nodes() reads them.
constexpr const char* kAdded[] = {"retries", "win_proof", "win_disproof", "draw_proof", "draw_disproof"};

Answer answer_of(std::int64_t value) { return value < 0 ? kUnknown : value == 0 ? kNo : kYes; }

}  // namespace

std::uint64_t rows_read() { return rows.load(std::memory_order_relaxed); }

bool store_exists(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

Store::Store(const std::filesystem::path& path, bool write, bool durable) : path_(path) {
  if (write) {
    lock_fd_ = ::open(lock_path(path).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock_fd_ < 0) fail("cannot create the lock file {}: {}", lock_path(path), std::strerror(errno));
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      std::string holder(256, '\0');
      const ssize_t got = ::pread(lock_fd_, holder.data(), holder.size(), 0);
      holder.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
      ::close(lock_fd_);
      lock_fd_ = -1;
      if (error == EWOULDBLOCK) {
        fail("the proof store {} is in use by another run{}", path.string(),
             holder.empty() ? "" : " (" + holder + ")");
      }
      fail("cannot lock {}: {}", lock_path(path), std::strerror(error));
    }
    const std::string holder = fmt::format("pid {} on host {}: prove", ::getpid(), host_name("unknown"));
    if (::ftruncate(lock_fd_, 0) == 0 && ::pwrite(lock_fd_, holder.data(), holder.size(), 0) < 0) {
      // The holder's name is a courtesy; the lock is what counts.
    }
  } else if (!store_exists(path)) {
    fail("no proof store {}", path.string());
  }
  const int flags = write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string message = db_ == nullptr ? "out of memory" : sqlite3_errmsg(db_);
    sqlite3_close(db_);
    db_ = nullptr;
    if (lock_fd_ >= 0) ::close(lock_fd_);
    fail("cannot open the proof store {}: {}", path.string(), message);
  }
  sqlite3_busy_timeout(db_, 10000);
  try {
    if (write) {
      exec(db_, "PRAGMA journal_mode=WAL");
      exec(db_, durable ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=OFF");
      exec(db_,
           "CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);"
           "CREATE TABLE IF NOT EXISTS nodes(key INTEGER PRIMARY KEY, position TEXT NOT NULL,"
           " expanded INTEGER NOT NULL, scored INTEGER NOT NULL, score INTEGER NOT NULL,"
           " tried INTEGER NOT NULL, win INTEGER NOT NULL, draw INTEGER NOT NULL,"
           " win_source TEXT NOT NULL, draw_source TEXT NOT NULL, win_seq INTEGER NOT NULL,"
           " draw_seq INTEGER NOT NULL)");
    }
    // The columns added since (integers, 0 in the rows written before): a writer adds
    // those missing, a reader reads 0 for them.
    for (const char* column : kAdded) {
      const bool present = has_column(db_, "nodes", column);
      if (write && !present)
        exec(db_, fmt::format("ALTER TABLE nodes ADD COLUMN {} INTEGER NOT NULL DEFAULT 0", column));
      added_ += fmt::format(", {}", present || write ? column : "0");
    }
    // A file that is not a store (or a damaged one) fails here with SQLite's reason; one
    // row at most is read (a count would visit every row).
    Statement probe(db_, "SELECT key FROM nodes LIMIT 1");
    (void)probe.step();
  } catch (...) {
    sqlite3_close(db_);
    if (lock_fd_ >= 0) ::close(lock_fd_);
    throw;
  }
}

Store::~Store() {
  sqlite3_close(db_);
  if (lock_fd_ >= 0) {
    if (::ftruncate(lock_fd_, 0) != 0) {
      // Nothing to do: the lock goes with the descriptor.
    }
    ::close(lock_fd_);
  }
}

std::optional<std::string> Store::meta(const std::string& name) const {
  Statement query(db_, "SELECT value FROM meta WHERE name = ?");
  query.bind(1, name);
  if (!query.step()) return std::nullopt;
  return query.text(0);
}

std::uint64_t Store::node_count() const {
  Statement query(db_, "SELECT COUNT(*) FROM nodes");
  return query.step() ? static_cast<std::uint64_t>(query.integer(0)) : 0;
}

std::vector<StoredNode> Store::nodes() const {
  const std::string sql = fmt::format(
      "SELECT key, position, expanded, scored, score, tried, win, draw, win_source, draw_source, win_seq,"
      " draw_seq{} FROM nodes ORDER BY key",
      added_);
  Statement query(db_, sql.c_str());
  std::vector<StoredNode> out;
  while (query.step()) {
    StoredNode node;
    node.key = std::bit_cast<std::uint64_t>(query.integer(0));
    node.position = query.text(1);
    node.expanded = query.integer(2) != 0;
    node.scored = query.integer(3) != 0;
    node.score = static_cast<std::int32_t>(query.integer(4));
    node.tried = static_cast<std::int32_t>(query.integer(5));
    node.answer[kWin] = answer_of(query.integer(6));
    node.answer[kDraw] = answer_of(query.integer(7));
    node.source[kWin] = query.text(8);
    node.source[kDraw] = query.text(9);
    node.seq[kWin] = query.integer(10);
    node.seq[kDraw] = query.integer(11);
    node.retries = static_cast<std::int32_t>(query.integer(12));
    node.proof[kWin] = static_cast<std::uint32_t>(query.integer(13));
    node.disproof[kWin] = static_cast<std::uint32_t>(query.integer(14));
    node.proof[kDraw] = static_cast<std::uint32_t>(query.integer(15));
    node.disproof[kDraw] = static_cast<std::uint32_t>(query.integer(16));
    out.push_back(std::move(node));
  }
  return out;
}

void Store::commit(const std::vector<StoredNode>& nodes, const std::map<std::string, std::string>& meta) {
  exec(db_, "BEGIN IMMEDIATE");
  try {
    Statement put(db_,
                  "INSERT OR REPLACE INTO nodes(key, position, expanded, scored, score, tried, win, draw,"
                  " win_source, draw_source, win_seq, draw_seq, retries, win_proof, win_disproof, draw_proof,"
                  " draw_disproof) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (const StoredNode& node : nodes) {
      put.bind(1, std::bit_cast<std::int64_t>(node.key));
      put.bind(2, node.position);
      put.bind(3, node.expanded ? 1 : 0);
      put.bind(4, node.scored ? 1 : 0);
      put.bind(5, node.score);
      put.bind(6, node.tried);
      put.bind(7, node.answer[kWin]);
      put.bind(8, node.answer[kDraw]);
      put.bind(9, node.source[kWin]);
      put.bind(10, node.source[kDraw]);
      put.bind(11, node.seq[kWin]);
      put.bind(12, node.seq[kDraw]);
      put.bind(13, node.retries);
      put.bind(14, node.proof[kWin]);
      put.bind(15, node.disproof[kWin]);
      put.bind(16, node.proof[kDraw]);
      put.bind(17, node.disproof[kDraw]);
      put.step();
      put.reset();
    }
    Statement set(db_, "INSERT OR REPLACE INTO meta(name, value) VALUES (?, ?)");
    for (const auto& [name, value] : meta) {
      set.bind(1, name);
      set.bind(2, value);
      set.step();
      set.reset();
    }
    exec(db_, "COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void Store::checkpoint() { exec(db_, "PRAGMA wal_checkpoint(TRUNCATE)"); }

void Store::execute(const std::string& sql) { exec(db_, sql); }

}  // namespace gs::prove
