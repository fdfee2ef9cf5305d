#include "dist/mpi_wire.h"

#include <fmt/format.h>
#include <mpi.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "core/error.h"
#include "core/host.h"

namespace gs::dist::wire {

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) {
    std::array<char, MPI_MAX_ERROR_STRING> text{};
    int length = 0;
    MPI_Error_string(code, text.data(), &length);
    fail("MPI: {} failed: {}", what, std::string(text.data(), static_cast<std::size_t>(length)));
  }
}

namespace {

int send_words(const Message& message, int to, int tag) {
  return MPI_Send(message.data(), static_cast<int>(message.size()), MPI_INT64_T, to, tag, MPI_COMM_WORLD);
}

int send_chars(const std::string& text, int to) {
  return MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, kText, MPI_COMM_WORLD);
}

}  // namespace

void send(const Message& message, int to, int tag) { check(send_words(message, to, tag), "MPI_Send"); }
void send_text(const std::string& text, int to) { check(send_chars(text, to), "MPI_Send"); }
void post(const Message& message, int to, int tag) { (void)send_words(message, to, tag); }
void post_text(const std::string& text, int to) { (void)send_chars(text, to); }

Message receive(int from, int tag) {
  Message message{};
  check(MPI_Recv(message.data(), static_cast<int>(message.size()), MPI_INT64_T, from, tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE),
        "MPI_Recv");
  return message;
}

std::string receive_text(int from) {
  MPI_Status status{};
  check(MPI_Probe(from, kText, MPI_COMM_WORLD, &status), "MPI_Probe");
  int length = 0;
  MPI_Get_count(&status, MPI_CHAR, &length);
  std::string text(static_cast<std::size_t>(length), '\0');
  check(MPI_Recv(text.data(), length, MPI_CHAR, from, kText, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
  return text;
}

std::optional<int> waiting(int tag) {
  int flag = 0;
  MPI_Status status{};
  check(MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &status), "MPI_Iprobe");
  if (!flag) return std::nullopt;
  return status.MPI_SOURCE;
}

void hello() {
  send({kHello, 0, 0, 0, 0, static_cast<std::int64_t>(::getpid())}, 0, kToManager);
  send_text(host_name("?"), 0);
}

std::exception_ptr beating(std::int64_t job, double heartbeat_seconds, const std::function<void()>& work) {
  std::atomic<bool> finished{false};
  std::exception_ptr failure;
  std::thread worker([&] {
    try {
      work();
    } catch (...) {
      failure = std::current_exception();
    }
    finished.store(true, std::memory_order_release);
  });
  const auto heartbeat = std::chrono::duration<double>(heartbeat_seconds);
  auto last = std::chrono::steady_clock::now();
  while (!finished.load(std::memory_order_acquire)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (std::chrono::steady_clock::now() - last >= heartbeat) {
      send({kAlive, job, 0, 0, 0, 0}, 0, kToManager);
      last = std::chrono::steady_clock::now();
    }
  }
  worker.join();
  return failure;
}

std::string message_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

std::vector<int> end_lost_ranks(const std::vector<RankProcess>& lost) {
  const std::string here = host_name("?");
  std::vector<int> hung;
  for (const RankProcess& process : lost) {
    bool dead = false;
    if (process.host == here && process.pid > 0) {
      const std::string proc = fmt::format("/proc/{}", process.pid);
      std::error_code ignored;
      if (std::filesystem::exists(proc, ignored)) {
        fmt::print(stderr, "manager: rank {} (pid {}) is still running: killing it\n", process.rank,
                   process.pid);
        ::kill(static_cast<pid_t>(process.pid), SIGKILL);
      }
      for (int wait = 0; wait < 500 && std::filesystem::exists(proc, ignored); ++wait) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      dead = !std::filesystem::exists(proc, ignored);
    }
    if (!dead) hung.push_back(process.rank);
  }
  return hung;
}

}  // namespace gs::dist::wire
