#pragma once
// What the ranks of an MPI job send each other, for both kinds of work farmed out to
// worker ranks (tiers, dist/mpi.cpp; proof jobs, dist/job_farm.cpp): messages of a few
// 64-bit words, texts after some of them, a worker's heartbeats while it works, and how
// a manager ends the ranks it gave up. Compiled with MPI only; callers hold a Session.
#include <array>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gs::dist::wire {

enum Tag : int { kToManager = 1, kText = 2, kToWorker = 3 };
// Worker to manager: kHello (pid in word 5, then the host name as a text), kAlive every
// heartbeat while it works, kDone, kFailed (then the error text); manager to worker:
// kWork, kStop. What the other words and texts hold is the farm's own.
enum Kind : std::int64_t { kHello = 0, kAlive = 1, kDone = 2, kFailed = 3, kWork = 4, kStop = 5 };
using Message = std::array<std::int64_t, 6>;

// Throws gs::Error with MPI's text for a failed call.
void check(int code, const char* what);
// Sends, throwing on failure.
void send(const Message& message, int to, int tag);
void send_text(const std::string& text, int to);
// Sends to a rank that may be dead: a failure is ignored (its silence gives it up).
void post(const Message& message, int to, int tag);
void post_text(const std::string& text, int to);
Message receive(int from, int tag);
std::string receive_text(int from);
// The rank a message with this tag waits from, if one does.
std::optional<int> waiting(int tag);

// A worker's hello: its pid and host name.
void hello();

// Runs `work` on a second thread while this one (the only one calling MPI) sends kAlive
// with `job` in word 1 every `heartbeat_seconds`; returns what `work` threw, if anything.
std::exception_ptr beating(std::int64_t job, double heartbeat_seconds, const std::function<void()>& work);

// The text of an exception.
std::string message_of(const std::exception_ptr& error);

// A worker rank as the manager knows it from its hello.
struct RankProcess {
  int rank = 0;
  std::int64_t pid = 0;
  std::string host;
};

// Given-up ranks still running on this machine (stopped, deadlocked, swapping) are
// killed, since MPI_Finalize would wait for them forever; returns the ranks not known to
// be dead (on another machine one cannot be told from a dead one from here).
std::vector<int> end_lost_ranks(const std::vector<RankProcess>& lost);

}  // namespace gs::dist::wire
