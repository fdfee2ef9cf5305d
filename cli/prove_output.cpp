// `prove`'s result as text or JSON: the root's answer, the store's counts, the root's
// proof numbers and threshold, what the run did, and the checker's findings.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli/output.h"
#include "prove/report.h"

namespace gs::cli {

void print_prove(std::ostream& out, const app::ProveResult& prove, bool json) {
  const prove::ProveSummary& s = prove.summary;
  if (json) {
    nlohmann::json j = {{"game", prove.label.game},
                        {"variant", prove.label.variant},
                        {"store", prove.store},
                        {"position", s.position},
                        {"result", s.answer},
                        {"win", s.win < 0 ? nlohmann::json(nullptr) : nlohmann::json(s.win == 1)},
                        {"at_least_draw", s.draw < 0 ? nlohmann::json(nullptr) : nlohmann::json(s.draw == 1)},
                        {"nodes", s.nodes},
                        {"proven", s.proven},
                        {"open", s.open},
                        {"likely", s.likely},
                        {"root_proof", s.root_proof},
                        {"root_disproof", s.root_disproof},
                        {"threshold", s.threshold},
                        {"store_bytes", s.store_bytes},
                        {"passes", s.passes},
                        {"jobs", s.jobs},
                        {"job_nodes", s.job_nodes},
                        {"job_seconds", s.job_seconds},
                        {"seconds", s.seconds},
                        {"workers", s.workers},
                        {"worker_ranks", s.worker_ranks},
                        {"lost_ranks", s.lost_ranks},
                        {"utilization", s.utilization},
                        {"stopped", s.stopped.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.stopped)}};
    if (prove.check) {
      j["check"] = {{"ok", prove.check->ok()},
                    {"nodes", prove.check->nodes},
                    {"answers", prove.check->answers},
                    {"confirmed", prove.check->confirmed},
                    {"unconfirmed", prove.check->unconfirmed},
                    {"errors", prove.check->errors}};
    }
    out << j.dump(2) << "\n";
    return;
  }
  out << fmt::format("{} {}: {}\n", prove.label.game, s.position, s.answer);
  out << fmt::format("store {}: {} nodes ({} proven, {} open, {} likely), {} bytes\n", prove.store, s.nodes,
                     s.proven, s.open, s.likely, s.store_bytes);
  if (s.answer != "win" && s.answer != "loss" && s.answer != "draw") {
    out << fmt::format("root proof number {}, disproof number {}, threshold {}\n", s.root_proof,
                       s.root_disproof, s.threshold);
  }
  if (s.passes > 0 || s.jobs > 0) {
    const std::string workers = s.worker_ranks > 0 ? fmt::format("{} worker ranks", s.worker_ranks)
                                                   : fmt::format("{} workers", s.workers);
    out << fmt::format("run: {:.1f} s, {} passes, {} jobs ({} nodes), {} busy {:.0f}%{}\n", s.seconds,
                       s.passes, s.jobs, s.job_nodes, workers, 100 * s.utilization,
                       s.stopped.empty() ? "" : fmt::format(", stopped: {}", s.stopped));
    if (!s.lost_ranks.empty())
      out << fmt::format("ranks lost (their jobs went to other ranks): {}\n", fmt::join(s.lost_ranks, ", "));
  }
  if (prove.check) {
    const prove::CheckSummary& c = *prove.check;
    out << fmt::format("check: {} answers of {} nodes, back-end answers confirmed {}, unconfirmed {}: {}\n",
                       c.answers, c.nodes, c.confirmed, c.unconfirmed,
                       c.ok() ? "ok" : fmt::format("{} errors", c.errors.size()));
    for (const std::string& e : c.errors) out << "  " << e << "\n";
  }
}

}  // namespace gs::cli
