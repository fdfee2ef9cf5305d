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
// The proof trees of `serve --store` are server/proofs.h's: /api/v1/proofs.
//
// A variant is named as its database directory: the variant, then its non-default rule
// options, comma separated ("standard", "standard,elephant_takes_rat=off"). Errors are
// {"error": "..."}: 400 for bad position or move text, 404 for an unknown game or
// variant, 500 when a database file is damaged.
//
// It is built on gamesolver's public library (gamesolver/database.h), as any program
// probing the databases would be: each variant is a gamesolver::Database opened without
// requiring its databases, so that the rules of every game can be explored.
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "gamesolver/database.h"

namespace gs::server {

// A status and its body, JSON text.
struct Reply {
  int status = 200;
  std::string body;
};

Reply error_reply(int status, const std::string& message);

// JSON text; text that is not UTF-8 (as a client sent it, or a file's name) is replaced.
std::string dumped(const nlohmann::json& body);

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
  // A variant's databases, opened on first use and kept: their open tier files are the
  // warm cache. The number of variants is bounded by the games' rule options, so is
  // this map. Throws NotFound for an unknown game or variant.
  const gamesolver::Database& variant(const gamesolver::GameInfo& game, const std::string& name);
  nlohmann::json describe(const gamesolver::GameInfo& game);

  std::filesystem::path data_;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<gamesolver::Database>> variants_;  // by game/directory
  // The variants by game/name as requested ("jungle/", "jungle/standard", rule options
  // in any order), so that a request opens nothing. Clients choose the spellings: past
  // kMaxSpellings a new one is opened each time it is asked for, not kept.
  static constexpr std::size_t kMaxSpellings = 4096;
  std::map<std::string, const gamesolver::Database*> spellings_;
};

}  // namespace gs::server
