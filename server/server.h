#pragma once
// `gamesolver serve`: the explorer's HTTP server (cpp-httplib), the JSON API of
// server/api.h under /api/v1/ and the page's static files from the web folder.
//
// Requests are answered by a fixed pool of threads (cpp-httplib's thread pool), each
// serving one connection at a time, its requests in order (pipelined ones too); the
// databases are shared and thread-safe. The listening socket's backlog is
// options.backlog (cpp-httplib's is 5), so that a burst of connections waits to be
// accepted instead of being dropped. Request lines, headers and bodies are bounded
// (cpp-httplib answers 414 and 413), idle or slow connections time out, and every error
// is a JSON body {"error": "..."}.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

namespace gs::server {

struct ServerOptions {
  std::filesystem::path data = "data";
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port
  std::filesystem::path web;
  int threads = 0;  // 0: max(8, 2 x cores)
  std::size_t max_body_bytes = std::size_t{16} << 10;
  int timeout_seconds = 5;  // reading a request, writing a response, idle keep-alive
  int backlog = 1024;       // connections the kernel holds until accepted (at most net.core.somaxconn)
};

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
