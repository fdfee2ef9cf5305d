#pragma once
// The explorer's view of a proof (`serve --store`, app/proof_view.h): the root's answers
// and proof numbers, the store's counts and the best line from the root
// (Manager::best_line), as the manager records them in the store's meta table ("view")
// at each commit. A reader gets them back from a few rows of that table, however large
// the store: it never loads the tree.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "prove/report.h"
#include "prove/store.h"

namespace gs::prove {

// The longest best line recorded.
inline constexpr std::size_t kViewLine = 64;

struct ProofState {
  ProveSummary summary;  // position, answers, counts, root numbers, threshold, store size
  std::vector<LineStep> line;
};

// The meta value of a view: its counts and root numbers, then a line per step. Throws
// gs::Error where a text field of a step holds a tab or a line break (no game writes one).
std::string encode_view(const ProveSummary& summary, const std::vector<LineStep>& line);
// Throws gs::Error for text that is not a view.
ProofState decode_view(const std::string& text);

// The view of a store as its last commit recorded it, at most max_line steps of the line;
// nullopt for a store last written before views were recorded (or never committed).
// Reads a few meta rows and the files' sizes.
std::optional<ProofState> read_view(const Store& store, std::size_t max_line);

}  // namespace gs::prove
