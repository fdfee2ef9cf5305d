#pragma once
// The one error type of gamesolver. Every failure a user can cause (bad position text,
// an unknown game or option, a missing or corrupt database file, a full disk) is thrown
// as an Error with a message that names what is wrong; the CLI prints it and exits
// non-zero.
#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace gs {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

template <class... Args>
[[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) {
  throw Error(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace gs
