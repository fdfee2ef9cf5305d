#include "server/server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
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

}  // namespace

struct Server::Impl {
  explicit Impl(ServerOptions server_options)
      : options(std::move(server_options)), api(options.data), files(options.web) {}

  ServerOptions options;
  Api api;
  StaticFiles files;
  httplib::Server http;
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
  // Responses go out as headers then body: without TCP_NODELAY, Nagle's algorithm holds
  // the body back until the client's delayed acknowledgement, 40 ms a request.
  impl.http.set_tcp_nodelay(true);
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
