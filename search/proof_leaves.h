#pragma once
// What proof-number search knows of a position before searching it, for one question
// ("value >= t?", t binary): PNS and df-pn call this for every child they generate.
//
// In order, the first that answers:
//   1. the rules: the game is over there;
//   2. a solved entry of the table that depends on no line (also the other binary
//      question's: a win is at least a draw, and what is not at least a draw is no win);
//   3. the databases;
//   4. a repetition of a position on the current line: a draw, a result that depends on
//      the line from the repeated position on;
//   5. a solved entry kept for exactly this line (search/proof_table.h);
//   6. the table's estimate for an unsolved position, or proof = disproof = 1.
//
// Proven results that hold anywhere (2, 3) come before the repetition (4): docs/SEARCH.md
// shows that answering a repeated position by its true value instead of a draw keeps
// the root's value right, and such an answer does not depend on the line.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "core/game.h"
#include "db/database.h"
#include "search/databases.h"
#include "search/key.h"
#include "search/proof_table.h"
#include "search/report.h"
#include "search/score.h"

namespace gs::search {

// The tag of a child in a table entry's `best`: the top bits of its key, so that a
// symmetric copy of the parent finds the corresponding child; children where the game
// is over share one tag.
inline std::uint16_t child_tag(std::uint64_t position_key) {
  return position_key == 0 ? 0xFFFF : static_cast<std::uint16_t>((position_key >> 48) | 1U);
}

struct Look {
  std::uint64_t key = 0;       // the position's key (search/key.h); 0 where the game is over
  std::uint64_t question = 0;  // the key of its entry for the question
  std::uint64_t exact = 0;
  std::uint32_t proof = 1;  // of the question, for the side to move there
  std::uint32_t disproof = 1;
  std::uint32_t work = 0;
  int dependency = kIndependent;  // of a solved result: the earliest ply of the line it used
  [[nodiscard]] bool solved() const { return proof == 0 || disproof == 0; }
  void solve(bool answer, int depends_on = kIndependent) {
    proof = answer ? 0 : kInfinite;
    disproof = answer ? kInfinite : 0;
    dependency = depends_on;
  }
};

template <Game G>
class ProofLeaves {
 public:
  using Position = typename G::Position;

  ProofLeaves(const G& game, db::Database* database, ProofTable& table, SearchStats& stats)
      : game_(game), databases_(game, database), table_(table), stats_(stats) {}

  // What look() works out before it reads the table: whether the game is over, else the
  // position's rank and keys. Making it also prefetches the table entries look() reads,
  // so that a node's children, all prepared before any is looked at, wait for their
  // entries together rather than one after another.
  struct Prepared {
    std::uint64_t exact = 0;
    std::optional<Value> over;
    Ranked ranked{};
    std::uint64_t key = 0;
    std::uint64_t question = 0;
  };
  Prepared prepare(const Position& pos, Score t) const {
    Prepared p;
    p.exact = exact(game_, pos);
    p.over = game_.terminal(pos);
    if (p.over) return p;
    p.ranked = game_.rank(pos);
    p.key = key_of(p.ranked);
    p.question = ProofTable::question_key(p.key, t);
    table_.prefetch(p.question);  // the other question's entry and the line's: the same bucket
    return p;
  }

  Look look(const Position& pos, Score t, const Path<G>& path) { return look(pos, prepare(pos, t), t, path); }
  // The same, from prepare(pos, t).
  Look look(const Position& pos, const Prepared& prepared, Score t, const Path<G>& path) {
    Look look;
    look.exact = prepared.exact;
    if (prepared.over) {
      look.solve(score_of(*prepared.over) >= t);
      count(stats_.terminal_leaves);
      return look;
    }
    const Ranked& ranked = prepared.ranked;
    look.key = prepared.key;
    look.question = prepared.question;
    const ProofTable::Entry* anywhere = table_.find(look.question, 0);
    if (anywhere != nullptr && anywhere->solved()) {
      look.proof = anywhere->proof;
      look.disproof = anywhere->disproof;
      count(stats_.table_leaves);
      return look;
    }
    if (t == kDrawThreshold || t == kWinThreshold) {
      const Score other = t == kDrawThreshold ? kWinThreshold : kDrawThreshold;
      const ProofTable::Entry* entry = table_.find(ProofTable::question_key(look.key, other), 0);
      // A win is at least a draw; what is not at least a draw is not a win.
      if (entry != nullptr && entry->proof == 0 && other == kWinThreshold) {
        look.solve(true);
        count(stats_.table_leaves);
        return look;
      }
      if (entry != nullptr && entry->disproof == 0 && other == kDrawThreshold) {
        look.solve(false);
        count(stats_.table_leaves);
        return look;
      }
    }
    if (const auto bounds = databases_.probe(ranked); bounds && bounds->decides(t)) {
      look.solve(bounds->passes(t));
      count(stats_.database_leaves);
      return look;
    }
    if (const int ply = path.repetition(pos, look.exact); ply != Path<G>::kNone) {
      look.solve(0 >= t, ply);
      count(stats_.repetition_leaves);
      return look;
    }
    if (const ProofTable::Entry* here = table_.find(look.question, path.line_with(look.exact));
        here != nullptr && here->solved()) {
      look.proof = here->proof;
      look.disproof = here->disproof;
      look.dependency = here->dependency;
      count(stats_.table_leaves);
      return look;
    }
    if (anywhere != nullptr) {
      look.proof = anywhere->proof;
      look.disproof = anywhere->disproof;
      look.work = anywhere->work;
    }
    return look;
  }

  // Stores what a search found for a position at the end of the line `path` (the
  // position itself included): a solved result that depends on the line under the
  // line's hash, everything else for anywhere. `unsafe` stores everything for anywhere
  // (the bug the tests show).
  void store(const Look& look, std::uint16_t best, const Path<G>& path, bool unsafe) {
    put(look, best, path.size() - 1, path.line(), unsafe);
  }

  // The same for a search that keeps what depends on the line itself (PNS, in its tree
  // of lines): such a result is counted, not stored.
  void store_in_tree(const Look& look, int ply, bool unsafe) { put(look, 0, ply, std::nullopt, unsafe); }

  Databases<G>& databases() { return databases_; }

 private:
  void put(const Look& look, std::uint16_t best, int ply, std::optional<std::uint64_t> line, bool unsafe) {
    if (look.question == 0) return;  // the game is over there
    ProofTable::Entry entry;
    entry.key = look.question;
    entry.proof = look.proof;
    entry.disproof = look.disproof;
    entry.work = look.work;
    entry.best = best;
    stats_.proven += look.solved() ? 1 : 0;
    if (look.solved() && look.dependency < ply) {
      ++stats_.path_dependent;
      if (!unsafe) {
        if (!line) return;
        entry.line = *line;
        entry.dependency = static_cast<std::uint16_t>(std::min(look.dependency, 0xFFFF));
      }
    }
    table_.store(entry);
  }

  void count(std::uint64_t& kind) {
    ++kind;
    ++stats_.leaves;
  }

  const G& game_;
  Databases<G> databases_;
  ProofTable& table_;
  SearchStats& stats_;
};

}  // namespace gs::search
