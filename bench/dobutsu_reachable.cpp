// Dobutsu shogi's figures beside Tanaka's (docs/games/dobutsu.md, "The solution"): the
// positions reachable from the start, and the wins, draws and losses among them and
// among all positions, read from a built database.
//
//   dobutsu_reachable DATA [--reachable-only]    (after: gamesolver build dobutsu --data DATA)
//
// Positions are counted as Tanaka counts them: with the side to move put as sente (the
// board turned), but the mirror images counted apart (an index whose position is not its
// own mirror stands for two). Reachability follows Tanaka's convention: a position in
// which the side to move can capture the opponent's lion, or whose game is over, is
// reached but not expanded (its player takes the lion; the game has ended).
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string_view>
#include <vector>

#include "db/database.h"
#include "games/dobutsu/dobutsu.h"

namespace {

using gs::Index;
using gs::dobutsu::Dobutsu;
using gs::dobutsu::Position;

struct Tally {
  std::uint64_t positions = 0, wins = 0, draws = 0, losses = 0;
  void add(gs::ValueCode code, std::uint64_t weight) {
    positions += weight;
    const gs::Value value = gs::Value::from_code(code);
    (value.is_win() ? wins : value.is_loss() ? losses : draws) += weight;
  }
  void print(const char* what) const {
    std::printf("%s: %llu positions, %llu wins, %llu draws, %llu losses (for the side to move)\n", what,
                static_cast<unsigned long long>(positions), static_cast<unsigned long long>(wins),
                static_cast<unsigned long long>(draws), static_cast<unsigned long long>(losses));
  }
};

bool can_take_lion(const Position& pos) {
  const int lion = Dobutsu::lion_square(pos, pos.side ^ 1);
  return lion >= 0 && Dobutsu::attacks(pos, pos.side, lion);
}

int run(const char* data, bool reachable_only) {
  const Dobutsu game;
  gs::db::Database database(gs::db::Location::of(game, data));
  const gs::db::TierReader* reader = database.find(game, 0);
  if (reader == nullptr) {
    std::fprintf(stderr, "dobutsu_reachable: no dobutsu database under %s\n", data);
    return 1;
  }
  const Index size = game.size(0);
  Tally all;
  for (Index index = 0; index < size && !reachable_only; ++index) {
    const auto pos = game.unrank(0, index);
    if (!pos) continue;
    all.add(reader->code(index), Dobutsu::has_symmetry(*pos) ? 1 : 2);
  }
  if (!reachable_only) all.print("all positions");

  std::vector<bool> seen(size, false);
  std::vector<std::uint32_t> frontier;
  std::vector<std::uint32_t> next;
  Tally reached;
  std::uint64_t classes = 0;  // indices reached: positions up to the mirror
  const Position start = game.start();
  const Index first = game.rank(start).index;
  seen[first] = true;
  frontier.push_back(static_cast<std::uint32_t>(first));
  gs::MoveList<Dobutsu> moves;
  int ply = 0;
  while (!frontier.empty()) {
    next.clear();
    for (const std::uint32_t index : frontier) {
      const Position pos = *game.unrank(0, index);
      reached.add(reader->code(index), Dobutsu::has_symmetry(pos) ? 1 : 2);
      ++classes;
      if (Dobutsu::terminal(pos) || can_take_lion(pos)) continue;
      game.moves(pos, moves);
      for (const auto& move : moves) {
        const Position after = Dobutsu::play(pos, move);
        if (Dobutsu::lion_square(after, after.side) < 0) continue;  // a lion was taken
        const Index at = game.rank(after).index;
        if (seen[at]) continue;
        seen[at] = true;
        next.push_back(static_cast<std::uint32_t>(at));
      }
    }
    frontier.swap(next);
    ++ply;
  }
  reached.print("reachable from the start");
  std::printf("reachable up to the mirror: %llu positions\n", static_cast<unsigned long long>(classes));
  std::printf("plies to the last new position: %d\n", ply - 1);
  std::printf("start: %s\n", gs::Value::from_code(reader->code(first)).to_string().c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool reachable_only = argc == 3 && std::string_view(argv[2]) == "--reachable-only";
  if (argc != 2 && !reachable_only) {
    std::fprintf(stderr, "usage: dobutsu_reachable DATA [--reachable-only]\n");
    return 2;
  }
  try {
    return run(argv[1], reachable_only);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dobutsu_reachable: %s\n", e.what());
    return 1;
  }
}
