#pragma once
// `gamesolver serve`: the explorer's HTTP server (cpp-httplib), the JSON API of
// server/api.h under /api/v1/ and the page's static files from the web folder.
//
// Connections are served by a fixed pool of workers (cpp-httplib's thread pool), each
// serving one connection at a time, its requests in order (pipelined ones too); the
// databases are shared and thread-safe. So that slow or many clients cannot hold every
// worker, nor a burst of them be dropped (docs/SERVER.md):
//   - a whole request (line, headers, body) must arrive within request_timeout_seconds,
//     counted from when a worker takes the connection for its first request and from the
//     first byte of each later one; a late request is answered 408 and its connection
//     closed, and a response the client does not take within that time ends it too;
//   - one client address (an IPv4 address, an IPv6 /64) holds at most
//     max_connections_per_address connections at a time: more are answered 429 and closed;
//   - a request (line, headers, body) larger than 64 KiB + max_body_bytes is cut off
//     there, answered 414 (in its line) or 431 (in its headers) and closed;
//   - the listening socket's backlog is `backlog` (cpp-httplib's is 5), so that a burst
//     of connections waits to be accepted instead of being dropped.
// Request lines, headers and bodies are bounded (cpp-httplib answers 414 and 413), idle
// keep-alive connections time out, and every error is a JSON body {"error": "..."}.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace gs::server {

struct ServerOptions {
  std::filesystem::path data = "data";
  // The proof stores the explorer shows (server/proofs.h), by their number in this order.
  std::vector<std::filesystem::path> stores;
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port
  std::filesystem::path web;
  int threads = 0;  // workers; 0: default_threads()
  std::size_t max_body_bytes = std::size_t{16} << 10;
  int timeout_seconds = 5;               // the longest pause in reading or writing; idle keep-alive
  int request_timeout_seconds = 10;      // for a whole request to arrive, or a whole response to leave
  int max_connections_per_address = 16;  // 0: no bound
  int backlog = 1024;  // connections the kernel holds until accepted (at most net.core.somaxconn)
};

// Workers when ServerOptions::threads is 0: max(64, 4 x cores).
int default_threads();

class Server {
 public:
  // Throws gs::Error when the web folder is not a directory.
  explicit Server(ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the socket; returns the port (the one chosen when options.port is 0). Throws
  // gs::Error when the address cannot be bound.
  int bind();
  // Serves until stop(); call after bind().
  void listen();
  // bind(), then listen() on a thread of its own; returns once requests are accepted.
  int start();
  // Stops listening (from any thread) and joins the thread of start().
  void stop();

  [[nodiscard]] int port() const;
  [[nodiscard]] int threads() const;
  [[nodiscard]] const ServerOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gs::server
