#pragma once
// The explorer's view of proof trees (docs/SERVER.md, docs/PROVE.md): the proof stores
// named on `serve`'s command line (--store FILE, repeatable), and only those, by their
// number in that order, so that no client can make the server open a file:
//
//   GET /api/v1/proofs        {"proofs": [{"id", "name", "game", "variant", "rules",
//                              "root"}]} (name: the file's name, without its folder)
//   GET /api/v1/proofs/<id>   the store's root (its position, answers to "win?" and "at
//                              least a draw?", proof and disproof numbers while open),
//                              threshold and counts, and its best line from the root
//
// Each request opens its store read-only, without the writer's lock, and reads the view
// its last commit recorded (prove/view.h: a few meta rows, whatever the store's size): a
// store that a `prove` run is writing shows its last committed pass.
#include <filesystem>
#include <string>
#include <vector>

#include "server/api.h"

namespace gs::server {

class Proofs {
 public:
  // `data`: the databases probed at the tree's leaves, where they are.
  Proofs(std::vector<std::filesystem::path> stores, std::filesystem::path data);

  // Throws gs::Error naming the first store that is missing or is no proof store.
  void check() const;

  Reply list() const;
  Reply proof(const std::string& id) const;

 private:
  std::vector<std::filesystem::path> stores_;
  std::filesystem::path data_;
};

// The longest best line returned.
inline constexpr std::size_t kMaxLine = 64;

}  // namespace gs::server
