// Probe rate through the library (docs/LIBRARY.md), linked as other programs link it
// (libgamesolver.so): the C++ API and the C API on the same positions, each a full
// report (the position's value and every move's) and a value only. The positions are
// sampled breadth first from a seed through the reports' moves and written to a file,
// so that bench/library_bench.py measures the Python module on the same ones.
//   bench_library DATA GAME VARIANT SEED COUNT POSITIONS_FILE
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "gamesolver/database.h"
#include "gamesolver/gamesolver.h"

namespace {

// Calls probe on every position, round after round for at least a second; returns
// probes per second.
double rate(const std::vector<std::string>& positions, const std::function<void(const std::string&)>& probe) {
  using Clock = std::chrono::steady_clock;
  for (const auto& position : positions) probe(position);  // warm: files open, blocks cached
  const auto start = Clock::now();
  std::size_t probes = 0;
  double seconds = 0;
  do {
    for (const auto& position : positions) probe(position);
    probes += positions.size();
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
  } while (seconds < 1.0);
  return static_cast<double>(probes) / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) {
    std::cerr << "usage: bench_library DATA GAME VARIANT SEED COUNT POSITIONS_FILE\n";
    return 2;
  }
  const std::string data = argv[1], game = argv[2], variant = argv[3], seed = argv[4];
  const auto count = static_cast<std::size_t>(std::atoi(argv[5]));
  try {
    const gamesolver::Database db = gamesolver::Database::open(data, game, variant);
    std::vector<std::string> positions;
    std::set<std::string> seen;
    std::vector<std::string> queue = {seed};
    for (std::size_t i = 0; i < queue.size() && positions.size() < count; ++i) {
      if (!seen.insert(queue[i]).second) continue;
      const gamesolver::Report report = db.probe(queue[i]);
      if (report.value && !report.terminal) positions.push_back(queue[i]);
      for (const auto& move : report.moves) queue.push_back(move.position);
    }
    std::ofstream out(argv[6]);
    for (const auto& position : positions) out << position << "\n";

    gs_database* c_db = nullptr;
    if (gs_open(data.c_str(), game.c_str(), variant.c_str(), &c_db) != GS_OK)
      throw std::runtime_error(gs_last_error());
    const double cpp_report = rate(positions, [&](const std::string& p) { (void)db.probe(p); });
    const double cpp_value = rate(positions, [&](const std::string& p) { (void)db.value(p); });
    const double c_report = rate(positions, [&](const std::string& p) {
      gs_report* report = nullptr;
      if (gs_probe(c_db, p.c_str(), &report) != GS_OK) throw std::runtime_error(gs_last_error());
      gs_report_free(report);
    });
    const double c_value = rate(positions, [&](const std::string& p) {
      gs_value value{};
      if (gs_probe_value(c_db, p.c_str(), &value) != GS_OK) throw std::runtime_error(gs_last_error());
    });
    gs_close(c_db);
    std::printf("%-9s %5zu positions  C++ report %9.0f/s  value %9.0f/s  C report %9.0f/s  value %9.0f/s\n",
                game.c_str(), positions.size(), cpp_report, cpp_value, c_report, c_value);
  } catch (const std::exception& error) {
    std::cerr << "bench_library: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
