#pragma once
// What a search is asked (algorithm, question, limits) and what it reports (the answer,
// a principal variation, counts of nodes, leaves and table use).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/progress.h"
#include "core/quote.h"
#include "core/value.h"
#include "search/score.h"

namespace gs::search {

enum class Algorithm : std::uint8_t { kDfPn, kPns, kAlphaBeta };
// kWin: is it a win for the side to move? kDraw: is it at least a draw? kValue: both,
// combined into the value (with its depth, for alpha-beta).
enum class Question : std::uint8_t { kWin, kDraw, kValue };

inline Algorithm parse_algorithm(const std::string& name) {
  if (name == "df-pn" || name == "dfpn") return Algorithm::kDfPn;
  if (name == "pns") return Algorithm::kPns;
  if (name == "alphabeta" || name == "alpha-beta") return Algorithm::kAlphaBeta;
  fail("unknown search algorithm {} (known: df-pn, pns, alphabeta)", quote_input(name));
}
inline std::string algorithm_name(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::kDfPn: return "df-pn";
    case Algorithm::kPns: return "pns";
    case Algorithm::kAlphaBeta: break;
  }
  return "alphabeta";
}
inline Question parse_question(const std::string& name) {
  if (name == "win") return Question::kWin;
  if (name == "draw") return Question::kDraw;
  if (name == "value") return Question::kValue;
  fail("unknown question {} (known: win, draw, value)", quote_input(name));
}
inline std::string question_name(Question question) {
  switch (question) {
    case Question::kWin: return "win";
    case Question::kDraw: return "draw";
    case Question::kValue: break;
  }
  return "value";
}

struct SearchOptions {
  double seconds = 0;                                     // 0: no time limit
  std::uint64_t max_nodes = 0;                            // 0: no node limit
  std::uint64_t memory_bytes = std::uint64_t{256} << 20;  // tables (and PNS's tree)
  double epsilon = 0.25;                                  // df-pn's 1+epsilon threshold trick
  int max_ply = 4000;                                     // the longest line df-pn and PNS follow
  bool quiet = true;                                      // no progress on stderr
  // For the tests only: store results that depend on the line as if they did not, the
  // Graph History Interaction bug that docs/SEARCH.md describes. Gives wrong answers.
  bool unsafe_repetition_storage = false;
};

struct SearchStats {
  std::uint64_t nodes = 0;              // positions searched (moves generated)
  std::uint64_t leaves = 0;             // positions answered without a search below them
  std::uint64_t terminal_leaves = 0;    // by the rules: the game is over, or no move
  std::uint64_t database_leaves = 0;    // by a database
  std::uint64_t table_leaves = 0;       // by a proven result in the table
  std::uint64_t repetition_leaves = 0;  // a repetition of a position on the line: a draw
  std::uint64_t horizon_leaves = 0;     // alpha-beta: left unsearched at the depth limit
  std::uint64_t proven = 0;             // proven results found at nodes searched
  std::uint64_t path_dependent = 0;     // ... of which depended on the line above them
  std::uint64_t table_entries = 0;      // in use at the end
  std::uint64_t table_capacity = 0;
  std::uint64_t table_bytes = 0;
  std::uint64_t collections = 0;  // garbage collections: of df-pn's table, of PNS's tree
  std::uint64_t tree_nodes = 0;   // PNS: nodes of the tree at the end, and at most
  std::uint64_t tree_peak = 0;
  int deepest = 0;  // the longest line reached, in plies from the root
  double seconds = 0;

  [[nodiscard]] double nodes_per_second() const {
    return seconds > 0 ? static_cast<double>(nodes) / seconds : 0;
  }
  [[nodiscard]] double database_fraction() const {
    return leaves > 0 ? static_cast<double>(database_leaves) / static_cast<double>(leaves) : 0;
  }
};

// What is known of the value: the outcome lies between lowest and highest; the value
// with its depth where a search found it exactly.
struct Answer {
  Outcome lowest = Outcome::kLoss;
  Outcome highest = Outcome::kWin;
  std::optional<Value> value;

  [[nodiscard]] bool known() const { return lowest == highest; }
  void at_least(Outcome outcome) { lowest = std::max(lowest, outcome); }
  void at_most(Outcome outcome) { highest = std::min(highest, outcome); }
  // From proven bounds on the score.
  void narrow(const Bounds& bounds) {
    at_least(bounds.lower > 0 ? Outcome::kWin : bounds.lower == 0 ? Outcome::kDraw : Outcome::kLoss);
    at_most(bounds.upper < 0 ? Outcome::kLoss : bounds.upper == 0 ? Outcome::kDraw : Outcome::kWin);
    if (bounds.exact()) value = value_of(bounds.lower);
  }
  [[nodiscard]] std::string text() const {
    if (value) return value->to_string();
    if (known()) return outcome_name(lowest);
    if (lowest == Outcome::kDraw) return "at least a draw";
    if (highest == Outcome::kDraw) return "at most a draw";
    return "unknown";
  }
};

// One binary question and how its search ended.
struct QuestionReport {
  Score threshold = kWinThreshold;  // "is the value at least this?"
  std::optional<bool> answer;       // nullopt: a limit stopped the search
  std::uint64_t proof = 0;          // the root's proof and disproof numbers (PNS, df-pn)
  std::uint64_t disproof = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
  [[nodiscard]] std::string name() const { return threshold == kWinThreshold ? "win" : "draw"; }
};

struct SolveReport {
  std::string algorithm;
  std::string question;
  Answer answer;
  std::vector<std::string> principal_variation;  // move texts from the root
  std::vector<std::string> deepest_line;         // move texts of the longest line reached
  std::vector<QuestionReport> questions;
  SearchStats stats;
  std::string stopped;  // why the search stopped early ("time", "nodes", ...); empty: it finished
};

inline constexpr std::uint32_t kInfinite = 0xFFFFFFFFU;  // a proof or disproof number
inline constexpr std::uint32_t kMaxFinite = kInfinite - 1;
inline constexpr int kIndependent = 0x7FFFFFFF;  // a result that depends on no line

// Time and node limits, and progress on stderr, for one solve. The clock is read every
// 1024 nodes.
class Limits {
 public:
  explicit Limits(const SearchOptions& options, const std::string& label)
      : options_(options), progress_(label, 0, options.quiet) {}

  // Counts a node; true once the search must stop.
  bool count(SearchStats& stats) {
    ++stats.nodes;
    if (options_.max_nodes > 0 && stats.nodes >= options_.max_nodes) halt("node limit");
    if ((stats.nodes & 1023U) == 0) check(stats);
    return !stopped_.empty();
  }
  void halt(const std::string& reason) {
    if (stopped_.empty()) stopped_ = reason;
  }
  [[nodiscard]] bool stopped() const { return !stopped_.empty(); }
  [[nodiscard]] const std::string& reason() const { return stopped_; }
  [[nodiscard]] double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  void stage(const std::string& text) {
    if (!options_.quiet) progress_.set_stage(text);
  }

 private:
  void check(const SearchStats& stats) {
    progress_.add(stats.nodes - reported_);
    reported_ = stats.nodes;
    if (options_.seconds > 0 && elapsed() >= options_.seconds) halt("time limit");
  }

  const SearchOptions& options_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::uint64_t reported_ = 0;
  std::string stopped_;
  Progress progress_;
};

}  // namespace gs::search
