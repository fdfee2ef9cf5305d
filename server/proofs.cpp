#include "server/proofs.h"

#include <fmt/format.h>

#include <charconv>
#include <exception>
#include <nlohmann/json.hpp>
#include <utility>

#include "app/input_error.h"
#include "app/proof_view.h"
#include "core/error.h"
#include "core/quote.h"

namespace gs::server {

namespace {

// An answer as JSON: true, false or null (unknown).
nlohmann::json answer(int value) { return value < 0 ? nlohmann::json(nullptr) : nlohmann::json(value == 1); }

// Proof and disproof numbers past 2^40 stand for infinity (a settled question) or a
// cycle of the tree: "infinite" rather than a number a browser cannot hold exactly.
nlohmann::json number(std::uint64_t value) {
  return value >= (std::uint64_t{1} << 40) ? nlohmann::json("infinite") : nlohmann::json(value);
}

nlohmann::json step_json(const prove::LineStep& step) {
  const bool open = step.proof != 0 || step.disproof != 0;
  return {{"move", step.move.empty() ? nlohmann::json(nullptr) : nlohmann::json(step.move)},
          {"position", step.position},
          {"result", step.answer},
          {"win", answer(step.win)},
          {"at_least_draw", answer(step.draw)},
          {"win_source", step.source[0]},
          {"draw_source", step.source[1]},
          {"over", step.over},
          {"expanded", step.expanded},
          {"repeated", step.repeated},
          {"score", step.scored ? nlohmann::json(step.score) : nlohmann::json(nullptr)},
          {"proof", open ? number(step.proof) : nlohmann::json(nullptr)},
          {"disproof", open ? number(step.disproof) : nlohmann::json(nullptr)}};
}

template <class Body>
Reply guarded(Body&& body) {
  try {
    return body();
  } catch (const app::NotFoundError& error) {
    return error_reply(404, error.what());
  } catch (const std::exception& error) {
    return error_reply(500, error.what());
  }
}

}  // namespace

Proofs::Proofs(std::vector<std::filesystem::path> stores, std::filesystem::path data)
    : stores_(std::move(stores)), data_(std::move(data)) {}

void Proofs::check() const {
  for (const std::filesystem::path& store : stores_) {
    try {
      (void)app::store_label(store);
    } catch (const std::exception& error) {
      fail("--store {}: {}", store.string(), error.what());
    }
  }
}

Reply Proofs::list() const {
  return guarded([&] {
    nlohmann::json proofs = nlohmann::json::array();
    for (std::size_t id = 0; id < stores_.size(); ++id) {
      nlohmann::json entry = {{"id", id}, {"name", stores_[id].filename().string()}};
      try {
        const app::StoreLabel label = app::store_label(stores_[id]);
        entry.update(
            {{"game", label.game}, {"variant", label.variant}, {"rules", label.rules}, {"root", label.root}});
      } catch (const std::exception& error) {
        entry["error"] = printable(error.what());
      }
      proofs.push_back(entry);
    }
    return Reply{200, dumped({{"proofs", proofs}})};
  });
}

Reply Proofs::proof(const std::string& id) const {
  return guarded([&] {
    std::size_t at = 0;
    const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), at);
    if (error != std::errc() || end != id.data() + id.size() || at >= stores_.size()) {
      return error_reply(404, fmt::format("no proof {}: the server has {} (GET /api/v1/proofs)",
                                          quote_input(id), stores_.size()));
    }
    const app::ProofView view = app::read_proof(stores_[at], data_, kMaxLine);
    const prove::ProveSummary& s = view.summary;
    const bool open = s.answer != "win" && s.answer != "loss" && s.answer != "draw";
    nlohmann::json line = nlohmann::json::array();
    for (const prove::LineStep& step : view.line) line.push_back(step_json(step));
    const nlohmann::json body = {{"id", at},
                                 {"name", stores_[at].filename().string()},
                                 {"game", view.label.game},
                                 {"variant", view.label.variant},
                                 {"rules", view.label.rules},
                                 {"root",
                                  {{"position", s.position},
                                   {"result", s.answer},
                                   {"win", answer(s.win)},
                                   {"at_least_draw", answer(s.draw)},
                                   {"proof", open ? number(s.root_proof) : nlohmann::json(nullptr)},
                                   {"disproof", open ? number(s.root_disproof) : nlohmann::json(nullptr)}}},
                                 {"threshold", s.threshold},
                                 {"nodes", s.nodes},
                                 {"proven", s.proven},
                                 {"open", s.open},
                                 {"likely", s.likely},
                                 {"store_bytes", s.store_bytes},
                                 {"line", line}};
    return Reply{200, dumped(body)};
  });
}

}  // namespace gs::server
