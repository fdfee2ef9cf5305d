// A consumer of the installed C++ API: prints `probe --json` of each position given,
// one report after another, or the error's kind and message.
//   consumer_cpp DATA GAME VARIANT RULES POSITION [POSITION...]
// RULES is a comma-separated list of rule options, or "".
#include <gamesolver/database.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 6) {
    std::cerr << "usage: consumer_cpp DATA GAME VARIANT RULES POSITION...\n";
    return 2;
  }
  std::vector<std::string> rules;
  std::istringstream list(argv[4]);
  for (std::string rule; std::getline(list, rule, ',');) rules.push_back(rule);
  try {
    const gamesolver::Database db = gamesolver::Database::open(argv[1], argv[2], argv[3], rules);
    for (int i = 5; i < argc; ++i) std::cout << db.probe(argv[i]).json() << "\n";
  } catch (const gamesolver::Error& error) {
    std::cout << "error " << static_cast<int>(error.kind()) << ": " << error.what() << "\n";
    return 1;
  }
  return 0;
}
