#pragma once
// A rule option as given on the command line, "key=value", shared by the games.
#include <string>

#include "core/error.h"
#include "core/quote.h"

namespace gs {

struct RuleOption {
  std::string key;
  std::string value;

  // "key=value" split at the first '='; throws gs::Error for text without one.
  static RuleOption parse(const std::string& text) {
    const auto equals = text.find('=');
    if (equals == std::string::npos) fail("rule option {} is not of the form key=value", quote_input(text));
    return {text.substr(0, equals), text.substr(equals + 1)};
  }
  // on/off (also 1/0, true/false, yes/no); throws gs::Error for anything else.
  [[nodiscard]] bool as_bool() const {
    if (value == "on" || value == "1" || value == "true" || value == "yes") return true;
    if (value == "off" || value == "0" || value == "false" || value == "no") return false;
    fail("rule option {} takes on or off, not {}", key, quote_input(value));
  }
};

}  // namespace gs
