// `count`'s result as text or JSON. Columns: classes are positions up to symmetry (the
// index entries that are not holes); indices the size of the index; the baseline the
// published index it is compared with, where the game names one.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli/output.h"

namespace gs::cli {

namespace {

nlohmann::json row_json(const std::string& key, const nlohmann::json& label, const retro::PositionCounts& c,
                        std::uint64_t end_positions, bool baseline) {
  nlohmann::json out = {{key, label},
                        {"positions", c.positions},
                        {"stalemates", c.stalemates},
                        {"classes", c.classes},
                        {"indices", c.indices}};
  if (end_positions > 0) out["end_positions"] = end_positions;
  if (baseline) out["baseline_indices"] = c.baseline;
  return out;
}

}  // namespace

void print_count(std::ostream& out, const retro::CountResult& counts, const std::string& game,
                 const CountLayout& layout) {
  const bool has_baseline = counts.baseline.has_value();
  nlohmann::json pieces_rows = nlohmann::json::array();
  nlohmann::json tier_rows = nlohmann::json::array();
  for (const auto& row : counts.pieces)
    pieces_rows.push_back(row_json("pieces", row.pieces, row.counts, row.end_positions, has_baseline));
  for (const auto& row : counts.tiers)
    tier_rows.push_back(row_json("tier", row.tier, row.counts, 0, has_baseline));
  nlohmann::json material_rows = nlohmann::json::array();
  for (const auto& row : counts.materials) {
    material_rows.push_back({{"pieces", row.pieces},
                             {"material", row.material},
                             {"positions", row.counts.positions},
                             {"end_positions", row.end_positions},
                             {"stalemates", row.counts.stalemates},
                             {"classes", row.counts.classes}});
  }
  if (layout.json) {
    nlohmann::json body = {{"game", game}, {"counts", pieces_rows}};
    if (layout.per_tier) body["tiers"] = tier_rows;
    if (layout.per_material) body["materials"] = material_rows;
    if (has_baseline) body["baseline"] = *counts.baseline;
    out << body.dump(2) << "\n";
    return;
  }
  const auto label_of = [](const nlohmann::json& r, const std::string& key) {
    return r[key].is_string() ? r[key].get<std::string>() : r[key].dump();
  };
  const auto print = [&](const nlohmann::json& r, const std::string& key) {
    out << fmt::format("{:>8} {:>16} {:>14} {:>11} {:>14} {:>14} {:>14}\n", label_of(r, key),
                       r["positions"].get<std::uint64_t>(), r.value("end_positions", std::uint64_t{0}),
                       r["stalemates"].get<std::uint64_t>(), r["classes"].get<std::uint64_t>(),
                       r["indices"].get<std::uint64_t>(), r.value("baseline_indices", std::uint64_t{0}));
  };
  const std::string baseline = counts.baseline.value_or("baseline");
  const auto header = [&](const std::string& first, const std::string& end) {
    out << fmt::format("{:>8} {:>16} {:>14} {:>11} {:>14} {:>14} {:>14}\n", first, "positions", end,
                       "stalemates", "classes", "indices", baseline);
  };
  if (layout.sizes_only) {
    // The index against the baseline, without enumerating positions.
    out << fmt::format("{:>12} {:>16} {:>16} {:>8}\n", layout.per_tier ? "tier" : "pieces", "indices",
                       baseline, "ratio");
    const std::string key = layout.per_tier ? "tier" : "pieces";
    for (const auto& r : layout.per_tier ? tier_rows : pieces_rows) {
      const auto indices = r["indices"].get<std::uint64_t>();
      const auto base = r.value("baseline_indices", std::uint64_t{0});
      out << fmt::format("{:>12} {:>16} {:>16} {:>8.4f}\n", label_of(r, key), indices, base,
                         base == 0 ? 0.0 : static_cast<double>(indices) / static_cast<double>(base));
    }
    return;
  }
  if (layout.per_tier) {
    header("tier", "");
    for (const auto& r : tier_rows) print(r, "tier");
    out << "\n";
  }
  if (layout.per_material) {
    // Boards (positions up to symmetry) with their end positions add up to the boards of
    // each piece count.
    out << fmt::format("{:>8} {:>8} {:>16} {:>14} {:>11} {:>14}\n", "pieces", "material", "positions",
                       "end positions", "stalemates", "classes");
    for (const auto& r : material_rows) {
      out << fmt::format("{:>8} {:>8} {:>16} {:>14} {:>11} {:>14}\n", r["pieces"].get<int>(),
                         r["material"].get<std::string>(), r["positions"].get<std::uint64_t>(),
                         r["end_positions"].get<std::uint64_t>(), r["stalemates"].get<std::uint64_t>(),
                         r["classes"].get<std::uint64_t>());
    }
    out << "\n";
  }
  header("pieces", "end positions");
  for (const auto& r : pieces_rows) print(r, "pieces");
}

}  // namespace gs::cli
