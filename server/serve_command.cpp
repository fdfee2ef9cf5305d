#include "server/serve_command.h"

#include <fmt/format.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <system_error>
#include <thread>

#include "core/error.h"
#include "server/proofs.h"

#ifndef GAMESOLVER_SOURCE_WEB_DIR
#define GAMESOLVER_SOURCE_WEB_DIR ""
#endif

namespace gs::server {

namespace fs = std::filesystem;

ServeCommand::ServeCommand(CLI::App& app) {
  command_ = app.add_subcommand("serve", "the explorer: a JSON API and a browser page over the databases");
  command_->add_option("--data", options_.data, "database directory")->capture_default_str();
  command_->add_option(
      "--store", options_.stores,
      "a proof store of `gamesolver prove` to show (repeatable; read without its lock, also while "
      "a run writes it)");
  command_->add_option("--host", options_.host, "address to listen on (loopback unless you mean otherwise)")
      ->capture_default_str();
  command_->add_option("--port", options_.port, "port (0: any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  command_->add_option("--web", web_, "the page's folder (default: web/ of the source tree)");
  command_
      ->add_option("--threads", options_.threads,
                   "workers, each serving one connection at a time (default: max(64, 4 x cores))")
      ->check(CLI::Range(1, 1024));
  command_
      ->add_option(
          "--request-timeout", options_.request_timeout_seconds,
          "seconds for a whole request to arrive (from the connection's start, or the request's first "
          "byte), or a response to be taken; later: 408 and the connection closed")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  command_
      ->add_option(
          "--max-connections-per-address", options_.max_connections_per_address,
          "connections at a time from one client address (IPv4 address, IPv6 /64); more are answered 429 "
          "(0: no bound)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1 << 20));
  command_
      ->add_option("--backlog", options_.backlog,
                   "connections the kernel holds until they are accepted (at most net.core.somaxconn)")
      ->capture_default_str()
      ->check(CLI::Range(1, 65535));
}

fs::path find_web_folder(const fs::path& given) {
  auto good = [](const fs::path& dir) {
    std::error_code error;
    return fs::is_regular_file(dir / "index.html", error);
  };
  if (!given.empty()) {
    if (!good(given)) fail("--web {}: no index.html there", given.string());
    return given;
  }
  std::vector<fs::path> tried;
  std::error_code error;
  const fs::path binary = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    const fs::path dir = binary.parent_path();
    tried = {dir / "web", dir.parent_path() / "web", dir.parent_path() / "share" / "gamesolver" / "web"};
  }
  if (!std::string_view(GAMESOLVER_SOURCE_WEB_DIR).empty()) tried.emplace_back(GAMESOLVER_SOURCE_WEB_DIR);
  std::string names;
  for (const fs::path& dir : tried) {
    if (good(dir)) return dir;
    names += (names.empty() ? "" : ", ") + dir.string();
  }
  fail("no web folder with index.html found (tried {}): give one with --web DIR", names);
}

int ServeCommand::run() {
  options_.web = find_web_folder(web_);
  // The proof stores must be there and be stores (each request reads its store again).
  Proofs(options_.stores, options_.data).check();
  // SIGINT and SIGTERM are taken by one thread (every thread started from here on
  // inherits the blocked mask), which stops the server so that it ends cleanly.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  Server server(options_);
  const int port = server.bind();
  // The databases' directory must be there before the server listens (a game's or a variant's may be missing:
  // the explorer shows its positions as not in the databases).
  if (options_.data.empty()) fail("--data is empty: name the database directory");
  std::error_code missing;
  if (!fs::is_directory(options_.data, missing))
    fail("the data directory {} does not exist (or is not a directory)", options_.data.string());
  std::atomic<bool> listening_done{false};
  std::thread waiter([&] {
    // Polls, so that it also ends when listening ends for another reason; a signal just
    // before listen() runs finds nothing to stop, so stop() is repeated until it ends.
    const timespec poll{0, 100'000'000};
    bool stopping = false;
    while (!listening_done.load()) {
      if (stopping || sigtimedwait(&signals, nullptr, &poll) > 0) {
        stopping = true;
        server.stop();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
  });
  const std::string host =
      options_.host.find(':') != std::string::npos ? "[" + options_.host + "]" : options_.host;
  const std::string per_address =
      options_.max_connections_per_address > 0
          ? fmt::format("{} connections per address", options_.max_connections_per_address)
          : std::string("no bound per address");
  fmt::print(
      "gamesolver serve: http://{}:{}/  (data {}, web {}, {} proof stores, {} workers, requests within {} s, "
      "{}, "
      "backlog {}); Ctrl-C stops\n",
      host, port, options_.data.string(), options_.web.string(), options_.stores.size(), server.threads(),
      options_.request_timeout_seconds, per_address, options_.backlog);
  std::fflush(stdout);
  server.listen();
  listening_done = true;
  waiter.join();
  fmt::print("gamesolver serve: stopped\n");
  return 0;
}

}  // namespace gs::server
