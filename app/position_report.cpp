#include "app/position_report.h"

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

nlohmann::json to_json(const PositionReport& report) {
  nlohmann::json out;
  out["game"] = report.game;
  out["variant"] = report.variant;
  out["rules"] = report.rules;
  out["position"] = report.position;
  if (report.side) out["side"] = *report.side;
  out["terminal"] = report.terminal;
  out["value"] = json_value(report.value, report.depth);
  if (report.ranked) {
    out["tier"] = report.tier;
    out["index"] = report.ranked->index;
  }
  out["moves"] = nlohmann::json::array();
  for (const auto& row : report.moves) {
    out["moves"].push_back(
        {{"move", row.move}, {"position", row.position}, {"value", json_value(row.value, row.depth)}});
  }
  out["best"] = report.best ? nlohmann::json(report.moves[*report.best].move) : nlohmann::json(nullptr);
  return out;
}

}  // namespace gs::app
