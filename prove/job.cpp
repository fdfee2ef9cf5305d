#include "prove/job.h"

#include <fmt/format.h>

#include <sstream>

#include "core/error.h"

namespace gs::prove {

namespace {

// A source is one word; an empty one travels as "-".
std::string word(const std::string& source) { return source.empty() ? "-" : source; }
std::string unword(const std::string& source) { return source == "-" ? "" : source; }

Answer answer_of(int value) {
  if (value < -1 || value > 1) fail("a back-end answer of {} (not -1, 0 or 1)", value);
  return static_cast<Answer>(value);
}

}  // namespace

// "job KIND QUESTION BUDGET SCORE CLOSURE_FAILED_BYTES SECONDS_LEFT" and the position on the next line
// (positions may hold spaces).
std::string encode(const JobSpec& job) {
  return fmt::format("job {} {} {} {} {} {:.6f}\n{}", static_cast<int>(job.kind),
                     static_cast<int>(job.question), job.budget, job.score, job.closure_failed_bytes,
                     job.seconds_left, job.position);
}

// "answer WIN DRAW WIN_SOURCE DRAW_SOURCE SCORED SCORE NODES SECONDS WIN_PROOF
// WIN_DISPROOF DRAW_PROOF DRAW_DISPROOF CLOSURE_FAILED_BYTES CHILDREN_QUESTION N" and N pairs "PROOF
// DISPROOF"
std::string encode(const JobAnswer& answer) {
  std::string text = fmt::format(
      "answer {} {} {} {} {} {} {} {:.6f} {} {} {} {} {} {} {}", static_cast<int>(answer.answer[kWin]),
      static_cast<int>(answer.answer[kDraw]), word(answer.source[kWin]), word(answer.source[kDraw]),
      answer.scored ? 1 : 0, answer.score, answer.nodes, answer.seconds, answer.proof[kWin],
      answer.disproof[kWin], answer.proof[kDraw], answer.disproof[kDraw], answer.closure_failed_bytes,
      static_cast<int>(answer.children_question), answer.children.size());
  for (const auto& [proof, disproof] : answer.children) text += fmt::format(" {} {}", proof, disproof);
  return text;
}

JobSpec decode_job(const std::string& text) {
  const std::size_t newline = text.find('\n');
  std::istringstream in(text.substr(0, newline));
  std::string tag;
  int kind = -1;
  int question = -1;
  JobSpec job;
  in >> tag >> kind >> question >> job.budget >> job.score >> job.closure_failed_bytes >> job.seconds_left;
  if (!in || tag != "job" || kind < 0 || kind > 3 || question < 0 || question > 1 ||
      !(job.seconds_left >= 0) || newline == std::string::npos) {
    fail("not a back-end job: {}", text.substr(0, 80));
  }
  job.kind = static_cast<JobSpec::Kind>(kind);
  job.question = static_cast<Question>(question);
  job.position = text.substr(newline + 1);
  return job;
}

JobAnswer decode_answer(const std::string& text) {
  std::istringstream in(text);
  std::string tag;
  int win = 0;
  int draw = 0;
  int scored = 0;
  JobAnswer answer;
  int children_question = -1;
  std::size_t children = 0;
  in >> tag >> win >> draw >> answer.source[kWin] >> answer.source[kDraw] >> scored >> answer.score >>
      answer.nodes >> answer.seconds >> answer.proof[kWin] >> answer.disproof[kWin] >> answer.proof[kDraw] >>
      answer.disproof[kDraw] >> answer.closure_failed_bytes >> children_question >> children;
  // A position has at most a few hundred moves: a larger count is not an answer (and
  // must not size a vector).
  if (!in || tag != "answer" || children_question < 0 || children_question > 1 || children > 4096)
    fail("not a back-end answer: {}", text.substr(0, 80));
  answer.children_question = static_cast<Question>(children_question);
  answer.children.resize(children);
  for (auto& [proof, disproof] : answer.children) in >> proof >> disproof;
  if (!in) fail("not a back-end answer: {}", text.substr(0, 80));
  answer.answer[kWin] = answer_of(win);
  answer.answer[kDraw] = answer_of(draw);
  answer.source[kWin] = unword(answer.source[kWin]);
  answer.source[kDraw] = unword(answer.source[kDraw]);
  answer.scored = scored != 0;
  return answer;
}

}  // namespace gs::prove
