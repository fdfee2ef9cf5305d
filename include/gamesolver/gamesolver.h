/* gamesolver's C API: the databases of a game variant probed from C, or from any
 * language with a C foreign-function interface. Plain C (C99), opaque handles, status
 * codes; no exception crosses it. It is a thin layer over the C++ library
 * (gamesolver/database.h) and answers what the gamesolver command answers.
 *
 *   gs_database* db = NULL;
 *   if (gs_open("data", "jungle", "", &db) != GS_OK) { puts(gs_last_error()); return 1; }
 *   gs_report* r = NULL;
 *   if (gs_probe(db, "7/2t1d2/7/7/7/2D1T2/7 w", &r) == GS_OK) { ... gs_report_free(r); }
 *   gs_close(db);
 *
 * Errors: a call that fails returns its status (never GS_OK) and leaves the message the
 * gamesolver command would print in a buffer of the calling thread, gs_last_error(),
 * until the thread's next failing call. Output pointers are untouched on failure.
 *
 * Threads: one gs_database may be probed by any number of threads at once. A gs_report
 * belongs to whoever made it; strings it returns live as long as it does. The
 * gs_report_* accessors take a report gs_probe made (not NULL).
 *
 * Costs are the C++ library's: gs_open reads nothing; gs_probe costs a probe per legal
 * move and one for the position (a cache hit, or a block decompressed: tens of
 * microseconds); gs_probe_value one probe.
 */
#ifndef GAMESOLVER_GAMESOLVER_H
#define GAMESOLVER_GAMESOLVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gs_status {
  GS_OK = 0,
  GS_ERROR_INPUT = 1,     /* bad position or move text, an argument out of range, NULL */
  GS_ERROR_NOT_FOUND = 2, /* unknown game, variant or rule option; no database directory */
  GS_ERROR_DATABASE = 3,  /* a damaged or unreadable database file */
  GS_ERROR_INTERNAL = 4   /* out of memory, or an internal error */
} gs_status;

/* Values are from the side to move (for a move: of the side making it). */
typedef enum gs_outcome {
  GS_UNKNOWN = -1, /* not in the databases */
  GS_LOSS = 0,
  GS_DRAW = 1,
  GS_WIN = 2
} gs_outcome;

typedef struct gs_value {
  gs_outcome outcome;
  int depth; /* plies to the end with best play; -1 for a draw, unknown, or no depth kept */
} gs_value;

typedef struct gs_database gs_database;
typedef struct gs_report gs_report;

/* The message of the calling thread's last failing call ("" if none). */
const char* gs_last_error(void);

/* Opens the databases of a game variant ("" or NULL: the default) under
 * data/<game>/<variant>/; rules is NULL or a comma-separated list of rule options
 * ("stalemate=loss"). Reads nothing. *out is closed with gs_close. */
gs_status gs_open(const char* data, const char* game, const char* variant, gs_database** out);
gs_status gs_open_with_rules(const char* data, const char* game, const char* variant, const char* rules,
                             gs_database** out);
void gs_close(gs_database* database); /* NULL is ignored */

/* The value of a position only ("start" for the game's start). */
gs_status gs_probe_value(const gs_database* database, const char* position, gs_value* out);

/* The report of a position: its value and every legal move's, best first. *out is freed
 * with gs_report_free. */
gs_status gs_probe(const gs_database* database, const char* position, gs_report** out);
void gs_report_free(gs_report* report); /* NULL is ignored */

gs_value gs_report_value(const gs_report* report);
const char* gs_report_position(const gs_report* report); /* as the game writes it */
int gs_report_terminal(const gs_report* report);         /* 1: the game is over by the rules */
size_t gs_report_move_count(const gs_report* report);
const char* gs_report_move(const gs_report* report, size_t i);          /* NULL past the end */
const char* gs_report_move_position(const gs_report* report, size_t i); /* NULL past the end */
gs_value gs_report_move_value(const gs_report* report, size_t i);       /* GS_UNKNOWN past the end */
const char* gs_report_best_move(const gs_report* report); /* NULL: none (not every move known) */
/* The report as `gamesolver probe --json` prints it, and as text as `gamesolver probe`. */
const char* gs_report_json(const gs_report* report);
const char* gs_report_text(const gs_report* report);

/* "win", "draw", "loss" or "unknown": a static string. */
const char* gs_outcome_name(gs_outcome outcome);

#ifdef __cplusplus
}
#endif

#endif /* GAMESOLVER_GAMESOLVER_H */
