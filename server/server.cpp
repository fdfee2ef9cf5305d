#include "server/server.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <httplib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "core/error.h"
#include "server/api.h"
#include "server/proofs.h"
#include "server/static_files.h"

// ThreadSanitizer builds: Debian's cpp-httplib is a shared library built without
// -fsanitize=thread, so the sanitizer sees its memory accesses (through memcmp, new) but
// not all of its synchronisation, and reports races between its worker threads inside the
// library. Races with a frame in the library are not reported; races in our own code
// still are.
#if defined(__SANITIZE_THREAD__)
extern "C" const char* __tsan_default_suppressions() { return "race:libcpp-httplib.so\n"; }
#endif

namespace gs::server {

namespace {

void send(httplib::Response& response, const Reply& reply) {
  response.status = reply.status;
  response.set_header("Cache-Control", "no-store");
  response.set_content(reply.body, "application/json");
}

const char* reason(int status) {
  switch (status) {
    case 400: return "bad request";
    case 404: return "not found";
    case 405: return "method not allowed";
    case 408: return "request timeout";
    case 413: return "request body too large";
    case 414: return "request line too long";
    case 416: return "range not satisfiable";
    case 431: return "request headers too large";
    default: break;
  }
  return status >= 500 ? "server error" : "bad request";
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// %XX as its byte and '+' as a space; anything else, a lone '%' included, as it is.
std::string percent_decoded(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%' && i + 2 < text.size() && hex_digit(text[i + 1]) >= 0 &&
               hex_digit(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(text[i + 1]) * 16 + hex_digit(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The value of the first query parameter called `name`: everything after its first '='
// up to the next '&', percent-decoded. A value may hold '=' unencoded, as a variant with
// its rule options does ("variant=standard,elephant_takes_rat=off"); cpp-httplib 0.11
// keeps only what follows a value's last '=' ("off").
std::optional<std::string> parameter(const httplib::Request& request, std::string_view name) {
  const std::string_view target = request.target;
  const std::size_t question = target.find('?');
  if (question == std::string_view::npos) return std::nullopt;
  std::string_view query = target.substr(question + 1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view part = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    const std::size_t equals = part.find('=');
    if (percent_decoded(part.substr(0, equals)) != name) continue;
    return equals == std::string_view::npos ? std::string() : percent_decoded(part.substr(equals + 1));
  }
  return std::nullopt;
}

using Clock = std::chrono::steady_clock;

// How often a wait looks whether the server is stopping.
constexpr int kPollSliceMs = 100;
// What a request may take beyond its body: its line and headers, and a chunked body's
// framing. cpp-httplib 0.11 reads a line whole before it looks at its length (8 KiB for
// the request line, 8 KiB a header line), so without a bound one endless line would fill
// the memory.
constexpr std::size_t kMaxHeadBytes = std::size_t{64} << 10;

// What a connection may take, from ServerOptions.
struct Limits {
  int pause_seconds = 5;          // the longest wait for the next bytes, reading or writing
  int request_seconds = 10;       // for a whole request to arrive, or a whole response to leave
  std::size_t request_bytes = 0;  // a request's line, headers and body
  int per_address = 0;            // connections at a time from one client address; 0: no bound
};

Limits limits_of(const ServerOptions& options) {
  Limits limits;
  limits.pause_seconds = std::max(1, options.timeout_seconds);
  limits.request_seconds = std::max(1, options.request_timeout_seconds);
  limits.request_bytes = kMaxHeadBytes + options.max_body_bytes;
  limits.per_address = std::max(0, options.max_connections_per_address);
  return limits;
}

// A socket address as text ("127.0.0.1", "::1") and port.
void ip_and_port(const sockaddr_storage& address, std::string& ip, int& port) {
  char text[INET6_ADDRSTRLEN] = "";
  if (address.ss_family == AF_INET) {
    sockaddr_in in{};
    std::memcpy(&in, &address, sizeof in);
    ::inet_ntop(AF_INET, &in.sin_addr, text, sizeof text);
    port = ntohs(in.sin_port);
  } else if (address.ss_family == AF_INET6) {
    sockaddr_in6 in6{};
    std::memcpy(&in6, &address, sizeof in6);
    ::inet_ntop(AF_INET6, &in6.sin6_addr, text, sizeof text);
    port = ntohs(in6.sin6_port);
  }
  ip = text;
}

// The address a client's connections are counted under: its IPv4 address, or its IPv6
// /64 network (a host is commonly given a whole /64); empty when unknown.
std::string client_address(socket_t fd) {
  sockaddr_storage peer{};
  socklen_t length = sizeof peer;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &length) != 0) return {};
  char text[INET6_ADDRSTRLEN] = "";
  if (peer.ss_family == AF_INET6) {
    sockaddr_in6 in6{};
    std::memcpy(&in6, &peer, sizeof in6);
    if (IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr)) {
      ::inet_ntop(AF_INET, &in6.sin6_addr.s6_addr[12], text, sizeof text);
      return text;
    }
    std::fill(std::begin(in6.sin6_addr.s6_addr) + 8, std::end(in6.sin6_addr.s6_addr), std::uint8_t{0});
    ::inet_ntop(AF_INET6, &in6.sin6_addr, text, sizeof text);
    return std::string(text) + "/64";
  }
  std::string ip;
  int port = 0;
  ip_and_port(peer, ip, port);
  return ip;
}

// Connections open from each client address, up to a bound.
class AddressTable {
 public:
  explicit AddressTable(int bound) : bound_(bound) {}
  // Counts a connection from `address`; false, counting nothing, when it has `bound` open.
  bool acquire(const std::string& address) {
    if (bound_ <= 0) return true;
    const std::lock_guard lock(mutex_);
    int& open = open_[address];
    if (open >= bound_) return false;
    ++open;
    return true;
  }
  void release(const std::string& address) {
    if (bound_ <= 0) return;
    const std::lock_guard lock(mutex_);
    const auto found = open_.find(address);
    if (found != open_.end() && --found->second <= 0) open_.erase(found);
  }

 private:
  int bound_;
  std::mutex mutex_;
  std::map<std::string, int> open_;
};

// One connection, as the stream cpp-httplib reads its requests from and writes its
// responses to. cpp-httplib 0.11 makes a stream for each request, and the bytes it read
// ahead of the request die with it: of requests pipelined in one write, only the first
// was answered and the others were dropped. This one lives as long as the connection, so
// that what was read ahead is the start of the next request.
//
// It also bounds each request as a whole: cpp-httplib's read timeout is for one read, so
// a client sending a byte now and then held a worker for as long as it liked. Here reading
// a request ends at its deadline or after request_bytes, and writing its response at the
// response's deadline, whatever the pauses.
class Connection final : public httplib::Stream {
 public:
  // `listener` is the server's listening socket, INVALID_SOCKET once it stops.
  Connection(socket_t fd, const Limits& limits, const std::atomic<socket_t>& listener)
      : fd_(fd), limits_(limits), listener_(listener) {}

  // Waits for the first byte of the next request until `until`; false when none came:
  // the client is idle or gone, or the server stops.
  bool wait_for_request(Clock::time_point until) { return begin_ < end_ || wait(POLLIN, until); }

  // A request starts: it must have arrived by `deadline`.
  void begin_request(Clock::time_point deadline) {
    read_deadline_ = deadline;
    write_deadline_.reset();
    consumed_ = 0;
    written_ = 0;
    timed_out_ = false;
    too_large_ = false;
  }
  // The request was late, or too large: it was cut off.
  [[nodiscard]] bool timed_out() const { return timed_out_; }
  [[nodiscard]] bool too_large() const { return too_large_; }
  [[nodiscard]] std::size_t consumed() const { return consumed_; }  // bytes of the request taken
  [[nodiscard]] std::size_t written() const { return written_; }    // bytes of its response sent
  // What was wrong with a request that was cut off, for its answer.
  [[nodiscard]] std::string problem() const {
    if (too_large_) return fmt::format("request larger than {} KiB", limits_.request_bytes >> 10);
    return fmt::format("request timeout: a request must arrive within {} s, with no pause over {} s",
                       limits_.request_seconds, limits_.pause_seconds);
  }

  [[nodiscard]] bool is_readable() const override { return begin_ < end_ || ready(POLLIN); }
  [[nodiscard]] bool is_writable() const override { return ready(POLLOUT); }

  ssize_t read(char* data, std::size_t size) override {
    if (consumed_ >= limits_.request_bytes) {
      too_large_ = true;
      return -1;
    }
    if (begin_ == end_) {
      while (true) {
        if (!wait(POLLIN, std::min(read_deadline_, Clock::now() + pause()))) return -1;
        const ssize_t n = ::recv(fd_, buffer_.data(), buffer_.size(), MSG_DONTWAIT);
        if (n == 0) return 0;
        if (n > 0) {
          begin_ = 0;
          end_ = static_cast<std::size_t>(n);
          break;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return -1;
      }
    }
    const std::size_t n = std::min({size, end_ - begin_, limits_.request_bytes - consumed_});
    std::memcpy(data, buffer_.data() + begin_, n);
    begin_ += n;
    consumed_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* data, std::size_t size) override {
    if (!write_deadline_) write_deadline_ = Clock::now() + std::chrono::seconds(limits_.request_seconds);
    while (true) {
      const ssize_t n = ::send(fd_, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n >= 0) {
        written_ += static_cast<std::size_t>(n);
        return n;
      }
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return -1;
      if (!wait(POLLOUT, std::min(*write_deadline_, Clock::now() + pause()))) return -1;
    }
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0)
      ip_and_port(address, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0)
      ip_and_port(address, ip, port);
  }
  [[nodiscard]] socket_t socket() const override { return fd_; }

 private:
  [[nodiscard]] Clock::duration pause() const { return std::chrono::seconds(limits_.pause_seconds); }
  // Whether the socket is ready for `events` within the longest pause.
  [[nodiscard]] bool ready(short events) const {
    pollfd p{fd_, events, 0};
    return ::poll(&p, 1, limits_.pause_seconds * 1000) > 0;
  }
  // Waits until the socket is ready for `events`; false at `until` (then timed_out()), on
  // an error, or when the server stops.
  bool wait(short events, Clock::time_point until) {
    while (listener_.load() != INVALID_SOCKET) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
      if (left <= 0) {
        timed_out_ = true;
        return false;
      }
      pollfd p{fd_, events, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left, kPollSliceMs)));
      if (ready > 0) return true;
      if (ready < 0 && errno != EINTR) return false;
    }
    return false;
  }

  socket_t fd_;
  const Limits& limits_;
  const std::atomic<socket_t>& listener_;
  std::array<char, 16384> buffer_{};
  std::size_t begin_ = 0;  // buffer_[begin_, end_) is read and not yet taken
  std::size_t end_ = 0;
  Clock::time_point read_deadline_ = Clock::time_point::max();
  std::optional<Clock::time_point> write_deadline_;
  std::size_t consumed_ = 0;
  std::size_t written_ = 0;
  bool timed_out_ = false;
  bool too_large_ = false;
};

// The connection whose request this thread is reading or answering, for the error
// handler: a request cut off while cpp-httplib reads its headers is answered by
// cpp-httplib as a bad request (400), which the handler makes a 408 or a 431.
thread_local const Connection* current_connection = nullptr;

// An error answer written straight to the socket, for what is answered outside
// cpp-httplib: a refused connection, a request cut off in its request line. As much as
// the socket takes at once, which is all of it this early in a connection.
void send_error_now(socket_t fd, int status, const char* phrase, const std::string& message) {
  const std::string body =
      nlohmann::json{{"error", message}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const std::string response = fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nCache-Control: no-store\r\n"
      "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n{}",
      status, phrase, body.size(), body);
  [[maybe_unused]] const ssize_t sent =
      ::send(fd, response.data(), response.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

// Closes a connection so that the client can read all it was sent: the end of the
// response first, then the bytes the client sent that were never read are taken off the
// socket, as far as they have come, since closing a socket with unread bytes resets the
// connection and the client may lose the response.
void close_connection(socket_t fd) {
  ::shutdown(fd, SHUT_WR);
  std::array<char, 4096> scrap{};
  for (int i = 0; i < 16 && ::recv(fd, scrap.data(), scrap.size(), MSG_DONTWAIT) > 0; ++i) {
  }
  ::close(fd);
}

// cpp-httplib's server with its connections served here, on a Connection each, within
// the limits; its listen loop, thread pool, request parsing and routing as they are.
class HttpServer final : public httplib::Server {
 public:
  explicit HttpServer(const Limits& limits) : limits_(limits), addresses_(limits.per_address) {}

  // Gives the bound socket a backlog: cpp-httplib 0.11 listens with one of 5, compiled
  // into the library, and the kernel drops connections that do not fit (their clients try
  // again a second later, then 3, 7...). Linux takes a second listen() on a listening
  // socket as a new backlog, as nginx does when it changes one.
  bool set_backlog(int backlog) { return ::listen(svr_sock_, backlog) == 0; }

 private:
  bool process_and_close_socket(socket_t sock) override;
  // The connection's requests, in order; false when it ended on an error.
  bool serve(Connection& connection, Clock::time_point taken);

  Limits limits_;
  AddressTable addresses_;
};

bool HttpServer::process_and_close_socket(socket_t sock) {
  const Clock::time_point taken = Clock::now();
  // Responses go out as headers then body: without TCP_NODELAY, Nagle's algorithm holds
  // the body back until the client's delayed acknowledgement, 40 ms a request.
  const int yes = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  const std::string address = client_address(sock);
  bool served = false;
  if (addresses_.acquire(address)) {
    struct Release {
      AddressTable& table;
      const std::string& address;
      ~Release() { table.release(address); }
    } release{addresses_, address};
    Connection connection(sock, limits_, svr_sock_);
    served = serve(connection, taken);
  } else {
    send_error_now(
        sock, 429, "Too Many Requests",
        fmt::format("too many connections from {} (at most {} at a time)", address, limits_.per_address));
  }
  close_connection(sock);
  return served;
}

bool HttpServer::serve(Connection& connection, Clock::time_point taken) {
  const auto idle = std::chrono::seconds(keep_alive_timeout_sec_);
  const auto request_time = std::chrono::seconds(limits_.request_seconds);
  const std::size_t most = std::max<std::size_t>(1, keep_alive_max_count_);
  bool served = false;
  for (std::size_t n = 0; n < most; ++n) {
    // The first request's time runs from when a worker took the connection, a later
    // one's from its first byte.
    const Clock::time_point now = Clock::now();
    if (!connection.wait_for_request(n == 0 ? std::min(taken + request_time, now + idle) : now + idle)) break;
    connection.begin_request(n == 0 ? taken + request_time : Clock::now() + request_time);
    bool closed = false;
    current_connection = &connection;
    served = process_request(connection, n + 1 == most || svr_sock_ == INVALID_SOCKET, closed, nullptr);
    current_connection = nullptr;
    if (connection.timed_out() || connection.too_large()) {
      // Cut off in its request line: cpp-httplib answered nothing. (Later, it answered
      // itself, through the error handler.)
      if (connection.consumed() > 0 && connection.written() == 0) {
        if (connection.too_large()) {
          send_error_now(connection.socket(), 414, "URI Too Long", connection.problem());
        } else {
          send_error_now(connection.socket(), 408, "Request Timeout", connection.problem());
        }
      }
      return false;
    }
    if (!served || closed) break;
  }
  return served;
}

}  // namespace

int default_threads() {
  const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  return std::max(64, 4 * cores);
}

struct Server::Impl {
  explicit Impl(ServerOptions server_options)
      : options(std::move(server_options)),
        api(options.data),
        proofs(options.stores, options.data),
        files(options.web),
        http(limits_of(options)) {}

  ServerOptions options;
  Api api;
  Proofs proofs;
  StaticFiles files;
  HttpServer http;
  int port = 0;
  int threads = 0;
  std::thread thread;
};

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  Impl& impl = *impl_;
  impl.threads = impl.options.threads > 0 ? impl.options.threads : default_threads();
  const auto threads = static_cast<std::size_t>(impl.threads);
  impl.http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  impl.http.set_payload_max_length(impl.options.max_body_bytes);
  const auto timeout = static_cast<time_t>(impl.options.timeout_seconds);
  impl.http.set_read_timeout(timeout);
  impl.http.set_write_timeout(timeout);
  impl.http.set_keep_alive_timeout(timeout);
  impl.http.set_keep_alive_max_count(1000);
  // cpp-httplib's default also sets SO_REUSEPORT, which would let a second server bind a
  // port this one is using and take half of its connections: keep SO_REUSEADDR only.
  impl.http.set_socket_options([](int socket) {
    const int yes = 1;
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  impl.http.set_default_headers({{"X-Content-Type-Options", "nosniff"}, {"Referrer-Policy", "no-referrer"}});

  Api& api = impl.api;
  impl.http.Get("/api/v1/games", [&api](const httplib::Request&, httplib::Response& response) {
    send(response, api.games());
  });
  impl.http.Get(R"(/api/v1/games/([^/]+))",
                [&api](const httplib::Request& request, httplib::Response& response) {
                  send(response, api.game(request.matches[1]));
                });
  impl.http.Get(R"(/api/v1/games/([^/]+)/positions)",
                [&api](const httplib::Request& request, httplib::Response& response) {
                  send(response, api.position(request.matches[1], parameter(request, "p"),
                                              parameter(request, "variant"), parameter(request, "move")));
                });
  const Proofs& proofs = impl.proofs;
  impl.http.Get("/api/v1/proofs", [&proofs](const httplib::Request&, httplib::Response& response) {
    send(response, proofs.list());
  });
  impl.http.Get(R"(/api/v1/proofs/([^/]+))",
                [&proofs](const httplib::Request& request, httplib::Response& response) {
                  send(response, proofs.proof(request.matches[1]));
                });
  impl.http.Get(R"(/api(/.*)?)", [](const httplib::Request& request, httplib::Response& response) {
    send(response, error_reply(404, "no API path " + request.path + " (see /api/v1/games)"));
  });
  const StaticFiles& files = impl.files;
  impl.http.Get(R"(/.*)", [&files](const httplib::Request& request, httplib::Response& response) {
    StaticFile file = files.get(request.path);
    if (file.status != 200) {
      send(response, error_reply(file.status, file.body));
      return;
    }
    response.set_header("Cache-Control", "no-cache");
    response.set_header("Content-Security-Policy",
                        "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'");
    response.set_content(file.body, file.content_type);
  });
  const auto refuse_method = [](const httplib::Request& request, httplib::Response& response) {
    send(response, error_reply(405, "method " + request.method + " is not allowed: the explorer only reads"));
  };
  impl.http.Post(R"(/.*)", refuse_method);
  impl.http.Put(R"(/.*)", refuse_method);
  impl.http.Patch(R"(/.*)", refuse_method);
  impl.http.Delete(R"(/.*)", refuse_method);
  impl.http.Options(R"(/.*)", refuse_method);
  // Errors cpp-httplib answers itself (413, 414, a malformed request) get a JSON body too.
  impl.http.set_error_handler([](const httplib::Request&, httplib::Response& response) {
    // A request cut off in its headers (or its body) is a bad request to cpp-httplib.
    // (A body over the limit is skipped, and may be cut off too: its 413 stands.)
    if (const Connection* connection = current_connection;
        connection != nullptr && (connection->timed_out() || connection->too_large())) {
      response.set_header("Connection", "close");
      if (response.status == 400) {
        response.status = connection->too_large() ? 431 : 408;
        response.set_content(nlohmann::json{{"error", connection->problem()}}.dump(), "application/json");
        return;
      }
    }
    if (!response.body.empty()) return;
    response.set_content(nlohmann::json{{"error", reason(response.status)}}.dump(), "application/json");
  });
  impl.http.set_exception_handler(
      [](const httplib::Request&, httplib::Response& response, const std::exception_ptr&) {
        send(response, error_reply(500, "internal error"));
      });
}

Server::~Server() { stop(); }

int Server::bind() {
  Impl& impl = *impl_;
  if (impl.options.port == 0) {
    impl.port = impl.http.bind_to_any_port(impl.options.host);
  } else if (impl.http.bind_to_port(impl.options.host, impl.options.port)) {
    impl.port = impl.options.port;
  } else {
    impl.port = -1;
  }
  if (impl.port <= 0) {
    fail("cannot listen on {}:{} (in use, or not an address of this machine)", impl.options.host,
         impl.options.port);
  }
  if (!impl.http.set_backlog(std::max(1, impl.options.backlog))) {
    fail("cannot set the listen backlog to {}: {}", impl.options.backlog, std::strerror(errno));
  }
  return impl.port;
}

void Server::listen() { impl_->http.listen_after_bind(); }

int Server::start() {
  const int bound = bind();
  impl_->thread = std::thread([this] { listen(); });
  // stop() before the loop runs would be lost: wait until it runs.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!impl_->http.is_running()) {
    if (std::chrono::steady_clock::now() > deadline) fail("the server did not start listening");
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return bound;
}

void Server::stop() {
  impl_->http.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

int Server::port() const { return impl_->port; }
int Server::threads() const { return impl_->threads; }
const ServerOptions& Server::options() const { return impl_->options; }

}  // namespace gs::server
