#include "cli/play_loop.h"

#include <fmt/format.h>

#include <system_error>

#include "core/error.h"
#include "core/pdn.h"

namespace gs::cli {

int play_loop(app::GameService& service, const app::CommonOptions& common, const app::PlayRequest& request,
              const PlayOptions& options, std::istream& in, std::ostream& out) {
  std::error_code same_error;
  if (options.save && request.pdn && std::filesystem::equivalent(*options.save, *request.pdn, same_error))
    fail("play: --save {} would overwrite the game file read with --pdn", options.save->string());
  const std::unique_ptr<app::PlaySession> session = service.play(common, request);
  if (request.pdn) {
    out << fmt::format("{} moves of game {} of {} replayed\n", session->replayed(), request.game,
                       request.pdn->string());
  }
  // The game played so far is saved however the session ends.
  auto finish = [&]() {
    if (options.save) {
      pdn::write_file(*options.save, session->pdn_text());
      out << fmt::format("game saved to {}\n", options.save->string());
    }
    return 0;
  };
  const auto names = service.side_names();
  int human_side = session->side_to_move();
  if (options.human == names[0]) human_side = 0;
  if (options.human == names[1]) human_side = 1;
  std::string line;
  while (true) {
    const app::PositionReport report = session->report();
    out << "\n" << (report.board.empty() ? report.position + "\n" : report.board);
    if (report.terminal) {
      out << fmt::format("{}: {} for the side to move\n",
                         report.no_legal_move ? "no legal move" : "game over",
                         report.rules_value->to_string());
      return finish();
    }
    out << fmt::format("value: {}\n", app::value_text(report.value, report.depth));
    if (session->side_to_move() == human_side) {
      out << "your move (or 'quit'): ";
      out.flush();
      if (!std::getline(in, line) || line == "quit") return finish();
      try {
        session->play(line);
      } catch (const Error& error) {
        out << error.what() << "\n";
      }
      continue;
    }
    // The perfect move: the report's first row, the shortest win, else a draw, else the
    // longest loss.
    if (!report.value || !report.moves.front().value) {
      out << fmt::format(
          "this position is beyond the databases ({} is not built): the perfect player cannot move from "
          "here\n",
          report.tier);
      return finish();
    }
    const app::PositionReport::Row& best = report.moves.front();
    out << fmt::format("gamesolver plays {} ({})\n", best.move, best.value->to_string());
    session->play(best.move);
  }
}

}  // namespace gs::cli
