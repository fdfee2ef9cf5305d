#include "core/pdn.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <system_error>
#include <utility>

#include "core/error.h"
#include "core/quote.h"

namespace gs::pdn {

const Tag* Game::tag(std::string_view name) const {
  for (const Tag& t : tags) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

void Game::set_tag(std::string_view name, std::string_view value) {
  for (Tag& t : tags) {
    if (t.name == name) {
      t.value = value;
      return;
    }
  }
  tags.push_back({std::string(name), std::string(value), {}});
}

void Game::erase_tag(std::string_view name) {
  std::erase_if(tags, [&](const Tag& t) { return t.name == name; });
}

bool is_result(std::string_view token) {
  return token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*";
}

namespace {

// Reads a file's text a character at a time, keeping the line and column.
class Reader {
 public:
  Reader(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  [[nodiscard]] bool done() const { return at_ >= text_.size(); }
  [[nodiscard]] char peek() const { return done() ? '\0' : text_[at_]; }
  [[nodiscard]] Place place() const { return place_; }
  char next() {
    const char c = text_[at_++];
    if (c == '\n') {
      ++place_.line;
      place_.column = 1;
    } else {
      ++place_.column;
    }
    return c;
  }
  void skip_space() {
    while (!done() && std::isspace(static_cast<unsigned char>(peek())) != 0) next();
  }
  void skip_line() {
    while (!done() && peek() != '\n') next();
  }

  template <class... Args>
  [[noreturn]] void fail_at(Place place, fmt::format_string<Args...> format, Args&&... args) const {
    throw Error(fmt::format("{}:{}:{}: {}", source_, place.line, place.column,
                            fmt::format(format, std::forward<Args>(args)...)));
  }

 private:
  std::string_view text_;
  const std::string& source_;
  std::size_t at_ = 0;
  Place place_;
};

constexpr std::size_t kMaxTagName = 64;  // characters of a tag's name

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// `[Name "value"]`, the reader on the '['.
Tag read_tag(Reader& in) {
  Tag tag;
  tag.place = in.place();
  in.next();
  in.skip_space();
  while (!in.done() && is_name_char(in.peek())) {
    tag.name += in.next();
    // Names are words (Event, FEN, GameType): a longer one is not a tag, and is not
    // echoed whole in the messages below.
    if (tag.name.size() > kMaxTagName)
      in.fail_at(tag.place, "bad tag: a name of more than {} characters", kMaxTagName);
  }
  if (tag.name.empty()) {
    if (in.done()) in.fail_at(tag.place, "truncated file: the tag opened here is not closed");
    in.fail_at(in.place(), "bad tag: expected a tag name (letters, digits, _) after '[', not {}",
               quote_input(in.peek()));
  }
  in.skip_space();
  if (in.done()) in.fail_at(tag.place, "truncated file: the tag [{} opened here is not closed", tag.name);
  if (in.peek() != '"') {
    in.fail_at(in.place(), "bad tag [{}: expected its value in double quotes, not {}", tag.name,
               quote_input(in.peek()));
  }
  const Place quote = in.place();
  in.next();
  while (true) {
    if (in.done())
      in.fail_at(quote, "truncated file: the value of tag [{} opened here is not closed", tag.name);
    const char c = in.next();
    if (c == '"') break;
    if (c == '\n') in.fail_at(quote, "bad tag [{}: its value runs past the end of the line", tag.name);
    if (c == '\\' && (in.peek() == '"' || in.peek() == '\\')) {
      tag.value += in.next();
      continue;
    }
    tag.value += c;
  }
  in.skip_space();
  if (in.done()) in.fail_at(tag.place, "truncated file: the tag [{} opened here is not closed", tag.name);
  if (in.peek() != ']') {
    in.fail_at(in.place(), "bad tag [{}: expected ']' after its value, not {}", tag.name,
               quote_input(in.peek()));
  }
  in.next();
  return tag;
}

// A comment `{...}`, the reader on the '{'.
void skip_comment(Reader& in) {
  const Place open = in.place();
  in.next();
  while (true) {
    if (in.done()) in.fail_at(open, "truncated file: the comment '{{' opened here is not closed");
    if (in.next() == '}') return;
  }
}

// A variation `(...)`, nested variations and comments in it, the reader on the '('.
void skip_variation(Reader& in) {
  const Place open = in.place();
  in.next();
  int depth = 1;
  while (depth > 0) {
    if (in.done()) in.fail_at(open, "truncated file: the variation '(' opened here is not closed");
    const char c = in.peek();
    if (c == '{') {
      skip_comment(in);
    } else if (c == ';') {
      in.skip_line();
    } else {
      in.next();
      if (c == '(') ++depth;
      if (c == ')') --depth;
    }
  }
}

bool ends_token(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0 || c == '{' || c == '}' || c == '(' || c == ')' ||
         c == ';' || c == '[' || c == ']' || c == '$';
}

}  // namespace

std::vector<Game> parse(std::string_view text, const std::string& source) {
  Reader in(text, source);
  std::vector<Game> games;
  Game game;
  bool open = false;  // a game has begun (tags or moves) and has no result yet
  bool in_moves = false;
  auto begin = [&](Place place) {
    if (!open) {
      game = Game();
      game.place = place;
      open = true;
      in_moves = false;
    }
  };
  bool line_start = true;
  while (true) {
    // '%' in the first column escapes the line (PGN).
    while (!in.done() && std::isspace(static_cast<unsigned char>(in.peek())) != 0) {
      line_start = in.next() == '\n';
    }
    if (in.done()) break;
    const Place place = in.place();
    const char c = in.peek();
    if (c == '%' && (line_start || place.column == 1)) {
      in.skip_line();
      continue;
    }
    line_start = false;
    if (c == '[') {
      if (open && in_moves) {
        in.fail_at(place,
                   "the game that starts at line {} has no result (1-0, 0-1, 1/2-1/2 or *) before this tag",
                   game.place.line);
      }
      begin(place);
      Tag tag = read_tag(in);
      if (const Tag* before = game.tag(tag.name)) {
        in.fail_at(place, "bad tag: [{}] is given twice in one game (first at line {})", tag.name,
                   before->place.line);
      }
      game.tags.push_back(std::move(tag));
      continue;
    }
    if (c == '{') {
      skip_comment(in);
      continue;
    }
    if (c == ';') {
      in.skip_line();
      continue;
    }
    if (c == '(') {
      if (!open) in.fail_at(place, "a variation '(' outside a game's moves");
      skip_variation(in);
      continue;
    }
    if (c == ')') in.fail_at(place, "')' closes no variation");
    if (c == '}') in.fail_at(place, "'}}' closes no comment");
    if (c == ']') in.fail_at(place, "']' closes no tag");
    if (c == '$') {
      in.next();
      if (!std::isdigit(static_cast<unsigned char>(in.peek())))
        in.fail_at(place, "'$' must be followed by the number of an annotation (NAG), as $1");
      while (std::isdigit(static_cast<unsigned char>(in.peek())) != 0) in.next();
      continue;
    }
    std::string token;
    while (!in.done() && !ends_token(in.peek())) token += in.next();
    if (is_result(token)) {
      begin(place);
      game.result = token;
      games.push_back(std::exchange(game, Game()));
      open = false;
      continue;
    }
    // A move number, "12." or "12...", maybe glued to the move.
    std::size_t digits = 0;
    while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits])) != 0) ++digits;
    std::size_t skip = 0;
    if (digits < token.size() && token[digits] == '.') {
      skip = digits;
      while (skip < token.size() && token[skip] == '.') ++skip;
    }
    std::string move = token.substr(skip);
    while (!move.empty() && (move.back() == '!' || move.back() == '?')) move.pop_back();
    if (move.empty()) continue;  // a move number alone, or "..."
    begin(place);
    in_moves = true;
    game.moves.push_back({move, {place.line, place.column + static_cast<int>(skip)}});
  }
  if (open) {
    in.fail_at(in.place(),
               "truncated file: the game that starts at line {} has no result (1-0, 0-1, 1/2-1/2 or *) at "
               "the end",
               game.place.line);
  }
  return games;
}

std::vector<Game> read_file(const std::filesystem::path& path) {
  // Only a regular file, and not a huge one: a directory, /dev/zero or a pipe would fail
  // obscurely or read without end.
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status))
    fail("cannot read the game file {}: it does not exist", path.string());
  if (!std::filesystem::is_regular_file(status))
    fail("the game file {} is not a regular file", path.string());
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot read the game file {}", path.string());
  std::string text(kMaxFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) fail("cannot read the game file {}", path.string());
  if (static_cast<std::size_t>(in.gcount()) > kMaxFileBytes)
    fail("the game file {} is larger than {} MiB", path.string(), kMaxFileBytes >> 20);
  text.resize(static_cast<std::size_t>(in.gcount()));
  std::vector<Game> games = parse(text, path.string());
  if (games.empty()) fail("{}: no game in the file", path.string());
  return games;
}

std::string write(const Game& game, int first_number, bool second_half) {
  std::string out;
  for (const Tag& tag : game.tags) {
    std::string value;
    for (const char c : tag.value) {
      if (c == '"' || c == '\\') value += '\\';
      value += c;
    }
    out += fmt::format("[{} \"{}\"]\n", tag.name, value);
  }
  out += "\n";
  std::string line;
  auto add = [&](const std::string& word) {
    if (!line.empty() && line.size() + 1 + word.size() > 80) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  };
  int number = first_number;
  bool second = second_half;
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    if (!second) {
      add(fmt::format("{}. {}", number, game.moves[i].text));
    } else if (i == 0) {
      add(fmt::format("{}... {}", number, game.moves[i].text));
    } else {
      add(game.moves[i].text);
    }
    if (second) ++number;
    second = !second;
  }
  add(game.result);
  out += line + "\n\n";
  return out;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) fail("cannot write the game file {}", temporary.string());
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    if (!out) fail("cannot write the game file {}", temporary.string());
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) fail("cannot write the game file {}: {}", path.string(), error.message());
}

}  // namespace gs::pdn
