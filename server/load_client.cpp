#include "server/load_client.h"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "core/error.h"

namespace gs::server {

namespace {

std::string percent_encoded(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out += c;
    } else {
      out += fmt::format("%{:02X}", byte);
    }
  }
  return out;
}

void configure(httplib::Client& client) {
  client.set_keep_alive(true);
  client.set_tcp_nodelay(true);
  client.set_connection_timeout(5);
  client.set_read_timeout(30);
  client.set_write_timeout(30);
}

double percentile(const std::vector<double>& sorted, double fraction) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

}  // namespace

std::string position_target(const std::string& game, const std::string& position,
                            const std::string& variant) {
  std::string target = "/api/v1/games/" + percent_encoded(game) + "/positions?p=" + percent_encoded(position);
  if (!variant.empty()) target += "&variant=" + percent_encoded(variant);
  return target;
}

std::vector<std::string> gather_positions(const LoadOptions& options) {
  httplib::Client client(options.host, options.port);
  configure(client);
  std::vector<std::string> found;
  std::set<std::string> seen;
  std::deque<std::string> queue(options.seeds.begin(), options.seeds.end());
  bool first = true;
  while (!queue.empty() && found.size() < options.positions) {
    const std::string position = queue.front();
    queue.pop_front();
    const auto response = client.Get(position_target(options.game, position, options.variant));
    if (!response || response->status != 200) {
      if (first) {
        fail("the server at {}:{} does not answer position {}: {}", options.host, options.port, position,
             response ? std::to_string(response->status) + " " + response->body
                      : httplib::to_string(response.error()));
      }
      continue;
    }
    first = false;
    const nlohmann::json report = nlohmann::json::parse(response->body);
    const std::string text = report.at("position");
    if (!seen.insert(text).second) continue;
    found.push_back(text);
    for (const auto& move : report.at("moves")) {
      const std::string next = move.at("position");
      if (!seen.contains(next)) queue.push_back(next);
    }
  }
  return found;
}

LoadResult run_load(const LoadOptions& options, const std::vector<std::string>& positions) {
  LoadResult result;
  result.positions = positions.size();
  if (positions.empty() || options.requests == 0) return result;
  std::vector<std::string> targets;
  targets.reserve(positions.size());
  for (const std::string& position : positions)
    targets.push_back(position_target(options.game, position, options.variant));

  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> out_of_time{false};
  std::mutex mutex;
  std::vector<double> latencies;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(options.max_seconds);
  auto worker = [&] {
    httplib::Client client(options.host, options.port);
    configure(client);
    std::vector<double> mine;
    std::uint64_t errors = 0;
    std::vector<std::string> messages;
    while (true) {
      const std::uint64_t n = next.fetch_add(1);
      if (n >= options.requests) break;
      const auto sent = std::chrono::steady_clock::now();
      if (sent > deadline) {
        out_of_time = true;
        break;
      }
      const auto response = client.Get(targets[n % targets.size()]);
      mine.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sent).count());
      std::string problem;
      if (!response) {
        problem = "request failed: " + httplib::to_string(response.error());
      } else if (response->status != 200) {
        problem = fmt::format("status {}: {}", response->status, response->body.substr(0, 200));
      } else if (response->body.find("\"position\":") == std::string::npos) {
        problem = "no position report: " + response->body.substr(0, 200);
      }
      if (!problem.empty()) {
        ++errors;
        if (messages.size() < 5) messages.push_back(targets[n % targets.size()] + ": " + problem);
      }
    }
    const std::lock_guard lock(mutex);
    latencies.insert(latencies.end(), mine.begin(), mine.end());
    result.errors += errors;
    for (auto& message : messages) {
      if (result.first_errors.size() < 10) result.first_errors.push_back(std::move(message));
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < std::max(1, options.connections); ++i) threads.emplace_back(worker);
  for (std::thread& thread : threads) thread.join();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.out_of_time = out_of_time.load();
  result.requests = latencies.size();
  result.requests_per_second = static_cast<double>(result.requests) / std::max(result.seconds, 1e-9);
  std::sort(latencies.begin(), latencies.end());
  result.p50_ms = percentile(latencies, 0.50);
  result.p90_ms = percentile(latencies, 0.90);
  result.p99_ms = percentile(latencies, 0.99);
  result.max_ms = latencies.empty() ? 0 : latencies.back();
  return result;
}

}  // namespace gs::server
