#pragma once
// What a gamesolver::Report (gamesolver/results.h) keeps of the service's report, to
// format it as the command does when asked, and the conversions from the service's
// values to the library's.
#include <optional>

#include "app/position_report.h"
#include "core/value.h"
#include "gamesolver/results.h"

namespace gamesolver::detail {

struct ReportData {
  gs::app::PositionReport report;
};

// A value as the library gives it: the depth only where the databases keep one.
std::optional<Value> public_value(const std::optional<gs::Value>& value, bool depth);

}  // namespace gamesolver::detail
