#pragma once
// How a fuzz target reports a failed check: the message on stderr, then abort(), which
// libFuzzer and tests/fuzz/driver.cpp both catch and report with the input.
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gs::fuzz {

[[noreturn]] inline void die(const char* target, const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", target, message.c_str());
  std::abort();
}

}  // namespace gs::fuzz
