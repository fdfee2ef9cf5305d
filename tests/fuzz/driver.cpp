// A main for the fuzz targets where libFuzzer is not linked (g++ builds, the sanitizer
// jobs of scripts/test.sh): runs every file of the corpus directories given, then a
// bounded number of inputs made from them by seeded random mutations (byte flips,
// insertions, deletions, repeats, splices of two inputs, and the targets' own tokens), so
// a run is the same every time. A mutant the target accepts (returns 0, not -1, as
// libFuzzer's targets do) joins the pool that later mutants are made from. A target aborts on a failed check,
// so a failure ends the run with the input written to stderr (escaped) and to fuzz-failure.bin.
//
//   fuzz_positions [--runs N] [--seed S] [--max-len L] CORPUS_DIR...
// bench/fuzz.sh runs the same targets under libFuzzer, coverage-guided, for longer.
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::string current;  // the input being run, for the report of a crash

void report(int signal) {
  std::fprintf(stderr, "fuzz driver: signal %d on an input of %zu bytes, written to fuzz-failure.bin\n",
               signal, current.size());
  std::FILE* file = std::fopen("fuzz-failure.bin", "wb");
  if (file != nullptr) {
    std::fwrite(current.data(), 1, current.size(), file);
    std::fclose(file);
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

bool run(const std::string& input) {
  current = input;
  return LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(current.data()), current.size()) == 0;
}

constexpr std::size_t kMostPooled = 20000;  // inputs kept to mutate

// Tokens of the games' texts, inserted whole by the mutator.
const std::vector<std::string> kTokens = {"/",
                                          " w",
                                          " b",
                                          "7",
                                          "1",
                                          "r",
                                          "R",
                                          "d",
                                          "D",
                                          "t",
                                          "T",
                                          "e",
                                          "E",
                                          "x",
                                          "-",
                                          "W:",
                                          "B:",
                                          ":W",
                                          ":B",
                                          "K",
                                          ",",
                                          "32",
                                          "12",
                                          "a1",
                                          "d7",
                                          "g4",
                                          " 0 0",
                                          " 9 9",
                                          "\n",
                                          "[FEN \"",
                                          "\"]\n",
                                          "[GameType \"21\"]\n",
                                          "[SetUp \"1\"]\n",
                                          "1. ",
                                          "1-0",
                                          "*",
                                          "{",
                                          "}",
                                          "(",
                                          ")",
                                          "\xc3\xa9",
                                          "\xff",
                                          "start"};

std::string mutate(const std::vector<std::string>& corpus, std::mt19937_64& random, std::size_t max_length) {
  auto pick = [&](std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(random() % n); };
  std::string input = corpus[pick(corpus.size())];
  const std::size_t steps = 1 + pick(3);
  for (std::size_t step = 0; step < steps; ++step) {
    const std::size_t at = pick(input.size() + 1);
    switch (pick(7)) {
      case 0:
        if (!input.empty()) input[pick(input.size())] ^= static_cast<char>(1U << pick(8));
        break;
      case 1: input.insert(at, 1, static_cast<char>(pick(256))); break;
      case 2:
        if (!input.empty()) input.erase(pick(input.size()), 1 + pick(8));
        break;
      case 3: input.insert(at, kTokens[pick(kTokens.size())]); break;
      case 4: {
        const std::string& other = corpus[pick(corpus.size())];
        const std::size_t from = pick(other.size() + 1);
        input.insert(at, other.substr(from, pick(other.size() - from + 1)));
        break;
      }
      case 5:
        if (!input.empty()) {
          const std::size_t from = pick(input.size());
          input.insert(at, input.substr(from, 1 + pick(16)));
        }
        break;
      default:
        if (!input.empty()) input[pick(input.size())] = input[pick(input.size())];
        break;
    }
  }
  if (input.size() > max_length) input.resize(max_length);
  return input;
}

}  // namespace

int main(int argc, char** argv) {
  long runs = 10000;
  std::uint64_t seed = 1;
  std::size_t max_length = 4096;
  std::vector<std::string> corpus;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--runs" && i + 1 < argc) {
      runs = std::strtol(argv[++i], nullptr, 10);
    } else if (argument == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (argument == "--max-len" && i + 1 < argc) {
      max_length = std::strtoul(argv[++i], nullptr, 10);
    } else {
      for (const auto& entry : std::filesystem::directory_iterator(argument)) {
        std::ifstream in(entry.path(), std::ios::binary);
        corpus.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      }
    }
  }
  if (corpus.empty()) {
    std::fprintf(stderr, "usage: %s [--runs N] [--seed S] [--max-len L] CORPUS_DIR...\n", argv[0]);
    return 2;
  }
  for (const int signal : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(signal, report);
  for (const std::string& input : corpus) run(input);
  std::mt19937_64 random(seed);
  const std::size_t given = corpus.size();
  long accepted = 0;
  for (long i = 0; i < runs; ++i) {
    std::string input = mutate(corpus, random, max_length);
    if (run(input)) {
      ++accepted;
      if (corpus.size() < kMostPooled) corpus.push_back(std::move(input));
    }
  }
  std::printf("fuzz driver: %zu corpus inputs and %ld mutations (%ld accepted by the target), no failure\n",
              given, runs, accepted);
  return 0;
}
