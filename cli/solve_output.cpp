// `solve`'s result as text or JSON: the answer, the root's proof numbers per question,
// the principal variation and the search's counts.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "app/position_report.h"
#include "cli/output.h"
#include "search/report.h"

namespace gs::cli {

namespace {

nlohmann::json solve_json(const search::SolveReport& report) {
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
    outcome = outcome_name(report.answer.lowest);
  }
  nlohmann::json value = nullptr;
  if (report.answer.value) value = app::json_value(report.answer.value);
  return {{"algorithm", report.algorithm},
          {"question", report.question},
          {"result", report.answer.text()},
          {"outcome", outcome != nullptr ? nlohmann::json(outcome) : nlohmann::json(nullptr)},
          {"value", value},
          {"at_least", outcome_name(report.answer.lowest)},
          {"at_most", outcome_name(report.answer.highest)},
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

void print_search(std::ostream& out, const search::SolveReport& report) {
  const search::SearchStats& s = report.stats;
  out << fmt::format("result: {}{}\n", report.answer.text(),
                     report.stopped.empty() ? "" : fmt::format(" (stopped: {})", report.stopped));
  for (const search::QuestionReport& q : report.questions) {
    const std::string answer = !q.answer ? "unknown" : *q.answer ? "yes" : "no";
    const auto number = [](std::uint64_t n) {
      return n == search::kInfinite ? std::string("inf") : std::to_string(n);
    };
    if (report.algorithm == "alphabeta") {
      out << fmt::format("  {}? {}  ({} nodes, {:.2f}s)\n", q.name(), answer, q.nodes, q.seconds);
    } else {
      out << fmt::format("  {}? {}  (root proof number {}, disproof number {}; {} nodes, {:.2f}s)\n",
                         q.name(), answer, number(q.proof), number(q.disproof), q.nodes, q.seconds);
    }
  }
  out << fmt::format("principal variation: {}\n",
                     report.principal_variation.empty()
                         ? "-"
                         : fmt::format("{}", fmt::join(report.principal_variation, " ")));
  out << fmt::format("nodes: {} in {:.2f}s ({:.0f} nodes/s, one thread)\n", s.nodes, s.seconds,
                     s.nodes_per_second());
  out << fmt::format(
      "leaves: {} ({:.1f}% from databases, {} by the rules, {} from the table, {} repetitions, {} at the "
      "depth "
      "limit)\n",
      s.leaves, 100 * s.database_fraction(), s.terminal_leaves, s.table_leaves, s.repetition_leaves,
      s.horizon_leaves);
  out << fmt::format(
      "table: {} of {} entries ({:.1f}%), {:.1f} MiB{}\n", s.table_entries, s.table_capacity,
      s.table_capacity > 0
          ? 100.0 * static_cast<double>(s.table_entries) / static_cast<double>(s.table_capacity)
          : 0.0,
      static_cast<double>(s.table_bytes) / (1 << 20),
      report.algorithm == "df-pn" ? fmt::format(", {} garbage collections", s.collections) : "");
  if (report.algorithm == "pns")
    out << fmt::format("tree: {} nodes at the end, {} at most, {} garbage collections\n", s.tree_nodes,
                       s.tree_peak, s.collections);
  out << fmt::format("proven results: {}, of which {} depended on the line (kept apart)\n", s.proven,
                     s.path_dependent);
  out << fmt::format(
      "deepest line: {} plies{}\n", s.deepest,
      report.deepest_line.empty() ? "" : fmt::format(": {}", fmt::join(report.deepest_line, " ")));
}

}  // namespace

void print_solve(std::ostream& out, const app::SolveResult& solve, bool json) {
  if (json) {
    nlohmann::json body = solve_json(solve.report);
    body["game"] = solve.label.game;
    body["variant"] = solve.label.variant;
    body["position"] = solve.position;
    out << body.dump(2) << "\n";
    return;
  }
  out << solve.position << "\n";
  out << fmt::format("{} on the question '{}', databases from {}\n", solve.report.algorithm,
                     solve.report.question, solve.directory);
  print_search(out, solve.report);
}

}  // namespace gs::cli
