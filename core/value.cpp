#include "core/value.h"

#include <fmt/format.h>

namespace gs {

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::kWin: return "win";
    case Outcome::kLoss: return "loss";
    case Outcome::kDraw: break;
  }
  return "draw";
}

std::string Value::to_string() const {
  if (is_draw()) return outcome_name(outcome_);
  return fmt::format("{} in {}", outcome_name(outcome_), depth_);
}

}  // namespace gs
