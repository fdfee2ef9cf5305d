#pragma once
// Depth-first proof-number search (Nagai 2002): proof-number search that keeps no tree,
// only a transposition table (search/proof_table.h), and goes depth-first below a node
// for as long as the node's proof and disproof numbers stay under thresholds.
//
// Numbers are in negamax form: for the side to move at a node, `proof` is the number of
// leaves still to prove its question and `disproof` the number to refute it
// (search/proof_numbers.h computes a node's from its children's, as PNS does).
//
// MID(n, proof threshold, disproof threshold) searches the child c1 of least disproof
// with the thresholds
//
//   proof:    disproof threshold(n) - disproof(n) + proof(c1)
//   disproof: min(proof threshold(n), max(d2 + 1, d2 * (1 + epsilon)))
//
// where d2 is the second least disproof among the children. The second is the 1+epsilon
// trick (Pawlewicz and Lew 2007): staying below the runner-up by a factor rather than by
// one, the search switches between siblings far less often.
//
// Repetition: a child that repeats a position of the line is a draw that holds only on
// this line; a node solved through it records the earliest such ply (`dependency`), and
// a solved result whose dependency lies above the node is stored for its line only
// (search/proof_leaves.h, docs/SEARCH.md).
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/game.h"
#include "db/database.h"
#include "search/key.h"
#include "search/proof_leaves.h"
#include "search/proof_numbers.h"
#include "search/proof_table.h"
#include "search/report.h"
#include "search/score.h"

namespace gs::search {

template <Game G>
class DfPn {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;

  // `table`: one the caller keeps from search to search (the proof-tree manager's
  // workers), so that what one search proved the next finds; nullptr: one of its own. A
  // kept table holds results that depend on no line, and results kept for the line from
  // the root they were found on (a line that another root cannot have), so every search
  // stays correct.
  DfPn(const G& game, db::Database* database, const SearchOptions& options, SearchStats& stats,
       Limits& limits, ProofTable* table = nullptr)
      : game_(game),
        options_(options),
        stats_(stats),
        limits_(limits),
        own_(table == nullptr ? std::optional<ProofTable>(std::in_place, options.memory_bytes)
                              : std::nullopt),
        table_(table == nullptr ? *own_ : *table),
        leaves_(game, database, table_, stats) {}

  // Answers "value(root) >= t?" for a binary threshold t.
  QuestionReport prove(const Position& root, Score t) {
    QuestionReport report;
    report.threshold = t;
    const std::uint64_t nodes = stats_.nodes;
    const double start = limits_.elapsed();
    path_.clear();
    Look look = leaves_.look(root, t, path_);
    if (!look.solved()) {
      path_.push(root, look.exact);
      mid(look, t, kInfinite, kInfinite);
      path_.pop();
    }
    report.proof = look.proof;
    report.disproof = look.disproof;
    if (look.proof == 0) report.answer = true;
    if (look.disproof == 0) report.answer = false;
    report.nodes = stats_.nodes - nodes;
    report.seconds = limits_.elapsed() - start;
    stats_.table_entries = table_.used();
    stats_.table_capacity = table_.capacity();
    stats_.table_bytes = table_.bytes();
    stats_.collections = table_.collections();
    return report;
  }

  // A principal variation from the table: at a proven node a child that refutes its own
  // question (the stored best where it qualifies), at a refuted node the stored best (the
  // child that took the most work), at an open node the most-proving child; never a
  // move that repeats the line (a result read from the table may be reached by one:
  // docs/SEARCH.md). Stops at the end of the game, a database or a repetition.
  std::vector<std::string> line(const Position& root, Score t, int limit = 400) {
    const SearchStats counted = stats_;  // looking children up here is not search
    std::vector<std::string> moves;
    path_.clear();
    Position pos = root;
    for (int ply = 0; ply < limit && !game_.terminal(pos); ++ply) {
      if (ply > 0 && leaves_.databases().probe(game_.rank(pos))) break;
      path_.push(pos, exact(game_, pos));
      const std::uint64_t question = ProofTable::question_key(key(game_, pos), t);
      const ProofTable::Entry* entry = table_.find(question, path_.line());
      if (entry == nullptr) entry = table_.find(question, 0);
      if (entry == nullptr) break;
      MoveList<G> list;
      game_.moves(pos, list);
      const Score child_t = child_threshold(t);
      std::optional<Child> chosen;
      for (const Move& move : list) {
        Child child{move, game_.play(pos, move), {}};
        if (!game_.terminal(child.pos) &&
            path_.repetition(child.pos, exact(game_, child.pos)) != Path<G>::kNone)
          continue;
        child.look = leaves_.look(child.pos, child_t, path_);
        if (entry->proof == 0 && child.look.disproof != 0) continue;
        const bool stored = child_tag(child.look.key) == entry->best;
        if (!chosen || stored ||
            (entry->proof != 0 && child.look.disproof < chosen->look.disproof &&
             child_tag(chosen->look.key) != entry->best)) {
          chosen = child;
          if (stored) break;
        }
      }
      if (!chosen) break;
      moves.push_back(game_.move_text(pos, chosen->move));
      pos = chosen->pos;
      t = child_t;
    }
    path_.clear();
    stats_ = counted;
    return moves;
  }

  // What the table says of each child of `root` (in the order of the game's moves), for
  // the child's question below "value(root) >= t": its proof and disproof numbers, as
  // the next search from the root would start with them. The proof-tree manager starts
  // the leaves of a node it expands with these (PN2's second-level numbers). Looking
  // children up is not search: the statistics are left as they were.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> child_numbers(const Position& root, Score t) {
    const SearchStats counted = stats_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> numbers;
    path_.clear();
    path_.push(root, exact(game_, root));
    MoveList<G> list;
    game_.moves(root, list);
    const Score child_t = child_threshold(t);
    for (const Move& move : list) {
      const Look look = leaves_.look(game_.play(root, move), child_t, path_);
      numbers.emplace_back(look.proof, look.disproof);
    }
    path_.clear();
    stats_ = counted;
    return numbers;
  }

  [[nodiscard]] const std::vector<Position>& deepest() const { return deepest_; }

 private:
  struct Child {
    Move move;
    Position pos;
    Look look;
  };
  struct Frame {
    MoveList<G> moves;
    std::vector<Child> children;
    std::vector<typename ProofLeaves<G>::Prepared> prepared;
  };

  // Searches the node at the end of the path, whose numbers are in `node`, until its
  // numbers reach a threshold or it is solved; leaves its numbers in `node` and the table.
  void mid(Look& node, Score t, std::uint32_t proof_threshold, std::uint32_t disproof_threshold) {
    const int ply = path_.size() - 1;
    if (ply > stats_.deepest) {
      stats_.deepest = ply;
      deepest_ = path_.positions();
    }
    if (limits_.count(stats_)) return;
    const std::uint64_t nodes_before = stats_.nodes;
    if (frames_.size() <= static_cast<std::size_t>(ply)) frames_.resize(static_cast<std::size_t>(ply) + 1);
    Frame& frame = frames_[static_cast<std::size_t>(ply)];
    const Position pos = path_.at(ply);
    game_.moves(pos, frame.moves);
    std::uint16_t best = 0;
    if (frame.moves.empty()) {
      node.solve(score_of(game_.no_move_value()) >= t);
      ++stats_.terminal_leaves;
      ++stats_.leaves;
    } else {
      const Score child_t = child_threshold(t);
      frame.children.clear();
      frame.prepared.clear();
      // Every child prepared (its table entries prefetched) before any is looked at.
      for (const Move& move : frame.moves) {
        Child child{move, game_.play(pos, move), {}};
        frame.prepared.push_back(leaves_.prepare(child.pos, child_t));
        frame.children.push_back(child);
      }
      for (std::size_t i = 0; i < frame.children.size(); ++i)
        frame.children[i].look = leaves_.look(frame.children[i].pos, frame.prepared[i], child_t, path_);
      std::vector<Child>& children = frame.children;
      const auto look_of = [&children](std::size_t i) -> const Look& { return children[i].look; };
      while (true) {
        const ProofNumbers numbers = proof_numbers(children.size(), look_of);
        node.proof = numbers.proof;
        node.disproof = numbers.disproof;
        best = child_tag(children[numbers.most_proving].look.key);
        if (ply == 0) {
          limits_.stage(fmt::format("{}? root proof number {}, disproof number {}",
                                    t == kWinThreshold ? "win" : "draw", node.proof, node.disproof));
        }
        if (node.solved() || node.proof >= proof_threshold || node.disproof >= disproof_threshold ||
            limits_.stopped()) {
          break;
        }
        if (ply + 1 >= options_.max_ply) {
          limits_.halt("line longer than the ply limit");
          break;
        }
        Child& chosen = children[numbers.most_proving];
        const std::uint32_t child_proof_threshold =
            disproof_threshold == kInfinite ? kInfinite
                                            : disproof_threshold - (node.disproof - chosen.look.proof);
        // (A runner-up whose disproof has saturated sets no limit: the child's own
        // disproof may have saturated too, and a limit it already meets would stop it
        // before it does anything.)
        std::uint32_t child_disproof_threshold = proof_threshold;
        if (numbers.second < kMaxFinite) {
          const auto widened =
              static_cast<std::uint64_t>(static_cast<double>(numbers.second) * (1.0 + options_.epsilon));
          child_disproof_threshold = static_cast<std::uint32_t>(std::min<std::uint64_t>(
              proof_threshold,
              std::min<std::uint64_t>(std::max<std::uint64_t>(numbers.second + 1ULL, widened), kMaxFinite)));
        }
        path_.push(chosen.pos, chosen.look.exact);
        mid(chosen.look, child_t, child_proof_threshold, child_disproof_threshold);
        path_.pop();
      }
      if (node.solved()) {
        const Resolution resolution = resolve(node.proof == 0, children.size(), look_of);
        node.dependency = resolution.dependency;
        best = child_tag(children[resolution.decisive].look.key);
      }
    }
    const std::uint64_t spent = stats_.nodes - nodes_before + 1;
    node.work =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t{node.work} + spent, kMaxFinite));
    leaves_.store(node, best, path_, options_.unsafe_repetition_storage);
  }

  const G& game_;
  const SearchOptions& options_;
  SearchStats& stats_;
  Limits& limits_;
  std::optional<ProofTable> own_;  // where the caller keeps none
  ProofTable& table_;
  ProofLeaves<G> leaves_;
  Path<G> path_;
  std::deque<Frame> frames_;
  std::vector<Position> deepest_;
};

}  // namespace gs::search
