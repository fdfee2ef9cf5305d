// The explorer server against awkward clients and requests: query values that hold '=',
// pipelined requests, a burst of connections.
// Everything runs on loopback; clients connect from chosen addresses of 127.0.0.0/8.
// Every loop is bounded in count and in time.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "server/server.h"
#include "tests/test_util.h"

#ifndef GAMESOLVER_BINARY
#error "GAMESOLVER_BINARY must name the gamesolver executable"
#endif

namespace gs {
namespace {

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;
using test::TempDir;
namespace fs = std::filesystem;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The number after `prefix` in text, or -1.
long number_after(std::string_view text, std::string_view prefix) {
  const std::size_t at = text.find(prefix);
  if (at == std::string_view::npos) return -1;
  long number = 0;
  bool digits = false;
  for (std::size_t i = at + prefix.size(); i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0;
       ++i, digits = true) {
    number = number * 10 + (text[i] - '0');
  }
  return digits ? number : -1;
}

struct Response {
  int status = 0;  // 0: none
  std::string head;
  std::string body;
};

// Takes the complete responses (each with a Content-Length) off the front of `bytes`.
std::vector<Response> take_responses(std::string& bytes) {
  std::vector<Response> responses;
  while (true) {
    const std::size_t end = bytes.find("\r\n\r\n");
    if (end == std::string::npos || !bytes.starts_with("HTTP/1.1 ")) break;
    const std::string head = bytes.substr(0, end);
    const long length = number_after(head, "Content-Length: ");
    if (length < 0 || bytes.size() < end + 4 + static_cast<std::size_t>(length)) break;
    responses.push_back({static_cast<int>(number_after(head, "HTTP/1.1 ")), head,
                         bytes.substr(end + 4, static_cast<std::size_t>(length))});
    bytes.erase(0, end + 4 + static_cast<std::size_t>(length));
  }
  return responses;
}

// A TCP connection to 127.0.0.1:port from the loopback address `source`.
class Socket {
 public:
  enum class Read { data, nothing, closed };

  // Blocking: connects before it returns (connected() says whether it did). Not
  // blocking: the connection may still be under way; poll for POLLOUT.
  Socket(const std::string& source, int port, bool blocking = true) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | (blocking ? 0 : SOCK_NONBLOCK), 0);
    if (fd_ < 0) return;
    sockaddr_in from{};
    from.sin_family = AF_INET;
    ::inet_pton(AF_INET, source.c_str(), &from.sin_addr);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<std::uint16_t>(port));
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd_, reinterpret_cast<const sockaddr*>(&from), sizeof from) != 0) {
      close();
      return;
    }
    if (blocking) {
      const timeval timeout{5, 0};
      ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    }
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0 && errno != EINPROGRESS) close();
  }
  ~Socket() { close(); }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  Socket(Socket&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] bool open() const { return fd_ >= 0; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  // Sends what it can of `data` without waiting; the number of bytes sent, or -1 when
  // the connection is gone.
  long send_now(std::string_view data) {
    const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
    return n;
  }
  // Sends all of `data` within 5 s; false when it could not.
  bool send_all(std::string_view data) {
    const auto deadline = Clock::now() + std::chrono::seconds(5);
    while (!data.empty() && Clock::now() < deadline) {
      const long n = send_now(data);
      if (n < 0) return false;
      data.remove_prefix(static_cast<std::size_t>(n));
      if (!data.empty()) {
        pollfd p{fd_, POLLOUT, 0};
        ::poll(&p, 1, 50);
      }
    }
    return data.empty();
  }
  // Waits up to timeout_ms for bytes and appends them to `received`.
  Read read_some(std::string& received, int timeout_ms) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return Read::nothing;
    char buffer[8192];
    const ssize_t n = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n > 0) {
      received.append(buffer, static_cast<std::size_t>(n));
      return Read::data;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return Read::nothing;
    return Read::closed;
  }
  // Reads until `count` responses are complete, the connection closes, or `seconds`
  // pass; `closed` tells whether it closed.
  std::vector<Response> responses(std::size_t count, double seconds, bool* closed = nullptr) {
    std::string received;
    std::vector<Response> out;
    const auto start = Clock::now();
    bool gone = false;
    while (out.size() < count && seconds_since(start) < seconds) {
      const Read r = read_some(received, 50);
      for (Response& response : take_responses(received)) out.push_back(std::move(response));
      if (r == Read::closed) {
        gone = true;
        break;
      }
    }
    if (closed != nullptr) *closed = gone;
    return out;
  }

 private:
  int fd_ = -1;
};

// One GET on a fresh connection from `source`, within `seconds`: its response, status 0
// when none came.
Response get(int port, const std::string& target, const std::string& source = "127.0.0.1",
             double seconds = 5) {
  Socket socket(source, port);
  if (!socket.open() ||
      !socket.send_all("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) {
    return {};
  }
  std::vector<Response> responses = socket.responses(1, seconds);
  return responses.empty() ? Response{} : responses.front();
}

std::string error_of(const Response& response) {
  const json body = json::parse(response.body, nullptr, false);
  return body.is_object() && body.contains("error") && body["error"].is_string() ? body["error"].get<std::string>()
                                                                                 : std::string();
}

std::size_t occurrences(std::string_view text, std::string_view word) {
  std::size_t count = 0;
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + word.size())) {
    ++count;
  }
  return count;
}

// The backlog of this process's socket listening on `port`, as the kernel holds it: for a
// listening socket, TCP_INFO's tcpi_sacked is the backlog it was given (capped by
// net.core.somaxconn). -1 when there is no such socket.
int listen_backlog(int port) {
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc/self/fd")) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) == 0) continue;
    const int fd = std::stoi(name);
    int listening = 0;
    socklen_t length = sizeof listening;
    if (::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) != 0 || listening == 0) continue;
    sockaddr_in address{};
    length = sizeof address;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0 || address.sin_family != AF_INET ||
        ntohs(address.sin_port) != port) {
      continue;
    }
    tcp_info info{};
    length = sizeof info;
    if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return -1;
    return static_cast<int>(info.tcpi_sacked);
  }
  return -1;
}

int somaxconn() {
  std::ifstream in("/proc/sys/net/core/somaxconn");
  int value = 4096;
  in >> value;
  return value;
}

// A server on an empty data folder (positions have no values, which is all these tests
// need) and a one-page web folder.
class ServerHardening : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.path() / "data");
    fs::create_directories(dir_.path() / "web");
    test::write_file(dir_.path() / "web" / "index.html", "<!doctype html><title>explorer</title>");
  }
  [[nodiscard]] server::ServerOptions options() const {
    server::ServerOptions options;
    options.data = dir_.path() / "data";
    options.web = dir_.path() / "web";
    options.port = 0;
    return options;
  }
  int start(const server::ServerOptions& options) {
    server_.emplace(options);
    return server_->start();
  }

  TempDir dir_;
  std::optional<server::Server> server_;
};

// A variant with its rule options as the README writes it, '=' unencoded in the query
// value: the value runs from "variant=" to the next '&' (cpp-httplib alone kept what
// followed its last '=', "off"), and an unknown variant's message says so once.
TEST_F(ServerHardening, VariantWithRuleOptionsInTheQuery) {
  const int port = start(options());
  const std::string positions = "/api/v1/games/jungle/positions";
  for (const char* query : {"?p=start&variant=standard,elephant_takes_rat=off",
                            "?variant=standard,elephant_takes_rat=off&p=start",
                            "?p=start&variant=standard%2Celephant_takes_rat%3Doff",
                            "?p=start&variant=standard,elephant_takes_rat=off&variant=standard"}) {
    const Response response = get(port, positions + query);
    ASSERT_EQ(response.status, 200) << query << "\n" << response.body;
    const json body = json::parse(response.body);
    EXPECT_EQ(body.at("rules"), "elephant_takes_rat=off") << query;
    EXPECT_EQ(body.at("position"), "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w") << query;
  }
  // '+' is a space, as in any query.
  Response response = get(port, positions + "?p=7/7/7/3d3/7/3D3/7+w&variant=standard");
  ASSERT_EQ(response.status, 200) << response.body;
  EXPECT_EQ(json::parse(response.body).at("position"), "7/7/7/3d3/7/3D3/7 w");

  response = get(port, positions + "?p=start&variant=off");
  EXPECT_EQ(response.status, 404);
  EXPECT_EQ(error_of(response), "unknown variant 'off' of jungle (known: standard)");
  response = get(port, positions + "?p=start&variant=standard,elephant_takes_rat=maybe");
  EXPECT_EQ(response.status, 404);
  const std::string error = error_of(response);
  EXPECT_EQ(occurrences(error, "standard,elephant_takes_rat=maybe"), 1U) << error;
  EXPECT_EQ(occurrences(error, "jungle"), 1U) << error;
  EXPECT_NE(error.find("takes on or off, not 'maybe'"), std::string::npos) << error;
  response = get(port, positions + "?p=start&variant=big,elephant_takes_rat=off");
  EXPECT_EQ(response.status, 404);
  EXPECT_EQ(occurrences(error_of(response), "unknown variant"), 1U) << error_of(response);
}

// Requests pipelined in one write are answered, in order, each once. (cpp-httplib 0.11
// read ahead into a buffer that it dropped after each request: only the first was
// answered, and the connection closed when the keep-alive wait ran out.)
TEST_F(ServerHardening, PipelinedRequestsAreAnsweredInOrder) {
  const int port = start(options());
  {
    Socket socket("127.0.0.1", port);
    ASSERT_TRUE(socket.open());
    ASSERT_TRUE(socket.send_all(
        "GET /api/v1/games/jungle HTTP/1.1\r\nHost: x\r\n\r\n"
        "GET /api/v1/games/nothing HTTP/1.1\r\nHost: x\r\n\r\n"
        "GET /api/v1/games/morris HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    bool closed = false;
    const auto begin = Clock::now();
    const std::vector<Response> responses = socket.responses(4, 10, &closed);
    ASSERT_EQ(responses.size(), 3U);
    EXPECT_EQ(responses[0].status, 200);
    EXPECT_EQ(json::parse(responses[0].body).at("name"), "jungle");
    EXPECT_EQ(responses[1].status, 404);
    EXPECT_NE(error_of(responses[1]).find("nothing"), std::string::npos) << responses[1].body;
    EXPECT_EQ(responses[2].status, 200);
    EXPECT_EQ(json::parse(responses[2].body).at("name"), "morris");
    // Closed after the third, which asked for it, at once.
    EXPECT_TRUE(closed);
    EXPECT_LT(seconds_since(begin), 2.0);
  }
  {
    // A body between them, and the connection kept: a fourth request on it later is
    // answered too.
    Socket socket("127.0.0.1", port);
    ASSERT_TRUE(socket.open());
    ASSERT_TRUE(socket.send_all(
        "POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nGET /"
        "GET /api/v1/games/checkers HTTP/1.1\r\nHost: x\r\n\r\n"
        "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n"));
    std::vector<Response> responses = socket.responses(3, 10);
    ASSERT_EQ(responses.size(), 3U);
    EXPECT_EQ(responses[0].status, 405);
    EXPECT_EQ(responses[1].status, 200);
    EXPECT_EQ(json::parse(responses[1].body).at("name"), "checkers");
    EXPECT_EQ(responses[2].status, 200);
    EXPECT_EQ(responses[2].body, "<!doctype html><title>explorer</title>");
    ASSERT_TRUE(socket.send_all("GET /api/v1/games/jungle HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    responses = socket.responses(1, 10);
    ASSERT_EQ(responses.size(), 1U);
    EXPECT_EQ(responses[0].status, 200);
  }
}

// A burst of connections, all at once from 300 addresses, each with a request: every one
// is answered, none a second or more late. (Before: cpp-httplib's backlog of 5; the
// kernel dropped what did not fit, and those clients tried again a second or more later,
// some after several seconds.)
TEST_F(ServerHardening, BurstOfConnectionsIsAnswered) {
  const int port = start(options());
  EXPECT_EQ(listen_backlog(port), std::min(1024, somaxconn()));

  constexpr int kBurst = 300;
  struct Client {
    Socket socket;
    Clock::time_point started;
    bool sent = false;
    std::string received;
    double seconds = -1;  // until answered or closed
  };
  std::vector<Client> clients;
  clients.reserve(kBurst);
  for (int i = 0; i < kBurst; ++i) {
    const std::string source = "127.1." + std::to_string(i / 200) + "." + std::to_string(i % 200 + 1);
    clients.push_back({Socket(source, port, /*blocking=*/false), Clock::now(), false, {}, -1});
    ASSERT_TRUE(clients.back().socket.open()) << source;
  }
  const std::string request = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  const auto begin = Clock::now();
  int left = kBurst;
  for (int round = 0; round < 2000 && left > 0 && seconds_since(begin) < 20; ++round) {
    std::vector<pollfd> waiting;
    std::vector<Client*> of;
    for (Client& c : clients) {
      if (c.seconds >= 0) continue;
      waiting.push_back({c.socket.fd(), static_cast<short>(c.sent ? POLLIN : POLLOUT), 0});
      of.push_back(&c);
    }
    if (::poll(waiting.data(), waiting.size(), 50) <= 0) continue;
    for (std::size_t i = 0; i < waiting.size(); ++i) {
      Client& c = *of[i];
      if (waiting[i].revents == 0) continue;
      if (!c.sent && (waiting[i].revents & POLLOUT) != 0) {
        c.sent = c.socket.send_all(request);
        if (c.sent) continue;
      }
      const Socket::Read r = c.socket.read_some(c.received, 0);
      std::string copy = c.received;
      if (r == Socket::Read::closed || !c.sent || !take_responses(copy).empty()) {
        c.seconds = seconds_since(c.started);
        --left;
      }
    }
  }
  int answered = 0;
  double slowest = 0;
  for (const Client& c : clients) {
    if (number_after(c.received, "HTTP/1.1 ") == 200) ++answered;
    slowest = std::max(slowest, c.seconds < 0 ? seconds_since(c.started) : c.seconds);
  }
  EXPECT_EQ(answered, kBurst);
  // A connection the kernel dropped is tried again after a second.
  EXPECT_LT(slowest, 1.0);
}

}  // namespace
}  // namespace gs
