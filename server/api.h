#pragma once
// The JSON API of the explorer, /api/v1/, as plain functions from a request's parts to
// a status and a JSON body, apart from HTTP (server/server.cpp) so that it can be read
// and tested on its own.
//
//   GET /api/v1/games                          the games, their variants and rule
//                                              options, and the databases present
//   GET /api/v1/games/<game>                   one of them
//   GET /api/v1/games/<game>/positions?p=<position text>[&variant=<v>][&move=<m>]
//                                              the report of a position (after the
//                                              move m when given): app/position_report.h
//
// A variant is named as its database directory: the variant, then its non-default rule
// options, comma separated ("standard", "standard,elephant_takes_rat=off"). Errors are
// {"error": "..."}: 400 for bad position or move text, 404 for an unknown game or
// variant, 500 when a database file is damaged.
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "app/registry.h"
#include "db/database.h"

namespace gs::server {

struct Reply {
  int status = 200;
  nlohmann::json body;
};

Reply error_reply(int status, const std::string& message);

// Longest position or move text accepted; real ones are well under 100 characters.
inline constexpr std::size_t kMaxTextLength = 1024;

class Api {
 public:
  explicit Api(std::filesystem::path data) : data_(std::move(data)) {}

  Reply games();
  Reply game(const std::string& name);
  Reply position(const std::string& name, const std::optional<std::string>& position,
                 const std::optional<std::string>& variant, const std::optional<std::string>& move);

 private:
  // A variant's service and its open databases, made on first use and kept: the open
  // tier files are the warm cache. The number of variants is bounded by the games' rule
  // options, so is this map.
  struct Variant {
    std::unique_ptr<app::GameService> service;
    std::unique_ptr<db::Database> database;
  };
  // Throws NotFound for an unknown game or variant.
  Variant& variant(const app::GameEntry& game, const std::string& name);
  nlohmann::json describe(const app::GameEntry& game);

  std::filesystem::path data_;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Variant>> variants_;  // by game/directory
};

}  // namespace gs::server
