// The Python module gamesolver._gamesolver over the C++ library (gamesolver/database.h):
// python/gamesolver/__init__.py is its public face. Native work runs with the GIL
// released; C++ errors become gamesolver.Error and its subclasses, message unchanged.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "gamesolver/database.h"

namespace py = pybind11;

namespace {

// The exception classes, made once when the module is imported and kept by it.
struct ErrorTypes {
  PyObject* error = nullptr;
  PyObject* input = nullptr;
  PyObject* not_found = nullptr;
  PyObject* database = nullptr;
};
ErrorTypes error_types;

PyObject* new_error_type(py::module_& module, const char* name, PyObject* base, const char* doc) {
  PyObject* type = PyErr_NewExceptionWithDoc((std::string("gamesolver.") + name).c_str(), doc, base, nullptr);
  if (type == nullptr) throw py::error_already_set();
  module.attr(name) = py::handle(type);
  return type;
}

const char* outcome_name(gamesolver::Outcome outcome) {
  switch (outcome) {
    case gamesolver::Outcome::kWin: return "win";
    case gamesolver::Outcome::kLoss: return "loss";
    case gamesolver::Outcome::kDraw: break;
  }
  return "draw";
}

}  // namespace

PYBIND11_MODULE(_gamesolver, module) {
  module.doc() = "gamesolver's databases from Python: see the package gamesolver";

  error_types.error = new_error_type(module, "Error", PyExc_RuntimeError,
                                     "A gamesolver failure, with the message the gamesolver command prints.");
  error_types.input =
      new_error_type(module, "InputError", error_types.error,
                     "Bad position or move text, an illegal move, a piece count out of range.");
  error_types.not_found =
      new_error_type(module, "NotFoundError", error_types.error,
                     "An unknown game, variant or rule option, or no databases directory.");
  error_types.database = new_error_type(module, "DatabaseError", error_types.error,
                                        "A damaged or unreadable database file, or a locked directory.");
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const gamesolver::Error& error) {
      PyObject* type = error_types.error;
      switch (error.kind()) {
        case gamesolver::ErrorKind::kInput: type = error_types.input; break;
        case gamesolver::ErrorKind::kNotFound: type = error_types.not_found; break;
        case gamesolver::ErrorKind::kDatabase: type = error_types.database; break;
        case gamesolver::ErrorKind::kInternal: break;
      }
      PyErr_SetString(type, error.what());
    }
  });

  py::class_<gamesolver::Value>(module, "Value", "A value for the side to move: outcome and depth in plies.")
      .def_property_readonly(
          "outcome", [](const gamesolver::Value& value) { return outcome_name(value.outcome); },
          "'win', 'draw' or 'loss'")
      .def_readonly("depth", &gamesolver::Value::depth,
                    "plies to the end with best play; None for a draw or where no depth is kept")
      .def("__str__", &gamesolver::Value::text)
      .def("__repr__", [](const gamesolver::Value& value) { return "<Value " + value.text() + ">"; })
      .def("__eq__", [](const gamesolver::Value& a, const gamesolver::Value& b) { return a == b; });

  py::class_<gamesolver::MoveValue>(module, "MoveValue",
                                    "A legal move, the position it leads to and its value.")
      .def_readonly("move", &gamesolver::MoveValue::move)
      .def_readonly("position", &gamesolver::MoveValue::position)
      .def_readonly("value", &gamesolver::MoveValue::value, "for the side making the move; None: not known")
      .def("__repr__", [](const gamesolver::MoveValue& row) {
        return "<MoveValue " + row.move + " " + (row.value ? row.value->text() : "unknown") + ">";
      });

  py::class_<gamesolver::Report>(module, "Report",
                                 "The report of a position: what `gamesolver probe` prints.")
      .def_readonly("game", &gamesolver::Report::game)
      .def_readonly("variant", &gamesolver::Report::variant)
      .def_readonly("rules", &gamesolver::Report::rules)
      .def_readonly("position", &gamesolver::Report::position)
      .def_readonly("side", &gamesolver::Report::side)
      .def_readonly("terminal", &gamesolver::Report::terminal)
      .def_readonly("no_legal_move", &gamesolver::Report::no_legal_move)
      .def_readonly("value", &gamesolver::Report::value, "None: not in the databases")
      .def_property_readonly(
          "outcome",
          [](const gamesolver::Report& report) -> std::optional<std::string> {
            if (!report.value) return std::nullopt;
            return outcome_name(report.value->outcome);
          },
          "'win', 'draw', 'loss', or None: not in the databases")
      .def_property_readonly(
          "depth",
          [](const gamesolver::Report& report) -> std::optional<int> {
            return report.value ? report.value->depth : std::nullopt;
          },
          "plies to the end with best play, or None")
      .def_readonly("tier", &gamesolver::Report::tier)
      .def_readonly("index", &gamesolver::Report::index)
      .def_readonly("moves", &gamesolver::Report::moves, "every legal move, best first")
      .def_property_readonly(
          "best",
          [](const gamesolver::Report& report) -> std::optional<std::string> {
            if (!report.best) return std::nullopt;
            return report.moves[*report.best].move;
          },
          "the perfect player's move, or None where a move's value is not known")
      .def_readonly("missing_tier", &gamesolver::Report::missing_tier)
      .def_readonly("beyond", &gamesolver::Report::beyond)
      .def("json", &gamesolver::Report::json, "as `gamesolver probe --json` prints it")
      .def("text", &gamesolver::Report::text, "as `gamesolver probe` prints it")
      .def("__repr__", [](const gamesolver::Report& report) {
        return "<Report " + report.position + ": " + (report.value ? report.value->text() : "unknown") + ">";
      });

  py::class_<gamesolver::PositionValue>(module, "PositionValue")
      .def_readonly("value", &gamesolver::PositionValue::value)
      .def_readonly("terminal", &gamesolver::PositionValue::terminal);

  py::class_<gamesolver::TierStats>(module, "TierStats")
      .def_readonly("tier", &gamesolver::TierStats::tier)
      .def_readonly("built", &gamesolver::TierStats::built)
      .def_readonly("pieces", &gamesolver::TierStats::pieces)
      .def_readonly("indices", &gamesolver::TierStats::indices)
      .def_readonly("positions", &gamesolver::TierStats::positions)
      .def_readonly("wins", &gamesolver::TierStats::wins)
      .def_readonly("draws", &gamesolver::TierStats::draws)
      .def_readonly("losses", &gamesolver::TierStats::losses)
      .def_readonly("longest_win", &gamesolver::TierStats::longest_win)
      .def_readonly("longest_loss", &gamesolver::TierStats::longest_loss)
      .def_readonly("file_bytes", &gamesolver::TierStats::file_bytes)
      .def("__repr__", [](const gamesolver::TierStats& row) {
        return "<TierStats " + row.tier +
               (row.built ? " " + std::to_string(row.positions) + " positions>" : " not built>");
      });

  py::class_<gamesolver::Stats>(module, "Stats")
      .def_readonly("tiers", &gamesolver::Stats::tiers)
      .def_readonly("total", &gamesolver::Stats::total)
      .def_readonly("missing", &gamesolver::Stats::missing);

  py::class_<gamesolver::BuildResult>(module, "BuildResult")
      .def_readonly("built", &gamesolver::BuildResult::built)
      .def_readonly("skipped", &gamesolver::BuildResult::skipped)
      .def_readonly("built_positions", &gamesolver::BuildResult::built_positions)
      .def_readonly("seconds", &gamesolver::BuildResult::seconds)
      .def_readonly("peak_rss_bytes", &gamesolver::BuildResult::peak_rss_bytes)
      .def_readonly("directory", &gamesolver::BuildResult::directory);

  py::class_<gamesolver::VerifyResult>(module, "VerifyResult")
      .def_readonly("ok", &gamesolver::VerifyResult::ok)
      .def_readonly("positions", &gamesolver::VerifyResult::positions)
      .def_readonly("bytes", &gamesolver::VerifyResult::bytes)
      .def_readonly("inconsistent", &gamesolver::VerifyResult::inconsistent)
      .def_readonly("failed_tiers", &gamesolver::VerifyResult::failed_tiers)
      .def_readonly("first_failure", &gamesolver::VerifyResult::first_failure)
      .def_readonly("seconds", &gamesolver::VerifyResult::seconds);

  py::class_<gamesolver::GameInfo>(module, "GameInfo")
      .def_readonly("name", &gamesolver::GameInfo::name)
      .def_readonly("description", &gamesolver::GameInfo::description)
      .def_readonly("options", &gamesolver::GameInfo::options);

  using gamesolver::Database;
  using Release = py::call_guard<py::gil_scoped_release>;
  py::class_<Database>(module, "Database", "The databases of one game variant (gamesolver.open).")
      .def_static(
          "open",
          [](const std::string& data, const std::string& game, const std::string& variant,
             const std::vector<std::string>& rules, std::uint64_t block_cache_bytes,
             std::size_t position_cache_entries, bool require_databases) {
            gamesolver::OpenOptions options;
            options.block_cache_bytes = block_cache_bytes;
            options.position_cache_entries = position_cache_entries;
            options.require_databases = require_databases;
            return Database::open(data, game, variant, rules, options);
          },
          py::arg("data"), py::arg("game"), py::arg("variant") = "",
          py::arg("rules") = std::vector<std::string>{},
          py::arg("block_cache_bytes") = gamesolver::OpenOptions{}.block_cache_bytes,
          py::arg("position_cache_entries") = gamesolver::OpenOptions{}.position_cache_entries,
          py::arg("require_databases") = gamesolver::OpenOptions{}.require_databases, Release())
      .def_property_readonly("game", &Database::game)
      .def_property_readonly("variant", &Database::variant)
      .def_property_readonly("rules", &Database::rules)
      .def_property_readonly("directory", &Database::directory)
      .def_property_readonly("start", &Database::start)
      .def("description_json", &Database::description_json, Release(),
           "the variant as the explorer draws it (JSON text)")
      .def("inventory_json", &Database::inventory_json, Release(), "the tier files present (JSON text)")
      .def(
          "probe",
          [](const Database& database, const std::string& position, const std::optional<std::string>& move) {
            return move ? database.probe(position, *move) : database.probe(position);
          },
          py::arg("position"), py::arg("move") = std::nullopt, Release(),
          "the report of the position (after `move` when given)")
      .def(
          "value",
          [](const Database& database, const std::string& position) {
            return database.value(position).value;
          },
          py::arg("position"), Release(), "the value of the position only (one probe), or None")
      .def("stats", &Database::stats, py::arg("pieces"), Release())
      .def(
          "build",
          [](Database& database, int pieces, int threads, double memory_gib) {
            return database.build({pieces, threads, memory_gib});
          },
          py::arg("pieces"), py::arg("threads") = 0, py::arg("memory_gib") = 8.0, Release())
      .def(
          "verify",
          [](const Database& database, int pieces, bool checksums) {
            return database.verify({pieces, checksums});
          },
          py::arg("pieces"), py::arg("checksums") = false, Release());

  module.def("games", &gamesolver::games, "the games of the library");
}
