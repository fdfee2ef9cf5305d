#pragma once
// `gamesolver solve <game> "<position>"`: proves the value of a position by search
// (search/solve.h), probing the databases under --data at the leaves, and prints the
// result, a principal variation and the counts (text, or JSON with --json).
#include <fmt/format.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/driver.h"
#include "cli/game_info.h"
#include "core/error.h"
#include "core/game.h"
#include "db/database.h"
#include "search/report.h"
#include "search/solve.h"

namespace gs::cli {

inline nlohmann::json solve_json(const search::SolveReport& report) {
  const search::SearchStats& s = report.stats;
  nlohmann::json questions = nlohmann::json::array();
  for (const search::QuestionReport& q : report.questions) {
    questions.push_back({{"question", q.name()},
                         {"answer", q.answer ? nlohmann::json(*q.answer) : nlohmann::json(nullptr)},
                         {"proof", q.proof},
                         {"disproof", q.disproof},
                         {"nodes", q.nodes},
                         {"seconds", q.seconds}});
  }
  const char* outcome = nullptr;
  if (report.answer.known()) {
    outcome = report.answer.lowest == Outcome::kWin    ? "win"
              : report.answer.lowest == Outcome::kDraw ? "draw"
                                                       : "loss";
  }
  nlohmann::json value = nullptr;
  if (report.answer.value) value = json_value(report.answer.value);
  return {{"algorithm", report.algorithm},
          {"question", report.question},
          {"result", report.answer.text()},
          {"outcome", outcome != nullptr ? nlohmann::json(outcome) : nlohmann::json(nullptr)},
          {"value", value},
          {"at_least", report.answer.lowest == Outcome::kWin    ? "win"
                       : report.answer.lowest == Outcome::kDraw ? "draw"
                                                                : "loss"},
          {"at_most", report.answer.highest == Outcome::kWin    ? "win"
                      : report.answer.highest == Outcome::kDraw ? "draw"
                                                                : "loss"},
          {"principal_variation", report.principal_variation},
          {"deepest_line", report.deepest_line},
          {"questions", questions},
          {"stopped", report.stopped.empty() ? nlohmann::json(nullptr) : nlohmann::json(report.stopped)},
          {"nodes", s.nodes},
          {"seconds", s.seconds},
          {"nodes_per_second", s.nodes_per_second()},
          {"leaves",
           {{"total", s.leaves},
            {"terminal", s.terminal_leaves},
            {"database", s.database_leaves},
            {"table", s.table_leaves},
            {"repetition", s.repetition_leaves},
            {"horizon", s.horizon_leaves},
            {"database_fraction", s.database_fraction()}}},
          {"proven_results", s.proven},
          {"path_dependent_results", s.path_dependent},
          {"table",
           {{"entries", s.table_entries},
            {"capacity", s.table_capacity},
            {"bytes", s.table_bytes},
            {"collections", s.collections}}},
          {"tree", {{"nodes", s.tree_nodes}, {"peak", s.tree_peak}}},
          {"deepest", s.deepest},
          {"threads", 1}};
}

inline void print_solve(const search::SolveReport& report) {
  const search::SearchStats& s = report.stats;
  fmt::print("result: {}{}\n", report.answer.text(),
             report.stopped.empty() ? "" : fmt::format(" (stopped: {})", report.stopped));
  for (const search::QuestionReport& q : report.questions) {
    const std::string answer = !q.answer ? "unknown" : *q.answer ? "yes" : "no";
    const auto number = [](std::uint64_t n) {
      return n == search::kInfinite ? std::string("inf") : std::to_string(n);
    };
    if (report.algorithm == "alphabeta") {
      fmt::print("  {}? {}  ({} nodes, {:.2f}s)\n", q.name(), answer, q.nodes, q.seconds);
    } else {
      fmt::print("  {}? {}  (root proof number {}, disproof number {}; {} nodes, {:.2f}s)\n", q.name(),
                 answer, number(q.proof), number(q.disproof), q.nodes, q.seconds);
    }
  }
  fmt::print("principal variation: {}\n",
             report.principal_variation.empty()
                 ? "-"
                 : fmt::format("{}", fmt::join(report.principal_variation, " ")));
  fmt::print("nodes: {} in {:.2f}s ({:.0f} nodes/s, one thread)\n", s.nodes, s.seconds, s.nodes_per_second());
  fmt::print(
      "leaves: {} ({:.1f}% from databases, {} by the rules, {} from the table, {} repetitions, {} at the "
      "depth "
      "limit)\n",
      s.leaves, 100 * s.database_fraction(), s.terminal_leaves, s.table_leaves, s.repetition_leaves,
      s.horizon_leaves);
  fmt::print("table: {} of {} entries ({:.1f}%), {:.1f} MiB{}\n", s.table_entries, s.table_capacity,
             s.table_capacity > 0
                 ? 100.0 * static_cast<double>(s.table_entries) / static_cast<double>(s.table_capacity)
                 : 0.0,
             static_cast<double>(s.table_bytes) / (1 << 20),
             report.algorithm == "df-pn" ? fmt::format(", {} garbage collections", s.collections) : "");
  if (report.algorithm == "pns")
    fmt::print("tree: {} nodes at the end, {} at most, {} garbage collections\n", s.tree_nodes, s.tree_peak,
               s.collections);
  fmt::print("proven results: {}, of which {} depended on the line (kept apart)\n", s.proven,
             s.path_dependent);
  fmt::print("deepest line: {} plies{}\n", s.deepest,
             report.deepest_line.empty() ? "" : fmt::format(": {}", fmt::join(report.deepest_line, " ")));
}

template <Game G>
int solve_command(const G& game, const CommonOptions& options, const SolveRequest& request,
                  const std::string& text) {
  const search::Algorithm algorithm = search::parse_algorithm(request.algorithm);
  const search::Question question = search::parse_question(request.question);
  if (request.seconds < 0) fail("--time must not be negative");
  if (request.memory_gib <= 0) fail("--memory must be positive");
  const typename G::Position pos = game.parse_position(text);
  db::Database database(db::Location::of(game, options.data));
  search::SearchOptions search_options;
  search_options.seconds = request.seconds;
  search_options.memory_bytes =
      static_cast<std::uint64_t>(request.memory_gib * static_cast<double>(1ULL << 30));
  search_options.quiet = options.quiet;
  const search::SolveReport report = search::solve(game, &database, pos, algorithm, question, search_options);
  if (options.json) {
    nlohmann::json out = solve_json(report);
    out["game"] = std::string(G::kName);
    out["variant"] = game.variant();
    out["position"] = game.position_text(pos);
    fmt::print("{}\n", out.dump(2));
    return 0;
  }
  fmt::print("{}\n", game.position_text(pos));
  fmt::print("{} on the question '{}', databases from {}\n", report.algorithm, report.question,
             database.location().directory().string());
  print_solve(report);
  return 0;
}

}  // namespace gs::cli
