#include "app/proof_view.h"

#include <memory>
#include <optional>
#include <sstream>

#include "app/input_error.h"
#include "app/registry.h"
#include "core/error.h"
#include "prove/store.h"

namespace gs::app {

StoreLabel store_label(const std::filesystem::path& store) {
  if (!prove::store_exists(store)) throw NotFoundError(fmt::format("no proof store {}", store.string()));
  const prove::Store reader(store, false);
  const std::optional<std::string> game = reader.meta("game");
  const std::optional<std::string> root = reader.meta("root");
  if (!game || !root)
    fail("the proof store {} has no root yet (no run has committed a pass)", store.string());
  // "GAME VARIANT RULES", RULES comma-separated and empty where there are none.
  StoreLabel label;
  std::istringstream words(*game);
  std::string rules;
  words >> label.game >> label.variant >> rules;
  if (label.game.empty() || label.variant.empty())
    fail("the proof store {} names no game ({})", store.string(), *game);
  for (std::size_t start = 0; !rules.empty();) {
    const std::size_t comma = rules.find(',', start);
    label.rules.push_back(
        rules.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  label.root = *root;
  return label;
}

ProofView read_proof(const std::filesystem::path& store, const std::filesystem::path& data,
                     std::size_t max_line) {
  const StoreLabel label = store_label(store);
  const std::unique_ptr<GameService> service = find_game(label.game).make(label.variant, label.rules);
  return service->proof_view(data, store, max_line);
}

}  // namespace gs::app
