#include "core/value.h"

#include <fmt/format.h>

namespace gs {

std::string Value::to_string() const {
  switch (outcome_) {
    case Outcome::kWin: return fmt::format("win in {}", depth_);
    case Outcome::kLoss: return fmt::format("loss in {}", depth_);
    case Outcome::kDraw: break;
  }
  return "draw";
}

std::string Value::short_string() const {
  switch (outcome_) {
    case Outcome::kWin: return fmt::format("W{}", depth_);
    case Outcome::kLoss: return fmt::format("L{}", depth_);
    case Outcome::kDraw: break;
  }
  return "D";
}

}  // namespace gs
