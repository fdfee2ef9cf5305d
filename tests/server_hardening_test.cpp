// The explorer server against awkward clients and requests: query values that hold '=',
// pipelined requests, a burst of connections, slow clients, many connections from one
// address, endless or slow request lines and headers.
// Everything runs on loopback; clients connect from chosen addresses of 127.0.0.0/8.
// Every loop is bounded in count and in time.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
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
  for (std::size_t i = at + prefix.size();
       i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0; ++i, digits = true) {
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
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0 && errno != EINPROGRESS)
      close();
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
  // Segments this end has sent again (its SYN included), as the kernel counts them; -1
  // when it cannot tell.
  [[nodiscard]] long retransmitted() const {
    tcp_info info{};
    socklen_t size = sizeof info;
    if (::getsockopt(fd_, IPPROTO_TCP, TCP_INFO, &info, &size) != 0) return -1;
    return info.tcpi_total_retrans;
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
  return body.is_object() && body.contains("error") && body["error"].is_string()
             ? body["error"].get<std::string>()
             : std::string();
}

std::size_t occurrences(std::string_view text, std::string_view word) {
  std::size_t count = 0;
  for (std::size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + word.size())) {
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
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0 ||
        address.sin_family != AF_INET || ntohs(address.sin_port) != port) {
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
    ASSERT_TRUE(
        socket.send_all("GET /api/v1/games/jungle HTTP/1.1\r\nHost: x\r\n\r\n"
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
    // Closed after the third, which asked for it, at once: well before the 5 s an idle
    // keep-alive connection waits.
    EXPECT_TRUE(closed);
    EXPECT_LT(seconds_since(begin), 4.0);
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
// is answered, and the kernel dropped none of them (none had to send its SYN or request
// again). (Before: cpp-httplib's backlog of 5; the kernel dropped what did not fit, and
// those clients tried again a second or more later, some after several seconds.)
TEST_F(ServerHardening, BurstOfConnectionsIsAnswered) {
  const int port = start(options());
  EXPECT_EQ(listen_backlog(port), std::min(1024, somaxconn()));

  constexpr int kBurst = 300;
  struct Client {
    Socket socket;
    bool sent = false;
    std::string received;
    bool done = false;  // answered or closed
  };
  std::vector<Client> clients;
  clients.reserve(kBurst);
  for (int i = 0; i < kBurst; ++i) {
    const std::string source = "127.1." + std::to_string(i / 200) + "." + std::to_string(i % 200 + 1);
    clients.push_back({Socket(source, port, /*blocking=*/false), false, {}, false});
    ASSERT_TRUE(clients.back().socket.open()) << source;
  }
  const std::string request = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  const auto begin = Clock::now();
  int left = kBurst;
  for (int round = 0; round < 2000 && left > 0 && seconds_since(begin) < 20; ++round) {
    std::vector<pollfd> waiting;
    std::vector<Client*> of;
    for (Client& c : clients) {
      if (c.done) continue;
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
        c.done = true;
        --left;
      }
    }
  }
  int answered = 0;
  long retransmitted = 0;
  for (const Client& c : clients) {
    if (number_after(c.received, "HTTP/1.1 ") == 200) ++answered;
    const long count = c.socket.retransmitted();
    ASSERT_GE(count, 0);
    retransmitted += count;
  }
  EXPECT_EQ(answered, kBurst);
  // No connection was dropped by the kernel and tried again (its SYN or its request sent
  // a second time): the backlog held the whole burst. With the old backlog of 5, most of
  // the 300 were; a few are allowed for a loopback timer that fires late on a machine
  // too busy to answer in time. (Before: each client had to be answered within 1 s, the
  // time a dropped SYN waits; on a loaded machine the answers themselves took longer.)
  EXPECT_LE(retransmitted, 5);
}

// Slow clients ("slowloris": a request a byte a second) from one address: those beyond
// the bound on connections per address (16 by default) are answered 429 and closed at
// once; the others are answered 408 and closed when their request deadline (3 s here)
// passes. Meanwhile a client from another address is answered at once: slow clients
// cannot hold every worker (64 by default). Then the address may connect again.
// (Before: 8 workers, and a deadline only for each read, 5 s, so that a byte a second
// held a worker as long as it went on, and the other client waited.)
TEST_F(ServerHardening, SlowClientsDoNotStallOthers) {
  server::ServerOptions o = options();
  o.request_timeout_seconds = 3;
  const int port = start(o);
  const int bound = o.max_connections_per_address;
  ASSERT_GT(bound, 0);
  const int count = bound + 4;
  const std::string request = "GET /api/v1/games HTTP/1.1\r\nHost: x\r\nX-Slow: " + std::string(100, 'a');

  struct Slow {
    Socket socket;
    Clock::time_point opened;
    std::string received;
    double ended = -1;  // seconds from opening to closing, -1 while open
  };
  std::vector<Slow> slow;
  for (int i = 0; i < count; ++i) {
    slow.push_back({Socket("127.0.0.1", port), Clock::now(), {}, -1});
    ASSERT_TRUE(slow.back().socket.open());
  }
  Response normal;
  double normal_seconds = -1;
  double normal_answered = -1;  // seconds from the first slow connection
  std::thread normal_client;
  const auto begin = slow.front().opened;
  std::size_t sent = 0;
  // Ticks of 50 ms for 10 s at most: a byte a second on each slow connection that has
  // had no answer; the normal request after 1.5 s.
  for (int tick = 0; tick < 200; ++tick) {
    if (tick == 30) {
      normal_client = std::thread([&] {
        const auto start = Clock::now();
        normal = get(port, "/api/v1/games/jungle", "127.0.0.2", 5);
        normal_seconds = seconds_since(start);
        normal_answered = seconds_since(begin);
      });
    }
    if (tick % 20 == 0 && sent < request.size()) {
      for (Slow& s : slow) {
        if (s.ended < 0 && s.received.empty()) s.socket.send_now(std::string_view(request).substr(sent, 1));
      }
      ++sent;
    }
    bool all_ended = true;
    for (Slow& s : slow) {
      while (s.ended < 0) {
        const Socket::Read r = s.socket.read_some(s.received, 0);
        if (r == Socket::Read::closed) s.ended = seconds_since(s.opened);
        if (r != Socket::Read::data) break;
      }
      all_ended = all_ended && s.ended >= 0;
    }
    if (all_ended && tick > 30) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  normal_client.join();
  const double seconds = seconds_since(begin);

  EXPECT_EQ(normal.status, 200) << "after " << normal_seconds << " s";
  // Answered while the slow connections still held their workers: before the first of
  // them was cut off at its deadline.
  double first_cut_off = seconds;
  int refused = 0;
  int timed_out = 0;
  for (const Slow& s : slow) {
    const int status = static_cast<int>(number_after(s.received, "HTTP/1.1 "));
    if (status == 429) {
      ++refused;
      EXPECT_GE(s.ended, 0);
      EXPECT_LT(s.ended, 2.5) << "429 and closed at once, before any deadline";
      EXPECT_NE(s.received.find("at most " + std::to_string(bound)), std::string::npos) << s.received;
    } else if (status == 408) {
      ++timed_out;
      EXPECT_GE(s.ended, 2.5);
      EXPECT_LT(s.ended, 6.0) << "closed at the 3 s deadline";
      first_cut_off =
          std::min(first_cut_off, std::chrono::duration<double>(s.opened - begin).count() + s.ended);
    } else {
      ADD_FAILURE() << "a slow connection " << (s.ended < 0 ? "still open" : "closed") << " after " << seconds
                    << " s with " << (s.received.empty() ? "no answer" : s.received.substr(0, 100));
    }
  }
  EXPECT_EQ(refused, count - bound);
  EXPECT_EQ(timed_out, bound);
  EXPECT_GE(normal_answered, 0);
  EXPECT_LT(normal_answered, first_cut_off) << "the normal request waited for the slow ones";
  // Their connections gone, the address is served again.
  EXPECT_EQ(get(port, "/api/v1/games/jungle").status, 200);
}

// A request line that does not end is cut off with 414 once the request passes 64 KiB +
// the bound on bodies (80 KiB), at once, whatever keeps coming. (Before: read whole into
// memory for as long as it came.)
TEST_F(ServerHardening, EndlessRequestLineIsCutOff) {
  const int port = start(options());
  Socket socket("127.0.0.3", port);
  ASSERT_TRUE(socket.open());
  const auto begin = Clock::now();
  std::string received;
  bool closed = false;
  // 16 KiB at a time, up to 16 MiB or 5 s, reading as it goes.
  const std::string chunk(16384, 'a');
  ASSERT_TRUE(socket.send_all("GET /"));
  for (int i = 0; i < 1024 && !closed && seconds_since(begin) < 5; ++i) {
    if (socket.send_now(chunk) < 0) break;  // reset: the server is gone from this connection
    closed = socket.read_some(received, 5) == Socket::Read::closed;
  }
  for (int i = 0; i < 100 && !closed; ++i) closed = socket.read_some(received, 50) == Socket::Read::closed;
  EXPECT_TRUE(closed);
  EXPECT_LT(seconds_since(begin), 4.5);
  // The answer, unless the connection was reset before it could be read.
  if (!received.empty()) {
    EXPECT_EQ(number_after(received, "HTTP/1.1 "), 414) << received.substr(0, 200);
    EXPECT_NE(received.find("request larger than 80 KiB"), std::string::npos) << received.substr(0, 300);
  }
  EXPECT_EQ(get(port, "/api/v1/games/jungle").status, 200);
}

// Cut off in the headers, where cpp-httplib answers the request itself: endless headers
// get 431, headers that come too slowly 408, each with a JSON error, and the connection
// is closed. (Before: endless headers were read as long as they came, and slow ones
// held the connection as long as no pause passed 5 s.)
TEST_F(ServerHardening, EndlessOrSlowHeadersAreCutOff) {
  server::ServerOptions o = options();
  o.request_timeout_seconds = 2;
  const int port = start(o);
  {
    Socket socket("127.0.0.6", port);
    ASSERT_TRUE(socket.open());
    const auto begin = Clock::now();
    std::string headers;
    for (int i = 0; i < 1000; ++i)
      headers += "X-Header-" + std::to_string(i) + ": " + std::string(100, 'h') + "\r\n";
    ASSERT_TRUE(socket.send_all("GET /api/v1/games HTTP/1.1\r\nHost: x\r\n"));
    socket.send_all(headers);  // may fail once the server has closed
    bool closed = false;
    const std::vector<Response> responses = socket.responses(2, 5, &closed);
    ASSERT_EQ(responses.size(), 1U);
    EXPECT_EQ(responses[0].status, 431);
    EXPECT_EQ(error_of(responses[0]), "request larger than 80 KiB");
    EXPECT_TRUE(closed);
    EXPECT_LT(seconds_since(begin), 4.0);
  }
  {
    Socket socket("127.0.0.6", port);
    ASSERT_TRUE(socket.open());
    const auto begin = Clock::now();
    ASSERT_TRUE(socket.send_all("GET /api/v1/games HTTP/1.1\r\nHost: x\r\n"));
    std::string received;
    bool closed = false;
    // A header byte every 0.5 s, for 5 s at most.
    const std::string slow = "X-Slow: aaaaaaaaaa";
    for (std::size_t i = 0; i < slow.size() && !closed && received.empty(); ++i) {
      socket.send_now(std::string_view(slow).substr(i, 1));
      for (int k = 0; k < 10 && !closed; ++k) closed = socket.read_some(received, 50) == Socket::Read::closed;
    }
    for (int k = 0; k < 40 && !closed; ++k) closed = socket.read_some(received, 50) == Socket::Read::closed;
    const double seconds = seconds_since(begin);
    const std::vector<Response> responses = take_responses(received);
    ASSERT_EQ(responses.size(), 1U) << received;
    EXPECT_EQ(responses[0].status, 408);
    EXPECT_EQ(error_of(responses[0]),
              "request timeout: a request must arrive within 2 s, with no pause over 5 s");
    EXPECT_TRUE(closed);
    EXPECT_GE(seconds, 1.5);
    EXPECT_LT(seconds, 4.5);
  }
  EXPECT_EQ(get(port, "/api/v1/games/jungle", "127.0.0.6").status, 200);
}

// `gamesolver serve` takes the limits as options, says them when it starts, and keeps
// them: with --max-connections-per-address 3, a fourth connection from one address is
// answered 429 while three idle ones are open, and another address is served.
TEST_F(ServerHardening, ServeCommandTakesTheLimits) {
  TempDir capture;
  const test::RunResult help = test::run({GAMESOLVER_BINARY, "serve", "--help"}, capture.path());
  EXPECT_EQ(help.exit_code, 0);
  for (const char* option :
       {"--threads", "--request-timeout", "--max-connections-per-address", "--backlog"}) {
    EXPECT_NE(help.out.find(option), std::string::npos) << option << "\n" << help.out;
  }
  test::Child serve({GAMESOLVER_BINARY, "serve", "--port", "0", "--data", (dir_.path() / "data").string(),
                     "--web", (dir_.path() / "web").string(), "--threads", "12", "--request-timeout", "7",
                     "--max-connections-per-address", "3", "--backlog", "2048"},
                    capture.path());
  std::string line;
  int port = 0;
  for (int i = 0; i < 600 && port <= 0 && !serve.finished(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (const fs::directory_entry& entry : fs::directory_iterator(capture.path())) {
      if (entry.path().extension() != ".out") continue;
      line = test::read_file(entry.path());
      port = static_cast<int>(number_after(line, "http://127.0.0.1:"));
    }
  }
  ASSERT_GT(port, 0) << line;
  EXPECT_NE(line.find("12 workers, requests within 7 s, 3 connections per address, backlog 2048"),
            std::string::npos)
      << line;
  {
    std::vector<Socket> idle;
    for (int i = 0; i < 3; ++i) {
      idle.emplace_back("127.0.0.4", port);
      ASSERT_TRUE(idle.back().open());
    }
    // Give the server the time to take the three.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const Response refused = get(port, "/api/v1/games/jungle", "127.0.0.4");
    EXPECT_EQ(refused.status, 429);
    EXPECT_EQ(error_of(refused), "too many connections from 127.0.0.4 (at most 3 at a time)");
    EXPECT_EQ(get(port, "/api/v1/games/jungle", "127.0.0.5").status, 200);
  }
  serve.kill(SIGTERM);
  const test::RunResult result = serve.wait();
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
}

// One checkers position per material (Black's kings, White's kings, Black's men, White's
// men; every side at most 12 pieces), Black to move, each side's leading man on the rank
// before its crowning row where it has men: the positions whose men index once needed a
// table of running totals per slice, up to 220 MB each.
std::vector<std::string> checkers_material_positions() {
  auto row = [](int r) { return std::vector<int>{4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3}; };
  std::vector<int> black_order = {24};  // row 6, then rows 0-5, then the rest of row 6
  for (int r = 0; r < 6; ++r) {
    const std::vector<int> squares = row(r);
    black_order.insert(black_order.end(), squares.begin(), squares.end());
  }
  black_order.insert(black_order.end(), {25, 26, 27});
  std::vector<int> white_order = {7};  // row 1, then rows 7-2, then the rest of row 1
  for (int r = 7; r >= 2; --r) {
    const std::vector<int> squares = row(r);
    white_order.insert(white_order.end(), squares.begin(), squares.end());
  }
  white_order.insert(white_order.end(), {4, 5, 6});
  std::vector<std::string> positions;
  for (int bk = 0; bk <= 12; ++bk) {
    for (int bm = 0; bk + bm <= 12; ++bm) {
      for (int wk = 0; wk <= 12; ++wk) {
        for (int wm = 0; wk + wm <= 12; ++wm) {
          if (bk + bm == 0 || wk + wm == 0) continue;
          std::array<char, 32> square{};  // 0 empty, 'b'/'w' men, 'B'/'W' kings
          int placed = 0;
          for (const int s : black_order) {
            if (placed == bm) break;
            square[static_cast<std::size_t>(s)] = 'b';
            ++placed;
          }
          placed = 0;
          for (const int s : white_order) {
            if (placed == wm) break;
            if (square[static_cast<std::size_t>(s)] != 0) continue;
            square[static_cast<std::size_t>(s)] = 'w';
            ++placed;
          }
          int kings = 0;
          for (std::size_t s = 0; s < 32 && kings < bk + wk; ++s) {
            if (square[s] != 0) continue;
            square[s] = kings < bk ? 'B' : 'W';
            ++kings;
          }
          std::vector<std::string> white;
          std::vector<std::string> black;
          for (std::size_t s = 0; s < 32; ++s) {
            const char piece = square[s];
            if (piece == 0) continue;
            (piece == 'w' || piece == 'W' ? white : black)
                .push_back(fmt::format("{}{}", piece == 'W' || piece == 'B' ? "K" : "", s + 1));
          }
          positions.push_back(fmt::format("B:W{}:B{}", fmt::join(white, ","), fmt::join(black, ",")));
        }
      }
    }
  }
  return positions;
}

// The peak resident memory of a process in KiB (VmHWM), or -1.
long peak_rss_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("VmHWM:")) return std::stol(line.substr(6));
  }
  return -1;
}

// `gamesolver serve` in 512 MiB of address space (ulimit -v) answers a position of every
// checkers material, 8,100 of them up to 24 pieces, with a well-formed report, and is
// still serving at the end. Before the men index kept its tables bounded
// (games/checkers/men_overlap.h) each material with advanced men kept a table of up to
// 220 MB: under 4 GiB the server answered 416 of these with 500 (std::bad_alloc), and
// its resident memory reached 3.5 GB.
TEST(ServerMemory, EveryCheckersMaterialWithinAMemoryLimit) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizers reserve more address space than the limit";
#endif
  TempDir dir;
  const fs::path data = dir.path() / "data";
  const fs::path web = dir.path() / "web";
  fs::create_directories(web);
  test::write_file(web / "index.html", "<!doctype html><title>explorer</title>");
  const test::RunResult built =
      test::run({GAMESOLVER_BINARY, "build", "checkers", "--pieces", "2", "--data", data.string(), "--quiet"},
                dir.path());
  ASSERT_EQ(built.exit_code, 0) << built.err;
  constexpr long kLimitKib = 512L << 10;
  test::Child serve({"/bin/sh", "-c",
                     "ulimit -v " + std::to_string(kLimitKib) +
                         R"( && exec "$0" serve --port 0 --threads 4 --data "$1" --web "$2")",
                     GAMESOLVER_BINARY, data.string(), web.string()},
                    dir.path());
  int port = 0;
  for (int i = 0; i < 600 && port <= 0 && !serve.finished(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (const fs::directory_entry& entry : fs::directory_iterator(dir.path())) {
      if (entry.path().extension() == ".out")
        port = static_cast<int>(number_after(test::read_file(entry.path()), "http://127.0.0.1:"));
    }
  }
  ASSERT_GT(port, 0) << "serve did not start";
  const std::vector<std::string> positions = checkers_material_positions();
  ASSERT_EQ(positions.size(), 8100U);
  const auto start = Clock::now();
  int answered = 0;
  std::vector<std::string> failures;
  for (const std::string& position : positions) {
    const Response response = get(port, "/api/v1/games/checkers/positions?p=" + position, "127.0.0.1", 30);
    const json body = json::parse(response.body, nullptr, false);
    if (response.status == 200 && body.is_object() && body.value("position", "") == position &&
        body.contains("value") && body.contains("tier") && body["moves"].is_array()) {
      ++answered;
    } else if (failures.size() < 10) {
      failures.push_back(position + ": " + std::to_string(response.status) + " " +
                         response.body.substr(0, 200));
    }
    if (serve.finished()) break;
  }
  EXPECT_EQ(answered, 8100) << "the first failures:\n"
                            << [&] {
                                 std::string text;
                                 for (const std::string& failure : failures) text += "  " + failure + "\n";
                                 return text;
                               }();
  ASSERT_FALSE(serve.finished()) << "serve ended";
  const long peak = peak_rss_kib(serve.pid());
  EXPECT_GT(peak, 0);
  EXPECT_LT(peak, kLimitKib);
  std::cerr << fmt::format("{} positions in {:.1f} s; serve's peak resident memory {:.1f} MiB\n", answered,
                           seconds_since(start), static_cast<double>(peak) / 1024);
  serve.kill(SIGTERM);
  const test::RunResult result = serve.wait();
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
}

}  // namespace
}  // namespace gs
