#pragma once
// Values as integers for the search, and the threshold questions all three searches ask.
//
// A score orders values by the preference of the side to move, with the depth in it
// (depth-corrected scores: a shorter win scores higher, a longer loss scores higher):
//
//   loss in 0 ... loss in d ... | draw | ... win in d ... win in 1
//   -kMate    ... -kMate + d    |  0   | ...  kMate - d ... kMate - 1
//
// Scores are always from the side to move at the node they belong to, so a table entry
// needs no adjustment for the ply where it is read (the child's win in d is the parent's
// loss in d + 1: parent_score below).
//
// Every search answers questions "is the value at least t?" for a threshold score t.
// Binary questions are the thresholds kWinThreshold (is it a win?) and kDrawThreshold
// (is it at least a draw?); the question a child must answer for its parent's follows
// from the scores: the parent's value is at least t iff some child's value is below
// child_threshold(t). For the binary questions the two alternate ply by ply.
#include <algorithm>
#include <cstdint>

#include "core/value.h"

namespace gs::search {

using Score = std::int32_t;

inline constexpr Score kMate = 32000;  // kMate - kMaxDepth stays far above the draw
inline constexpr Score kWinThreshold = 1;
inline constexpr Score kDrawThreshold = 0;

inline constexpr Score score_of(Value value) {
  switch (value.outcome()) {
    case Outcome::kWin: return kMate - value.depth();
    case Outcome::kLoss: return -kMate + value.depth();
    case Outcome::kDraw: break;
  }
  return 0;
}

// The value of a score that is one (a win, a loss or the draw).
inline constexpr Value value_of(Score score) {
  if (score > 0) return Value::win(static_cast<Depth>(kMate - score));
  if (score < 0) return Value::loss(static_cast<Depth>(kMate + score));
  return Value::draw();
}

// The value of the position before a move, from the value of the position after it
// (Value::before_move on scores).
inline constexpr Score parent_score(Score child) {
  if (child > 0) return 1 - child;
  if (child < 0) return -1 - child;
  return 0;
}

// The smallest score of a win and the largest of a loss.
inline constexpr Score kWorstWin = kMate - kMaxDepth;
inline constexpr Score kBestLoss = -kMate + kMaxDepth;

// Thresholds that ask the same question as t: every t between the largest loss and the
// draw asks "at least a draw?", every t between the draw and the smallest win asks "a
// win?". Keeps the binary questions at two values, so that table keys agree.
inline constexpr Score normalized(Score t) {
  if (t > kBestLoss && t <= 0) return kDrawThreshold;
  if (t > 0 && t <= kWorstWin) return kWinThreshold;
  return t;
}

// The threshold of the children's question: value(parent) >= t iff some child has a
// value < child_threshold(t) (parent_score is decreasing, so this inverts it).
inline constexpr Score child_threshold(Score t) {
  if (t > 0) return normalized(-t);
  if (t == 0) return kWinThreshold;
  return normalized(2 - t);
}

// Proven bounds on the value of a position: lower <= value <= upper.
struct Bounds {
  Score lower = -kMate;
  Score upper = kMate;
  [[nodiscard]] bool exact() const { return lower == upper; }
  [[nodiscard]] bool passes(Score t) const { return lower >= t; }  // value >= t is proven
  [[nodiscard]] bool fails(Score t) const { return upper < t; }    // value < t is proven
  [[nodiscard]] bool decides(Score t) const { return passes(t) || fails(t); }
  static Bounds of(Value value) { return {score_of(value), score_of(value)}; }
  // A position that is not over: it needs at least one move to win.
  static Bounds not_over() { return {-kMate, kMate - 1}; }
  // A win, draw or loss without its depth (a win/draw/loss database).
  static Bounds outcome(Outcome outcome) {
    switch (outcome) {
      case Outcome::kWin: return {kWorstWin, kMate - 1};
      case Outcome::kLoss: return {-kMate, kBestLoss};
      case Outcome::kDraw: break;
    }
    return {0, 0};
  }
  [[nodiscard]] Bounds intersect(Bounds other) const {
    return {std::max(lower, other.lower), std::min(upper, other.upper)};
  }
};

// The bounds of a parent from the bounds of one child: the parent can do at least as
// well as parent_score(upper) through this child, and no better than parent_score(lower).
inline constexpr Score parent_lower(const Bounds& child) { return parent_score(child.upper); }
inline constexpr Score parent_upper(const Bounds& child) { return parent_score(child.lower); }

}  // namespace gs::search
