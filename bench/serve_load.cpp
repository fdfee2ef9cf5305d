// serve_load: fires position requests at a running `gamesolver serve` and prints the
// rate and latency percentiles (bench/serve_bench.sh runs it). Positions are gathered by
// following moves from seed positions; a first pass over them warms the server's caches
// and is not measured.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "server/load_client.h"

int main(int argc, char** argv) {
  CLI::App app{"serve_load: requests per second and latency of gamesolver serve"};
  gs::server::LoadOptions options;
  bool warm = true;
  bool json = false;
  app.add_option("--host", options.host)->capture_default_str();
  app.add_option("--port", options.port)->required();
  app.add_option("--game", options.game)->capture_default_str();
  app.add_option("--variant", options.variant);
  app.add_option("--seed", options.seeds, "position to gather from (repeatable)")->capture_default_str();
  app.add_option("--positions", options.positions, "distinct positions to request")->capture_default_str();
  app.add_option("--connections", options.connections)->capture_default_str()->check(CLI::Range(1, 1024));
  app.add_option("--requests", options.requests, "measured requests in all")->capture_default_str();
  app.add_option("--seconds", options.max_seconds, "stop sending after this long")->capture_default_str();
  app.add_flag("!--cold", warm, "no warm-up pass");
  app.add_flag("--json", json, "JSON output");
  CLI11_PARSE(app, argc, argv);
  try {
    const std::vector<std::string> positions = gs::server::gather_positions(options);
    if (warm) {
      gs::server::LoadOptions warmup = options;
      warmup.requests = positions.size();
      gs::server::run_load(warmup, positions);
    }
    const gs::server::LoadResult r = gs::server::run_load(options, positions);
    if (json) {
      fmt::print("{}\n", nlohmann::json{{"positions", r.positions},
                                        {"connections", options.connections},
                                        {"requests", r.requests},
                                        {"errors", r.errors},
                                        {"seconds", r.seconds},
                                        {"requests_per_second", r.requests_per_second},
                                        {"p50_ms", r.p50_ms},
                                        {"p90_ms", r.p90_ms},
                                        {"p99_ms", r.p99_ms},
                                        {"max_ms", r.max_ms},
                                        {"out_of_time", r.out_of_time}}
                             .dump(2));
    } else {
      fmt::print(
          "{} requests for {} positions over {} connections in {:.2f} s: {:.0f} requests/s; latency p50 "
          "{:.3f} ms, "
          "p90 {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms; {} errors{}\n",
          r.requests, r.positions, options.connections, r.seconds, r.requests_per_second, r.p50_ms, r.p90_ms,
          r.p99_ms, r.max_ms, r.errors, r.out_of_time ? " (stopped by --seconds)" : "");
    }
    for (const std::string& e : r.first_errors) fmt::print(stderr, "error: {}\n", e);
    return r.errors == 0 ? 0 : 1;
  } catch (const std::exception& error) {
    fmt::print(stderr, "serve_load: error: {}\n", error.what());
    return 1;
  }
}
