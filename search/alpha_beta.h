#pragma once
// Alpha-beta (negamax) that proves values: every bound it returns as proven, or stores,
// is a proven bound on the game-theoretic value, never a heuristic one.
//
// The search is a sequence of null-window tests "is value(root) >= t?" (search/score.h),
// each a depth-limited alpha-beta search with the window (t - 1, t): a node passes (its
// value is at least t) when some child fails its test, and fails when every child
// passes. Passing returns a lower bound, failing an upper bound (fail soft).
//
// The depth limit: a position left unsearched there (a horizon leaf) is given the best
// value for one player, the optimist, chosen per test. Values are monotone in the
// leaves, so a result that goes against the optimist holds whatever the horizon leaves
// are worth: "the optimist's side does not reach t" at its own nodes, "the other side
// does" at the others'. Such results are proven even when horizon leaves were searched
// (by induction: a node of the optimist fails only when every child passes, and no
// horizon child passes for it), and so is every result that met no horizon leaf. Each
// test runs twice, the root's opponent the optimist (to prove a pass) and then the root
// player (to prove a fail), so that every leaf is decided and alpha-beta prunes as in a
// heuristic search, instead of searching every child of every open node.
//
//   - Iterative deepening: the tests are repeated one ply deeper until they are decided.
//     "Is it a win?" (t = kWinThreshold) and "is it at least a draw?" (kDrawThreshold)
//     decide the outcome.
//   - Depth-corrected scores: a win in d scores kMate - d, so tests at win thresholds
//     find the shortest win; with the outcome known, tests at the next depth (the win
//     one ply shorter, the loss one ply longer) make the depth exact. A test "win in at
//     most d?" is decided at depth d without a horizon: a position that is not over cannot
//     be won in zero plies (mate-distance pruning).
//   - The table (search/bound_table.h) keeps proven bounds only; later tests, at other
//     thresholds and depths, read them.
//   - Move ordering: before searching any child, every child is looked up (the rules,
//     the table, the databases, repetition); one that already decides the node ends it
//     (enhanced transposition cutoff), and ones already decided need no search. The rest
//     go in order: the table's best child, captures, then the game's evaluation
//     (core/game.h).
//   - Tests without a depth limit: a draw is proven only when every line of the attacker
//     ends in a repetition, a database or the table, and the attacker can walk far
//     without repeating, so iterative deepening alone reaches the depth a draw needs only
//     with exponential work. Each time the work has doubled (from kFirstUnbounded
//     nodes on), every open question is also tested once with no horizon at all, within
//     as many nodes as were spent so far: all it proves is proven (no horizon leaf), and
//     an unfinished test leaves its proven subresults in the table for the next
//     iteration. The cost is at most about twice the iterative deepening's.
//   - Quiescence: past the depth limit, captures are still searched (up to
//     kQuiescencePlies), where the game says which moves capture; in Jungle they lead
//     into smaller tiers, often into a database.
//   - Repetition is a draw that holds only on the current line: results that relied on
//     one above the node are returned but not stored (docs/SEARCH.md).
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "core/game.h"
#include "db/database.h"
#include "search/bound_table.h"
#include "search/databases.h"
#include "search/key.h"
#include "search/proof_leaves.h"
#include "search/report.h"
#include "search/score.h"

namespace gs::search {

template <Game G>
class AlphaBeta {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;
  static constexpr int kQuiescencePlies = 8;
  static constexpr int kMaxDraft = 4000;
  // The work after which the first test without a depth limit is tried (docs/SEARCH.md).
  static constexpr std::uint64_t kFirstUnbounded = 20000;

  // `table`: one the caller keeps from search to search (the proof-tree manager's
  // workers; it holds proven bounds that depend on no line, true anywhere); nullptr: one
  // of its own.
  AlphaBeta(const G& game, db::Database* database, const SearchOptions& options, SearchStats& stats,
            Limits& limits, BoundTable* table = nullptr)
      : game_(game),
        options_(options),
        stats_(stats),
        limits_(limits),
        own_(table == nullptr ? std::optional<BoundTable>(std::in_place, options.memory_bytes)
                              : std::nullopt),
        table_(table == nullptr ? *own_ : *table),
        databases_(game, database) {}

  // Proven bounds on the value of root: decided for the question where the limits
  // allowed, exact (with the depth) for kValue where the databases give depths.
  Bounds solve(const Position& root, Question question, std::vector<QuestionReport>& reports) {
    if (const auto over = game_.terminal(root)) return Bounds::of(*over);
    path_.clear();
    const std::uint64_t root_key = key(game_, root);
    Bounds bounds = Bounds::not_over();
    if (const auto stored = databases_.probe(game_.rank(root))) bounds = bounds.intersect(*stored);
    std::vector<Score> thresholds;
    if (question != Question::kDraw) thresholds.push_back(kWinThreshold);
    if (question != Question::kWin) thresholds.push_back(kDrawThreshold);
    for (const Score t : thresholds) reports.push_back({t, {}, 0, 0, 0, 0});
    path_.push(root, exact(game_, root));
    auto decided = [&] {
      return std::all_of(thresholds.begin(), thresholds.end(), [&](Score t) { return bounds.decides(t); });
    };
    auto run = [&](std::size_t q, int draft) {
      const std::uint64_t nodes = stats_.nodes;
      const double start = limits_.elapsed();
      decide(bounds, root, root_key, thresholds[q], draft);
      reports[q].nodes += stats_.nodes - nodes;
      reports[q].seconds += limits_.elapsed() - start;
    };
    const std::uint64_t first_node = stats_.nodes;
    std::uint64_t next_unbounded = kFirstUnbounded;
    for (int draft = 1; draft <= kMaxDraft && !decided() && !limits_.stopped(); ++draft) {
      limits_.stage(fmt::format("depth {}", draft));
      for (std::size_t q = 0; q < thresholds.size(); ++q) run(q, draft);
      // Every so often (each time the work has doubled), each open question once without
      // a depth limit, within as many nodes as were spent so far.
      const std::uint64_t spent = stats_.nodes - first_node;
      if (decided() || spent < next_unbounded) continue;
      limits_.stage("without a depth limit");
      for (std::size_t q = 0; q < thresholds.size() && !limits_.stopped(); ++q) {
        if (bounds.decides(thresholds[q])) continue;
        budget_ = stats_.nodes + spent;
        run(q, kMaxDraft);
      }
      budget_ = 0;
      next_unbounded = 2 * (stats_.nodes - first_node);
    }
    for (std::size_t q = 0; q < thresholds.size(); ++q) {
      if (bounds.decides(thresholds[q])) reports[q].answer = bounds.passes(thresholds[q]);
    }
    // The depth: tests one ply shorter (a win) or longer (a loss) than the bound, until
    // the bounds meet. Not where a win/draw/loss database gave the outcome only.
    while (question == Question::kValue && decided() && !bounds.exact() && !limits_.stopped()) {
      const bool win = bounds.lower > 0;
      if ((win && bounds.lower <= kWorstWin) || (!win && bounds.upper >= kBestLoss)) break;
      const Score t = win ? bounds.lower + 1 : bounds.upper;
      const int depth = win ? kMate - t : kMate + t;
      limits_.stage(fmt::format("depth of the {}: {} plies?", win ? "win" : "loss", depth));
      const Bounds before = bounds;
      decide(bounds, root, root_key, t, std::clamp(depth + 1, 1, kMaxDraft));
      if (bounds.lower == before.lower && bounds.upper == before.upper) break;  // stopped
    }
    path_.clear();
    stats_.table_entries = table_.used();
    stats_.table_capacity = table_.capacity();
    stats_.table_bytes = table_.bytes();
    return bounds;
  }

  // The line of the table's best children from the root.
  std::vector<std::string> line(const Position& root, int limit = 400) {
    std::vector<std::string> moves;
    path_.clear();
    Position pos = root;
    for (int ply = 0; ply < limit && !game_.terminal(pos); ++ply) {
      const std::uint64_t hash = exact(game_, pos);
      if (path_.repetition(pos, hash) != Path<G>::kNone) break;
      if (ply > 0 && databases_.probe(game_.rank(pos))) break;
      path_.push(pos, hash);
      const BoundTable::Entry* entry = table_.find(key(game_, pos));
      if (entry == nullptr || entry->best == 0) break;
      MoveList<G> list;
      game_.moves(pos, list);
      const Move* chosen = nullptr;
      for (const Move& move : list) {
        const Position next = game_.play(pos, move);
        if (child_tag(game_.terminal(next) ? 0 : key(game_, next)) == entry->best) {
          chosen = &move;
          break;
        }
      }
      if (chosen == nullptr) break;
      moves.push_back(game_.move_text(pos, *chosen));
      pos = game_.play(pos, *chosen);
    }
    path_.clear();
    return moves;
  }

  [[nodiscard]] const std::vector<Position>& deepest() const { return deepest_; }

 private:
  enum class Verdict : std::uint8_t { kFail, kPass, kUnknown };  // unknown: stopped
  struct Result {
    Verdict verdict = Verdict::kUnknown;
    Score bound = 0;  // a lower bound when passing, an upper bound when failing
    int dependency = kIndependent;
    bool horizon = false;  // relied on a horizon leaf's assumed value
  };
  struct Child {
    Move move;
    Position pos;
    std::uint64_t key = 0;  // 0: the game is over there
    std::uint64_t exact = 0;
    Bounds bounds;
    int dependency = kIndependent;
    int order = 0;
    bool capture = false;
    std::optional<Value> over;  // the game is over there: its value
    Ranked ranked{};            // where it is not
  };
  struct Frame {
    MoveList<G> moves;
    std::vector<Child> children;
    std::vector<std::size_t> order;
  };

  // Runs the test "value(root) >= t?" with each optimist in turn until it is decided,
  // and narrows the root's bounds by what it proved.
  void decide(Bounds& bounds, const Position& root, std::uint64_t root_key, Score t, int draft) {
    for (const int optimist : {1, 0}) {
      if (bounds.decides(t) || limits_.stopped()) return;
      optimist_ = optimist;
      const Result result = test(root, root_key, t, draft);
      if (result.verdict == Verdict::kPass && (optimist == 1 || !result.horizon))
        bounds.lower = std::max(bounds.lower, result.bound);
      if (result.verdict == Verdict::kFail && (optimist == 0 || !result.horizon))
        bounds.upper = std::min(bounds.upper, result.bound);
    }
  }

  // Whether a result at a node of this ply is proven (see the top of the file).
  [[nodiscard]] bool proven(const Result& result, int ply) const {
    if (!result.horizon) return true;
    const bool optimists_node = (ply & 1) == optimist_;
    return result.verdict == (optimists_node ? Verdict::kFail : Verdict::kPass);
  }

  void count_leaf(std::uint64_t& kind) {
    ++kind;
    ++stats_.leaves;
  }

  // "value(pos) >= t?" searched `draft` plies deep; pos is at the end of the path.
  Result test(const Position& pos, std::uint64_t pos_key, Score t, int draft) {
    const int ply = path_.size() - 1;
    if (limits_.count(stats_) || (budget_ != 0 && stats_.nodes >= budget_)) return {};
    if (ply > stats_.deepest) {
      stats_.deepest = ply;
      deepest_ = path_.positions();
    }
    Bounds known = Bounds::not_over();
    std::uint16_t best = 0;
    if (const BoundTable::Entry* entry = table_.find(pos_key)) {
      known = known.intersect(entry->bounds());
      best = entry->best;
    }
    if (known.passes(t)) return {Verdict::kPass, known.lower, kIndependent, false};
    if (known.fails(t)) return {Verdict::kFail, known.upper, kIndependent, false};

    if (frames_.size() <= static_cast<std::size_t>(ply)) frames_.resize(static_cast<std::size_t>(ply) + 1);
    Frame& frame = frames_[static_cast<std::size_t>(ply)];
    game_.moves(pos, frame.moves);
    if (frame.moves.empty()) {
      const Score value = score_of(game_.no_move_value());
      table_.store(pos_key, {value, value}, 0, draft);
      return {value >= t ? Verdict::kPass : Verdict::kFail, value, kIndependent, false};
    }

    // Every child looked up first; one that fails its question decides the node. The
    // children are all ranked, and their table entries prefetched, before any is looked
    // up, so that they wait for their entries together.
    const Score child_t = child_threshold(t);
    std::vector<Child>& children = frame.children;
    children.clear();
    for (const Move& move : frame.moves) {
      Child child;
      child.move = move;
      child.pos = game_.play(pos, move);
      child.bounds = Bounds::not_over();
      if constexpr (HasCaptures<G>) child.capture = game_.is_capture(pos, move);
      child.over = game_.terminal(child.pos);
      if (!child.over) {
        child.ranked = game_.rank(child.pos);
        child.key = key_of(child.ranked);
        table_.prefetch(child.key);
      }
      children.push_back(child);
    }
    for (Child& child : children) {
      look(child, child_t);
      if (child.bounds.fails(child_t)) {
        const Result result{Verdict::kPass, parent_lower(child.bounds), child.dependency, false};
        store(pos_key, result, child_tag(child.key), draft, ply);
        return result;
      }
    }

    // Failing needs every child to pass: the best bound any of them allows.
    Result failing{Verdict::kFail, -kMate - 1, kIndependent, false};
    std::uint16_t failing_best = 0;
    auto passed = [&](const Child& child, Score bound, int dependency, bool horizon) {
      if (bound > failing.bound) {
        failing.bound = bound;
        failing_best = child_tag(child.key);
      }
      failing.dependency = std::min(failing.dependency, dependency);
      failing.horizon = failing.horizon || horizon;
    };
    std::vector<std::size_t>& order = frame.order;
    order.clear();
    for (std::size_t i = 0; i < children.size(); ++i) {
      Child& child = children[i];
      if (child.bounds.passes(child_t)) {
        passed(child, parent_upper(child.bounds), child.dependency, false);
        continue;
      }
      child.order = child_tag(child.key) == best ? -(1 << 30) : child.capture ? -(1 << 29) : 0;
      if constexpr (HasEvaluation<G>) child.order += game_.evaluate(child.pos);
      order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return children[a].order < children[b].order; });

    // A horizon child has the optimist's best value: it passes at the optimist's nodes
    // (children of the other side's) and fails at the others.
    const bool optimists_child = ((ply + 1) & 1) == optimist_;
    for (const std::size_t i : order) {
      const Child& child = children[i];  // deeper plies use their own frames
      Result result;
      if (draft <= 0 && !(child.capture && draft > -kQuiescencePlies)) {
        count_leaf(stats_.horizon_leaves);
        result = {optimists_child ? Verdict::kPass : Verdict::kFail, optimists_child ? -kMate : kMate + 1,
                  kIndependent, true};
      } else {
        path_.push(child.pos, child.exact);
        result = test(child.pos, child.key, child_t, draft - 1);
        path_.pop();
        if (result.verdict == Verdict::kUnknown) return {};
      }
      if (result.verdict == Verdict::kFail) {
        const Result passing{Verdict::kPass, parent_score(result.bound), result.dependency, result.horizon};
        store(pos_key, passing, child_tag(child.key), draft, ply);
        return passing;
      }
      passed(child, parent_score(result.bound), result.dependency, result.horizon);
    }
    store(pos_key, failing, failing_best, draft, ply);
    return failing;
  }

  // What is known of a child without searching it: the rules, the table, the databases,
  // and, where those leave its question open, whether it repeats the line (a draw).
  // The child's `over`, `ranked` and `key` are already made.
  void look(Child& child, Score t) {
    if (child.over) {
      child.bounds = Bounds::of(*child.over);
      count_leaf(stats_.terminal_leaves);
      return;
    }
    const Ranked& ranked = child.ranked;
    child.exact = exact(game_, child.pos);
    if (const BoundTable::Entry* entry = table_.find(child.key)) {
      child.bounds = child.bounds.intersect(entry->bounds());
      if (child.bounds.decides(t)) {
        count_leaf(stats_.table_leaves);
        return;
      }
    }
    if (const auto stored = databases_.probe(ranked)) {
      child.bounds = child.bounds.intersect(*stored);
      if (child.bounds.decides(t)) {
        count_leaf(stats_.database_leaves);
        return;
      }
    }
    if (const int ply = path_.repetition(child.pos, child.exact); ply != Path<G>::kNone) {
      child.bounds = {0, 0};
      child.dependency = ply;
      count_leaf(stats_.repetition_leaves);
    }
  }

  // Stores what a node of the given ply found: its bound where it is proven and does
  // not depend on the line above the node, else the best child only, to try it first.
  void store(std::uint64_t pos_key, const Result& result, std::uint16_t best, int draft, int ply) {
    const int depth = std::max(draft, 0);
    if (!proven(result, ply)) {
      table_.store(pos_key, Bounds::not_over(), best, depth);
      return;
    }
    ++stats_.proven;
    if (result.dependency < ply) {
      ++stats_.path_dependent;
      if (!options_.unsafe_repetition_storage) {
        table_.store(pos_key, Bounds::not_over(), best, depth);
        return;
      }
    }
    const Bounds bounds =
        result.verdict == Verdict::kPass ? Bounds{result.bound, kMate} : Bounds{-kMate, result.bound};
    table_.store(pos_key, bounds, best, depth);
  }

  const G& game_;
  const SearchOptions& options_;
  SearchStats& stats_;
  Limits& limits_;
  std::optional<BoundTable> own_;  // where the caller keeps none
  BoundTable& table_;
  Databases<G> databases_;
  int optimist_ = 1;          // the parity of the plies where the optimist is to move
  std::uint64_t budget_ = 0;  // a test without a depth limit stops at this node count (0: none)
  Path<G> path_;
  std::deque<Frame> frames_;
  std::vector<Position> deepest_;
};

}  // namespace gs::search
