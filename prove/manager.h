#pragma once
// The proof-tree manager: the front end of a proof (Schaeffer et al., "Solving
// Checkers", 2005, sections 4.1-4.3), generic over the game contract. docs/PROVE.md
// describes it for users; in short:
//
// - The tree is a graph of positions keyed by their canonical rank (search/key.h), kept
//   in a store (prove/store.h) pass by pass, so a killed run loses at most one pass.
// - Each node answers two binary questions for its side to move: "win?" and "at least a
//   draw?". A node is answered by the rules (no move), a database, a back-end prover run
//   from the node itself (alpha-beta, df-pn), or the front end from its children: "win?"
//   is yes when some child answers "at least a draw?" no, and no when every child answers
//   it yes; "at least a draw?" is yes when some child answers "win?" no, and no when
//   every child answers it yes. Every one of these answers is a property of the position
//   alone (a back-end search starts with an empty history at the node, and its root's
//   answer, repetitions inside its own search included, is the position's value). The
//   front end proves a win or a loss only through ends of the game (no answer of those
//   rests on itself round a cycle); where the tree's search is stuck on a cycle whose
//   leaves are all settled, a fixpoint over the tree's graph gives the draws that the
//   cycle holds (close_cycles(), source "cycle").
// - Heuristic threshold T: a node whose heuristic score (a shallow search over the
//   game's evaluation and the databases) is at least T is a likely win, at most -T a
//   likely loss. A likely node is not expanded at T: the back end tries to prove the
//   likely result ("the easy question"), and where it cannot, the node is assumed to
//   have it while the tree at T is worked on. When the root is settled under those
//   assumptions, T is raised by a step and only the nodes that are now inside it are
//   revisited (expanded), until the root is settled without assumptions.
// - Proof-number search picks the leaves: each pass takes up to twice as many of the
//   most-proving leaves as there are workers (a picked leaf counts as busy for the next
//   pick; where the target's tree has fewer, the pass is filled from the open targets
//   after it), runs their back-end jobs on the workers, expands the leaves inside the
//   threshold whose jobs failed, propagates answers up the graph and commits. A leaf
//   whose first job failed is retried first (options.retries times, each job with twice
//   the budget of the last), so that a search that nearly finished is not split among
//   children.
// - A leaf starts with the proof and disproof numbers that its last job's df-pn ended
//   with, and the children of an expanded node with those its df-pn's table held for
//   them (as PN2 starts the first level's leaves from its second-level searches), so
//   that the front end goes on where the back end stopped instead of from 1 and 1.
// - Seeding: with a line of moves from the root, the nodes of the line are proven from
//   its last position back to the root.
// - Each commit also records what the explorer shows (prove/view.h): the root's answers
//   and numbers, the counts and the best line, so that a reader need not load the tree.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "core/game.h"
#include "core/parallel.h"
#include "core/progress.h"
#include "db/database.h"
#include "prove/assign.h"
#include "prove/backend.h"
#include "prove/job.h"
#include "prove/report.h"
#include "prove/store.h"
#include "prove/view.h"
#include "search/databases.h"
#include "search/key.h"
#include "search/report.h"
#include "search/score.h"

namespace gs::prove {

// The answers a value gives to the two questions, for its side to move.
inline Answer answer_for(Value value, Question question) {
  const Outcome outcome = value.outcome();
  if (question == kWin) return outcome == Outcome::kWin ? kYes : kNo;
  return outcome == Outcome::kLoss ? kNo : kYes;
}

// The outcome two answers give, where they give one.
inline std::string answer_text(Answer win, Answer draw) {
  if (win == kYes) return "win";
  if (draw == kNo) return "loss";
  if (win == kNo && draw == kYes) return "draw";
  if (draw == kYes) return "at least a draw";
  if (win == kNo) return "at most a draw";
  return "unknown";
}

template <Game G>
class Manager {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;

  // `label` names the game, variant and rules; a store made for another game or root is
  // refused.
  Manager(const G& game, db::Database* database, Store& store, const ProveOptions& options,
          const Position& root, const std::string& label)
      : game_(game), database_(database), store_(store), options_(options), probes_(game, database) {
    if (game_.terminal(root)) fail("the game is over at {}: nothing to prove", game_.position_text(root));
    const std::string root_text = game_.position_text(root);
    if (const auto stored = store_.meta("game"); stored && *stored != label)
      fail("the proof store {} is for {}, not {}", store_.path().string(), *stored, label);
    if (const auto stored = store_.meta("root"); stored && *stored != root_text)
      fail("the proof store {} proves {}, not {}", store_.path().string(), *stored, root_text);
    meta_["game"] = label;
    meta_["root"] = root_text;
    threshold_ = options_.threshold;
    if (const auto stored = store_.meta("threshold")) threshold_ = std::stoi(*stored);
    if (const auto stored = store_.meta("seq")) seq_ = std::stoll(*stored);
    if (const auto stored = store_.meta("stuck")) stuck_ = std::stoi(*stored);
    if (const auto stored = store_.meta("effort")) effort_ = std::stod(*stored);
    load();
    // The targets: the seed lines' positions, the deepest first (a line's from its last
    // back), then the root.
    std::vector<std::pair<std::size_t, Position>> seeded;
    for (std::size_t l = 0; l < options_.seeds.size(); ++l) {
      Position at = root;
      for (std::size_t ply = 0; ply < options_.seeds[l].size(); ++ply) {
        const std::string& text = options_.seeds[l][ply];
        const std::string where = options_.seeds.size() > 1 ? fmt::format(" of seed line {}", l + 1) : "";
        if (game_.terminal(at)) fail("seed move {}{}: the game is already over", text, where);
        at = game_.play(at, parse_seed_move(at, text, where));
        if (!game_.terminal(at)) seeded.emplace_back(ply + 1, at);
      }
    }
    std::stable_sort(seeded.begin(), seeded.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::set<int> listed;
    for (const auto& [ply, position] : seeded) {
      if (const int node = intern(position); listed.insert(node).second) targets_.push_back(node);
    }
    root_ = intern(root);
    targets_.push_back(root_);
  }

  // Works until the root is settled or the time is up; commits after every pass.
  ProveSummary run() {
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    ProveSummary summary;
    summary.workers = options_.workers;
    double pass_seconds = 0;
    Progress progress("prove", 0, options_.quiet);
    propagate();
    commit();
    while (true) {
      if (options_.seconds > 0 && elapsed() >= options_.seconds) {
        summary.stopped = "time limit";
        break;
      }
      if (options_.passes > 0 && summary.passes >= options_.passes) {
        summary.stopped = "pass limit";
        break;
      }
      const std::optional<std::pair<int, Question>> target = next_target();
      if (!target) break;
      const auto [node, question] = *target;
      const auto pass_start = std::chrono::steady_clock::now();
      fresh();
      const Numbers numbers = numbers_of(node, question);
      if (numbers.proof == 0 || numbers.disproof == 0) {
        // Settled only by assumed likely results: the tree at this threshold is complete.
        raise_threshold();
        commit();
        continue;
      }
      std::vector<std::pair<int, Question>> leaves;  // and the question asked there
      const std::size_t wanted = static_cast<std::size_t>(2 * std::max(options_.workers, 1));
      pick_leaves(node, question, wanted, leaves);
      const bool target_has_leaves = !leaves.empty();
      if (target_has_leaves) {
        // Where the target's tree has fewer leaves to work on than the pass wants (a seed
        // line's deep node, whose few leaves are being retried), the pass is filled from
        // the open targets after it, in their order, so that no worker waits.
        for (std::size_t t = 0; t < targets_.size() && leaves.size() < wanted; ++t) {
          const int other_node = targets_[t];
          if (other_node == node) continue;
          if (const auto open = open_question(other_node)) pick_leaves(other_node, *open, wanted, leaves);
        }
      }
      std::vector<int> at;  // the node of each job
      std::vector<JobSpec> jobs;
      for (const auto& [leaf, asked] : leaves) {
        Node& n = nodes_[leaf];
        n.busy = false;
        if (!n.stored.scored) {
          at.push_back(leaf);
          jobs.push_back(job_of(leaf, JobSpec::kFull, asked, 1));
        } else if (likely(n)) {
          at.push_back(leaf);
          jobs.push_back(job_of(leaf, JobSpec::kEasy, asked, 1));
        } else if (n.stored.retries > 0 && n.stored.retries <= options_.retries) {
          // A failed job, retried with twice the budget of the last.
          at.push_back(leaf);
          jobs.push_back(
              job_of(leaf, JobSpec::kRetry, asked, std::uint64_t{1} << std::min(n.stored.retries, 30)));
        } else {
          expand(leaf);
        }
      }
      if (!target_has_leaves && close_cycles() > 0) {
        // Every leaf is settled or assumed, yet the target is not: a cycle of the tree
        // (a repetition) kept it open, and the tree's own fixpoint settled nodes on it.
        propagate();
        commit();
        ++summary.passes;
        continue;
      }
      if (!target_has_leaves ||
          (nodes_[node].stored.expanded && effort_ >= static_cast<double>(stuck_budget()))) {
        // The fixpoint settles nothing (an assumed leaf is on the way out of the cycle),
        // or the tree's jobs since the last such job used as much as the next will (a
        // draw whose repetitions keep the tree growing without ever blocking it): the
        // back end, which handles repetitions, is asked about the target itself with a
        // budget that doubles each time.
        effort_ = 0;
        at.push_back(node);
        jobs.push_back(job_of(node, JobSpec::kStuck, question, stuck_budget()));
        ++stuck_;
        meta_["stuck"] = std::to_string(stuck_);
      }
      if (options_.seconds > 0) {
        // No job runs past the run's time.
        for (JobSpec& job : jobs) job.seconds_left = std::max(options_.seconds - elapsed(), 1e-3);
      }
      const std::vector<JobAnswer> results = runner_ ? runner_(jobs) : run_here(at, jobs);
      if (results.size() != jobs.size())
        fail("the back end answered {} jobs of {}", results.size(), jobs.size());
      for (std::size_t i = 0; i < jobs.size(); ++i) {
        apply(at[i], jobs[i], results[i]);
        if (jobs[i].kind != JobSpec::kStuck) effort_ += effort_of(results[i]);
        ++summary.jobs;
        summary.job_nodes += results[i].nodes;
        summary.job_seconds += results[i].seconds;
      }
      propagate();
      commit();
      ++summary.passes;
      pass_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - pass_start).count();
      progress.add(jobs.size());
      progress.set_stage(
          fmt::format("{} nodes, threshold {}, root {}", nodes_.size(), threshold_,
                      answer_text(nodes_[root_].stored.answer[kWin], nodes_[root_].stored.answer[kDraw])));
    }
    // The size reported is the store's own, not that of a log not yet folded into it.
    store_.checkpoint();
    fill(summary);
    summary.seconds = elapsed();
    if (pass_seconds > 0 && options_.workers > 0)
      summary.utilization = summary.job_seconds / (pass_seconds * options_.workers);
    return summary;
  }

  // The state of the store, without running.
  ProveSummary status() {
    ProveSummary summary;
    fill(summary);
    return summary;
  }

  // Where the batches of jobs run: on other processes (prove/mpi_prove.h) instead of this
  // one's worker threads.
  void set_runner(JobRunner runner) { runner_ = std::move(runner); }

  // The best line from the root, at most `max_steps` positions: at a node proven won,
  // the move to the child whose loss was found first; at a node proven lost, the move to
  // the child whose win was found last (the longest defence); at a draw, the move to the
  // child whose "win?" no was found first; at an open node, the most-proving child (the
  // least disproof number of the child's question). It ends at a leaf of the tree, at
  // the end of the game, or where it comes back to a position of the line.
  std::vector<LineStep> best_line(std::size_t max_steps) {
    fresh();
    // The line is played from the root's own position: a node stores the first of its
    // symmetric positions the tree met, which may be a mirror image of the one reached.
    Position at = nodes_[root_].pos;
    int node = root_;
    std::vector<LineStep> line{step_of(node, "", game_.position_text(at))};
    std::vector<int> seen;
    while (line.size() < max_steps) {
      if (!nodes_[node].stored.expanded) break;
      seen.push_back(node);
      MoveList<G> moves;
      game_.moves(at, moves);
      std::vector<Child> children;
      for (const Move& move : moves) {
        const Position next = game_.play(at, move);
        Child child;
        if (const auto over = game_.terminal(next)) {
          child.fixed[kWin] = answer_for(*over, kWin);
          child.fixed[kDraw] = answer_for(*over, kDraw);
        } else if (const auto found = index_.find(search::key_of(game_.rank(next))); found != index_.end()) {
          child.node = found->second;
        }
        children.push_back(child);
      }
      const std::optional<std::size_t> chosen = best_child(nodes_[node].stored.answer, children);
      if (!chosen) break;
      const Position next = game_.play(at, moves[*chosen]);
      const std::string move = game_.move_text(at, moves[*chosen]);
      const Child child = children[*chosen];
      if (child.node < 0) {
        LineStep over;
        over.move = move;
        over.position = game_.position_text(next);
        over.over = true;
        over.win = child.fixed[kWin];
        over.draw = child.fixed[kDraw];
        over.answer = answer_text(child.fixed[kWin], child.fixed[kDraw]);
        line.push_back(over);
        break;
      }
      line.push_back(step_of(child.node, move, game_.position_text(next)));
      if (std::find(seen.begin(), seen.end(), child.node) != seen.end()) {
        line.back().repeated = true;
        break;
      }
      node = child.node;
      at = next;
    }
    return line;
  }

 private:
  struct Child {
    int node = -1;  // -1: the game is over there, with these answers
    Answer fixed[2] = {kUnknown, kUnknown};
  };
  struct Node {
    StoredNode stored;
    Position pos;
    std::vector<Child> children;
    std::vector<int> parents;
    bool dirty = false;
    bool busy = false;
    bool on_stack = false;
    int worker = -1;  // whose kept tables hold its last job (or its parent's); -1: none yet
  };
  struct Numbers {
    std::uint64_t proof = 1;
    std::uint64_t disproof = 1;
  };

  static constexpr std::uint64_t kInf = std::uint64_t{1} << 62;
  static constexpr std::uint64_t kBig = std::uint64_t{1} << 40;  // busy, or on a cycle
  static std::uint64_t add(std::uint64_t a, std::uint64_t b) { return std::min(kInf, a + b); }

  [[nodiscard]] bool likely(const Node& n) const {
    return n.stored.scored && std::abs(n.stored.score) >= threshold_;
  }

  void load() {
    for (StoredNode& stored : store_.nodes()) {
      Node n;
      n.pos = game_.parse_position(stored.position);
      n.stored = std::move(stored);
      index_.emplace(n.stored.key, static_cast<int>(nodes_.size()));
      nodes_.push_back(std::move(n));
    }
    const std::size_t loaded = nodes_.size();
    for (std::size_t i = 0; i < loaded; ++i) {
      if (nodes_[i].stored.expanded) link(static_cast<int>(i));
    }
  }

  // A move of a seed line, or an error naming the line (`where`).
  Move parse_seed_move(const Position& at, const std::string& text, const std::string& where) const {
    try {
      return game_.parse_move(at, text);
    } catch (const Error& error) {
      fail("seed move {}{}: {}", text, where, error.what());
    }
  }

  // The node of a position that is not over, made (with what the databases say) if new.
  int intern(const Position& pos) {
    const Ranked ranked = game_.rank(pos);
    const std::uint64_t key = search::key_of(ranked);
    if (const auto it = index_.find(key); it != index_.end()) return it->second;
    Node n;
    n.pos = pos;
    n.stored.key = key;
    n.stored.position = game_.position_text(pos);
    n.dirty = true;
    const int at = static_cast<int>(nodes_.size());
    index_.emplace(key, at);
    nodes_.push_back(std::move(n));
    if (const auto bounds = probes_.probe(ranked)) {
      for (const Question q : {kWin, kDraw}) {
        const search::Score t = q == kWin ? search::kWinThreshold : search::kDrawThreshold;
        if (bounds->decides(t)) settle(at, q, bounds->passes(t) ? kYes : kNo, "database");
      }
    }
    return at;
  }

  // The children of an expanded node, and it among their parents.
  void link(int at) {
    MoveList<G> moves;
    game_.moves(nodes_[at].pos, moves);
    std::vector<Child> children;
    for (const Move& move : moves) {
      const Position next = game_.play(nodes_[at].pos, move);
      Child child;
      if (const auto over = game_.terminal(next)) {
        child.fixed[kWin] = answer_for(*over, kWin);
        child.fixed[kDraw] = answer_for(*over, kDraw);
      } else {
        child.node = intern(next);
        // Parents in the order of their keys, so that answers propagate in the same
        // order in a run resumed from the store as in one that never stopped.
        std::vector<int>& parents = nodes_[child.node].parents;
        const std::uint64_t key = nodes_[at].stored.key;
        parents.insert(std::upper_bound(parents.begin(), parents.end(), key,
                                        [this](std::uint64_t k, int p) { return k < nodes_[p].stored.key; }),
                       at);
      }
      children.push_back(child);
    }
    nodes_[at].children = std::move(children);
    if (moves.empty()) {
      const Value value = game_.no_move_value();
      for (const Question q : {kWin, kDraw}) settle(at, q, answer_for(value, q), "rules");
    }
  }

  void expand(int at) {
    if (nodes_[at].stored.expanded) return;
    nodes_[at].stored.expanded = true;
    // Its numbers are its children's from now on.
    for (const Question q : {kWin, kDraw}) nodes_[at].stored.proof[q] = nodes_[at].stored.disproof[q] = 0;
    nodes_[at].dirty = true;
    link(at);
    for (const Child& child : nodes_[at].children) {
      if (child.node >= 0 && nodes_[child.node].worker < 0) nodes_[child.node].worker = nodes_[at].worker;
    }
    pending_.push_back(at);
  }

  // Records an answer (and what it implies for the other question) with its sequence
  // number; its parents are looked at again.
  void settle(int at, Question q, Answer answer, const std::string& source) {
    StoredNode& s = nodes_[at].stored;
    if (answer == kUnknown || s.answer[q] != kUnknown) return;
    s.answer[q] = answer;
    s.source[q] = source;
    s.seq[q] = ++seq_;
    nodes_[at].dirty = true;
    meta_["seq"] = std::to_string(seq_);
    // A win is at least a draw; what is not at least a draw is no win.
    if (q == kWin && answer == kYes) settle(at, kDraw, kYes, "implied");
    if (q == kDraw && answer == kNo) settle(at, kWin, kNo, "implied");
    for (const int parent : nodes_[at].parents) pending_.push_back(parent);
  }

  // Answers of expanded nodes from their children, until nothing changes.
  void propagate() {
    while (!pending_.empty()) {
      const int at = pending_.front();
      pending_.pop_front();
      const Node& n = nodes_[at];
      if (!n.stored.expanded) continue;
      for (const Question q : {kWin, kDraw}) {
        if (nodes_[at].stored.answer[q] != kUnknown) continue;
        // q at the node is yes iff some child answers the other question no.
        bool some_no = false;
        bool all_yes = true;
        for (const Child& child : nodes_[at].children) {
          const Answer a =
              child.node < 0 ? child.fixed[other(q)] : nodes_[child.node].stored.answer[other(q)];
          some_no = some_no || a == kNo;
          all_yes = all_yes && a == kYes;
        }
        if (some_no)
          settle(at, q, kYes, "tree");
        else if (all_yes && !nodes_[at].children.empty())
          settle(at, q, kNo, "tree");
      }
    }
  }

  // Draws held by a repetition in the tree's own graph: the answers "win?" no and "at
  // least a draw?" yes that the tree's cycles give, once every leaf around them is
  // settled. A least fixpoint marks what could still come out the other way: "win?" may
  // be yes at a node answered yes, or open and unexpanded, or expanded with a child whose
  // "at least a draw?" may be no; "at least a draw?" may be no at a node answered no, or
  // open and unexpanded, or expanded with every child's "win?" possibly yes (the game's
  // ends fixed, assumed likely results counting as open). An open question the fixpoint
  // does not mark is settled, from "cycle": the side to move's opponent can keep the
  // game among such answers for ever, or lead it to a settled one that holds, and
  // endless play is a draw (as in the databases). Returns how many answers it settled.
  std::size_t close_cycles() {
    const std::size_t count = nodes_.size();
    // may[2 * node + q]: q's contrary answer ("win?" yes, "at least a draw?" no) is
    // still possible. waiting: the children whose "win?" is not yet possibly yes.
    std::vector<char> may(2 * count, 0);
    std::vector<std::uint32_t> waiting(count, 0);
    std::vector<std::pair<int, Question>> work;
    auto mark = [&](int at, Question q) {
      char& m = may[2 * static_cast<std::size_t>(at) + q];
      if (m != 0) return;
      m = 1;
      work.emplace_back(at, q);
    };
    for (std::size_t i = 0; i < count; ++i) {
      const int at = static_cast<int>(i);
      const StoredNode& s = nodes_[i].stored;
      const bool open_leaf = !s.expanded;
      if (s.answer[kWin] == kYes || (s.answer[kWin] == kUnknown && open_leaf)) mark(at, kWin);
      if (s.answer[kDraw] == kNo || (s.answer[kDraw] == kUnknown && open_leaf)) mark(at, kDraw);
      if (open_leaf) continue;
      for (const Child& child : nodes_[i].children) {
        if (child.node >= 0) {
          ++waiting[i];
        } else {
          if (child.fixed[kDraw] == kNo && s.answer[kWin] == kUnknown) mark(at, kWin);
          if (child.fixed[kWin] == kNo) ++waiting[i];  // a game over that is no win: never possibly yes
        }
      }
      if (waiting[i] == 0 && s.answer[kDraw] == kUnknown) mark(at, kDraw);
    }
    while (!work.empty()) {
      const auto [at, q] = work.back();
      work.pop_back();
      // One entry per move into this node, as its parents' children count them.
      for (const int parent : nodes_[at].parents) {
        const StoredNode& p = nodes_[parent].stored;
        if (q == kDraw) {
          if (p.answer[kWin] == kUnknown) mark(parent, kWin);
        } else if (--waiting[static_cast<std::size_t>(parent)] == 0 && p.answer[kDraw] == kUnknown) {
          mark(parent, kDraw);
        }
      }
    }
    std::size_t settled = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const StoredNode& s = nodes_[i].stored;
      if (!s.expanded) continue;
      const int at = static_cast<int>(i);
      if (s.answer[kWin] == kUnknown && may[2 * i + kWin] == 0) {
        settle(at, kWin, kNo, "cycle");
        ++settled;
      }
      if (s.answer[kDraw] == kUnknown && may[2 * i + kDraw] == 0) {
        settle(at, kDraw, kYes, "cycle");
        ++settled;
      }
    }
    return settled;
  }

  // Proof and disproof numbers of a node's question, for its side to move, under the
  // threshold's assumptions; memoized for one pick (stamp_).
  Numbers numbers_of(int at, Question q) {
    Node& n = nodes_[at];
    if (n.stored.answer[q] == kYes) return {0, kInf};
    if (n.stored.answer[q] == kNo) return {kInf, 0};
    if (n.busy || n.on_stack) return {kBig, kBig};
    auto& memo = memo_[static_cast<std::size_t>(at) * 2 + q];
    if (memo.first == stamp_) return memo.second;
    Numbers numbers;
    if (!n.stored.expanded) {
      if (likely(n) && n.stored.tried != 0) {
        numbers = n.stored.score > 0 ? Numbers{0, kInf} : Numbers{kInf, 0};
      } else if (options_.search_numbers && n.stored.proof[q] != 0) {
        numbers = {n.stored.proof[q], n.stored.disproof[q]};
      }
    } else {
      n.on_stack = true;
      numbers = {kInf, 0};
      for (std::size_t i = 0; i < nodes_[at].children.size(); ++i) {
        const Child child = nodes_[at].children[i];
        Numbers c;
        if (child.node < 0) {
          c = child.fixed[other(q)] == kYes ? Numbers{0, kInf} : Numbers{kInf, 0};
        } else {
          c = numbers_of(child.node, other(q));
        }
        numbers.proof = std::min(numbers.proof, c.disproof);
        numbers.disproof = add(numbers.disproof, c.proof);
      }
      nodes_[at].on_stack = false;
    }
    memo_[static_cast<std::size_t>(at) * 2 + q] = {stamp_, numbers};
    return numbers;
  }

  void fresh() {
    ++stamp_;
    memo_.resize(nodes_.size() * 2);
  }

  // Raises the threshold by steps, as far as it takes to bring an assumed node inside.
  void raise_threshold() {
    const std::int32_t step = std::max(options_.threshold_step, 1);
    std::int32_t least = std::numeric_limits<std::int32_t>::max();
    for (const Node& n : nodes_) {
      if (!n.stored.expanded && likely(n) && n.stored.tried != 0)
        least = std::min(least, std::abs(n.stored.score));
    }
    std::int32_t steps = 1;
    if (least != std::numeric_limits<std::int32_t>::max() && least >= threshold_ + step)
      steps = (least + 1 - threshold_ + step - 1) / step;
    threshold_ += steps * step;
    meta_["threshold"] = std::to_string(threshold_);
  }

  // The next stuck job's budget, a multiple of a job's: it doubles each time.
  [[nodiscard]] std::uint64_t stuck_budget() const { return std::uint64_t{1} << std::min(stuck_, 30); }

  // What a job used, in units of a job's budget (nodes where jobs have a node budget, else
  // seconds); 0 where jobs have no budget, so that no stuck job comes due.
  [[nodiscard]] double effort_of(const JobAnswer& result) const {
    if (options_.prover_nodes > 0)
      return static_cast<double>(result.nodes) / static_cast<double>(options_.prover_nodes);
    if (options_.prover_seconds > 0) return result.seconds / options_.prover_seconds;
    return 0;
  }

  // The most-proving leaf below a node that a pass may work on, or -1; `asked` is the
  // question there.
  int select(int at, Question q, Question& asked) {
    std::vector<int> seen;
    while (true) {
      const Numbers here = numbers_of(at, q);
      if (here.proof == 0 || here.disproof == 0 || here.proof >= kBig) return -1;
      Node& n = nodes_[at];
      if (!n.stored.expanded) {
        asked = q;
        return at;
      }
      if (std::find(seen.begin(), seen.end(), at) != seen.end()) return -1;
      seen.push_back(at);
      int best = -1;
      std::uint64_t least = kInf;
      for (const Child& child : n.children) {
        if (child.node < 0) continue;
        const Numbers c = numbers_of(child.node, other(q));
        if (c.proof == 0 || c.disproof == 0 || c.disproof >= kBig) continue;
        if (c.disproof < least) {
          least = c.disproof;
          best = child.node;
        }
      }
      if (best < 0) return -1;
      at = best;
      q = other(q);
    }
  }

  // The question still open at a target: "win?" first, then "at least a draw?" where it
  // is no win.
  [[nodiscard]] std::optional<Question> open_question(int target) const {
    const StoredNode& s = nodes_[target].stored;
    if (s.answer[kWin] == kUnknown) return kWin;
    if (s.answer[kWin] == kNo && s.answer[kDraw] == kUnknown) return kDraw;
    return std::nullopt;
  }

  // The next node and question to work on: the seed line's last open node first.
  [[nodiscard]] std::optional<std::pair<int, Question>> next_target() const {
    for (const int t : targets_) {
      if (const auto q = open_question(t)) return std::pair{t, *q};
    }
    return std::nullopt;
  }

  // The most-proving leaves below a node, one pick after another (each picked leaf busy
  // for the next), until `leaves` holds `wanted` or no leaf is left to pick there.
  void pick_leaves(int at, Question q, std::size_t wanted, std::vector<std::pair<int, Question>>& leaves) {
    while (leaves.size() < wanted) {
      fresh();
      Question asked = q;
      const int leaf = select(at, q, asked);
      if (leaf < 0) break;
      nodes_[leaf].busy = true;
      leaves.emplace_back(leaf, asked);
    }
  }

  // A job for a node: its position's text travels, so that any process can run it.
  JobSpec job_of(int node, JobSpec::Kind kind, Question question, std::uint64_t budget) const {
    JobSpec job;
    job.kind = kind;
    job.question = question;
    job.budget = budget;
    job.score = nodes_[node].stored.score;
    job.position = nodes_[node].stored.position;
    if (kind == JobSpec::kStuck) job.closure_failed_bytes = closure_failed_bytes(job.position);
    return job;
  }

  // The memory an earlier stuck job's closure of `position` ran out of (0: none did),
  // kept in the store's meta table so that a resumed run skips it too.
  [[nodiscard]] std::uint64_t closure_failed_bytes(const std::string& position) const {
    const std::string key = "closure-full " + position;
    if (const auto it = meta_.find(key); it != meta_.end()) return std::stoull(it->second);
    const auto stored = store_.meta(key);
    return stored ? std::stoull(*stored) : 0;
  }

  // The jobs of a pass on this process's worker threads.
  std::vector<JobAnswer> run_here(const std::vector<int>& at, const std::vector<JobSpec>& jobs) {
    std::vector<JobAnswer> results(jobs.size());
    if (options_.keep_tables && tables_.empty()) {
      for (int w = 0; w < std::max(options_.workers, 1); ++w)
        tables_.push_back(std::make_unique<Tables>(kept_tables_bytes(options_.job_memory)));
    }
    if (tables_.empty()) {
      parallel_for(0, jobs.size(), options_.workers, 1, [&](std::uint64_t begin, std::uint64_t end, int) {
        for (std::uint64_t i = begin; i < end; ++i)
          results[i] = run_job(game_, database_, options_, nodes_[at[i]].pos, jobs[i]);
      });
      return results;
    }
    // Kept tables: each job on the worker whose tables hold its node's last job, as far as
    // that keeps the workers' loads even (prove/assign.h).
    const std::size_t workers = tables_.size();
    std::vector<std::uint64_t> budgets;
    std::vector<int> affinity;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      budgets.push_back(jobs[i].budget);
      affinity.push_back(nodes_[at[i]].worker);
    }
    const std::vector<std::vector<std::size_t>> mine = assign_jobs(budgets, affinity, workers);
    for (std::size_t w = 0; w < workers; ++w) {
      for (const std::size_t i : mine[w]) nodes_[at[i]].worker = static_cast<int>(w);
    }
    parallel_for(0, workers, static_cast<int>(workers), 1, [&](std::uint64_t w, std::uint64_t, int) {
      for (const std::size_t i : mine[w])
        results[i] = run_job(game_, database_, options_, nodes_[at[i]].pos, jobs[i], tables_[w].get());
    });
    return results;
  }

  void apply(int node, const JobSpec& job, const JobAnswer& result) {
    Node& n = nodes_[node];
    if (result.scored && !n.stored.scored) {
      n.stored.scored = true;
      n.stored.score = result.score;
      n.dirty = true;
    }
    for (const Question q : {kWin, kDraw}) {
      settle(node, q, result.answer[q], result.source[q]);
      keep_numbers(node, q, result.proof[q], result.disproof[q], true);
    }
    if (job.kind == JobSpec::kStuck && result.closure_failed_bytes > job.closure_failed_bytes)
      meta_["closure-full " + job.position] = std::to_string(result.closure_failed_bytes);
    if (settled(nodes_[node].stored.answer) || job.kind == JobSpec::kStuck) return;
    if (likely(nodes_[node])) {
      nodes_[node].stored.tried = threshold_;
      nodes_[node].dirty = true;
    } else if (nodes_[node].stored.retries < options_.retries && !nodes_[node].stored.expanded) {
      // Tried again (a job with twice the budget) before it is expanded: where a worker
      // keeps its tables, the next job goes on from where this one stopped.
      ++nodes_[node].stored.retries;
      nodes_[node].dirty = true;
    } else {
      expand(node);
      // The children start with the numbers the job's df-pn left for them, where it
      // looked at them (PN2: the second-level search's numbers for the first level's new
      // leaves).
      const std::vector<Child>& children = nodes_[node].children;
      if (result.children.size() != children.size()) return;
      for (std::size_t i = 0; i < children.size(); ++i) {
        if (children[i].node >= 0)
          keep_numbers(children[i].node, result.children_question, result.children[i].first,
                       result.children[i].second, false);
      }
    }
  }

  // A back end's proof and disproof numbers for a question still open at a leaf, from a
  // job of its own (`own`: they replace any it has) or its parent's (kept only where it
  // has none). A search's solved result is no answer here: it may hold only on the
  // search's line.
  void keep_numbers(int at, Question q, std::uint32_t proof, std::uint32_t disproof, bool own) {
    StoredNode& s = nodes_[at].stored;
    if (!options_.search_numbers || s.expanded || s.answer[q] != kUnknown || proof == 0 || disproof == 0 ||
        proof == search::kInfinite || disproof == search::kInfinite || (!own && s.proof[q] != 0))
      return;
    s.proof[q] = proof;
    s.disproof[q] = disproof;
    nodes_[at].dirty = true;
  }

  // A node as a step of the best line, at `position` (the node's or a symmetric one).
  LineStep step_of(int at, const std::string& move, const std::string& position) {
    const Node& n = nodes_[at];
    LineStep step;
    step.move = move;
    step.position = position;
    step.win = n.stored.answer[kWin];
    step.draw = n.stored.answer[kDraw];
    step.answer = answer_text(n.stored.answer[kWin], n.stored.answer[kDraw]);
    step.source[kWin] = n.stored.source[kWin];
    step.source[kDraw] = n.stored.source[kDraw];
    step.expanded = n.stored.expanded;
    step.scored = n.stored.scored;
    step.score = n.stored.score;
    if (!settled(n.stored.answer)) {
      const Numbers numbers = numbers_of(at, n.stored.answer[kWin] == kUnknown ? kWin : kDraw);
      step.proof = numbers.proof;
      step.disproof = numbers.disproof;
    }
    return step;
  }

  // The child the best line follows from a node with these answers (best_line).
  std::optional<std::size_t> best_child(const Answer (&answers)[2], const std::vector<Child>& children) {
    auto answer_of = [&](const Child& c, Question q) {
      return c.node < 0 ? c.fixed[q] : nodes_[c.node].stored.answer[q];
    };
    // A child's answer's sequence number; a game over counts as found first.
    auto seq_of = [&](const Child& c, Question q) {
      return c.node < 0 ? std::int64_t{0} : nodes_[c.node].stored.seq[q];
    };
    std::optional<std::size_t> best;
    auto pick = [&](Question q, Answer wanted, bool latest) {
      for (std::size_t i = 0; i < children.size(); ++i) {
        const Child& c = children[i];
        if (answer_of(c, q) != wanted) continue;
        const bool better = !best || (latest ? seq_of(c, q) > seq_of(children[*best], q)
                                             : seq_of(c, q) < seq_of(children[*best], q));
        if (better) best = i;
      }
    };
    if (answers[kWin] == kYes) {
      pick(kDraw, kNo, false);
    } else if (answers[kDraw] == kNo) {
      pick(kWin, kYes, true);
    } else if (answers[kDraw] == kYes) {
      pick(kWin, kNo, false);
    }
    if (best) return best;
    // Open (or settled by a back end, below which the tree is open): the most-proving
    // child of the open question, as select() goes down.
    const Question q = answers[kWin] == kUnknown ? kWin : kDraw;
    std::uint64_t least = kInf;
    for (std::size_t i = 0; i < children.size(); ++i) {
      const Child& c = children[i];
      if (c.node < 0) continue;
      const Numbers numbers = numbers_of(c.node, other(q));
      if (numbers.proof == 0 || numbers.disproof == 0) continue;
      if (numbers.disproof < least) {
        least = numbers.disproof;
        best = i;
      }
    }
    return best;
  }

  void commit() {
    std::vector<StoredNode> changed;
    for (Node& n : nodes_) {
      if (!n.dirty) continue;
      changed.push_back(n.stored);
      n.dirty = false;
    }
    meta_["threshold"] = std::to_string(threshold_);
    meta_["effort"] = fmt::format("{}", effort_);
    ProveSummary state;
    fill_state(state);
    meta_["view"] = encode_view(state, best_line(kViewLine));
    store_.commit(changed, meta_);
  }

  void fill(ProveSummary& summary) {
    fill_state(summary);
    std::error_code error;
    for (const char* suffix : {"", "-wal"}) {
      const auto size = std::filesystem::file_size(store_.path().string() + suffix, error);
      if (!error) summary.store_bytes += size;
    }
  }

  // The summary's root, counts, threshold and root numbers: what the store says, but for
  // its size.
  void fill_state(ProveSummary& summary) {
    const StoredNode& root = nodes_[root_].stored;
    summary.position = root.position;
    summary.win = root.answer[kWin];
    summary.draw = root.answer[kDraw];
    summary.answer = answer_text(root.answer[kWin], root.answer[kDraw]);
    summary.nodes = nodes_.size();
    summary.threshold = threshold_;
    for (const Node& n : nodes_) {
      const StoredNode& s = n.stored;
      if (settled(s.answer)) {
        ++summary.proven;
      } else {
        ++summary.open;
        if (likely(n)) ++summary.likely;
      }
    }
    if (const auto target = next_target()) {
      fresh();
      const Numbers numbers = numbers_of(root_, root.answer[kWin] == kUnknown ? kWin : kDraw);
      summary.root_proof = numbers.proof;
      summary.root_disproof = numbers.disproof;
    }
  }

  const G& game_;
  db::Database* database_;
  Store& store_;
  const ProveOptions& options_;
  search::Databases<G> probes_;
  std::vector<Node> nodes_;
  std::unordered_map<std::uint64_t, int> index_;
  std::deque<int> pending_;
  std::vector<std::pair<std::uint64_t, Numbers>> memo_;
  std::uint64_t stamp_ = 0;
  std::vector<int> targets_;
  int root_ = 0;
  std::int32_t threshold_ = 20;
  std::int64_t seq_ = 0;
  int stuck_ = 0;
  double effort_ = 0;  // the tree's jobs since the last stuck job, in units of a job's budget
  std::map<std::string, std::string> meta_;
  JobRunner runner_;
  std::vector<std::unique_ptr<Tables>> tables_;  // each worker's, where they are kept
};

}  // namespace gs::prove
