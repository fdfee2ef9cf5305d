#include "server/api.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <system_error>
#include <utility>
#include <vector>

#include "app/input_error.h"
#include "app/position_report.h"
#include "core/error.h"
#include "core/quote.h"

namespace gs::server {

namespace {

class NotFound : public Error {
 public:
  using Error::Error;
};

const app::GameEntry& find(const std::string& name) {
  for (const app::GameEntry& game : app::registered_games()) {
    if (game.name == name) return game;
  }
  try {
    app::find_game(name);  // throws the message that lists the known games
  } catch (const Error& error) {
    throw NotFound(error.what());
  }
  throw NotFound("unknown game '" + name + "'");
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
  } catch (const app::InputError& error) {
    return error_reply(400, error.what());
  } catch (const Error& error) {
    return error_reply(500, error.what());
  } catch (const std::exception& error) {
    return error_reply(500, std::string("internal error: ") + error.what());
  }
}

}  // namespace

Reply error_reply(int status, const std::string& message) {
  return {status, {{"error", printable(message)}}};
}

Api::Variant& Api::variant(const app::GameEntry& game, const std::string& name) {
  std::unique_ptr<app::GameService> service;
  auto [variant, rules] = split_variant(name);
  try {
    service = game.make(variant, rules);
  } catch (const Error& error) {
    // The game's message names a variant it does not know, and the game; one about a
    // rule option needs the whole name around it.
    if (rules.empty()) throw NotFound(error.what());
    throw NotFound(fmt::format("variant {} of {}: {}", quote_input(name), game.name, error.what()));
  }
  const db::Location location = service->database_location(data_);
  const std::string key = game.name + "/" + location.directory().filename().string();
  const std::lock_guard lock(mutex_);
  auto& slot = variants_[key];
  if (!slot) {
    slot = std::make_unique<Variant>();
    slot->database = std::make_unique<db::Database>(location);
    slot->service = std::move(service);
  }
  return *slot;
}

nlohmann::json Api::describe(const app::GameEntry& game) {
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
    Variant* found = nullptr;
    try {
      found = &variant(game, name);
    } catch (const NotFound&) {
      continue;  // a directory that is no variant of the game
    }
    const nlohmann::json databases = found->service->databases(data_);
    const std::string directory = databases.at("directory");
    if (!name.empty() && name != directory) continue;  // a spelling of a variant listed already
    if (std::find(seen.begin(), seen.end(), directory) != seen.end()) continue;
    seen.push_back(directory);
    nlohmann::json description = found->service->describe();
    if (out.is_null()) {
      out = {{"name", game.name},
             {"description", game.description},
             {"options", game.option_help},
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
    for (const app::GameEntry& game : app::registered_games()) games.push_back(describe(game));
    return Reply{200, {{"games", games}}};
  });
}

Reply Api::game(const std::string& name) {
  return guarded([&] { return Reply{200, describe(find(name))}; });
}

Reply Api::position(const std::string& name, const std::optional<std::string>& position,
                    const std::optional<std::string>& variant_name, const std::optional<std::string>& move) {
  return guarded([&] {
    const app::GameEntry& game = find(name);
    Variant& found = variant(game, variant_name.value_or(""));
    if (!position || position->empty()) {
      throw app::InputError("missing parameter p: the position text, or 'start'");
    }
    if (position->size() > kMaxTextLength || (move && move->size() > kMaxTextLength)) {
      throw app::InputError(fmt::format("position or move text longer than {} characters", kMaxTextLength));
    }
    nlohmann::json report = app::to_json(found.service->report(*found.database, *position, move));
    if (move) report["played"] = *move;
    return Reply{200, std::move(report)};
  });
}

}  // namespace gs::server
