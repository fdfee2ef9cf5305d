#include "core/quote.h"

#include <fmt/format.h>

namespace gs {
namespace {

// The length of the valid UTF-8 character at text[at], or 0 when the bytes there are not
// one (a stray continuation byte, a truncated sequence, an overlong form, a surrogate or
// a code point past U+10FFFF).
std::size_t utf8_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  char32_t code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1FU;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0FU;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07U;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0U) != 0x80U) return 0;
    code = code << 6U | (byte(at + i) & 0x3FU);
  }
  if ((length == 3 && code < 0x800) || (length == 4 && (code < 0x10000 || code > 0x10FFFF))) return 0;
  if (code >= 0xD800 && code <= 0xDFFF) return 0;
  return length;
}

// Appends text, escaped, stopping after `limit` characters; returns where it stopped.
std::size_t append_escaped(std::string& out, std::string_view text, std::size_t limit) {
  std::size_t at = 0;
  for (std::size_t shown = 0; at < text.size() && shown < limit; ++shown) {
    const auto byte = static_cast<unsigned char>(text[at]);
    const std::size_t length = utf8_length(text, at);
    if (length == 1 && byte >= 0x20 && byte != 0x7F) {
      out += text[at];
    } else if (length > 1) {
      out.append(text.substr(at, length));
    } else if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\t') {
      out += "\\t";
    } else if (byte == '\r') {
      out += "\\r";
    } else {
      out += fmt::format("\\x{:02X}", byte);
    }
    at += length > 0 ? length : 1;
  }
  return at;
}

}  // namespace

std::string quote_input(std::string_view text, std::size_t limit, char mark) {
  std::string out(1, mark);
  const std::size_t stopped = append_escaped(out, text, limit);
  out += mark;
  if (stopped < text.size()) {
    out.insert(out.size() - 1, "...");
    out += fmt::format(" ({} bytes)", text.size());
  }
  return out;
}

std::string printable(std::string_view text, std::size_t limit) {
  std::string out;
  if (append_escaped(out, text, limit) < text.size()) out += fmt::format("... ({} bytes)", text.size());
  return out;
}

}  // namespace gs
