#pragma once
// A proof store (prove/store.h) as the explorer shows it: the game it belongs to, read
// from its meta table, and its root and best line (prove::Manager::best_line, as the last
// commit recorded them: prove/view.h), read without the writer's lock, so that a store
// a run is writing can be looked at (SQLite's WAL lets a reader see the last committed
// pass).
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "app/results.h"

namespace gs::app {

// What a store's meta table says it proves.
struct StoreLabel {
  std::string game;
  std::string variant;
  std::vector<std::string> rules;  // the non-default rule options
  std::string root;                // the root position's text
};

// Throws gs::Error (NotFoundError for a missing file) for a file that is not a proof
// store, or one no run has committed to yet.
StoreLabel store_label(const std::filesystem::path& store);

// The root and the best line (at most max_line positions) of the store, with the
// databases under `data` where they are.
ProofView read_proof(const std::filesystem::path& store, const std::filesystem::path& data,
                     std::size_t max_line);

}  // namespace gs::app
