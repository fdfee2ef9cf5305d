#pragma once
// Proof-number search (Allis, van der Meulen and van den Herik 1994) with the tree in
// memory: repeatedly descend from the root to the most-proving leaf (at each node the
// child of least disproof, in the negamax form of search/proof_numbers.h, which df-pn
// shares), expand it, and update the numbers of its ancestors.
//
// Memory: nodes live in one array sized by the budget (three quarters of it; the rest is
// a table). A node's children are one block of the array; when a node is solved the
// subtrees below its children are freed, the child that decides it kept for the
// principal variation, and freed blocks are reused (split where no block of the size is
// free). When no block is left, a garbage collection frees the subtrees of least work
// (about half the tree, never the line being expanded), whose roots become leaves again;
// the numbers of their unsolved nodes go to the table, from which new leaves of those
// positions start, as in df-pn. Only when a collection frees less than an eighth of the
// array does the search stop, unanswered. Without it a draw, whose proof is the whole
// tree of the attacker's lines up to their repetitions, filled the memory long before it
// was proven (docs/SEARCH.md).
//
// Repetition: the tree is a tree of lines, so a node's path is fixed and a repetition
// leaf is a draw for that node forever. A node solved through one records the earliest
// ply it depends on (search/proof_leaves.h); only results that depend on no line above
// the node enter the table, which every new leaf consults, so that transpositions are
// solved once (docs/SEARCH.md). Unsolved numbers in the table are estimates only.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
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
class Pns {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;

  Pns(const G& game, db::Database* database, const SearchOptions& options, SearchStats& stats, Limits& limits)
      : game_(game),
        options_(options),
        stats_(stats),
        limits_(limits),
        table_(options.memory_bytes / 4),
        leaves_(game, database, table_, stats) {
    const std::uint64_t tree_bytes = options.memory_bytes - std::min(options.memory_bytes, table_.bytes());
    capacity_ = std::max<std::uint64_t>(std::min<std::uint64_t>(tree_bytes / sizeof(Node), kNil - 1), 1);
  }

  QuestionReport prove(const Position& root, Score t) {
    QuestionReport report;
    report.threshold = t;
    const std::uint64_t nodes = stats_.nodes;
    const double start = limits_.elapsed();
    nodes_.clear();
    nodes_.reserve(capacity_);
    for (auto& blocks : free_) blocks.clear();
    live_ = 0;
    path_.clear();
    Node top;
    top.pos = root;
    top.threshold = t;
    top.look = leaves_.look(root, t, path_);
    nodes_.push_back(top);
    live_ = 1;
    while (!nodes_[0].look.solved() && !limits_.stopped()) {
      const std::uint32_t leaf = select();
      if (limits_.count(stats_)) break;
      if (nodes_[leaf].ply + 1 >= options_.max_ply) {
        limits_.halt("line longer than the ply limit");
        break;
      }
      if (!expand(leaf)) break;
      update(leaf);
    }
    const Look& look = nodes_[0].look;
    report.proof = look.proof;
    report.disproof = look.disproof;
    if (look.proof == 0) report.answer = true;
    if (look.disproof == 0) report.answer = false;
    report.nodes = stats_.nodes - nodes;
    report.seconds = limits_.elapsed() - start;
    stats_.table_entries = table_.used();
    stats_.table_capacity = table_.capacity();
    stats_.table_bytes = table_.bytes() + capacity_ * sizeof(Node);
    stats_.tree_nodes = live_;
    return report;
  }

  // The line of the last tree: through solved nodes the child that decides each, else
  // the most-proving child.
  [[nodiscard]] std::vector<std::string> line(int limit = 400) const {
    std::vector<std::string> moves;
    std::uint32_t at = 0;
    for (int ply = 0; ply < limit && !nodes_.empty() && nodes_[at].count > 0; ++ply) {
      const std::uint32_t next = nodes_[at].look.solved() ? decisive(at) : most_proving(at);
      moves.push_back(game_.move_text(nodes_[at].pos, nodes_[next].move));
      at = next;
    }
    return moves;
  }

  [[nodiscard]] const std::vector<Position>& deepest() const { return deepest_; }

 private:
  static constexpr std::uint32_t kNil = 0xFFFFFFFFU;

  struct Node {
    Position pos{};
    Move move{};  // from the parent
    Look look;
    Score threshold = kWinThreshold;
    std::uint32_t parent = kNil;
    std::uint32_t first = kNil;  // the children's block
    std::uint32_t count = 0;
    int ply = 0;
    bool expanded = false;
  };

  // The i-th child of a node as proof_numbers() and resolve() see it.
  [[nodiscard]] auto children_of(std::uint32_t at) const {
    const std::uint32_t first = nodes_[at].first;
    return [this, first](std::size_t i) -> const Look& { return nodes_[first + i].look; };
  }

  // The child of least disproof, then least proof.
  [[nodiscard]] std::uint32_t most_proving(std::uint32_t at) const {
    const Node& node = nodes_[at];
    return node.first + static_cast<std::uint32_t>(proof_numbers(node.count, children_of(at)).most_proving);
  }

  // The child that decides a solved node: for a proven question a refuted child (the
  // least dependent one), else the child that took the most work.
  [[nodiscard]] std::uint32_t decisive(std::uint32_t at) const {
    const Node& node = nodes_[at];
    return node.first +
           static_cast<std::uint32_t>(resolve(node.look.proof == 0, node.count, children_of(at)).decisive);
  }

  // From the root to the most-proving leaf, with the path along it.
  std::uint32_t select() {
    path_.clear();
    std::uint32_t at = 0;
    path_.push(nodes_[0].pos, nodes_[0].look.exact);
    while (nodes_[at].expanded) {
      at = most_proving(at);
      path_.push(nodes_[at].pos, nodes_[at].look.exact);
    }
    if (nodes_[at].ply > stats_.deepest) {
      stats_.deepest = nodes_[at].ply;
      deepest_ = path_.positions();
    }
    return at;
  }

  // A block of `count` nodes: a freed block of that size, else new room, else the front
  // of a larger freed block (the rest stays free); kNil when there is none.
  std::uint32_t allocate(std::uint32_t count) {
    if (count < free_.size() && !free_[count].empty()) {
      const std::uint32_t first = free_[count].back();
      free_[count].pop_back();
      return first;
    }
    if (nodes_.size() + count <= capacity_) {
      const auto first = static_cast<std::uint32_t>(nodes_.size());
      nodes_.resize(nodes_.size() + count);
      return first;
    }
    for (std::size_t size = count + 1; size < free_.size(); ++size) {
      if (free_[size].empty()) continue;
      const std::uint32_t first = free_[size].back();
      free_[size].pop_back();
      free_[size - count].push_back(first + count);
      return first;
    }
    return kNil;
  }

  // Out of room: empties the subtrees that took the least work, about half of the tree,
  // as df-pn's table collection does. Their roots become leaves again that keep their
  // numbers (estimates, or a solved result, which holds on their own line), and are
  // expanded again when they become most-proving. The line to `at` is spared. False when
  // too little could be freed to go on (a tree hardly larger than that line).
  bool collect(std::uint32_t at) {
    std::vector<std::uint32_t> line;
    for (std::uint32_t up = at; up != kNil; up = nodes_[up].parent) line.push_back(up);
    std::sort(line.begin(), line.end());
    const auto on_line = [&line](std::uint32_t n) { return std::binary_search(line.begin(), line.end(), n); };
    std::array<std::uint64_t, 34> by_bits{};
    std::uint64_t expanded = 0;
    for (std::size_t n = 1; n < nodes_.size(); ++n) {
      if (nodes_[n].count > 0 && !on_line(static_cast<std::uint32_t>(n))) {
        ++by_bits[std::bit_width(nodes_[n].look.work)];
        ++expanded;
      }
    }
    std::uint64_t seen = 0;
    std::size_t limit = 0;
    while (limit + 1 < by_bits.size() && (seen += by_bits[limit]) < expanded / 2) ++limit;
    const std::uint64_t live = live_;
    std::vector<std::uint32_t> stack = {0};
    while (!stack.empty()) {
      const Node& node = nodes_[stack.back()];
      stack.pop_back();
      for (std::uint32_t c = node.first; c < node.first + node.count; ++c) {
        if (nodes_[c].count == 0) continue;
        if (!on_line(c) && std::bit_width(nodes_[c].look.work) <= limit) {
          remember_below(c);
          release_below(c);
        } else {
          stack.push_back(c);
        }
      }
    }
    ++stats_.collections;
    return (live - live_) * 8 >= capacity_;
  }

  // Stores the numbers of the unsolved nodes of a subtree about to be freed in the table,
  // as df-pn keeps them: when the search comes back there, or reaches one of these
  // positions by another line, its new leaves start from them (search/proof_leaves.h).
  void remember_below(std::uint32_t at) {
    std::vector<std::uint32_t> stack = {at};
    while (!stack.empty()) {
      const Node& node = nodes_[stack.back()];
      stack.pop_back();
      if (node.count == 0) continue;
      if (!node.look.solved()) leaves_.store_in_tree(node.look, node.ply, options_.unsafe_repetition_storage);
      for (std::uint32_t c = node.first; c < node.first + node.count; ++c) stack.push_back(c);
    }
  }

  // Frees every node below `at`.
  void release_below(std::uint32_t at) {
    std::vector<std::uint32_t> stack = {at};
    while (!stack.empty()) {
      Node& node = nodes_[stack.back()];
      stack.pop_back();
      if (node.count == 0) continue;
      for (std::uint32_t c = node.first; c < node.first + node.count; ++c) stack.push_back(c);
      if (free_.size() <= node.count) free_.resize(node.count + 1);
      free_[node.count].push_back(node.first);
      live_ -= node.count;
      node.first = kNil;
      node.count = 0;
      node.expanded = false;
    }
  }

  // Generates the children of a leaf (the path ends at it); false when memory ran out.
  bool expand(std::uint32_t at) {
    MoveList<G> moves;
    game_.moves(nodes_[at].pos, moves);
    nodes_[at].expanded = true;
    if (moves.empty()) {
      nodes_[at].look.solve(score_of(game_.no_move_value()) >= nodes_[at].threshold);
      ++stats_.terminal_leaves;
      ++stats_.leaves;
      return true;
    }
    const auto count = static_cast<std::uint32_t>(moves.size());
    std::uint32_t first = allocate(count);
    if (first == kNil && collect(at)) first = allocate(count);
    if (first == kNil) {
      nodes_[at].expanded = false;
      limits_.halt("memory budget");
      return false;
    }
    const Score child_t = child_threshold(nodes_[at].threshold);
    // Every child prepared (its table entries prefetched) before any is looked at.
    prepared_.clear();
    for (std::uint32_t i = 0; i < count; ++i) {
      Node& child = nodes_[first + i];
      child = Node{};
      child.pos = game_.play(nodes_[at].pos, moves[i]);
      child.move = moves[i];
      child.threshold = child_t;
      child.parent = at;
      child.ply = nodes_[at].ply + 1;
      prepared_.push_back(leaves_.prepare(child.pos, child_t));
    }
    for (std::uint32_t i = 0; i < count; ++i)
      nodes_[first + i].look = leaves_.look(nodes_[first + i].pos, prepared_[i], child_t, path_);
    nodes_[at].first = first;
    nodes_[at].count = count;
    live_ += count;
    stats_.tree_peak = std::max(stats_.tree_peak, live_);
    for (std::uint32_t up = at; up != kNil; up = nodes_[up].parent) ++nodes_[up].look.work;
    return true;
  }

  // New numbers for the expanded node and its ancestors, as far as they change.
  void update(std::uint32_t at) {
    for (std::uint32_t up = at; up != kNil; up = nodes_[up].parent) {
      Node& node = nodes_[up];
      const std::uint32_t old_proof = node.look.proof;
      const std::uint32_t old_disproof = node.look.disproof;
      if (node.count > 0 && !node.look.solved()) {
        const ProofNumbers numbers = proof_numbers(node.count, children_of(up));
        node.look.proof = numbers.proof;
        node.look.disproof = numbers.disproof;
        if (node.look.solved()) solved(up);
      } else if (node.look.solved() && up == at) {
        solved(up);  // no legal move
      }
      if (up != at && node.look.proof == old_proof && node.look.disproof == old_disproof) break;
    }
  }

  // A node just solved: its dependency, the table, and its subtree freed but for the
  // child that decides it.
  void solved(std::uint32_t at) {
    Node& node = nodes_[at];
    if (node.count > 0)
      node.look.dependency = resolve(node.look.proof == 0, node.count, children_of(at)).dependency;
    leaves_.store_in_tree(node.look, node.ply, options_.unsafe_repetition_storage);
    if (node.count > 0) {
      const std::uint32_t keep = decisive(at);
      for (std::uint32_t c = node.first; c < node.first + node.count; ++c) {
        if (c != keep) release_below(c);
      }
    }
  }

  const G& game_;
  const SearchOptions& options_;
  SearchStats& stats_;
  Limits& limits_;
  ProofTable table_;
  ProofLeaves<G> leaves_;
  std::vector<typename ProofLeaves<G>::Prepared> prepared_;  // expand()'s, kept for its capacity
  Path<G> path_;
  std::vector<Node> nodes_;
  std::vector<std::vector<std::uint32_t>> free_;
  std::uint64_t capacity_ = 0;
  std::uint64_t live_ = 0;
  std::vector<Position> deepest_;
};

}  // namespace gs::search
