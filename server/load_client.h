#pragma once
// A load generator for the explorer's API, for the load test (tests/) and the benchmark
// (bench/serve_bench.sh): it gathers positions by following moves from seed positions
// (so it needs no game of its own), then sends position requests over several
// keep-alive connections, bounded in number and in time, and measures each one.
#include <cstdint>
#include <string>
#include <vector>

namespace gs::server {

struct LoadOptions {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::string game = "jungle";
  std::string variant;                         // empty: the game's standard variant
  std::vector<std::string> seeds = {"start"};  // position texts to crawl from
  std::size_t positions = 1000;                // distinct positions to gather
  int connections = 4;
  std::uint64_t requests = 4000;  // in all, over every connection
  double max_seconds = 60;        // stop sending after this long, done or not
};

struct LoadResult {
  std::size_t positions = 0;  // distinct positions requested
  std::uint64_t requests = 0;
  std::uint64_t errors = 0;  // a failed connection, a status other than 200, or no report
  std::vector<std::string> first_errors;
  bool out_of_time = false;  // max_seconds ran out before every request was sent
  double seconds = 0;
  double requests_per_second = 0;
  double p50_ms = 0, p90_ms = 0, p99_ms = 0, max_ms = 0;
};

// The request target of a position: /api/v1/games/<game>/positions?p=...[&variant=...]
std::string position_target(const std::string& game, const std::string& position, const std::string& variant);

// Breadth-first from the seeds over the moves the server reports, up to
// options.positions positions (fewer when the seeds reach fewer). Throws gs::Error when
// the server does not answer a seed.
std::vector<std::string> gather_positions(const LoadOptions& options);

// Sends options.requests requests for the given positions, round robin, over
// options.connections connections.
LoadResult run_load(const LoadOptions& options, const std::vector<std::string>& positions);

}  // namespace gs::server
