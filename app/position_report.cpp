#include "app/position_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace gs::app {

const char* outcome_name(const Value& value) { return gs::outcome_name(value.outcome()); }

nlohmann::json json_value(const std::optional<Value>& value, bool depth) {
  if (!value) return nullptr;
  nlohmann::json out = {{"outcome", outcome_name(*value)}};
  if (!value->is_draw() && depth) out["depth"] = value->depth();
  return out;
}

std::string value_text(const std::optional<Value>& value, bool depth) {
  if (!value) return "not in the databases";
  if (!depth) return outcome_name(*value);
  return value->to_string();
}

std::string report_value_text(const PositionReport& report) {
  if (!report.value && !report.missing_tier.empty())
    return "not in the databases (tier " + report.missing_tier + " is not built)";
  if (!report.value && report.beyond) {
    return "not in the databases (more pieces than their tiers: they hold up to " +
           std::to_string(*report.beyond) + ")";
  }
  return value_text(report.value, report.depth);
}

std::string report_text(const PositionReport& report) {
  std::string out = report.position + "\n" + report.board;
  if (report.ranked) out += fmt::format("tier {} index {}\n", report.tier, report.ranked->index);
  if (report.terminal) {
    return out + fmt::format("value: {} ({})\n", report.value->to_string(),
                             report.no_legal_move ? "no legal move: the game is over" : "the game is over");
  }
  out += fmt::format("value: {}\n", report_value_text(report));
  if (report.ultra) out += fmt::format("ultra ({}): {}\n", report.ultra_heuristic, *report.ultra);
  for (const auto& row : report.moves) {
    out += fmt::format("  {:<8} {:<16} {}{}\n", row.move, value_text(row.value, row.depth), row.position,
                       row.ultra ? "  ultra: " + *row.ultra : "");
  }
  return out;
}

nlohmann::json to_json(const PositionReport& report) {
  nlohmann::json out;
  out["game"] = report.game;
  out["variant"] = report.variant;
  out["rules"] = report.rules;
  out["position"] = report.position;
  if (report.side) out["side"] = *report.side;
  out["terminal"] = report.terminal;
  out["no_legal_move"] = report.no_legal_move;
  out["value"] = json_value(report.value, report.depth);
  out["missing_tier"] =
      report.missing_tier.empty() ? nlohmann::json(nullptr) : nlohmann::json(report.missing_tier);
  if (report.ranked) {
    out["tier"] = report.tier;
    out["index"] = report.ranked->index;
  }
  out["moves"] = nlohmann::json::array();
  for (const auto& row : report.moves) {
    nlohmann::json move = {
        {"move", row.move}, {"position", row.position}, {"value", json_value(row.value, row.depth)}};
    if (row.ultra) move["ultra"] = *row.ultra;
    out["moves"].push_back(move);
  }
  if (report.ultra) {
    out["ultra"] = *report.ultra;
    out["ultra_heuristic"] = report.ultra_heuristic;
  }
  out["best"] = report.best ? nlohmann::json(report.moves[*report.best].move) : nlohmann::json(nullptr);
  if (report.played) out["played"] = *report.played;
  return out;
}

}  // namespace gs::app
