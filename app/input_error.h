#pragma once
// Errors the library (gamesolver/error.h) and the server tell apart from other failures.
// A request the user got wrong (bad position or move text, an illegal move), as opposed
// to a failure of the databases: the server answers it with 400, the command line with
// the same message as any other error.
#include "core/error.h"

namespace gs::app {

class InputError : public Error {
 public:
  using Error::Error;
};

// Something asked for that is not there: a data directory, or the directory of a
// variant's databases in it.
class NotFoundError : public Error {
 public:
  using Error::Error;
};

}  // namespace gs::app
