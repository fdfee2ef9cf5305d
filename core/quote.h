#pragma once
// User text inside messages. An error echoes what it refuses (a position, a move, an
// option's value), and that text can be anything: a megabyte, control characters, bytes
// that are not UTF-8. quote_input() gives it back fit for one line of a terminal or a log: in
// single quotes, at most kQuoteLimit characters of it (then "..." and its size in bytes),
// control characters escaped as \n, \t, \r or \xNN, and each byte that is not part of a
// valid UTF-8 character as \xNN, so the line stays valid UTF-8.
#include <cstddef>
#include <string>
#include <string_view>

namespace gs {

inline constexpr std::size_t kQuoteLimit = 80;  // characters of the text shown

// 'text', escaped and cut to `limit` characters as above; `mark` is the quote character
// ('"' for the value of a PDN tag, say).
std::string quote_input(std::string_view text, std::size_t limit = kQuoteLimit, char mark = '\'');
// One character: 'x', or '\xNN' for a control character or a byte of a UTF-8 sequence.
inline std::string quote_input(char c) { return quote_input(std::string_view(&c, 1)); }

inline constexpr std::size_t kMessageLimit = 2000;  // characters of a whole message

// The text escaped as quote_input() does, not quoted, cut after `limit` characters (then
// "... (N bytes)"): what the front ends print or send of a whole error message, whatever
// its parts (a library's message may echo its input too).
std::string printable(std::string_view text, std::size_t limit = kMessageLimit);

}  // namespace gs
