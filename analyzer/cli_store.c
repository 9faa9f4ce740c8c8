/*
 * cli_store.c — subcommands that read the store: matrix, report, diff.
 * Placeholder text output until the reporters for them land.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "store.h"

int cli_matrix(int argc, char **argv)
{
    const char *db = CA_DEFAULT_DB;
    for (int i = 0; i < argc; i++)
        if (cli_is_opt(argv[i], "--db")) {
            const char *v = cli_opt_value(argc, argv, &i, "--db");
            if (!v) return 2;
            db = v;
        }
    ca_store *st = NULL;
    char *err = NULL;
    if (store_open(db, &st, &err) != 0) {
        fprintf(stderr, "cancelaudit: database %s: %s\n", db, err);
        free(err);
        return 3;
    }
    ca_results r;
    memset(&r, 0, sizeof(r));
    int rc = store_load_scan(st, 0, &r, &err);
    store_close(st);
    if (rc != 0) {
        fprintf(stderr, "cancelaudit: %s\n", err ? err : "no scan");
        free(err);
        return rc == 1 ? 2 : 3;
    }
    for (size_t i = 0; i < r.ncoverage; i++) {
        const ca_coverage *c = &r.coverage[i];
        printf("%-20s %-16s %-9s %s%s\n", c->boundary, c->backend, c->status, c->rules, c->protection);
    }
    ca_results_free(&r);
    return 0;
}

int cli_report(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "cancelaudit: report: not available in this build yet\n");
    return 2;
}

int cli_diff(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "cancelaudit: diff: not available in this build yet\n");
    return 2;
}
