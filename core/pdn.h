#pragma once
// Game files in the notation of chess's PGN as draughts programs write it (PDN,
// Portable Draughts Notation): tag pairs `[Name "value"]`, then the move text with move
// numbers, comments, variations, annotations and a result, several games to a file.
//
//   [Event "casual"]
//   [SetUp "1"]
//   [FEN "B:W21,22:B1,2"]
//   1. 11-15 {a comment} 23-19 ; to the end of the line
//   2. 8-11 (2. 9-13 $2 ...) 22-17! 1/2-1/2
//
// This file knows no game: a move is the text between separators, which the game's own
// parse_move reads (app/pdn_game.h). Skipped: comments `{...}` and `; ...`, variations
// `(...)` (nested), NAGs `$n`, `!`/`?` suffixes, move numbers `1.` and `1...` (also
// glued to the move, `1.11-15`), lines starting with `%`. Results: `1-0` (the side that
// moves first in the game's start position wins: Black in checkers), `0-1`, `1/2-1/2`,
// `*` (unfinished). Every game must end with a result; a file that ends inside a tag,
// comment or variation, or after moves without a result, is reported as truncated.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gs::pdn {

// 1-based line and column (in bytes) in the file.
struct Place {
  int line = 1;
  int column = 1;
};

struct Tag {
  std::string name;
  std::string value;
  Place place;
};

struct MoveToken {
  std::string text;  // without move number, NAG or !/? suffix
  Place place;
};

struct Game {
  std::vector<Tag> tags;
  std::vector<MoveToken> moves;
  std::string result = "*";  // 1-0, 0-1, 1/2-1/2 or *
  Place place;               // where the game starts in its file

  // The value of a tag, nullptr if the game has none.
  [[nodiscard]] const Tag* tag(std::string_view name) const;
  // Sets a tag's value, adding it at the end if the game has none.
  void set_tag(std::string_view name, std::string_view value);
  void erase_tag(std::string_view name);
};

// Every game of a file's text; `source` names the file in errors, which are gs::Error
// "SOURCE:LINE:COLUMN: what is wrong".
std::vector<Game> parse(std::string_view text, const std::string& source);
// The most bytes read_file reads.
inline constexpr std::size_t kMaxFileBytes = std::size_t{16} << 20;
// The games of a file (an error if it is not a regular file, is larger than
// kMaxFileBytes, cannot be read or holds no game).
std::vector<Game> read_file(const std::filesystem::path& path);

// A game as PDN text: its tags one a line, a blank line, the moves numbered from
// `first_number` in lines of at most 80 characters, the result, a blank line. With
// `second_half`, the first move is the second of its move pair (`1... 23-19`: the side
// that moves second in the start position is to move).
std::string write(const Game& game, int first_number = 1, bool second_half = false);
// Writes the text of write() (one game or several) to a file, replacing it atomically
// (a temporary file renamed).
void write_file(const std::filesystem::path& path, const std::string& text);

// Whether a token is a result marker.
bool is_result(std::string_view token);

}  // namespace gs::pdn
