// A consumer of the installed C++ API: prints `probe --json` of each position given,
// one report after another, or the error's kind and message.
//   consumer_cpp DATA GAME VARIANT POSITION [POSITION...]
#include <gamesolver/database.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::cerr << "usage: consumer_cpp DATA GAME VARIANT POSITION...\n";
    return 2;
  }
  try {
    const gamesolver::Database db = gamesolver::Database::open(argv[1], argv[2], argv[3]);
    for (int i = 4; i < argc; ++i) std::cout << db.probe(argv[i]).json() << "\n";
  } catch (const gamesolver::Error& error) {
    std::cout << "error " << static_cast<int>(error.kind()) << ": " << error.what() << "\n";
    return 1;
  }
  return 0;
}
