#include "gamesolver/error.h"

namespace gamesolver {

Error::Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}

}  // namespace gamesolver
