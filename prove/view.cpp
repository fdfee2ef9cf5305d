#include "prove/view.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <string_view>

#include "core/error.h"

namespace gs::prove {

namespace {

// Fields are separated by tabs, steps by line breaks.
std::string field(const std::string& text) {
  if (text.find_first_of("\t\n") != std::string::npos)
    fail("a proof view's field holds a tab or a line break: {}", text);
  return text;
}

std::vector<std::string_view> split(std::string_view text, char by) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = text.find(by);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

template <class T>
T number(std::string_view text) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    fail("a proof view holds {} where a number belongs", std::string(text));
  return value;
}

int answer(std::string_view text) {
  const int value = number<int>(text);
  if (value < -1 || value > 1) fail("a proof view holds an answer of {}", value);
  return value;
}

bool flag(std::string_view text) { return number<int>(text) != 0; }

}  // namespace

// "view NODES PROVEN OPEN LIKELY ROOT_PROOF ROOT_DISPROOF WIN DRAW ANSWER", then per step
// "step WIN DRAW OVER EXPANDED REPEATED SCORED SCORE PROOF DISPROOF ANSWER WIN_SOURCE
// DRAW_SOURCE MOVE POSITION", the fields separated by tabs.
std::string encode_view(const ProveSummary& summary, const std::vector<LineStep>& line) {
  std::string text = fmt::format("view\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}", summary.nodes, summary.proven,
                                 summary.open, summary.likely, summary.root_proof, summary.root_disproof,
                                 summary.win, summary.draw, field(summary.answer));
  for (const LineStep& step : line) {
    text += fmt::format("\nstep\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}", step.win, step.draw,
                        step.over ? 1 : 0, step.expanded ? 1 : 0, step.repeated ? 1 : 0, step.scored ? 1 : 0,
                        step.score, step.proof, step.disproof, field(step.answer), field(step.source[kWin]),
                        field(step.source[kDraw]), field(step.move), field(step.position));
  }
  return text;
}

ProofState decode_view(const std::string& text) {
  const std::vector<std::string_view> lines = split(text, '\n');
  const std::vector<std::string_view> head = split(lines.front(), '\t');
  if (head.size() != 10 || head[0] != "view") fail("not a proof view: {}", std::string(lines.front()));
  ProofState state;
  ProveSummary& s = state.summary;
  s.nodes = number<std::uint64_t>(head[1]);
  s.proven = number<std::uint64_t>(head[2]);
  s.open = number<std::uint64_t>(head[3]);
  s.likely = number<std::uint64_t>(head[4]);
  s.root_proof = number<std::uint64_t>(head[5]);
  s.root_disproof = number<std::uint64_t>(head[6]);
  s.win = answer(head[7]);
  s.draw = answer(head[8]);
  s.answer = std::string(head[9]);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string_view> f = split(lines[i], '\t');
    if (f.size() != 15 || f[0] != "step") fail("not a step of a proof view: {}", std::string(lines[i]));
    LineStep step;
    step.win = answer(f[1]);
    step.draw = answer(f[2]);
    step.over = flag(f[3]);
    step.expanded = flag(f[4]);
    step.repeated = flag(f[5]);
    step.scored = flag(f[6]);
    step.score = number<std::int32_t>(f[7]);
    step.proof = number<std::uint64_t>(f[8]);
    step.disproof = number<std::uint64_t>(f[9]);
    step.answer = std::string(f[10]);
    step.source[kWin] = std::string(f[11]);
    step.source[kDraw] = std::string(f[12]);
    step.move = std::string(f[13]);
    step.position = std::string(f[14]);
    state.line.push_back(std::move(step));
  }
  return state;
}

std::optional<ProofState> read_view(const Store& store, std::size_t max_line) {
  const std::optional<std::string> text = store.meta("view");
  const std::optional<std::string> root = store.meta("root");
  if (!text || !root) return std::nullopt;
  ProofState state = decode_view(*text);
  state.summary.position = *root;
  if (const std::optional<std::string> threshold = store.meta("threshold"))
    state.summary.threshold = number<std::int32_t>(*threshold);
  if (state.line.size() > max_line) state.line.resize(max_line);
  std::error_code error;
  for (const char* suffix : {"", "-wal"}) {
    const auto size = std::filesystem::file_size(store.path().string() + suffix, error);
    if (!error) state.summary.store_bytes += size;
  }
  return state;
}

}  // namespace gs::prove
