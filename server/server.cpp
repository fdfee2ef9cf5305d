#include "server/server.h"

#include <arpa/inet.h>
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
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "core/error.h"
#include "server/api.h"
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
  // Messages may quote what the client sent, which need not be UTF-8.
  response.set_content(reply.body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                       "application/json");
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

// One connection, as the stream cpp-httplib reads its requests from and writes its
// responses to. cpp-httplib 0.11 makes a stream for each request, and the bytes it read
// ahead of the request die with it: of requests pipelined in one write, only the first
// was answered and the others were dropped. This one lives as long as the connection, so
// that what was read ahead is the start of the next request.
class Connection final : public httplib::Stream {
 public:
  // `listener` is the server's listening socket, INVALID_SOCKET once it stops.
  Connection(socket_t fd, int pause_seconds, const std::atomic<socket_t>& listener)
      : fd_(fd), pause_(std::chrono::seconds(pause_seconds)), listener_(listener) {}

  // Waits for the first byte of the next request until `until`; false when none came:
  // the client is idle or gone, or the server stops.
  bool wait_for_request(Clock::time_point until) { return begin_ < end_ || wait(POLLIN, until); }

  bool is_readable() const override { return begin_ < end_ || ready(POLLIN); }
  bool is_writable() const override { return ready(POLLOUT); }

  ssize_t read(char* data, std::size_t size) override {
    if (begin_ == end_) {
      while (true) {
        if (!wait(POLLIN, Clock::now() + pause_)) return -1;
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
    const std::size_t n = std::min(size, end_ - begin_);
    std::memcpy(data, buffer_.data() + begin_, n);
    begin_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* data, std::size_t size) override {
    while (true) {
      const ssize_t n = ::send(fd_, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n >= 0) return n;
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return -1;
      if (!wait(POLLOUT, Clock::now() + pause_)) return -1;
    }
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) ip_and_port(address, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) ip_and_port(address, ip, port);
  }
  socket_t socket() const override { return fd_; }

 private:
  // Whether the socket is ready for `events` within the longest pause.
  bool ready(short events) const {
    pollfd p{fd_, events, 0};
    return ::poll(&p, 1, static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(pause_).count())) > 0;
  }
  // Waits until the socket is ready for `events`; false at `until`, on an error, or when
  // the server stops.
  bool wait(short events, Clock::time_point until) {
    while (listener_.load() != INVALID_SOCKET) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
      if (left <= 0) return false;
      pollfd p{fd_, events, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left, kPollSliceMs)));
      if (ready > 0) return true;
      if (ready < 0 && errno != EINTR) return false;
    }
    return false;
  }

  socket_t fd_;
  Clock::duration pause_;
  const std::atomic<socket_t>& listener_;
  std::array<char, 16384> buffer_{};
  std::size_t begin_ = 0;  // buffer_[begin_, end_) is read and not yet taken
  std::size_t end_ = 0;
};

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

// cpp-httplib's server with its connections served here, on a Connection each; its
// listen loop, thread pool, request parsing and routing as they are.
class HttpServer final : public httplib::Server {
 public:
  explicit HttpServer(int pause_seconds) : pause_seconds_(pause_seconds) {}

  // Gives the bound socket a backlog: cpp-httplib 0.11 listens with one of 5, compiled
  // into the library, and the kernel drops connections that do not fit (their clients try
  // again a second later, then 3, 7...). Linux takes a second listen() on a listening
  // socket as a new backlog, as nginx does when it changes one.
  bool set_backlog(int backlog) { return ::listen(svr_sock_, backlog) == 0; }

 private:
  bool process_and_close_socket(socket_t sock) override;

  int pause_seconds_;
};

bool HttpServer::process_and_close_socket(socket_t sock) {
  // Responses go out as headers then body: without TCP_NODELAY, Nagle's algorithm holds
  // the body back until the client's delayed acknowledgement, 40 ms a request.
  const int yes = 1;
  ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  Connection connection(sock, pause_seconds_, svr_sock_);
  bool served = false;
  const std::size_t most = std::max<std::size_t>(1, keep_alive_max_count_);
  for (std::size_t n = 0; n < most; ++n) {
    if (!connection.wait_for_request(Clock::now() + std::chrono::seconds(keep_alive_timeout_sec_))) break;
    bool closed = false;
    served = process_request(connection, n + 1 == most || svr_sock_ == INVALID_SOCKET, closed, nullptr);
    if (!served || closed) break;
  }
  close_connection(sock);
  return served;
}

}  // namespace

struct Server::Impl {
  explicit Impl(ServerOptions server_options)
      : options(std::move(server_options)),
        api(options.data),
        files(options.web),
        http(std::max(1, options.timeout_seconds)) {}

  ServerOptions options;
  Api api;
  StaticFiles files;
  HttpServer http;
  int port = 0;
  int threads = 0;
  std::thread thread;
};

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  Impl& impl = *impl_;
  const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  impl.threads = impl.options.threads > 0 ? impl.options.threads : std::max(8, 2 * cores);
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
