#include "server/api.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <system_error>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/quote.h"
#include "gamesolver/error.h"

namespace gs::server {

namespace {

class NotFound : public Error {
 public:
  using Error::Error;
};

class BadRequest : public Error {
 public:
  using Error::Error;
};

const gamesolver::GameInfo& find(const std::vector<gamesolver::GameInfo>& games, const std::string& name) {
  for (const gamesolver::GameInfo& game : games) {
    if (game.name == name) return game;
  }
  try {
    (void)gamesolver::Database::open("", name);  // throws the message that lists the known games
  } catch (const gamesolver::Error& error) {
    throw NotFound(error.what());
  }
  throw NotFound("unknown game " + quote_input(name));
}

const std::vector<gamesolver::GameInfo>& all_games() {
  static const std::vector<gamesolver::GameInfo> games = gamesolver::games();
  return games;
}

// "standard,elephant_takes_rat=off" -> "standard", {"elephant_takes_rat=off"}.
std::pair<std::string, std::vector<std::string>> split_variant(const std::string& name) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = name.find(',', start);
    parts.push_back(name.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::string variant = parts.front();
  parts.erase(parts.begin());
  return {variant, parts};
}

// Runs a request, turning what it throws into an error reply: a request can fail, the
// server never does.
template <class Body>
Reply guarded(Body&& body) {
  try {
    return body();
  } catch (const NotFound& error) {
    return error_reply(404, error.what());
  } catch (const BadRequest& error) {
    return error_reply(400, error.what());
  } catch (const gamesolver::Error& error) {
    switch (error.kind()) {
      case gamesolver::ErrorKind::kInput: return error_reply(400, error.what());
      case gamesolver::ErrorKind::kNotFound: return error_reply(404, error.what());
      default: return error_reply(500, error.what());
    }
  } catch (const Error& error) {
    return error_reply(500, error.what());
  } catch (const std::exception& error) {
    return error_reply(500, std::string("internal error: ") + error.what());
  }
}

}  // namespace

// JSON text; text that is not UTF-8 (as a client sent it) is replaced, not thrown on.
std::string dumped(const nlohmann::json& body) {
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Reply error_reply(int status, const std::string& message) {
  return {status, dumped({{"error", printable(message)}})};
}

const gamesolver::Database& Api::variant(const gamesolver::GameInfo& game, const std::string& name) {
  const std::string spelled = game.name + "/" + name;
  {
    const std::lock_guard lock(mutex_);
    if (const auto found = spellings_.find(spelled); found != spellings_.end()) return *found->second;
  }
  auto [variant, rules] = split_variant(name);
  gamesolver::OpenOptions options;
  options.require_databases = false;
  std::optional<gamesolver::Database> opened;
  try {
    opened.emplace(gamesolver::Database::open(data_.string(), game.name, variant, rules, options));
  } catch (const gamesolver::Error& error) {
    // The game's message names a variant it does not know, and the game; one about a
    // rule option needs the whole name around it.
    if (rules.empty()) throw NotFound(error.what());
    throw NotFound(fmt::format("variant {} of {}: {}", quote_input(name), game.name, error.what()));
  }
  const std::string key = game.name + "/" + std::filesystem::path(opened->directory()).filename().string();
  const std::lock_guard lock(mutex_);
  auto& slot = variants_[key];
  if (!slot) slot = std::make_unique<gamesolver::Database>(std::move(*opened));
  if (spellings_.size() < kMaxSpellings) spellings_.emplace(spelled, slot.get());
  return *slot;
}

nlohmann::json Api::describe(const gamesolver::GameInfo& game) {
  // The standard variant first, then every other variant with a database directory.
  std::vector<std::string> names = {""};
  std::error_code error;
  std::vector<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator(data_ / game.name, error)) {
    if (entry.is_directory(error)) on_disk.push_back(entry.path().filename().string());
  }
  std::sort(on_disk.begin(), on_disk.end());
  names.insert(names.end(), on_disk.begin(), on_disk.end());
  nlohmann::json variants = nlohmann::json::array();
  nlohmann::json out;
  std::vector<std::string> seen;
  for (const std::string& name : names) {
    const gamesolver::Database* found = nullptr;
    try {
      found = &variant(game, name);
    } catch (const NotFound&) {
      continue;  // a directory that is no variant of the game
    }
    const nlohmann::json databases = nlohmann::json::parse(found->inventory_json());
    const std::string directory = databases.at("directory");
    if (!name.empty() && name != directory) continue;  // a spelling of a variant listed already
    if (std::find(seen.begin(), seen.end(), directory) != seen.end()) continue;
    seen.push_back(directory);
    const nlohmann::json description = nlohmann::json::parse(found->description_json());
    if (out.is_null()) {
      out = {{"name", game.name},
             {"description", game.description},
             {"options", game.options},
             {"default_variant", directory},
             {"board", description.at("board")},
             {"start", description.at("start")}};
    }
    variants.push_back({{"name", directory},
                        {"variant", description.at("variant")},
                        {"rules", description.at("rules")},
                        {"start", description.at("start")},
                        {"board", description.at("board")},
                        {"databases", databases}});
  }
  out["variants"] = variants;
  return out;
}

Reply Api::games() {
  return guarded([&] {
    nlohmann::json games = nlohmann::json::array();
    for (const gamesolver::GameInfo& game : all_games()) games.push_back(describe(game));
    return Reply{200, dumped({{"games", games}})};
  });
}

Reply Api::game(const std::string& name) {
  return guarded([&] { return Reply{200, dumped(describe(find(all_games(), name)))}; });
}

Reply Api::position(const std::string& name, const std::optional<std::string>& position,
                    const std::optional<std::string>& variant_name, const std::optional<std::string>& move) {
  return guarded([&] {
    const gamesolver::Database& database = variant(find(all_games(), name), variant_name.value_or(""));
    if (!position || position->empty()) {
      throw BadRequest("missing parameter p: the position text, or 'start'");
    }
    if (position->size() > kMaxTextLength || (move && move->size() > kMaxTextLength)) {
      throw BadRequest(fmt::format("position or move text longer than {} characters", kMaxTextLength));
    }
    const gamesolver::Report report = move ? database.probe(*position, *move) : database.probe(*position);
    return Reply{200, report.compact_json()};
  });
}

}  // namespace gs::server
