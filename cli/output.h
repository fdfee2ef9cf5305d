#pragma once
// The results of the game service (app/results.h) as the gamesolver command prints
// them: text for people, JSON (--json) for programs, to the stream it is given.
#include <ostream>
#include <string>

#include "app/position_report.h"
#include "app/requests.h"
#include "app/results.h"
#include "db/compress.h"
#include "retro/count.h"

namespace gs::cli {

// build and extended: a line per tier as it finishes ("already built" only when not
// quiet), then the summary.
void print_built_tier(std::ostream& out, const app::BuiltTier& tier, bool quiet);
void print_build_summary(std::ostream& out, const app::BuildSummary& summary);

void print_extended(std::ostream& out, const app::ExtendedTable& table, bool json);

void print_analysis(std::ostream& out, const app::GameAnalysis& analysis, bool json);

// verify: a line per tier ("ok" only when not quiet; an inconsistent tier with its count
// and the positions listed, a tier not verified with its error, quiet or not).
void print_verified_tier(std::ostream& out, const app::VerifiedTier& tier, bool quiet);
// The last line on stdout: what was verified, or how many inconsistent positions were
// not listed (beyond --max-errors).
void print_verify_summary(std::ostream& out, const app::VerifySummary& summary, const std::string& game,
                          const app::VerifyRequest& request);
// The error of a verification that found something wrong: the counts, and the first
// tier that could not be verified.
std::string verify_failure_text(const app::VerifySummary& summary);

// compress: its progress lines (unless quiet) and its last line.
db::CompressEvents compress_printer(std::ostream& out, bool quiet);
void print_compress_summary(std::ostream& out, const db::CompressSummary& summary, const std::string& game,
                            const TierScope& scope);

void print_stats(std::ostream& out, const app::StatsSummary& stats, bool json);

struct CountLayout {
  bool json = false;
  bool per_tier = false;
  bool per_material = false;
  bool sizes_only = false;
};
void print_count(std::ostream& out, const retro::CountResult& counts, const std::string& game,
                 const CountLayout& layout);

void print_perft(std::ostream& out, const app::PerftResult& perft, bool json);
void print_match(std::ostream& out, const app::MatchResult& match, bool json);
void print_ultra_classes(std::ostream& out, const app::UltraClasses& classes, bool json);

void print_solve(std::ostream& out, const app::SolveResult& solve, bool json);
void print_prove(std::ostream& out, const app::ProveResult& prove, bool json);

}  // namespace gs::cli
