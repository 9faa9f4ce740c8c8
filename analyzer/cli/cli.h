/*
 * cli.h — the subcommands behind main(). Each takes the arguments after
 * its name and returns the process exit code (DESIGN §6).
 */
#ifndef CA_CLI_H
#define CA_CLI_H

#include <stdio.h>

/* scan (baseline_mode=0) and `baseline` (baseline_mode=1: write the findings'
 * fingerprints to --output instead of reporting). cli_scan.c */
int cli_scan(int argc, char **argv, int baseline_mode);
int cli_rules(int argc, char **argv);
int cli_explain(int argc, char **argv);
/* Store readers (cli_store.c): matrix, issue-ready reports, scan diffs. */
int cli_matrix(int argc, char **argv);
int cli_report(int argc, char **argv);
int cli_diff(int argc, char **argv);
/* debug-ir: the IR of a Python file as text (cli_debug.c). */
int cli_debug_ir(int argc, char **argv);

/* Helpers shared by subcommands. */
#define CA_DEFAULT_DB ".cancelaudit/audit.db"
/* Value of option argv[*i] ("--db PATH" or "--db=PATH"); advances *i. NULL
 * with a message on stderr when the value is missing. */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name);
/* 1 when argv[i] is option name (exactly, or as "name=value"). */
int cli_is_opt(const char *arg, const char *name);
/* Refuse an output file that resolves to the database db or its -wal,
 * -shm or -journal file (cli_output.c): 2 after a message naming option,
 * else 0. Call before anything is written. */
int cli_refuse_store_output(const char *option, const char *output, const char *db);
/* The --help text (cli_scan.c). */
void cli_usage(FILE *out);

#endif
