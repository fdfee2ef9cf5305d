#pragma once
// The one exception of gamesolver's C++ library (gamesolver/database.h). Every failure
// a caller can cause or meet is thrown as a gamesolver::Error whose message is the one
// the gamesolver command prints after "gamesolver: error: ", and whose kind says what
// went wrong. The C API (gamesolver/gamesolver.h) returns the kind as its status code.
#include <stdexcept>
#include <string>

namespace gamesolver {

enum class ErrorKind {
  // The caller's text or arguments: bad position or move text, an illegal move, a piece
  // count out of range.
  kInput = 1,
  // Not there: an unknown game, variant or rule option, a missing data directory or no
  // databases of the variant in it.
  kNotFound = 2,
  // The databases: a damaged, truncated or foreign file, a read or write that failed, a
  // directory locked by another writer.
  kDatabase = 3,
  // Anything else (out of memory, an internal error).
  kInternal = 4,
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message);
  [[nodiscard]] ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

}  // namespace gamesolver
