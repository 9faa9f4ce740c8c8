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
/* merge OUT.db IN.db...: one scan from the stores of sharded scans (cli_store.c). */
int cli_merge(int argc, char **argv);

/* Helpers shared by subcommands. */
#define CA_DEFAULT_DB ".cancelaudit/audit.db"
/* The store a command uses when --db is not given (cli_project.c):
 * $CANCELAUDIT_DB, else .cancelaudit/audit.db at the project root of
 * `start` (a scanned path; NULL: the current directory), else in the
 * current directory. Heap string; *why (heap) says how it was chosen, for
 * -v. */
char *cli_default_db(const char *start, char **why);
/* Shown path: relative to the current directory when under it. Heap. */
char *cli_shown_path(const char *path);
/* Value of option argv[*i] ("--db PATH" or "--db=PATH"); advances *i. NULL
 * with a message on stderr when the value is missing. */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name);
/* 1 when argv[i] is option name (exactly, or as "name=value"). */
int cli_is_opt(const char *arg, const char *name);
/* Refuse an output file that resolves to the database db or its -wal,
 * -shm or -journal file (cli_output.c): 2 after a message naming option,
 * else 0. Call before anything is written. */
int cli_refuse_store_output(const char *option, const char *output, const char *db);
/* Help (cli_help.c): the overview, and one command's help (0; 2 after a
 * message for an unknown command). */
void cli_usage(FILE *out);
int cli_help(FILE *out, const char *cmd);
/* 1 when -h or --help is among the arguments (before a "--"). */
int cli_wants_help(int argc, char **argv);
/* Usage errors on stderr, with "did you mean" when something is close:
 * an option cmd does not know, an unknown command, an unknown rule id
 * (`where` names the option or key it came from). */
void cli_bad_option(const char *cmd, const char *arg);
void cli_unknown_command(const char *cmd);
void cli_bad_rule(const char *bad, const char *where);

#endif
