#pragma once
// A game whose positions are the nodes of a given directed graph, for the search tests:
// small graphs with cycles make Graph History Interaction traps easy to build and to
// solve independently (tests/brute_force.h). A move goes along an edge; a node may be an
// end of the game with a value for the side to move there; a node without edges is a
// draw (no legal move). The side to move is implicit: the values are negamax values of
// the graph's nodes. One tier holds every node.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/game.h"

namespace gs::test {

struct Graph {
  std::vector<std::vector<std::uint8_t>> edges;  // by node
  std::vector<std::optional<Value>> end;         // the value where the game is over

  [[nodiscard]] std::size_t size() const { return edges.size(); }
  void add(std::uint8_t from, std::uint8_t to) { edges[from].push_back(to); }
};

class GraphGame {
 public:
  struct Position {
    std::uint8_t node = 0;
    bool operator==(const Position&) const = default;
  };
  struct Move {
    std::uint8_t to = 0;
    bool operator==(const Move&) const = default;
  };
  static constexpr std::string_view kName = "graph";
  static constexpr std::size_t kMaxMoves = 8;
  static constexpr std::size_t kMaxUnmoves = 64;

  explicit GraphGame(Graph graph) : graph_(std::make_shared<const Graph>(std::move(graph))) {}
  [[nodiscard]] const Graph& graph() const { return *graph_; }

  [[nodiscard]] static Position start() { return {0}; }
  void moves(const Position& pos, MoveList<GraphGame>& out) const {
    out.clear();
    for (const std::uint8_t to : graph_->edges[pos.node]) out.push_back({to});
  }
  [[nodiscard]] static Position play(const Position&, const Move& move) { return {move.to}; }
  [[nodiscard]] std::optional<Value> terminal(const Position& pos) const { return graph_->end[pos.node]; }
  [[nodiscard]] static Value no_move_value() { return Value::draw(); }
  [[nodiscard]] static std::string position_text(const Position& pos) { return fmt::format("n{}", pos.node); }
  [[nodiscard]] Position parse_position(std::string_view text) const {
    if (text.size() < 2 || text[0] != 'n') fail("not a node: '{}'", text);
    const int node = std::stoi(std::string(text.substr(1)));
    if (node < 0 || static_cast<std::size_t>(node) >= graph_->size()) fail("no node {}", node);
    return {static_cast<std::uint8_t>(node)};
  }
  [[nodiscard]] static std::string move_text(const Position&, const Move& move) {
    return fmt::format("n{}", move.to);
  }
  [[nodiscard]] Move parse_move(const Position& pos, std::string_view text) const {
    const Position to = parse_position(text);
    for (const std::uint8_t next : graph_->edges[pos.node]) {
      if (next == to.node) return {next};
    }
    fail("no edge to '{}'", text);
  }
  [[nodiscard]] static std::string variant() { return "standard"; }
  [[nodiscard]] static std::string rule_text() { return ""; }
  [[nodiscard]] static std::vector<Tier> tiers(int) { return {0}; }
  [[nodiscard]] static std::vector<Tier> children(Tier) { return {}; }
  [[nodiscard]] Index size(Tier) const { return graph_->size(); }
  [[nodiscard]] static std::string tier_name(Tier) { return "all"; }
  [[nodiscard]] static Tier parse_tier(std::string_view) { return 0; }
  [[nodiscard]] static int tier_pieces(Tier) { return 1; }
  [[nodiscard]] static Ranked rank(const Position& pos) { return {0, pos.node}; }
  [[nodiscard]] std::optional<Position> unrank(Tier, Index index) const {
    if (index >= graph_->size()) return std::nullopt;
    return Position{static_cast<std::uint8_t>(index)};
  }
  void unmoves(const Position& pos, UnmoveList<GraphGame>& out) const {
    out.clear();
    for (std::size_t from = 0; from < graph_->size(); ++from) {
      if (graph_->end[from]) continue;
      for (const std::uint8_t to : graph_->edges[from]) {
        if (to == pos.node) {
          out.push_back({static_cast<std::uint8_t>(from)});
          break;
        }
      }
    }
  }

 private:
  std::shared_ptr<const Graph> graph_;
};
static_assert(Game<GraphGame>);

// A random graph of `nodes` nodes: one in `ends` is an end of the game lost for the side
// to move there, the others get up to three edges (some none: a draw), cycles included.
inline Graph random_graph(std::mt19937_64& random, int nodes, int ends = 5) {
  Graph graph;
  graph.edges.resize(static_cast<std::size_t>(nodes));
  graph.end.resize(static_cast<std::size_t>(nodes));
  std::uniform_int_distribution<int> node(0, nodes - 1);
  for (int n = 1; n < nodes; ++n) {
    if (random() % static_cast<unsigned>(ends) == 0) graph.end[static_cast<std::size_t>(n)] = Value::loss(0);
  }
  for (int n = 0; n < nodes; ++n) {
    if (graph.end[static_cast<std::size_t>(n)]) continue;
    const int count = static_cast<int>(random() % 4);
    for (int e = 0; e < count; ++e) {
      const auto to = static_cast<std::uint8_t>(node(random));
      auto& edges = graph.edges[static_cast<std::size_t>(n)];
      if (std::find(edges.begin(), edges.end(), to) == edges.end()) edges.push_back(to);
    }
  }
  return graph;
}

}  // namespace gs::test
