// The C API (gamesolver/gamesolver.h) over the C++ library: every call catches what the
// C++ library throws and returns its kind as a status, the message kept per thread.
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gamesolver/database.h"
#include "gamesolver/gamesolver.h"

struct gs_database {  // NOLINT(readability-identifier-naming): the C API's name
  gamesolver::Database database;
};

struct gs_report {  // NOLINT(readability-identifier-naming): the C API's name
  gamesolver::Report report;
  // Made on first request: the report is its caller's alone (not shared between
  // threads), so this needs no lock.
  mutable std::string json;
  mutable std::string text;
  mutable bool json_made = false;
  mutable bool text_made = false;
};

namespace {

thread_local std::string last_error;

gs_status fail(gs_status status, std::string message) {
  last_error = std::move(message);
  return status;
}

// Runs body (which returns GS_OK), turning any exception into its status.
template <class Body>
gs_status guarded(Body&& body) noexcept {
  try {
    return std::forward<Body>(body)();
  } catch (const gamesolver::Error& error) {
    return fail(static_cast<gs_status>(error.kind()), error.what());
  } catch (const std::bad_alloc&) {
    return fail(GS_ERROR_INTERNAL, "out of memory");
  } catch (const std::exception& error) {
    return fail(GS_ERROR_INTERNAL, error.what());
  } catch (...) {
    return fail(GS_ERROR_INTERNAL, "unknown error");
  }
}

gs_value c_value(const std::optional<gamesolver::Value>& value) {
  if (!value) return {GS_UNKNOWN, -1};
  return {static_cast<gs_outcome>(value->outcome), value->depth.value_or(-1)};
}

std::vector<std::string> split_rules(const char* rules) {
  std::vector<std::string> out;
  if (rules == nullptr) return out;
  std::string text(rules);
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string::npos ? text.size() : comma;
    if (end > start) out.push_back(text.substr(start, end - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

extern "C" {

const char* gs_last_error() { return last_error.c_str(); }

gs_status gs_open(const char* data, const char* game, const char* variant, gs_database** out) {
  return gs_open_with_rules(data, game, variant, nullptr, out);
}

gs_status gs_open_with_rules(const char* data, const char* game, const char* variant, const char* rules,
                             gs_database** out) {
  return guarded([&] {
    if (data == nullptr || game == nullptr || out == nullptr)
      return fail(GS_ERROR_INPUT, "gs_open: data, game and out must not be NULL");
    *out = new gs_database{
        gamesolver::Database::open(data, game, variant == nullptr ? "" : variant, split_rules(rules))};
    return GS_OK;
  });
}

void gs_close(gs_database* database) { delete database; }

gs_status gs_probe_value(const gs_database* database, const char* position, gs_value* out) {
  return guarded([&] {
    if (database == nullptr || position == nullptr || out == nullptr)
      return fail(GS_ERROR_INPUT, "gs_probe_value: database, position and out must not be NULL");
    *out = c_value(database->database.value(position).value);
    return GS_OK;
  });
}

gs_status gs_probe(const gs_database* database, const char* position, gs_report** out) {
  return guarded([&] {
    if (database == nullptr || position == nullptr || out == nullptr)
      return fail(GS_ERROR_INPUT, "gs_probe: database, position and out must not be NULL");
    *out = new gs_report{database->database.probe(position), {}, {}, false, false};
    return GS_OK;
  });
}

void gs_report_free(gs_report* report) { delete report; }

gs_value gs_report_value(const gs_report* report) { return c_value(report->report.value); }

const char* gs_report_position(const gs_report* report) { return report->report.position.c_str(); }

int gs_report_terminal(const gs_report* report) { return report->report.terminal ? 1 : 0; }

size_t gs_report_move_count(const gs_report* report) { return report->report.moves.size(); }

const char* gs_report_move(const gs_report* report, size_t i) {
  return i < report->report.moves.size() ? report->report.moves[i].move.c_str() : nullptr;
}

const char* gs_report_move_position(const gs_report* report, size_t i) {
  return i < report->report.moves.size() ? report->report.moves[i].position.c_str() : nullptr;
}

gs_value gs_report_move_value(const gs_report* report, size_t i) {
  if (i >= report->report.moves.size()) return {GS_UNKNOWN, -1};
  return c_value(report->report.moves[i].value);
}

const char* gs_report_best_move(const gs_report* report) {
  const auto& best = report->report.best;
  return best ? report->report.moves[*best].move.c_str() : nullptr;
}

const char* gs_report_json(const gs_report* report) {
  if (!report->json_made) {
    try {
      report->json = report->report.json();
    } catch (...) {
      return "";
    }
    report->json_made = true;
  }
  return report->json.c_str();
}

const char* gs_report_text(const gs_report* report) {
  if (!report->text_made) {
    try {
      report->text = report->report.text();
    } catch (...) {
      return "";
    }
    report->text_made = true;
  }
  return report->text.c_str();
}

const char* gs_outcome_name(gs_outcome outcome) {
  switch (outcome) {
    case GS_WIN: return "win";
    case GS_LOSS: return "loss";
    case GS_DRAW: return "draw";
    case GS_UNKNOWN: break;
  }
  return "unknown";
}

}  // extern "C"
