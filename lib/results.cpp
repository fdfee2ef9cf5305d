#include "gamesolver/results.h"

#include <nlohmann/json.hpp>

#include "app/position_report.h"
#include "lib/report_data.h"

namespace gamesolver {

namespace {

const char* outcome_text(Outcome outcome) {
  switch (outcome) {
    case Outcome::kWin: return "win";
    case Outcome::kLoss: return "loss";
    case Outcome::kDraw: break;
  }
  return "draw";
}

}  // namespace

std::string Value::text() const {
  if (outcome == Outcome::kDraw || !depth) return outcome_text(outcome);
  return std::string(outcome_text(outcome)) + " in " + std::to_string(*depth);
}

std::string Report::json() const { return data_ ? gs::app::to_json(data_->report).dump(2) : "null"; }

std::string Report::compact_json() const {
  // Text that is not UTF-8 (a position or move as typed) is replaced, not thrown on.
  return data_
             ? gs::app::to_json(data_->report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
             : "null";
}

std::string Report::text() const { return data_ ? gs::app::report_text(data_->report) : ""; }

namespace detail {

std::optional<Value> public_value(const std::optional<gs::Value>& value, bool depth) {
  if (!value) return std::nullopt;
  Value out;
  switch (value->outcome()) {
    case gs::Outcome::kWin: out.outcome = Outcome::kWin; break;
    case gs::Outcome::kLoss: out.outcome = Outcome::kLoss; break;
    case gs::Outcome::kDraw: out.outcome = Outcome::kDraw; break;
  }
  if (!value->is_draw() && depth) out.depth = value->depth();
  return out;
}

}  // namespace detail

}  // namespace gamesolver
