/* Probes positions through gamesolver's C API and prints each one's value, best move
 * and every move's value:  probe DATA (GAME VARIANT RULES POSITION)...  with RULES a
 * comma-separated list of rule options or "". */
#include <gamesolver/gamesolver.h>
#include <stdio.h>

static void print_value(gs_value v) {
  if (v.depth >= 0)
    printf("%s in %d", gs_outcome_name(v.outcome), v.depth);
  else
    printf("%s", gs_outcome_name(v.outcome));
}

int main(int argc, char** argv) {
  if (argc < 6 || (argc - 2) % 4 != 0)
    return fprintf(stderr, "usage: probe DATA (GAME VARIANT RULES POSITION)...\n"), 2;
  for (int i = 2; i + 3 < argc; i += 4) {
    gs_database* db = NULL;
    gs_report* r = NULL;
    if (gs_open_with_rules(argv[1], argv[i], argv[i + 1], argv[i + 2], &db) != GS_OK ||
        gs_probe(db, argv[i + 3], &r) != GS_OK) {
      fprintf(stderr, "probe: %s\n", gs_last_error());
      gs_close(db);
      return 1;
    }
    const char* best = gs_report_best_move(r);
    printf("%s %s: ", argv[i], gs_report_position(r)), print_value(gs_report_value(r));
    printf(", best move %s\n", best ? best : "(none)");
    for (size_t m = 0; m < gs_report_move_count(r); ++m)
      printf("  %-8s ", gs_report_move(r, m)), print_value(gs_report_move_value(r, m)), printf("\n");
    gs_report_free(r);
    gs_close(db);
  }
  return 0;
}
